/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmp.h: what the rooms of latt compare share among themselves and no
 * other room needs; compare.h is their API for the rest of latt.
 *
 *   compare.c   the table, the JSON report, the gate and the subcommand;
 *   cmpread.c   result files read into sides of runs, strictly;
 *   cmpfile.c   a result file opened, known (none twice) and read whole;
 *   cmpstat.c   a run summed up (its statistics), and the one rule
 *               that judges every row: values a run, side against side;
 *   cmpshow.c   a setting and the host's state in words, and where two
 *               sides differ;
 *   cmpvals.c   the rows of a value a run that is no latency: what the
 *               kernel counted, frames missed, placement shares;
 *   cmpwork.c   the workload's rows, and --by-knob's sides.
 *   cmpgate.c   the gate's spec, and --ktap: its limits as KTAP tests.
 *
 * compare.c calls the others; cmpread.c calls the readers of cmpfile.c,
 * cmpshow.c, cmpvals.c and cmpwork.c, each of which keeps its part of a
 * side; cmpstat.c calls none, so that the statistics stand alone
 * (tests/calib_compare.c needs nothing else).
 */
#ifndef CMP_H
#define CMP_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/compare.h"
#include "json/jsonread.h"
#include "stats.h"

#define CMP_LEVEL	0.975	/* two-sided confidence of the intervals:
				   cmp_level's default (--confidence) */
#define CMP_MIN_RUNS	3	/* runs a side for a verdict */
#define CMP_MAX_NEED	1000	/* runs a side, at most, said to tell */
#define CMP_WANT	10	/* the change that matters without a gate:
				   percent, or points of a share */
#define CMP_MIN_SAMPLES	10	/* samples a run needs for a mean, sd, min
				   or max (a percentile: stats_need) */
#define CMP_MAX_SERIES	48	/* named series a side can hold: latency,
				   timer, the split's, the placement
				   kinds and up to CLASS_MAX classes */
#define CMP_PLACE_KINDS	5	/* placement kinds */
#define CMP_PLACE_COLS	(CMP_PLACE_KINDS + 1)	/* and the migrations */

/* One series of one run, summed up. */
struct cmp_run {
	uint64_t	 n;			/* samples */
	double		 val[STAT_NKINDS];	/* ns; NAN: too few samples */
	double		 res;		/* the histogram's rounding, as a
					   variance of log(a percentile) */
};

/* A named series over the runs of a side. */
struct cmp_series {
	char		*name;		/* "latency", "timer", ... */
	size_t		 nruns;		/* runs that had it */
	struct cmp_run	*runs;
};

/* Values a run of a side, in the order of its runs. */
struct cmp_vals {
	double		*v;
	size_t		 n;
};

/* A row's verdict: B higher (worse, for latency), lower, noise, none. */
enum { CMP_UP, CMP_DOWN, CMP_NOISE, CMP_CANNOT };

/* One row: a statistic of a series, side a against side b. */
struct cmp_row {
	const char	*series;
	enum stat_kind	 stat;
	double		 a, b;		/* the runs' means (geometric on logs) */
	double		 spread_a;	/* sd of the runs' values (their logs) */
	double		 spread_b;	/* of a side; NAN: fewer than 2 */
	double		 change;	/* percent (points); NAN when unknown */
	double		 lo, hi;	/* the interval of change */
	int		 has_ci;
	int		 verdict;	/* CMP_UP, CMP_DOWN, ... */
	int		 paired;	/* judged on the pairs' differences */
	size_t		 need;		/* runs a side that would tell, or 0 */
	char		 reason[112];	/* why it cannot tell */
	long long	 limit;		/* --fail-if-worse, percent; -1: none */
	int		 gate;		/* CMP_GATE_*: what the limit found */
};

/*
 * How cmp_judge takes a row's values a run: on their logarithms (a change
 * in percent) or as they are (in percent of A's mean with pct, else in
 * points), paired when run i of A and of B were neighbours, the change
 * that matters (want: noise lies within +-want), the least variance a
 * value's spread is taken to have, and side B's name for reasons.
 */
