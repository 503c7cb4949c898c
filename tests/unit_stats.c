/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for stats.c, through the harness of tests/unit.h: the
 * histogram, Welford, timelines, the percentiles against an exact oracle,
 * and the rule of how many samples a statistic needs.
 *
 * The random data comes from a seeded xorshift64* generator, so every run
 * sees the same samples and a failure can be reproduced.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tests/unit.h"

#define QDEN		10000	/* denominator of oracle_qnum */
#define HIST_LIMIT	((int64_t)1 << HIST_MAX_BITS)
#define NO_BUCKET	((size_t)-1)	/* check_value failed */
#define ORACLE_N	1000000
#define ORACLE_TOL	0.001	/* relative error allowed at b = 9 */
#define WELFORD_TOL	1e-9	/* relative error allowed for mean, stdev */
#define WELFORD_NARROW_TOL	1e-6	/* the same for W_NARROW, see there */

/* hist_init or stats_init of x at b sub-bits, or the test fails. */
#define HIST_INIT(x, b)		CHECK(hist_init((x), (b)) == 0,		\
	"hist_init(%u): %s", (unsigned)(b), strerror(errno))
#define STATS_INIT(x, b)	CHECK(stats_init((x), (b)) == 0,	\
	"stats_init(%u): %s", (unsigned)(b), strerror(errno))

/* Checks that x is exactly +0: not -0, not NaN. */
#define IS_PLUS_ZERO(x)	((x) == 0 && !signbit(x) && !isnan(x))

/*
 * Data sets for the Welford test, drawn by kind.  The stored running mean
 * is a double, whose spacing near 1e12 is 2^-13 (1.2e-4 ns); each update
 * rounds it, and the error that leaves in the stdev is of the order of
 * that spacing over the stdev itself.  Data with a mean of 1e12 and a
 * spread of 1e-5 of it (stdev 2.9e6) is thus held to WELFORD_TOL, while
 * the ill-conditioned W_NARROW (stdev 289, mean / stdev 3.5e9) is held to
 * WELFORD_NARROW_TOL: still about 1e9 times better than a one-pass sum
 * of squares, which loses every digit there.
 */
enum wkind {
	W_UNIFORM,	/* uniform in [0, 1e6) */
	W_SHIFTED,	/* 1e12 + uniform in [0, 1e7) */
	W_SHIFTED_EXP,	/* 1e12 + exponential, mean 1e7 */
	W_MIXED_SIGN,	/* uniform in [-1e6, 3e6) */
	W_LOGNORMAL,	/* exp(10 + 2 N(0, 1)): wide range */
	W_NARROW	/* 1e12 + uniform in [0, 1000) */
};

/* Distributions of the oracle test. */
enum dist {
	D_UNIFORM,	/* uniform in [1 us, 10 ms) */
	D_EXPONENTIAL,	/* exponential, mean 50 us */
	D_LOGNORMAL,	/* exp(10 + 1.2 N(0, 1)): median 22 us */
	D_PARETO,	/* Pareto, xm 2 us, alpha 1.1, plus huge outliers */
	D_BIMODAL	/* half exact (< 1024 ns), half around 3 ms */
};

/* Quantiles of the oracle test, as exact fractions of QDEN. */
static const uint64_t	oracle_qnum[] = {
	5000, 9000, 9900, 9990, 9999, 10000
};

static uint64_t	rng_next(uint64_t *);
static void	rng_seed(uint64_t *, uint64_t);
static double	rng_unit(uint64_t *);
static double	rng_normal(uint64_t *);
static int64_t	to_ns(double);
static int	cmp_int64(const void *, const void *);
static double	rel_err(double, double);
static void	two_pass(const int64_t *, size_t, double *, double *);
static void	oracle(enum dist, uint64_t);
static size_t	check_value(const struct hist *, unsigned, int64_t);

static void	test_init_bad_sub_bits(void);
static void	test_init_sizes(void);
static void	test_free_null(void);
static void	test_empty_and_single(void);
static void	test_stdev_guard(void);
static void	test_min_max(void);
static void	test_welford(void);
static void	test_exact_buckets(void);
static void	test_bucket_layout(void);
static void	test_bucket_values(void);
static void	test_range_edges(void);
static void	test_add_count(void);
static void	test_reset(void);
static void	test_merge(void);
static void	test_merge_precision(void);
static void	test_rank_rounding(void);
static void	test_percentile_clamp(void);
static void	test_percentile_overflow(void);
static void	test_oracle_uniform(void);
static void	test_oracle_exponential(void);
static void	test_oracle_lognormal(void);
static void	test_oracle_pareto(void);
static void	test_oracle_bimodal(void);
static void	test_timeline(void);
static void	test_stats_merge(void);
static void	test_kinds(void);
static void	test_timeline_quantile(void);
static void	test_need(void);
static void	test_shown_at_need(void);

static const struct unit_test tests[] = {
	{ "stats_merge_vs_one_pass",	test_stats_merge },
	{ "stat_kind_names",		test_kinds },
	{ "hist_init_bad_sub_bits",	test_init_bad_sub_bits },
	{ "hist_init_sizes",		test_init_sizes },
	{ "free_null",			test_free_null },
	{ "empty_and_single",		test_empty_and_single },
	{ "stdev_negative_m2",		test_stdev_guard },
	{ "min_max_tag_when",		test_min_max },
	{ "welford_vs_two_pass",	test_welford },
	{ "exact_buckets_b9",		test_exact_buckets },
	{ "bucket_layout",		test_bucket_layout },
	{ "bucket_values",		test_bucket_values },
	{ "range_edges",		test_range_edges },
	{ "hist_add_count",		test_add_count },
	{ "hist_reset",			test_reset },
	{ "hist_merge",			test_merge },
	{ "hist_merge_precision",	test_merge_precision },
	{ "percentile_rank_rounding",	test_rank_rounding },
	{ "percentile_clamp",		test_percentile_clamp },
	{ "percentile_overflow",	test_percentile_overflow },
	{ "oracle_uniform",		test_oracle_uniform },
	{ "oracle_exponential",		test_oracle_exponential },
	{ "oracle_lognormal",		test_oracle_lognormal },
	{ "oracle_pareto",		test_oracle_pareto },
	{ "oracle_bimodal",		test_oracle_bimodal },
	{ "timeline_rebin",		test_timeline },
	{ "timeline_quantile",		test_timeline_quantile },
	{ "need_each_kind",		test_need },
	{ "shown_from_need_on",		test_shown_at_need },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
}

