/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outputs.h: the API of outputs.c, where a run's reports go: opened
 * before the run, fed during it by the sink and the tick, written from
 * the finished results after it.
 */
#ifndef OUTPUTS_H
#define OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "result.h"

struct cmp_side;
struct cmp_gate;
struct run_brief;

/* The runs written so far, as JSON (json_write_run). */
struct runs {
	FILE			*fp;		/* open_memstream, or NULL */
	char			*buf;
	size_t			 len;
	unsigned		 n;
};

/*
 * A report file, claimed before the run.  A regular file (or one still to
 * be made) is written into a temporary file beside it and renamed over it
 * once whole; a FIFO or a device is written as it is, a FIFO opened only
 * when its report is written (the log's: before the run).
 */
struct report_file {
	const char	*path;		/* as given */
	char		*target;	/* links followed: replaced */
	char		*tmp;		/* .NAME.tmp-PID-XXXXXX, or NULL */
	int		 fd;		/* or -1 */
	int		 fifo;		/* a FIFO: opened when written */
	int		 existed;	/* the target existed: kept */
};

/* What the sink and the tick need: the outputs that go along with a run. */
struct outputs {
	const struct config	*cfg;
	struct result		*res;		/* the run being measured */
	FILE			*log;
	struct report_file	 logf;		/* --log */
	int			 log_failed;	/* said; not kept */
	struct sample		*rows;		/* log rows to sort */
	size_t			 nrows;
	size_t			 maxrows;
	unsigned		 nrun;		/* runs logged so far */
	struct report_file	 json;		/* --json=FILE */
	struct report_file	 plot;		/* --plot */
	int			 progress;	/* bare, a tty, no -q */
	int			 shown;		/* a progress line is up */
	struct runs		 runs;
};

int	 outputs_open(struct outputs *, const struct config *,
	    struct result *);
int	 outputs_want_samples(const struct outputs *);
int	 outputs_want_ticks(const struct outputs *);
int	 outputs_sink(void *, const struct sample *);
int	 outputs_tick(void *, const struct result *);
void	 outputs_progress_off(struct outputs *);
/* A run's text summary (with --repeat, of all runs), unless the JSON
 * takes stdout. */
void	 outputs_summary(const struct config *, const struct result *,
	    const struct run_brief *, unsigned nruns);
/*
 * A finished run: the rest of its log rows written, its JSON kept for the
 * results file and --baseline.
 */
int	 outputs_add_run(struct outputs *, const struct result *);
/* The reports of res (the run, or the totals of all runs): EXIT_*. */
int	 outputs_write(struct outputs *, struct result *);
/* 1: --fail-if-worse finds the runs worse; 0; -1: could not compare. */
int	 outputs_baseline(struct outputs *, const struct result *total,
	    struct cmp_side *, const struct cmp_gate *);
/* --sweep of a knob at two values: the comparison, after the table. */
int	 outputs_knob_compare(struct outputs *, const struct result *total);
void	 outputs_close(struct outputs *);

#endif /* OUTPUTS_H */
