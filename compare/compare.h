/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h: latt compare for the rest of latt (latt.c, report/outputs.c
 * for --baseline and a knob's sweep): finished results (JSON, schema
 * version 2 or 1, see docs/json-schema.md) read into sides, side A
 * against side B row by row, a row being one statistic of one named
 * series ("latency", "timer"), and the gate of --fail-if-worse.  Reports
 * only: nothing here measures.  The method and its assumptions are in
 * latt.1 (COMPARING RUNS) and docs/compare.md; the folder's rooms share
 * compare/cmp.h.
 *
 * Use: cmp_side_init, then cmp_side_add_file or cmp_side_add_buf once per
 * file of that side (a file holds one run or several), then cmp_report for
 * A against B, then cmp_side_free.  Loading functions never exit or print:
 * they return -1 with a one-line message in err, which names the file and
 * the place ("b.json:3:14: expected ',' or '}'").
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

/*
 * A limit of --fail-if-worse on a row: met when the row's interval of the
 * change lies wholly at or below it, exceeded when wholly above, and
 * "cannot tell" when the interval straddles it or the row has no verdict
 * (too few runs or samples).  Exceeded outranks cannot tell.
 */
enum { CMP_GATE_MET, CMP_GATE_EXCEEDED, CMP_GATE_CANNOT, CMP_GATE_NONE };

/* --fail-if-worse: limits in percent on named rows. */
#define CMP_MAX_GATE	32
struct cmp_gate {
	size_t		 n;
	struct {
		char		 series[32];
		enum stat_kind	 stat;
		long long	 limit;
	} item[CMP_MAX_GATE];
	FILE		*ktap;		/* --ktap: a test a limit, or NULL */
};

/*
 * A side: the runs of its files, summed up.  It stands here whole, not
 * opaque, because latt.c keeps its baseline's side in its own state and
 * report/outputs.c its sides on the stack, and both set label and
 * drop_noisy; the rest is compare's own (compare/cmp.h).
 */
struct cmp_side {
	char		 name[4];	/* "A", "B", ... */
	char		*label;		/* file names as given */
	int		 drop_noisy;	/* --drop-noisy: noisy runs left out */
	size_t		 nfiles;
	size_t		 nruns;		/* runs in all of its files */
	uint64_t	 nsamples;	/* latency samples in all runs */
	struct cmp_series *series;	/* its named series, CMP_MAX_SERIES */
	size_t		 nseries;
	struct cmp_info	*info;		/* settings, from the first file */
	char		**notes;	/* warnings within the side */
	size_t		 nnotes;
	char		**noisy;	/* a sentence a noisy run (notes too) */
	size_t		 nnoisy;
	double		 noisy_lo;	/* the others' CPU % of its noisy */
	double		 noisy_hi;	/* runs, least and most */
	struct cmp_fileid *fids;	/* its files (not add_buf's) */
	size_t		 nfids;
	struct cmp_runid *rids;		/* its runs that say when they */
	size_t		 nrids;		/* started */
	size_t		 ord_runs;	/* runs with an order check */
	uint64_t	 ord_rounds;	/* its rounds checked, all runs */
	uint64_t	 ord_bad;	/* rounds with an inversion */
	double		*ord_pts;	/* each run's share of them, points */
	size_t		 nord_pts;	/* (runs with rounds) */
	struct cmp_counts *counts;	/* its runs' counts, or NULL: none */
	struct cmp_work	*work;		/* the workload's figures, a run each */
	size_t		 nwork;
	struct cmp_frames *frames;	/* its frame classes, or NULL */
	size_t		 nframes;
	struct cmp_vals	*place;		/* placement shares, or NULL: none */
};

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
/*
 * FILE[,FILE...] into a side: the runs of one kernel.  A file that cannot
 * be read or is not latt's, or a file or run given twice, is a usage
 * error: one line naming the file and the place, and latt exits 2.
 */
void	 cmp_side_load(struct cmp_side *, const char *arg);

/*
 * Parses a --fail-if-worse SPEC such as "p99=10%,timer.max=50%" into gate
 * (which it first clears).  Bad specs are usage errors: the message names
 * the part, and latt exits 2.
 */
void	 cmp_gate_parse(struct cmp_gate *, const char *spec);

/* --confidence=PCT: the intervals' two-sided confidence (0.975 unless). */
extern double cmp_level;

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
