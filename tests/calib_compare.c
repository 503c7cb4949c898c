/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calibration of latt compare: synthetic runs from a documented model
 * of latency, fed through the same statistics (stats.c) and the same
 * summary and rule (cmpstat.c) as real runs, counting how often each row
 * is called a real difference.
 *
 * The model (docs/compare.md): the log latency, in ns, of client c in round
 * t of run r is
 *
 *   log(40 us) + D_r + W_r(t) + R_rt + E_rtc + S_rt (+ log 1.2 when shifted)
 *
 *   D_r   run-to-run drift, normal, sd 0.04 (4%), one draw a run;
 *   W_r   slow drift within the run, an AR(1) over rounds with
 *         coefficient 0.995 and stationary sd 0.05;
 *   R_rt  the round's shared fate, normal, sd 0.308;
 *   E_rtc each sample's own noise, normal, sd 0.327, so that two samples
 *         of one round correlate 0.47 in log latency (as in real logs);
 *   S_rt  a stall: with chance 0.003 a round, every client of that round
 *         is 4 to 16 times slower (so a run's largest samples come from
 *         one round or two).
 *
 * A run has ROUNDS rounds of CLIENTS clients.  A pool of runs without the
 * shift and one with it are drawn once; comparisons take disjoint random
 * sets of runs from the pools (fixed seeds: the same answer every time).
 *
 * usage: calib_compare
 * Prints one line per row: "row NAME fa3 X fa5 Y power5 Z", the fraction
 * of A-vs-A comparisons with 3 and 5 runs a side called a real
 * difference, and of 5-vs-5 comparisons against the shifted pool.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"

#define ROUNDS		1500
#define CLIENTS		8
#define NPOOL_A		120
#define NPOOL_B		50
#define NCMP		300		/* comparisons of each kind */
#define MEDIAN_NS	40000.0
#define SD_RUN		0.04
#define SD_DRIFT	0.05
#define AR_COEF		0.995
#define SD_ROUND	0.308
#define SD_SAMPLE	0.327
#define P_STALL		0.003
#define SHIFT		1.2

static uint64_t rng = 0x9d2c5680a5a5a5a5ULL;

static uint64_t
next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
uniform(void)
{
	return ((double)(next() >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* One run of the model into its summary. */
static int
make_run(struct cmp_run *out, double shift, struct stats *st)
{
	double base, w, round;
	uint64_t t;
	int c;

	hist_reset(&st->hist);
	st->n = 0;
	st->mean = st->m2 = 0;
	base = log(MEDIAN_NS) + log(shift) + SD_RUN * gauss();
	w = SD_DRIFT * gauss();
	for (t = 0; t < ROUNDS; t++) {
		w = AR_COEF * w + SD_DRIFT * sqrt(1 - AR_COEF * AR_COEF) *
		    gauss();
		round = base + w + SD_ROUND * gauss();
		if (uniform() < P_STALL)
			round += log(4) + log(4) * uniform();
		for (c = 0; c < CLIENTS; c++)
			stats_add(st, (int64_t)exp(round + SD_SAMPLE * gauss()),
			    (uint32_t)c, (int64_t)t);
	}
	return cmp_summarize(out, st);
}

/* Picks n distinct runs of pool[np] into out, avoiding used[]. */
static void
pick(const struct cmp_run *pool, size_t np, struct cmp_run *out, size_t n,
    char *used)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		do
			j = (size_t)(next() % np);
		while (used[j]);
		used[j] = 1;
		out[i] = pool[j];
	}
}

int
main(void)
{
	static const int rows[] = { STAT_MEAN, STAT_P50, STAT_P90, STAT_P95,
	    STAT_P99, STAT_P999, STAT_MAX };
	enum { NROWS = sizeof(rows) / sizeof(rows[0]) };
	struct cmp_run *pa, *pb, a[5], b[5];
	struct cmp_ask q = { 1, 0, 0, 10, 0, "B" };
	struct cmp_row row;
	struct stats st;
	unsigned real[3][NROWS], inconcl = 0;
	char used_a[NPOOL_A], used_b[NPOOL_B];
	size_t i, kind, r, n;

	pa = calloc(NPOOL_A, sizeof(*pa));
	pb = calloc(NPOOL_B, sizeof(*pb));
	if (pa == NULL || pb == NULL || stats_init(&st, STATS_SUB_BITS) == -1) {
		perror("calib_compare");
		return 1;
	}
	for (i = 0; i < NPOOL_A; i++)
		if (make_run(&pa[i], 1, &st) == -1)
			goto oom;
	for (i = 0; i < NPOOL_B; i++)
		if (make_run(&pb[i], SHIFT, &st) == -1)
			goto oom;
	memset(real, 0, sizeof(real));
	for (kind = 0; kind < 3; kind++)
		for (i = 0; i < NCMP; i++) {
			n = kind == 0 ? 3 : 5;
			memset(used_a, 0, sizeof(used_a));
			memset(used_b, 0, sizeof(used_b));
			pick(pa, NPOOL_A, a, n, used_a);
			if (kind < 2)
				pick(pa, NPOOL_A, b, n, used_a);
			else
				pick(pb, NPOOL_B, b, n, used_b);
			for (r = 0; r < NROWS; r++) {
				cmp_test(a, n, b, n, (enum stat_kind)rows[r],
				    &q, &row);
				real[kind][r] += row.verdict == CMP_UP ||
				    row.verdict == CMP_DOWN;
				inconcl += row.verdict == CMP_CANNOT;
			}
		}
	printf("runs %d rounds x %d clients; pools %d and %d (x%.1f); %d "
	    "comparisons each; inconclusive rows %u\n", ROUNDS, CLIENTS,
	    NPOOL_A, NPOOL_B, SHIFT, NCMP, inconcl);
	for (r = 0; r < NROWS; r++)
		printf("row %s fa3 %.3f fa5 %.3f power5 %.3f\n",
		    stats_kind_name((enum stat_kind)rows[r]),
		    (double)real[0][r] / NCMP, (double)real[1][r] / NCMP,
		    (double)real[2][r] / NCMP);
	stats_free(&st);
	free(pa);
	free(pb);
	return 0;
oom:
	perror("calib_compare");
	return 1;
}
