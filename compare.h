/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt compare: reads finished results (JSON, schema_version 1, see
 * docs/json-schema.md), merges the runs of each side, and prints a table
 * of side A against side B with 95% confidence intervals of each change,
 * and a regression gate.  Reports only: nothing here measures.
 *
 * Use: cmp_side_init, then cmp_side_add_file or cmp_side_add_buf once per
 * run of that side (runs of a side are merged by adding histograms), then
 * cmp_report for A against B, then cmp_side_free.  Loading functions never
 * exit or print: they return -1 with a one-line message in err, which
 * names the file and the place ("b.json:3:14: expected ',' or '}'").
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

/* The rows of the table, for each series. */
enum cmp_stat { CMP_MEAN, CMP_P50, CMP_P90, CMP_P99, CMP_P999, CMP_MAX,
    CMP_NSTATS };
enum cmp_which { CMP_LATENCY, CMP_TIMER, CMP_NSERIES };

/* One series (latency or timer) of one side, all of its runs merged. */
struct cmp_series {
	int		 present;	/* in every run of the side */
	struct stats	 st;		/* merged: n, mean, min, max, hist */
	size_t		 nruns;
	struct hist	*runs;		/* each run's histogram, for the
					   two-level bootstrap */
	/* Bootstrap replicates of each row, filled by cmp_report. */
	double		*reps[CMP_NSTATS];
	size_t		 nreps;
};

struct cmp_info;			/* parameters and environment */

struct cmp_side {
	char		 name[4];	/* "A", "B", ... */
	char		*label;		/* file names as given */
	size_t		 nfiles;
	struct cmp_series series[CMP_NSERIES];
	struct cmp_info	*info;		/* from the first file */
	char		**notes;	/* warnings within the side */
	size_t		 nnotes;
};

/* --fail-if-worse: a limit in percent per row, or -1. */
struct cmp_gate {
	long long	 limit[CMP_NSERIES][CMP_NSTATS];
};

void	 cmp_side_init(struct cmp_side *, const char *name);
int	 cmp_side_add_file(struct cmp_side *, const char *path, char *err,
	    size_t errlen);
int	 cmp_side_add_buf(struct cmp_side *, const char *fname, const char *buf,
	    size_t len, char *err, size_t errlen);
void	 cmp_side_free(struct cmp_side *);	/* NULL is safe */
/* FILE[,FILE...] into a side; a bad file exits 2 after one line. */
void	 cmp_side_load(struct cmp_side *, const char *arg);

/*
 * Parses a --fail-if-worse SPEC such as "p99=10%,max=50%" into gate
 * (which it first clears).  Bad specs are usage errors: the message names
 * the part, and latt exits 2.
 */
void	 cmp_gate_parse(struct cmp_gate *, const char *spec);
void	 cmp_gate_clear(struct cmp_gate *);

/*
 * Prints side a against side b to fp: the header, the warnings, the
 * table and the gate's findings.  Returns 1 when the gate (may be NULL)
 * finds b worse than a beyond a limit, 0 otherwise, -1 on ENOMEM.
 */
int	 cmp_report(FILE *fp, struct cmp_side *a, struct cmp_side *b,
	    const struct cmp_gate *);

/* The "latt compare" subcommand; argv[0] is "compare". */
int	 compare_main(int argc, char *argv[]);

#endif /* COMPARE_H */
