/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt compare: reads finished results (JSON, schema_version 2 or 1, see
 * docs/json-schema.md) into sides, and compares side A with side B row by
 * row, a row being one statistic of one named series ("latency", "timer").
 * Reports only: nothing here measures.
 *
 * The unit of evidence is the run.  Each run of a side is summed up, per
 * series, as its statistics and, from the run's blocks of consecutive
 * rounds, how much each statistic would vary were the run repeated under
 * the same conditions (a moving-block bootstrap over the blocks).  A row's
 * verdict is a Welch t test on the logarithms of the runs' values, with
 * each side's variance floored by that within-run variance; the method and
 * its assumptions are in latt.1 (COMPARING RUNS) and docs/compare.md.
 *
 * Use: cmp_side_init, then cmp_side_add_file or cmp_side_add_buf once per
 * file of that side (a file holds one run or several), then cmp_report for
 * A against B, then cmp_side_free.  Loading functions never exit or print:
 * they return -1 with a one-line message in err, which names the file and
 * the place ("b.json:3:14: expected ',' or '}'").
 *
 * The sides are read by cmpread.c, the runs summed up and tested by
 * cmpstat.c, and the reports and the subcommand are compare.c's.
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define CMP_LEVEL	0.99	/* two-sided confidence of the intervals */
#define CMP_MIN_RUNS	3	/* runs a side for a verdict */
#define CMP_MIN_BLOCKS	8	/* blocks a run for a verdict */
#define CMP_MIN_SAMPLES	10	/* samples a run needs for a mean, sd, min
				   or max (a percentile: stats_need) */
#define CMP_MAX_SERIES	48	/* named series a side can hold: latency,
				   timer, the split's, the placement
				   kinds and up to CLASS_MAX classes */
#define CMP_PLACE_KINDS	5	/* placement kinds (cmpplace.c) */
#define CMP_PLACE_COLS	(CMP_PLACE_KINDS + 1)	/* and the migrations */

/* One series of one run, summed up. */
struct cmp_run {
	uint64_t	 n;			/* samples */
	size_t		 nblocks;	/* non-empty blocks; 0: none kept */
	double		 val[STAT_NKINDS];	/* ns; NAN: too few samples */
	double		 wvar[STAT_NKINDS];	/* within-run variance of
						   log(val); NAN: unknown */
};

/* A named series over the runs of a side. */
struct cmp_series {
	char		*name;		/* "latency", "timer", ... */
	size_t		 nruns;		/* runs that had it */
	struct cmp_run	*runs;
};

struct cmp_info;			/* parameters and environment */
struct cmp_fileid;
struct cmp_runid;
struct cmp_counts;
struct cmp_work;
struct cmp_vals;
struct cmp_frames;


struct cmp_side {
	char		 name[4];	/* "A", "B", ... */
	char		*label;		/* file names as given */
	size_t		 nfiles;
	size_t		 nruns;		/* runs in all of its files */
	uint64_t	 nsamples;	/* latency samples in all runs */
	struct cmp_series series[CMP_MAX_SERIES];
	size_t		 nseries;
	struct cmp_info	*info;		/* from the first file */
	char		**notes;	/* warnings within the side */
	size_t		 nnotes;
	struct cmp_fileid *fids;	/* its files (not add_buf's) */
	size_t		 nfids;
	struct cmp_runid *rids;		/* its runs that say when they */
	size_t		 nrids;		/* started */
	size_t		 ord_runs;	/* runs with an order check */
	uint64_t	 ord_rounds;	/* its rounds checked, all runs */
	uint64_t	 ord_bad;	/* rounds with an inversion */
	uint64_t	 ord_inv;	/* inversions */
	struct cmp_counts *counts;	/* its runs' counts (cmpcount.c), or
					   NULL: none */
	struct cmp_work	*work;		/* the workload's figures, a run each
					   (cmpwork.c) */
	size_t		 nwork;
	struct cmp_frames *frames;	/* its frame classes, or NULL */
	size_t		 nframes;
	struct cmp_vals	*place;		/* each run's share of its samples
					   by placement kind, and of
					   migrations (CMP_PLACE_COLS), in
					   percent; or NULL: none */
	int		 drop_noisy;	/* --drop-noisy: noisy runs left out */
	size_t		 nnoisy;	/* runs marked noisy, kept or not */
};

