/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor.h: the API of floor.c, latt's own floor: what the instrument costs
 * on this machine, measured once at start-up, so that a reader knows what
 * part of a latency is latt and what part the scheduler.
 */
#ifndef FLOOR_H
#define FLOOR_H

/* Each the least mean of a few batches, ns; -1: not measured. */
struct own_floor {
	int		 valid;		/* measured at all */
	double		 clock_ns;	/* one clock_gettime(CLOCK_MONOTONIC) */
	double		 pipe_ns;	/* a pipe write plus read, no switch */
	double		 pingpong_ns;	/* one way of a ping-pong of two threads
					   on one CPU: a write, a wake-up, a
					   switch, a read */
};

/* Takes well under 100 ms; starts one short-lived thread, forks nothing. */
void	 floor_measure(struct own_floor *);

#endif /* FLOOR_H */
