/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt compare: loads result files into sides of runs, sums up every run
 * (its statistics, and from its blocks how much they vary within it), and
 * tests side against side run by run.  The method is documented in latt.1
 * (COMPARING RUNS) and docs/compare.md; the numbers that define it are the
 * constants here and in compare.h.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "compare.h"
#include "jsonread.h"

#define NREPS		200		/* within-run bootstrap replicates */
#define BOOT_SEED	0x6c617474636d70ULL	/* fixed: same files, same answer */
#define MAX_FILE	(1L << 30)	/* refuse result files above 1 GiB */
#define MAX_SIDES	26
#define MAX_RUNS	10000		/* runs in one side */
#define MAX_BLOCKS	1024		/* blocks in one series of one run */

/* The series compare knows, in the order of the table. */
static const char *const series_names[] = { "latency", "timer", "runqueue",
    "wake_path" };
#define NSERIES_KNOWN	(sizeof(series_names) / sizeof(series_names[0]))

/* The rows shown without a gate asking for more. */
static const int default_row[STAT_NKINDS] = {
	[STAT_MEAN] = 1, [STAT_P50] = 1, [STAT_P90] = 1, [STAT_P95] = 1,
	[STAT_P99] = 1, [STAT_P999] = 1, [STAT_MAX] = 1,
};

/*
 * What a run says about its settings and environment, as compact JSON
 * text per key (NULL when absent).  Keys that move the numbers warn, one
 * line each, when the sides differ; the kernel's version string is only
 * shown (its release and command line warn).
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
	{ "parameters",	"loop",			1 },
	{ "parameters",	"policy",		1 },
	{ "parameters",	"priority",		1 },
	{ "parameters",	"nice",			1 },
	{ "parameters",	"cpus",			1 },
	{ "parameters",	"parent_cpu",		1 },
	{ "parameters",	"parent_policy",	1 },
	{ "parameters",	"parent_prio",	1 },
	{ "parameters",	"mlock",		1 },
	{ "parameters",	"dma_latency_us",	1 },
	{ "parameters",	"work_kb",		1 },
	{ "parameters",	"loads",		1 },
	{ "parameters",	"command",		1 },
	{ "parameters",	"argv",			1 },
	{ "parameters",	"duration_ns",		1 },
	{ "parameters",	"samples_limit",	1 },
	{ "parameters",	"warmup_ns",		1 },
	{ "environment", "timer_slack_ns",	1 },
	{ "environment", "kernel_release",	1 },
	{ "environment", "cmdline",		1 },
	{ "environment", "preemption",		1 },
	{ "environment", "scheduler",		1 },
	{ "environment", "cpufreq_governor",	1 },
	{ "environment", "smt",			1 },
	{ "environment", "cpu_model",		1 },
	{ "environment", "cpus_online",		1 },
	{ "environment", "virtualization",	1 },
	{ "environment", "machine",		1 },
	{ "environment", "hostname",		1 },
	{ "environment", "clocksource",		1 },
	{ "environment", "latt_version",	1 },
	{ "environment", "kernel_version",	0 },
};
#define NINFO	(sizeof(info_keys) / sizeof(info_keys[0]))

struct cmp_info {
	char	*text[NINFO];
};

/* A block as read: its sparse histogram (bucket index, count). */
struct sblock {
	uint64_t	 n;
	int64_t		 min;
	int64_t		 max;
	size_t		 nb;
	uint32_t	*idx;		/* ascending; nbuckets: the overflow */
	uint64_t	*cnt;
};

struct sblocks {
	unsigned	 sub_bits;
	size_t		 n;
	struct sblock	*b;
};

static uint64_t	 rng_next(uint64_t *);
static int	 load_tree(struct cmp_side *, const char *, const struct json *,
		    char *, size_t);
static void	 compare_usage(void) __attribute__((noreturn));

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

/* Fetches sub_bits of o, between 1 and 12. */
static int
get_sub_bits(const char *fname, const struct json *o, unsigned *out,
    char *err, size_t errlen)
{
	int64_t sub = 0;

	if (get_count(fname, o, "sub_bits", 0, &sub, err, errlen))
		return -1;
	if (sub < 1 || sub > 12)
		return where(err, errlen, fname, json_get(o, "sub_bits"),
		    "\"sub_bits\" is %lld, not between 1 and 12",
		    (long long)sub);
	*out = (unsigned)sub;
	return 0;
}

/*
 * Reads a series object (docs/json-schema.md) into st: its count, mean,
 * deviation, extremes and histogram, checked against each other.
 */
static int
load_stats(struct stats *st, const char *fname, const struct json *o,
    const char *name, char *err, size_t errlen)
{
	const struct json *h, *bk, *b, *mean, *sd;
	int64_t samples, overflow = 0, min, max, lo, hi, cnt;
	uint64_t sum;
	unsigned sub = 0;
	size_t i, idx, last = 0;
	struct hist *run = &st->hist;

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
	sd = json_get(o, "stdev_ns");
	if (sd != NULL && sd->type != JSON_NULL &&
	    (sd->type != JSON_NUMBER || sd->num < 0))
		return where(err, errlen, fname, sd, "\"stdev_ns\" is not a "
		    "non-negative number");
	h = json_get(o, "histogram");
	if (h == NULL)
		return where(err, errlen, fname, o, "\"histogram\" is missing");
	if (h->type != JSON_OBJECT)
		return where(err, errlen, fname, h, "\"histogram\" is not an "
		    "object");
	if (get_sub_bits(fname, h, &sub, err, errlen) == -1)
		return -1;
	if (stats_init(st, sub) == -1)
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
			    "%lld] is not a bucket of a sub_bits %u "
			    "histogram", (long long)lo, (long long)hi, sub);
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
	st->n = (uint64_t)samples;
	st->min = min;
	st->max = max;
	st->mean = mean->num;
	if (sd != NULL && sd->type == JSON_NUMBER && samples > 1)
		st->m2 = sd->num * sd->num * (double)(samples - 1);
	else
		st->m2 = NAN;
	return 0;
}

static void
sblocks_free(struct sblocks *sb)
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
 * Reads the "blocks" of a series (schema 2) into sb: every block's
 * samples, extremes and sparse histogram [index, count, index, count...],
 * whose counts add up to its samples; all blocks add up to the series.
 */
