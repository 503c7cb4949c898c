/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running statistics and the log-linear latency histogram declared in
 * stats.h.  This file is library code: it never exits, never prints, and
 * reports failure as -1 with errno set.
 *
 * Bucket layout for precision b, with S = 2^b sub-buckets per group:
 *
 *   index 0 .. 2S-1	one value each (0 .. 2S-1); negatives land in 0;
 *   index 2S + (g-b-1)*S + sub
 *			group g = floor(log2 v) for b+1 <= g <= HIST_MAX_BITS-1,
 *			sub = (v >> (g-b)) - S, so the bucket is 2^(g-b) wide;
 *   index nbuckets	never stored: hist_index's answer for overflow, and
 *			the pseudo-bucket [2^HIST_MAX_BITS, INT64_MAX] for
 *			hist_lower, hist_upper and hist_mid.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define HIST_MIN_SUB_BITS	1
#define HIST_MAX_SUB_BITS	12
#define HIST_LIMIT		((int64_t)1 << HIST_MAX_BITS)

static int64_t	clamp(int64_t, int64_t, int64_t);
static uint64_t	quantile_rank(double, uint64_t);
static void	merge_slice(struct timeline_slice *,
		    const struct timeline_slice *);

int
hist_init(struct hist *h, unsigned sub_bits)
{
	memset(h, 0, sizeof(*h));
	if (sub_bits < HIST_MIN_SUB_BITS || sub_bits > HIST_MAX_SUB_BITS) {
		errno = EINVAL;
		return -1;
	}
	h->nbuckets = ((size_t)HIST_MAX_BITS - sub_bits + 1) << sub_bits;
	h->counts = calloc(h->nbuckets, sizeof(*h->counts));
	if (h->counts == NULL) {
		h->nbuckets = 0;
		errno = ENOMEM;
		return -1;
	}
	h->sub_bits = sub_bits;
	return 0;
}

/*
 * Releases the counters.  Safe on NULL, on a histogram whose hist_init
 * failed, and twice in a row.
 */
void
hist_free(struct hist *h)
{
	if (h == NULL)
		return;
	free(h->counts);
	h->counts = NULL;
	h->nbuckets = 0;
	h->total = 0;
	h->overflow = 0;
}

void
hist_reset(struct hist *h)
{
	if (h->counts != NULL)
		memset(h->counts, 0, h->nbuckets * sizeof(*h->counts));
	h->total = 0;
	h->overflow = 0;
}

size_t
hist_index(const struct hist *h, int64_t value)
{
	uint64_t v, s;
	unsigned b, g, shift;

	b = h->sub_bits;
	s = (uint64_t)1 << b;
	if (value < 0)
		return 0;
	if (value >= HIST_LIMIT)
		return h->nbuckets;
	v = (uint64_t)value;
	if (v < 2 * s)
		return (size_t)v;
	g = 63 - (unsigned)__builtin_clzll(v);
	shift = g - b;
	return (size_t)(2 * s + (uint64_t)(g - b - 1) * s + ((v >> shift) - s));
}

void
hist_add_count(struct hist *h, int64_t value, uint64_t count)
{
	size_t idx;

	idx = hist_index(h, value);
	if (idx >= h->nbuckets)
		h->overflow += count;
	else
		h->counts[idx] += count;
	h->total += count;
}

void
hist_add(struct hist *h, int64_t value)
{
	hist_add_count(h, value, 1);
}

int64_t
hist_lower(const struct hist *h, size_t idx)
{
	uint64_t s, k;
	unsigned b, shift;

	b = h->sub_bits;
	s = (uint64_t)1 << b;
	if (idx >= h->nbuckets)
		return HIST_LIMIT;
	if (idx < 2 * s)
		return (int64_t)idx;
	k = idx - 2 * s;
	shift = (unsigned)(k / s) + 1;
	return (int64_t)((s + k % s) << shift);
}

int64_t
hist_upper(const struct hist *h, size_t idx)
{
	if (idx >= h->nbuckets)
		return INT64_MAX;
	return hist_lower(h, idx + 1) - 1;
}

