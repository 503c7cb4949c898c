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

#include "lib/common.h"

struct cmp_gate;
struct cmp_side;
struct config;
struct result;
struct run_brief;
struct sample;

/* The runs written so far, as JSON (json_write_run). */
struct runs {
	FILE			*fp;		/* into m, or NULL */
	struct mem		 m;
	unsigned		 n;
	int			 err;		/* a run failed: none kept */
};

/*
 * A report file, claimed before the run.  A regular file (or one still to
 * be made) is written into a temporary file (tmp_open) and renamed over it
 * once whole; a FIFO or a device is written as it is, a FIFO opened only
 * when its report is written (the log's: before the run).
 */
struct report_file {
	const char	*opt;		/* its option, as messages name it */
	const char	*path;		/* as given */
	char		*target;	/* links followed: replaced */
	char		*tmp;		/* .NAME.tmp-PID, or NULL */
	int		 anon;		/* tmp not made: O_TMPFILE */
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
	struct report_file	 ktapf;		/* --ktap: a file, or stdout's */
	int			 progress;	/* bare, a tty, no -q */
	int			 shown;		/* a progress line is up */
	struct runs		 runs;
};

/*
 * Claims the output files, so that a file that cannot be written fails
 * before anything starts (a log into a FIFO waits for its reader now),
 * and the memory the runs' JSON is kept in.  res is the result the runs
 * are measured into.  Returns 0, or -1 after saying why.
 */
int	 outputs_open(struct outputs *, const struct config *,
	    struct result *res);
/* Whether the run must hand every sample to outputs_sink. */
int	 outputs_want_samples(const struct outputs *);
/* Whether the run must call outputs_tick once a second. */
int	 outputs_want_ticks(const struct outputs *);
/*
 * Sees every sample (the argument is the struct outputs): the log and
 * -v.  Returns -1 with errno set when the log fails.
 */
int	 outputs_sink(void *, const struct sample *);
/*
 * Once a second: pushes the log to its file (so that a full disk shows
 * within a second) and redraws the progress line once the run is past
 * two seconds.  Returns -1 when the log fails.
 */
int	 outputs_tick(void *, const struct result *);
/* Takes the progress line off the terminal, if one is up. */
void	 outputs_progress_off(struct outputs *);
/*
 * A run's text summary (with --repeat, of the nruns runs, res their
 * total), unless the JSON takes stdout.
 */
void	 outputs_summary(const struct config *, const struct result *res,
	    const struct run_brief *, unsigned nruns);
/*
 * A finished run: the rest of its log rows written, its JSON kept for the
 * results file and --baseline.  Returns 0, or -1 after saying why.
 */
int	 outputs_add_run(struct outputs *, const struct result *);
/*
 * The reports, once the runs are over: with --repeat, the per-client
 * table and the histogram of all runs; the JSON and the plot; then the
 * log is closed.  res is the run, or the totals of all runs.  Returns
 * EXIT_OK or EXIT_RUNTIME.
 */
int	 outputs_write(struct outputs *, struct result *res);
/*
 * --baseline: this run (or these runs), written as JSON into memory and
 * read back as side B, against the baseline's side A, after the summary,
 * exactly as latt compare would read the file.  Returns what
 * --fail-if-worse found (CMP_GATE_MET also without it, CMP_GATE_EXCEEDED
 * or CMP_GATE_CANNOT, its "gate:" line on stderr), or -1 after saying why
 * it could not compare.
 */
int	 outputs_baseline(struct outputs *, const struct result *total,
	    struct cmp_side *, const struct cmp_gate *);
/*
 * --ktap's stream (stdout's own descriptor, kept by outputs_open), its
 * version line and plan written, for the gates' tests; NULL without
 * --ktap or after saying why.  outputs_ktap_end puts it in place when
 * whole, else drops it; 0, or -1 after saying why.
 */
FILE	*outputs_ktap(struct outputs *, unsigned plan);
int	 outputs_ktap_end(struct outputs *, FILE *, int whole);
/*
 * A knob swept over two values: its runs, value against value, as latt
 * compare --by-knob reads the file, after the table.  Returns 0, or -1
 * after saying why it could not compare.
 */
int	 outputs_knob_compare(struct outputs *, const struct result *total);
/*
 * The end, however the run went: what was not written is dropped (its
 * temporary file removed, the old file left as it was).
 */
void	 outputs_close(struct outputs *);

#endif /* OUTPUTS_H */
