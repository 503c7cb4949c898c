/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * split.h: the API of split.c, the runqueue-wait split of a wake-up from
 * two readings of the woken process's run delay (/proc/PID/schedstat),
 * one before the wake-up and one after it.  measure.c decides when to
 * read; split.c reads and says what the two readings mean.
 */
#ifndef SPLIT_H
#define SPLIT_H

#include <sys/types.h>

#include <stdint.h>

/* One process's schedstat, held open, and its reading before a wake-up. */
struct split_proc {
	int		 fd;		/* /proc/PID/schedstat, or -1 */
	uint64_t	 round;		/* the round read before, 0: none */
	int64_t		 delay0;	/* ns runnable, not running, then */
	uint64_t	 runs0;		/* times it got a CPU, or UINT64_MAX:
					   its wake-up will be left out */
};

/*
 * Whether latt can read its processes' run delays: its own
 * /proc/PID/schedstat, read as a client's will be.  Returns 0, or -1
 * with errno set.
 */
int	 split_probe(void);

/* Opens pid's schedstat into sp->fd.  Returns 0, or -1 with errno set. */
int	 split_open(struct split_proc *, pid_t);

/* Closes it; safe on a split_proc never opened (fd -1). */
void	 split_close(struct split_proc *);

/*
 * The reading before round's wake-up of a process that is blocked (busy
 * 0) or may not be (busy 1: it has a wake-up still unanswered, so that
 * the readings would take in more than one: it will be left out).
 */
void	 split_before(struct split_proc *, uint64_t round, int busy);

/*
 * The reading after the wake-up (the process has answered it): its
 * runqueue wait into *rq_wait, at most latency (a wait that began before
 * the send is this wake-up's only from the send).  Returns 0, or -1 when
 * it cannot be told: the process got a CPU other than exactly once since
 * the reading before (it was preempted after waking, say), or a reading
 * failed.
 */
int	 split_after(struct split_proc *, int64_t latency, int64_t *rq_wait);

#endif /* SPLIT_H */
