/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt compare: loads result files into sides, merges the runs of a side,
 * and compares sides with bootstrap confidence intervals and an
 * exceedance test for the maximum.  The method is documented in latt.1
 * (COMPARING RUNS); the numbers that define it are the constants below.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "jsonread.h"
#include "latt.h"

#define NREPS		2000		/* bootstrap replicates */
#define BOOT_SEED	0x6c617474636d70ULL	/* fixed: same files, same answer */
#define POISSON_EXACT	30		/* larger counts: normal approximation */
#define MIN_TAIL	10		/* samples above a percentile, each side */
#define MIN_MEAN	30		/* samples for the mean's interval */
#define MIN_MAX		20		/* samples for the maximum's test */
#define MAX_ALPHA	0.025		/* one-sided level of the maximum's test */
#define MAX_FILE	(1L << 30)	/* refuse result files above 1 GiB */
#define MAX_SIDES	26
#define HIST_LIMIT	((int64_t)1 << HIST_MAX_BITS)

static const char *const stat_names[CMP_NSTATS] = {
	"mean", "p50", "p90", "p99", "p99.9", "max"
};
static const double stat_q[CMP_NSTATS] = { 0, 0.5, 0.9, 0.99, 0.999, 1 };
static const char *const series_keys[CMP_NSERIES] = { "latency", "timer" };

/*
 * What a run says about its parameters and environment, as compact JSON
 * text per key (NULL when absent).  Keys that can make a comparison
 * meaningless warn when they differ; the others are only shown.
 */
struct info_key {
	const char	*obj;
	const char	*key;
	int		 warn;
};
static const struct info_key info_keys[] = {
	{ "parameters",	"clients",		1 },
	{ "parameters",	"min_delay_ns",		1 },
	{ "parameters",	"max_delay_ns",		1 },
	{ "parameters",	"command",		1 },
	{ "parameters",	"argv",			1 },
	{ "parameters",	"loads",		1 },
	{ "parameters",	"duration_ns",		1 },
	{ "parameters",	"work_kb",		1 },
	{ "environment", "machine",		1 },
	{ "environment", "hostname",		1 },
	{ "environment", "cpus_online",		1 },
	{ "environment", "clocksource",		1 },
	{ "environment", "timer_slack_ns",	1 },
	{ "environment", "latt_version",	1 },
	{ "environment", "preemption",		0 },
	{ "environment", "cmdline",		0 },
	{ "environment", "kernel_release",	0 },
	{ "environment", "kernel_version",	0 },
};
#define NINFO	(sizeof(info_keys) / sizeof(info_keys[0]))

struct cmp_info {
	char	*text[NINFO];
};

/* What one row of the table found. */
struct row {
	double	 a, b;		/* the values, ns */
	double	 change;	/* percent, NAN when a is 0 */
	double	 lo, hi;	/* the interval of the change, percent */
	int	 has_ci;
	int	 verdict;	/* one of the V_ values */
	int	 worse;		/* the difference is real and b is higher */
};
enum { V_REAL, V_NOISE, V_FEW, V_NONE };
static const char *const verdicts[] = {
	"real difference", "noise", "too few samples", "not tested"
};

static uint64_t	 rng_next(uint64_t *);
static int	 load_tree(struct cmp_side *, const char *, const struct json *,
		    char *, size_t);
static void	 compare_usage(void) __attribute__((noreturn));
static void	 compare_error(const char *, ...)
		    __attribute__((noreturn, format(printf, 1, 2)));

/* ---- loading ---- */

