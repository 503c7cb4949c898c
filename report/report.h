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

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "result.h"

#define FEW_SAMPLES	1000	/* fewer: the summary says so */

/* A run's headline figures, ns (-1: none), kept for --repeat's summary. */
struct run_brief {
	uint64_t	 n;		/* latency samples */
	int64_t		 p50, p99;
	int64_t		 worst;		/* the samples' */
	int64_t		 lower;		/* the oldest unanswered wake-up's
					   age, when above worst: a lower
					   bound of the worst; else -1 */
	uint64_t	 tn;		/* timer samples */
	int64_t		 tp99, tworst;
	enum stop_reason stop;
	int		 stop_signal;
	int		 wl_stopsig;
};
void	 report_brief(struct run_brief *, const struct result *);
/* A time as the reports write it (fmt_time, digits): "-" for NAN. */
const char *report_time(char *, size_t, double ns, int digits);
/* A statistic of st, ns, or NAN where its samples cannot give it. */
double	 report_stat(const struct stats *, enum stat_kind);
/* On fp, a --repeat run's line as it ends: "run 2 of 5: ..." */
void	 report_run_line(FILE *, const struct run_brief *, unsigned i,
	    unsigned n);
/* The summary of res; with --repeat, res is the total of nruns runs. */
void	 report_text(FILE *, const struct config *, const struct result *,
	    const struct run_brief *runs, unsigned nruns);
int	 report_verbose(FILE *, const struct sample *);	/* < 0: failed */
void	 report_per_client(FILE *, const struct config *,
	    const struct result *);
void	 report_histogram(FILE *, const struct result *, int width);
void	 report_progress(FILE *, const struct config *, const struct result *,
	    int64_t now, int width);
void	 report_explain(FILE *, const struct result *);
/* On stderr, in one line, why a run failed; returns the exit status. */
int	 report_failure(const struct config *, const struct result *);
/* On stderr: --breaktrace ended the run, and where to look. */
void	 report_break(const char *trace_dir, const struct brk *);
/* On stderr: what cost --explain's autopsy, or went wrong under it. */
void	 report_explain_fault(const struct result *);

#endif /* REPORT_H */
