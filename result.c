/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.c: the life of a struct result (result.h): made before a run
 * with what the asked-for reports need, emptied between the runs of
 * --repeat, merged into the totals, and freed.  Every step walks the list
 * of series, so that a new series is one entry in series_info.
 */
#include <sys/wait.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "result.h"

/* In the order of enum series_id, which is the order of the JSON. */
const struct series_info series_info[SER_N] = {
	[SER_LATENCY] =		{ "latency", 1 },
	[SER_TIMER] =		{ "timer", 0 },
	[SER_WORK] =		{ "work", 1 },
	[SER_RUNQUEUE] =	{ "runqueue", 1 },
	[SER_WAKE_PATH] =	{ "wake_path", 1 },
	[SER_BUSY] =		{ "busy", 1 },
	[SER_FRAME_WAKE] =	{ "wake", 1, 1 },
	[SER_FRAME_TIME] =	{ "frame_time", 1, 1 },
	[SER_PLACE_SAME_CPU] =	{ "same_cpu", 1, 0, 1 },
	[SER_PLACE_SMT_SIBLING] = { "smt_sibling", 1, 0, 1 },
	[SER_PLACE_SAME_LLC] =	{ "same_llc", 1, 0, 1 },
	[SER_PLACE_OTHER_LLC] =	{ "other_llc", 1, 0, 1 },
	[SER_PLACE_OTHER_NODE] = { "other_node", 1, 0, 1 },
};

static int	 series_init(struct series *, int timeline, int quantiles);
static void	 series_reset(struct series *, int);
static void	 series_free(struct series *);
static int	 classes_init(struct result *, const struct config *, int,
		    int);
static void	 frames_merge(struct frame_counts *,
		    const struct frame_counts *);

/*
 * Which series a run takes: the latency and the timer always, the work
 * with -x, the runqueue-wait split when the clients read their schedstat,
 * and the latency of each placement kind always (the run's, not a
 * class's; no timeline).
 * keep is 1 for a run's own result: it then also gets what its reports
 * collect during the run (timelines for --plot, per-client statistics,
 * the K worst samples of --explain); 0 for the totals of --repeat,
 * statistics alone.  Returns 0, or -1 after saying why.
 */
int
result_init(struct result *res, const struct config *cfg, int split,
    int keep)
{
	int plot = keep && cfg->plot_path != NULL;
	unsigned i;

	res->ser[SER_LATENCY].on = 1;
	res->ser[SER_TIMER].on = 1;
	res->ser[SER_WORK].on = cfg->work_kb > 0;
	res->ser[SER_RUNQUEUE].on = split;
	res->ser[SER_WAKE_PATH].on = split;
	res->ser[SER_BUSY].on = config_round_busy(cfg);
	for (i = 0; i < SER_N; i++)
		if (series_info[i].place)
			res->ser[i].on = 1;
	for (i = 0; i < SER_N; i++) {
		if (!res->ser[i].on)
			continue;
		if (series_init(&res->ser[i], plot && (i == SER_LATENCY ||
		    i == SER_TIMER), i == SER_LATENCY) == -1) {
			lwarn("%s statistics", series_info[i].name);
			return -1;
		}
	}
	if (keep && (cfg->per_client || cfg->json_path != NULL)) {
		res->clients = calloc(cfg->nclients, sizeof(*res->clients));
		if (res->clients == NULL) {
			lwarn("calloc: per-client statistics of %u clients",
			    cfg->nclients);
			return -1;
		}
		for (i = 0; i < cfg->nclients; i++) {
			res->clients[i].last_cpu = -1;
			if (stats_init(&res->clients[i].lat,
			    CLIENT_SUB_BITS) == -1) {
				lwarn("stats_init: per-client statistics of "
				    "%u clients", cfg->nclients);
				return -1;
			}
		}
	}
	if (classes_init(res, cfg, split, plot) == -1)
		return -1;
	if (order_wanted(cfg) && (res->order = order_new(cfg)) == NULL) {
		lwarn("the order check");
		return -1;
	}
	if (keep && cfg->explain > 0 &&
	    (res->worst = calloc(cfg->explain, sizeof(*res->worst))) == NULL) {
		lwarn("calloc");
		return -1;
	}
	return 0;
}

/*
 * The statistics of every class: its latency (with a timeline for --plot's
 * dots), its runqueue-wait split and its busy phase.
 */
