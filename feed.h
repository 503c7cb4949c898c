/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * feed.h: the API of feed.c, what the measurement loop records into a
 * result as it goes: each kept wake-up into the series of the run and of
 * its class, the work, the busy phase and the order check; and latt's own
 * stalls.  Nothing here measures or prints.
 */
#ifndef FEED_H
#define FEED_H

#include <stdint.h>

#include "config.h"
#include "result.h"

#define STALL_NS	(50 * NSEC_PER_MSEC)	/* latt late: a stall */

/* One frame of a frame client, as the loop took it from its reply. */
struct frame_rec {
	int64_t		 when;		/* its start, ns since the start */
	int64_t		 wake;		/* woke minus start, ns */
	int64_t		 time;		/* done minus start, ns */
	uint64_t	 frame;		/* its number, from 1 */
	uint64_t	 skipped;	/* boundaries passed while it worked */
	uint64_t	 run;		/* deadlines missed in a row through
					   it, its skipped ones included */
};

/* A frame of client idx into its class's deadlines and series. */
void	 feed_frame(struct result *, const struct config *, unsigned idx,
	    const struct frame_rec *);
/* A kept wake-up of client idx into res (its series and its class's). */
void	 feed_sample(struct result *, const struct config *, unsigned idx,
	    const struct sample *);
/*
 * A stall of latt itself: from when (CLOCK_MONOTONIC) for len ns no
 * sample could be taken.  One that starts where the last one ended
 * extends it; what a suspension (Ctrl-Z) covers is left out, and what is
 * left must still be over STALL_NS.  The first STALLS_MAX are kept; all
 * are counted.
 */
void	 feed_stall(struct result *, int64_t when, int64_t len);

#endif /* FEED_H */
