/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON report: writes a finished run as one JSON object in the schema
 * of docs/json-schema.md (schema_version 2), with every setting that moves
 * the numbers and the environment the run took place in.  The top level
 * holds the totals of all runs (--repeat); "runs" holds each run, the
 * series that latt compare reads.  jsonw.c writes the JSON itself.
 */
#include <sys/wait.h>

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json/json.h"
#include "json/jsonexpl.h"
#include "json/jsonmach.h"
#include "json/jsonw.h"
#include "lib/common.h"
#include "record/topo.h"
#include "result.h"

#define SCHEMA_VERSION	2

static const double quantiles[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 };
static const char *const qkeys[] = { "p50_ns", "p90_ns", "p95_ns",
    "p99_ns", "p99_9_ns", "p99_99_ns" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))
/* How a run ended, by enum stop_reason; "error" where none. */
static const char *const ended_by[] = { [STOP_WORKLOAD] = "workload",
    [STOP_SIGNAL] = "signal", [STOP_CLIENT] = "client",
    [STOP_DURATION] = "duration", [STOP_SAMPLES] = "samples",
    [STOP_BREAK] = "breaktrace" };
#define NENDED		(sizeof(ended_by) / sizeof(ended_by[0]))

static void	 put_parameters(struct jw *, const char *,
		    const struct config *);
static void	 put_environment(struct jw *, const char *,
		    const struct result *);
static void	 put_scheduler(struct jw *, const char *,
		    const struct sched_info *);
static void	 put_workload(struct jw *, const char *,
		    const struct workload *);
static void	 put_run(struct jw *, const char *, const struct config *,
		    const struct result *);
static void	 put_series_list(struct jw *, const struct series *, int);
static void	 put_placement(struct jw *, const struct result *);
static void	 put_series(struct jw *, const char *, const struct stats *,
		    int with_client);
static void	 put_per_client(struct jw *, const char *,
		    const struct config *, const struct result *);
static void	 put_loads(struct jw *, const char *, const struct workload *);
static void	 put_counts(struct jw *, const char *, const struct counts *);
static void	 put_sweep(struct jw *, const char *,
		    const struct sweep_result *, const char *);
static void	 put_point(struct jw *, const struct sweep_point *,
		    const char *);
static void	 put_floor(struct jw *, const char *,
		    const struct own_floor *);
static void	 put_cpu_list(struct jw *, const char *, const int *,
		    unsigned);
static void	 put_classes(struct jw *, const char *, const struct config *,
		    const struct result *, int);
static void	 put_class(struct jw *, const struct client_class *,
		    const struct class_result *);
static void	 put_frames(struct jw *, const struct client_class *,
		    const struct class_result *);
static void	 put_order(struct jw *, const char *, const struct config *,
		    const struct order *);
static void	 put_who(struct jw *, const char *, const struct config *,
		    unsigned, int);

int
json_write(FILE *fp, const struct config *cfg, const struct result *total,
    unsigned nruns, const char *runs)
{
	struct jw top, o, a;

	jw_top(&top, fp, "");
	jw_object(&top, NULL, &o, "\n  ");
	jw_int(&o, "schema_version", SCHEMA_VERSION);
	jw_str(&o, "tool", "latt");
	jw_str(&o, "version", LATT_VERSION);
	put_parameters(&o, "parameters", cfg);
	put_environment(&o, "environment", total);
	put_workload(&o, "workload", &total->wl);
	put_run(&o, "run", cfg, total);
	jw_uint(&o, "nruns", nruns);
	put_series_list(&o, total->ser, 0);
	put_placement(&o, total);
	jw_bool(&o, "schedstat", total->ser[SER_RUNQUEUE].on);
	put_loads(&o, "loads", &total->wl);
	put_counts(&o, "counts", &total->counts);
	jsonmach_noise(&o, "machine", &total->noise, 0);
	put_floor(&o, "floor", &total->floor);
	put_per_client(&o, "per_client", cfg, total);
	put_classes(&o, "classes", cfg, total, 0);
	put_order(&o, "order", cfg, total->order);
	if (total->autopsy != NULL)
		jsonexpl_write(&o, "explain", total);
	put_sweep(&o, "sweep", total->sweep, runs);
	jw_array(&o, "runs", &a, "");
	jw_raw(&a, NULL, runs, strlen(runs));
	jw_end(&a, "\n  ");
	jw_end(&o, "\n");
	fputc('\n', fp);
	return ferror(fp) ? -1 : 0;
}