static int
classes_init(struct result *res, const struct config *cfg, int split,
    int plot)
{
	struct class_result *c;
	unsigned i, k;

	if (cfg->nclasses == 0)
		return 0;
	if ((res->classes = calloc(cfg->nclasses, sizeof(*c))) == NULL) {
		lwarn("calloc: classes");
		return -1;
	}
	for (i = 0; i < cfg->nclasses; i++) {
		c = &res->classes[i];
		if (cfg->classes[i].frame > 0) {
			c->ser[SER_FRAME_WAKE].on = 1;
			c->ser[SER_FRAME_TIME].on = 1;
		} else {
			c->ser[SER_LATENCY].on = 1;
			c->ser[SER_RUNQUEUE].on = split;
			c->ser[SER_WAKE_PATH].on = split;
			c->ser[SER_BUSY].on = cfg->classes[i].busy > 0;
		}
		for (k = 0; k < SER_N; k++)
			if (c->ser[k].on && series_init(&c->ser[k], plot &&
			    (k == SER_LATENCY || k == SER_FRAME_TIME), 0) ==
			    -1) {
				lwarnc(ENOMEM, "classes");
				return -1;
			}
	}
	return 0;
}

static int
series_init(struct series *s, int timeline, int quantiles)
{
	if (stats_init(&s->st, STATS_SUB_BITS) == -1)
		return -1;
	if (timeline && ((s->tl = timeline_new()) == NULL ||
	    (quantiles && timeline_keep_quantiles(s->tl) == -1)))
		return -1;
	return 0;
}

/*
 * Empties a run's result for the next run of --repeat.  The per-client
 * table goes on (it covers all runs), and so do the records of the
 * scheduler and the environment, read once.
 */
void
result_reset(struct result *res, const struct config *cfg)
{
	struct result keep = *res;
	unsigned i, k;

	for (i = 0; i < SER_N; i++)
		series_reset(&keep.ser[i], i == SER_LATENCY);
	for (i = 0; keep.classes != NULL && i < cfg->nclasses; i++) {
		for (k = 0; k < SER_N; k++)
			series_reset(&keep.classes[i].ser[k], 0);
		memset(&keep.classes[i].got, 0, sizeof(keep.classes[i].got));
		memset(&keep.classes[i].fr, 0, sizeof(keep.classes[i].fr));
	}
	if (keep.order != NULL)
		order_reset(keep.order);
	env_machine_free(&keep.mach);	/* read afresh by each run */
	noise_free(&keep.noise);
	env_machine_free(&keep.mach_end);
	memset(res, 0, sizeof(*res));
	memcpy(res->ser, keep.ser, sizeof(res->ser));
	res->worst = keep.worst;
	res->clients = keep.clients;
	res->classes = keep.classes;
	res->order = keep.order;
	res->sched = keep.sched;
	res->env = keep.env;
	res->floor = keep.floor;
	res->topo = keep.topo;
	res->sweep = keep.sweep;
	res->wl.tty = -1;
}

/*
 * Empties one series; a timeline starts again as it was made (the
 * latency's keeps the quantiles of its stretches).
 */
static void
series_reset(struct series *s, int quantiles)
{
	if (!s->on)
		return;
	stats_reset(&s->st);
	if (s->tl != NULL) {
		timeline_free(s->tl);
		if ((s->tl = timeline_new()) != NULL && quantiles &&
		    timeline_keep_quantiles(s->tl) == -1) {
			timeline_free(s->tl);
			s->tl = NULL;
		}
	}
}

/*
 * Adds a finished run to the totals: the statistics, rounds, time,
 * wake-ups left pending and stalls (the first STALLS_MAX of all runs, each
 * timed within its own run); what ended the last run, its workload and
 * loads stand for all.  The per-client table and the records of the
 * scheduler and the environment are the run's, shared.
 */
