/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of compare's statistics (compare/cmpstat.c) on hand-made
 * runs whose answers are known: the one rule (cmp_judge) unpaired and
 * paired, its change, 99% interval, verdict and runs needed; two-humped
 * runs with a clear shift (the RR case), A against A, one run a
 * side, every reason a row cannot tell, plain values, the order check
 * over the runs' shares, the figures as the table writes them, the
 * gate's rule and its one line, the --fail-if-worse parser, and the rule
 * of how many samples a percentile needs (stats_need, cmp_summarize) at
 * its edges.
 *
 * The expected figures were computed once with python3, independently of
 * cmpstat.c: Student's t quantiles by Simpson's rule over the t density
 * (20000 steps) and bisection, the rest by the textbook formulas; each is
 * pasted with its derivation beside it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "compare/compare.h"
#include "lib/common.h"
#include "stats.h"
#include "unit.h"

#define TOL	1e-6	/* relative, on the percents of an interval */

/* The three runs of a hand-made side: run i's statistics times f[i]. */
static const double f3[] = { 1.0, 1.1, 1.21 };
/* Each statistic's value in a run of factor 1, ns. */
static const double base[STAT_NKINDS] = {
	[STAT_MIN] = 10000, [STAT_MEAN] = 23000, [STAT_STDEV] = 5000,
	[STAT_P50] = 20000, [STAT_P90] = 30000, [STAT_P95] = 35000,
	[STAT_P99] = 50000, [STAT_P999] = 80000, [STAT_P9999] = 90000,
	[STAT_MAX] = 100000,
};

static void	 runs_make(struct cmp_run *r, size_t nr, const double *f,
		    double scale, double w);
static int	 side_make(struct cmp_side *s, const char *name, size_t nr,
		    const double *f, double scale);
static int	 close_to(double x, double want);
static void	 test(const struct cmp_run *, size_t, const struct cmp_run *,
		    size_t, const char *, enum stat_kind, struct cmp_row *);
static char	*report(struct cmp_side *a, struct cmp_side *b,
		    const char *spec, int *state, char **gate);
static const char *line_of(const char *text, const char *start);

static void	 t_need(void);
static void	 t_summarize_need(void);
static void	 t_noise(void);
static void	 t_worse(void);
static void	 t_better(void);
static void	 t_twohumps(void);
static void	 t_paired(void);
static void	 t_edges(void);
static void	 t_reasons(void);
static void	 t_zero(void);
static void	 t_points(void);
static void	 t_order(void);
static void	 t_format(void);
static void	 t_gate_rule(void);
static void	 t_gate_line(void);
static void	 t_table(void);
static void	 t_gate_parse(void);
static void	 t_gate_refused(void);
static void	 t_main_usage(void);
static void	 t_level(void);
static void	 t_more(void);

static const struct unit_test tests[] = {
	{ "percentile sufficiency: stats_need at its edges", t_need },
	{ "percentile sufficiency: a run's statistics one sample short "
	    "and enough", t_summarize_need },
	{ "cmp_test: +20% within the runs' noise cannot tell, its interval "
	    "and the runs that would tell known", t_noise },
	{ "cmp_test: x2 is worse, its interval known", t_worse },
	{ "cmp_test: x0.5 is better, its interval known", t_better },
	{ "cmp_test: two-humped runs, p90 97 ms against 10.5 ms, is better "
	    "(paired and unpaired), p50 worse", t_twohumps },
	{ "cmp_judge: paired on the pairs' differences, drift cancelled",
	    t_paired },
	{ "cmp_judge: A against A, one run a side, NaN-free edges", t_edges },
	{ "cmp_test: every reason a row cannot tell", t_reasons },
	{ "cmp_test: zeros (no ratio to 0; 0 on both sides is noise)", t_zero },
	{ "cmp_judge: Welch's t over plain values, points and percent",
	    t_points },
	{ "cmp_order_row: the runs' shares by the one rule", t_order },
	{ "cmp_pct, cmp_spread, cmp_interval: one rule each", t_format },
	{ "gate: met, exceeded, cannot tell from the row's interval",
	    t_gate_rule },
	{ "gate: its one line, exceeded outranking cannot tell", t_gate_line },
	{ "table: rows, spreads, reasons and warnings of hand-made sides",
	    t_table },
	{ "--fail-if-worse: specs parsed", t_gate_parse },
	{ "--fail-if-worse: bad specs are usage errors naming the part",
	    t_gate_refused },
	{ "latt compare: usage errors before any file is read", t_main_usage },
	{ "--confidence: 97.5% unless asked; one set of pairs, two levels",
	    t_level },
	{ "the warnings left out: the settings named, the rest counted",
	    t_more },
};

int
main(void)
{
	/* The figures above were worked at 99%; t_level sets its own. */
	cmp_level = 0.99;
	return unit_main(tests, NELEM(tests));
}

/*
 * nr runs: statistic k of run i is base[k] * scale * f[i], of 4000
 * samples, the histogram's rounding w.
 */
static void
runs_make(struct cmp_run *r, size_t nr, const double *f, double scale,
    double w)
{
	size_t i;
	int k;

	memset(r, 0, nr * sizeof(*r));
	for (i = 0; i < nr; i++) {
		r[i].n = 4000;
		for (k = 0; k < STAT_NKINDS; k++)
			r[i].val[k] = base[k] * scale * f[i];
		r[i].res = w;
	}
}

/* A side of nr runs (runs_make's, w 1e-4) in one "latency" series. */
static int
side_make(struct cmp_side *s, const char *name, size_t nr, const double *f,
    double scale)
{
	cmp_side_init(s, name);
	if ((s->series = calloc(1, sizeof(*s->series))) == NULL ||
	    (s->series[0].name = strdup("latency")) == NULL ||
	    (s->series[0].runs = calloc(nr, sizeof(struct cmp_run))) == NULL ||
	    (s->label = strdup(name[0] == 'A' ? "a.json" : "b.json")) == NULL)
		return -1;
	s->nseries = 1;
	s->series[0].nruns = nr;
	s->nruns = nr;
	s->nsamples = 4000 * nr;
	runs_make(s->series[0].runs, nr, f, scale, 1e-4);
	return 0;
}

/* cmp_test without a gate, unpaired, B named bname. */
static void
test(const struct cmp_run *a, size_t na, const struct cmp_run *b, size_t nb,
    const char *bname, enum stat_kind k, struct cmp_row *row)
{
	struct cmp_ask q = { 1, 0, 0, CMP_WANT, 0, bname };

	cmp_test(a, na, b, nb, k, &q, row);
}

static int
close_to(double x, double want)
{
	return fabs(x - want) <= TOL * (fabs(want) + 1e-9);
}

