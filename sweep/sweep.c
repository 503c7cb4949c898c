/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.c: --sweep=NAME=V1,V2,...: one setting varied over a list of
 * values, the whole measurement once per value (times --repeat), and what
 * each value's runs gave together.  latt.c runs each step as it runs a
 * plain --repeat series; this room says what the steps are (sweep_step:
 * which value, with which settings), and sums their runs up into points.
 *
 * A swept setting is a kind (config.h) and a row of kinds[] below: how
 * its values are read and checked, and how a point's settings are made
 * from the run's (apply).  A setting outside latt, a kernel knob
 * (--sweep=FILE=V1,V2: FILE an absolute path), is SWEEP_KNOB: its values
 * are text, knob.c writes the file before each run, and its schedule is
 * interleaved, run by run: the k-th step is a single run of value k % n
 * (A B A B ... with --repeat), never all runs of one value first, so that
 * a drift of the machine over the sweep falls on every value alike.
 */
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "proc/tune.h"
#include "record/counts.h"
#include "result.h"
#include "stats.h"
#include "sweep/knob.h"
#include "sweep/sweep.h"

#define MAX_CLIENTS	1000000		/* as -c */
#define MAX_DELAY_NS	(3600 * NSEC_PER_SEC)	/* as -f and -t */

/* A kind of sweep: its name, how a value is read, how it is applied. */
struct kind {
	const char	*name;
	enum sweep_kind	 kind;
	int		 time;		/* parse_time, else parse_num */
	long long	 min, max;
	long long	 unit;		/* a bare number's, with time */
};

