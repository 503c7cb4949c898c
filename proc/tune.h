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

int	 tune_check(const struct config *);
int	 tune_parent(const struct config *, unsigned long *slack);
int	 tune_pin_parent(const struct config *);
int	 tune_sched_parent(const struct config *);
int	 tune_dma_open(const struct config *);	/* fd, -2: off, -1: failed */
int	 tune_client(const struct config *, unsigned, const char **,
	    struct sched_got *);
void	 tune_workload(unsigned long slack);
int64_t	 tune_own_slice(void);

#endif /* TUNE_H */
