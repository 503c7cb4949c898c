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
#include "measure/client.h"
#include "result.h"

#define STALL_NS	(50 * NSEC_PER_MSEC)	/* latt late: a stall */

/*
 * Hands a sample to sink(arg, s): its status.  A sink that blocks latt for
 * more than STALL_NS (a --log reader slower than the samples) is a stall.
 */
int	 feed_sink(struct result *, int (*)(void *, const struct sample *),
	    void *, const struct sample *);

/*
 * A frame of client idx (its reply: client.h) into its class's deadlines
 * and series, unless it started in the --warmup or at end (the run's,
 * CLOCK_MONOTONIC) or later, or ran across a suspension.
 */
void	 feed_frame(struct result *, const struct config *, unsigned idx,
	    const struct reply *, int64_t end);
/*
 * Whether what was sent at send and done at end (CLOCK_MONOTONIC) ran
 * across the last suspension (Ctrl-Z): it measured the suspension, and is
 * counted as dropped.
 */
int	 feed_suspended(struct result *, int64_t send, int64_t end);
/*
 * At the end, the deadlines client idx let pass since its last frame
 * (whose next frame was due at next, CLOCK_MONOTONIC, run the misses in a
 * row through it) up to end: not started, its stutter going on.
 */
void	 feed_frames_end(struct result *, const struct config *, unsigned idx,
	    int64_t next, int64_t end, uint64_t run);
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
/*
 * The closed loop before a sleep of next ns: how long its last round (sent
 * by sent) waited, to now, past the next one's time, less latt's stalls.
 */
void	 feed_waited(struct result *, int64_t sent, int64_t now, int64_t next);

#endif /* FEED_H */