/*
 * a against b through cmp_report with the gate spec (NULL: none): the
 * table (to free), the gate's line in *gate (to free, when asked), the
 * state it returned in *state.
 */
static char *
report(struct cmp_side *a, struct cmp_side *b, const char *spec, int *state,
    char **gate)
{
	struct cmp_gate g;
	char *out = NULL, *gl = NULL;
	size_t nout = 0, ngl = 0;
	FILE *fp, *gp;

	if (spec != NULL)
		cmp_gate_parse(&g, spec);
	fp = open_memstream(&out, &nout);
	gp = open_memstream(&gl, &ngl);
	if (fp == NULL || gp == NULL)
		exit(1);
	*state = cmp_report(fp, gp, a, b, spec != NULL ? &g : NULL);
	fclose(fp);
	fclose(gp);
	if (gate != NULL)
		*gate = gl;
	else
		free(gl);
	return out;
}

/* The line of text that starts with start, without its newline (static). */
static const char *
line_of(const char *text, const char *start)
{
	static char line[512];
	const char *p;

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL)
		if (strncmp(p, start, strlen(start)) == 0) {
			snprintf(line, sizeof(line), "%.*s",
			    (int)strcspn(p, "\n"), p);
			return line;
		}
	return "";
}

/*
 * The rule (stats.h): a percentile q needs STATS_BEYOND (10) samples
 * beyond it, ceil(10 / (1 - q)): p50 20, p90 100, p95 200, p99 1000,
 * p99.9 10000, p99.99 100000; the sd 2, the others 1.  stats_shown gives
 * NAN one sample short of it and the value at it.
 */
static void
t_need(void)
{
	static const struct {
		enum stat_kind	k;
		uint64_t	need;
	} c[] = {
		{ STAT_P50, 20 }, { STAT_P90, 100 }, { STAT_P95, 200 },
		{ STAT_P99, 1000 }, { STAT_P999, 10000 },
		{ STAT_P9999, 100000 }, { STAT_STDEV, 2 }, { STAT_MEAN, 1 },
		{ STAT_MIN, 1 }, { STAT_MAX, 1 },
	};
	struct stats st;
	uint64_t i, n;
	size_t j;
	int ok = 0;

	for (j = 0; j < NELEM(c); j++)
		CHECK(stats_need(c[j].k) == c[j].need, "%s needs %ju, want %ju",
		    stats_kind_name(c[j].k), (uintmax_t)stats_need(c[j].k),
		    (uintmax_t)c[j].need);
	/* Between the named ones: 10 / (1 - q), up to the next integer. */
	CHECK(stats_need_q(0.75) == 40 && stats_need_q(0.8) == 50 &&
	    stats_need_q(0.98) == 500 && stats_need_q(0.995) == 2000 &&
	    stats_need_q(0.999999) == 10000000, "stats_need_q: 0.75 %ju, "
	    "0.8 %ju, 0.98 %ju, 0.995 %ju, 0.999999 %ju",
	    (uintmax_t)stats_need_q(0.75), (uintmax_t)stats_need_q(0.8),
	    (uintmax_t)stats_need_q(0.98), (uintmax_t)stats_need_q(0.995),
	    (uintmax_t)stats_need_q(0.999999));
	/* 1/3 beyond: 15 samples (10 / (1/3) = 30.000000000000004 is 30). */
	CHECK(stats_need_q(2.0 / 3) == 30, "q 2/3: %ju",
	    (uintmax_t)stats_need_q(2.0 / 3));
	CHECK(stats_init(&st, 7) == 0, "stats_init");
	ok = 1;
	for (j = 0; j < NELEM(c); j++) {
		if (c[j].need > 10000)
			continue;
		stats_reset(&st);
		for (i = 0, n = c[j].need - 1; i < n; i++)
			stats_add(&st, (int64_t)(1000 + i), 0, 0);
		CHECK(n == 0 || isnan(stats_shown(&st, c[j].k)),
		    "%s shown with %ju samples", stats_kind_name(c[j].k),
		    (uintmax_t)n);
		stats_add(&st, 1000 + (int64_t)n, 0, 0);
		CHECK(!isnan(stats_shown(&st, c[j].k)) &&
		    stats_shown(&st, c[j].k) == stats_value(&st, c[j].k),
		    "%s not shown with %ju samples", stats_kind_name(c[j].k),
		    (uintmax_t)c[j].need);
	}
out:
	if (ok)
		stats_free(&st);
}

/*
 * cmp_summarize: a run's statistic is NAN one sample short of what it
 * needs (a percentile: stats_need; mean, sd, min and max: CMP_MIN_SAMPLES,
 * 10) and its value at it; cmp_test's reason names both figures.
 */
static void
t_summarize_need(void)
{
	static const struct {
		enum stat_kind	k;
		uint64_t	need;
	} c[] = {
		{ STAT_MEAN, 10 }, { STAT_MIN, 10 }, { STAT_MAX, 10 },
		{ STAT_STDEV, 10 }, { STAT_P50, 20 }, { STAT_P90, 100 },
		{ STAT_P95, 200 }, { STAT_P99, 1000 },
	};
	struct cmp_run r, a[3], b[3];
	struct cmp_row row;
	struct stats st;
	char want[128];
	uint64_t i;
	size_t j;
	int ok = 0;

	CHECK(stats_init(&st, 7) == 0, "stats_init");
	ok = 1;
	for (j = 0; j < NELEM(c); j++) {
		stats_reset(&st);
		for (i = 0; i + 1 < c[j].need; i++)
			stats_add(&st, (int64_t)(1000 + 7 * i), 0, 0);
		CHECK(cmp_summarize(&r, &st) == 0, "cmp_summarize");
		CHECK(isnan(r.val[c[j].k]) && r.n == c[j].need - 1,
		    "%s is %g with %ju samples", stats_kind_name(c[j].k),
		    r.val[c[j].k], (uintmax_t)(c[j].need - 1));
		/* Three such runs a side: cmp_test says what is missing. */
		runs_make(a, 3, f3, 1, 1e-4);
		runs_make(b, 3, f3, 1, 1e-4);
		a[1].n = r.n;
		a[1].val[c[j].k] = NAN;
		test(a, 3, b, 3, "B", c[j].k, &row);
		snprintf(want, sizeof(want), "a run of A has %ju samples, %s "
		    "needs %ju", (uintmax_t)r.n, stats_kind_name(c[j].k),
		    (uintmax_t)c[j].need);
		CHECK(row.verdict == CMP_CANNOT && !row.has_ci &&
		    strcmp(row.reason, want) == 0, "%s: \"%s\", want \"%s\"",
		    stats_kind_name(c[j].k), row.reason, want);
		stats_add(&st, 1000 + 7 * (int64_t)i, 0, 0);
		CHECK(cmp_summarize(&r, &st) == 0, "cmp_summarize");
		CHECK(r.val[c[j].k] == stats_value(&st, c[j].k),
		    "%s is %g with %ju samples, want %g",
		    stats_kind_name(c[j].k), r.val[c[j].k],
		    (uintmax_t)c[j].need, stats_value(&st, c[j].k));
	}
	/* p99.9 from 10000, and the histogram's 0 stays 0, not NAN. */
	stats_reset(&st);
	for (i = 0; i < 10000; i++)
		stats_add(&st, i < 9000 ? 0 : 5000, 0, 0);
	CHECK(cmp_summarize(&r, &st) == 0, "cmp_summarize");
	CHECK(r.val[STAT_P50] == 0 && r.val[STAT_P999] > 4000 &&
	    isnan(r.val[STAT_P9999]), "p50 %g p99.9 %g p99.99 %g",
	    r.val[STAT_P50], r.val[STAT_P999], r.val[STAT_P9999]);
out:
	if (ok)
		stats_free(&st);
}

