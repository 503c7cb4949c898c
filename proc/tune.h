/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tune.h: the API of tune.c, the placement and priority of latt's own
 * processes (the parent, the clients, the workload): the timer slack,
 * memory locking, CPU pinning and scheduling attributes, checked before
 * the run and read back after they are set; and the record of the
 * scheduler they run under.
 */
#ifndef TUNE_H
#define TUNE_H

#include <stdint.h>

#include "config.h"

/* What the kernel said a client's attributes were (sched_getattr). */
struct sched_got {
	int		 valid;		/* 0: not read back */
	int		 policy;
	int		 prio;
	int		 nice;
	uint64_t	 runtime;	/* a fair task's slice, or deadline's */
	uint64_t	 deadline;
	uint64_t	 period;
};

/*
 * Tries the clients' scheduling in a throw-away child before the run:
 * each class's attributes (or --policy, --prio, --nice), set with
 * sched_setattr and read back with sched_getattr, in a thread per class
 * (a thread per client of a SCHED_DEADLINE class, all held at once, so
 * that admission control sees the whole class); then latt's own policy.
 * Returns 0, -1 after saying on stderr, in one line, what refused and
 * why, or -2 when the probe itself could not run (a pipe, a fork, its
 * death): not bad input.
 */
int	 tune_check(const struct config *);
/*
 * The parent, before the clients start: a timer slack of 1 ns, so that
 * SCHED_OTHER sleeps are not rounded up by the default 50 us (the clients
 * inherit it; the one it had goes to *slack, for the workload), and with
 * --mlock all memory locked and the stack touched.  Returns 0, or -1
 * after saying why on stderr.
 */
int	 tune_parent(const struct config *, unsigned long *slack);
/*
 * The parent's pin (--parent-cpu) and its own policy (--parent-prio, or
 * the default that goes with real-time clients): called once the clients
 * and the workload have started, so that neither inherits them
 * (SCHED_RESET_ON_FORK keeps the policy from anything latt forks later).
 * Each returns 0, or -1 with errno set.
 */
int	 tune_pin_parent(const struct config *);
int	 tune_sched_parent(const struct config *);
/*
 * --dma-latency=US: opens /dev/cpu_dma_latency and writes US, which the
 * kernel's PM QoS holds for as long as the descriptor stays open (as
 * cyclictest does).  Returns the descriptor, -2 when not asked for, or -1
 * after saying why on stderr.
 */
int	 tune_dma_open(const struct config *);
/*
 * In client idx, before it says it is ready: memory lock, CPU, and its
 * class's scheduling (or --policy, --prio, --nice), set and read back into
 * *got.  Returns 0, or -1 with errno set and *what naming the call.
 */
int	 tune_client(const struct config *, unsigned idx, const char **what,
	    struct sched_got *got);
/*
 * latt's own slice as sched_getattr reports it, when it is a fair task (a
 * fair task without a slice of its own has the base slice), or -1.
 */
int64_t	 tune_own_slice(void);

#endif /* TUNE_H */
