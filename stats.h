/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running statistics and a log-linear latency histogram.
 *
 * Values are signed 64-bit nanoseconds.  The statistics keep the count, the
 * Welford running mean and sum of squared deviations, the minimum, and the
 * maximum together with an opaque tag (the caller's client number, say) and
 * the caller's time of the maximum.  They know nothing of processes, never
 * exit and never print except to a FILE * they are handed.
 *
 * The histogram splits every power-of-two group [2^g, 2^(g+1)) into 2^b
 * linear sub-buckets, where b is the histogram's precision ("sub_bits").
 * Values below 2^(b+1) have a bucket each and are exact.  Above, a bucket is
 * at most 1/2^b of its lower bound wide, so a value reported as its bucket's
 * midpoint is within 1/2^(b+1) of the truth:
 *
 *   b = 9 (STATS_SUB_BITS, the default): relative error <= 0.098%.
 *
 * Range: 0 ns up to 2^43 - 1 ns (about 2 h 26 min); larger values are
 * counted as overflow (never dropped: they still count in n, the mean and
 * the maximum), negative values are counted in the lowest bucket.
 *
 * Memory: (2^(b+1) + (43 - b - 1) * 2^b) counters of 8 bytes, allocated
 * once by hist_init and never grown: 17,920 counters, 140 KiB, at b = 9;
 * 2.5 KiB at b = 3.
 *
 * Percentiles come from one cumulative pass over the buckets for a sorted
 * list of quantiles; each is the midpoint of the bucket that holds the
 * sample of rank ceil(q * n), clamped to [min, max].
 */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define STATS_SUB_BITS	9	/* default precision: 0.1% */
#define HIST_MAX_BITS	43	/* values >= 2^43 ns overflow */

/*
 * The statistics a user can name (--fail-above, --fail-if-worse, the rows
 * of latt compare), one name each, in the order of the tables.
 */
enum stat_kind {
	STAT_MIN,
	STAT_MEAN,
	STAT_STDEV,
	STAT_P50,
	STAT_P90,
	STAT_P95,
	STAT_P99,
	STAT_P999,
	STAT_P9999,
	STAT_MAX,
	STAT_NKINDS
};

struct hist {
	unsigned	 sub_bits;	/* 2^sub_bits sub-buckets per group */
	size_t		 nbuckets;
	uint64_t	*counts;
	uint64_t	 total;		/* samples added, overflow included */
	uint64_t	 overflow;	/* samples >= 2^HIST_MAX_BITS */
};

struct stats {
	uint64_t	n;
	double		mean;		/* Welford running mean */
	double		m2;		/* sum of squared deviations */
	int64_t		min;
	int64_t		max;
	uint32_t	max_tag;	/* caller's tag of the maximum */
	int64_t		max_when;	/* caller's time of the maximum */
	struct hist	hist;
};

/* Histogram.  hist_init returns 0, or -1 with errno set (EINVAL, ENOMEM). */
int	 hist_init(struct hist *, unsigned sub_bits);
void	 hist_free(struct hist *);		/* hist_free(NULL) is safe */
void	 hist_reset(struct hist *);
void	 hist_add(struct hist *, int64_t value);
void	 hist_add_count(struct hist *, int64_t value, uint64_t count);
/* hist_index of an overflowing value is nbuckets, whose bounds are the
 * overflow range [2^HIST_MAX_BITS, INT64_MAX]. */
size_t	 hist_index(const struct hist *, int64_t value);
int64_t	 hist_lower(const struct hist *, size_t idx);	/* first value */
int64_t	 hist_upper(const struct hist *, size_t idx);	/* last value */
int64_t	 hist_mid(const struct hist *, size_t idx);	/* representative */
/* Adds src's counts to dst; -1 with errno EINVAL if precisions differ. */
int	 hist_merge(struct hist *dst, const struct hist *src);

/* Statistics.  stats_init returns 0, or -1 with errno set. */
int	 stats_init(struct stats *, unsigned sub_bits);
void	 stats_free(struct stats *);		/* stats_free(NULL) is safe */
void	 stats_reset(struct stats *);	/* empty again, same precision */
void	 stats_add(struct stats *, int64_t value, uint32_t tag, int64_t when);
double	 stats_mean(const struct stats *);	/* 0 when n == 0 */
double	 stats_stdev(const struct stats *);	/* sample stdev; 0 when n < 2 */
double	 stats_sterr(const struct stats *); /* stdev / sqrt(n); 0 when n < 2 */

/*
 * Fills out[i] with the q[i] quantile (0 < q[i] <= 1), for q sorted in
 * ascending order, in one pass.  With n == 0 every out[i] is 0.
 */
void	 stats_percentiles(const struct stats *, const double *q, int64_t *out,
	    size_t nq);

/* Statistic names: "p99.9" and the like; find also takes "worst" and "sd". */
const char *stats_kind_name(enum stat_kind);
int	 stats_kind_find(const char *name);		/* -1: unknown */
double	 stats_kind_q(enum stat_kind);		/* 0: not a percentile */
/*
 * The one rule of how many samples a statistic needs before latt shows
 * it (the summary, the JSON, the plot, the gate, compare): a percentile q
 * needs STATS_BEYOND samples beyond it, ceil(STATS_BEYOND / (1 - q)); the
 * sd needs 2, the others 1.
 */
#define STATS_BEYOND	10
uint64_t stats_need_q(double q);
uint64_t stats_need(enum stat_kind);
/* The statistic of s where it has the samples it needs, else NAN. */
double	 stats_shown(const struct stats *, enum stat_kind);
/* The statistic of s, ns (0 when n == 0). */
double	 stats_value(const struct stats *, enum stat_kind);
/* Adds src into dst (Chan's pairwise update); -1 with EINVAL if the
 * histograms' precisions differ.  dst's maximum keeps its tag and time. */
int	 stats_merge(struct stats *dst, const struct stats *src);

/*
 * A timeline: latency over time in bounded memory.  It keeps the first
 * TIMELINE_POINTS samples as they are (for a scatter plot), and for all of
 * them the minimum, maximum and count per time slice.  There are always
 * TIMELINE_SLICES slices, starting TIMELINE_WIDTH0 ns wide; when a sample
 * falls past the last one, neighbours merge pairwise and the width doubles,
 * so any run length fits.  Memory: about 340 KiB, allocated once.
 */
#define TIMELINE_SLICES	1024
#define TIMELINE_POINTS	20000
#define TIMELINE_WIDTH0	1000000LL	/* 1 ms */

struct timeline_slice {
	uint64_t	n;
	int64_t		min;
	int64_t		max;
};

struct timeline_point {
	int64_t		when;
	int64_t		value;
};

/*
 * With timeline_keep_quantiles, every slice also keeps a coarse histogram
 * of its samples (2 sub-bucket bits: a slice's quantile is within 12.5% of
 * the truth), TIMELINE_QBUCKETS 32-bit counters a slice, 672 KiB in all.
 */
#define TIMELINE_QBUCKETS	168

struct timeline {
	int64_t			 width;		/* ns per slice */
	size_t			 nused;		/* slices up to the last used */
	uint64_t		 n;		/* samples added */
	size_t			 npoints; /* points kept, <= TIMELINE_POINTS */
	struct timeline_point	*points;
	struct timeline_slice	 slice[TIMELINE_SLICES];
	uint32_t		(*qcounts)[TIMELINE_QBUCKETS];	/* or NULL */
};

/* Returns a new timeline, or NULL with errno set. */
struct timeline	*timeline_new(void);
void	 timeline_free(struct timeline *);	/* NULL is safe */
/* Adds value at time when (ns, negative counts as 0). */
void	 timeline_add(struct timeline *, int64_t when, int64_t value);
/* Keeps a histogram per slice from now on; 0, or -1 with errno set. */
int	 timeline_keep_quantiles(struct timeline *);
/*
 * The q quantile (0 < q <= 1) of the samples of slices [from, to), clamped
 * to their [min, max]; -1 when they are empty or no histograms are kept.
 */
int64_t	 timeline_quantile(const struct timeline *, size_t from, size_t to,
	    double q);

#endif /* STATS_H */
