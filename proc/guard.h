/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guard.h: the API of guard.c, what ends everything latt started beside
 * its measurement however latt ends: the sweep of the strays (processes
 * that left the workload's group, reparented to latt, its subreaper) at
 * every end, and the guardian, a small process that outlives latt and
 * ends the workload's groups, latt's children and all they started when
 * latt dies without ending them (kill -9); and the guardian of an undo,
 * which puts back what latt changed outside itself (a kernel knob's file)
 * when latt dies.  workload.c uses the first two, tune.c the undo.
 */
#ifndef GUARD_H
#define GUARD_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* The guardian, as latt holds it. */
struct guard {
	pid_t		 pid;		/* 0: none */
	int		 fd;		/* its pipe, -1: none; closed by latt's
					   end, however it comes */
};

int	 guard_start(struct guard *);
int	 guard_start_undo(struct guard *, void (*undo)(void *), void *arg);
void	 guard_tell(const struct guard *, char what, pid_t);
void	 guard_stop(struct guard *);
void	 guard_sweep(const pid_t *spare, size_t nspare, int64_t grace_ns);

/* What guard_tell says: a process group to end, a pid to spare. */
#define GUARD_GROUP	'G'
#define GUARD_SPARE	'S'

#endif /* GUARD_H */
