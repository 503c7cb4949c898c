/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h: the API of report.c, the text reports of finished results:
 * the 2009 summary block, the extension block, the --fail-above verdicts,
 * the per-client table, the histogram, the autopsy and the progress line.
 * Nothing here measures.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "result.h"

#define PCT_BEYOND	10	/* samples beyond a percentile shown */
#define FEW_SAMPLES	1000	/* fewer: the summary says so */
uint64_t report_pct_need(double q);	/* samples a quantile needs */
void	 report_text(FILE *, const struct config *, const struct result *);
int	 report_verbose(FILE *, const struct sample *);	/* < 0: failed */
unsigned report_limits(FILE *, const struct config *, const struct result *);
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