int
json_write_run(FILE *fp, const struct config *cfg, const struct result *res)
{
	struct jw top, o, k;

	jw_top(&top, fp, "\n  ");
	jw_object(&top, NULL, &o, "\n  ");
	jw_sep(&o, "");
	put_run(&o, "run", cfg, res);
	put_workload(&o, "workload", &res->wl);
	/* --sweep=FILE=...: the knob's value the run ran under. */
	if (jw_object_if(&o, "knob", &k, " ", cfg->sweep.kind == SWEEP_KNOB &&
	    cfg->sweep.at >= 0)) {
		jw_str(&k, "file", cfg->sweep.file);
		jw_str(&k, "value", cfg->sweep.text[cfg->sweep.at]);
		jw_end(&k, "");
	}
	put_series_list(&o, res->ser, 0);
	put_placement(&o, res);
	if (res->autopsy != NULL)
		jsonexpl_write(&o, "explain", res);
	put_loads(&o, "loads", &res->wl);
	put_counts(&o, "counts", &res->counts);
	jsonmach_noise(&o, "machine", &res->noise, 1);
	put_classes(&o, "classes", cfg, res, 1);
	put_order(&o, "order", cfg, res->order);
	jw_end(&o, "");
	return ferror(fp) ? -1 : 0;
}

static void
put_parameters(struct jw *in, const char *key, const struct config *cfg)
{
	const struct load_spec *ld;
	struct jw o, a, l;
	unsigned i;

	jw_object(in, key, &o, "\n    ");
	jw_uint(&o, "clients", cfg->nclients);
	jw_int(&o, "min_delay_ns", cfg->min_delay);
	jw_int(&o, "max_delay_ns", cfg->max_delay);
	jw_uint(&o, "seed", cfg->seed);
	jw_str(&o, "command", cfg->ncmd == 1 ? cfg->cmd[0] : NULL);
	jw_array(&o, "argv", &a, " ");
	for (i = 0; i < (unsigned)cfg->ncmd; i++)
		jw_str(&a, NULL, cfg->cmd[i]);
	jw_end(&a, "");
	jw_array(&o, "loads", &a, " ");
	for (i = 0; i < cfg->nload; i++) {
		ld = &cfg->load[i];
		jw_object(&a, NULL, &l, " ");
		jw_str(&l, "kind", config_load_name(ld->kind));
		jw_uint(&l, "procs", config_load_nproc(ld->kind, ld->n));
		/* Only a pinned load says so: unpinned ones stay as ever. */
		if (ld->ncpus > 0)
			put_cpu_list(&l, "cpus", ld->cpus, ld->ncpus);
		jw_end(&l, "");
	}
	jw_end(&a, "");
	jw_int_if(&o, "duration_ns", cfg->duration > 0, cfg->duration);
	jw_int_if(&o, "samples_limit", cfg->samples > 0,
	    (long long)cfg->samples);
	jw_int(&o, "warmup_ns", cfg->warmup);
	jw_int_if(&o, "work_kb", cfg->work_kb > 0, cfg->work_kb);
	/* The clients' policy by name, null when latt left it inherited. */
	if (strcmp(config_policy_name(cfg->policy), "?") == 0)
		jw_int_if(&o, "policy", cfg->policy != -1, cfg->policy);
	else
		jw_str(&o, "policy", config_policy_name(cfg->policy));
	jw_int_if(&o, "priority", cfg->policy == SCHED_FIFO ||
	    cfg->policy == SCHED_RR, cfg->prio);
	jw_int_if(&o, "nice", cfg->set_nice, cfg->nice);
	put_cpu_list(&o, "cpus", cfg->cpus, cfg->cpus != NULL ? cfg->ncpus : 0);
	jw_int_if(&o, "parent_cpu", cfg->parent_cpu >= 0, cfg->parent_cpu);
	jw_bool(&o, "mlock", cfg->mlock);
	jw_uint(&o, "repeat", cfg->repeat);
	jw_bool(&o, "bare", cfg->bare);
	jw_str(&o, "loop", cfg->open_loop ? "open" : "closed");
	jw_bool(&o, "split", !cfg->no_split);
	jw_int_if(&o, "split_every", !cfg->no_split, cfg->split_every);
	jw_str(&o, "parent_policy", cfg->parent_policy == SCHED_FIFO ? "fifo" :
	    cfg->parent_policy == SCHED_OTHER ? "other" : NULL);
	jw_int_if(&o, "parent_prio", cfg->parent_policy == SCHED_FIFO,
	    cfg->parent_prio);
	jw_int_if(&o, "dma_latency_us", cfg->dma_latency >= 0,
	    cfg->dma_latency);
	jw_end(&o, "\n  ");
}