struct cmp_ask {
	int		 log;
	int		 pct;
	int		 paired;
	double		 want;
	double		 floor;
	const char	*bname;
};

/*
 * What a run says about its settings and environment, read by cmpread.c
 * from the first file of a side, per key: its compact JSON text (NULL when
 * absent), which decides whether two sides differ, and the same for a
 * reader ("4", "1 ms", "cpu:2", "off").  Keys that move the numbers warn,
 * one sentence each, when the sides differ (compare.c) or the files of
 * one side do (cmpread.c); the kernel's version string is only shown (its
 * release and command line warn).  The table is cmpread.c's; its length
 * is checked where it stands.
 */
#define CMP_NINFO	36

/* How a setting is shown: its JSON value for a reader. */
enum cmp_show {
	SHOW_TEXT,		/* a string or number as it is */
	SHOW_TIME,		/* nanoseconds: "1 ms" */
	SHOW_US,		/* microseconds: "0 us" */
	SHOW_KB,		/* "64 KiB" */
	SHOW_ONOFF,		/* true or false: "on", "off" */
	SHOW_LIST,		/* a list of numbers: "0,1" */
	SHOW_WORDS,		/* a list of words: "make -j4" */
	SHOW_LOADS,		/* [{"kind", "procs"}]: "cpu:2 pipe:1" */
	SHOW_HOST,		/* environment.host: its lines (cmpshow.c) */
};

struct cmp_info_key {
	const char	*obj;		/* "parameters" or "environment" */
	const char	*key;
	int		 warn;
	const char	*what;		/* "the loads differ" */
	enum cmp_show	 show;
};
extern const struct cmp_info_key cmp_info_keys[CMP_NINFO];

struct cmp_info {
	char	*text[CMP_NINFO];
	char	*show[CMP_NINFO];	/* NULL when absent */
	char	*file;			/* the file they were read from */
};

/*
 * compare.c: how the tables write a row's figures, one rule each; each
 * returns buf.  A percent with its sign, "-" for NAN: one decimal below
 * dec in size ("+5.6%"), none from there ("-18%"), ">+99999%" beyond; the
 * spread of a side's runs, pct percent ("6%", "<1%", ">999%", "" for
 * NAN); an interval of a change in percent ("[+5.6%, +30%]", its ends
 * bounded by "<-90%" and ">+1000%", "above +1000%" when wholly beyond,
 * "-" when lo is NAN).
 */
char	*cmp_pct(char *buf, size_t len, double x, double dec);
char	*cmp_spread(char *buf, size_t len, double pct);
char	*cmp_interval(char *buf, size_t len, double lo, double hi);
const char *cmp_interval_name(void);
void	 cmp_legend(FILE *, int width, int paired);
/* The line for the n warnings w left out, naming the settings. */
void	 cmp_more(FILE *, char *const *w, size_t n, int width);
/*
 * A row of a table as the latency rows are: label in width columns, the
 * sides' values as given, then rw's spreads, change, interval and word.
 */
void	 cmp_row_print(FILE *, int width, const char *label, const char *va,
	    const char *vb, const struct cmp_row *rw, const char *word);
/*
 * rw's change_pct, ci_pct, verdict (word), test (paired, unpaired) and
 * runs_needed as members of a JSON object.
 */
void	 cmp_row_json(FILE *, int *first, const struct cmp_row *rw,
	    const char *word);

/* A file of a side, and a run, by what they are known (cmpread.c). */
struct cmp_fileid {
	dev_t		 dev;
	ino_t		 ino;
	char		*name;
	const char	*point;		/* FILE@VALUE: in name, or NULL */
};

struct cmp_runid {
	char		*host;		/* environment.hostname, or "" */
	int64_t		 start;		/* run.started_at_ns */
	char		*where;		/* "a.json" or "a.json, run 2" */
};