enum { CMP_REAL, CMP_NOISE, CMP_INCONCLUSIVE };

/*
 * A limit of --fail-if-worse on a row: met when the row's interval of the
 * change lies wholly at or below it, exceeded when wholly above, and
 * "cannot tell" when the interval straddles it or the row has no verdict
 * (too few runs, samples or blocks).  Exceeded outranks cannot tell.
 */
enum { CMP_GATE_MET, CMP_GATE_EXCEEDED, CMP_GATE_CANNOT, CMP_GATE_NONE };

/* One row: a statistic of a series, side a against side b. */
struct cmp_row {
	const char	*series;
	enum stat_kind	 stat;
	double		 a, b;		/* geometric means of the runs, ns */
	double		 spread_a;	/* sd of log(value) between the runs */
	double		 spread_b;	/* of a side; NAN: fewer than 2, or 0 */
	double		 change;	/* percent; NAN when unknown */
	double		 lo, hi;	/* the interval of change, percent */
	int		 has_ci;
	int		 verdict; /* CMP_REAL, CMP_NOISE, CMP_INCONCLUSIVE */
	int		 worse;		/* real, and b is higher */
	char		 reason[112];	/* why inconclusive */
	long long	 limit;		/* --fail-if-worse, percent; -1: none */
	int		 gate;		/* CMP_GATE_*: what the limit found */
};

/* --fail-if-worse: limits in percent on named rows. */
#define CMP_MAX_GATE	32
struct cmp_gate {
	size_t		 n;
	struct {
		char		 series[32];
		enum stat_kind	 stat;
		long long	 limit;
	} item[CMP_MAX_GATE];
};

/* cmpread.c: the sides. */
void	 cmp_side_init(struct cmp_side *, const char *name);
int	 cmp_side_add_file(struct cmp_side *, const char *path, char *err,
	    size_t errlen);
int	 cmp_side_add_buf(struct cmp_side *, const char *fname, const char *buf,
	    size_t len, char *err, size_t errlen);
/* The runs of one value of buf's --sweep (as FILE@VALUE reads them). */
int	 cmp_side_add_point(struct cmp_side *, const char *fname,
	    const char *point, const char *buf, size_t len, char *err,
	    size_t errlen);
void	 cmp_side_free(struct cmp_side *);	/* NULL is safe */
/* FILE[,FILE...] into a side; a bad file exits 2 after one line. */
void	 cmp_side_load(struct cmp_side *, const char *arg);
/* Whether sides a and b share a file: -1 with the message in err, or 0. */
int	 cmp_side_overlap(const struct cmp_side *a, const struct cmp_side *b,
	    char *err, size_t errlen);
/*
 * How many runs of b are runs of a too (the same host and start time, in
 * other files: one file's classes split into two, say).
 */
size_t	 cmp_side_shared(const struct cmp_side *a, const struct cmp_side *b);

/* cmpstat.c: the row of statistic k for runs a[na] against b[nb] (of
 * side bname). */
void	 cmp_test(const struct cmp_run *a, size_t na, const struct cmp_run *b,
	    size_t nb, const char *bname, enum stat_kind k,
	    struct cmp_row *row);

/*
 * compare.c: parses a --fail-if-worse SPEC such as "p99=10%,timer.max=50%"
 * into gate (which it first clears).  Bad specs are usage errors: the
 * message names the part, and latt exits 2.
 */
void	 cmp_gate_parse(struct cmp_gate *, const char *spec);

/*
 * Prints side a against side b to fp: the header, the warnings and the
 * table (the latency rows, and those the gate names); with a gate (may be
 * NULL), its one "gate:" line to gatefp.  Returns CMP_GATE_MET (also
 * without a gate), CMP_GATE_EXCEEDED or CMP_GATE_CANNOT, or -1 on ENOMEM.
 */
int	 cmp_report(FILE *fp, FILE *gatefp, struct cmp_side *a,
	    struct cmp_side *b, const struct cmp_gate *);

/* The "latt compare" subcommand; argv[0] is "compare". */
int	 compare_main(int argc, char *argv[]);

#endif /* COMPARE_H */