static void
put_environment(struct jw *in, const char *key, const struct result *total)
{
	static const char *keys[] = { "clocksource", "cpufreq_governor",
	    "smt" };		/* env_machine_changed's order */
	const struct sched_info *si = &total->sched;
	const struct environment *e = &total->env;
	const char *was, *now;
	struct jw o, c, w;
	char sched[160];
	unsigned i = 0;

	jw_object(in, key, &o, "\n    ");
	jw_str(&o, "kernel_release", e->kernel_release);
	jw_str(&o, "kernel_version", e->kernel_version);
	jw_str(&o, "machine", e->arch);
	jw_str(&o, "hostname", e->hostname);
	jw_int_if(&o, "cpus_online", e->cpus_online > 0, e->cpus_online);
	jw_str(&o, "clocksource", total->mach.clocksource);
	jw_str(&o, "cmdline", e->cmdline);
	jw_str(&o, "preemption", si->preemption);
	/* What compare warns about: "fair", or "sched_ext: OPS". */
	if (si->ext_state != NULL && strcmp(si->ext_state, "enabled") == 0)
		snprintf(sched, sizeof(sched), "sched_ext: %s",
		    si->ext_ops != NULL ? si->ext_ops : "?");
	else
		snprintf(sched, sizeof(sched), "fair");
	jw_str(&o, "scheduler", sched);
	put_scheduler(&o, "scheduler_detail", si);
	jw_str(&o, "cpufreq_governor", total->mach.governor);
	jw_str(&o, "smt", total->mach.smt);
	/* What changed between the run's start and its end. */
	jw_object(&o, "changed_during_run", &c, " ");
	while (env_machine_changed(&total->mach, &total->mach_end, &was, &now,
	    &i) != NULL) {
		jw_object(&c, keys[i - 1], &w, " ");
		jw_str(&w, "start", was);
		jw_str(&w, "end", now);
		jw_end(&w, "");
	}
	jw_end(&c, "");
	jw_str(&o, "cpu_model", e->cpu_model);
	jw_str(&o, "virtualization", e->virtualization);
	/* The slack the workload inherited (latt's own is 1 ns). */
	jw_uint(&o, "timer_slack_ns", e->timer_slack);
	jw_str(&o, "latt_version", LATT_VERSION);
	jsonmach_host(&o, "host", total);
	jw_end(&o, "\n  ");
}

/* The scheduler in use: see struct sched_info. */
static void
put_scheduler(struct jw *in, const char *key, const struct sched_info *si)
{
	struct jw o, x;

	jw_object(in, key, &o, " ");
	jw_str(&o, "fair", si->fair);
	if (jw_object_if(&o, "sched_ext", &x, " ", si->ext_present)) {
		jw_str(&x, "state", si->ext_state);
		jw_str(&x, "ops", si->ext_ops);
		jw_end(&x, "");
	}
	jw_int_if(&o, "base_slice_ns", si->base_slice > 0, si->base_slice);
	jw_str(&o, "base_slice_from", si->base_slice <= 0 ? NULL :
	    si->base_slice_debugfs ? "debugfs" : "sched_getattr");
	jw_str(&o, "features", si->features);
	if (si->autogroup < 0)
		jw_null(&o, "autogroup");
	else
		jw_bool(&o, "autogroup", si->autogroup);
	jw_end(&o, "");
}