void
result_merge(struct result *total, const struct result *res,
    const struct config *cfg)
{
	uint64_t i, k;

	for (i = 0; i < SER_N; i++)
		if (total->ser[i].on)
			stats_merge(&total->ser[i].st, &res->ser[i].st);
	for (i = 0; total->classes != NULL && i < cfg->nclasses; i++) {
		for (k = 0; k < SER_N; k++)
			if (total->classes[i].ser[k].on)
				stats_merge(&total->classes[i].ser[k].st,
				    &res->classes[i].ser[k].st);
		total->classes[i].got = res->classes[i].got;
		frames_merge(&total->classes[i].fr, &res->classes[i].fr);
	}
	if (total->order != NULL && res->order != NULL)
		order_merge(total->order, res->order);
	total->sched = res->sched;
	total->env = res->env;
	total->clients = res->clients;
	/* The series: the machine at the first run's start, the last's end. */
	if (total->mach.clocksource == NULL && total->mach.governor == NULL &&
	    total->mach.smt == NULL)
		env_machine_copy(&total->mach, &res->mach);
	env_machine_free(&total->mach_end);
	env_machine_copy(&total->mach_end, &res->mach_end);
	total->nrounds += res->nrounds;
	total->split_rounds += res->split_rounds;
	total->split_left_out += res->split_left_out;
	total->discarded += res->discarded;
	counts_merge(&total->counts, &res->counts);
	noise_merge(&total->noise, &res->noise);
	total->floor = res->floor;
	total->topo = res->topo;
	total->place_unknown += res->place_unknown;
	total->migrated += res->migrated;
	if (total->start == 0) {
		total->start = res->start;
		total->end = res->end;
	} else
		total->end += res->end - res->start;	/* the runs' time */
	total->stop = res->stop;
	total->wl = res->wl;
	if (res->npending > 0 && (total->npending == 0 ||
	    res->pending_age > total->pending_age)) {
		total->pending_age = res->pending_age;
		total->pending_client = res->pending_client;
	}
	total->npending += res->npending;
	total->nunsent += res->nunsent;
	for (i = 0; i < res->nstalls && i < STALLS_MAX &&
	    total->nstalls + i < STALLS_MAX; i++)
		total->stalls[total->nstalls + i] = res->stalls[i];
	total->nstalls += res->nstalls;
	total->stall_total += res->stall_total;
	total->waited += res->waited;
	for (i = 0; i < res->nsuspend && i < SUSPEND_MAX &&
	    total->nsuspend + i < SUSPEND_MAX; i++)
		total->susp[total->nsuspend + i] = res->susp[i];
	total->nsuspend += res->nsuspend;
	total->suspended += res->suspended;
	total->susp_dropped += res->susp_dropped;
	if (total->start_wall == 0)
		total->start_wall = res->start_wall;
	total->wl_stopsig = res->wl_stopsig;
	total->wl_stop_at = res->wl_stop_at;
}

/*
 * Frees what result_init and the run allocated.  The totals of --repeat
 * hold the run's per-client table, records and autopsy: owned is 0 for
 * them, and those are left to the run's result.
 */
void
result_free(struct result *res, const struct config *cfg, int owned)
{
	unsigned i, k;

	for (i = 0; i < SER_N; i++)
		series_free(&res->ser[i]);
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++)
		for (k = 0; k < SER_N; k++)
			series_free(&res->classes[i].ser[k]);
	free(res->classes);
	res->classes = NULL;
	order_free(res->order);
	res->order = NULL;
	env_machine_free(&res->mach);
	env_machine_free(&res->mach_end);
	noise_free(&res->noise);
	free(res->worst);
	res->worst = NULL;
	if (!owned) {
		res->clients = NULL;
		res->autopsy = NULL;
		memset(&res->sched, 0, sizeof(res->sched));
		memset(&res->env, 0, sizeof(res->env));
		return;
	}
	for (i = 0; res->clients != NULL && i < cfg->nclients; i++)
		stats_free(&res->clients[i].lat);
	free(res->clients);
	res->clients = NULL;
	env_sched_free(&res->sched);
	env_free(&res->env);
}

static void
series_free(struct series *s)
{
	stats_free(&s->st);
	timeline_free(s->tl);
	memset(s, 0, sizeof(*s));
}

/* A run's frame deadlines added to the totals of --repeat. */
static void
frames_merge(struct frame_counts *t, const struct frame_counts *r)
{
	t->frames += r->frames;
	t->met += r->met;
	t->missed += r->missed;
	t->not_started += r->not_started;
	if (r->longest > t->longest)
		t->longest = r->longest;
}

/* Whether the workload failed: it could not run, or ended badly unasked. */
int
result_workload_failed(const struct workload *wl)
{
	if (wl->pid <= 0)
		return 0;
	if (wl->exec_errno)
		return 1;
	if (wl->stopped_by_us || !wl->reaped || wl->interrupted)
		return 0;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status) != 0;
	return 1;
}