static const struct kind kinds[] = {
	{ "clients", SWEEP_CLIENTS, 0, 1, MAX_CLIENTS, 0 },
	{ "load", SWEEP_LOAD, 0, 1, LOAD_NMAX, 0 },
	{ "work", SWEEP_WORK, 0, 0, WORK_KB_MAX, 0 },
	{ "slice", SWEEP_SLICE, 1, 1, NSEC_PER_SEC, NSEC_PER_USEC },
	{ "delay", SWEEP_DELAY, 1, 0, MAX_DELAY_NS, NSEC_PER_MSEC },
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

static void	 parse_knob(struct sweep_spec *, const char *);
static void	 split_values(struct sweep_spec *, const char *,
		    const char *);
static void	 apply(const struct sweep_spec *, unsigned, struct config *);
static double	 t95(unsigned df);
static void	 add_pct(struct sweep_point *, const struct stats *);

void
sweep_parse(struct config *cfg, const char *arg)
{
	struct sweep_spec *sw = &cfg->sweep;
	const struct kind *k = NULL;
	const char *eq = strchr(arg, '=');
	char what[48];
	size_t len, i;
	unsigned j, n;

	if (sw->kind != SWEEP_NONE)
		usage_error("sweep is given twice: %s (one setting a sweep)",
		    arg);
	sw->at = -1;
	if (arg[0] == '/') {
		parse_knob(sw, arg);
		return;
	}
	len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
	for (i = 0; i < NKINDS; i++)
		if (strlen(kinds[i].name) == len &&
		    strncmp(kinds[i].name, arg, len) == 0)
			k = &kinds[i];
	if (k == NULL)
		usage_error("sweep: unknown setting: %.*s (clients, load, "
		    "work, slice or delay)", (int)len, arg);
	if (eq == NULL || eq[1] == '\0')
		usage_error("sweep %s has no values: give %s=V1,V2,...",
		    k->name, k->name);
	sw->kind = k->kind;
	sw->name = k->name;
	snprintf(what, sizeof(what), "sweep %s", k->name);
	split_values(sw, arg, eq + 1);
	for (n = 0; n < sw->n; n++) {
		sw->v[n] = k->time ? parse_time(what, sw->text[n], k->min,
		    k->max, k->unit) : parse_num(what, sw->text[n], k->min,
		    k->max);
		for (j = 0; j < n; j++)
			if (sw->v[j] == sw->v[n])
				usage_error("sweep: %s %s is given twice (as "
				    "%s): %s", k->name, sw->text[n],
				    sw->text[j], arg);
	}
}

/*
 * The values after '=' (from p) into sw->text, each checked: none empty,
 * at most SWEEP_MAX, none longer than a text holds (a usage error).
 */
static void
split_values(struct sweep_spec *sw, const char *arg, const char *p)
{
	const char *end;

	for (;; p = end + 1) {
		end = p + strcspn(p, ",");
		if (end == p)
			usage_error("sweep: an empty value in %s", arg);
		if (sw->n == SWEEP_MAX)
			usage_error("sweep: more than %d values in %s",
			    SWEEP_MAX, arg);
		if ((size_t)(end - p) >= sizeof(sw->text[0]))
			usage_error("sweep: a value is too long: %.*s%s",
			    (int)(end - p > 60 ? 60 : end - p), p,
			    end - p > 60 ? "..." : "");
		memcpy(sw->text[sw->n], p, (size_t)(end - p));
		sw->text[sw->n++][end - p] = '\0';
		if (*end == '\0')
			break;
	}
}

/*
 * --sweep=FILE=V1,V2,...: a kernel knob's values, as text (what is written
 * to the file); the file itself is checked by knob_check.
 */
static void
parse_knob(struct sweep_spec *sw, const char *arg)
{
	const char *eq = strchr(arg, '='), *c;
	unsigned i, j;

	if (eq == NULL || eq[1] == '\0')
		usage_error("sweep %.*s has no values: give FILE=V1,V2,...",
		    eq != NULL ? (int)(eq - arg) : (int)strlen(arg), arg);
	sw->kind = SWEEP_KNOB;
	sw->name = "value";
	if ((size_t)(eq - arg) >= sizeof(sw->file))
		usage_error("sweep: a knob's path is too long: %.60s...", arg);
	memcpy(sw->file, arg, (size_t)(eq - arg));
	sw->file[eq - arg] = '\0';
	split_values(sw, arg, eq + 1);
	for (i = 0; i < sw->n; i++) {
		for (c = sw->text[i]; *c != '\0'; c++)
			if ((unsigned char)*c <= ' ')
				usage_error("sweep: a value of %s holds a "
				    "space or control byte", sw->file);
		for (j = 0; j < i; j++)
			if (strcmp(sw->text[j], sw->text[i]) == 0)
				usage_error("sweep: %s is given twice: %s",
				    sw->text[j], arg);
		sw->v[i] = i;
	}
	if (sw->n < 2)
		usage_error("sweep %s has one value: a knob needs two or "
		    "more, to compare", sw->file);
}

void
sweep_check(const struct config *cfg)
{
	const struct sweep_spec *sw = &cfg->sweep;

	if (sw->kind == SWEEP_NONE)
		return;
	if (cfg->baseline != NULL)
		usage_error("--sweep and --baseline: compare a sweep's values "
		    "with latt compare FILE@VALUE instead");
	if (sw->kind == SWEEP_KNOB)
		knob_check(sw->file);
	if (sw->kind == SWEEP_LOAD && (!cfg->load_given || cfg->nload != 1))
		usage_error("sweep load needs exactly one --load=KIND (%u "
		    "given)", cfg->load_given ? cfg->nload : 0);
	if ((sw->kind == SWEEP_CLIENTS || sw->kind == SWEEP_SLICE) &&
	    cfg->nclasses > 0)
		usage_error("sweep %s needs a plain -c N, not classes",
		    sw->name);
	if (sw->kind == SWEEP_SLICE && cfg->policy != -1 &&
	    cfg->policy != SCHED_OTHER && cfg->policy != SCHED_BATCH &&
	    cfg->policy != SCHED_IDLE)
		usage_error("sweep slice is for the fair policies (other, "
		    "batch, idle)");
}

void
sweep_widest(const struct config *cfg, struct config *wide)
{
	const struct sweep_spec *sw = &cfg->sweep;
	unsigned i;

	*wide = *cfg;
	for (i = 0; i < sw->n; i++)
		if (sw->kind == SWEEP_CLIENTS && sw->v[i] > wide->nclients)
			wide->nclients = (unsigned)sw->v[i];
		else if (sw->kind == SWEEP_WORK && sw->v[i] > wide->work_kb)
			wide->work_kb = (unsigned)sw->v[i];
}

int
sweep_try(const struct config *cfg)
{
	struct config pc;
	unsigned i;
	int r;

	if (cfg->sweep.kind != SWEEP_SLICE)
		return 0;	/* a knob's: knob_save tries them */
	for (i = 0; i < cfg->sweep.n; i++) {
		pc = *cfg;
		apply(&cfg->sweep, i, &pc);
		if ((r = tune_check(&pc)) < 0)
			return r;
	}
	return 0;
}

/*
 * Value-major: each value's --repeat runs back to back, in the order
 * given.  A knob's values are interleaved instead: the k-th step is one
 * run of value k % n, the values in the order given, --repeat rounds.
 */
int
sweep_step(const struct config *cfg, unsigned k, unsigned *pi,
    struct config *pc)
{
	unsigned n = cfg->sweep.n;
	int knob = cfg->sweep.kind == SWEEP_KNOB;

	if (k >= (knob ? n * cfg->repeat : n))
		return -1;
	*pi = k % n;
	*pc = *cfg;
	if (knob)
		pc->repeat = 1;
	apply(&cfg->sweep, *pi, pc);
	return 0;
}

/* Point i's settings: the run's, with the swept one set to its value. */
static void
apply(const struct sweep_spec *sw, unsigned i, struct config *pc)
{
	pc->sweep.at = (int)i;
	switch (sw->kind) {
	case SWEEP_CLIENTS:
		pc->nclients = (unsigned)sw->v[i];
		break;
	case SWEEP_LOAD:
		pc->load[0].n = (unsigned)sw->v[i];
		break;
	case SWEEP_WORK:
		pc->work_kb = (unsigned)sw->v[i];
		break;
	case SWEEP_SLICE:
		pc->slice = sw->v[i];
		break;
	case SWEEP_DELAY:
		pc->min_delay = pc->max_delay = sw->v[i];
		break;
	case SWEEP_KNOB:	/* written by latt.c, through tune.c */
	case SWEEP_NONE:
		break;
	}
}

int
sweep_init(struct sweep_result *sr, const struct config *cfg)
{
	unsigned i;

	memset(sr, 0, sizeof(*sr));
	sr->name = cfg->sweep.name;
	sr->file = cfg->sweep.kind == SWEEP_KNOB ? cfg->sweep.file : NULL;
	if ((sr->pt = calloc(cfg->sweep.n, sizeof(*sr->pt))) == NULL)
		goto fail;
	sr->n = cfg->sweep.n;
	for (i = 0; i < sr->n; i++) {
		sr->pt[i].value = cfg->sweep.text[i];
		sr->pt[i].half = -1;
		sr->pt[i].pct_f[0] = sr->pt[i].pct_f[1] = -1;
		if (stats_init(&sr->pt[i].lat, STATS_SUB_BITS) == -1 ||
		    (sr->pt[i].means = calloc(cfg->repeat,
		    sizeof(double))) == NULL ||
		    (sr->pt[i].runpct = calloc(2 * (size_t)cfg->repeat,
		    sizeof(double))) == NULL ||
		    (sr->pt[i].json = calloc(cfg->repeat,
		    sizeof(*sr->pt[i].json))) == NULL)
			goto fail;
	}
	return 0;
fail:
	lwarn("sweep: the points' statistics");
	sweep_free(sr);
	return -1;
}

/*
 * A finished run into its point: the wake-ups, its mean, the counts and
 * the loads' operations; the mean over the runs and its interval again.
 */
void
sweep_add_run(struct sweep_result *sr, unsigned pi, const struct result *res)
{
	struct sweep_point *p = &sr->pt[pi];
	const struct stats *st = &res->ser[SER_LATENCY].st;
	double sum = 0, ss = 0;
	unsigned i;

	stats_merge(&p->lat, st);
	p->means[p->nruns++] = stats_mean(st);
	counts_merge(&p->counts, &res->counts);
	p->nload = res->wl.nload;
	for (i = 0; i < res->wl.nload; i++) {
		p->load_kind[i] = res->wl.load[i].kind;
		p->load_nproc[i] = res->wl.load[i].nproc;
		p->load_ops[i] += res->wl.load[i].ops;
		p->load_ns[i] += res->wl.load[i].end - res->wl.load[i].start;
	}
	/*
	 * Its times, where they are its own: it ended by itself with status
	 * 0, as latt compare counts them (not at -d, nor failing).
	 */
	if (res->wl.pid > 0 && res->wl.reaped && !res->wl.stopped_by_us &&
	    !res->wl.exec_errno && WIFEXITED(res->wl.status) &&
	    WEXITSTATUS(res->wl.status) == 0 && res->wl.cpu_ns >= 0 &&
	    res->wl.end >= res->wl.start) {
		p->wl_runs++;
		p->wl_wall += res->wl.end - res->wl.start;
		p->wl_cpu += res->wl.cpu_ns;
	}
	for (i = 0; i < p->nruns; i++)
		sum += p->means[i];
	p->mean = sum / p->nruns;
	for (i = 0; i < p->nruns; i++)
		ss += (p->means[i] - p->mean) * (p->means[i] - p->mean);
	p->half = p->nruns < 3 ? -1 :
	    t95(p->nruns - 1) * sqrt(ss / (p->nruns - 1) / p->nruns);
	add_pct(p, st);
}

/*
 * A run's p50 and p99 into its point (-1 where the run has fewer than ten
 * samples beyond it), and again the interval of each over the runs that
 * have it: t over their logarithms (latt compare's scale), as a factor.
 */
static void
add_pct(struct sweep_point *p, const struct stats *st)
{
	static const enum stat_kind pk[2] = { STAT_P50, STAT_P99 };
	double *rp = p->runpct, sum, ss, m, l;
	unsigned i, k, n;

	for (k = 0; k < 2; k++) {
		rp[2 * (p->nruns - 1) + k] = st->n >= stats_need(pk[k]) ?
		    stats_value(st, pk[k]) : -1;
		for (i = 0, n = 0, sum = 0; i < p->nruns; i++)
			if (rp[2 * i + k] > 0) {
				sum += log(rp[2 * i + k]);
				n++;
			}
		p->pct_f[k] = -1;
		if (n < 3)
			continue;
		m = sum / n;
		for (i = 0, ss = 0; i < p->nruns; i++)
			if (rp[2 * i + k] > 0) {
				l = log(rp[2 * i + k]) - m;
				ss += l * l;
			}
		p->pct_f[k] = exp(t95(n - 1) * sqrt(ss / (n - 1) / n));
	}
}

void
sweep_free(struct sweep_result *sr)
{
	unsigned i;

	for (i = 0; sr->pt != NULL && i < sr->n; i++) {
		stats_free(&sr->pt[i].lat);
		free(sr->pt[i].means);
		free(sr->pt[i].runpct);
		free(sr->pt[i].json);
	}
	free(sr->pt);
	memset(sr, 0, sizeof(*sr));
}

/* Student's t, two-sided 95%, for df degrees of freedom. */
static double
t95(unsigned df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
	    2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
	    2.131, 2.120, 2.110, 2.101, 2.093, 2.086 };

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	return 1.960 + 2.5 / df;	/* within 0.3% from 20 on */
}