static void
put_workload(struct jw *in, const char *key, const struct workload *wl)
{
	const char *status;
	int code = -1, sig = -1;
	struct jw o;

	if (wl->pid <= 0)
		status = "none";
	else if (wl->exec_errno)
		status = "not-run";
	else if (!wl->reaped || wl->stopped_by_us)
		status = "stopped";
	else if (WIFEXITED(wl->status))
		status = "exited";
	else
		status = "signalled";
	if (wl->pid > 0 && wl->reaped && !wl->exec_errno) {
		if (WIFEXITED(wl->status))
			code = WEXITSTATUS(wl->status);
		else if (WIFSIGNALED(wl->status))
			sig = WTERMSIG(wl->status);
	}
	jw_object(in, key, &o, "\n    ");
	jw_str(&o, "status", status);
	jw_int_if(&o, "exit_code", code >= 0, code);
	jw_int_if(&o, "signal", sig >= 0, sig);
	jw_int(&o, "wall_ns", wl->pid > 0 && wl->end >= wl->start ?
	    wl->end - wl->start : 0);
	jw_int_if(&o, "cpu_ns", wl->pid > 0 && wl->reaped && wl->cpu_ns >= 0,
	    wl->cpu_ns);
	jw_end(&o, "\n  ");
}

static void
put_run(struct jw *in, const char *key, const struct config *cfg,
    const struct result *res)
{
	uint64_t i, n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	int64_t ran = res->end - res->start - res->suspended;
	struct jw o, s, a, t;

	jw_object(in, key, &o, "\n    ");
	jw_int(&o, "wall_ns", res->end - res->start);
	jw_uint(&o, "rounds", res->nrounds);
	jw_str(&o, "ended_by", res->stop < NENDED && ended_by[res->stop] !=
	    NULL ? ended_by[res->stop] : "error");
	jw_uint(&o, "discarded", res->discarded);
	jw_uint(&o, "split_rounds", res->split_rounds);
	jw_uint(&o, "split_left_out", res->split_left_out);
	jw_str(&o, "loop", cfg->open_loop ? "open" : "closed");
	jw_uint(&o, "pending", res->npending);
	jw_int_if(&o, "pending_oldest_ns", res->npending > 0,
	    res->pending_age);
	jw_int_if(&o, "pending_client", res->npending > 0,
	    res->pending_client);
	jw_uint(&o, "not_sent", res->nunsent);
	jw_int(&o, "unreachable_ns", res->waited);
	jw_num_if(&o, "unreachable_pct", !cfg->open_loop && ran > 0,
	    100.0 * (double)res->waited / (double)ran);
	jw_object(&o, "stalls", &s, " ");
	jw_uint(&s, "count", res->nstalls);
	jw_int(&s, "total_ns", res->stall_total);
	jw_array(&s, "first", &a, " ");
	for (i = 0; i < n; i++) {
		jw_object(&a, NULL, &t, " ");
		jw_int(&t, "at_ns", res->stalls[i].when);
		jw_int(&t, "len_ns", res->stalls[i].len);
		jw_end(&t, "");
	}
	jw_end(&a, "");
	jw_end(&s, "");
	jw_int(&o, "started_at_ns", res->start_wall);
	jw_int(&o, "suspended_ns", res->suspended);
	jw_uint(&o, "suspensions", res->nsuspend);
	jw_uint(&o, "suspended_dropped", res->susp_dropped);
	jw_int_if(&o, "workload_stopped_by", res->wl_stopsig != 0,
	    res->wl_stopsig);
	if (res->knob_moved[0] != '\0')
		jw_str(&o, "knob_changed_to", res->knob_moved);
	jw_end(&o, "\n  ");
}

/*
 * The series of a list that are on, each a member of in named by the
 * series: the placement kinds' (place) or the others but a frame class's.
 */
static void
put_series_list(struct jw *in, const struct series *ser, int place)
{
	unsigned i;

	for (i = 0; i < SER_N; i++)
		if (ser[i].on && !series_info[i].frame &&
		    series_info[i].place == place)
			put_series(in, series_info[i].name, &ser[i].st,
			    series_info[i].client);
}

/*
 * Where the wake-ups woke, as the member "placement": how the topology
 * was known, the samples of no kind, the migrations, and every kind's
 * series (those without samples too).  null when the run took no
 * placement.
 */
