/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h: what a run holds while it runs, apart from what was asked
 * (config.h) and what came out (result.h): the tracefs handles of
 * --breaktrace, --explain's instance and its keeper, and what latt probed
 * of the machine before starting.  latt.c owns it and hands it to the
 * rooms that need it.
 */
#ifndef RUN_H
#define RUN_H

#include "explain/explain.h"
#include "explain/trace.h"
#include "record/topo.h"
#include "sweep/knob.h"

struct run {
	struct trace	 trace;		/* --breaktrace; fds -1 when unused */
	struct tinst	 inst;		/* --explain's instance */
	unsigned long	 inherited_slack;	/* timer slack to give the
						   workload */
	int		 schedstat;	/* the parent reads the clients'
					   schedstat: the split is on */
	struct knob	 knob;		/* --sweep=FILE=...: the knob, saved
					   and guarded; file NULL: none */
	uint64_t	 busy_per_ms;	/* turns of the busy phase's loop a
					   millisecond (client_busy_calibrate), or
					   0: no busy phase */
	struct topo	*topo;		/* the CPU topology (topo.h), read
					   before the run */
};

#endif /* RUN_H */
