/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpstat.c: the statistics of latt compare.  It sums up one series of one
 * run (its statistics, and from its blocks how much each would vary were
 * the run repeated: a moving-block bootstrap) and tests the runs of one
 * side against another's (Welch's t on the logarithms).  The method is
 * documented in latt.1 (COMPARING RUNS) and docs/compare.md; the numbers
 * that define it are the constants here and in cmp.h.  It reads no
 * file and prints nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "lib/common.h"
#include "stats.h"

#define NREPS		200		/* within-run bootstrap replicates */
#define TINY		1e-300		/* Lentz's stand-in for zero */

/*
 * A run's non-empty blocks laid out for resampling (boot_init): the
 * distinct buckets of the run, ascending, with their values, and where
 * each block's buckets stand among them (block i's are pos[first[i] ..
 * first[i + 1])), so that a replicate costs the chosen blocks' buckets,
 * not blocks times buckets.
 */
struct boot {
	const struct cmp_sblock **blk;	/* the K non-empty blocks */
	size_t		  K;
	size_t		  nu;		/* distinct buckets */
	double		 *vals;		/* their values, ns */
	uint64_t	 *tot;		/* a replicate's count of each */
	uint32_t	 *pos;
	size_t		 *first;
};

/* Samples a run needs for statistic k to mean anything. */
static uint64_t
run_need(enum stat_kind k)
{
	return stats_kind_q(k) > 0 ? stats_need(k) : CMP_MIN_SAMPLES;
}

/* Rank of quantile q among n (ceil(q n), within [1, n]). */
static uint64_t
rank_of(double q, uint64_t n)
{
	double x = ceil(q * (double)n - 1e-9);

	if (x < 1)
		return 1;
	return x > (double)n ? n : (uint64_t)x;
}

/*
 * The statistics of one replicate: tot[u] samples at value vals[u]
 * (ascending), n in all, extremes mn and mx.
 */
static void
replicate_stats(const double *vals, const uint64_t *tot, size_t nu,
    uint64_t n, double mn, double mx, double *out)
{
	double sum = 0, ss = 0, mean, q, v;
	uint64_t cum = 0, rank;
	size_t u;
	int k;

	for (u = 0; u < nu; u++)
		sum += vals[u] * (double)tot[u];
	mean = sum / (double)n;
	for (u = 0; u < nu; u++)
		ss += (vals[u] - mean) * (vals[u] - mean) * (double)tot[u];
	out[STAT_MIN] = mn;
	out[STAT_MAX] = mx;
	out[STAT_MEAN] = mean;
	out[STAT_STDEV] = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	u = 0;
	for (k = STAT_P50; k <= STAT_P9999; k++) {
		q = stats_kind_q((enum stat_kind)k);
		rank = rank_of(q, n);
		while (u < nu && cum + tot[u] < rank)
			cum += tot[u++];
		v = u < nu ? vals[u] : mx;
		out[k] = v < mn ? mn : v > mx ? mx : v;
	}
}

static void
boot_free(struct boot *bt)
{
	free(bt->blk);
	free(bt->vals);
	free(bt->tot);
	free(bt->pos);
	free(bt->first);
}

/*
 * Lays out sb's non-empty blocks for resampling; with fewer than two
 * there is nothing to resample, and only bt->K is set.  Returns 0, or -1
 * on ENOMEM (boot_free then frees what was allocated).
 */
static int
boot_init(struct boot *bt, const struct cmp_sblocks *sb)
{
	const struct cmp_sblock *b;
	struct hist shape;
	uint32_t *map = NULL;	/* a bucket's distinct bucket + 1; 0: none */
	double bmax = 0;
	size_t total = 0, i, j, m;
	int ret = -1;

	memset(bt, 0, sizeof(*bt));
	memset(&shape, 0, sizeof(shape));
	for (i = 0; i < sb->n; i++)
		if (sb->b[i].n > 0) {
			bt->K++;
			total += sb->b[i].nb;
		}
	if (bt->K < 2)
		return 0;
	if (hist_init(&shape, sb->sub_bits) == -1 ||
	    (map = calloc(shape.nbuckets + 1, sizeof(*map))) == NULL ||
	    (bt->blk = calloc(bt->K, sizeof(*bt->blk))) == NULL ||
	    (bt->pos = calloc(total + 1, sizeof(*bt->pos))) == NULL ||
	    (bt->first = calloc(bt->K + 1, sizeof(*bt->first))) == NULL)
		goto out;
	for (i = 0, j = 0; i < sb->n; i++) {
		if ((b = &sb->b[i])->n == 0)
			continue;
		bt->blk[j++] = b;
		for (m = 0; m < b->nb; m++)
			map[b->idx[m]] = 1;
		if ((double)b->max > bmax)
			bmax = (double)b->max;
	}
	/* The distinct buckets of the run, ascending, and their values. */
	for (i = 0; i <= shape.nbuckets; i++)
		if (map[i] != 0)
			map[i] = (uint32_t)++bt->nu;
	if ((bt->vals = calloc(bt->nu, sizeof(*bt->vals))) == NULL ||
	    (bt->tot = calloc(bt->nu, sizeof(*bt->tot))) == NULL)
		goto out;
	for (i = 0; i <= shape.nbuckets; i++)
		if (map[i] != 0)
			bt->vals[map[i] - 1] = i == shape.nbuckets ? bmax :
			    (double)hist_mid(&shape, i);
	/* Where each block's buckets stand among the distinct ones. */
	for (i = 0, j = 0; i < bt->K; i++) {
		bt->first[i] = j;
		for (m = 0; m < bt->blk[i]->nb; m++)
			bt->pos[j++] = map[bt->blk[i]->idx[m]] - 1;
	}
	bt->first[bt->K] = j;
	ret = 0;
out:
	hist_free(&shape);
	free(map);
	return ret;
}