static void
put_placement(struct jw *in, const struct result *res)
{
	struct jw o;

	if (!jw_object_if(in, "placement", &o, " ", res->topo != NULL &&
	    res->ser[SER_PLACE_SAME_CPU].on))
		return;
	jw_str(&o, "llc_from", res->topo->llc_from);
	jw_str(&o, "node_from", res->topo->node_from);
	jw_uint(&o, "unknown", res->place_unknown);
	jw_uint(&o, "migrated", res->migrated);
	o.sep = "\n  ";
	put_series_list(&o, res->ser, 1);
	jw_end(&o, "");
}

/*
 * A series: the statistics of the text summary and the histogram's
 * non-empty buckets.  with_client says whether the maximum's tag is a
 * client (it is not for the timer series).
 */
static void
put_series(struct jw *in, const char *key, const struct stats *st,
    int with_client)
{
	const struct hist *h = &st->hist;
	int64_t pct[NQUANTILES];
	struct jw o, hg, b, t;
	size_t i;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	jw_object(in, key, &o, "\n    ");
	jw_uint(&o, "samples", st->n);
	jw_uint(&o, "overflow", h->overflow);
	jw_int(&o, "min_ns", st->min);
	jw_int(&o, "max_ns", st->max);
	jw_int_if(&o, "max_client", with_client && st->n > 0, st->max_tag);
	jw_int_if(&o, "max_at_ns", st->n > 0, st->max_when);
	jw_num(&o, "mean_ns", stats_mean(st));
	jw_num(&o, "stdev_ns", stats_stdev(st));
	jw_num(&o, "stderr_ns", stats_sterr(st));
	/* null where fewer than STATS_BEYOND samples lie beyond it. */
	for (i = 0; i < NQUANTILES; i++)
		jw_int_if(&o, qkeys[i], st->n >= stats_need_q(quantiles[i]),
		    pct[i]);
	jw_object(&o, "histogram", &hg, " ");
	jw_uint(&hg, "sub_bits", h->sub_bits);
	jw_array(&hg, "buckets", &b, "\n      ");
	for (i = 0; i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		jw_array(&b, NULL, &t, " ");
		jw_int(&t, NULL, hist_lower(h, i));
		jw_int(&t, NULL, hist_upper(h, i));
		jw_uint(&t, NULL, h->counts[i]);
		jw_end(&t, "");
	}
	jw_end(&b, "\n    ");
	jw_end(&hg, "");
	jw_end(&o, "\n  ");
}

static void
put_per_client(struct jw *in, const char *key, const struct config *cfg,
    const struct result *res)
{
	static const double q99[] = { 0.99 };
	const struct client_stats *cs;
	struct jw a, o;
	int64_t p99;
	unsigned i;

	jw_array(in, key, &a, "\n    ");
	for (i = 0; res->clients != NULL && i < cfg->nclients; i++) {
		cs = &res->clients[i];
		stats_percentiles(&cs->lat, q99, &p99, 1);
		jw_object(&a, NULL, &o, " ");
		jw_uint(&o, "client", i);
		jw_uint(&o, "samples", cs->lat.n);
		jw_num(&o, "mean_ns", stats_mean(&cs->lat));
		jw_int(&o, "max_ns", cs->lat.max);
		jw_int_if(&o, "p99_ns", cs->lat.n >= stats_need_q(q99[0]), p99);
		jw_uint(&o, "migrations", cs->migrations);
		jw_end(&o, "");
	}
	jw_end(&a, "\n  ");
}

/*
 * What each load completed: its operations and their rate (ops/s
 * rounded to a whole number as printf's %.0f does).
 */
static void
put_loads(struct jw *in, const char *key, const struct workload *wl)
{
	const struct load_run *lr;
	struct jw a, o;
	double secs;
	unsigned i;

	jw_array(in, key, &a, "\n    ");
	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		secs = (double)(lr->end - lr->start) / NSEC_PER_SEC;
		jw_object(&a, NULL, &o, " ");
		jw_str(&o, "kind", config_load_name(lr->kind));
		jw_uint(&o, "procs", lr->nproc);
		jw_uint(&o, "started", lr->nstarted);
		jw_uint(&o, "ops", lr->ops);
		jw_int(&o, "wall_ns", lr->end - lr->start);
		jw_int(&o, "ops_per_sec", secs > 0 ?
		    llrint((double)lr->ops / secs) : 0);
		jw_uint(&o, "ended_early", lr->nlost);
		put_cpu_list(&o, "cpus", lr->cpus, lr->ncpus);
		jw_end(&o, "");
	}
	jw_end(&a, "\n  ");
}