/*
 * A: 3 runs at 1, 1.1 and 1.21 times base; B the same times 1.2.  The
 * logs of each side vary by var(0, ln 1.1, 2 ln 1.1) = (ln 1.1)^2 =
 * 0.009084030374332717 (above the within-run 1e-4); Welch's df is
 * 2 (n - 1) = 4 for equal variances, t(0.995, 4) = 4.604095, so the half
 * width is 4.604095 sqrt(2 * 0.009084 / 3) = 0.3582926699876953 and the
 * interval expm1(ln 1.2 -+ 0.35829) = [-16.135779132%, +71.706120333%].
 * The geometric mean of A is 110% of base, its spread (sd of the logs)
 * ln 1.1 = 0.09531017980432477.  The interval holds 0 and reaches past
 * +-10%: cannot tell.  To hold +-10% (ln 1.1) the runs a side n need
 * t(0.995, 2n - 2) sqrt(2 (ln 1.1)^2 / n) < ln 1.1, t < sqrt(n / 2):
 * t(28) = 2.763 > sqrt(7.5) = 2.739, t(30) = 2.750 < sqrt(8) = 2.828: 16.
 */
static void
t_noise(void)
{
	struct cmp_run a[3], b[3];
	struct cmp_row row;
	int k;

	runs_make(a, 3, f3, 1, 1e-4);
	runs_make(b, 3, f3, 1.2, 1e-4);
	for (k = 0; k < STAT_NKINDS; k++) {
		test(a, 3, b, 3, "B", (enum stat_kind)k, &row);
		CHECK(row.has_ci && row.verdict == CMP_CANNOT && row.need == 16 &&
		    strcmp(row.reason, "its interval holds 0 but reaches past "
		    "+-10%") == 0, "%s: verdict %d need %zu (%s)",
		    stats_kind_name(k), row.verdict, row.need, row.reason);
		CHECK(close_to(row.change, 20) &&
		    close_to(row.lo, -16.135779132) &&
		    close_to(row.hi, 71.706120333), "%s: %.9f [%.9f, %.9f], "
		    "want 20 [-16.135779132, 71.706120333]",
		    stats_kind_name(k), row.change, row.lo, row.hi);
		CHECK(close_to(row.a, 1.1 * base[k]) &&
		    close_to(row.b, 1.32 * base[k]) &&
		    close_to(row.spread_a, 0.09531017980432477) &&
		    close_to(row.spread_b, 0.09531017980432477),
		    "%s: A %g B %g spreads %g %g", stats_kind_name(k), row.a,
		    row.b, row.spread_a, row.spread_b);
		CHECK(row.stat == (enum stat_kind)k && row.limit == -1,
		    "row fields");
	}
out:
	return;
}

/* B twice A: expm1(ln 2 -+ 0.35829) = [+39.773701447%, +186.176867221%]. */
static void
t_worse(void)
{
	struct cmp_run a[3], b[3];
	struct cmp_row row;

	runs_make(a, 3, f3, 1, 1e-4);
	runs_make(b, 3, f3, 2, 1e-4);
	test(a, 3, b, 3, "B", STAT_P50, &row);
	CHECK(row.verdict == CMP_UP && row.has_ci && !row.paired,
	    "verdict %d", row.verdict);
	CHECK(close_to(row.change, 100) && close_to(row.lo, 39.773701447) &&
	    close_to(row.hi, 186.176867221), "%.9f [%.9f, %.9f]", row.change,
	    row.lo, row.hi);
out:
	return;
}

/* B half A: expm1(-ln 2 -+ 0.35829) = [-65.056574638%, -28.455783195%]. */
static void
t_better(void)
{
	struct cmp_run a[3], b[3];
	struct cmp_row row;

	runs_make(a, 3, f3, 1, 1e-4);
	runs_make(b, 3, f3, 0.5, 1e-4);
	test(a, 3, b, 3, "B", STAT_MAX, &row);
	CHECK(row.verdict == CMP_DOWN, "verdict %d", row.verdict);
	CHECK(close_to(row.change, -50) && close_to(row.lo, -65.056574638) &&
	    close_to(row.hi, -28.455783195), "%.9f [%.9f, %.9f]", row.change,
	    row.lo, row.hi);
out:
	return;
}

static void
t_reasons(void)
{
	struct cmp_run a[4], b[4];
	struct cmp_row row;

	runs_make(a, 3, f3, 1, 1e-4);
	runs_make(b, 3, f3, 2, 1e-4);
	test(a, 1, b, 3, "B", STAT_MEAN, &row);
	CHECK(row.verdict == CMP_CANNOT && !row.has_ci &&
	    strcmp(row.reason, "A has 1 run, a verdict needs 3 a side") == 0,
	    "one run: %s", row.reason);
	/* The change is still said, without an interval. */
	CHECK(close_to(row.change, (2 * 1.1 / 1 - 1) * 100),
	    "one run: change %g", row.change);
	test(a, 3, b, 2, "C", STAT_MEAN, &row);
	CHECK(strcmp(row.reason, "C has 2 runs, a verdict needs 3 a side") ==
	    0, "two runs of C: %s", row.reason);
	b[0].val[STAT_P99] = NAN;
	b[0].n = 400;
	test(a, 3, b, 3, "B", STAT_P99, &row);
	CHECK(strcmp(row.reason, "a run of B has 400 samples, p99 needs 1000")
	    == 0, "p99 of 400: %s", row.reason);
	CHECK(isnan(row.b) && isnan(row.change), "B's value %g change %g",
	    row.b, row.change);
out:
	return;
}