/*
 * One replicate: windows of L consecutive blocks, each starting at random,
 * until it has K blocks; its statistics into out.
 */
static void
boot_replicate(struct boot *bt, size_t L, uint64_t *state, double *out)
{
	const struct cmp_sblock *b;
	uint64_t n = 0;
	double mn = INFINITY, mx = -INFINITY;
	size_t chosen, start, j, m;

	memset(bt->tot, 0, bt->nu * sizeof(*bt->tot));
	for (chosen = 0; chosen < bt->K;) {
		start = (size_t)(splitmix64(state) % (bt->K - L + 1));
		for (j = start; j < start + L && chosen < bt->K; j++) {
			b = bt->blk[j];
			for (m = bt->first[j]; m < bt->first[j + 1]; m++)
				bt->tot[bt->pos[m]] += b->cnt[m - bt->first[j]];
			n += b->n;
			if ((double)b->min < mn)
				mn = (double)b->min;
			if ((double)b->max > mx)
				mx = (double)b->max;
			chosen++;
		}
	}
	replicate_stats(bt->vals, bt->tot, bt->nu, n, mn, mx, out);
}

/*
 * The within-run variances: a moving-block bootstrap (Kuensch 1989) over
 * the run's K non-empty blocks.  A replicate strings together windows of
 * L = round(cbrt(K)) consecutive blocks, each window starting at random,
 * until it has K blocks; its statistics come from the summed block
 * histograms (bucket midpoints, clamped to the chosen blocks' extremes).
 * wvar[k] is the variance of log(statistic) over NREPS replicates;
 * infinite when a replicate's statistic is 0 (and the run's is not), and
 * unknown (NAN) when the run's own is 0.
 */
static int
within_run(struct cmp_run *r, const struct cmp_sblocks *sb, uint64_t seed)
{
	struct boot bt;
	uint64_t state = seed;
	double out[STAT_NKINDS], mean[STAT_NKINDS] = { 0 }, x, d;
	double m2[STAT_NKINDS] = { 0 };
	size_t nrep[STAT_NKINDS] = { 0 }, L, rep;
	int k, zero[STAT_NKINDS] = { 0 };

	if (boot_init(&bt, sb) == -1) {
		boot_free(&bt);
		return -1;
	}
	r->nblocks = bt.K;
	if (bt.K < 2)
		return 0;
	L = (size_t)lround(cbrt((double)bt.K));
	if (L < 1)
		L = 1;
	for (rep = 0; rep < NREPS; rep++) {
		boot_replicate(&bt, L, &state, out);
		for (k = 0; k < STAT_NKINDS; k++) {
			if (!(r->val[k] > 0))
				continue;
			if (!(out[k] > 0)) {
				zero[k] = 1;
				continue;
			}
			x = log(out[k]);
			d = x - mean[k];
			mean[k] += d / (double)++nrep[k];
			m2[k] += d * (x - mean[k]);
		}
	}
	/* A run whose statistic could as well be 0 has no log to vary. */
	for (k = 0; k < STAT_NKINDS; k++)
		if (zero[k])
			r->wvar[k] = INFINITY;
		else if (nrep[k] > 1)
			r->wvar[k] = m2[k] / (double)(nrep[k] - 1);
	boot_free(&bt);
	return 0;
}

/*
 * Sums up a run's series: the value of every statistic the run has the
 * samples for (a 0 stays 0: a run whose p50 of runqueue wait is 0 waited
 * for no CPU in half its wake-ups, which no small number says), and (with
 * blocks) the within-run variances, to which the run histogram's own
 * rounding is added for the percentiles.
 */