/*
 * What the kernel counted (struct counts), or null when it could not be
 * read: the machine's switches and interrupts, the clients' switches and
 * migrations (null where unknown), and procs_running's mean.
 */
static void
put_counts(struct jw *in, const char *key, const struct counts *c)
{
	double sw = counts_rate(c, c->ctxt), irq = counts_rate(c, c->intr);
	struct jw o;

	if (!jw_object_if(in, key, &o, " ", c->valid))
		return;
	jw_int(&o, "elapsed_ns", c->elapsed);
	jw_uint(&o, "context_switches", c->ctxt);
	jw_num_if(&o, "switches_per_s", sw >= 0, sw);
	jw_uint(&o, "interrupts", c->intr);
	jw_num_if(&o, "interrupts_per_s", irq >= 0, irq);
	jw_int_if(&o, "clients_voluntary", c->clients_ok, c->vol);
	jw_int_if(&o, "clients_involuntary", c->clients_ok, c->invol);
	jw_int_if(&o, "clients_migrations", c->migr_ok, c->migr);
	jw_num_if(&o, "runnable_mean", c->nrunnable > 0,
	    counts_runnable_mean(c));
	jw_uint(&o, "runnable_samples", c->nrunnable);
	jw_end(&o, "");
}

/*
 * --sweep: its setting and one object a value: the value as given, its
 * runs (the objects of "runs", cut out of their text), its wake-ups over
 * all its runs, the mean over the runs with its 95% interval, what the
 * kernel counted and each load's rate.  null without a sweep.
 */
static void
put_sweep(struct jw *in, const char *key, const struct sweep_result *sr,
    const char *runs)
{
	struct jw o, a;
	unsigned i;

	if (!jw_object_if(in, key, &o, " ", sr != NULL))
		return;
	jw_str(&o, "name", sr->name);
	jw_str(&o, "file", sr->file);
	jw_array(&o, "points", &a, "\n    ");
	for (i = 0; i < sr->n; i++)
		put_point(&a, &sr->pt[i], runs);
	jw_end(&a, "");
	jw_end(&o, "");
}

static void
put_point(struct jw *in, const struct sweep_point *p, const char *runs)
{
	double sw = counts_rate(&p->counts, p->counts.ctxt);
	double rq = counts_runnable_mean(&p->counts), rate;
	size_t len = strlen(runs);
	struct jw o, a, l;
	unsigned k;

	jw_object(in, NULL, &o, " ");
	jw_str(&o, "value", p->value);
	jw_uint(&o, "nruns", p->nruns);
	jw_array(&o, "runs", &a, "");
	for (k = 0; k < p->njson; k++)
		if (p->json[k][1] > p->json[k][0] && p->json[k][1] <= len)
			jw_raw(&a, NULL, runs + p->json[k][0], p->json[k][1] -
			    p->json[k][0]);
	jw_end(&a, "");
	jw_sep(&o, "\n    ");
	put_series(&o, "latency", &p->lat, 1);
	jw_sep(&o, "\n    ");
	jw_num_if(&o, "mean_ns", p->nruns > 0, p->mean);
	jw_num_if(&o, "mean_ci95_ns", p->half >= 0, p->half);
	jw_num_if(&o, "switches_per_s", sw >= 0, sw);
	jw_num_if(&o, "runnable_mean", rq >= 0, rq);
	jw_sep(&o, "\n    ");
	put_counts(&o, "counts", &p->counts);
	jw_sep(&o, "\n    ");
	jw_array(&o, "loads", &a, " ");
	for (k = 0; k < p->nload; k++) {
		rate = p->load_ns[k] > 0 ? (double)p->load_ops[k] *
		    NSEC_PER_SEC / (double)p->load_ns[k] : 0;
		jw_object(&a, NULL, &l, " ");
		jw_str(&l, "kind", config_load_name(p->load_kind[k]));
		jw_uint(&l, "procs", p->load_nproc[k]);
		jw_uint(&l, "ops", p->load_ops[k]);
		jw_int(&l, "wall_ns", p->load_ns[k]);
		jw_num(&l, "ops_per_sec", rate);
		jw_num(&l, "ops_per_sec_per_proc", p->load_nproc[k] > 0 ?
		    rate / p->load_nproc[k] : 0);
		jw_end(&l, "");
	}
	jw_end(&a, "");
	jw_end(&o, "");
}

