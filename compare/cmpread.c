/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpread.c: reads latt's result files (JSON, schema_version 2 or 1, see
 * docs/json-schema.md) into the sides of latt compare: every run's series,
 * checked strictly and summed up by cmpstat.c (a series' "blocks" is
 * ignored), the settings and environment of the side's first file, and
 * notes on what differs within the side, and what each file and run is
 * known by, so that none counts twice.  It never prints; only
 * cmp_side_load, for the command line, exits.
 *
 * Memory: one file at a time, read whole (cmpfile.c: at most 32 MiB), parsed
 * into a tree of at most 8 bytes a byte of it (jsonread.h); what stays of
 * a run is its summary, a few hundred bytes a series.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/cmp.h"
#include "json/jsonread.h"
#include "lib/common.h"
#include "stats.h"

#define MAX_RUNS	10000		/* runs in one side */

/* The series compare knows, in the order of the table. */
static const char *const series_names[] = { "latency", "timer", "runqueue",
    "wake_path" };
#define NSERIES_KNOWN	(sizeof(series_names) / sizeof(series_names[0]))

/*
 * The settings and environment a side keeps (cmp.h): P a parameter, E
 * the environment, V the environment shown but never warned of.
 */
#define P(key, show, what)	{ "parameters", key, 1, what, SHOW_##show }
#define E(key, show, what)	{ "environment", key, 1, what, SHOW_##show }
#define V(key, show, what)	{ "environment", key, 0, what, SHOW_##show }
const struct cmp_info_key cmp_info_keys[] = {
	P("clients", TEXT, "the number of clients differs"),
	P("min_delay_ns", TIME, "the shortest sleep between rounds (-f) "
	    "differs"),
	P("max_delay_ns", TIME, "the longest sleep between rounds (-t) "
	    "differs"),
	P("loop", TEXT, "the loop (--open-loop) differs"),
	P("policy", TEXT, "the clients' policy differs"),
	P("priority", TEXT, "the clients' priority differs"),
	P("nice", TEXT, "the clients' nice value differs"),
	P("cpus", LIST, "the clients' CPUs differ"),
	P("parent_cpu", TEXT, "latt's own CPU differs"),
	P("parent_policy", TEXT, "latt's own policy differs"),
	P("parent_prio", TEXT, "latt's own priority differs"),
	P("mlock", ONOFF, "locked memory (--mlock) differs"),
	P("dma_latency_us", US, "the DMA latency held (--dma-latency) differs"),
	P("work_kb", KB, "the clients' work (-x) differs"),
	P("loads", LOADS, "the loads differ"),
	P("command", TEXT, "the command differs"),
	P("argv", WORDS, "the command's words differ"),
	P("duration_ns", TIME, "the duration (-d) differs"),
	P("samples_limit", TEXT, "the sample limit (-n) differs"),
	P("warmup_ns", TIME, "the warm-up differs"),
	E("timer_slack_ns", TIME, "the workload's timer slack differs"),
	E("kernel_release", TEXT, "the kernel release differs"),
	E("cmdline", TEXT, "the kernel command line differs"),
	E("preemption", TEXT, "the preemption model differs"),
	E("scheduler", TEXT, "the scheduler differs"),
	E("cpufreq_governor", TEXT, "the cpufreq governor differs"),
	E("smt", TEXT, "SMT differs"),
	E("cpu_model", TEXT, "the CPU model differs"),
	E("cpus_online", TEXT, "the number of CPUs online differs"),
	E("virtualization", TEXT, "the virtualization differs"),
	E("machine", TEXT, "the machine's architecture differs"),
	E("hostname", TEXT, "the host differs"),
	E("clocksource", TEXT, "the clock source differs"),
	E("latt_version", TEXT, "latt's version differs"),
	V("kernel_version", TEXT, "the kernel version differs"),
	V("host", HOST, "the host's state differs"),
};
#undef P
#undef E
#undef V
_Static_assert(sizeof(cmp_info_keys) / sizeof(cmp_info_keys[0]) == CMP_NINFO,
    "CMP_NINFO is the length of cmp_info_keys");

/*
 * The text being read: its name for messages, and the text itself, from
 * which json_pos finds a value's line and column.
 */