static int
where(char *err, size_t errlen, const char *fname, const struct json *v,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Writes "FILE:LINE:COL: message" to err and returns -1. */
static int
where(char *err, size_t errlen, const char *fname, const struct json *v,
    const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "%s:%u:%u: ", fname, v->line, v->col);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Fetches member key of o as a non-negative integer (an integer lexeme
 * within int64).  Returns 0, 1 when absent and optional, -1 on error.
 */
static int
get_count(const char *fname, const struct json *o, const char *key,
    int optional, int64_t *out, char *err, size_t errlen)
{
	const struct json *v = json_get(o, key);

	if (v == NULL) {
		if (optional)
			return 1;
		return where(err, errlen, fname, o, "\"%s\" is missing", key);
	}
	if (v->type != JSON_NUMBER || !v->isint || v->ival < 0)
		return where(err, errlen, fname, v, "\"%s\" is not a "
		    "non-negative integer", key);
	*out = v->ival;
	return 0;
}

static int
load_series(struct cmp_series *s, struct hist *run, const char *fname,
    const struct json *o, const char *name, char *err, size_t errlen)
{
	const struct json *h, *bk, *b, *mean;
	int64_t samples, overflow = 0, min, max, sub, lo, hi, cnt;
	uint64_t sum;
	size_t i, idx, last = 0;

	if (o->type != JSON_OBJECT)
		return where(err, errlen, fname, o, "\"%s\" is not an object",
		    name);
	if (get_count(fname, o, "samples", 0, &samples, err, errlen) ||
	    get_count(fname, o, "overflow", 1, &overflow, err, errlen) == -1 ||
	    get_count(fname, o, "min_ns", 0, &min, err, errlen) ||
	    get_count(fname, o, "max_ns", 0, &max, err, errlen))
		return -1;
	mean = json_get(o, "mean_ns");
	if (mean == NULL)
		return where(err, errlen, fname, o, "\"mean_ns\" is missing");
	if (mean->type != JSON_NUMBER || mean->num < 0)
		return where(err, errlen, fname, mean, "\"mean_ns\" is not a "
		    "non-negative number");
	if (samples > 0 && (min > max || mean->num < (double)min * 0.999 ||
	    mean->num > (double)max * 1.001 + 1))
		return where(err, errlen, fname, o, "min_ns, mean_ns and "
		    "max_ns of \"%s\" are out of order", name);
	h = json_get(o, "histogram");
	if (h == NULL)
		return where(err, errlen, fname, o, "\"histogram\" is missing");
	if (h->type != JSON_OBJECT)
		return where(err, errlen, fname, h, "\"histogram\" is not an "
		    "object");
	if (get_count(fname, h, "sub_bits", 0, &sub, err, errlen))
		return -1;
	if (sub < 1 || sub > 12)
		return where(err, errlen, fname, json_get(h, "sub_bits"),
		    "\"sub_bits\" is %lld, not between 1 and 12",
		    (long long)sub);
	if (s->nruns > 0 && (unsigned)sub != s->st.hist.sub_bits)
		return where(err, errlen, fname, json_get(h, "sub_bits"),
		    "histogram sub_bits %lld differs from %u in the side's "
		    "first file: cannot merge", (long long)sub,
		    s->st.hist.sub_bits);
	if (hist_init(run, (unsigned)sub) == -1)
		return where(err, errlen, fname, h, "%s", strerror(errno));
	bk = json_get(h, "buckets");
	if (bk == NULL)
		return where(err, errlen, fname, h, "\"buckets\" is missing");
	if (bk->type != JSON_ARRAY)
		return where(err, errlen, fname, bk, "\"buckets\" is not an "
		    "array");
	sum = (uint64_t)overflow;
	for (i = 0; i < bk->n; i++) {
		b = bk->items[i];
		if (b->type != JSON_ARRAY || b->n != 3 ||
		    b->items[0]->type != JSON_NUMBER || !b->items[0]->isint ||
		    b->items[1]->type != JSON_NUMBER || !b->items[1]->isint ||
		    b->items[2]->type != JSON_NUMBER || !b->items[2]->isint ||
		    b->items[2]->ival < 0)
			return where(err, errlen, fname, b, "a bucket is not "
			    "[lower_ns, upper_ns, count] in integers");
		lo = b->items[0]->ival;
		hi = b->items[1]->ival;
		cnt = b->items[2]->ival;
		idx = lo < 0 ? run->nbuckets : hist_index(run, lo);
		if (idx >= run->nbuckets || hist_lower(run, idx) != lo ||
		    hist_upper(run, idx) != hi)
			return where(err, errlen, fname, b, "bucket [%lld, "
			    "%lld] is not a bucket of a sub_bits %lld "
			    "histogram", (long long)lo, (long long)hi,
			    (long long)sub);
		if (i > 0 && idx <= last)
			return where(err, errlen, fname, b, "buckets are not "
			    "in ascending order");
		last = idx;
		if (__builtin_add_overflow(sum, (uint64_t)cnt, &sum))
			return where(err, errlen, fname, b, "bucket counts "
			    "overflow");
		hist_add_count(run, lo, (uint64_t)cnt);
	}
	if (sum != (uint64_t)samples)
		return where(err, errlen, fname, o, "the histogram's counts "
		    "and overflow add up to %llu, but \"samples\" is %lld",
		    (unsigned long long)sum, (long long)samples);
	run->overflow = (uint64_t)overflow;
	run->total = sum;

	/* Merge into the side. */
	if (s->nruns == 0) {
		if (stats_init(&s->st, (unsigned)sub) == -1)
			return where(err, errlen, fname, h, "%s",
			    strerror(errno));
	}
	if (samples > 0) {
		if (s->st.n == 0 || min < s->st.min)
			s->st.min = min;
		if (s->st.n == 0 || max > s->st.max)
			s->st.max = max;
		s->st.mean += (mean->num - s->st.mean) * (double)samples /
		    ((double)s->st.n + (double)samples);
		s->st.n += (uint64_t)samples;
	}
	hist_merge(&s->st.hist, run);
	return 0;
}

static int
add_note(struct cmp_side *side, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
add_note(struct cmp_side *side, const char *fmt, ...)
{
	char **nn, *s;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	nn = realloc(side->notes, (side->nnotes + 1) * sizeof(*nn));
	if (nn == NULL) {
		free(s);
		return -1;
	}
	side->notes = nn;
	side->notes[side->nnotes++] = s;
	return 0;
}

static int
load_tree(struct cmp_side *side, const char *fname, const struct json *root,
    char *err, size_t errlen)
{
	const struct json *v, *obj, *ser[CMP_NSERIES];
	struct cmp_info info;
	struct hist runs[CMP_NSERIES];
	struct hist *nr;
	size_t i, k;
	int ret = -1;

	memset(&info, 0, sizeof(info));
	memset(runs, 0, sizeof(runs));
	if (root->type != JSON_OBJECT)
		return where(err, errlen, fname, root, "not a latt results "
		    "file: the top level is not an object");
	v = json_get(root, "tool");
	if (v == NULL || v->type != JSON_STRING || strcmp(v->str, "latt"))
		return where(err, errlen, fname, v != NULL ? v : root,
		    "not a latt results file: no \"tool\": \"latt\"");
	v = json_get(root, "schema_version");
	if (v == NULL)
		return where(err, errlen, fname, root, "\"schema_version\" is "
		    "missing");
	if (v->type != JSON_NUMBER || !v->isint || v->ival != 1)
		return where(err, errlen, fname, v, "schema_version is %s, "
		    "this latt reads version 1",
		    v->type == JSON_NUMBER ? "another" : "not a number");
	for (i = 0; i < CMP_NSERIES; i++)
		ser[i] = json_get(root, series_keys[i]);
	if (ser[CMP_LATENCY] == NULL)
		return where(err, errlen, fname, root, "\"latency\" is "
		    "missing");
	if (ser[CMP_TIMER] != NULL && ser[CMP_TIMER]->type == JSON_NULL)
		ser[CMP_TIMER] = NULL;

	for (k = 0; k < NINFO; k++) {
		obj = json_get(root, info_keys[k].obj);
		if (obj == NULL)
			continue;
		if (obj->type != JSON_OBJECT) {
			where(err, errlen, fname, obj, "\"%s\" is not an "
			    "object", info_keys[k].obj);
			goto out;
		}
		v = json_get(obj, info_keys[k].key);
		if (v != NULL && (info.text[k] = json_text(v, 1)) == NULL) {
			where(err, errlen, fname, v, "out of memory");
			goto out;
		}
	}

	/* Load each series into a fresh run histogram, then keep them. */
	for (i = 0; i < CMP_NSERIES; i++) {
		struct cmp_series *s = &side->series[i];

		if (ser[i] == NULL)
			continue;
		if (side->nfiles > 0 && !s->present)
			continue;	/* an earlier run lacked it */
		if (load_series(s, &runs[i], fname, ser[i], series_keys[i],
		    err, errlen) == -1)
			goto out;
	}
	for (i = 0; i < CMP_NSERIES; i++) {
		struct cmp_series *s = &side->series[i];

		if (runs[i].counts == NULL) {
			if (side->nfiles > 0 && s->present && add_note(side,
			    "%s: %s has no %s series: its %s rows are left out",
			    side->name, fname, series_keys[i],
			    series_keys[i]) == -1)
				goto oom;
			if (s->nruns > 0) {
				for (k = 0; k < s->nruns; k++)
					hist_free(&s->runs[k]);
				s->nruns = 0;
			}
			s->present = 0;
			continue;
		}
		nr = realloc(s->runs, (s->nruns + 1) * sizeof(*nr));
		if (nr == NULL)
			goto oom;
		s->runs = nr;
		s->runs[s->nruns++] = runs[i];
		memset(&runs[i], 0, sizeof(runs[i]));
		s->present = 1;
	}

	if (side->nfiles == 0) {
		side->info = malloc(sizeof(*side->info));
		if (side->info == NULL)
			goto oom;
		*side->info = info;
		memset(&info, 0, sizeof(info));
	} else {
		for (k = 0; k < NINFO; k++) {
			const char *x = side->info->text[k], *y = info.text[k];

			if (!info_keys[k].warn)
				continue;
			if ((x == NULL) != (y == NULL) ||
			    (x != NULL && strcmp(x, y) != 0))
				if (add_note(side, "%s: %s differs between "
				    "the runs: %s in the first, %s in %s",
				    side->name, info_keys[k].key,
				    x ? x : "(absent)", y ? y : "(absent)",
				    fname) == -1)
					goto oom;
		}
	}
	side->nfiles++;
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: out of memory", fname);
out:
	for (k = 0; k < NINFO; k++)
		free(info.text[k]);
	for (i = 0; i < CMP_NSERIES; i++)
		hist_free(&runs[i]);
	return ret;
}

void
cmp_side_init(struct cmp_side *side, const char *name)
{
	memset(side, 0, sizeof(*side));
	snprintf(side->name, sizeof(side->name), "%s", name);
}

int
cmp_side_add_buf(struct cmp_side *side, const char *fname, const char *buf,
    size_t len, char *err, size_t errlen)
{
	struct json *root;
	char perr[256];
	int r;

	root = json_parse(buf, len, perr, sizeof(perr));
	if (root == NULL) {
		snprintf(err, errlen, "%s:%s", fname, perr);
		return -1;
	}
	r = load_tree(side, fname, root, err, errlen);
	json_free(root);
	return r;
}

int
cmp_side_add_file(struct cmp_side *side, const char *path, char *err,
    size_t errlen)
{
	FILE *fp;
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int r;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (cap - len < 65536) {
			if (cap >= MAX_FILE) {
				snprintf(err, errlen, "%s: larger than %ld "
				    "bytes: not a latt results file", path,
				    MAX_FILE);
				goto bad;
			}
			cap = cap ? cap * 2 : 65536 * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "%s: out of memory",
				    path);
				goto bad;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read: %s", path, strerror(errno));
		goto bad;
	}
	fclose(fp);
	r = cmp_side_add_buf(side, path, buf, len, err, errlen);
	free(buf);
	return r;
bad:
	fclose(fp);
	free(buf);
	return -1;
}

void
cmp_side_free(struct cmp_side *side)
{
	size_t i, k;

	if (side == NULL)
		return;
	for (i = 0; i < CMP_NSERIES; i++) {
		struct cmp_series *s = &side->series[i];

		for (k = 0; k < s->nruns; k++)
			hist_free(&s->runs[k]);
		free(s->runs);
		if (s->st.hist.counts != NULL)
			stats_free(&s->st);
		for (k = 0; k < CMP_NSTATS; k++)
			free(s->reps[k]);
	}
	if (side->info != NULL)
		for (k = 0; k < NINFO; k++)
			free(side->info->text[k]);
	free(side->info);
	for (k = 0; k < side->nnotes; k++)
		free(side->notes[k]);
	free(side->notes);
	free(side->label);
	memset(side, 0, sizeof(*side));
}

/* ---- the bootstrap ---- */

/* splitmix64: small, fast, and good enough for resampling. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double
rng_unit(uint64_t *state)
{
	return ((double)(rng_next(state) >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * A Poisson draw of mean lambda: exact (inversion of the distribution
 * function, one uniform) below POISSON_EXACT, else the normal
 * approximation, rounded and clamped at 0.  expneg[l] is exp(-l).
 */
static uint64_t
poisson(uint64_t *state, uint64_t lambda, const double *expneg)
{
	double p, f, z, x, u;
	uint64_t k;

	if (lambda == 0)
		return 0;
	if (lambda < POISSON_EXACT) {
		u = rng_unit(state);
		k = 0;
		p = f = expneg[lambda];
		while (u > f && k < 10 * POISSON_EXACT) {
			k++;
			p *= (double)lambda / (double)k;
			f += p;
		}
		return k;
	}
	/* Marsaglia's polar method for one normal deviate. */
	do {
		x = 2 * rng_unit(state) - 1;
		z = 2 * rng_unit(state) - 1;
		u = x * x + z * z;
	} while (u >= 1 || u == 0);
	z = x * sqrt(-2 * log(u) / u);
	x = floor((double)lambda + sqrt((double)lambda) * z + 0.5);
	return x > 0 ? (uint64_t)x : 0;
}

/* ceil(q * n) in [1, n], robust to q*n landing a hair above an integer. */
static uint64_t
rank_of(double q, uint64_t n)
{
	double x = q * (double)n;

	x -= 1e-9 + x * 1e-15;
	if (!(x > 1))
		return 1;
	if (x >= (double)n)
		return n;
	return (uint64_t)ceil(x);
}

/*
 * Computes the row statistics of one set of bucket counts (over the
 * values vals, ascending) into out[]; returns -1 when it is empty.
 */
static int
row_stats(const int64_t *vals, const uint64_t *cnt, size_t k, double *out)
{
	uint64_t n = 0, cum, rank;
	double sum = 0;
	size_t i, j;

	for (i = 0; i < k; i++) {
		n += cnt[i];
		sum += (double)cnt[i] * (double)vals[i];
	}
	if (n == 0)
		return -1;
	out[CMP_MEAN] = sum / (double)n;
	cum = 0;
	j = CMP_P50;
	rank = rank_of(stat_q[j], n);
	for (i = 0; i < k && j < CMP_MAX; i++) {
		cum += cnt[i];
		while (j < CMP_MAX && cum >= rank) {
			out[j++] = (double)vals[i];
			if (j < CMP_MAX)
				rank = rank_of(stat_q[j], n);
		}
	}
	for (i = k; i-- > 0;)
		if (cnt[i] > 0) {
			out[CMP_MAX] = (double)vals[i];
			break;
		}
	return 0;
}

/*
 * Fills s->reps: NREPS replicates of each row.  A replicate picks the
 * side's runs with replacement (when it has more than one), then draws
 * every bucket count of each picked run from a Poisson law of that count.
 */
static int
bootstrap(struct cmp_series *s, uint64_t seed)
{
	const struct hist *h = &s->st.hist;
	int64_t *vals = NULL;
	uint64_t *cnt = NULL, *tot = NULL, state = seed;
	size_t k = 0, i, r, b, pick;
	double row[CMP_NSTATS], expneg[POISSON_EXACT];
	int ret = -1;

	if (s->nreps > 0)
		return 0;
	for (i = 0; i < POISSON_EXACT; i++)
		expneg[i] = exp(-(double)i);
	for (i = 0; i < h->nbuckets; i++)
		k += h->counts[i] > 0;
	k += h->overflow > 0;
	vals = calloc(k + 1, sizeof(*vals));
	cnt = calloc((k + 1) * s->nruns, sizeof(*cnt));
	tot = calloc(k + 1, sizeof(*tot));
	for (i = 0; i < CMP_NSTATS; i++)
		s->reps[i] = calloc(NREPS, sizeof(double));
	if (vals == NULL || cnt == NULL || tot == NULL ||
	    s->reps[CMP_NSTATS - 1] == NULL || s->reps[0] == NULL ||
	    s->reps[1] == NULL || s->reps[2] == NULL || s->reps[3] == NULL ||
	    s->reps[4] == NULL)
		goto out;
	/* The distinct values, as the point estimates see them. */
	k = 0;
	for (i = 0; i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		vals[k] = hist_mid(h, i);
		if (vals[k] < s->st.min)
			vals[k] = s->st.min;
		if (vals[k] > s->st.max)
			vals[k] = s->st.max;
		k++;
	}
	if (h->overflow > 0)
		vals[k++] = s->st.max;
	/* Each run's counts over the same values. */
	for (r = 0; r < s->nruns; r++) {
		const struct hist *rh = &s->runs[r];
		size_t j = 0;

		for (i = 0; i < h->nbuckets; i++) {
			if (h->counts[i] == 0)
				continue;
			cnt[r * k + j++] = rh->counts[i];
		}
		if (h->overflow > 0)
			cnt[r * k + j] = rh->overflow;
	}
	for (b = 0; b < NREPS; b++) {
		memset(tot, 0, k * sizeof(*tot));
		for (r = 0; r < s->nruns; r++) {
			pick = s->nruns == 1 ? 0 :
			    (size_t)(rng_next(&state) % s->nruns);
			for (i = 0; i < k; i++)
				tot[i] += poisson(&state, cnt[pick * k + i],
				    expneg);
		}
		if (row_stats(vals, tot, k, row) == -1)
			for (i = 0; i < CMP_NSTATS; i++)
				row[i] = NAN;
		for (i = 0; i < CMP_NSTATS; i++)
			s->reps[i][b] = row[i];
	}
	s->nreps = NREPS;
	ret = 0;
out:
	free(vals);
	free(cnt);
	free(tot);
	return ret;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The point values of a side's rows, as stats_percentiles reports them. */
static void
point_values(const struct cmp_series *s, double *out)
{
	double q[4] = { 0.5, 0.9, 0.99, 0.999 };
	int64_t p[4];
	size_t i;

	stats_percentiles(&s->st, q, p, 4);
	out[CMP_MEAN] = stats_mean(&s->st);
	for (i = 0; i < 4; i++)
		out[CMP_P50 + i] = (double)p[i];
	out[CMP_MAX] = (double)s->st.max;
}

/*
 * How many samples of x lie above every sample of y, counting only
 * buckets entirely above y's maximum (so never too many).
 */
static uint64_t
count_above(const struct cmp_series *x, const struct cmp_series *y)
{
	const struct hist *h = &x->st.hist;
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < h->nbuckets; i++)
		if (h->counts[i] > 0 && hist_lower(h, i) > y->st.max)
			k += h->counts[i];
	if (y->st.max < HIST_LIMIT)
		k += h->overflow;
	return k;
}

/*
 * The chance, were both sides drawn from one law, that the k largest of
 * all samples all came from x (nx samples, ny in the other side).
 */
static double
top_from(uint64_t k, uint64_t nx, uint64_t ny)
{
	double p = 1;
	uint64_t i;

	for (i = 0; i < k && p > 1e-12; i++)
		p *= (double)(nx - i) / (double)(nx + ny - i);
	return p;
}

static void
compute_row(struct row *rw, struct cmp_series *a, struct cmp_series *b,
    int stat, const double *pa, const double *pb)
{
	uint64_t need, na = a->st.n, nb = b->st.n;
	double *ch, r;
	size_t i, m = 0;

	memset(rw, 0, sizeof(*rw));
	rw->a = pa[stat];
	rw->b = pb[stat];
	rw->change = rw->a > 0 ? (rw->b - rw->a) / rw->a * 100 : NAN;
	if (stat == CMP_MEAN)
		need = MIN_MEAN;
	else if (stat == CMP_MAX)
		need = MIN_MAX;
	else
		need = (uint64_t)ceil(MIN_TAIL / (1 - stat_q[stat]) - 1e-9);
	if (na < need || nb < need) {
		rw->verdict = V_FEW;
		return;
	}
	if (stat == CMP_MAX) {
		/* No interval: the exceedance test, both directions. */
		if (top_from(count_above(b, a), nb, na) < MAX_ALPHA)
			rw->verdict = V_REAL, rw->worse = 1;
		else if (top_from(count_above(a, b), na, nb) < MAX_ALPHA)
			rw->verdict = V_REAL;
		else
			rw->verdict = V_NOISE;
		return;
	}
	ch = malloc(NREPS * sizeof(*ch));
	if (ch == NULL) {
		rw->verdict = V_NONE;
		return;
	}
	for (i = 0; i < NREPS; i++) {
		if (!(a->reps[stat][i] > 0) || isnan(b->reps[stat][i]))
			continue;
		r = (b->reps[stat][i] - a->reps[stat][i]) / a->reps[stat][i];
		ch[m++] = r * 100;
	}
	if (m < NREPS / 2 || isnan(rw->change)) {
		rw->verdict = V_NONE;
		free(ch);
		return;
	}
	qsort(ch, m, sizeof(*ch), cmp_double);
	rw->lo = ch[(size_t)floor(0.025 * (double)(m - 1))];
	rw->hi = ch[(size_t)ceil(0.975 * (double)(m - 1))];
	rw->has_ci = 1;
	free(ch);
	if (rw->lo > 0 || rw->hi < 0) {
		rw->verdict = V_REAL;
		rw->worse = rw->lo > 0;
	} else
		rw->verdict = V_NOISE;
}

/* ---- printing ---- */

static const char *
info_of(const struct cmp_side *s, size_t k)
{
	const char *t = s->info != NULL ? s->info->text[k] : NULL;

	return t != NULL ? t : "(absent)";
}

static size_t
info_index(const char *key)
{
	size_t k;

	for (k = 0; k < NINFO; k++)
		if (strcmp(info_keys[k].key, key) == 0)
			return k;
	return 0;
}

static void
print_header(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	const struct cmp_side *sides[2] = { a, b };
	size_t i, k, rel = info_index("kernel_release"),
	    ver = info_index("kernel_version");
	const char *x, *y;

	for (i = 0; i < 2; i++) {
		const struct cmp_side *s = sides[i];

		fprintf(fp, "%s: %s (%zu run%s, %llu samples)\n", s->name,
		    s->label != NULL ? s->label : "?", s->nfiles,
		    s->nfiles == 1 ? "" : "s",
		    (unsigned long long)s->series[CMP_LATENCY].st.n);
	}
	for (i = 0; i < 2; i++)
		fprintf(fp, "kernel %s: %s %s\n", sides[i]->name,
		    info_of(sides[i], rel), info_of(sides[i], ver));
	for (i = 0; i < 2; i++)
		for (k = 0; k < sides[i]->nnotes; k++)
			fprintf(fp, "warning: %s\n", sides[i]->notes[k]);
	for (k = 0; k < NINFO; k++) {
		if (k == rel || k == ver)
			continue;
		x = info_of(a, k);
		y = info_of(b, k);
		if (strcmp(x, y) == 0)
			continue;
		fprintf(fp, "%s: %s differs: %s %s, %s %s\n",
		    info_keys[k].warn ? "warning" : "note", info_keys[k].key,
		    a->name, x, b->name, y);
	}
	if (a->nfiles == 1 || b->nfiles == 1)
		fprintf(fp, "note: a side with one run: its interval covers "
		    "the noise within that run, not from run to run; give "
		    "several runs (%s1.json,%s2.json)\n", a->name, a->name);
}

static void
print_value(FILE *fp, double ns)
{
	fprintf(fp, " %12.3f", ns / NSEC_PER_USEC);
}

static void
print_row(FILE *fp, const char *label, const struct row *rw)
{
	char ci[48];

	fprintf(fp, "%-12s", label);
	print_value(fp, rw->a);
	print_value(fp, rw->b);
	if (isnan(rw->change))
		fprintf(fp, " %9s", "n/a");
	else
		fprintf(fp, " %+8.1f%%", rw->change);
	if (rw->has_ci)
		snprintf(ci, sizeof(ci), "[%+.1f%%, %+.1f%%]", rw->lo, rw->hi);
	else
		snprintf(ci, sizeof(ci), "-");
	fprintf(fp, "  %-22s %s\n", ci, verdicts[rw->verdict]);
}

int
cmp_report(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	struct row rw;
	double pa[CMP_NSTATS], pb[CMP_NSTATS];
	char label[32];
	size_t i, j;
	int failed = 0;
	long long lim;

	print_header(fp, a, b);
	fprintf(fp, "\n%-12s %12s %12s %9s  %-22s %s\n", "us", a->name,
	    b->name, "change", "95% CI of change", "verdict");
	for (i = 0; i < CMP_NSERIES; i++) {
		struct cmp_series *sa = &a->series[i], *sb = &b->series[i];

		if (!sa->present || !sb->present) {
			for (j = 0; gate != NULL && j < CMP_NSTATS; j++)
				if (gate->limit[i][j] >= 0)
					fprintf(fp, "gate: %s.%s: not "
					    "applied: no %s series in both "
					    "sides\n", series_keys[i],
					    stat_names[j], series_keys[i]);
			continue;
		}
		if (bootstrap(sa, BOOT_SEED) == -1 ||
		    bootstrap(sb, BOOT_SEED ^ 0x5bd1e995) == -1)
			return -1;
		point_values(sa, pa);
		point_values(sb, pb);
		for (j = 0; j < CMP_NSTATS; j++) {
			compute_row(&rw, sa, sb, (int)j, pa, pb);
			snprintf(label, sizeof(label), "%s%s",
			    i == CMP_TIMER ? "timer " : "", stat_names[j]);
			print_row(fp, label, &rw);
			lim = gate != NULL ? gate->limit[i][j] : -1;
			if (lim < 0)
				continue;
			if (rw.verdict == V_FEW || rw.verdict == V_NONE) {
				fprintf(fp, "gate: %s: not applied: %s\n",
				    label, verdicts[rw.verdict]);
			} else if (rw.worse && rw.change > (double)lim) {
				fprintf(fp, "gate: %s: %s is %+.1f%% worse "
				    "than %s (limit %lld%%): FAIL\n", label,
				    b->name, rw.change, a->name, lim);
				failed = 1;
			}
		}
	}
	return failed;
}

/* ---- the subcommand ---- */

#define COMPARE_SYNOPSIS \
	"usage: latt compare [-h] [--fail-if-worse=SPEC] A.json[,A2.json...] " \
	"B.json[,B2.json...] [C.json ...]\n"

static void
compare_usage(void)
{
	fputs(COMPARE_SYNOPSIS, stdout);
	fputs(
"\n"
"Compares latt results (written by --json): each argument is one side, and\n"
"several files of a side, joined by commas, are merged by adding their\n"
"histograms.  Every side after the first is compared with the first.\n"
"For mean, p50, p90, p99, p99.9 and max (and the timer series when both\n"
"sides have one) it prints A, B, the change, a 95% bootstrap interval of\n"
"the change and a verdict: real difference, noise or too few samples.\n"
"\n"
"  --fail-if-worse=SPEC  exit 3 when a later side is worse than A by more\n"
"                        than a limit and the difference is real; SPEC is\n"
"                        STAT=N%[,STAT=N%...], STAT one of mean, p50, p90,\n"
"                        p99, p99.9, max, or timer.STAT\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 compared, 2 usage or unreadable file, 3 the gate failed.\n"
"\n"
"Example: latt compare old1.json,old2.json new1.json,new2.json\n", stdout);
	exit(EXIT_OK);
}

static void
compare_error(const char *fmt, ...)
{
	va_list ap;

	fputs("latt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

void
cmp_gate_clear(struct cmp_gate *g)
{
	size_t i, j;

	for (i = 0; i < CMP_NSERIES; i++)
		for (j = 0; j < CMP_NSTATS; j++)
			g->limit[i][j] = -1;
}

void
cmp_gate_parse(struct cmp_gate *g, const char *spec)
{
	char *copy, *part, *save = NULL, *eq, *name, *pct, what[64];
	size_t i, j, len;

	cmp_gate_clear(g);
	if (*spec == '\0')
		compare_error("fail-if-worse is empty");
	len = strlen(spec);
	if (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))
		compare_error("fail-if-worse has an empty part: %s", spec);
	if ((copy = strdup(spec)) == NULL)
		compare_error("fail-if-worse: %s", strerror(errno));
	for (part = strtok_r(copy, ",", &save); part != NULL;
	    part = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(part, '=')) == NULL)
			compare_error("fail-if-worse: %s is not STAT=N%%",
			    part);
		*eq = '\0';
		name = part;
		i = CMP_LATENCY;
		if (strncmp(name, "timer.", 6) == 0) {
			i = CMP_TIMER;
			name += 6;
		}
		for (j = 0; j < CMP_NSTATS; j++)
			if (strcmp(name, stat_names[j]) == 0)
				break;
		if (j == CMP_NSTATS)
			compare_error("fail-if-worse: unknown statistic in "
			    "%s=%s (known: mean, p50, p90, p99, p99.9, max, "
			    "timer.STAT)", part, eq + 1);
		if (g->limit[i][j] >= 0)
			compare_error("fail-if-worse: %s=%s: %s is given "
			    "twice", part, eq + 1, part);
		pct = eq + 1;
		len = strlen(pct);
		if (len == 0 || pct[len - 1] != '%')
			compare_error("fail-if-worse: %s=%s: the limit needs a "
			    "%% sign (for example %s=10%%)", part, pct, part);
		pct[len - 1] = '\0';
		snprintf(what, sizeof(what), "fail-if-worse %s", part);
		g->limit[i][j] = parse_num(what, pct, 0, 100000);
	}
	free(copy);
}