/*
 * cmpread.c: how many runs of b are runs of a too (the same host and
 * start time, in other files: one file's classes split into two, say).
 */
size_t	 cmp_side_shared(const struct cmp_side *a, const struct cmp_side *b);
/*
 * Whether the runs of a and b are pairs of neighbours: as many, of one
 * host, run i of each started before run i + 1 of either (a knob's sweep,
 * A B A B ...).  Runs of separate boots, or without start times, are not.
 */
int	 cmp_paired(const struct cmp_side *a, const struct cmp_side *b);

/*
 * cmpfile.c: opens path (FILE@VALUE when no file has that name: *point
 * is VALUE, else NULL), keeps what it is known by, refusing a file the
 * side has already, and reads it whole: the buffer (*len bytes), or NULL
 * after the message in err.
 */
char	*cmp_file_read(struct cmp_side *, const char *path,
	    const char **point, size_t *len, char *err, size_t errlen);
/* Whether sides a and b share a file: -1 with its message in err, or 0. */
int	 cmp_side_overlap(const struct cmp_side *a, const struct cmp_side *b,
	    char *err, size_t errlen);

/* cmpstat.c: sums up one series of one run from st.  Returns 0. */
int	 cmp_summarize(struct cmp_run *, const struct stats *);
/*
 * The one rule of every row (cmpstat.c says it): values a[na] of side A
 * against b[nb], into row's figures, verdict, reason and runs needed.
 */
void	 cmp_judge(const double *a, size_t na, const double *b, size_t nb,
	    const struct cmp_ask *, struct cmp_row *row);
/* The row of statistic k for runs a[na] against b[nb], by cmp_judge. */
void	 cmp_test(const struct cmp_run *a, size_t na, const struct cmp_run *b,
	    size_t nb, enum stat_kind k, const struct cmp_ask *,
	    struct cmp_row *row);
/* A verdict's word: up or down as the table says them, noise, cannot tell. */
const char *cmp_word(const struct cmp_row *, const char *up,
	    const char *down);
/*
 * The order check of a against b: each side's share of rounds with an
 * inversion (fractions), the row of the runs' shares (points) and its
 * word; verdict NULL when neither side has the check.
 */
struct cmp_order {
	double		 pa, pb;
	struct cmp_row	 row;
	const char	*verdict;
};
void	 cmp_order_row(const struct cmp_side *a, const struct cmp_side *b,
	    int paired, struct cmp_order *);
/* Appends x to vs; 0, or -1 on ENOMEM. */
int	 cmp_vals_add(struct cmp_vals *vs, double x);

/*
 * cmpshow.c: a setting as it is shown, built in pieces and cut with "..."
 * when long; cmp_show_put appends to it, printf-like, control bytes as
 * '?'.
 */
