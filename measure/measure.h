/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * measure.h: the API of measure.c, the parent's side of a measurement:
 * measure_start forks the clients (what they run is client.c's),
 * measure_run takes samples until the run ends and hands each to a sink,
 * measure_stop ends them.  The loop never prints: what it sees goes into
 * the result and through the sink.
 */
#ifndef MEASURE_H
#define MEASURE_H

#include "config.h"
#include "result.h"

struct run;

/*
 * A sink receives every sample as it is taken; it returns 0, or -1 with
 * errno set to end the run (a log file that cannot be written, say).
 */
typedef int (*sample_sink)(void *arg, const struct sample *);

/*
 * A tick is called by the measurement loop between rounds (and during long
 * sleeps), at most once a second, with the sink's argument.  It returns 0,
 * or -1 with errno set to end the run like a failed sink.
 */
struct result;
typedef int (*tick_hook)(void *arg, const struct result *);

struct engine;
struct engine	*measure_start(const struct config *, const struct run *,
		    struct result *);
int	 measure_run(const struct config *, struct run *, struct engine *,
	    struct result *, sample_sink, tick_hook, void *sink_arg);
void	 measure_stop(struct engine *, struct result *);
void	 measure_signal(struct engine *, int sig);

#endif /* MEASURE_H */
