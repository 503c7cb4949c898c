/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpstat.c: the statistics of latt compare.  It sums up one series of one
 * run (its statistics: one number a run each) and judges every row of
 * every table by one rule (cmp_judge): side B's values a run against A's,
 * on their logarithms for latency, paired where the runs were (neighbours
 * A B A B ... of one sweep: the differences of the pairs) and by Welch's
 * t where they were not, the runs' own spread deciding.  The method is
 * documented in latt.1 (COMPARING RUNS) and docs/compare.md; the numbers
 * that define it are the constants here and in cmp.h.  It reads no file
 * and prints nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "lib/common.h"
#include "stats.h"

#define TINY		1e-300		/* Lentz's stand-in for zero */

/* Samples a run needs for statistic k to mean anything. */
static uint64_t
run_need(enum stat_kind k)
{
	return stats_kind_q(k) > 0 ? stats_need(k) : CMP_MIN_SAMPLES;
}

/*
 * Sums up a run's series: the value of every statistic the run has the
 * samples for (a 0 stays 0: a run whose p50 of runqueue wait is 0 waited
 * for no CPU in half its wake-ups, which no small number says), and the
 * histogram's rounding of a percentile as a variance of its logarithm.
 */
int
cmp_summarize(struct cmp_run *r, const struct stats *st)
{
	double w = ldexp(1, -(int)st->hist.sub_bits), v;
	int k;

	memset(r, 0, sizeof(*r));
	r->n = st->n;
	r->res = w * w / 12;
	for (k = 0; k < STAT_NKINDS; k++) {
		r->val[k] = NAN;
		if (st->n < run_need((enum stat_kind)k) ||
		    (k == STAT_STDEV && isnan(st->m2)))
			continue;
		v = stats_value(st, (enum stat_kind)k);
		r->val[k] = v > 0 ? v : 0;
	}
	return 0;
}

/*
 * One step of Lentz's method for a continued fraction whose next partial
 * numerator is aa: c and d move on, and the returned factor multiplies
 * the value so far.  TINY stands in for a zero that would divide.
 */
static double
lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	*c = 1 + aa / *c;
	*d = 1 / (fabs(*d) < TINY ? TINY : *d);
	*c = fabs(*c) < TINY ? TINY : *c;
	return *d * *c;
}

/* The continued fraction of the incomplete beta function (Lentz). */
static double
beta_cf(double a, double b, double x)
{
	double c = 1, d, h, aa, del;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < TINY)
		d = TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (a + b + m) * x /
		    ((a + 2 * m) * (a + 2 * m + 1));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double
beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* The t of Student's law with df degrees of freedom exceeded with chance p. */
static double
t_upper(double p, double df)
{
	double lo = 0, hi = 1e7, mid;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-9 * (1 + lo); i++) {
		mid = (lo + hi) / 2;
		if (0.5 * beta_inc(df / 2, 0.5, df / (df + mid * mid)) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int
cmp_vals_add(struct cmp_vals *vs, double x)
{
	double *nv;

	if ((nv = realloc(vs->v, (vs->n + 1) * sizeof(*nv))) == NULL)
		return -1;
	vs->v = nv;
	nv[vs->n++] = x;
	return 0;
}

/*
 * The geometric mean of the runs' values of k (0 when one is 0), NAN when
 * one lacks it; the sd of their logarithms into *spread (NAN with fewer
 * than two runs or a 0).
 */
static double
geomean(const struct cmp_run *r, size_t nr, enum stat_kind k, double *spread)
{
	double s = 0, ss = 0, m;
	size_t i;

	*spread = NAN;
	if (nr == 0)
		return NAN;
	for (i = 0; i < nr; i++)
		if (isnan(r[i].val[k]))
			return NAN;
	for (i = 0; i < nr; i++) {
		if (r[i].val[k] == 0)
			return 0;
		s += log(r[i].val[k]);
	}
	m = s / (double)nr;
	for (i = 0; i < nr; i++)
		ss += (log(r[i].val[k]) - m) * (log(r[i].val[k]) - m);
	if (nr > 1)
		*spread = sqrt(ss / (double)(nr - 1));
	return exp(m);
}

/* The mean and the variance (n - 1; NAN with one) of n values or logs. */
static void
moments(const double *v, size_t n, int logs, double *mean, double *var)
{
	double s = 0, ss = 0, y;
	size_t i;

	for (i = 0; i < n; i++)
		s += logs ? log(v[i]) : v[i];
	*mean = n > 0 ? s / (double)n : NAN;
	for (i = 0; i < n; i++) {
		y = (logs ? log(v[i]) : v[i]) - *mean;
		ss += y * y;
	}
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/* The intervals' two-sided confidence: --confidence, CMP_LEVEL unless. */
double cmp_level = CMP_LEVEL;

/* Student's t at cmp_level, df degrees of freedom, times sqrt(se2). */
static double
half_width(double se2, double df)
{
	if (!(se2 > 0))
		return se2 == 0 ? 0 : NAN;
	return t_upper((1 - cmp_level) / 2, df) * sqrt(se2);
}

/*
 * Runs a side that would hold the interval within +-want were nothing
 * changed, a run's value (a pair's difference when paired) varying by v:
 * the fewest from CMP_MIN_RUNS on, CMP_MAX_NEED at most (the width falls
 * with the runs: bisection).
 */
static size_t
runs_needed(double v, double want, int paired)
{
	size_t lo = CMP_MIN_RUNS, hi = CMP_MAX_NEED, mid;
	double m;

	if (!(v > 0) || !(want > 0))
		return 0;
	while (lo < hi) {
		m = (double)(mid = (lo + hi) / 2);
		if (half_width((paired ? 1 : 2) * v / m, paired ? m - 1 :
		    2 * m - 2) < want)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The one rule.  y is each run's value (its logarithm with q->log); the
 * change is the difference of the sides' mean y, its interval at
 * cmp_level Student's t times its standard error: of the pairs'
 * differences when paired (run i of A beside run i of B, n - 1 degrees
 * of freedom), else
 * Welch's over the two sides' runs.  A variance is never below q->floor
 * (the histogram's rounding: values no spread can be seen under).  B is
 * up (worse for latency) or down when the interval excludes 0; noise
 * when it holds 0 and lies within +-q->want (the change that matters);
 * else, or under CMP_MIN_RUNS a side, or when it cannot be bounded,
 * cannot tell, with the runs a side that would resolve q->want.
 */
void
cmp_judge(const double *a, size_t na, const double *b, size_t nb,
    const struct cmp_ask *q, struct cmp_row *row)
{
	double ma, va, mb, vb, vd = 0, y, scale = 1, want, se2, df, v, h;
	size_t i, n = na;
	int lg = q->log;

	row->verdict = CMP_CANNOT;
	row->paired = q->paired && na == nb && na > 1;
	moments(a, na, lg, &ma, &va);
	moments(b, nb, lg, &mb, &vb);
	row->a = lg ? exp(ma) : ma;
	row->b = lg ? exp(mb) : mb;
	row->spread_a = sqrt(va);
	row->spread_b = sqrt(vb);
	if (!lg && q->pct && (ma != 0 || mb != 0))
		scale = 100 / fabs(ma != 0 ? ma : mb);	/* percent of A's */
	row->change = lg ? expm1(mb - ma) * 100 : (mb - ma) * scale;
	want = lg ? log1p(q->want / 100) : q->want / scale;
	for (i = 0; row->paired && i < n; i++) {
		y = (lg ? log(b[i]) - log(a[i]) : b[i] - a[i]) - (mb - ma);
		vd += y * y / (double)(n - 1);
	}
	va = va < q->floor ? q->floor : va;	/* NAN stays */
	vb = vb < q->floor ? q->floor : vb;
	vd = vd < 2 * q->floor ? 2 * q->floor : vd;
	/* A run's variance (a pair's), for the runs that would tell. */
	v = row->paired ? vd : isnan(va) ? vb : isnan(vb) ? va : (va + vb) / 2;
	if (na < CMP_MIN_RUNS || nb < CMP_MIN_RUNS) {
		snprintf(row->reason, sizeof(row->reason), "%s has %zu run%s, "
		    "a verdict needs %d a side", na < CMP_MIN_RUNS ? "A" :
		    q->bname, na < CMP_MIN_RUNS ? na : nb, (na < CMP_MIN_RUNS ?
		    na : nb) == 1 ? "" : "s", CMP_MIN_RUNS);
		row->need = runs_needed(v, want, row->paired);
		return;
	}
	se2 = row->paired ? vd / (double)n : va / (double)na + vb / (double)nb;
	df = row->paired ? (double)n - 1 : se2 * se2 / (va * va /
	    ((double)na * na * (double)(na - 1)) + vb * vb / ((double)nb *
	    nb * (double)(nb - 1)));
	h = half_width(se2, df);
	if (!isfinite(h) || !isfinite(mb - ma)) {
		snprintf(row->reason, sizeof(row->reason), "its interval "
		    "cannot be bounded");
		return;
	}
	row->lo = lg ? expm1(mb - ma - h) * 100 : (mb - ma - h) * scale;
	row->hi = lg ? expm1(mb - ma + h) * 100 : (mb - ma + h) * scale;
	row->has_ci = 1;
	if (row->lo > 0 || row->hi < 0)
		row->verdict = row->lo > 0 ? CMP_UP : CMP_DOWN;
	else if (row->lo > -q->want && row->hi < q->want)
		row->verdict = CMP_NOISE;
	else {
		snprintf(row->reason, sizeof(row->reason), "its interval holds "
		    "0 but reaches past +-%g%s", q->want, lg || q->pct ? "%" :
		    " points");
		row->need = runs_needed(v, want, row->paired);
	}
}

/*
 * Why a side's runs cannot give statistic k a ratio, into reason: -1.  1
 * when it is 0 in every run (no log to take), 0 when every run has it.
 */
static int
side_check(const char *name, const struct cmp_run *r, size_t nr,
    enum stat_kind k, char *reason, size_t len)
{
	size_t i, nzero = 0;

	for (i = 0; i < nr; i++) {
		if (isnan(r[i].val[k])) {
			snprintf(reason, len, "a run of %s has %llu samples, "
			    "%s needs %llu", name, (unsigned long long)r[i].n,
			    stats_kind_name(k),
			    (unsigned long long)run_need(k));
			return -1;
		}
		nzero += r[i].val[k] == 0;
	}
	if (nzero > 0 && nzero < nr) {
		snprintf(reason, len, "%s is 0 in %zu of %s's %zu runs: no "
		    "ratio to 0", stats_kind_name(k), nzero, name, nr);
		return -1;
	}
	return nr > 0 && nzero == nr;
}

/*
 * Statistic k of runs a against runs b by the one rule, on the
 * logarithms, the histogram's rounding a floor for a percentile; a value
 * 0 in every run of both sides is no difference at all.
 */
void
cmp_test(const struct cmp_run *a, size_t na, const struct cmp_run *b,
    size_t nb, enum stat_kind k, const struct cmp_ask *ask,
    struct cmp_row *row)
{
	struct cmp_ask q = *ask;
	struct cmp_row keep;
	double *v;
	size_t i;
	int ca = 0, cb = 0, few = na < CMP_MIN_RUNS || nb < CMP_MIN_RUNS;

	memset(row, 0, sizeof(*row));
	row->stat = k;
	row->limit = -1;
	row->verdict = CMP_CANNOT;
	row->a = geomean(a, na, k, &row->spread_a);
	row->b = geomean(b, nb, k, &row->spread_b);
	row->change = isnan(row->a) || isnan(row->b) || !(row->a > 0) ? NAN :
	    (row->b / row->a - 1) * 100;
	/* Too few runs is the reason first, the figures as they are. */
	if (!few && ((ca = side_check("A", a, na, k, row->reason,
	    sizeof(row->reason))) == -1 || (cb = side_check(q.bname, b, nb,
	    k, row->reason, sizeof(row->reason))) == -1))
		return;
	if (ca == 1 && cb == 1) {
		row->change = row->lo = row->hi = 0;
		row->has_ci = 1;
		row->verdict = CMP_NOISE;
		return;
	}
	if (ca == 1 || cb == 1) {
		snprintf(row->reason, sizeof(row->reason), "%s is 0 in every "
		    "run of %s, not of %s: no ratio to 0", stats_kind_name(k),
		    ca == 1 ? "A" : q.bname, ca == 1 ? q.bname : "A");
		return;
	}
	if ((v = calloc(na + nb + 1, sizeof(*v))) == NULL) {
		snprintf(row->reason, sizeof(row->reason), "out of memory");
		return;
	}
	for (i = 0; i < na + nb; i++) {
		v[i] = i < na ? a[i].val[k] : b[i - na].val[k];
		if (stats_kind_q(k) > 0)
			q.floor = fmax(q.floor, i < na ? a[i].res :
			    b[i - na].res);
	}
	q.log = 1;
	keep = *row;
	cmp_judge(v, na, v + na, nb, &q, row);
	free(v);
	if (few) {
		row->a = keep.a;
		row->b = keep.b;
		row->change = keep.change;
		row->spread_a = keep.spread_a;
		row->spread_b = keep.spread_b;
	}
}

/*
 * The order check (rt-migrate-test's question) of a against b: each
 * side's share of rounds with an inversion (all its runs' rounds), and
 * the change by the one rule over the runs' own shares, in points.
 */
void
cmp_order_row(const struct cmp_side *a, const struct cmp_side *b,
    int paired, struct cmp_order *r)
{
	struct cmp_ask q = { 0, 0, paired, CMP_WANT, 0, b->name };

	memset(r, 0, sizeof(*r));
	if (a->ord_runs == 0 && b->ord_runs == 0)
		return;
	r->verdict = "cannot tell";
	if (a->ord_rounds == 0 || b->ord_rounds == 0)
		return;
	r->pa = (double)a->ord_bad / (double)a->ord_rounds;
	r->pb = (double)b->ord_bad / (double)b->ord_rounds;
	cmp_judge(a->ord_pts, a->nord_pts, b->ord_pts, b->nord_pts, &q,
	    &r->row);
	r->verdict = cmp_word(&r->row, "worse", "better");
}

const char *
cmp_word(const struct cmp_row *rw, const char *up, const char *down)
{
	return rw->verdict == CMP_UP ? up : rw->verdict == CMP_DOWN ? down :
	    rw->verdict == CMP_NOISE ? "noise" : "cannot tell";
}