/* xorshift64* (Marsaglia's xorshift with a multiplying output stage). */
static uint64_t
rng_next(uint64_t *st)
{
	uint64_t x = *st;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*st = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Spreads a small seed over the state with splitmix64; never zero. */
static void
rng_seed(uint64_t *st, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	*st = z != 0 ? z : 1;
}

/* Returns a uniform double in (0, 1], so that log() of it is finite. */
static double
rng_unit(uint64_t *st)
{
	return (double)((rng_next(st) >> 11) + 1) * 0x1.0p-53;
}

/* Returns a standard normal deviate (Box-Muller, one of the pair). */
static double
rng_normal(uint64_t *st)
{
	double r, t;

	r = sqrt(-2 * log(rng_unit(st)));
	t = 2 * M_PI * rng_unit(st);
	return r * cos(t);
}

/* Rounds a non-negative double to nanoseconds, saturating at INT64_MAX. */
static int64_t
to_ns(double x)
{
	if (!(x >= 0))
		return 0;
	if (x >= 0x1.0p63)
		return INT64_MAX;
	return (int64_t)llround(x);
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Returns |got - want| / |want|, or |got| when want is 0. */
static double
rel_err(double got, double want)
{
	if (want == 0)
		return fabs(got);
	return fabs(got - want) / fabs(want);
}

/*
 * The reference: an exact integer sum for the mean, then the squared
 * deviations from it summed in long double.
 */
static void
two_pass(const int64_t *v, size_t n, double *mean, double *stdev)
{
	__int128 sum = 0;
	long double m, d, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	m = (long double)sum / (long double)n;
	for (i = 0; i < n; i++) {
		d = (long double)v[i] - m;
		ss += d * d;
	}
	*mean = (double)m;
	*stdev = n < 2 ? 0 : (double)sqrtl(ss / (long double)(n - 1));
}

static void
test_init_bad_sub_bits(void)
{
	static const unsigned bad[] = { 0, 13, 32, 43, 64, UINT_MAX };
	struct hist h;
	struct stats s;
	size_t i;

	for (i = 0; i < NELEM(bad); i++) {
		errno = 0;
		CHECK(hist_init(&h, bad[i]) == -1,
		    "hist_init(%u) succeeded", bad[i]);
		CHECK(errno == EINVAL, "hist_init(%u): errno %d, want EINVAL",
		    bad[i], errno);
		hist_free(&h);	/* Must be safe after a failed init. */
		errno = 0;
		CHECK(stats_init(&s, bad[i]) == -1,
		    "stats_init(%u) succeeded", bad[i]);
		CHECK(errno == EINVAL, "stats_init(%u): errno %d, want EINVAL",
		    bad[i], errno);
		stats_free(&s);
	}
out:
	return;
}

static void
test_init_sizes(void)
{
	struct hist h = { 0 };
	unsigned b;
	size_t want, i;

	for (b = 1; b <= 12; b++) {
		HIST_INIT(&h, b);
		want = ((size_t)2 << b) + (HIST_MAX_BITS - b - 1) *
		    ((size_t)1 << b);
		CHECK(h.sub_bits == b, "b=%u: sub_bits %u", b, h.sub_bits);
		CHECK(h.nbuckets == want, "b=%u: nbuckets %zu, want %zu", b,
		    h.nbuckets, want);
		CHECK(h.total == 0 && h.overflow == 0, "b=%u: not zeroed", b);
		for (i = 0; i < h.nbuckets; i++)
			CHECK(h.counts[i] == 0, "b=%u: counts[%zu] = %ju", b,
			    i, (uintmax_t)h.counts[i]);
		if (b == 9) {
			CHECK(h.nbuckets == 17920, "b=9: nbuckets %zu, want "
			    "17920", h.nbuckets);
			CHECK(h.nbuckets * sizeof(*h.counts) <= 256 * 1024,
			    "b=9: %zu bytes of counters",
			    h.nbuckets * sizeof(*h.counts));
		}
		if (b == 3)
			CHECK(h.nbuckets == 328, "b=3: nbuckets %zu, want 328",
			    h.nbuckets);
		hist_free(&h);
	}
out:
	hist_free(&h);
}

static void
test_free_null(void)
{
	struct hist h;

	hist_free(NULL);
	stats_free(NULL);
	HIST_INIT(&h, STATS_SUB_BITS);
	hist_free(&h);
	hist_free(&h);	/* A second free must be harmless too. */
	CHECK(h.counts == NULL, "counts not cleared by hist_free");
out:
	return;
}

static void
test_empty_and_single(void)
{
	static const double q[] = { 0.001, 0.5, 0.9, 0.99, 0.999, 1.0 };
	static const int64_t one[] = { 0, 12345, -7, 1000003, INT64_MAX };
	struct stats s = { 0 };
	int64_t out[NELEM(q)];
	size_t i, j;

	STATS_INIT(&s, STATS_SUB_BITS);
	CHECK(IS_PLUS_ZERO(stats_mean(&s)), "n=0: mean %g", stats_mean(&s));
	CHECK(IS_PLUS_ZERO(stats_stdev(&s)), "n=0: stdev %g",
	    stats_stdev(&s));
	CHECK(IS_PLUS_ZERO(stats_sterr(&s)), "n=0: sterr %g",
	    stats_sterr(&s));
	CHECK(s.min == 0 && s.max == 0, "n=0: min %jd max %jd",
	    (intmax_t)s.min, (intmax_t)s.max);
	for (j = 0; j < NELEM(q); j++)
		out[j] = -1;
	stats_percentiles(&s, q, out, NELEM(q));
	for (j = 0; j < NELEM(q); j++)
		CHECK(out[j] == 0, "n=0: p(%g) = %jd", q[j], (intmax_t)out[j]);
	stats_free(&s);

	for (i = 0; i < NELEM(one); i++) {
		STATS_INIT(&s, STATS_SUB_BITS);
		stats_add(&s, one[i], 3, 44);
		CHECK(s.n == 1, "n=1: n %ju", (uintmax_t)s.n);
		CHECK(stats_mean(&s) == (double)one[i], "n=1: mean %.17g, want"
		    " %jd", stats_mean(&s), (intmax_t)one[i]);
		CHECK(!signbit(stats_mean(&s)) || one[i] < 0,
		    "n=1: mean is -0");
		CHECK(IS_PLUS_ZERO(stats_stdev(&s)), "n=1: stdev %g",
		    stats_stdev(&s));
		CHECK(IS_PLUS_ZERO(stats_sterr(&s)), "n=1: sterr %g",
		    stats_sterr(&s));
		CHECK(s.min == one[i] && s.max == one[i],
		    "n=1: min %jd max %jd, want %jd", (intmax_t)s.min,
		    (intmax_t)s.max, (intmax_t)one[i]);
		CHECK(s.max_tag == 3 && s.max_when == 44,
		    "n=1: max_tag %u max_when %jd", s.max_tag,
		    (intmax_t)s.max_when);
		stats_percentiles(&s, q, out, NELEM(q));
		for (j = 0; j < NELEM(q); j++)
			CHECK(out[j] == one[i], "n=1 (%jd): p(%g) = %jd",
			    (intmax_t)one[i], q[j], (intmax_t)out[j]);
		stats_free(&s);
	}

	/* Two equal samples: a spread of exactly 0, not a rounding residue. */
	STATS_INIT(&s, STATS_SUB_BITS);
	stats_add(&s, 1000000000001, 0, 0);
	stats_add(&s, 1000000000001, 0, 0);
	CHECK(IS_PLUS_ZERO(stats_stdev(&s)), "n=2 equal: stdev %g",
	    stats_stdev(&s));
	CHECK(IS_PLUS_ZERO(stats_sterr(&s)), "n=2 equal: sterr %g",
	    stats_sterr(&s));
out:
	stats_free(&s);
}

/* A sum of squares that rounding left below zero must read as stdev 0. */
static void
test_stdev_guard(void)
{
	struct stats s;

	memset(&s, 0, sizeof(s));
	s.n = 5;
	s.mean = 1e12;
	s.m2 = -1e-6;
	CHECK(IS_PLUS_ZERO(stats_stdev(&s)), "m2<0: stdev %g",
	    stats_stdev(&s));
	CHECK(IS_PLUS_ZERO(stats_sterr(&s)), "m2<0: sterr %g",
	    stats_sterr(&s));
	s.m2 = -0.0;
	CHECK(IS_PLUS_ZERO(stats_stdev(&s)), "m2=-0: stdev %g",
	    stats_stdev(&s));
	s.m2 = 400;	/* variance 100 */
	CHECK(stats_stdev(&s) == 10, "m2=400 n=5: stdev %.17g, want 10",
	    stats_stdev(&s));
	CHECK(rel_err(stats_sterr(&s), 10 / sqrt(5)) < 1e-15,
	    "m2=400 n=5: sterr %.17g", stats_sterr(&s));
out:
	return;
}

static void
test_min_max(void)
{
	static const struct {
		int64_t		v;
		uint32_t	tag;
		int64_t		when;
	} seq[] = {
		{ 50, 1, 100 },		/* first: sets min and max */
		{ 40, 2, 110 },		/* a new minimum right after */
		{ 90, 3, 120 },		/* the maximum, first seen here */
		{ 90, 4, 130 },		/* equal: must not take over */
		{ -20, 5, 140 },	/* negative minimum */
		{ 70, 6, 150 },
		{ 89, 7, 160 },
	};
	struct stats s = { 0 };
	size_t i;

	STATS_INIT(&s, STATS_SUB_BITS);
	for (i = 0; i < NELEM(seq); i++)
		stats_add(&s, seq[i].v, seq[i].tag, seq[i].when);
	CHECK(s.n == NELEM(seq), "n %ju", (uintmax_t)s.n);
	CHECK(s.min == -20, "min %jd, want -20", (intmax_t)s.min);
	CHECK(s.max == 90, "max %jd, want 90", (intmax_t)s.max);
	CHECK(s.max_tag == 3, "max_tag %u, want 3", s.max_tag);
	CHECK(s.max_when == 120, "max_when %jd, want 120",
	    (intmax_t)s.max_when);
	stats_free(&s);

	/* A falling sequence: the first sample stays the maximum. */
	STATS_INIT(&s, STATS_SUB_BITS);
	for (i = 0; i < 10; i++)
		stats_add(&s, 1000 - (int64_t)i, (uint32_t)i + 10,
		    (int64_t)i * 7);
	CHECK(s.min == 991 && s.max == 1000, "falling: min %jd max %jd",
	    (intmax_t)s.min, (intmax_t)s.max);
	CHECK(s.max_tag == 10 && s.max_when == 0,
	    "falling: max_tag %u max_when %jd", s.max_tag,
	    (intmax_t)s.max_when);

	/* Values past the histogram's range still set the maximum. */
	stats_add(&s, INT64_MAX, 77, 888);
	stats_add(&s, INT64_MIN, 78, 889);
	CHECK(s.max == INT64_MAX && s.max_tag == 77 && s.max_when == 888,
	    "overflow max: %jd tag %u when %jd", (intmax_t)s.max, s.max_tag,
	    (intmax_t)s.max_when);
	CHECK(s.min == INT64_MIN, "min %jd, want INT64_MIN", (intmax_t)s.min);
out:
	stats_free(&s);
}


static void
test_welford(void)
{
	static const size_t sizes[] = { 2, 3, 10, 1000, 100000, 1000000 };
	static const enum wkind kinds[] = {
		W_UNIFORM, W_SHIFTED, W_SHIFTED_EXP, W_MIXED_SIGN, W_LOGNORMAL,
		W_NARROW
	};
	struct stats s = { 0 };
	int64_t *v = NULL;
	uint64_t rng;
	double mean, sd, e, tol;
	size_t i, k, z;

	v = malloc(sizes[NELEM(sizes) - 1] * sizeof(*v));
	if (v == NULL)
		SKIP("malloc: %s", strerror(errno));
	for (k = 0; k < NELEM(kinds); k++) {
		for (z = 0; z < NELEM(sizes); z++) {
			rng_seed(&rng, 1000 + k * 100 + z);
			for (i = 0; i < sizes[z]; i++) {
				switch (kinds[k]) {
				case W_UNIFORM:
					v[i] = (int64_t)(rng_next(&rng) %
					    1000000);
					break;
				case W_SHIFTED:
					v[i] = 1000000000000 + (int64_t)
					    (rng_next(&rng) % 10000000);
					break;
				case W_SHIFTED_EXP:
					v[i] = 1000000000000 + to_ns(-1e7 *
					    log(rng_unit(&rng)));
					break;
				case W_MIXED_SIGN:
					v[i] = (int64_t)(rng_next(&rng) %
					    4000000) - 1000000;
					break;
				case W_LOGNORMAL:
					v[i] = to_ns(exp(10 + 2 *
					    rng_normal(&rng)));
					break;
				case W_NARROW:
					v[i] = 1000000000000 + (int64_t)
					    (rng_next(&rng) % 1000);
					break;
				}
			}
			STATS_INIT(&s, STATS_SUB_BITS);
			for (i = 0; i < sizes[z]; i++)
				stats_add(&s, v[i], 0, 0);
			two_pass(v, sizes[z], &mean, &sd);
			e = rel_err(stats_mean(&s), mean);
			CHECK(e < WELFORD_TOL, "kind %zu n=%zu: mean %.17g, "
			    "two-pass %.17g, rel err %.3g", k, sizes[z],
			    stats_mean(&s), mean, e);
			tol = kinds[k] == W_NARROW ? WELFORD_NARROW_TOL :
			    WELFORD_TOL;
			e = rel_err(stats_stdev(&s), sd);
			CHECK(e < tol, "kind %zu n=%zu: stdev %.17g, two-pass "
			    "%.17g, rel err %.3g", k, sizes[z],
			    stats_stdev(&s), sd, e);
			e = rel_err(stats_sterr(&s), sd / sqrt((double)
			    sizes[z]));
			CHECK(e < tol, "kind %zu n=%zu: sterr rel err %.3g", k,
			    sizes[z], e);
			CHECK(sd > 0, "kind %zu n=%zu: data without spread", k,
			    sizes[z]);
			stats_free(&s);
		}
	}
out:
	stats_free(&s);
	free(v);
}

/* At b = 9 every value below 2^10 has its own bucket. */
static void
test_exact_buckets(void)
{
	struct hist h = { 0 };
	int64_t v;
	size_t idx;

	HIST_INIT(&h, 9);
	for (v = 0; v < 1024; v++) {
		idx = hist_index(&h, v);
		CHECK(idx == (size_t)v, "index(%jd) = %zu", (intmax_t)v, idx);
		CHECK(hist_lower(&h, idx) == v && hist_upper(&h, idx) == v &&
		    hist_mid(&h, idx) == v, "value %jd: bucket [%jd, %jd] "
		    "mid %jd", (intmax_t)v, (intmax_t)hist_lower(&h, idx),
		    (intmax_t)hist_upper(&h, idx), (intmax_t)hist_mid(&h, idx));
	}
	/* From 2^10 to 2^11 the buckets are two values wide. */
	for (v = 1024; v < 2048; v++) {
		idx = hist_index(&h, v);
		CHECK(hist_lower(&h, idx) == (v & ~(int64_t)1) &&
		    hist_upper(&h, idx) == (v | 1), "value %jd: bucket "
		    "[%jd, %jd], want width 2", (intmax_t)v,
		    (intmax_t)hist_lower(&h, idx),
		    (intmax_t)hist_upper(&h, idx));
	}
	/* And from 2^11 on, four. */
	idx = hist_index(&h, 2048);
	CHECK(hist_lower(&h, idx) == 2048 && hist_upper(&h, idx) == 2051,
	    "value 2048: bucket [%jd, %jd], want [2048, 2051]",
	    (intmax_t)hist_lower(&h, idx), (intmax_t)hist_upper(&h, idx));
out:
	hist_free(&h);
}

/*
 * Checks that value v of a histogram of precision b falls in a bucket that
 * holds it, whose midpoint is within 1 / 2^(b+1) of it.  Returns that
 * bucket's index, or NO_BUCKET after unit_fail().
 */
static size_t
check_value(const struct hist *h, unsigned b, int64_t v)
{
	size_t idx = hist_index(h, v);
	int64_t lo, hi, mid;

	CHECK(idx < h->nbuckets, "b=%u: index(%jd) = %zu overflows", b,
	    (intmax_t)v, idx);
	lo = hist_lower(h, idx);
	hi = hist_upper(h, idx);
	mid = hist_mid(h, idx);
	CHECK(lo <= v && v <= hi, "b=%u: %jd outside its bucket %zu [%jd, "
	    "%jd]", b, (intmax_t)v, idx, (intmax_t)lo, (intmax_t)hi);
	CHECK((llabs(mid - v) << (b + 1)) <= v, "b=%u: %jd reads as %jd", b,
	    (intmax_t)v, (intmax_t)mid);
	return idx;
out:
	return NO_BUCKET;
}

/*
 * For every precision and every bucket: the buckets tile [0, 2^43 - 1]
 * without gap or overlap, each bucket's edges map back to it and read as
 * a value within 1 / 2^(b+1) of them, and past the exact range a bucket is
 * at most lower / 2^b wide, so that its midpoint is within 1 / 2^(b+1) of
 * any value in it.
 */
static void
test_bucket_layout(void)
{
	struct hist h = { 0 };
	unsigned b;
	size_t i, s;
	int64_t lo, hi, mid, width;

	for (b = 1; b <= 12; b++) {
		HIST_INIT(&h, b);
		s = (size_t)1 << b;
		CHECK(hist_lower(&h, 0) == 0, "b=%u: lower(0) = %jd", b,
		    (intmax_t)hist_lower(&h, 0));
		CHECK(hist_upper(&h, h.nbuckets - 1) == HIST_LIMIT - 1,
		    "b=%u: last upper %jd", b,
		    (intmax_t)hist_upper(&h, h.nbuckets - 1));
		for (i = 0; i < h.nbuckets; i++) {
			lo = hist_lower(&h, i);
			hi = hist_upper(&h, i);
			mid = hist_mid(&h, i);
			CHECK(lo <= mid && mid <= hi, "b=%u idx %zu: mid %jd "
			    "outside [%jd, %jd]", b, i, (intmax_t)mid,
			    (intmax_t)lo, (intmax_t)hi);
			CHECK(check_value(&h, b, lo) == i &&
			    check_value(&h, b, hi) == i, "b=%u idx %zu: edges "
			    "%jd, %jd map to %zu, %zu", b, i, (intmax_t)lo,
			    (intmax_t)hi, hist_index(&h, lo),
			    hist_index(&h, hi));
			if (i + 1 < h.nbuckets)
				CHECK(hi + 1 == hist_lower(&h, i + 1),
				    "b=%u idx %zu: upper %jd, next lower %jd",
				    b, i, (intmax_t)hi,
				    (intmax_t)hist_lower(&h, i + 1));
			width = hi - lo + 1;
			if (i < 2 * s) {
				CHECK(width == 1, "b=%u idx %zu: width %jd in "
				    "the exact range", b, i, (intmax_t)width);
				continue;
			}
			CHECK((width << b) <= lo, "b=%u idx %zu: width %jd "
			    "over lower %jd / 2^b", b, i, (intmax_t)width,
			    (intmax_t)lo);
		}
		hist_free(&h);
	}
out:
	hist_free(&h);
}

/*
 * Values around every power of two and a million random ones spread
 * evenly over log2: each lies inside its bucket, and the midpoint is within
 * 1 / 2^(b+1) of it.
 */
static void
test_bucket_values(void)
{
	static const unsigned precisions[] = { 1, 3, 9, 12 };
	struct hist h = { 0 };
	uint64_t rng;
	int64_t v;
	size_t i, p;
	unsigned b, g;
	int d;

	rng_seed(&rng, 7);
	for (p = 0; p < NELEM(precisions); p++) {
		b = precisions[p];
		HIST_INIT(&h, b);
		for (i = 0; i < 43 * 5 + 1000000; i++) {
			if (i < 43 * 5) {
				/* 2^g - 2 .. 2^g + 2 for g = 0 .. 42. */
				g = (unsigned)(i / 5);
				d = (int)(i % 5) - 2;
				v = ((int64_t)1 << g) + d;
				if (v < 0)
					continue;
			} else {
				/* Below 2^g for g = 1 .. 43. */
				g = 1 + (unsigned)(rng_next(&rng) % 43);
				v = (int64_t)(rng_next(&rng) >> (64 - g));
			}
			if (check_value(&h, b, v) == NO_BUCKET)
				goto out;
		}
		hist_free(&h);
	}
out:
	hist_free(&h);
}

/* The ends of the range: last bucket, overflow, negative values. */
static void
test_range_edges(void)
{
	static const int64_t over[] = {
		HIST_LIMIT, HIST_LIMIT + 1, (int64_t)1 << 62, INT64_MAX
	};
	static const int64_t neg[] = { -1, -2, -1000000, INT64_MIN };
	struct hist h = { 0 };
	size_t i, idx;

	HIST_INIT(&h, STATS_SUB_BITS);
	idx = hist_index(&h, HIST_LIMIT - 1);
	CHECK(idx == h.nbuckets - 1, "index(2^43-1) = %zu, want %zu", idx,
	    h.nbuckets - 1);
	hist_add(&h, HIST_LIMIT - 1);
	CHECK(h.counts[h.nbuckets - 1] == 1 && h.overflow == 0 &&
	    h.total == 1, "2^43-1: last %ju overflow %ju total %ju",
	    (uintmax_t)h.counts[h.nbuckets - 1], (uintmax_t)h.overflow,
	    (uintmax_t)h.total);
	for (i = 0; i < NELEM(over); i++) {
		idx = hist_index(&h, over[i]);
		CHECK(idx == h.nbuckets, "index(%jd) = %zu, want nbuckets "
		    "%zu", (intmax_t)over[i], idx, h.nbuckets);
		hist_add(&h, over[i]);
	}
	CHECK(h.overflow == NELEM(over) && h.total == 1 + NELEM(over),
	    "overflow %ju total %ju", (uintmax_t)h.overflow,
	    (uintmax_t)h.total);
	CHECK(h.counts[h.nbuckets - 1] == 1, "overflow reached a bucket");
	CHECK(hist_lower(&h, h.nbuckets) == HIST_LIMIT &&
	    hist_upper(&h, h.nbuckets) == INT64_MAX,
	    "overflow range [%jd, %jd]", (intmax_t)hist_lower(&h, h.nbuckets),
	    (intmax_t)hist_upper(&h, h.nbuckets));
	for (i = 0; i < NELEM(neg); i++) {
		idx = hist_index(&h, neg[i]);
		CHECK(idx == 0, "index(%jd) = %zu, want 0", (intmax_t)neg[i],
		    idx);
		hist_add(&h, neg[i]);
	}
	CHECK(h.counts[0] == NELEM(neg), "counts[0] = %ju, want %zu",
	    (uintmax_t)h.counts[0], NELEM(neg));
	CHECK(h.total == 1 + NELEM(over) + NELEM(neg), "total %ju",
	    (uintmax_t)h.total);
out:
	hist_free(&h);
}

/* hist_add_count(v, k) must equal k calls of hist_add(v). */
static void
test_add_count(void)
{
	static const struct {
		int64_t		v;
		uint64_t	k;
	} adds[] = {
		{ 0, 3 }, { 5, 1000 }, { 1023, 2 }, { 1024, 7 },
		{ 123456789, 250 }, { HIST_LIMIT - 1, 4 }, { HIST_LIMIT, 9 },
		{ INT64_MAX, 1 }, { -42, 11 }, { 777, 0 }
	};
	struct hist a = { 0 }, b = { 0 };
	size_t i;
	uint64_t k;

	HIST_INIT(&a, STATS_SUB_BITS);
	HIST_INIT(&b, STATS_SUB_BITS);
	for (i = 0; i < NELEM(adds); i++) {
		hist_add_count(&a, adds[i].v, adds[i].k);
		for (k = 0; k < adds[i].k; k++)
			hist_add(&b, adds[i].v);
	}
	CHECK(a.total == b.total && a.overflow == b.overflow,
	    "total %ju/%ju overflow %ju/%ju", (uintmax_t)a.total,
	    (uintmax_t)b.total, (uintmax_t)a.overflow, (uintmax_t)b.overflow);
	CHECK(a.overflow == 10 && a.total == 1287, "overflow %ju total %ju",
	    (uintmax_t)a.overflow, (uintmax_t)a.total);
	for (i = 0; i < a.nbuckets; i++)
		CHECK(a.counts[i] == b.counts[i], "counts[%zu]: %ju vs %ju", i,
		    (uintmax_t)a.counts[i], (uintmax_t)b.counts[i]);
	CHECK(a.counts[hist_index(&a, 5)] == 1000, "counts at 5: %ju",
	    (uintmax_t)a.counts[hist_index(&a, 5)]);
out:
	hist_free(&a);
	hist_free(&b);
}

static void
test_reset(void)
{
	struct hist h = { 0 };
	size_t i;

	HIST_INIT(&h, STATS_SUB_BITS);
	for (i = 0; i < 1000; i++)
		hist_add(&h, (int64_t)i * 9999991);
	hist_add(&h, INT64_MAX);
	hist_reset(&h);
	CHECK(h.total == 0 && h.overflow == 0, "total %ju overflow %ju",
	    (uintmax_t)h.total, (uintmax_t)h.overflow);
	CHECK(h.sub_bits == STATS_SUB_BITS && h.counts != NULL,
	    "reset lost the layout");
	for (i = 0; i < h.nbuckets; i++)
		CHECK(h.counts[i] == 0, "counts[%zu] = %ju after reset", i,
		    (uintmax_t)h.counts[i]);
out:
	hist_free(&h);
}

/* Merging the histograms of two halves gives the histogram of the whole. */
static void
test_merge(void)
{
	struct hist a = { 0 }, b = { 0 }, all = { 0 };
	uint64_t rng;
	int64_t v;
	size_t i;

	HIST_INIT(&a, STATS_SUB_BITS);
	HIST_INIT(&b, STATS_SUB_BITS);
	HIST_INIT(&all, STATS_SUB_BITS);
	rng_seed(&rng, 42);
	for (i = 0; i < 200000; i++) {
		v = to_ns(exp(9 + 3 * rng_normal(&rng)));
		if (i % 50000 == 0)
			v = INT64_MAX - (int64_t)i;	/* overflow */
		if (i % 77777 == 1)
			v = -(int64_t)i;		/* negative */
		hist_add(i % 3 == 0 ? &a : &b, v);
		hist_add(&all, v);
	}
	CHECK(hist_merge(&a, &b) == 0, "hist_merge: %s", strerror(errno));
	CHECK(a.total == all.total && a.overflow == all.overflow,
	    "merged total %ju overflow %ju, want %ju, %ju",
	    (uintmax_t)a.total, (uintmax_t)a.overflow, (uintmax_t)all.total,
	    (uintmax_t)all.overflow);
	CHECK(a.overflow == 4, "overflow %ju, want 4", (uintmax_t)a.overflow);
	for (i = 0; i < a.nbuckets; i++)
		CHECK(a.counts[i] == all.counts[i], "counts[%zu]: merged %ju, "
		    "want %ju", i, (uintmax_t)a.counts[i],
		    (uintmax_t)all.counts[i]);
	CHECK(b.total == 200000 - 66667, "source changed: total %ju",
	    (uintmax_t)b.total);
out:
	hist_free(&a);
	hist_free(&b);
	hist_free(&all);
}

/* Histograms of different precision cannot merge, and dst stays intact. */
static void
test_merge_precision(void)
{
	struct hist a = { 0 }, b = { 0 };
	size_t i;

	HIST_INIT(&a, 9);
	HIST_INIT(&b, 8);
	hist_add(&a, 100);
	hist_add(&b, 100);
	hist_add(&b, INT64_MAX);
	errno = 0;
	CHECK(hist_merge(&a, &b) == -1, "merge of b=9 and b=8 succeeded");
	CHECK(errno == EINVAL, "errno %d, want EINVAL", errno);
	errno = 0;
	CHECK(hist_merge(&b, &a) == -1, "merge of b=8 and b=9 succeeded");
	CHECK(errno == EINVAL, "errno %d, want EINVAL", errno);
	CHECK(a.total == 1 && a.overflow == 0 && a.counts[100] == 1,
	    "failed merge changed dst");
	for (i = 0; i < a.nbuckets; i++)
		CHECK(a.counts[i] == (i == 100), "failed merge changed "
		    "counts[%zu]", i);
out:
	hist_free(&a);
	hist_free(&b);
}

/*
 * With the values 1 .. 1000, all exact at b = 9, the k/1000 quantile is k:
 * ranks must not be pushed up by floating error (0.999 * 1000 is not
 * exactly 999 in binary).  All thousand quantiles go through one call.
 */
static void
test_rank_rounding(void)
{
	struct stats s = { 0 };
	double q[1000], q2[1000];
	int64_t out[1000];
	size_t k;

	STATS_INIT(&s, STATS_SUB_BITS);
	for (k = 1000; k >= 1; k--)	/* descending: order must not matter */
		stats_add(&s, (int64_t)k, 0, 0);
	for (k = 1; k <= 1000; k++) {
		q[k - 1] = (double)k / 1000;
		q2[k - 1] = 0.001 * (double)k;
	}
	stats_percentiles(&s, q, out, 1000);
	for (k = 1; k <= 1000; k++)
		CHECK(out[k - 1] == (int64_t)k, "p(%zu/1000) = %jd, want %zu",
		    k, (intmax_t)out[k - 1], k);
	stats_percentiles(&s, q2, out, 1000);
	for (k = 1; k <= 1000; k++)
		CHECK(out[k - 1] == (int64_t)k, "p(0.001*%zu) = %jd, want %zu",
		    k, (intmax_t)out[k - 1], k);
	/* Between ranks the ceiling applies: 0.9991 of 1000 is rank 1000. */
	q[0] = 0.0001;
	q[1] = 0.5005;
	q[2] = 0.9991;
	stats_percentiles(&s, q, out, 3);
	CHECK(out[0] == 1 && out[1] == 501 && out[2] == 1000,
	    "p(0.0001, 0.5005, 0.9991) = %jd, %jd, %jd, want 1, 501, 1000",
	    (intmax_t)out[0], (intmax_t)out[1], (intmax_t)out[2]);
out:
	stats_free(&s);
}

/*
 * A bucket's midpoint may lie outside the samples; the answer is clamped
 * to [min, max].
 */
static void
test_percentile_clamp(void)
{
	static const double q[] = { 0.01, 0.5, 1.0 };
	/*
	 * Two samples in the bucket [999292928, 1000341503], whose midpoint
	 * is 999817215: low in it, the midpoint is above them and every
	 * answer is the maximum; high in it, the midpoint is below them and
	 * every answer is the minimum.
	 */
	static const struct {
		int64_t	lo, hi;		/* the two samples */
		int64_t	want;
	} cases[] = {
		{ 999300000, 999300001, 999300001 },
		{ 1000300000, 1000300001, 1000300000 },
	};
	struct stats s = { 0 };
	int64_t out[NELEM(q)], mid;
	size_t c, j, idx;

	for (c = 0; c < NELEM(cases); c++) {
		STATS_INIT(&s, STATS_SUB_BITS);
		stats_add(&s, cases[c].lo, 0, 0);
		stats_add(&s, cases[c].hi, 0, 0);
		idx = hist_index(&s.hist, cases[c].lo);
		mid = hist_mid(&s.hist, idx);
		/* The maximum when the midpoint is above, else the minimum. */
		CHECK(hist_index(&s.hist, cases[c].hi) == idx &&
		    (cases[c].want == cases[c].hi ? mid > cases[c].hi :
		    mid < cases[c].lo), "test premise: %jd, %jd, mid %jd",
		    (intmax_t)cases[c].lo, (intmax_t)cases[c].hi,
		    (intmax_t)mid);
		stats_percentiles(&s, q, out, NELEM(q));
		for (j = 0; j < NELEM(q); j++)
			CHECK(out[j] == cases[c].want, "p(%g) = %jd, want %jd",
			    q[j], (intmax_t)out[j], (intmax_t)cases[c].want);
		stats_free(&s);
	}
out:
	stats_free(&s);
}

/* Ranks that fall into the overflow are answered with the maximum. */
static void
test_percentile_overflow(void)
{
	static const double q[] = { 0.5, 0.625, 0.6875, 0.75, 1.0 };
	struct stats s = { 0 };
	int64_t out[NELEM(q)];
	size_t i;

	STATS_INIT(&s, STATS_SUB_BITS);
	for (i = 0; i < 10; i++)
		stats_add(&s, 100, 0, 0);
	for (i = 0; i < 5; i++)
		stats_add(&s, HIST_LIMIT + (int64_t)i, 0, 0);
	stats_add(&s, (int64_t)1 << 50, 9, 99);
	/* n = 16: ranks 8, 10, 11, 12, 16. */
	stats_percentiles(&s, q, out, NELEM(q));
	CHECK(out[0] == 100 && out[1] == 100, "p(0.5) %jd p(0.625) %jd, "
	    "want 100", (intmax_t)out[0], (intmax_t)out[1]);
	for (i = 2; i < NELEM(q); i++)
		CHECK(out[i] == (int64_t)1 << 50, "p(%g) = %jd, want max",
		    q[i], (intmax_t)out[i]);
	CHECK(s.n == 16 && s.hist.total == 16 && s.hist.overflow == 6,
	    "n %ju total %ju overflow %ju", (uintmax_t)s.n,
	    (uintmax_t)s.hist.total, (uintmax_t)s.hist.overflow);
	CHECK(s.max_tag == 9 && s.max_when == 99, "max_tag %u max_when %jd",
	    s.max_tag, (intmax_t)s.max_when);
	CHECK(rel_err(stats_mean(&s), (1000 + 5 * (double)HIST_LIMIT + 10 +
	    0x1.0p50) / 16) < 1e-12, "mean %.17g ignores overflow",
	    stats_mean(&s));
out:
	stats_free(&s);
}


/*
 * The oracle: ORACLE_N samples through stats_add at b = 9, against the
 * exact percentiles of the sorted samples, the sample at 0-based index
 * ceil(q * n) - 1 computed in integers.  Each percentile must be within
 * 0.1% of the exact one, within [min, max], and not below the one before;
 * the mean and stdev must match a two-pass computation.
 */
static void
oracle(enum dist dist, uint64_t seed)
{
	static const int64_t outliers[] = {
		HIST_LIMIT - 1, HIST_LIMIT, 1000000000000000, INT64_MAX,
		(int64_t)1 << 62, 5000000000000
	};
	double q[NELEM(oracle_qnum)], mean, sd, e;
	int64_t out[NELEM(oracle_qnum)], *v = NULL, *sorted = NULL, want;
	struct stats s = { 0 };
	uint64_t rng, rank;
	size_t i, j, n = ORACLE_N;

	v = malloc(n * sizeof(*v));
	sorted = malloc(n * sizeof(*sorted));
	if (v == NULL || sorted == NULL)
		SKIP("malloc: %s", strerror(errno));
	rng_seed(&rng, seed);
	for (i = 0; i < n; i++) {
		switch (dist) {
		case D_UNIFORM:
			v[i] = 1000 + (int64_t)(rng_unit(&rng) * 9999000);
			break;
		case D_EXPONENTIAL:
			v[i] = to_ns(-50000 * log(rng_unit(&rng)));
			break;
		case D_LOGNORMAL:
			v[i] = to_ns(exp(10 + 1.2 * rng_normal(&rng)));
			break;
		case D_PARETO:
			v[i] = to_ns(2000 * pow(rng_unit(&rng), -1 / 1.1));
			break;
		case D_BIMODAL:
			if (rng_next(&rng) & 1)
				v[i] = (int64_t)(rng_next(&rng) % 1024);
			else
				v[i] = to_ns(3000000 + 100000 *
				    rng_normal(&rng));
			break;
		}
	}
	if (dist == D_PARETO) {
		for (j = 0; j < NELEM(outliers); j++)
			v[rng_next(&rng) % n] = outliers[j];
	}

	STATS_INIT(&s, STATS_SUB_BITS);
	for (i = 0; i < n; i++)
		stats_add(&s, v[i], (uint32_t)i, (int64_t)i);
	for (j = 0; j < NELEM(oracle_qnum); j++)
		q[j] = (double)oracle_qnum[j] / QDEN;
	stats_percentiles(&s, q, out, NELEM(q));

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_int64);
	CHECK(s.n == n && s.hist.total == n, "n %ju total %ju",
	    (uintmax_t)s.n, (uintmax_t)s.hist.total);
	CHECK(s.min == sorted[0] && s.max == sorted[n - 1],
	    "min %jd max %jd, want %jd, %jd", (intmax_t)s.min,
	    (intmax_t)s.max, (intmax_t)sorted[0], (intmax_t)sorted[n - 1]);
	CHECK(v[s.max_tag] == s.max && s.max_when == (int64_t)s.max_tag,
	    "max_tag %u names %jd, not the max", s.max_tag,
	    (intmax_t)v[s.max_tag]);
	for (i = 0; i < s.max_tag; i++)
		CHECK(v[i] != s.max, "max_tag %u, but sample %zu is the max "
		    "already", s.max_tag, i);
	for (j = 0; j < NELEM(q); j++) {
		rank = (oracle_qnum[j] * n + QDEN - 1) / QDEN;
		want = sorted[rank - 1];
		e = rel_err((double)out[j], (double)want);
		CHECK(e <= ORACLE_TOL, "p(%g) = %jd, exact %jd, rel err %.3g",
		    q[j], (intmax_t)out[j], (intmax_t)want, e);
		CHECK(want >= 1024 || out[j] == want, "p(%g) = %jd, exact %jd "
		    "in the exact range", q[j], (intmax_t)out[j],
		    (intmax_t)want);
		CHECK(s.min <= out[j] && out[j] <= s.max, "p(%g) = %jd outside "
		    "[%jd, %jd]", q[j], (intmax_t)out[j], (intmax_t)s.min,
		    (intmax_t)s.max);
		CHECK(j == 0 || out[j - 1] <= out[j], "p(%g) = %jd below p(%g) "
		    "= %jd", q[j], (intmax_t)out[j], q[j - 1],
		    (intmax_t)out[j - 1]);
	}
	two_pass(v, n, &mean, &sd);
	e = rel_err(stats_mean(&s), mean);
	CHECK(e < WELFORD_TOL, "mean %.17g, two-pass %.17g, rel err %.3g",
	    stats_mean(&s), mean, e);
	e = rel_err(stats_stdev(&s), sd);
	CHECK(e < WELFORD_TOL, "stdev %.17g, two-pass %.17g, rel err %.3g",
	    stats_stdev(&s), sd, e);
out:
	stats_free(&s);
	free(v);
	free(sorted);
}

static void
test_oracle_uniform(void)
{
	oracle(D_UNIFORM, 11);
}

static void
test_oracle_exponential(void)
{
	oracle(D_EXPONENTIAL, 12);
}

static void
test_oracle_lognormal(void)
{
	oracle(D_LOGNORMAL, 13);
}

static void
test_oracle_pareto(void)
{
	oracle(D_PARETO, 14);
}

static void
test_oracle_bimodal(void)
{
	oracle(D_BIMODAL, 15);
}

/*
 * The timeline keeps the first TIMELINE_POINTS samples as they are, and
 * after any number of re-binnings every slice holds exactly the samples of
 * its time range (checked against slices recomputed at the final width).
 */
static void
test_timeline(void)
{
	static struct timeline_slice want[TIMELINE_SLICES];
	struct timeline *tl;
	uint64_t rng, total = 0;
	int64_t when, v;
	size_t i, k, n = 3 * TIMELINE_POINTS;
	int pass;

	timeline_free(NULL);
	CHECK((tl = timeline_new()) != NULL, "timeline_new: %s",
	    strerror(errno));
	for (pass = 0; pass < 2; pass++) {
		rng_seed(&rng, 42);
		memset(want, 0, sizeof(want));
		for (i = 0; i < n; i++) {
			/* 0 .. about 1000 s, ascending, with a negative start. */
			when = (int64_t)i * 33333331 - 5;
			v = (int64_t)(rng_next(&rng) % 10000000);
			if (pass == 0) {
				timeline_add(tl, when, v);
				continue;
			}
			if (i < TIMELINE_POINTS)
				CHECK(tl->points[i].when == (when < 0 ? 0 :
				    when) && tl->points[i].value == v,
				    "point %zu differs", i);
			k = (size_t)((when < 0 ? 0 : when) / tl->width);
			CHECK(k < TIMELINE_SLICES, "sample %zu past the end", i);
			if (want[k].n == 0 || v < want[k].min)
				want[k].min = v;
			if (want[k].n == 0 || v > want[k].max)
				want[k].max = v;
			want[k].n++;
		}
	}
	CHECK(tl->n == n && tl->npoints == TIMELINE_POINTS,
	    "n %ju npoints %zu", (uintmax_t)tl->n, tl->npoints);
	CHECK(tl->width > TIMELINE_WIDTH0 && tl->nused <= TIMELINE_SLICES &&
	    tl->nused > TIMELINE_SLICES / 2, "width %jd nused %zu",
	    (intmax_t)tl->width, tl->nused);
	for (k = 0; k < TIMELINE_SLICES; k++) {
		total += tl->slice[k].n;
		CHECK(tl->slice[k].n == want[k].n && (want[k].n == 0 ||
		    (tl->slice[k].min == want[k].min &&
		    tl->slice[k].max == want[k].max)),
		    "slice %zu: n %ju min %jd max %jd, want %ju %jd %jd", k,
		    (uintmax_t)tl->slice[k].n, (intmax_t)tl->slice[k].min,
		    (intmax_t)tl->slice[k].max, (uintmax_t)want[k].n,
		    (intmax_t)want[k].min, (intmax_t)want[k].max);
		CHECK(k < tl->nused || tl->slice[k].n == 0,
		    "slice %zu used past nused", k);
	}
	CHECK(total == n, "slices hold %ju of %zu", (uintmax_t)total, n);
out:
	timeline_free(tl);
}

/* Two halves merged equal the whole added at once. */
static void
test_stats_merge(void)
{
	struct stats all, a, b, e;
	uint64_t r;
	int64_t v;
	int i;

	rng_seed(&r, 77);
	if (stats_init(&all, 9) || stats_init(&a, 9) || stats_init(&b, 9) ||
	    stats_init(&e, 9)) {
		unit_fail("stats_init");
		return;
	}
	for (i = 0; i < 5000; i++) {
		v = to_ns(1000 * exp(rng_normal(&r)));
		stats_add(&all, v, (uint32_t)i, i);
		stats_add(i < 1200 ? &a : &b, v, (uint32_t)i, i);
	}
	if (stats_merge(&e, &a) || stats_merge(&e, &b))
		unit_fail("stats_merge failed");
	if (e.n != all.n || e.min != all.min || e.max != all.max ||
	    e.max_tag != all.max_tag || rel_err(e.mean, all.mean) > 1e-12 ||
	    rel_err(stats_stdev(&e), stats_stdev(&all)) > 1e-9 ||
	    e.hist.total != all.hist.total ||
	    stats_value(&e, STAT_P99) != stats_value(&all, STAT_P99))
		unit_fail("merged n %llu mean %.6f sd %.6f, whole n %llu mean %.6f "
		    "sd %.6f", (unsigned long long)e.n, e.mean, stats_stdev(&e),
		    (unsigned long long)all.n, all.mean, stats_stdev(&all));
	stats_free(&all);
	stats_free(&a);
	stats_free(&b);
	stats_free(&e);
}

static void
test_kinds(void)
{
	int k;

	for (k = 0; k < STAT_NKINDS; k++)
		if (stats_kind_find(stats_kind_name((enum stat_kind)k)) != k)
			unit_fail("%s does not find itself",
			    stats_kind_name((enum stat_kind)k));
	if (stats_kind_find("p95") != STAT_P95 ||
	    stats_kind_find("worst") != STAT_MAX ||
	    stats_kind_find("sd") != STAT_STDEV ||
	    stats_kind_find("p98") != -1 || stats_kind_find("") != -1)
		unit_fail("p95, worst, sd, p98 or the empty name");
	if (stats_need(STAT_P999) != 10000 ||
	    stats_need_q(0.99) != 1000 ||
	    stats_need(STAT_STDEV) != 2 || stats_need(STAT_MAX) != 1)
		unit_fail("stats_need");
}

/*
 * With quantiles kept, the q quantile of any run of slices, after the
 * re-binnings, is within 12.5% of the exact one from the raw samples (and
 * within the slices' [min, max]); an empty range or a timeline without
 * quantiles answers -1.
 */
static void
test_timeline_quantile(void)
{
	static const double qs[] = { 0.5, 0.9, 0.99 };
	static int64_t vals[200000];
	struct timeline *tl = NULL;
	uint64_t rng;
	int64_t when, got, want, *sel = NULL;
	size_t i, n = sizeof(vals) / sizeof(vals[0]), from, to, m, j;

	CHECK((tl = timeline_new()) != NULL, "timeline_new");
	CHECK(timeline_quantile(tl, 0, 4, 0.5) == -1, "no quantiles kept");
	CHECK(timeline_keep_quantiles(tl) == 0, "keep_quantiles");
	CHECK(timeline_quantile(tl, 0, 4, 0.5) == -1, "empty range");
	rng_seed(&rng, 7);
	for (i = 0; i < n; i++) {
		/* Log-uniform from 1 ns to about 1 s, over about 500 s. */
		vals[i] = (int64_t)pow(10, (double)(rng_next(&rng) % 9000) /
		    1000);
		timeline_add(tl, (int64_t)i * 2500000, vals[i]);
	}
	CHECK((sel = malloc(n * sizeof(*sel))) != NULL, "malloc");
	for (from = 0; from < tl->nused; from += 97) {
		to = from + 1 + from % 50;
		m = 0;
		for (i = 0; i < n; i++) {
			when = (int64_t)i * 2500000;
			if ((size_t)(when / tl->width) >= from &&
			    (size_t)(when / tl->width) < to)
				sel[m++] = vals[i];
		}
		if (m == 0)
			continue;
		qsort(sel, m, sizeof(*sel), cmp_int64);
		for (j = 0; j < 3; j++) {
			want = sel[(size_t)ceil(qs[j] * (double)m - 1e-9) - 1];
			got = timeline_quantile(tl, from, to, qs[j]);
			CHECK(got >= sel[0] && got <= sel[m - 1] &&
			    llabs(got - want) <= want / 8 + 1,
			    "slices %zu-%zu q %g: %jd, exact %jd", from, to,
			    qs[j], (intmax_t)got, (intmax_t)want);
		}
	}
out:
	free(sel);
	timeline_free(tl);
}

/*
 * The sufficiency rule, kind by kind and at the q where 1 - q is not
 * exact in binary (0.99, 0.995, 0.9999: a bare ceil would ask one more).
 */
static void
test_need(void)
{
	static const struct { enum stat_kind k; uint64_t n; } kinds[] = {
		{ STAT_MIN, 1 }, { STAT_MEAN, 1 }, { STAT_STDEV, 2 },
		{ STAT_P50, 20 }, { STAT_P90, 100 }, { STAT_P95, 200 },
		{ STAT_P99, 1000 }, { STAT_P999, 10000 },
		{ STAT_P9999, 100000 }, { STAT_MAX, 1 },
	};
	static const struct { double q; uint64_t n; } qs[] = {
		{ 0, 10 }, { 0.3, 15 }, { 0.5, 20 }, { 0.75, 40 },
		{ 0.9, 100 }, { 0.99, 1000 }, { 0.995, 2000 },
		{ 0.999, 10000 }, { 0.9999, 100000 }, { 0.99999, 1000000 },
	};
	size_t i;

	CHECK(NELEM(kinds) == STAT_NKINDS, "%zu kinds in the table, %d kinds",
	    NELEM(kinds), STAT_NKINDS);
	for (i = 0; i < NELEM(kinds); i++)
		CHECK(stats_need(kinds[i].k) == kinds[i].n,
		    "%s needs %llu, want %llu", stats_kind_name(kinds[i].k),
		    (unsigned long long)stats_need(kinds[i].k),
		    (unsigned long long)kinds[i].n);
	for (i = 0; i < NELEM(qs); i++)
		CHECK(stats_need_q(qs[i].q) == qs[i].n,
		    "q %g needs %llu, want %llu", qs[i].q,
		    (unsigned long long)stats_need_q(qs[i].q),
		    (unsigned long long)qs[i].n);
out:
	return;
}

/*
 * stats_shown: NAN one sample short of the need, the statistic from the
 * need on (the sd at 1 and 2 samples, p99 at 999 and 1000, the mean of
 * none).
 */
static void
test_shown_at_need(void)
{
	static const enum stat_kind kinds[] = {
		STAT_MEAN, STAT_STDEV, STAT_P50, STAT_P95, STAT_P99
	};
	struct stats s;
	uint64_t n, need;
	size_t i;
	int ok = 0;

	STATS_INIT(&s, 7);
	ok = 1;
	CHECK(isnan(stats_shown(&s, STAT_MEAN)), "the mean of no sample "
	    "shown: %g", stats_shown(&s, STAT_MEAN));
	for (n = 1; n <= 1000; n++) {
		stats_add(&s, (int64_t)(1000 + n % 7 * 100), 0, (int64_t)n);
		for (i = 0; i < NELEM(kinds); i++) {
			need = stats_need(kinds[i]);
			if (n == need - 1)
				CHECK(isnan(stats_shown(&s, kinds[i])),
				    "%s shown at %llu samples, needs %llu",
				    stats_kind_name(kinds[i]),
				    (unsigned long long)n,
				    (unsigned long long)need);
			if (n >= need)
				CHECK(!isnan(stats_shown(&s, kinds[i])) &&
				    stats_shown(&s, kinds[i]) ==
				    stats_value(&s, kinds[i]),
				    "%s not shown at %llu samples (needs %llu)",
				    stats_kind_name(kinds[i]),
				    (unsigned long long)n,
				    (unsigned long long)need);
		}
	}
out:
	if (ok)
		stats_free(&s);
}