struct src {
	const char	*name;
	const char	*buf;
	const char	*point;	/* FILE@VALUE: a sweep's value, or NULL */
	char		*err;	/* where a message goes */
	size_t		 errlen;
	const char	*host;	/* environment.hostname, or "" */
	int		 schema2; /* runs in "runs", which may hold classes */
};

static int	 where(const struct src *, const struct json *, const char *,
		    ...) __attribute__((format(printf, 3, 4)));
static int	 noisy_run(struct cmp_side *, const struct src *,
		    const struct json *, size_t, size_t);

/* Writes "FILE:LINE:COL: message" to f's err and returns -1. */
static int
where(const struct src *f, const struct json *v, const char *fmt, ...)
{
	unsigned line, col;
	va_list ap;
	int n;

	json_pos(f->buf, v, &line, &col);
	n = snprintf(f->err, f->errlen, "%s:%u:%u: ", f->name, line, col);
	if (n >= 0 && (size_t)n < f->errlen) {
		va_start(ap, fmt);
		vsnprintf(f->err + n, f->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Fetches member key of o as a non-negative integer (an integer lexeme
 * within int64).  Returns 0, 1 when absent and optional, -1 on error.
 */
static int
get_count(const struct src *f, const struct json *o, const char *key,
    int optional, int64_t *out)
{
	const struct json *v = json_get(o, key);

	if (v == NULL) {
		if (optional)
			return 1;
		return where(f, o, "\"%s\" is missing", key);
	}
	if (v->type != JSON_NUMBER || !v->isint || v->ival < 0)
		return where(f, v, "\"%s\" is not a non-negative integer", key);
	*out = v->ival;
	return 0;
}

/*
 * Fetches member key of o, which must be there and be an object or an
 * array (type); NULL after the message naming what is wrong.
 */
static const struct json *
get_member(const struct src *f, const struct json *o, const char *key,
    enum json_type type)
{
	const struct json *v = json_get(o, key);

	if (v == NULL)
		where(f, o, "\"%s\" is missing", key);
	else if (v->type != type)
		where(f, v, "\"%s\" is not %s", key, type == JSON_OBJECT ?
		    "an object" : "an array");
	else
		return v;
	return NULL;
}

/* Fetches sub_bits of o, between 1 and 12. */
static int
get_sub_bits(const struct src *f, const struct json *o, unsigned *out)
{
	int64_t sub = 0;

	if (get_count(f, o, "sub_bits", 0, &sub))
		return -1;
	if (sub < 1 || sub > 12)
		return where(f, json_get(o, "sub_bits"), "\"sub_bits\" is "
		    "%lld, not between 1 and 12", (long long)sub);
	*out = (unsigned)sub;
	return 0;
}

/* Whether v is [lower_ns, upper_ns, count] in integers, count >= 0. */
static int
is_bucket(const struct json *v)
{
	size_t i;

	if (v->type != JSON_ARRAY || v->n != 3)
		return 0;
	for (i = 0; i < 3; i++)
		if (json_at(v, i)->type != JSON_NUMBER ||
		    !json_at(v, i)->isint)
			return 0;
	return json_at(v, 2)->ival >= 0;
}

/* Reads the histogram h of a series into st's (made by stats_init). */
static int
load_hist(struct stats *st, const struct src *f, const struct json *h,
    uint64_t *sum)
{
	const struct json *bk, *b;
	struct hist *run = &st->hist;
	int64_t lo, hi, cnt;
	size_t i, idx, last = 0;

	if ((bk = get_member(f, h, "buckets", JSON_ARRAY)) == NULL)
		return -1;
	for (i = 0; i < bk->n; i++) {
		b = json_at(bk, i);
		if (!is_bucket(b))
			return where(f, b, "a bucket is not [lower_ns, "
			    "upper_ns, count] in integers");
		lo = json_at(b, 0)->ival;
		hi = json_at(b, 1)->ival;
		cnt = json_at(b, 2)->ival;
		idx = lo < 0 ? run->nbuckets : hist_index(run, lo);
		if (idx >= run->nbuckets || hist_lower(run, idx) != lo ||
		    hist_upper(run, idx) != hi)
			return where(f, b, "bucket [%lld, %lld] is not a "
			    "bucket of a sub_bits %u histogram", (long long)lo,
			    (long long)hi, run->sub_bits);
		if (i > 0 && idx <= last)
			return where(f, b, "buckets are not in ascending "
			    "order");
		last = idx;
		if (__builtin_add_overflow(*sum, (uint64_t)cnt, sum))
			return where(f, b, "bucket counts overflow");
		hist_add_count(run, lo, (uint64_t)cnt);
	}
	return 0;
}

/*
 * Reads a series object (docs/json-schema.md) into st: its count, mean,
 * deviation, extremes and histogram, checked against each other.
 */
static int
load_stats(struct stats *st, const struct src *f, const struct json *o,
    const char *name)
{
	const struct json *h, *mean, *sd;
	int64_t samples, overflow = 0, min, max;
	uint64_t sum;
	unsigned sub = 0;
	double m;

	if (o->type != JSON_OBJECT)
		return where(f, o, "\"%s\" is not an object", name);
	if (get_count(f, o, "samples", 0, &samples) ||
	    get_count(f, o, "overflow", 1, &overflow) == -1 ||
	    get_count(f, o, "min_ns", 0, &min) ||
	    get_count(f, o, "max_ns", 0, &max))
		return -1;
	mean = json_get(o, "mean_ns");
	if (mean == NULL)
		return where(f, o, "\"mean_ns\" is missing");
	if (mean->type != JSON_NUMBER || (m = json_num(mean)) < 0)
		return where(f, mean, "\"mean_ns\" is not a non-negative "
		    "number");
	if (samples > 0 && (min > max || m < (double)min * 0.999 ||
	    m > (double)max * 1.001 + 1))
		return where(f, o, "min_ns, mean_ns and max_ns of \"%s\" are "
		    "out of order", name);
	sd = json_get(o, "stdev_ns");
	if (sd != NULL && sd->type != JSON_NULL &&
	    (sd->type != JSON_NUMBER || json_num(sd) < 0))
		return where(f, sd, "\"stdev_ns\" is not a non-negative "
		    "number");
	if ((h = get_member(f, o, "histogram", JSON_OBJECT)) == NULL)
		return -1;
	if (get_sub_bits(f, h, &sub) == -1)
		return -1;
	if (stats_init(st, sub) == -1)
		return where(f, h, "%s", strerror(errno));
	sum = (uint64_t)overflow;
	if (load_hist(st, f, h, &sum) == -1)
		return -1;
	if (sum != (uint64_t)samples)
		return where(f, o, "the histogram's counts and overflow add up "
		    "to %llu, but \"samples\" is %lld", (unsigned long long)sum,
		    (long long)samples);
	st->hist.overflow = (uint64_t)overflow;
	st->hist.total = sum;
	st->n = (uint64_t)samples;
	st->min = min;
	st->max = max;
	st->mean = m;
	if (sd != NULL && sd->type == JSON_NUMBER && samples > 1)
		st->m2 = json_num(sd) * json_num(sd) * (double)(samples - 1);
	else
		st->m2 = NAN;
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
	if (side->nseries == CMP_MAX_SERIES || (side->series == NULL &&
	    (side->series = calloc(CMP_MAX_SERIES, sizeof(*s))) == NULL))
		return NULL;
	s = &side->series[side->nseries];
	memset(s, 0, sizeof(*s));
	if ((s->name = strdup(name)) == NULL)
		return NULL;
	side->nseries++;
	return s;
}

/*
 * One series of one run, summed up and appended to the side's series of
 * that name; k is 0 for the latency, whose samples the side counts.
 */
static int
load_series(struct cmp_side *side, const struct src *f, const struct json *ser,
    const char *name, size_t k)
{
	struct cmp_series *s;
	struct cmp_run *nr, run;
	struct stats st;
	int r;

	memset(&st, 0, sizeof(st));
	r = load_stats(&st, f, ser, name);
	if (r == 0)
		cmp_summarize(&run, &st);
	stats_free(&st);
	if (r == -1)
		return -1;
	if ((s = side_series(side, name)) == NULL && side->nseries ==
	    CMP_MAX_SERIES)
		return where(f, ser, "more than %d series (classes)",
		    CMP_MAX_SERIES);
	if (s == NULL)
		return where(f, ser, "out of memory");
	nr = realloc(s->runs, (s->nruns + 1) * sizeof(*nr));
	if (nr == NULL)
		return where(f, ser, "out of memory");
	s->runs = nr;
	s->runs[s->nruns++] = run;
	if (k == 0)
		side->nsamples += run.n;
	return 0;
}

/* A run's start for a message: "2026-12-01 18:10:09.855". */
static void
format_start(char *buf, size_t len, int64_t ns)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%lld s", (long long)t);
	else
		snprintf(buf + strlen(buf), len - strlen(buf), ".%03lld",
		    (long long)(ns % 1000000000 / 1000000));
}

/* Whether run x and run y are one run: the same host and start. */
static int
same_run(const struct cmp_runid *x, const struct cmp_runid *y)
{
	return x->start == y->start && strcmp(x->host, y->host) == 0;
}

/*
 * Keeps what run irun of the nruns of a file is known by (its host and
 * start, run.started_at_ns), refusing a run the side already has.  A run
 * that does not say when it started (schema 1) is known by its file only.
 */
static int
keep_runid(struct cmp_side *side, const struct src *f, const struct json *o,
    size_t irun, size_t nruns)
{
	const struct json *st = json_get(json_get(o, "run"), "started_at_ns");
	struct cmp_runid id, *nid;
	char when[64];
	size_t i;

	if (st == NULL || st->type != JSON_NUMBER || !st->isint)
		return 0;
	id.start = st->ival;
	id.host = strdup(f->host);
	id.where = NULL;
	if (nruns == 1)
		id.where = strdup(f->name);
	else if (asprintf(&id.where, "%s (run %zu)", f->name, irun + 1) < 0)
		id.where = NULL;
	if (id.host == NULL || id.where == NULL)
		goto oom;
	for (i = 0; i < side->nrids; i++)
		if (same_run(&side->rids[i], &id)) {
			format_start(when, sizeof(when), id.start);
			snprintf(f->err, f->errlen, "compare: %s holds the "
			    "run of %s again (host %s, started %s) in side %s: "
			    "each run counts once", id.where,
			    side->rids[i].where, *id.host != '\0' ? id.host :
			    "unknown", when, side->name);
			free(id.host);
			free(id.where);
			return -1;
		}
	if ((nid = realloc(side->rids, (side->nrids + 1) *
	    sizeof(*nid))) == NULL)
		goto oom;
	side->rids = nid;
	side->rids[side->nrids++] = id;
	return 0;
oom:
	free(id.host);
	free(id.where);
	return where(f, o, "out of memory");
}

/* A run's order check ("order"; null or absent: none), into the side's. */
static int
load_order(struct cmp_side *side, const struct src *f, const struct json *o)
{
	struct cmp_vals vs;
	int64_t r, b, n;

	if (o == NULL || o->type == JSON_NULL)
		return 0;
	/* The inversions are checked, not kept: rounds tell the share. */
	if (get_count(f, o, "rounds", 0, &r) != 0 ||
	    get_count(f, o, "rounds_with_inversions", 0, &b) ||
	    get_count(f, o, "inversions", 0, &n) != 0)
		return -1;
	side->ord_runs++;
	side->ord_rounds += (uint64_t)r;
	side->ord_bad += (uint64_t)(b < r ? b : r);
	if (r == 0)
		return 0;
	vs.v = side->ord_pts;
	vs.n = side->nord_pts;
	if (cmp_vals_add(&vs, 100.0 * (double)(b < r ? b : r) / (double)r))
		return where(f, o, "out of memory");
	side->ord_pts = vs.v;
	side->nord_pts = vs.n;
	return 0;
}

/*
 * A run's placement (absent or null: none; cmpvals.c): each kind's
 * latency a series named placement.KIND, and the run's shares.
 */
static int
load_place(struct cmp_side *side, const struct src *f, const struct json *p)
{
	const struct json *ser;
	char name[32];
	size_t k;

	if (p == NULL || p->type == JSON_NULL)
		return 0;
	if (p->type != JSON_OBJECT)
		return where(f, p, "\"placement\" is not an object");
	for (k = 0; k < CMP_PLACE_KINDS; k++) {
		if ((ser = json_get(p, cmp_place_kinds[k])) == NULL)
			return where(f, p, "\"placement\" has no \"%s\"",
			    cmp_place_kinds[k]);
		snprintf(name, sizeof(name), "placement.%s",
		    cmp_place_kinds[k]);
		if (load_series(side, f, ser, name, NSERIES_KNOWN + 256 + k) ==
		    -1)
			return -1;
	}
	return cmp_place_add(side, p) == -1 ? where(f, p, "out of memory") : 0;
}

/* A run's share of a frame class's deadlines missed, kept by name. */
static int
keep_missed(struct cmp_side *side, const struct src *f, const struct json *fr,
    const char *name)
{
	const struct json *all = json_get(fr, "deadlines");
	const struct json *late = json_get(fr, "missed");
	const struct json *ns = json_get(fr, "not_started");

	if (all == NULL || late == NULL || ns == NULL ||
	    all->type != JSON_NUMBER || late->type != JSON_NUMBER ||
	    ns->type != JSON_NUMBER || json_num(late) < 0 || json_num(ns) < 0 ||
	    json_num(late) + json_num(ns) > json_num(all))
		return where(f, fr, "class %s: \"deadlines\", \"missed\" or "
		    "\"not_started\" is missing or wrong", name);
	if (json_num(all) > 0 && cmp_frames_add(side, name, 100 *
	    (json_num(late) + json_num(ns)) / json_num(all)) == -1)
		return where(f, fr, "out of memory");
	return 0;
}

/*
 * A frame class i of a run (its "frames"): its wake-ups and frame times,
 * each a series of its own named NAME.wake and NAME.frame_time.
 */
static int
load_frames(struct cmp_side *side, const struct src *f, const struct json *c,
    const char *name, size_t i)
{
	static const char *const key[2] = { "wake", "frame_time" };
	const struct json *fr = json_get(c, "frames"), *ser;
	char full[JSON_TEXT_MAX];
	size_t k;

	if (fr->type != JSON_OBJECT)
		return where(f, fr, "class %s: \"frames\" is not an object",
		    name);
	for (k = 0; k < 2; k++) {
		if ((ser = json_get(fr, key[k])) == NULL)
			return where(f, fr, "class %s: \"%s\" is missing", name,
			    key[k]);
		snprintf(full, sizeof(full), "%s.%s", name, key[k]);
		if (load_series(side, f, ser, full, NSERIES_KNOWN +
		    64 * (k + 1) + i) == -1)
			return -1;
	}
	return keep_missed(side, f, fr, name);
}

/*
 * One run: every known series of o (the run object of schema 2, or the
 * top level of schema 1) summed up and appended to the side's series,
 * then each class's series (schema 2: "classes", [{"name", "latency"}]),
 * named by the class.  It is run irun of the file's nruns.
 */
static int
load_run(struct cmp_side *side, const struct src *f, const struct json *o,
    size_t irun, size_t nruns)
{
	const struct json *ser, *cls, *c, *nm;
	size_t i, k;
	int drop;

	if (o->type != JSON_OBJECT)
		return where(f, o, "a run is not an object");
	if (json_get(o, "latency") == NULL)
		return where(f, o, "\"latency\" is missing");
	if (side->nruns >= MAX_RUNS)
		return where(f, o, "more than %d runs in side %s", MAX_RUNS,
		    side->name);
	if ((drop = noisy_run(side, f, o, irun, nruns)) == 2)
		return where(f, o, "out of memory");
	if (drop)
		return 0;
	if (keep_runid(side, f, o, irun, nruns) == -1)
		return -1;
	for (i = 0; i < NSERIES_KNOWN; i++) {
		ser = json_get(o, series_names[i]);
		if (ser == NULL || ser->type == JSON_NULL)
			continue;
		if (load_series(side, f, ser, series_names[i], i) == -1)
			return -1;
	}
	cls = f->schema2 ? json_get(o, "classes") : NULL;
	if (cls != NULL && cls->type != JSON_ARRAY)
		return where(f, cls, "\"classes\" is not an array");
	for (i = 0; cls != NULL && i < cls->n; i++) {
		c = json_at(cls, i);
		nm = c->type == JSON_OBJECT ? json_get(c, "name") : NULL;
		if (nm == NULL || nm->type != JSON_STRING || *nm->str == '\0')
			return where(f, c, "a class has no \"name\"");
		for (k = 0; k < NSERIES_KNOWN; k++)
			if (strcmp(nm->str, series_names[k]) == 0)
				return where(f, nm, "a class is named %s",
				    nm->str);
		if (json_get(c, "frames") != NULL) {
			if (load_frames(side, f, c, nm->str, i) == -1)
				return -1;
			continue;
		}
		if ((ser = json_get(c, "latency")) == NULL)
			return where(f, c, "class %s: \"latency\" is missing",
			    nm->str);
		if (load_series(side, f, ser, nm->str, NSERIES_KNOWN + i) ==
		    -1)
			return -1;
	}
	if (load_order(side, f, json_get(o, "order")) == -1 ||
	    load_place(side, f, json_get(o, "placement")) == -1)
		return -1;
	if (cmp_counts_add(side, o) == -1 || cmp_work_read(side, o) == -1)
		return where(f, o, "out of memory");
	side->nruns++;
	return 0;
}

/* Frees the texts of info, which stays valid (and empty). */
static void
info_clear(struct cmp_info *info)
{
	size_t k;

	for (k = 0; k < CMP_NINFO; k++) {
		free(info->text[k]);
		free(info->show[k]);
		info->text[k] = info->show[k] = NULL;
	}
	free(info->file);
	info->file = NULL;
}

/*
 * A run latt marked noisy (its "machine", noise.h): a sentence naming it
 * and why (the side's noisy), the others' CPU share kept for compare's
 * one line of them all, and with --drop-noisy the run left out.  Returns
 * 1 to leave it out, 0 to keep it, 2 on ENOMEM.
 */
static int
noisy_run(struct cmp_side *side, const struct src *f, const struct json *o,
    size_t irun, size_t nruns)
{
	const struct json *m = json_get(o, "machine"), *v, *why;
	char run[32] = "";
	double pct;

	v = json_get(m, "noisy");
	if (v == NULL || v->type != JSON_TRUE)
		return 0;
	why = json_get(m, "why");
	v = json_get(m, "foreign_cpu_pct");
	pct = v != NULL && v->type == JSON_NUMBER ? json_num(v) : NAN;
	if (side->nnoisy == 0 || pct < side->noisy_lo)
		side->noisy_lo = pct;
	if (side->nnoisy == 0 || pct > side->noisy_hi)
		side->noisy_hi = pct;
	if (nruns > 1)
		snprintf(run, sizeof(run), ", run %zu", irun + 1);
	if (cmp_say(&side->noisy, &side->nnoisy, "%s: %s%s was noisy (%s): "
	    "%s.", side->name, f->name, run, why != NULL &&
	    why->type == JSON_STRING ? why->str : "?", side->drop_noisy ?
	    "left out (--drop-noisy)" : "kept; --drop-noisy leaves it out") ==
	    -1)
		return 2;
	return side->drop_noisy;
}

/*
 * Reads the settings and environment of a file (cmp_info_keys) into info,
 * each as its JSON text and as it is shown.
 */
static int
read_info(struct cmp_info *info, const struct src *f, const struct json *root)
{
	const struct json *obj, *v;
	size_t k;

	if ((info->file = strdup(f->name)) == NULL)
		return where(f, root, "out of memory");
	for (k = 0; k < CMP_NINFO; k++) {
		obj = json_get(root, cmp_info_keys[k].obj);
		if (obj == NULL)
			continue;
		if (obj->type != JSON_OBJECT)
			return where(f, obj, "\"%s\" is not an object",
			    cmp_info_keys[k].obj);
		/* The host's state: its lines, compared one by one. */
		if ((v = json_get(obj, cmp_info_keys[k].key)) == NULL ||
		    (cmp_info_keys[k].show == SHOW_HOST &&
		    v->type != JSON_OBJECT))
			continue;
		info->text[k] = cmp_info_keys[k].show == SHOW_HOST ?
		    cmp_host_flat(v) : json_text(v, 1);
		if (info->text[k] == NULL || (info->show[k] =
		    cmp_show_value(cmp_info_keys[k].show, v)) == NULL)
			return where(f, v, "out of memory");
	}
	return 0;
}

/*
 * A note on a run the machine changed under: "A: during the run of
 * a.json, the clock source changed from tsc to hpet."  Returns 0, or -1
 * on ENOMEM.
 */
static int
note_changed(struct cmp_side *side, const struct src *f,
    const struct json *root)
{
	const struct json *env, *v, *x, *from, *to;
	struct cmp_shown sh;
	const char *key, *name;
	char *t;
	size_t i;

	if ((env = json_get(root, "environment")) == NULL ||
	    env->type != JSON_OBJECT ||
	    (v = json_get(env, "changed_during_run")) == NULL ||
	    v->type != JSON_OBJECT || v->n == 0)
		return 0;
	sh.len = 0;
	sh.s[0] = '\0';
	for (i = 0; i < v->n; i++) {
		key = v->items[2 * i].str;
		x = &v->items[2 * i + 1];
		name = strcmp(key, "clocksource") == 0 ? "the clock source" :
		    strcmp(key, "cpufreq_governor") == 0 ?
		    "the cpufreq governor" : strcmp(key, "smt") == 0 ? "SMT" :
		    key;
		from = json_get(x, "start");
		to = json_get(x, "end");
		if (from != NULL && from->type == JSON_STRING && to != NULL &&
		    to->type == JSON_STRING)
			cmp_show_put(&sh, "%s%s changed from %s to %s", i > 0 ?
			    ", " : "", name, from->str, to->str);
		else if ((t = json_text(x, 1)) != NULL) {
			cmp_show_put(&sh, "%s%s changed: %s", i > 0 ? ", " : "",
			    name, t);
			free(t);
		} else
			return -1;
	}
	return cmp_say(&side->notes, &side->nnotes, "%s: during the run of "
	    "%s, %s.", side->name, f->name, sh.s);
}

/*
 * Keeps the first file's settings and environment as the side's (taking
 * info's texts), and notes every one that differs in a later file.
 * Returns 0, or -1 on ENOMEM.
 */
static int
keep_info(struct cmp_side *side, struct cmp_info *info, const char *fname)
{
	char bx[CMP_SHOW_WIDTH + 8], by[CMP_SHOW_WIDTH + 8];
	const char *x, *y;
	size_t k;

	if (side->nfiles == 0) {
		if ((side->info = malloc(sizeof(*side->info))) == NULL)
			return -1;
		*side->info = *info;
		memset(info, 0, sizeof(*info));
		return 0;
	}
	for (k = 0; k < CMP_NINFO; k++) {
		x = side->info->text[k];
		y = info->text[k];
		if (!cmp_info_keys[k].warn)
			continue;
		if ((x == NULL) != (y == NULL) ||
		    (x != NULL && strcmp(x, y) != 0)) {
			cmp_show_pair(x != NULL ? side->info->show[k] :
			    "not recorded", y != NULL ? info->show[k] :
			    "not recorded", bx, by, sizeof(bx));
			if (cmp_say(&side->notes, &side->nnotes, "%s: %s "
			    "between its files: %s in %s, %s in %s.",
			    side->name, cmp_info_keys[k].what, bx,
			    side->info->file, by, fname) == -1)
				return -1;
		}
	}
	return 0;
}

/*
 * The runs of a schema 2 file (into *runs), or NULL for schema 1, whose
 * top level is its one run; -1 when root is no latt results file.
 */
static int
find_runs(const struct src *f, const struct json *root,
    const struct json **runs)
{
	const struct json *v, *p;
	size_t i;

	*runs = NULL;
	if (root->type != JSON_OBJECT)
		return where(f, root, "not a latt results file: the top level "
		    "is not an object");
	v = json_get(root, "tool");
	if (v == NULL || v->type != JSON_STRING || strcmp(v->str, "latt"))
		return where(f, v != NULL ? v : root, "not a latt results "
		    "file: no \"tool\": \"latt\"");
	v = json_get(root, "schema_version");
	if (v == NULL)
		return where(f, root, "\"schema_version\" is missing");
	if (v->type != JSON_NUMBER || !v->isint ||
	    (v->ival != 1 && v->ival != 2))
		return where(f, v, "schema_version is %s, this latt reads "
		    "versions 1 and 2", v->type == JSON_NUMBER ? "another" :
		    "not a number");
	if (v->ival == 1) {
		if (json_get(root, "latency") == NULL)
			return where(f, root, "\"latency\" is missing");
		return 0;
	}
	*runs = json_get(root, "runs");
	/* FILE@VALUE: the runs of one value of a --sweep. */
	for (v = json_get(json_get(root, "sweep"), "points"), i = 0;
	    f->point != NULL && v != NULL && v->type == JSON_ARRAY &&
	    i < v->n; i++)
		if ((p = json_get(json_at(v, i), "value")) != NULL &&
		    p->type == JSON_STRING && strcmp(p->str, f->point) == 0)
			break;
	if (f->point != NULL && (v == NULL || v->type != JSON_ARRAY ||
	    i == v->n))
		return where(f, root, "no value %s in the file's sweep "
		    "(FILE@VALUE names a --sweep's value)", f->point);
	if (f->point != NULL)
		*runs = json_get(json_at(v, i), "runs");
	if (*runs == NULL || (*runs)->type != JSON_ARRAY || (*runs)->n == 0)
		return where(f, *runs != NULL ? *runs : root, "\"runs\" is %s",
		    *runs == NULL ? "missing" :
		    "not an array of one run or more");
	return 0;
}

/* One parsed file into the side: its runs, settings and notes. */
static int
load_tree(struct cmp_side *side, struct src *f, const struct json *root)
{
	const struct json *runs, *h;
	struct cmp_info info;
	size_t i, n;
	int ret = -1;

	memset(&info, 0, sizeof(info));
	if (find_runs(f, root, &runs) == -1)
		return -1;
	if (read_info(&info, f, root) == -1)
		goto out;
	if (note_changed(side, f, root) == -1)
		goto oom;
	h = json_get(json_get(root, "environment"), "hostname");
	f->host = h != NULL && h->type == JSON_STRING ? h->str : "";
	f->schema2 = runs != NULL;
	n = runs != NULL ? runs->n : 1;
	for (i = 0; i < n; i++)
		if (load_run(side, f, runs != NULL ? json_at(runs, i) : root, i,
		    n) == -1)
			goto out;
	if (keep_info(side, &info, f->name) == -1)
		goto oom;
	side->nfiles++;
	ret = 0;
	goto out;
oom:
	snprintf(f->err, f->errlen, "%s: out of memory", f->name);
out:
	info_clear(&info);
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
	return cmp_side_add_point(side, fname, NULL, buf, len, err, errlen);
}

int
cmp_side_add_point(struct cmp_side *side, const char *fname,
    const char *point, const char *buf, size_t len, char *err, size_t errlen)
{
	struct json *root;
	struct src f = { fname, buf, point, err, errlen, "", 0 };
	char perr[256];
	int r;

	root = json_parse(buf, len, perr, sizeof(perr));
	if (root == NULL && len > 14 && strncmp(buf, "time_ns,round,", 14) == 0)
		snprintf(err, errlen, "%s: latt's --log CSV (a line a sample), "
		    "not its results: compare reads what --json=FILE writes",
		    fname);
	else if (root == NULL)
		snprintf(err, errlen, "%s:%s", fname, perr);
	if (root == NULL)
		return -1;
	r = load_tree(side, &f, root);
	json_free(root);
	return r;
}

int
cmp_side_add_file(struct cmp_side *side, const char *path, char *err,
    size_t errlen)
{
	const char *point;
	char *buf;
	size_t len;
	int r;

	if ((buf = cmp_file_read(side, path, &point, &len, err, errlen)) ==
	    NULL)
		return -1;
	r = cmp_side_add_point(side, path, point, buf, len, err, errlen);
	free(buf);
	return r;
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
	free(side->series);
	if (side->info != NULL)
		info_clear(side->info);
	free(side->info);
	cmp_say_free(side->notes, side->nnotes);
	cmp_say_free(side->noisy, side->nnoisy);
	for (k = 0; k < side->nfids; k++)
		free(side->fids[k].name);
	free(side->fids);
	for (k = 0; k < side->nrids; k++) {
		free(side->rids[k].host);
		free(side->rids[k].where);
	}
	free(side->rids);
	free(side->work);
	free(side->ord_pts);
	cmp_vals_free(side);
	free(side->label);
	memset(side, 0, sizeof(*side));
}

size_t
cmp_side_shared(const struct cmp_side *a, const struct cmp_side *b)
{
	size_t i, j, n = 0;

	for (j = 0; j < b->nrids; j++)
		for (i = 0; i < a->nrids; i++)
			if (same_run(&a->rids[i], &b->rids[j])) {
				n++;
				break;
			}
	return n;
}

int
cmp_paired(const struct cmp_side *a, const struct cmp_side *b)
{
	const struct cmp_runid *x = a->rids, *y = b->rids;
	size_t i, n = a->nruns;

	if (n < 2 || b->nruns != n || a->nrids != n || b->nrids != n)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(x[i].host, y[i].host) != 0 || (i > 0 &&
		    (x[i - 1].start >= x[i].start || x[i - 1].start >=
		    y[i].start || y[i - 1].start >= x[i].start ||
		    y[i - 1].start >= y[i].start)))
			return 0;
	return 1;
}

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