/*
 * Returns the value that stands for bucket idx: the midpoint, rounded
 * down, which is within half a bucket width of every value in it.
 */
int64_t
hist_mid(const struct hist *h, size_t idx)
{
	int64_t lo, hi;

	lo = hist_lower(h, idx);
	hi = hist_upper(h, idx);
	return lo + (hi - lo) / 2;
}

int
hist_merge(struct hist *dst, const struct hist *src)
{
	size_t i;

	if (dst->sub_bits != src->sub_bits || dst->nbuckets != src->nbuckets ||
	    (dst->nbuckets > 0 &&
	    (dst->counts == NULL || src->counts == NULL))) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < dst->nbuckets; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->overflow += src->overflow;
	return 0;
}

int
stats_init(struct stats *s, unsigned sub_bits)
{
	memset(s, 0, sizeof(*s));
	return hist_init(&s->hist, sub_bits);
}

void
stats_free(struct stats *s)
{
	if (s == NULL)
		return;
	hist_free(&s->hist);
}

void
stats_reset(struct stats *s)
{
	struct hist h = s->hist;

	hist_reset(&h);
	memset(s, 0, sizeof(*s));
	s->hist = h;
}

/*
 * Adds one sample.  The first sample sets min and max, so that until then
 * both read 0; a later sample equal to the maximum keeps the first one's
 * tag and time.
 */
void
stats_add(struct stats *s, int64_t value, uint32_t tag, int64_t when)
{
	double x, delta;

	if (s->n == 0) {
		s->min = value;
		s->max = value;
		s->max_tag = tag;
		s->max_when = when;
	} else if (value < s->min) {
		s->min = value;
	} else if (value > s->max) {
		s->max = value;
		s->max_tag = tag;
		s->max_when = when;
	}

	s->n++;
	x = (double)value;
	delta = x - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (x - s->mean);

	hist_add(&s->hist, value);
}

double
stats_mean(const struct stats *s)
{
	if (s->n == 0 || s->mean == 0)
		return 0;	/* Also turns a -0 into +0. */
	return s->mean;
}

double
stats_stdev(const struct stats *s)
{
	if (s->n < 2 || !(s->m2 > 0))
		return 0;	/* Rounding can leave m2 a hair below 0. */
	return sqrt(s->m2 / (double)(s->n - 1));
}

double
stats_sterr(const struct stats *s)
{
	if (s->n < 2)
		return 0;
	return stats_stdev(s) / sqrt((double)s->n);
}