int
cmp_summarize(struct cmp_run *r, const struct stats *st,
    const struct cmp_sblocks *sb, uint64_t seed)
{
	double v, w;
	int k;

	memset(r, 0, sizeof(*r));
	r->n = st->n;
	for (k = 0; k < STAT_NKINDS; k++) {
		r->wvar[k] = NAN;
		r->val[k] = NAN;
		if (st->n < run_need((enum stat_kind)k) ||
		    (k == STAT_STDEV && isnan(st->m2)))
			continue;
		v = stats_value(st, (enum stat_kind)k);
		r->val[k] = v > 0 ? v : 0;
	}
	if (sb == NULL || within_run(r, sb, seed) == -1)
		return sb == NULL ? 0 : -1;
	w = ldexp(1, -(int)st->hist.sub_bits);
	for (k = STAT_P50; k <= STAT_P9999; k++)
		if (!isnan(r->wvar[k]))
			r->wvar[k] += w * w / 12;
	return 0;
}

void
cmp_sblocks_free(struct cmp_sblocks *sb)
{
	size_t i;

	for (i = 0; sb->b != NULL && i < sb->n; i++) {
		free(sb->b[i].idx);
		free(sb->b[i].cnt);
	}
	free(sb->b);
	memset(sb, 0, sizeof(*sb));
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

/*
 * Welch's half-width at CMP_LEVEL of a difference of two means whose
 * variances are ea and eb, of na and nb values (2 or more): t times the
 * standard error, 0 when that is 0.
 */
static double
welch(double ea, size_t na, double eb, size_t nb)
{
	double se = sqrt(ea + eb);

	if (!(se > 0))
		return 0;
	return t_upper((1 - CMP_LEVEL) / 2, (ea + eb) * (ea + eb) /
	    (ea * ea / (double)(na - 1) + eb * eb / (double)(nb - 1))) * se;
}

/* The mean and the variance (n - 1; NAN with one) of n values. */
static void
moments(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
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

int
cmp_points(const struct cmp_vals *a, const struct cmp_vals *b,
    struct cmp_points *p)
{
	double va, vb, half;

	moments(a->v, a->n, &p->ma, &va);
	moments(b->v, b->n, &p->mb, &vb);
	p->sa = a->n > 1 ? sqrt(va) : 0;
	p->sb = b->n > 1 ? sqrt(vb) : 0;
	p->lo = p->hi = 0;
	if (a->n < 2 || b->n < 2)
		return 0;
	half = welch(va / (double)a->n, a->n, vb / (double)b->n, b->n);
	p->lo = p->mb - p->ma - half;
	p->hi = p->mb - p->ma + half;
	return a->n >= CMP_MIN_RUNS && b->n >= CMP_MIN_RUNS ? 2 : 1;
}

/*
 * Why a side cannot take part in a row's test, into reason: -1.  1 when
 * its value is 0 in every run (no log to take), 0 when it can take part.
 * v is the side's variance of log(value) between its runs, floored by the
 * mean within-run variance.
 */
static int
side_check(const char *name, const struct cmp_run *r, size_t nr,
    enum stat_kind k, char *reason, size_t len, double *mean, double *v)
{
	double s = 0, ss = 0, w = 0, d;
	size_t i, nzero = 0, near = 0;

	if (nr < CMP_MIN_RUNS) {
		snprintf(reason, len, "%s has %zu run%s, a verdict needs %d a "
		    "side", name, nr, nr == 1 ? "" : "s", CMP_MIN_RUNS);
		return -1;
	}
	for (i = 0; i < nr; i++)
		if (isnan(r[i].val[k])) {
			snprintf(reason, len, "a run of %s has %llu samples, "
			    "%s needs %llu", name, (unsigned long long)r[i].n,
			    stats_kind_name(k),
			    (unsigned long long)run_need(k));
			return -1;
		}
	for (i = 0; i < nr; i++) {
		if (r[i].nblocks == 0) {
			snprintf(reason, len, "%s's runs keep no blocks "
			    "(schema 1 files)", name);
			return -1;
		}
		if (r[i].nblocks < CMP_MIN_BLOCKS) {
			snprintf(reason, len, "a run of %s has %zu blocks, a "
			    "verdict needs %d", name, r[i].nblocks,
			    CMP_MIN_BLOCKS);
			return -1;
		}
		nzero += r[i].val[k] == 0;
		near += isinf(r[i].wvar[k]);
	}
	if (nzero == nr)
		return 1;
	if (nzero > 0) {
		snprintf(reason, len, "%s is 0 in %zu of %s's %zu runs: no "
		    "ratio to 0", stats_kind_name(k), nzero, name, nr);
		return -1;
	}
	if (near > 0) {
		snprintf(reason, len, "%s of %zu of %s's %zu runs can come out "
		    "0 (resampled): no ratio to 0", stats_kind_name(k), near,
		    name, nr);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (isnan(r[i].wvar[k])) {
			snprintf(reason, len, "a run of %s has %zu blocks, a "
			    "verdict needs %d", name, r[i].nblocks,
			    CMP_MIN_BLOCKS);
			return -1;
		}
		s += log(r[i].val[k]);
		w += r[i].wvar[k];
	}
	*mean = s / (double)nr;
	for (i = 0; i < nr; i++) {
		d = log(r[i].val[k]) - *mean;
		ss += d * d;
	}
	ss /= (double)(nr - 1);
	w /= (double)nr;
	*v = ss > w ? ss : w;
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

/*
 * Welch's t test on log(value), run against run: the interval of the
 * ratio of the sides' geometric means at CMP_LEVEL, and the verdict.
 */
void
cmp_test(const struct cmp_run *a, size_t na, const struct cmp_run *b,
    size_t nb, const char *bname, enum stat_kind k, struct cmp_row *row)
{
	double ma = 0, mb = 0, va = 0, vb = 0, half, d;
	int ca, cb;

	memset(row, 0, sizeof(*row));
	row->stat = k;
	row->limit = -1;
	row->a = geomean(a, na, k, &row->spread_a);
	row->b = geomean(b, nb, k, &row->spread_b);
	row->change = isnan(row->a) || isnan(row->b) || !(row->a > 0) ? NAN :
	    (row->b / row->a - 1) * 100;
	row->verdict = CMP_INCONCLUSIVE;
	if ((ca = side_check("A", a, na, k, row->reason, sizeof(row->reason),
	    &ma, &va)) == -1 || (cb = side_check(bname, b, nb, k, row->reason,
	    sizeof(row->reason), &mb, &vb)) == -1)
		return;
	if (ca == 1 && cb == 1) {
		/* 0 in every run of both: no difference at all. */
		row->change = row->lo = row->hi = 0;
		row->has_ci = 1;
		row->verdict = CMP_NOISE;
		return;
	}
	if (ca == 1 || cb == 1) {
		snprintf(row->reason, sizeof(row->reason), "%s is 0 in every "
		    "run of %s, not of %s: no ratio to 0", stats_kind_name(k),
		    ca == 1 ? "A" : bname, ca == 1 ? bname : "A");
		return;
	}
	half = welch(va / (double)na, na, vb / (double)nb, nb);
	d = mb - ma;
	row->change = expm1(d) * 100;
	row->lo = expm1(d - half) * 100;
	row->hi = expm1(d + half) * 100;
	row->has_ci = 1;
	if (row->lo > 0 || row->hi < 0) {
		row->verdict = CMP_REAL;
		row->worse = row->lo > 0;
	} else
		row->verdict = CMP_NOISE;
}

/*
 * The order check (rt-migrate-test's question) of a against b: the share
 * of rounds with an inversion on each side, its change in points and a
 * 99% interval (Newcombe's, from Wilson's intervals of each side; the
 * rounds are taken as independent).  A verdict needs CMP_MIN_RUNS runs a
 * side with the check: worse or better when the interval lies wholly on
 * one side of 0, else noise.
 */
static void
wilson(double bad, double n, double z, double *lo, double *hi)
{
	double p = bad / n, c = 1 + z * z / n;
	double mid = (p + z * z / (2 * n)) / c;
	double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / c;

	*lo = fmax(0, mid - half);
	*hi = fmin(1, mid + half);
}

void
cmp_order_row(const struct cmp_side *a, const struct cmp_side *b,
    struct cmp_order *r)
{
	const double z = 2.5758293035489;	/* two-sided 99% */
	double la, ua, lb, ub;

	memset(r, 0, sizeof(*r));
	if (a->ord_runs == 0 && b->ord_runs == 0)
		return;
	r->verdict = "cannot tell";
	if (a->ord_rounds == 0 || b->ord_rounds == 0)
		return;
	r->pa = (double)a->ord_bad / (double)a->ord_rounds;
	r->pb = (double)b->ord_bad / (double)b->ord_rounds;
	r->d = r->pb - r->pa;
	wilson((double)a->ord_bad, (double)a->ord_rounds, z, &la, &ua);
	wilson((double)b->ord_bad, (double)b->ord_rounds, z, &lb, &ub);
	r->lo = r->d - sqrt((r->pb - lb) * (r->pb - lb) +
	    (ua - r->pa) * (ua - r->pa));
	r->hi = r->d + sqrt((ub - r->pb) * (ub - r->pb) +
	    (r->pa - la) * (r->pa - la));
	if (a->ord_runs < CMP_MIN_RUNS || b->ord_runs < CMP_MIN_RUNS)
		return;
	r->verdict = r->lo > 0 ? "worse" : r->hi < 0 ? "better" : "noise";
}