/*
 * p50 is 0 in one of A's 4 runs: no ratio; 0 in every run of both: no
 * difference at all ([+0%, +0%], noise); 0 in every run of one side only:
 * cannot tell, naming which.
 */
static void
t_zero(void)
{
	static const double f4[] = { 1, 1.1, 1.21, 1.05 };
	struct cmp_run a[4], b[4];
	struct cmp_row row;
	size_t i;

	runs_make(a, 4, f4, 1, 1e-4);
	runs_make(b, 4, f4, 1, 1e-4);
	a[1].val[STAT_P50] = 0;
	test(a, 4, b, 4, "B", STAT_P50, &row);
	CHECK(row.verdict == CMP_CANNOT && strcmp(row.reason,
	    "p50 is 0 in 1 of A's 4 runs: no ratio to 0") == 0,
	    "one zero: %s", row.reason);
	CHECK(row.a == 0 && isnan(row.change) && isnan(row.spread_a),
	    "one zero: A %g change %g spread %g", row.a, row.change,
	    row.spread_a);
	for (i = 0; i < 4; i++)
		a[i].val[STAT_P50] = b[i].val[STAT_P50] = 0;
	test(a, 4, b, 4, "B", STAT_P50, &row);
	CHECK(row.verdict == CMP_NOISE && row.has_ci && row.change == 0 &&
	    row.lo == 0 && row.hi == 0, "all zero: verdict %d %g [%g, %g]",
	    row.verdict, row.change, row.lo, row.hi);
	runs_make(b, 4, f4, 1, 1e-4);
	test(a, 4, b, 4, "B", STAT_P50, &row);
	CHECK(row.verdict == CMP_CANNOT && strcmp(row.reason,
	    "p50 is 0 in every run of A, not of B: no ratio to 0") == 0,
	    "A all zero: %s", row.reason);
	test(b, 4, a, 4, "C", STAT_P50, &row);
	CHECK(strcmp(row.reason, "p50 is 0 in every run of C, not of A: no "
	    "ratio to 0") == 0, "C all zero: %s", row.reason);
out:
	return;
}

/*
 * The RR client behind an RR hog, sched_rr_timeslice_ms=100,10:
 * every run two-humped, its p90 97.3 to 98.1 ms under 100 and 10.5 to
 * 10.6 ms under 10, its p50 90 us against 9.4 ms.  The runs' own spread
 * (under 1%) decides: p90 is better, p50 worse, paired or not; paired,
 * the interval of p90 is expm1(mean -+ t(0.995, 2) sd / sqrt 3) of the
 * pairs' log differences = [-89.444164501%, -88.961111821%].
 */
static void
t_twohumps(void)
{
	static const double p90a[] = { 97.3e6, 97.8e6, 98.1e6 };
	static const double p90b[] = { 10.5e6, 10.6e6, 10.55e6 };
	static const double p50a[] = { 90e3, 91e3, 89e3 };
	static const double p50b[] = { 9.4e6, 9.45e6, 9.38e6 };
	struct cmp_ask q = { 1, 0, 0, CMP_WANT, 0, "B" };
	struct cmp_run a[3], b[3];
	struct cmp_row row;
	size_t i;

	runs_make(a, 3, f3, 1, 1.0 / (512.0 * 512 * 12));
	runs_make(b, 3, f3, 1, 1.0 / (512.0 * 512 * 12));
	for (i = 0; i < 3; i++) {
		a[i].val[STAT_P90] = p90a[i];
		b[i].val[STAT_P90] = p90b[i];
		a[i].val[STAT_P50] = p50a[i];
		b[i].val[STAT_P50] = p50b[i];
	}
	for (q.paired = 0; q.paired < 2; q.paired++) {
		cmp_test(a, 3, b, 3, STAT_P90, &q, &row);
		CHECK(row.verdict == CMP_DOWN && row.hi < -85 && row.lo > -92 &&
		    row.paired == q.paired, "p90, paired %d: verdict %d "
		    "[%g, %g] (%s)", q.paired, row.verdict, row.lo, row.hi,
		    row.reason);
		cmp_test(a, 3, b, 3, STAT_P50, &q, &row);
		CHECK(row.verdict == CMP_UP && row.lo > 1000,
		    "p50, paired %d: verdict %d [%g, %g]", q.paired,
		    row.verdict, row.lo, row.hi);
	}
	q.paired = 1;
	cmp_test(a, 3, b, 3, STAT_P90, &q, &row);
	CHECK(close_to(row.lo, -89.444164501) && close_to(row.hi,
	    -88.961111821), "paired p90 [%.9f, %.9f]", row.lo, row.hi);
out:
	return;
}

/*
 * A drifts x2 run to run (1, 2, 4), B is each run of A times 1.2, 1.21,
 * 1.19: unpaired, the drift swamps the change (cannot tell); paired, the
 * pairs' log differences have mean 0.182298408, variance 6.9448062e-5,
 * and the interval expm1(mean -+ 9.924843 sqrt(var / 3)) =
 * [+14.401755734%, +25.866366589%]: worse.  Sides of other run counts
 * are not paired.
 */
static void
t_paired(void)
{
	static const double fa[] = { 1, 2, 4 }, fb[] = { 1.2, 2.42, 4.76 };
	static const double f4[] = { 1, 1.1, 1.21, 1.05 };
	struct cmp_ask q = { 1, 0, 1, CMP_WANT, 0, "B" };
	struct cmp_run a[4], b[4];
	struct cmp_row row;

	runs_make(a, 3, fa, 1, 0);
	runs_make(b, 3, fb, 1, 0);
	cmp_test(a, 3, b, 3, STAT_P99, &q, &row);
	CHECK(row.paired && row.verdict == CMP_UP &&
	    close_to(row.lo, 14.401755734) && close_to(row.hi, 25.866366589) &&
	    close_to(row.change, 19.997222158), "paired: %d %d %.9f [%.9f, "
	    "%.9f]", row.paired, row.verdict, row.change, row.lo, row.hi);
	q.paired = 0;
	cmp_test(a, 3, b, 3, STAT_P99, &q, &row);
	CHECK(!row.paired && row.verdict == CMP_CANNOT && row.has_ci &&
	    row.need > 3, "unpaired: %d [%g, %g] need %zu", row.verdict,
	    row.lo, row.hi, row.need);
	q.paired = 1;
	runs_make(b, 4, f4, 1, 0);
	cmp_test(a, 3, b, 4, STAT_P99, &q, &row);
	CHECK(!row.paired, "3 runs against 4 paired");
out:
	return;
}

/*
 * A against A: runs within 1% of each other are noise ([+0%, +0%]
 * paired, within +-10% unpaired); one run a side cannot tell, saying so,
 * with no interval and no NAN in its change; a value that cannot be
 * bounded (an infinite run) cannot tell, never noise.
 */
