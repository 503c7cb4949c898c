/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guard.h: the API of guard.c, what ends everything latt started beside
 * its measurement however latt ends: the sweep of the strays at every
 * end, the guardian for when latt dies without ending them (kill -9), and
 * the guardian of an undo.  workload.c uses the first two, the knob the
 * undo.
 */
#ifndef GUARD_H
#define GUARD_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* A guardian, as latt holds it. */
struct guard {
	pid_t		 pid;		/* 0: none */
	int		 fd;		/* its pipe, -1: none; closed by latt's
					   end, however it comes */
};

/* What guard_tell says: a process group to end, a pid to spare. */
#define GUARD_GROUP	'G'
#define GUARD_SPARE	'S'

/*
 * Starts a guardian.  Without undo, latt-guard, which ends the groups it
 * is told of, latt's children and all they started once latt dies without
 * guard_stop.  With undo, latt-undo, which then calls undo(arg) (arg its
 * own copy of latt's memory, as it was at the fork), to put back what
 * latt changed outside itself (a kernel knob's file), holding keep (>= 0:
 * the knob's lock) till then; a latt-guard must spare it (GUARD_SPARE), or
 * would end it first.  Returns 0, or -1 with errno set (fork, pipe): a
 * runtime failure, since latt would otherwise run unguarded.
 */
int	 guard_start_undo(struct guard *, void (*undo)(void *), void *arg,
	    int keep);
/* Tells a guardian of a group to end or a pid to spare. */
void	 guard_tell(const struct guard *, char what, pid_t);
/*
 * latt ended everything itself: the guardian is told so, and goes; one
 * that does not go within a second is killed.  Reaped either way.
 */
void	 guard_stop(struct guard *);
/*
 * Ends latt's children that are none of its own: everything but its own
 * process group (the clients) and the pids in spare, which at an end are
 * the workload's strays come back to latt, its subreaper.  SIGTERM and
 * SIGCONT first, SIGKILL once grace_ns has passed, the same for the
 * orphans of those as they come back; every one reaped.  Returns when
 * none is left, or 5 s after the SIGKILL at worst.
 */
void	 guard_sweep(const pid_t *spare, size_t nspare, int64_t grace_ns);

#endif /* GUARD_H */