static const struct option compare_longopts[] = {
	{ "fail-if-worse",	required_argument,	NULL,	'F' },
	{ "help",		no_argument,		NULL,	'h' },
	{ NULL,			0,			NULL,	0 }
};

/*
 * Loads one side given as FILE[,FILE...]: the runs of one kernel, merged.
 * A file that cannot be read or is not latt's is a usage error: one line
 * naming the file and the place, and latt exits 2.
 */
void
cmp_side_load(struct cmp_side *side, const char *arg)
{
	char err[512], *copy, *f, *save = NULL;
	size_t len = strlen(arg);

	if (len == 0 || arg[0] == ',' || arg[len - 1] == ',' ||
	    strstr(arg, ",,") != NULL)
		compare_error("compare: empty file name in side %s: '%s'",
		    side->name, arg);
	if ((side->label = strdup(arg)) == NULL ||
	    (copy = strdup(arg)) == NULL)
		compare_error("compare: %s", strerror(errno));
	for (f = strtok_r(copy, ",", &save); f != NULL;
	    f = strtok_r(NULL, ",", &save))
		if (cmp_side_add_file(side, f, err, sizeof(err)) == -1)
			compare_error("%s", err);
	free(copy);
}

int
compare_main(int argc, char *argv[])
{
	struct cmp_side *sides;
	struct cmp_gate gate;
	int ch, nsides, i, failed = 0, r, have_gate = 0;
	char name[4];

	cmp_gate_clear(&gate);
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+:h", compare_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'F':
			cmp_gate_parse(&gate, optarg);
			have_gate = 1;
			break;
		case 'h':
			compare_usage();
		case ':':
			compare_error("option %s needs a value",
			    argv[optind - 1]);
		default:
			if (optopt != 0)
				compare_error("unknown option: -%c", optopt);
			compare_error("unknown option: %s", argv[optind - 1]);
		}
	}
	nsides = argc - optind;
	if (nsides < 2)
		compare_error("compare needs two sides or more (for example: "
		    "latt compare a.json b.json)");
	if (nsides > MAX_SIDES)
		compare_error("compare takes at most %d sides", MAX_SIDES);
	if ((sides = calloc((size_t)nsides, sizeof(*sides))) == NULL)
		compare_error("compare: %s", strerror(errno));
	for (i = 0; i < nsides; i++) {
		snprintf(name, sizeof(name), "%c", 'A' + i);
		cmp_side_init(&sides[i], name);
		cmp_side_load(&sides[i], argv[optind + i]);
	}
	for (i = 1; i < nsides; i++) {
		if (i > 1)
			putchar('\n');
		r = cmp_report(stdout, &sides[0], &sides[i],
		    have_gate ? &gate : NULL);
		if (r == -1) {
			fprintf(stderr, "latt: compare: %s\n",
			    strerror(ENOMEM));
			return EXIT_RUNTIME;
		}
		failed |= r;
	}
	for (i = 0; i < nsides; i++)
		cmp_side_free(&sides[i]);
	free(sides);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "latt: stdout: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	return failed ? EXIT_THRESHOLD : EXIT_OK;
}