struct cmp_shown {
	char	 s[JSON_TEXT_MAX];
	size_t	 len;
};
void	 cmp_show_put(struct cmp_shown *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * A recorded value v in words, as how says: "4", "1 ms", "cpu:2", "off",
 * 'make -j4', "not set" for null.  NULL on ENOMEM.
 */
char	*cmp_show_value(enum cmp_show how, const struct json *v);
/*
 * Two shown values that differ, each cut to about CMP_SHOW_WIDTH bytes
 * around where they part ("...quiet splash", "...quiet nosmt") into bx
 * and by (len bytes each, at least CMP_SHOW_WIDTH + 8).
 */
#define CMP_SHOW_WIDTH	32
void	 cmp_show_pair(const char *x, const char *y, char *bx, char *by,
	    size_t len);
/*
 * The host object v flattened into lines "NAME\tVALUE\n" in its order
 * (an object inside it: "sched_tunables.kernel.sched_rt_period_us"), the
 * form a side keeps; NULL on ENOMEM or when v is no object.
 */
char	*cmp_host_flat(const struct json *v);
/*
 * Appends to *w (of *n sentences) one sentence for every name whose value
 * differs between the kept host states of sides a and b (or one saying
 * that only one side has it), names already warned about by compare
 * (cmdline, preemption, governor, smt) left out.  Returns 0, or -1 on
 * ENOMEM.
 */
int	 cmp_host_warn(const struct cmp_side *a, const struct cmp_side *b,
	    char ***w, size_t *n);
/*
 * Appends a sentence, printf-like, to *w (of *n): 0, or -1 on ENOMEM;
 * cmp_say_free frees the n sentences and w.
 */
int	 cmp_say(char ***w, size_t *n, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 cmp_say_free(char **w, size_t n);

/*
 * cmpwork.c: the workload's side of each run, and its rows: the
 * workload's wall and CPU time (NAN unless it ended by itself with 0),
 * each load's operations a second.  A row is shown for the wall and the
 * CPU time when both sides recorded them in some run and for each load
 * both ran, below the latency table or as a JSON list.
 */
#define CMP_WORK_LOADS	4
struct cmp_work {
	double		 wall, cpu;	/* ns; NAN: none */
	unsigned	 nload;
	char		 kind[CMP_WORK_LOADS][12];
	double		 ops[CMP_WORK_LOADS];	/* a second; NAN: none */
};
/* A run (schema 2's, or a schema 1 file's top) into the side; -1: ENOMEM. */
int	 cmp_work_read(struct cmp_side *, const struct json *run);
void	 cmp_work_print(FILE *, const struct cmp_side *,
	    const struct cmp_side *);
void	 cmp_work_json(FILE *, const struct cmp_side *,
	    const struct cmp_side *);
/*
 * --by-knob: the one file (files[0] of n) of a knob's --sweep as its
 * sides, FILE@V1 FILE@V2 ... in the order swept, into *argv from *optind
 * on.  Returns how many;
 * bad input is a usage error.  cmp_knob_free frees them once loaded.
 */
int	 cmp_knob_sides(int n, char *files[], char ***argv, int *optind);
void	 cmp_knob_free(char *argv[], int n);

/*
 * cmpvals.c: the rows of a value a run that is no latency.  A run's
 * "counts" (absent or null: none), its share of NAME's deadlines missed,
 * its "placement" object: into the side's (a figure that is null left out
 * of its row; 0, or -1 on ENOMEM); all freed with the side.  The counts
 * both sides have, as a table after compare's with a line saying what
 * they are, or as a JSON array; nothing (null) when a side has none
 * (files older than them).  The missed shares of each frame class both
 * sides have, and with all the placement shares too, as tables.  The
 * placement kinds' names; whether a series is a placement kind's without
 * a sample in any run (its rows are left out).
 */
struct cmp_counts;
struct cmp_frames {
	char		*name;
	struct cmp_vals	 missed;	/* each run's, percent */
};
int	 cmp_counts_add(struct cmp_side *, const struct json *run);
int	 cmp_frames_add(struct cmp_side *, const char *name, double missed);
int	 cmp_place_add(struct cmp_side *, const struct json *placement);
void	 cmp_vals_free(struct cmp_side *);
void	 cmp_counts_print(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);
void	 cmp_counts_json(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);
void	 cmp_shares_print(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b, int all);
/* The order check's table and its JSON member (null without it). */
void	 cmp_order_print(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);
void	 cmp_order_json(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);
extern const char *const cmp_place_kinds[CMP_PLACE_KINDS];
int	 cmp_place_empty(const struct cmp_series *);

/*
 * cmpgate.c: the gate's limits on a against b (its rows) as KTAP tests
 * into g->ktap, if any, from first + 1; side: "B " with several sides.
 */
struct cmp_gate;
void	 cmp_ktap(const struct cmp_gate *g, const char *side,
	    const struct cmp_row *rows, size_t n, const struct cmp_side *a,
	    const struct cmp_side *b, size_t first);

#endif /* CMP_H */
