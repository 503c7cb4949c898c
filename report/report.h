/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h: the API of report.c, the text reports of finished results:
 * the summary (the 2009 block, the headline, the details table, the
 * facts), the line of each --repeat run, the per-client table, the
 * histogram, the autopsy, the progress line and why a run failed.
 * Nothing here measures.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"
#include "stats.h"

struct config;

#define FEW_SAMPLES	1000	/* fewer: a note says so */

/* A run's headline figures, ns (-1: none), kept for --repeat's summary. */
struct run_brief {
	uint64_t	 n;		/* latency samples */
	int64_t		 p50, p99;
	int64_t		 worst;		/* the samples' */
	int64_t		 lower;		/* the oldest unanswered wake-up's
					   age, when above worst: a lower
					   bound of the worst; else -1 */
	int64_t		 tp99, tworst;	/* the timer's */
	enum stop_reason stop;
	int		 stop_signal;
	int		 wl_stopsig;
	const char	*knob_moved;	/* another writer's value, or "" */
};
/* The figures of a run that its headline and its line of --repeat show. */
void	 report_brief(struct run_brief *, const struct result *);
/* On fp, a --repeat run's line as it ends: "run 2 of 5: 1696 ...". */
void	 report_run_line(FILE *, const struct run_brief *, unsigned i,
	    unsigned n);
/*
 * The summary of res; with --repeat (nruns > 1), res is the total of the
 * runs.  The first block keeps the 2009 tool's exact shape (whole
 * microseconds, "%8.0f" after a tab and a space; "-" where the samples
 * give no figure) so that scripts written for it keep working; nothing
 * after it contains Entries, Max, Avg or Stdev.  Then the headline, one
 * line with the figures to read first; the details table; with --repeat
 * one line a run; the order check and the frame classes; then at most
 * five notes, what makes the figures doubtful or notable, in two columns
 * (facts_row).  --details adds where the clients woke and every fact.
 * Every line fits 80 columns but the command's and a class's options,
 * and microseconds are "us" outside the 2009 block.
 */
void	 report_text(FILE *, const struct config *, const struct result *,
	    const struct run_brief *runs, unsigned nruns);
/* -v: one line a sample, as 2009's "log delay" lines; < 0: it failed. */
int	 report_verbose(FILE *, const struct sample *);
/*
 * The per-client table.  Per-client histograms are coarse
 * (CLIENT_SUB_BITS), so the p99 column is within 6.25% of the exact value.
 */
void	 report_per_client(FILE *, const struct config *,
	    const struct result *);
/*
 * The text histogram: one line per power of two of latency, from the
 * lowest non-empty one to the highest, with the count, the cumulative
 * percentage and a bar scaled to width columns; samples beyond the
 * histogram's range get a line of their own.
 */
void	 report_histogram(FILE *, const struct result *, int width);
/*
 * The progress line on a terminal: carriage return, the figures so far,
 * cut to width - 1 columns so that it never wraps, and an erase to the
 * end of the line, so that it redraws in place.  It says what runs beside
 * the measurement: the workload (or that it ended), the loads, or nothing.
 */
void	 report_progress(FILE *, const struct config *, const struct result *,
	    int64_t now, int width);
/*
 * --explain: the autopsy of each kept sample: a header, the timeline from
 * the send stamp (the CPU where each thing happened), the split of the
 * latency, and the verdict.  Every time is written by autopsy_dur's rule,
 * and every line fits in 80 columns (but a tracefs path longer than a
 * line).
 */
void	 report_explain(FILE *, const struct result *);
/*
 * On stderr, in one line, why a run failed (a runtime failure outranks a
 * failed workload); returns the exit status.
 */
int	 report_failure(const struct config *, const struct result *);
/* On stderr: --breaktrace ended the run, and where to look. */
void	 report_break(const char *trace_dir, const struct brk *);
/*
 * On stderr, in one line, what cost --explain's autopsy (its keeper
 * stopped or dead, the trace unreadable), or that tracefs was unmounted
 * under it; the run's other results stand.
 */
void	 report_explain_fault(const struct result *);

#endif /* REPORT_H */