static void
t_edges(void)
{
	static const double f1[] = { 1, 1.01, 1.0201 };
	struct cmp_ask q = { 1, 0, 0, CMP_WANT, 0, "B" };
	struct cmp_run a[3], b[3];
	struct cmp_row row;
	int k;

	runs_make(a, 3, f1, 1, 1e-8);
	for (q.paired = 0; q.paired < 2; q.paired++)
		for (k = 0; k < STAT_NKINDS; k++) {
			cmp_test(a, 3, a, 3, (enum stat_kind)k, &q, &row);
			CHECK(row.verdict == CMP_NOISE && row.change == 0 &&
			    row.lo > -10 && row.hi < 10 && row.lo <= 0 &&
			    row.hi >= 0 && (!q.paired || (fabs(row.lo) < 0.1 &&
			    fabs(row.hi) < 0.1)), "A against A, paired %d, %s: "
			    "%d [%g, %g]", q.paired, stats_kind_name(k),
			    row.verdict, row.lo, row.hi);
		}
	cmp_test(a, 1, a + 1, 1, STAT_P50, &q, &row);
	CHECK(row.verdict == CMP_CANNOT && !row.has_ci && row.need == 0 &&
	    close_to(row.change, 1) && !isnan(row.lo) && !isnan(row.hi) &&
	    strcmp(row.reason, "A has 1 run, a verdict needs 3 a side") == 0,
	    "one run a side: %d %g [%g, %g] %s", row.verdict, row.change,
	    row.lo, row.hi, row.reason);
	runs_make(b, 3, f1, 1, 0);
	b[1].val[STAT_MEAN] = INFINITY;
	cmp_test(a, 3, b, 3, STAT_MEAN, &q, &row);
	CHECK(row.verdict == CMP_CANNOT && !row.has_ci &&
	    strcmp(row.reason, "its interval cannot be bounded") == 0,
	    "infinite: %d %s", row.verdict, row.reason);
out:
	return;
}

/*
 * a = 1, 2, 3 and b = 4, 5, 6: means 2 and 5, sds 1, df 4, half width
 * 4.604095 sqrt(1/3 + 1/3) = 3.759227721: [-0.759227721, 6.759227721]
 * points, within +-10: noise; in percent of A's mean (2), x50:
 * [-37.961386%, +337.961386%], cannot tell.  Two values a side cannot
 * tell.
 */
static void
t_points(void)
{
	double va[] = { 1, 2, 3 }, vb[] = { 4, 5, 6 }, vc[] = { 10, 12 };
	struct cmp_ask q = { 0, 0, 0, CMP_WANT, 0, "B" };
	struct cmp_row row;

	memset(&row, 0, sizeof(row));
	cmp_judge(va, 3, vb, 3, &q, &row);
	CHECK(row.verdict == CMP_NOISE && row.a == 2 && row.b == 5 &&
	    row.spread_a == 1 && row.spread_b == 1 && row.change == 3 &&
	    close_to(row.lo, -0.759227721) && close_to(row.hi, 6.759227721),
	    "points: %d means %g %g [%.9f, %.9f]", row.verdict, row.a, row.b,
	    row.lo, row.hi);
	q.pct = 1;
	memset(&row, 0, sizeof(row));
	cmp_judge(va, 3, vb, 3, &q, &row);
	CHECK(row.verdict == CMP_CANNOT && row.change == 150 &&
	    close_to(row.lo, -37.96138605) && close_to(row.hi, 337.96138605),
	    "percent: %d %g [%.9f, %.9f]", row.verdict, row.change, row.lo,
	    row.hi);
	memset(&row, 0, sizeof(row));
	cmp_judge(vc, 2, vb, 3, &q, &row);
	CHECK(row.verdict == CMP_CANNOT && !row.has_ci && strcmp(row.reason,
	    "A has 2 runs, a verdict needs 3 a side") == 0, "two values: %s",
	    row.reason);
out:
	return;
}

/*
 * Order check over the runs' shares of rounds inverted, in points: A 1,
 * 1.1, 0.9, B 4, 4.2, 3.8: worse (and reversed better); B with 2 runs
 * cannot tell; B 1.2, 1, 1.1: noise; no rounds: cannot tell; neither
 * with the check: none.
 */
static void
t_order(void)
{
	double pa[] = { 1, 1.1, 0.9 }, pb[] = { 4, 4.2, 3.8 };
	double pc[] = { 1.2, 1, 1.1 };
	struct cmp_side a, b;
	struct cmp_order r;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	cmp_order_row(&a, &b, 0, &r);
	CHECK(r.verdict == NULL, "no check: %s", r.verdict);
	a.ord_runs = b.ord_runs = a.nord_pts = b.nord_pts = 3;
	a.ord_rounds = b.ord_rounds = 3000;
	a.ord_bad = 30;
	b.ord_bad = 120;
	a.ord_pts = pa;
	b.ord_pts = pb;
	cmp_order_row(&a, &b, 0, &r);
	CHECK(r.verdict != NULL && strcmp(r.verdict, "worse") == 0 &&
	    close_to(r.row.change, 3) && r.row.lo > 0 && r.pa == 0.01 &&
	    r.pb == 0.04, "%s %g [%g, %g]", r.verdict, r.row.change,
	    r.row.lo, r.row.hi);
	cmp_order_row(&b, &a, 0, &r);
	CHECK(strcmp(r.verdict, "better") == 0, "reversed: %s", r.verdict);
	b.nord_pts = 2;
	cmp_order_row(&a, &b, 0, &r);
	CHECK(strcmp(r.verdict, "cannot tell") == 0, "2 runs: %s", r.verdict);
	b.nord_pts = 3;
	b.ord_pts = pc;
	cmp_order_row(&a, &b, 0, &r);
	CHECK(strcmp(r.verdict, "noise") == 0, "%s %g [%g, %g]", r.verdict,
	    r.row.change, r.row.lo, r.row.hi);
	b.ord_rounds = 0;
	cmp_order_row(&a, &b, 0, &r);
	CHECK(strcmp(r.verdict, "cannot tell") == 0, "no rounds: %s",
	    r.verdict);
out:
	return;
}