/* latt's own floor (struct own_floor), each figure null when not measured. */
static void
put_floor(struct jw *in, const char *key, const struct own_floor *f)
{
	const double v[3] = { f->clock_ns, f->pipe_ns, f->pingpong_ns };
	static const char *const k[3] = { "clock_ns", "pipe_ns",
	    "pingpong_ns" };
	struct jw o;
	int i;

	if (!jw_object_if(in, key, &o, " ", f->valid))
		return;
	for (i = 0; i < 3; i++)
		jw_num_if(&o, k[i], v[i] >= 0, v[i]);
	jw_end(&o, "");
}

/* A list of CPUs, or null when there is none (not pinned). */
static void
put_cpu_list(struct jw *in, const char *key, const int *cpus, unsigned n)
{
	struct jw a;
	unsigned i;

	if (!jw_array_if(in, key, &a, " ", n > 0))
		return;
	for (i = 0; i < n; i++)
		jw_int(&a, NULL, cpus[i]);
	jw_end(&a, "");
}

/*
 * The classes of -c N:ATTR...: each class's name, then at the top level
 * what was asked, what the kernel read back for the class's first client,
 * and the latency series of its clients (over all runs) (put_class); in a
 * run (in_run), its series, for compare.  An empty array
 * without classes.
 */
static void
put_classes(struct jw *in, const char *key, const struct config *cfg,
    const struct result *res, int in_run)
{
	const struct class_result *c;
	const struct client_class *cl;
	struct jw a, o;
	unsigned i;

	jw_array(in, key, &a, "\n    ");
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++) {
		cl = &cfg->classes[i];
		c = &res->classes[i];
		jw_object(&a, NULL, &o, " ");
		jw_str(&o, "name", cl->name);
		if (!in_run)
			put_class(&o, cl, c);
		else if (cl->frame > 0)
			put_frames(&o, cl, c);
		else
			put_series(&o, "latency", &c->ser[SER_LATENCY].st, 1);
		jw_end(&o, "");
	}
	jw_end(&a, "\n  ");
}

static void
put_class(struct jw *o, const struct client_class *cl,
    const struct class_result *c)
{
	const struct sched_req *r = &cl->sched;
	const struct sched_got *g = &c->got;
	int rt = r->policy == SCHED_FIFO || r->policy == SCHED_RR;
	int dl = r->policy == SCHED_DEADLINE;
	struct jw q;

	jw_str(o, "spec", cl->spec);
	jw_uint(o, "clients", cl->n);
	jw_uint(o, "first_client", cl->first);
	o->sep = "\n     ";
	jw_object(o, "requested", &q, " ");
	jw_str(&q, "policy", r->policy == -1 ? NULL :
	    config_policy_name(r->policy));
	jw_int_if(&q, "prio", rt, r->prio);
	jw_int_if(&q, "nice", r->set_nice, r->nice);
	jw_int_if(&q, "slice_ns", r->slice > 0, r->slice);
	jw_int_if(&q, "runtime_ns", dl, r->runtime);
	jw_int_if(&q, "deadline_ns", dl, r->deadline);
	jw_int_if(&q, "period_ns", dl, r->period);
	put_cpu_list(&q, "cpus", cl->cpus, cl->ncpus);
	jw_end(&q, "");
	rt = g->policy == SCHED_FIFO || g->policy == SCHED_RR;
	dl = g->policy == SCHED_DEADLINE;
	if (jw_object_if(o, "kernel", &q, " ", g->valid)) {
		jw_str(&q, "policy", config_policy_name(g->policy));
		jw_int(&q, "prio", g->prio);
		jw_int(&q, "nice", g->nice);
		jw_int_if(&q, "slice_ns", !rt && !dl, g->runtime);
		jw_int_if(&q, "runtime_ns", dl, g->runtime);
		jw_int_if(&q, "deadline_ns", dl, g->deadline);
		jw_int_if(&q, "period_ns", dl, g->period);
		jw_end(&q, "");
	}
	put_series_list(o, c->ser, 0);
	if (cl->frame > 0)
		put_frames(o, cl, c);
}