static int
load_blocks(struct sblocks *sb, const char *fname, const struct json *o,
    uint64_t samples, char *err, size_t errlen)
{
	const struct json *list, *bo, *bk, *x, *c;
	struct hist shape;
	int64_t n, min, max;
	uint64_t sum, total = 0;
	size_t i, j, nbk;
	struct sblock *b;

	memset(sb, 0, sizeof(*sb));
	memset(&shape, 0, sizeof(shape));
	if (o->type != JSON_OBJECT)
		return where(err, errlen, fname, o, "\"blocks\" is not an "
		    "object");
	if (get_sub_bits(fname, o, &sb->sub_bits, err, errlen) == -1)
		return -1;
	if (hist_init(&shape, sb->sub_bits) == -1)
		return where(err, errlen, fname, o, "%s", strerror(errno));
	nbk = shape.nbuckets;
	hist_free(&shape);
	list = json_get(o, "list");
	if (list == NULL || list->type != JSON_ARRAY)
		return where(err, errlen, fname, list != NULL ? list : o,
		    "\"list\" of the blocks is %s", list != NULL ?
		    "not an array" : "missing");
	if (list->n > MAX_BLOCKS)
		return where(err, errlen, fname, list, "more than %d blocks",
		    MAX_BLOCKS);
	if (list->n > 0 && (sb->b = calloc(list->n, sizeof(*sb->b))) == NULL)
		return where(err, errlen, fname, list, "out of memory");
	sb->n = list->n;
	for (i = 0; i < list->n; i++) {
		bo = list->items[i];
		b = &sb->b[i];
		if (bo->type != JSON_OBJECT)
			return where(err, errlen, fname, bo, "a block is not "
			    "an object");
		if (get_count(fname, bo, "samples", 0, &n, err, errlen) ||
		    get_count(fname, bo, "min_ns", 0, &min, err, errlen) ||
		    get_count(fname, bo, "max_ns", 0, &max, err, errlen))
			return -1;
		if (n > 0 && min > max)
			return where(err, errlen, fname, bo, "min_ns is above "
			    "max_ns");
		bk = json_get(bo, "buckets");
		if (bk == NULL || bk->type != JSON_ARRAY || bk->n % 2 != 0)
			return where(err, errlen, fname, bk != NULL ? bk : bo,
			    "a block's \"buckets\" is not [index, count, ...]");
		b->n = (uint64_t)n;
		b->min = min;
		b->max = max;
		b->nb = bk->n / 2;
		if (b->nb > 0 && ((b->idx = calloc(b->nb, sizeof(*b->idx))) ==
		    NULL || (b->cnt = calloc(b->nb, sizeof(*b->cnt))) == NULL))
			return where(err, errlen, fname, bk, "out of memory");
		sum = 0;
		for (j = 0; j < b->nb; j++) {
			x = bk->items[2 * j];
			c = bk->items[2 * j + 1];
			if (x->type != JSON_NUMBER || !x->isint || x->ival < 0 ||
			    (uint64_t)x->ival > nbk ||
			    (j > 0 && (uint64_t)x->ival <= b->idx[j - 1]))
				return where(err, errlen, fname, x, "a block's "
				    "bucket index is not ascending within "
				    "0..%zu", nbk);
			if (c->type != JSON_NUMBER || !c->isint || c->ival <= 0)
				return where(err, errlen, fname, c, "a block's "
				    "bucket count is not a positive integer");
			b->idx[j] = (uint32_t)x->ival;
			b->cnt[j] = (uint64_t)c->ival;
			if (__builtin_add_overflow(sum, b->cnt[j], &sum))
				return where(err, errlen, fname, c, "bucket "
				    "counts overflow");
		}
		if (sum != b->n)
			return where(err, errlen, fname, bo, "a block's counts "
			    "add up to %llu, but its \"samples\" is %llu",
			    (unsigned long long)sum, (unsigned long long)b->n);
		if (__builtin_add_overflow(total, b->n, &total))
			return where(err, errlen, fname, bo, "block samples "
			    "overflow");
	}
	if (total != samples)
		return where(err, errlen, fname, o, "the blocks hold %llu "
		    "samples, but the series %llu", (unsigned long long)total,
		    (unsigned long long)samples);
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

/* The side's series called name, added (empty) when new; NULL: full. */
static struct cmp_series *
side_series(struct cmp_side *side, const char *name)
{
	struct cmp_series *s;
	size_t i;

	for (i = 0; i < side->nseries; i++)
		if (strcmp(side->series[i].name, name) == 0)
			return &side->series[i];
	if (side->nseries == CMP_MAX_SERIES)
		return NULL;
	s = &side->series[side->nseries];
	memset(s, 0, sizeof(*s));
	if ((s->name = strdup(name)) == NULL)
		return NULL;
	side->nseries++;
	return s;
}

static int	 summarize(struct cmp_run *, const struct stats *,
		    const struct sblocks *, uint64_t);

/*
 * One run: every known series of o (the run object of schema 2, or the
 * top level of schema 1) summed up and appended to the side's series.
 */
/*
 * One series of one run, summed up and appended to the side's series of
 * that name; k seeds its bootstrap.
 */
static int
load_series(struct cmp_side *side, const char *fname, const struct json *ser,
    const char *name, size_t k, int with_blocks, char *err, size_t errlen)
{
	const struct json *bo;
	struct cmp_series *s;
	struct cmp_run *nr, run;
	struct stats st;
	struct sblocks sb;
	int r;

	memset(&st, 0, sizeof(st));
	memset(&sb, 0, sizeof(sb));
	r = load_stats(&st, fname, ser, name, err, errlen);
	bo = r == 0 ? json_get(ser, "blocks") : NULL;
	if (r == 0 && with_blocks && bo == NULL)
		r = where(err, errlen, fname, ser, "\"blocks\" is missing");
	if (r == 0 && bo != NULL)
		r = load_blocks(&sb, fname, bo, st.n, err, errlen);
	if (r == 0 && summarize(&run, &st, bo != NULL ? &sb : NULL,
	    BOOT_SEED ^ (side->nruns * 0x9e3779b97f4a7c15ULL) ^ k) == -1)
		r = where(err, errlen, fname, ser, "out of memory");
	stats_free(&st);
	sblocks_free(&sb);
	if (r == -1)
		return -1;
	if ((s = side_series(side, name)) == NULL && side->nseries ==
	    CMP_MAX_SERIES)
		return where(err, errlen, fname, ser, "more than %d series "
		    "(classes)", CMP_MAX_SERIES);
	if (s == NULL)
		return where(err, errlen, fname, ser, "out of memory");
	nr = realloc(s->runs, (s->nruns + 1) * sizeof(*nr));
	if (nr == NULL)
		return where(err, errlen, fname, ser, "out of memory");
	s->runs = nr;
	s->runs[s->nruns++] = run;
	if (k == 0)
		side->nsamples += run.n;
	return 0;
}

/*
 * One run: every known series of o (the run object of schema 2, or the
 * top level of schema 1) summed up and appended to the side's series,
 * then each class's series (schema 2: "classes", [{"name", "latency"}]),
 * named by the class.
 */
static int
load_run(struct cmp_side *side, const char *fname, const struct json *o,
    int with_blocks, char *err, size_t errlen)
{
	const struct json *ser, *cls, *c, *nm;
	size_t i, k;

	if (o->type != JSON_OBJECT)
		return where(err, errlen, fname, o, "a run is not an object");
	if (json_get(o, "latency") == NULL)
		return where(err, errlen, fname, o, "\"latency\" is missing");
	if (side->nruns >= MAX_RUNS)
		return where(err, errlen, fname, o, "more than %d runs in "
		    "side %s", MAX_RUNS, side->name);
	for (i = 0; i < NSERIES_KNOWN; i++) {
		ser = json_get(o, series_names[i]);
		if (ser == NULL || ser->type == JSON_NULL)
			continue;
		if (load_series(side, fname, ser, series_names[i], i,
		    with_blocks, err, errlen) == -1)
			return -1;
	}
	cls = with_blocks ? json_get(o, "classes") : NULL;
	if (cls != NULL && cls->type != JSON_ARRAY)
		return where(err, errlen, fname, cls, "\"classes\" is not an "
		    "array");
	for (i = 0; cls != NULL && i < cls->n; i++) {
		c = cls->items[i];
		nm = c->type == JSON_OBJECT ? json_get(c, "name") : NULL;
		if (nm == NULL || nm->type != JSON_STRING || *nm->str == '\0')
			return where(err, errlen, fname, c, "a class has no "
			    "\"name\"");
		for (k = 0; k < NSERIES_KNOWN; k++)
			if (strcmp(nm->str, series_names[k]) == 0)
				return where(err, errlen, fname, nm, "a class "
				    "is named %s", nm->str);
		if ((ser = json_get(c, "latency")) == NULL)
			return where(err, errlen, fname, c, "class %s: "
			    "\"latency\" is missing", nm->str);
		if (load_series(side, fname, ser, nm->str, NSERIES_KNOWN + i,
		    with_blocks, err, errlen) == -1)
			return -1;
	}
	side->nruns++;
	return 0;
}

static int
load_tree(struct cmp_side *side, const char *fname, const struct json *root,
    char *err, size_t errlen)
{
	const struct json *v, *obj, *runs;
	struct cmp_info info;
	size_t i, k;
	int ret = -1, version;

	memset(&info, 0, sizeof(info));
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
	if (v->type != JSON_NUMBER || !v->isint ||
	    (v->ival != 1 && v->ival != 2))
		return where(err, errlen, fname, v, "schema_version is %s, "
		    "this latt reads versions 1 and 2",
		    v->type == JSON_NUMBER ? "another" : "not a number");
	version = (int)v->ival;
	runs = NULL;
	if (version == 2) {
		runs = json_get(root, "runs");
		if (runs == NULL || runs->type != JSON_ARRAY || runs->n == 0)
			return where(err, errlen, fname, runs != NULL ? runs :
			    root, "\"runs\" is %s", runs == NULL ? "missing" :
			    "not an array of one run or more");
	} else if (json_get(root, "latency") == NULL)
		return where(err, errlen, fname, root, "\"latency\" is "
		    "missing");

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

	/* A run the machine changed under (a clocksource, a governor). */
	if ((obj = json_get(root, "environment")) != NULL &&
	    obj->type == JSON_OBJECT &&
	    (v = json_get(obj, "changed_during_run")) != NULL &&
	    v->type == JSON_OBJECT && v->n > 0) {
		char *t = json_text(v, 1);

		if (t == NULL || add_note(side, "%s: the machine changed during "
		    "the run of %s: %s", side->name, fname, t) == -1) {
			free(t);
			goto oom;
		}
		free(t);
	}

	if (version == 1) {
		if (load_run(side, fname, root, 0, err, errlen) == -1)
			goto out;
	} else
		for (i = 0; i < runs->n; i++)
			if (load_run(side, fname, runs->items[i], 1, err,
			    errlen) == -1)
				goto out;

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
	for (i = 0; i < side->nseries; i++) {
		free(side->series[i].name);
		free(side->series[i].runs);
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

/* ---- a run summed up ---- */

/* splitmix64: small, fast, and good enough for resampling. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Samples a run needs for statistic k to mean anything. */
static uint64_t
run_need(enum stat_kind k)
{
	double q = stats_kind_q(k);

	if (q > 0)
		return (uint64_t)ceil(CMP_MIN_TAIL / (1 - q) - 1e-6);
	return CMP_MIN_TAIL;
}

static int
cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
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

/*
 * The within-run variances: a moving-block bootstrap (Kuensch 1989) over
 * the run's K non-empty blocks.  A replicate strings together windows of
 * L = round(cbrt(K)) consecutive blocks, each window starting at random,
 * until it has K blocks; its statistics come from the summed block
 * histograms (bucket midpoints, clamped to the chosen blocks' extremes).
 * wvar[k] is the variance of log(statistic) over NREPS replicates.
 */
static int
within_run(struct cmp_run *r, const struct sblocks *sb, uint64_t seed)
{
	const struct sblock **blk = NULL;
	struct hist shape;
	uint32_t *all = NULL, *pos = NULL;
	size_t *first = NULL;
	uint64_t *tot = NULL, n, state = seed;
	double *vals = NULL, out[STAT_NKINDS], mean[STAT_NKINDS],
	    m2[STAT_NKINDS], x, d, mn, mx, bmax = 0;
	size_t K = 0, L, nu = 0, total = 0, i, j, m, u, rep, chosen, start;
	size_t nrep[STAT_NKINDS];
	int k, ret = -1;

	memset(&shape, 0, sizeof(shape));
	for (i = 0; i < sb->n; i++)
		if (sb->b[i].n > 0) {
			K++;
			total += sb->b[i].nb;
		}
	r->nblocks = K;
	if (K < 2)
		return 0;
	if ((blk = calloc(K, sizeof(*blk))) == NULL ||
	    (all = calloc(total, sizeof(*all))) == NULL ||
	    hist_init(&shape, sb->sub_bits) == -1)
		goto out;
	/* The distinct buckets of the run, ascending. */
	for (i = 0, j = 0, u = 0; i < sb->n; i++) {
		if (sb->b[i].n == 0)
			continue;
		blk[j++] = &sb->b[i];
		memcpy(all + u, sb->b[i].idx, sb->b[i].nb * sizeof(*all));
		u += sb->b[i].nb;
		if ((double)sb->b[i].max > bmax)
			bmax = (double)sb->b[i].max;
	}
	qsort(all, total, sizeof(*all), cmp_u32);
	for (i = 0; i < total; i++)
		if (nu == 0 || all[i] != all[nu - 1])
			all[nu++] = all[i];
	if ((vals = calloc(nu, sizeof(*vals))) == NULL ||
	    (pos = calloc(total + 1, sizeof(*pos))) == NULL ||
	    (first = calloc(K + 1, sizeof(*first))) == NULL ||
	    (tot = calloc(nu, sizeof(*tot))) == NULL)
		goto out;
	for (u = 0; u < nu; u++)
		vals[u] = all[u] >= shape.nbuckets ? bmax :
		    (double)hist_mid(&shape, all[u]);
	/*
	 * Where each block's buckets stand among the distinct ones (both
	 * ascending): block i's are pos[first[i] .. first[i + 1]), so that
	 * a replicate costs the chosen blocks' buckets, not blocks times
	 * buckets.
	 */
	for (i = 0, j = 0; i < K; i++) {
		first[i] = j;
		for (m = 0, u = 0; m < blk[i]->nb; m++) {
			while (all[u] != blk[i]->idx[m])
				u++;
			pos[j++] = (uint32_t)u;
		}
	}
	first[K] = j;
	L = (size_t)lround(cbrt((double)K));
	if (L < 1)
		L = 1;
	memset(mean, 0, sizeof(mean));
	memset(m2, 0, sizeof(m2));
	memset(nrep, 0, sizeof(nrep));
	for (rep = 0; rep < NREPS; rep++) {
		memset(tot, 0, nu * sizeof(*tot));
		n = 0;
		mn = INFINITY;
		mx = -INFINITY;
		for (chosen = 0; chosen < K;) {
			start = (size_t)(rng_next(&state) % (K - L + 1));
			for (j = start; j < start + L && chosen < K; j++) {
				for (m = first[j]; m < first[j + 1]; m++)
					tot[pos[m]] += blk[j]->cnt[m -
					    first[j]];
				n += blk[j]->n;
				if ((double)blk[j]->min < mn)
					mn = (double)blk[j]->min;
				if ((double)blk[j]->max > mx)
					mx = (double)blk[j]->max;
				chosen++;
			}
		}
		replicate_stats(vals, tot, nu, n, mn, mx, out);
		for (k = 0; k < STAT_NKINDS; k++) {
			if (isnan(r->val[k]))
				continue;
			x = log(out[k] > 1 ? out[k] : 1);
			d = x - mean[k];
			mean[k] += d / (double)++nrep[k];
			m2[k] += d * (x - mean[k]);
		}
	}
	for (k = 0; k < STAT_NKINDS; k++)
		if (nrep[k] > 1)
			r->wvar[k] = m2[k] / (double)(nrep[k] - 1);
	ret = 0;
out:
	hist_free(&shape);
	free(blk);
	free(all);
	free(vals);
	free(pos);
	free(first);
	free(tot);
	return ret;
}

/*
 * Sums up a run's series: the value of every statistic the run has the
 * samples for, and (with blocks) the within-run variances, to which the
 * run histogram's own rounding is added for the percentiles.
 */
static int
summarize(struct cmp_run *r, const struct stats *st, const struct sblocks *sb,
    uint64_t seed)
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
		r->val[k] = v > 1 ? v : 1;
	}
	if (sb == NULL || within_run(r, sb, seed) == -1)
		return sb == NULL ? 0 : -1;
	w = ldexp(1, -(int)st->hist.sub_bits);
	for (k = STAT_P50; k <= STAT_P9999; k++)
		if (!isnan(r->wvar[k]))
			r->wvar[k] += w * w / 12;
	return 0;
}

int
cmp_run_make(struct cmp_run *r, const struct stats *st,
    const struct blocks *bl, uint64_t seed)
{
	struct sblocks sb;
	struct sblock *b;
	size_t i, j, m;
	int ret = -1;

	if (bl == NULL)
		return summarize(r, st, NULL, seed);
	memset(&sb, 0, sizeof(sb));
	sb.sub_bits = bl->b[0].hist.sub_bits;
	sb.n = bl->nused;
	if (sb.n > 0 && (sb.b = calloc(sb.n, sizeof(*sb.b))) == NULL)
		return -1;
	for (i = 0; i < sb.n; i++) {
		const struct block *d = &bl->b[i];

		b = &sb.b[i];
		b->n = d->n;
		b->min = d->min;
		b->max = d->max;
		for (j = 0, m = 0; j < d->hist.nbuckets; j++)
			m += d->hist.counts[j] > 0;
		m += d->hist.overflow > 0;
		if (m == 0)
			continue;
		if ((b->idx = calloc(m, sizeof(*b->idx))) == NULL ||
		    (b->cnt = calloc(m, sizeof(*b->cnt))) == NULL)
			goto out;
		for (j = 0; j < d->hist.nbuckets; j++)
			if (d->hist.counts[j] > 0) {
				b->idx[b->nb] = (uint32_t)j;
				b->cnt[b->nb++] = d->hist.counts[j];
			}
		if (d->hist.overflow > 0) {
			b->idx[b->nb] = (uint32_t)d->hist.nbuckets;
			b->cnt[b->nb++] = d->hist.overflow;
		}
	}
	ret = summarize(r, st, &sb, seed);
out:
	sblocks_free(&sb);
	return ret;
}

/* ---- the test ---- */

/* The continued fraction of the incomplete beta function (Lentz). */
static double
beta_cf(double a, double b, double x)
{
	double c = 1, d, h, aa, del, tiny = 1e-300;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
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
 * Why a side cannot take part in a row's test, into reason; 0 when it
 * can.  v is the side's variance of log(value) between its runs, floored
 * by the mean within-run variance.
 */
static int
side_check(const char *name, const struct cmp_run *r, size_t nr,
    enum stat_kind k, char *reason, size_t len, double *mean, double *v)
{
	double s = 0, ss = 0, w = 0, d;
	size_t i;

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
			snprintf(reason, len, "%s's runs keep no blocks (schema "
			    "1 files)", name);
			return -1;
		}
		if (r[i].nblocks < CMP_MIN_BLOCKS || isnan(r[i].wvar[k])) {
			snprintf(reason, len, "a run of %s has %zu blocks, a "
			    "verdict needs %d", name, r[i].nblocks,
			    CMP_MIN_BLOCKS);
			return -1;
		}
	}
	for (i = 0; i < nr; i++) {
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

/* The geometric mean of the runs' values of k, NAN when one lacks it. */
static double
geomean(const struct cmp_run *r, size_t nr, enum stat_kind k)
{
	double s = 0;
	size_t i;

	if (nr == 0)
		return NAN;
	for (i = 0; i < nr; i++) {
		if (isnan(r[i].val[k]))
			return NAN;
		s += log(r[i].val[k]);
	}
	return exp(s / (double)nr);
}

/*
 * Welch's t test on log(value), run against run: the interval of the
 * ratio of the sides' geometric means at CMP_LEVEL, and the verdict.
 */
void
cmp_test(const struct cmp_run *a, size_t na, const struct cmp_run *b,
    size_t nb, enum stat_kind k, struct cmp_row *row)
{
	double ma, mb, va, vb, ea, eb, se, df, t, d;

	memset(row, 0, sizeof(*row));
	row->stat = k;
	row->limit = -1;
	row->a = geomean(a, na, k);
	row->b = geomean(b, nb, k);
	row->change = isnan(row->a) || isnan(row->b) ? NAN :
	    (row->b / row->a - 1) * 100;
	row->verdict = CMP_INCONCLUSIVE;
	if (side_check("A", a, na, k, row->reason, sizeof(row->reason), &ma,
	    &va) == -1 || side_check("B", b, nb, k, row->reason,
	    sizeof(row->reason), &mb, &vb) == -1)
		return;
	ea = va / (double)na;
	eb = vb / (double)nb;
	se = sqrt(ea + eb);
	if (!(se > 0))
		se = 1e-9;
	df = (ea + eb) * (ea + eb) / (ea * ea / (double)(na - 1) +
	    eb * eb / (double)(nb - 1) + 1e-300);
	t = t_upper((1 - CMP_LEVEL) / 2, df);
	d = mb - ma;
	row->change = expm1(d) * 100;
	row->lo = expm1(d - t * se) * 100;
	row->hi = expm1(d + t * se) * 100;
	row->has_ci = 1;
	if (row->lo > 0 || row->hi < 0) {
		row->verdict = CMP_REAL;
		row->worse = row->lo > 0;
	} else
		row->verdict = CMP_NOISE;
}

/* ---- the table ---- */

static const char *const verdict_names[] = {
	"real difference", "noise", "inconclusive"
};

/* A series of the side in every one of its runs, or NULL. */
static const struct cmp_series *
full_series(const struct cmp_side *side, const char *name)
{
	size_t i;

	for (i = 0; i < side->nseries; i++)
		if (strcmp(side->series[i].name, name) == 0)
			return side->series[i].nruns == side->nruns ?
			    &side->series[i] : NULL;
	return NULL;
}

/* The gate's limit on a row, or -1. */
static long long
gate_limit(const struct cmp_gate *g, const char *series, enum stat_kind k)
{
	size_t i;

	for (i = 0; g != NULL && i < g->n; i++)
		if (g->item[i].stat == k && strcmp(g->item[i].series,
		    series) == 0)
			return g->item[i].limit;
	return -1;
}

/*
 * The rows of a against b: for each series both sides have in every run,
 * the default statistics and those the gate names.  Returns the number of
 * rows (into *rows, to be freed), or -1 on ENOMEM.
 */
static ssize_t
build_rows(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate, struct cmp_row **rows)
{
	const struct cmp_series *sa, *sb;
	struct cmp_row *out, *nr;
	size_t n = 0, i;
	long long lim;
	int k;

	out = NULL;
	for (i = 0; i < a->nseries; i++) {
		sa = full_series(a, a->series[i].name);
		sb = full_series(b, a->series[i].name);
		if (sa == NULL || sb == NULL)
			continue;
		for (k = 0; k < STAT_NKINDS; k++) {
			lim = gate_limit(gate, sa->name, (enum stat_kind)k);
			if (!default_row[k] && lim < 0)
				continue;
			if ((nr = realloc(out, (n + 1) * sizeof(*nr))) == NULL) {
				free(out);
				return -1;
			}
			out = nr;
			cmp_test(sa->runs, sa->nruns, sb->runs, sb->nruns,
			    (enum stat_kind)k, &out[n]);
			out[n].series = sa->name;
			out[n].limit = lim;
			out[n].failed = lim >= 0 &&
			    out[n].verdict == CMP_REAL && out[n].worse &&
			    out[n].change > (double)lim;
			n++;
		}
	}
	*rows = out;
	return (ssize_t)n;
}

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

/*
 * The warnings of a against b, one string each: differences within a
 * side, every setting that differs between the sides, and a side too
 * small for verdicts.  Returns how many (into *out), or -1 on ENOMEM.
 */
static ssize_t
warnings(const struct cmp_side *a, const struct cmp_side *b, char ***out)
{
	const struct cmp_side *sides[2] = { a, b }, *sd;
	const struct cmp_series *se;
	char **w = NULL, **nw, *s;
	size_t n = 0, i, k;
	const char *x, *y;
	int r;

	for (i = 0; i < 2 + a->nnotes + b->nnotes + NINFO + 2 *
	    CMP_MAX_SERIES; i++) {
		s = NULL;
		r = 0;
		if (i >= 2 + a->nnotes + b->nnotes + NINFO) {
			k = i - 2 - a->nnotes - b->nnotes - NINFO;
			sd = sides[k / CMP_MAX_SERIES];
			if (k % CMP_MAX_SERIES >= sd->nseries)
				continue;
			se = &sd->series[k % CMP_MAX_SERIES];
			if (se->nruns != sd->nruns)
				r = asprintf(&s, "%s: %zu of %zu runs have a %s "
				    "series: its rows are left out", sd->name,
				    se->nruns, sd->nruns, se->name);
		} else if (i < 2) {
			k = i;
			if (sides[k]->nruns < CMP_MIN_RUNS)
				r = asprintf(&s, "%s has %zu run%s: verdicts "
				    "need %d a side (several files, or "
				    "--repeat=N)", sides[k]->name,
				    sides[k]->nruns, sides[k]->nruns == 1 ?
				    "" : "s", CMP_MIN_RUNS);
		} else if (i < 2 + a->nnotes) {
			r = asprintf(&s, "%s", a->notes[i - 2]);
		} else if (i < 2 + a->nnotes + b->nnotes) {
			r = asprintf(&s, "%s", b->notes[i - 2 - a->nnotes]);
		} else if (i < 2 + a->nnotes + b->nnotes + NINFO) {
			k = i - 2 - a->nnotes - b->nnotes;
			if (!info_keys[k].warn)
				continue;
			x = info_of(a, k);
			y = info_of(b, k);
			if (strcmp(x, y) != 0)
				r = asprintf(&s, "%s differs: %s %s, %s %s",
				    info_keys[k].key, a->name, x, b->name, y);
		}
		if (r < 0)
			goto oom;
		if (s == NULL)
			continue;
		if ((nw = realloc(w, (n + 1) * sizeof(*nw))) == NULL) {
			free(s);
			goto oom;
		}
		w = nw;
		w[n++] = s;
	}
	*out = w;
	return (ssize_t)n;
oom:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return -1;
}

static void
free_strings(char **s, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

static void
row_label(char *buf, size_t len, const struct cmp_row *rw, const char *sep)
{
	/*
	 * The split's series, shortened in the table to keep its columns
	 * (the gate's "series.stat" names keep the full name).
	 */
	const char *name = strcmp(sep, " ") != 0 ? rw->series :
	    strcmp(rw->series, "runqueue") == 0 ? "rq" :
	    strcmp(rw->series, "wake_path") == 0 ? "wake" : rw->series;

	if (strcmp(rw->series, "latency") == 0)
		snprintf(buf, len, "%s", stats_kind_name(rw->stat));
	else
		snprintf(buf, len, "%s%s%s", name, sep,
		    stats_kind_name(rw->stat));
}

static void
print_value(FILE *fp, double ns)
{
	if (isnan(ns))
		fprintf(fp, " %12s", "-");
	else
		fprintf(fp, " %12.3f", ns / NSEC_PER_USEC);
}

static void
print_row(FILE *fp, const struct cmp_row *rw, int width)
{
	char ci[48], label[48];

	row_label(label, sizeof(label), rw, " ");
	fprintf(fp, "%-*s", width, label);
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
	fprintf(fp, "  %-22s %s", ci, verdict_names[rw->verdict]);
	if (rw->verdict == CMP_INCONCLUSIVE)
		fprintf(fp, ": %s", rw->reason);
	fputc('\n', fp);
}

/* Whether gate item i names a series not in every run of both sides. */
static int
gate_missing(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *g, size_t i)
{
	return full_series(a, g->item[i].series) == NULL ||
	    full_series(b, g->item[i].series) == NULL;
}

int
cmp_report(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	const struct cmp_side *sides[2] = { a, b };
	struct cmp_row *rows;
	char **warn, label[48];
	ssize_t nrows, nwarn, i;
	size_t rel = info_index("kernel_release"),
	    ver = info_index("kernel_version"), j;
	int failed = 0, width = 12;

	if ((nwarn = warnings(a, b, &warn)) == -1)
		return -1;
	if ((nrows = build_rows(a, b, gate, &rows)) == -1) {
		free_strings(warn, nwarn);
		return -1;
	}
	for (j = 0; j < 2; j++)
		fprintf(fp, "%s: %s (%zu run%s, %llu samples)\n",
		    sides[j]->name, sides[j]->label != NULL ?
		    sides[j]->label : "?", sides[j]->nruns,
		    sides[j]->nruns == 1 ? "" : "s",
		    (unsigned long long)sides[j]->nsamples);
	for (j = 0; j < 2; j++)
		fprintf(fp, "kernel %s: %s %s\n", sides[j]->name,
		    info_of(sides[j], rel), info_of(sides[j], ver));
	for (i = 0; i < nwarn; i++)
		fprintf(fp, "warning: %s\n", warn[i]);
	/* The label column: 12, or wider for a class's rows. */
	for (i = 0; i < nrows; i++) {
		row_label(label, sizeof(label), &rows[i], " ");
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	fprintf(fp, "\n%-*s %12s %12s %9s  %-22s %s\n", width, "us", a->name,
	    b->name, "change", "99% CI of change", "verdict");
	for (i = 0; i < nrows; i++)
		print_row(fp, &rows[i], width);
	for (i = 0; i < nrows; i++) {
		if (rows[i].limit < 0)
			continue;
		row_label(label, sizeof(label), &rows[i], ".");
		if (rows[i].verdict == CMP_INCONCLUSIVE)
			fprintf(fp, "gate: %s: not applied: inconclusive (%s)\n",
			    label, rows[i].reason);
		else if (rows[i].failed) {
			fprintf(fp, "gate: %s: %s is %+.1f%% worse than %s "
			    "(limit %lld%%): FAIL\n", label, b->name,
			    rows[i].change, a->name, rows[i].limit);
			failed = 1;
		}
	}
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (gate_missing(a, b, gate, j))
			fprintf(fp, "gate: %s.%s: not applied: no %s series "
			    "in every run of both sides\n",
			    gate->item[j].series,
			    stats_kind_name(gate->item[j].stat),
			    gate->item[j].series);
	free(rows);
	free_strings(warn, nwarn);
	return failed;
}

/* ---- compare --json ---- */

/* Writes s as a JSON string, every invalid UTF-8 byte as U+FFFD. */
static void
put_jstr(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', fp);
	for (; *s != '\0'; s += n) {
		n = 1;
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(fp, "\\u%04x", *s);
		else if ((n = json_utf8_len(s)) == 0) {
			fputs("\\ufffd", fp);
			n = 1;
		} else
			fwrite(s, 1, n, fp);
	}
	fputc('"', fp);
}

static void
put_jnum(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.10g", v);
	else
		fputs("null", fp);
}

/* One comparison, a against b, as a JSON object; like cmp_report. */
static int
report_json(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	struct cmp_row *rows, *rw;
	char **warn, label[48];
	ssize_t nrows, nwarn, i;
	size_t j;
	int failed = 0, first = 1;

	if ((nwarn = warnings(a, b, &warn)) == -1)
		return -1;
	if ((nrows = build_rows(a, b, gate, &rows)) == -1) {
		free_strings(warn, nwarn);
		return -1;
	}
	fputs("{\"a\": ", fp);
	put_jstr(fp, a->name);
	fputs(", \"b\": ", fp);
	put_jstr(fp, b->name);
	fputs(", \"warnings\": [", fp);
	for (i = 0; i < nwarn; i++) {
		fputs(i > 0 ? ", " : "", fp);
		put_jstr(fp, warn[i]);
	}
	fputs("],\n    \"rows\": [", fp);
	for (i = 0; i < nrows; i++) {
		rw = &rows[i];
		row_label(label, sizeof(label), rw, ".");
		fprintf(fp, "%s\n      {\"row\": ", i > 0 ? "," : "");
		put_jstr(fp, label);
		fputs(", \"series\": ", fp);
		put_jstr(fp, rw->series);
		fprintf(fp, ", \"stat\": \"%s\", \"a_ns\": ",
		    stats_kind_name(rw->stat));
		put_jnum(fp, rw->a);
		fputs(", \"b_ns\": ", fp);
		put_jnum(fp, rw->b);
		fputs(", \"change_pct\": ", fp);
		put_jnum(fp, rw->change);
		fputs(", \"ci_pct\": ", fp);
		if (rw->has_ci) {
			fputc('[', fp);
			put_jnum(fp, rw->lo);
			fputs(", ", fp);
			put_jnum(fp, rw->hi);
			fputc(']', fp);
		} else
			fputs("null", fp);
		fprintf(fp, ", \"verdict\": \"%s\", \"reason\": ",
		    rw->verdict == CMP_REAL ? "real" : rw->verdict ==
		    CMP_NOISE ? "noise" : "inconclusive");
		if (rw->verdict == CMP_INCONCLUSIVE)
			put_jstr(fp, rw->reason);
		else
			fputs("null", fp);
		fprintf(fp, ", \"worse\": %s, \"limit_pct\": ",
		    rw->worse ? "true" : "false");
		if (rw->limit >= 0)
			fprintf(fp, "%lld, \"gate\": \"%s\"}", rw->limit,
			    rw->verdict == CMP_INCONCLUSIVE ? "not applied" :
			    rw->failed ? "fail" : "pass");
		else
			fputs("null, \"gate\": null}", fp);
		failed |= rw->failed;
	}
	fputs(nrows > 0 ? "\n    ],\n    \"gate_not_applied\": [" :
	    "],\n    \"gate_not_applied\": [", fp);
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (gate_missing(a, b, gate, j)) {
			snprintf(label, sizeof(label), "%s.%s",
			    gate->item[j].series,
			    stats_kind_name(gate->item[j].stat));
			fputs(first ? "" : ", ", fp);
			put_jstr(fp, label);
			first = 0;
		}
	fprintf(fp, "],\n    \"gate_failed\": %s}", failed ? "true" :
	    "false");
	free(rows);
	free_strings(warn, nwarn);
	return failed;
}

/* ---- the subcommand ---- */

#define COMPARE_SYNOPSIS \
	"usage: latt compare [-h] [--json] [--fail-if-worse=SPEC] " \
	"A.json[,A2.json...] B.json[,B2.json...] [C.json ...]\n"

static void
compare_usage(void)
{
	fputs(COMPARE_SYNOPSIS, stdout);
	fputs(
"\n"
"Compares latt results (written by --json): each argument is one side, the\n"
"runs of its files (--repeat=N writes N runs into one file; several files\n"
"join with commas).  Every side after the first is compared with the first.\n"
"The run is the unit of evidence: for mean, p50, p90, p95, p99, p99.9 and\n"
"max (and the timer series) it prints the geometric mean of the runs' values\n"
"on each side, the change, a 99% interval of the change (Welch's t on the\n"
"logarithms, each run's within-run noise from its blocks as a floor) and a\n"
"verdict: real difference, noise, or inconclusive with the reason.  A\n"
"verdict needs 3 runs a side; 5 a side find a 20% change in a typical row.\n"
"Options may stand anywhere.\n"
"\n"
"  --fail-if-worse=SPEC  exit 3 when a later side is worse than A by more\n"
"                        than a limit and the difference is real (never on\n"
"                        an inconclusive row: a gate needs 3 runs a side,\n"
"                        better 5); SPEC is STAT=N%[,STAT=N%...], STAT one\n"
"                        of min, mean, stdev, p50, p90, p95, p99, p99.9,\n"
"                        p99.99, max, or SERIES.STAT for the series timer,\n"
"                        runqueue or wake_path (rq and wake in the table)\n"
"                        (CLASS.STAT for a class of clients: runs with\n"
"                        -c N:ATTR classes get rows per class, each\n"
"                        against its namesake)\n""      --json            write the table, intervals and verdicts as JSON\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 compared, 2 usage or unreadable file, 3 the gate failed.\n"
"\n"
"Example: latt --repeat=5 --json=old.json ...; (new kernel) latt --repeat=5\n"
"         --json=new.json ...; latt compare old.json new.json\n", stdout);
	exit(EXIT_OK);
}

void
cmp_gate_parse(struct cmp_gate *g, const char *spec)
{
	char *copy, *part, *save = NULL, *eq, *name, *pct, *dot, what[64];
	char orig[64];
	const char *series;
	size_t i, len;
	int k;

	memset(g, 0, sizeof(*g));
	if (*spec == '\0')
		usage_error("fail-if-worse is empty");
	len = strlen(spec);
	if (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))
		usage_error("fail-if-worse has an empty part: %s", spec);
	if ((copy = strdup(spec)) == NULL)
		usage_error("fail-if-worse: %s", strerror(errno));
	for (part = strtok_r(copy, ",", &save); part != NULL;
	    part = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(part, '=')) == NULL)
			usage_error("fail-if-worse: %s is not STAT=N%%",
			    part);
		*eq = '\0';
		snprintf(orig, sizeof(orig), "%s", part);
		name = part;
		series = "latency";
		if ((k = stats_kind_find(name)) == -1 &&
		    (dot = strchr(name, '.')) != NULL &&
		    (size_t)(dot - name) < sizeof(g->item[0].series) &&
		    dot != name) {
			*dot = '\0';
			series = name;
			k = stats_kind_find(dot + 1);
		}
		if (k == -1)
			usage_error("fail-if-worse: unknown statistic in "
			    "%s=%s (known: min, mean, stdev, p50, p90, p95, "
			    "p99, p99.9, p99.99, max, or SERIES.STAT)", orig,
			    eq + 1);
		for (i = 0; i < g->n; i++)
			if ((int)g->item[i].stat == k &&
			    strcmp(g->item[i].series, series) == 0)
				usage_error("fail-if-worse: %s=%s: %s is "
				    "given twice", orig, eq + 1, orig);
		if (g->n == CMP_MAX_GATE)
			usage_error("fail-if-worse: more than %d limits",
			    CMP_MAX_GATE);
		pct = eq + 1;
		len = strlen(pct);
		if (len == 0 || pct[len - 1] != '%')
			usage_error("fail-if-worse: %s=%s: the limit needs a "
			    "%% sign (for example p99=10%%)", orig, pct);
		pct[len - 1] = '\0';
		snprintf(what, sizeof(what), "fail-if-worse %s",
		    stats_kind_name((enum stat_kind)k));
		snprintf(g->item[g->n].series, sizeof(g->item[0].series),
		    "%s", series);
		g->item[g->n].stat = (enum stat_kind)k;
		g->item[g->n].limit = parse_num(what, pct, 0, 100000);
		g->n++;
	}
	free(copy);
}

static const struct option compare_longopts[] = {
	{ "fail-if-worse",	required_argument,	NULL,	'F' },
	{ "json",		no_argument,		NULL,	'j' },
	{ "help",		no_argument,		NULL,	'h' },
	{ NULL,			0,			NULL,	0 }
};

/*
 * Loads one side given as FILE[,FILE...]: the runs of one kernel.  A file
 * that cannot be read or is not latt's is a usage error: one line naming
 * the file and the place, and latt exits 2.
 */
void
cmp_side_load(struct cmp_side *side, const char *arg)
{
	char err[512], *copy, *f, *save = NULL;
	size_t len = strlen(arg);

	if (len == 0 || arg[0] == ',' || arg[len - 1] == ',' ||
	    strstr(arg, ",,") != NULL)
		usage_error("compare: empty file name in side %s: '%s'",
		    side->name, arg);
	if ((side->label = strdup(arg)) == NULL ||
	    (copy = strdup(arg)) == NULL)
		usage_error("compare: %s", strerror(errno));
	for (f = strtok_r(copy, ",", &save); f != NULL;
	    f = strtok_r(NULL, ",", &save))
		if (cmp_side_add_file(side, f, err, sizeof(err)) == -1)
			usage_error("%s", err);
	free(copy);
}

int
compare_main(int argc, char *argv[])
{
	struct cmp_side *sides;
	struct cmp_gate gate;
	int ch, nsides, i, failed = 0, r = 0, have_gate = 0, json = 0;
	char name[4];

	memset(&gate, 0, sizeof(gate));
	opterr = 0;
	optind = 1;
	/* No '+': options may follow the files (GNU getopt permutes). */
	while ((ch = getopt_long(argc, argv, ":h", compare_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'F':
			cmp_gate_parse(&gate, optarg);
			have_gate = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			compare_usage();
		case ':':
			usage_error("option %s needs a value",
			    argv[optind - 1]);
		default:
			if (optopt != 0)
				usage_error("unknown option: -%c", optopt);
			usage_error("unknown option: %s", argv[optind - 1]);
		}
	}
	nsides = argc - optind;
	if (nsides < 2)
		usage_error("compare needs two sides or more (for example: "
		    "latt compare a.json b.json)");
	if (nsides > MAX_SIDES)
		usage_error("compare takes at most %d sides", MAX_SIDES);
	if ((sides = calloc((size_t)nsides, sizeof(*sides))) == NULL)
		usage_error("compare: %s", strerror(errno));
	for (i = 0; i < nsides; i++) {
		snprintf(name, sizeof(name), "%c", 'A' + i);
		cmp_side_init(&sides[i], name);
		cmp_side_load(&sides[i], argv[optind + i]);
	}
	if (json) {
		printf("{\n  \"tool\": \"latt\",\n  \"compare_version\": 1,\n"
		    "  \"level\": %g,\n  \"sides\": [", CMP_LEVEL);
		for (i = 0; i < nsides; i++) {
			printf("%s\n    {\"name\": \"%s\", \"files\": ",
			    i > 0 ? "," : "", sides[i].name);
			put_jstr(stdout, sides[i].label);
			printf(", \"runs\": %zu, \"samples\": %llu}",
			    sides[i].nruns,
			    (unsigned long long)sides[i].nsamples);
		}
		fputs("\n  ],\n  \"comparisons\": [", stdout);
	}
	for (i = 1; i < nsides && r != -1; i++) {
		if (json) {
			fputs(i > 1 ? ",\n    " : "\n    ", stdout);
			r = report_json(stdout, &sides[0], &sides[i],
			    have_gate ? &gate : NULL);
		} else {
			if (i > 1)
				putchar('\n');
			r = cmp_report(stdout, &sides[0], &sides[i],
			    have_gate ? &gate : NULL);
		}
		if (r == 1)
			failed = 1;
	}
	if (json && r != -1)
		printf("\n  ],\n  \"gate_failed\": %s\n}\n", failed ? "true" :
		    "false");
	for (i = 0; i < nsides; i++)
		cmp_side_free(&sides[i]);
	free(sides);
	if (r == -1) {
		lwarnc(ENOMEM, "compare");
		return EXIT_RUNTIME;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		lwarn("stdout");
		return EXIT_RUNTIME;
	}
	return failed ? EXIT_THRESHOLD : EXIT_OK;
}