static void
t_format(void)
{
	static const struct {
		double		 x, dec;
		const char	*want;
	} pct[] = {
		{ 5.64, 9.95, "+5.6%" }, { -18.4, 9.95, "-18%" },
		{ 9.94, 9.95, "+9.9%" }, { 9.96, 9.95, "+10%" },
		{ 0, 9.95, "+0.0%" }, { 250.04, 999.95, "+250.0%" },
		{ 1000, 999.95, "+1000%" }, { 99999.4, 999.95, "+99999%" },
		{ 99999.5, 999.95, ">+99999%" }, { -99999.5, 9.95, "<-99999%" },
		{ NAN, 9.95, "-" },
	};
	static const struct {
		double		 pct;
		const char	*want;
	} spread[] = {
		{ 6.2, "6%" }, { 0.99, "<1%" }, { 1, "1%" }, { 999, "999%" },
		{ 999.5, ">999%" }, { NAN, "" },
	};
	static const struct {
		double		 lo, hi;
		const char	*want;
	} ci[] = {
		{ 5.64, 30.2, "[+5.6%, +30%]" }, { -95, 2000, "[<-90%, >+1000%]" },
		{ 1000.5, 3000, "above +1000%" }, { -99, -91, "below -90%" },
		{ -16.135779132, 71.706120333, "[-16%, +72%]" },
		{ 0, 0, "[+0.0%, +0.0%]" }, { NAN, 5, "-" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < NELEM(pct); i++)
		CHECK(strcmp(cmp_pct(buf, sizeof(buf), pct[i].x, pct[i].dec),
		    pct[i].want) == 0, "cmp_pct(%g, %g): \"%s\", want \"%s\"",
		    pct[i].x, pct[i].dec, buf, pct[i].want);
	for (i = 0; i < NELEM(spread); i++)
		CHECK(strcmp(cmp_spread(buf, sizeof(buf), spread[i].pct),
		    spread[i].want) == 0, "cmp_spread(%g): \"%s\", want \"%s\"",
		    spread[i].pct, buf, spread[i].want);
	for (i = 0; i < NELEM(ci); i++)
		CHECK(strcmp(cmp_interval(buf, sizeof(buf), ci[i].lo, ci[i].hi),
		    ci[i].want) == 0, "cmp_interval(%g, %g): \"%s\", want "
		    "\"%s\"", ci[i].lo, ci[i].hi, buf, ci[i].want);
out:
	return;
}

/*
 * The gate on p50 of A against B (x2: [+39.8%, +186.2%]): 5% lies below
 * the interval, exceeded; 200% above it, met; 100% inside, cannot tell.
 */
static void
t_gate_rule(void)
{
	static const struct {
		const char	*spec;
		int		 state;
		const char	*line;
	} c[] = {
		{ "p50=5%", CMP_GATE_EXCEEDED, "gate: exceeded: p50 +100.0% > 5% "
		    "(interval [+40%, +186%])\n" },
		{ "p50=200%,mean=200%", CMP_GATE_MET, "gate: met (2 limits)\n" },
		/* The interval's top is +186.18%: 186% is within it. */
		{ "p50=186%", CMP_GATE_CANNOT, NULL },
		{ "p50=187%", CMP_GATE_MET, "gate: met (1 limit)\n" },
		{ "p50=100%", CMP_GATE_CANNOT, "gate: cannot tell: p50 (interval "
		    "[+40%, +186%] holds 100%)\n" },
		{ "p50=39%", CMP_GATE_EXCEEDED, "gate: exceeded: p50 +100.0% > "
		    "39% (interval [+40%, +186%])\n" },
		{ "p50=40%", CMP_GATE_CANNOT, NULL },
	};
	struct cmp_side a, b;
	char *out = NULL, *gl = NULL;
	size_t i;
	int state;

	CHECK(side_make(&a, "A", 3, f3, 1) == 0 &&
	    side_make(&b, "B", 3, f3, 2) == 0, "side_make");
	for (i = 0; i < NELEM(c); i++) {
		out = report(&a, &b, c[i].spec, &state, &gl);
		CHECK(state == c[i].state, "%s: state %d, want %d (%s)",
		    c[i].spec, state, c[i].state, gl);
		CHECK(c[i].line == NULL || strcmp(gl, c[i].line) == 0,
		    "%s: \"%s\", want \"%s\"", c[i].spec, gl, c[i].line);
		CHECK(strstr(out, "gate") == NULL, "a gate line in the table");
		free(out);
		free(gl);
		out = gl = NULL;
	}
	/* Without a gate: met, and no line. */
	out = report(&a, &b, NULL, &state, &gl);
	CHECK(state == CMP_GATE_MET && gl[0] == '\0', "no gate: %d \"%s\"",
	    state, gl);
out:
	free(out);
	free(gl);
	cmp_side_free(&a);
	cmp_side_free(&b);
}

static void
t_gate_line(void)
{
	/* A limit a line, each within 80 columns. */
	static const char want[] = "gate: exceeded (2 limits: 1 exceeded, 1 "
	    "cannot tell, 0 met)\n  exceeded     p50 +100.0% > 5% (interval "
	    "[+40%, +186%])\n  cannot tell  p99.99 (";
	struct cmp_side a, b, one;
	char *out = NULL, *gl = NULL;
	int state;

	CHECK(side_make(&a, "A", 3, f3, 1) == 0 &&
	    side_make(&b, "B", 3, f3, 2) == 0 &&
	    side_make(&one, "A", 1, f3, 1) == 0, "side_make");
	/* p50 exceeded, p99.99 (no value in a run) cannot tell: exceeded. */
	a.series[0].runs[0].val[STAT_P9999] = NAN;
	a.series[0].runs[0].n = 4000;
	out = report(&a, &b, "p50=5%,p99.99=1%", &state, &gl);
	CHECK(state == CMP_GATE_EXCEEDED && strncmp(gl, want,
	    strlen(want)) == 0, "%d %s", state, gl);
	/* A row the gate names joins the table (p99.99 is not a default). */
	CHECK(strncmp(line_of(out, "p99.99 "), "p99.99 ", 7) == 0,
	    "no p99.99 row: %s", out);
	free(out);
	free(gl);
	out = gl = NULL;
	/* A series neither side has. */
	out = report(&a, &b, "timer.p99=5%", &state, &gl);
	CHECK(state == CMP_GATE_CANNOT && strcmp(gl, "gate: cannot tell: "
	    "timer.p99 (no timer series in every run of A and B)\n") == 0, "%d %s", state, gl);
	free(out);
	free(gl);
	out = gl = NULL;
	/* One run a side: the reason in the gate's line. */
	out = report(&one, &b, "p99=10%,mean=10%", &state, &gl);
	CHECK(state == CMP_GATE_CANNOT && strcmp(gl, "gate: cannot tell (2 "
	    "limits: 0 exceeded, 2 cannot tell, 0 met)\n  cannot tell  mean "
	    "(A has 1 run, a verdict needs 3 a side)\n  cannot tell  p99 (A "
	    "has 1 run, a verdict needs 3 a side)\n") == 0, "%d %s", state, gl);
out:
	free(out);
	free(gl);
	cmp_side_free(&a);
	cmp_side_free(&b);
	cmp_side_free(&one);
}

/*
 * The table of hand-made sides: the rows' columns (the change ends at
 * column 42, the interval is columns 45-60, the verdict from column 62),
 * the spreads (expm1(ln 1.1) = 10%), one sentence a reason, the warning of
 * a side too small, and 72 columns at most.
 */
static void
t_table(void)
{
	static const char *const rows[] = { "mean", "p50", "p90", "p95",
	    "p99", "p99.9", "max" };
	struct cmp_side a, b, one;
	char *out = NULL, *p;
	const char *l;
	size_t i, len;
	int state;

	CHECK(side_make(&a, "A", 3, f3, 1) == 0 &&
	    side_make(&b, "B", 3, f3, 2) == 0 &&
	    side_make(&one, "A", 1, f3, 1) == 0, "side_make");
	out = report(&a, &b, NULL, &state, NULL);
	CHECK(strstr(out, "A: a.json (3 runs, 12000 samples)\n") != NULL &&
	    strstr(out, "B: b.json (3 runs, 12000 samples)\n") != NULL,
	    "the sides' lines: %s", out);
	for (i = 0; i < NELEM(rows); i++) {
		l = line_of(out, rows[i]);
		CHECK(strlen(l) > 61 && strcmp(l + 61, "worse") == 0 &&
		    strncmp(l + 34, " +100.0%", 8) == 0 &&
		    strncmp(l + 44, "[+40%, +186%]", 13) == 0,
		    "row %s: \"%s\"", rows[i], l);
	}
	/* mean: 1.1 x 23 us on A, 10% between its runs; x2 on B. */
	l = line_of(out, "mean ");
	CHECK(strncmp(l, "mean     25.30   10%   50.60   10% ", 35) == 0,
	    "mean's values and spreads: \"%s\"", l);
	CHECK(line_of(out, "min ")[0] == '\0' && line_of(out, "stdev ")[0] ==
	    '\0' && line_of(out, "p99.99 ")[0] == '\0',
	    "rows beyond the default ones: %s", out);
	CHECK(strstr(out, "warning:") == NULL && strstr(out, "cannot tell")
	    == NULL, "warnings or reasons: %s", out);
	for (p = out; *p != '\0'; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		CHECK(len <= 72, "%zu columns: %.*s", len, (int)len, p);
	}
	free(out);
	out = report(&one, &b, NULL, &state, NULL);
	for (i = 0; i < NELEM(rows); i++) {
		l = line_of(out, rows[i]);
		CHECK(strlen(l) > 61 && strcmp(l + 61, "cannot tell") == 0 &&
		    strncmp(l + 44, "-  ", 3) == 0, "one run, row %s: \"%s\"",
		    rows[i], l);
	}
	CHECK(strstr(out, "\ncannot tell: mean, p50, p90, p95, p99, p99.9, "
	    "max: A has 1 run,\n    a verdict needs 3 a side.\n") != NULL,
	    "one sentence for all rows: %s", strstr(out, "\ncannot tell:"));
	CHECK(strstr(out, "\nwarning: A has 1 run: verdicts need 3 a side") !=
	    NULL, "the warning of one run: %s", out);
	for (p = out; *p != '\0'; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		CHECK(len <= 72, "%zu columns: %.*s", len, (int)len, p);
	}
out:
	free(out);
	cmp_side_free(&a);
	cmp_side_free(&b);
	cmp_side_free(&one);
}

static void
t_gate_parse(void)
{
	struct cmp_gate g;

	cmp_gate_parse(&g, "p99=10%,timer.max=50%,placement.same_cpu.p50=0%,"
	    "mean=100000%");
	CHECK(g.n == 4, "%zu limits", g.n);
	CHECK(strcmp(g.item[0].series, "latency") == 0 &&
	    g.item[0].stat == STAT_P99 && g.item[0].limit == 10, "p99=10%%");
	CHECK(strcmp(g.item[1].series, "timer") == 0 &&
	    g.item[1].stat == STAT_MAX && g.item[1].limit == 50, "timer.max");
	CHECK(strcmp(g.item[2].series, "placement.same_cpu") == 0 &&
	    g.item[2].stat == STAT_P50 && g.item[2].limit == 0,
	    "placement.same_cpu.p50: %s", g.item[2].series);
	CHECK(g.item[3].stat == STAT_MEAN && g.item[3].limit == 100000,
	    "mean=100000%%");
	cmp_gate_parse(&g, "p99.9=1%,timer.p99.9=2%,sd=3%,worst=4%");
	CHECK(g.n == 4 && g.item[0].stat == STAT_P999 &&
	    strcmp(g.item[1].series, "timer") == 0 &&
	    g.item[1].stat == STAT_P999 && g.item[2].stat == STAT_STDEV &&
	    g.item[3].stat == STAT_MAX, "p99.9, sd, worst");
out:
	return;
}

static void
gate_child(void *spec)
{
	struct cmp_gate g;

	cmp_gate_parse(&g, spec);
}

static void
t_gate_refused(void)
{
	static const struct {
		const char	*spec;
		const char	*msg;
	} c[] = {
		{ "p99=10", "latt: fail-if-worse: p99=10: the limit needs a % "
		    "sign (for example p99=10%)\n" },
		{ "p98=10%", "latt: fail-if-worse: unknown statistic in "
		    "p98=10% (known: min, mean, stdev, p50, p90, p95, p99, "
		    "p99.9, p99.99, max, or SERIES.STAT)\n" },
		{ "timer.p98=1%", "latt: fail-if-worse: unknown statistic in "
		    "timer.p98=1%" },
		{ "p99=x%", "latt: fail-if-worse p99" },
		{ "p99=-5%", "latt: fail-if-worse p99" },
		{ "p99=100001%", "latt: fail-if-worse p99" },
		{ "p99=1%,,max=2%", "latt: fail-if-worse has an empty part: "
		    "p99=1%,,max=2%\n" },
		{ ",p99=1%", "latt: fail-if-worse has an empty part" },
		{ "p99=1%,", "latt: fail-if-worse has an empty part" },
		{ "p99=1%,p99=2%", "latt: fail-if-worse: p99=2%: p99 is given "
		    "twice\n" },
		{ "", "latt: fail-if-worse is empty\n" },
		{ "p99", "latt: fail-if-worse: p99 is not STAT=N%\n" },
		{ "=5%", "latt: fail-if-worse: unknown statistic in =5%" },
	};
	char err[512], *p;
	size_t i;
	int st;

	for (i = 0; i < NELEM(c); i++) {
		st = unit_exits(gate_child, (void *)c[i].spec, err,
		    sizeof(err));
		CHECK(st == 2, "\"%s\": status %d, want 2 (%s)", c[i].spec, st,
		    err);
		/* One line, and the pointer to --help. */
		CHECK(strncmp(err, c[i].msg, strlen(c[i].msg)) == 0 &&
		    (p = strchr(err, '\n')) != NULL &&
		    strcmp(p + 1, "try 'latt --help'\n") == 0,
		    "\"%s\": \"%s\", want \"%s\" in one line", c[i].spec, err,
		    c[i].msg);
	}
out:
	return;
}

/* parse_level of one --confidence value. */
static void
level_child(void *pct)
{
	exit(parse_level(pct) > 0 ? 0 : 7);
}

/*
 * Five pairs differing by 1, 2, 3, 4, 5 (mean 3, sd 1.5811): t(4) at 95%
 * is 2.7764, so [1.0368, 4.9632], worse; at 99% 4.6041, so [-0.2556,
 * 6.2556], cannot tell (past +-1 point asked).  Bad levels are usage
 * errors.
 */
static void
t_level(void)
{
	static const char *const bad[] = { "", "95x", "79.9", "99.95", "x",
	    "100", "-95", "nan" };
	double a[] = { 0, 0, 0, 0, 0 }, b[] = { 1, 2, 3, 4, 5 };
	struct cmp_ask q = { 0, 0, 1, 1, 0, "B" };
	struct cmp_row row;
	char err[512];
	size_t i;
	int st;

	CHECK(CMP_LEVEL == 0.975, "the default level %g", CMP_LEVEL);
	cmp_level = parse_level("95");
	memset(&row, 0, sizeof(row));
	cmp_judge(a, 5, b, 5, &q, &row);
	CHECK(row.paired && row.verdict == CMP_UP && fabs(row.lo - 1.0368) <
	    1e-4 && fabs(row.hi - 4.9632) < 1e-4, "95%%: %d [%.5f, %.5f]",
	    row.verdict, row.lo, row.hi);
	cmp_level = parse_level("99%");
	memset(&row, 0, sizeof(row));
	cmp_judge(a, 5, b, 5, &q, &row);
	CHECK(row.verdict == CMP_CANNOT && fabs(row.lo + 0.2556) < 1e-4 &&
	    fabs(row.hi - 6.2556) < 1e-4 && strcmp(cmp_interval_name(),
	    "99% interval") == 0, "99%%: %d [%.5f, %.5f] %s", row.verdict,
	    row.lo, row.hi, cmp_interval_name());
	for (i = 0; i < NELEM(bad); i++) {
		st = unit_exits(level_child, (void *)bad[i], err, sizeof(err));
		CHECK(st == 2 && strncmp(err, "latt: --confidence=", 19) == 0 &&
		    strstr(err, "a percent from 80 to 99.9") != NULL,
		    "\"%s\": status %d: %s", bad[i], st, err);
	}
out:
	return;
}

/*
 * cmp_more: settings that differ named, others counted, a line past the
 * width only counted.
 */
static void
t_more(void)
{
	static const struct {
		const char	*w[3];
		size_t		 n;
		int		 width;
		const char	*want;
	} c[] = {
		{ { "the loads differ: A none, B cpu:2.", "the number of "
		    "clients differs: A 8, B 4." }, 2, 80, "warning: 2 more "
		    "(--details): loads, number of clients differ.\n" },
		{ { "the loads differ: A none.", "B: b.json, run 2 was noisy "
		    "(...): kept." }, 2, 80, "warning: 2 more (--details): "
		    "loads differ; 1 other.\n" },
		{ { "the loads differ: A none." }, 1, 30, "warning: and 1 more "
		    "(--details shows every warning).\n" },
		{ { "A: a.json, run 1 was noisy (...).", "B: b.json: ..." }, 2,
		    80, "warning: and 2 more (--details shows every "
		    "warning).\n" },
	};
	char *buf = NULL;
	size_t i, len = 0;
	FILE *m;

	for (i = 0; i < NELEM(c); i++) {
		if ((m = open_memstream(&buf, &len)) == NULL)
			abort();
		cmp_more(m, (char *const *)c[i].w, c[i].n, c[i].width);
		fclose(m);
		CHECK(strcmp(buf, c[i].want) == 0, "case %zu: \"%s\", want "
		    "\"%s\"", i, buf, c[i].want);
		free(buf);
		buf = NULL;
	}
out:
	free(buf);
	return;
}

/* compare_main on the words of one case, NULL-terminated. */
static void
main_child(void *words)
{
	char **w = words;
	int n = 0;

	while (w[n] != NULL)
		n++;
	compare_main(n, w);
}

/*
 * The files named need not exist: each of these is refused before a file
 * is opened.  (The line after is "try 'latt compare --help'" from latt,
 * whose main says which command runs; "try 'latt --help'" here.)
 */
static void
t_main_usage(void)
{
	static char *c1[] = { "compare", "a.json", NULL };
	static char *c2[] = { "compare", "a.json", "b.json", "--frobnicate",
	    NULL };
	static char *c3[] = { "compare", "a.json", "-x", "b.json", NULL };
	static char *c4[] = { "compare", "a.json", "b.json", "--all=x", NULL };
	static char *c5[] = { "compare", "a.json", "b.json", "--json=", NULL };
	static char *c6[] = { "compare", "a.json,", "b.json", NULL };
	static char *c7[] = { "compare", "a.json", "b.json", "--ktap=",
	    "--fail-if-worse=p99=5%", NULL };
	static const struct {
		char		**argv;
		const char	*msg;
	} c[] = {
		{ c1, "latt: compare needs two sides or more" },
		{ c2, "latt: compare: unknown option: --frobnicate (try "
		    "'latt compare --help')\n" },
		{ c3, "latt: compare: unknown option: -x (try 'latt compare "
		    "--help')\n" },
		{ c4, "latt: compare: option --all takes no value: --all=x\n" },
		{ c5, "latt: compare: --json= needs a file name\n" },
		{ c6, "latt: compare: empty file name in side A: 'a.json,'\n" },
		{ c7, "latt: compare: --ktap= needs a file name\n" },
	};
	char err[512], *p;
	size_t i;
	int st;

	for (i = 0; i < NELEM(c); i++) {
		st = unit_exits(main_child, c[i].argv, err, sizeof(err));
		CHECK(st == 2, "%s: status %d, want 2 (%s)", c[i].argv[1], st,
		    err);
		CHECK(strncmp(err, c[i].msg, strlen(c[i].msg)) == 0 &&
		    (p = strchr(err, '\n')) != NULL &&
		    (strcmp(p + 1, "try 'latt compare --help'\n") == 0 ||
		    strcmp(p + 1, "try 'latt --help'\n") == 0),
		    "case %zu: \"%s\", want \"%s\" in one line", i, err,
		    c[i].msg);
	}
out:
	return;
}