/*
 * A frame class's member "frames": its period and busy phase, its
 * deadlines (percentages from 0 to 100, null without a deadline), the
 * longest stutter, and its two series.
 */
static void
put_frames(struct jw *in, const struct client_class *cl,
    const struct class_result *c)
{
	const struct frame_counts *fr = &c->fr;
	uint64_t all = frame_deadlines(fr);
	struct jw o;

	jw_sep(in, "\n     ");
	jw_object(in, "frames", &o, " ");
	jw_int(&o, "period_ns", cl->frame);
	jw_int(&o, "busy_ns", cl->busy);
	jw_uint(&o, "frames", fr->frames);
	jw_uint(&o, "deadlines", all);
	jw_uint(&o, "met", fr->met);
	jw_sep(&o, "\n      ");
	jw_num_if(&o, "met_pct", all > 0, 100.0 * (double)fr->met /
	    (double)all);
	jw_num_if(&o, "desired_cpu_pct", all > 0, 100.0 *
	    (double)fr->frames / (double)all);
	jw_uint(&o, "missed", fr->missed);
	jw_uint(&o, "not_started", fr->not_started);
	jw_sep(&o, "\n      ");
	jw_uint(&o, "longest_stutter_frames", fr->longest);
	jw_int(&o, "longest_stutter_ns", (long long)fr->longest * cl->frame);
	o.sep = "\n      ";
	put_series(&o, "wake", &c->ser[SER_FRAME_WAKE].st, 1);
	put_series(&o, "frame_time", &c->ser[SER_FRAME_TIME].st, 1);
	jw_end(&o, "");
}

/*
 * The real-time order check (order.h), or null without real-time
 * clients: the counts, the release spread as a series, and the worst
 * inversions, worst first.
 */
static void
put_order(struct jw *in, const char *key, const struct config *cfg,
    const struct order *o)
{
	const struct inversion *v;
	struct jw w, a, e;
	unsigned i;

	if (!jw_object_if(in, key, &w, "\n    ", o != NULL))
		return;
	jw_uint(&w, "rounds", o->rounds);
	jw_uint(&w, "inversions", o->inversions);
	jw_uint(&w, "rounds_with_inversions", o->bad_rounds);
	jw_num_if(&w, "share", o->rounds > 0, (double)o->bad_rounds /
	    (double)o->rounds);
	jw_uint(&w, "single_priority_rounds", o->single);
	jw_uint(&w, "unchecked", o->unchecked);
	jw_int(&w, "slack_ns", o->slack);
	put_series(&w, "release_spread", &o->spread, 0);
	jw_array(&w, "worst", &a, "\n      ");
	for (i = 0; i < o->nworst; i++) {
		v = &o->worst[i];
		jw_object(&a, NULL, &e, " ");
		jw_uint(&e, "round", v->round);
		jw_int(&e, "at_ns", v->when);
		jw_int(&e, "waited_ns", v->waited);
		jw_int(&e, "held_ns", v->held);
		jw_sep(&e, "\n       ");
		put_who(&e, "waiter", cfg, v->waiter, v->waiter_cpu);
		put_who(&e, "ran", cfg, v->ran, v->ran_cpu);
		jw_end(&e, "");
	}
	jw_end(&a, "\n    ");
	jw_end(&w, "");
}

/* A client of an inversion: its number, class (or null) and CPU. */
static void
put_who(struct jw *in, const char *key, const struct config *cfg,
    unsigned idx, int cpu)
{
	struct jw o;

	jw_object(in, key, &o, " ");
	jw_uint(&o, "client", idx);
	jw_str(&o, "class", cfg->nclasses > 0 && idx < cfg->nclients ?
	    cfg->classes[cfg->class_of[idx]].name : NULL);
	jw_int(&o, "cpu", cpu);
	jw_end(&o, "");
}