static int64_t
clamp(int64_t v, int64_t lo, int64_t hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

/*
 * Returns ceil(q * n) clamped to [1, n].  The product is nudged down by a
 * little more than its rounding error before the ceiling, so that 0.999
 * of 1000 is rank 999 even though 0.999 is not exactly representable.
 * A NaN q reads as the lowest rank.
 */
static uint64_t
quantile_rank(double q, uint64_t n)
{
	double x;

	x = q * (double)n;
	x -= 1e-9 + fabs(x) * 4 * DBL_EPSILON;
	if (!(x > 1))
		return 1;
	if (x >= (double)n)
		return n;
	return (uint64_t)ceil(x);
}

/*
 * One cumulative pass over the buckets serves all quantiles, which is why
 * q must be ascending.  Ranks count histogram samples (hist.total, which
 * equals n for samples added through stats_add); a rank past the last
 * bucket lies in the overflow and is answered with the maximum.
 */
void
stats_percentiles(const struct stats *s, const double *q, int64_t *out,
    size_t nq)
{
	const struct hist *h = &s->hist;
	uint64_t cum, rank;
	size_t i, j;

	if (s->n == 0 || h->total == 0) {
		for (j = 0; j < nq; j++)
			out[j] = 0;
		return;
	}

	j = 0;
	cum = 0;
	rank = nq > 0 ? quantile_rank(q[0], h->total) : 0;
	for (i = 0; i < h->nbuckets && j < nq; i++) {
		cum += h->counts[i];
		while (j < nq && cum >= rank) {
			out[j] = clamp(hist_mid(h, i), s->min, s->max);
			if (++j < nq)
				rank = quantile_rank(q[j], h->total);
		}
	}
	for (; j < nq; j++)
		out[j] = s->max;
}

static const struct {
	const char	*name;
	double		 q;		/* 0: not a percentile */
} kinds[STAT_NKINDS] = {
	[STAT_MIN] = { "min", 0 },
	[STAT_MEAN] = { "mean", 0 },
	[STAT_STDEV] = { "stdev", 0 },
	[STAT_P50] = { "p50", 0.5 },
	[STAT_P90] = { "p90", 0.9 },
	[STAT_P95] = { "p95", 0.95 },
	[STAT_P99] = { "p99", 0.99 },
	[STAT_P999] = { "p99.9", 0.999 },
	[STAT_P9999] = { "p99.99", 0.9999 },
	[STAT_MAX] = { "max", 0 },
};

const char *
stats_kind_name(enum stat_kind k)
{
	return (unsigned)k < STAT_NKINDS ? kinds[k].name : "?";
}

int
stats_kind_find(const char *name)
{
	int k;

	if (strcmp(name, "worst") == 0)
		return STAT_MAX;
	if (strcmp(name, "sd") == 0)
		return STAT_STDEV;
	for (k = 0; k < STAT_NKINDS; k++)
		if (strcmp(name, kinds[k].name) == 0)
			return k;
	return -1;
}

double
stats_kind_q(enum stat_kind k)
{
	return (unsigned)k < STAT_NKINDS ? kinds[k].q : 0;
}

uint64_t
stats_need_q(double q)
{
	/* A relative margin: 1 - q is rarely exact (0.99, 0.99999). */
	return (uint64_t)ceil(STATS_BEYOND / (1 - q) * (1 - 1e-9));
}

double
stats_shown(const struct stats *s, enum stat_kind k)
{
	return s->n >= stats_need(k) ? stats_value(s, k) : NAN;
}

uint64_t
stats_need(enum stat_kind k)
{
	if (stats_kind_q(k) > 0)
		return stats_need_q(stats_kind_q(k));
	return k == STAT_STDEV ? 2 : 1;
}

double
stats_value(const struct stats *s, enum stat_kind k)
{
	double q;
	int64_t p;

	switch (k) {
	case STAT_MIN:
		return s->n > 0 ? (double)s->min : 0;
	case STAT_MAX:
		return s->n > 0 ? (double)s->max : 0;
	case STAT_MEAN:
		return stats_mean(s);
	case STAT_STDEV:
		return stats_stdev(s);
	default:
		q = stats_kind_q(k);
		stats_percentiles(s, &q, &p, 1);
		return (double)p;
	}
}

/*
 * Chan, Golub and LeVeque's pairwise update of the mean and the sum of
 * squared deviations, then the histogram and the extremes.
 */
int
stats_merge(struct stats *dst, const struct stats *src)
{
	double n, delta;

	if (hist_merge(&dst->hist, &src->hist) == -1)
		return -1;
	if (src->n == 0)
		return 0;
	if (dst->n == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->n == 0 || src->max > dst->max) {
		dst->max = src->max;
		dst->max_tag = src->max_tag;
		dst->max_when = src->max_when;
	}
	n = (double)dst->n + (double)src->n;
	delta = src->mean - dst->mean;
	dst->m2 += src->m2 + delta * delta * (double)dst->n * (double)src->n /
	    n;
	dst->mean += delta * (double)src->n / n;
	dst->n += src->n;
	return 0;
}

struct timeline *
timeline_new(void)
{
	struct timeline *tl;

	if ((tl = calloc(1, sizeof(*tl))) == NULL)
		return NULL;
	tl->points = calloc(TIMELINE_POINTS, sizeof(*tl->points));
	if (tl->points == NULL) {
		free(tl);
		errno = ENOMEM;
		return NULL;
	}
	tl->width = TIMELINE_WIDTH0;
	return tl;
}

int
timeline_keep_quantiles(struct timeline *tl)
{
	if (tl->qcounts != NULL)
		return 0;
	tl->qcounts = calloc(TIMELINE_SLICES, sizeof(*tl->qcounts));
	if (tl->qcounts == NULL) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/*
 * The coarse bucket of a slice's histogram: values below 4 one each, then
 * four linear sub-buckets per power of two; negative values land in 0.
 */
static size_t
qbucket(int64_t v)
{
	unsigned g;
	size_t i;

	if (v < 4)
		return v < 0 ? 0 : (size_t)v;
	g = 63 - (unsigned)__builtin_clzll((uint64_t)v);
	i = 4 + (size_t)(g - 2) * 4 + (size_t)((v >> (g - 2)) & 3);
	return i < TIMELINE_QBUCKETS ? i : TIMELINE_QBUCKETS - 1;
}

/* The midpoint of a coarse bucket. */
static int64_t
qbucket_mid(size_t i)
{
	unsigned g;
	int64_t lo, w;

	if (i < 4)
		return (int64_t)i;
	g = (unsigned)((i - 4) / 4) + 2;
	w = (int64_t)1 << (g - 2);
	lo = ((int64_t)1 << g) + (int64_t)((i - 4) % 4) * w;
	return lo + w / 2;
}

int64_t
timeline_quantile(const struct timeline *tl, size_t from, size_t to, double q)
{
	struct timeline_slice all;
	uint64_t rank, cum = 0;
	size_t b, i;

	if (to > TIMELINE_SLICES)
		to = TIMELINE_SLICES;
	memset(&all, 0, sizeof(all));
	for (i = from; i < to; i++)
		merge_slice(&all, &tl->slice[i]);
	if (tl->qcounts == NULL || all.n == 0)
		return -1;
	rank = quantile_rank(q, all.n);
	for (b = 0; b < TIMELINE_QBUCKETS; b++) {
		for (i = from; i < to; i++)
			cum += tl->qcounts[i][b];
		if (cum >= rank)
			return clamp(qbucket_mid(b), all.min, all.max);
	}
	return all.max;
}

void
timeline_free(struct timeline *tl)
{
	if (tl == NULL)
		return;
	free(tl->qcounts);
	free(tl->points);
	free(tl);
}

static void
merge_slice(struct timeline_slice *dst, const struct timeline_slice *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
}

/* Halves the resolution: slice i becomes slices 2i and 2i+1. */
static void
timeline_coarsen(struct timeline *tl)
{
	struct timeline_slice tmp;
	size_t i, b;

	for (i = 0; i < TIMELINE_SLICES / 2; i++) {
		tmp = tl->slice[2 * i];
		merge_slice(&tmp, &tl->slice[2 * i + 1]);
		tl->slice[i] = tmp;
		if (tl->qcounts == NULL)
			continue;
		for (b = 0; b < TIMELINE_QBUCKETS; b++)
			tl->qcounts[i][b] = tl->qcounts[2 * i][b] +
			    tl->qcounts[2 * i + 1][b];
	}
	memset(&tl->slice[TIMELINE_SLICES / 2], 0,
	    (TIMELINE_SLICES / 2) * sizeof(tl->slice[0]));
	if (tl->qcounts != NULL)
		memset(tl->qcounts[TIMELINE_SLICES / 2], 0,
		    (TIMELINE_SLICES / 2) * sizeof(tl->qcounts[0]));
	tl->nused = (tl->nused + 1) / 2;
	tl->width *= 2;
}

void
timeline_add(struct timeline *tl, int64_t when, int64_t value)
{
	struct timeline_slice one;
	size_t i;

	if (when < 0)
		when = 0;
	while (when / tl->width >= TIMELINE_SLICES)
		timeline_coarsen(tl);
	i = (size_t)(when / tl->width);
	one.n = 1;
	one.min = value;
	one.max = value;
	merge_slice(&tl->slice[i], &one);
	if (tl->qcounts != NULL && tl->qcounts[i][qbucket(value)] < UINT32_MAX)
		tl->qcounts[i][qbucket(value)]++;
	if (i + 1 > tl->nused)
		tl->nused = i + 1;
	if (tl->npoints < TIMELINE_POINTS) {
		tl->points[tl->npoints].when = when;
		tl->points[tl->npoints].value = value;
		tl->npoints++;
	}
	tl->n++;
}
