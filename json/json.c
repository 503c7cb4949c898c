/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON report: writes a finished run as one JSON object in the schema
 * of docs/json-schema.md (schema_version 2), with every setting that moves
 * the numbers and the environment the run took place in.  The top level
 * holds the totals of all runs (--repeat); "runs" holds each run, with the
 * per-block histograms that latt compare resamples.  jsonw.c writes the
 * strings and numbers.
 */
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "json/json.h"
#include "json/jsonexpl.h"
#include "json/jsonmach.h"
#include "json/jsonw.h"
#include "lib/common.h"
#include "record/topo.h"
#include "result.h"

#define SCHEMA_VERSION	2

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qkeys[] = { "p50_ns", "p90_ns", "p99_ns",
    "p99_9_ns", "p99_99_ns" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

static void	 put_policy(FILE *, int);
static void	 put_parameters(FILE *, const struct config *);
static void	 put_environment(FILE *, const struct result *);
static void	 put_scheduler(FILE *, const struct sched_info *);
static void	 put_classes(FILE *, const struct config *,
		    const struct result *, int);
static void	 put_workload(FILE *, const struct workload *);
static void	 put_run(FILE *, const struct config *, const struct result *);
static void	 put_series(FILE *, const struct stats *, int with_client,
		    const struct blocks *);
static void	 put_series_list(FILE *, const struct series *, const char *,
		    int);
static void	 put_placement(FILE *, const struct result *, int);
static void	 put_loads(FILE *, const struct workload *);
static void	 put_cpu_list(FILE *, const int *, unsigned);
static void	 put_floor(FILE *, const struct own_floor *);
static void	 put_sweep(FILE *, const struct sweep_result *, const char *);
static void	 put_known(FILE *, double);
static void	 put_point(FILE *, const struct sweep_point *, const char *);
static void	 put_blocks(FILE *, const struct blocks *);
static void	 put_per_client(FILE *, const struct config *,
		    const struct result *);
static void	 put_frames(FILE *, const struct client_class *,
		    const struct class_result *, int blocks);
static void	 put_order(FILE *, const struct config *,
		    const struct order *);
static void	 put_who(FILE *, const struct config *, unsigned, int);

int
json_write(FILE *fp, const struct config *cfg, const struct result *total,
    unsigned nruns, const char *runs)
{
	int first = 1;

	fputc('{', fp);
	jw_key(fp, &first, "\n  ", "schema_version");
	fprintf(fp, "%d", SCHEMA_VERSION);
	jw_key(fp, &first, "\n  ", "tool");
	jw_string(fp, "latt");
	jw_key(fp, &first, "\n  ", "version");
	jw_string(fp, LATT_VERSION);
	jw_key(fp, &first, "\n  ", "parameters");
	put_parameters(fp, cfg);
	jw_key(fp, &first, "\n  ", "environment");
	put_environment(fp, total);
	jw_key(fp, &first, "\n  ", "workload");
	put_workload(fp, &total->wl);
	jw_key(fp, &first, "\n  ", "run");
	put_run(fp, cfg, total);
	jw_key(fp, &first, "\n  ", "nruns");
	fprintf(fp, "%u", nruns);
	put_series_list(fp, total->ser, "  ", 0);
	put_placement(fp, total, 0);
	jw_key(fp, &first, "\n  ", "schedstat");
	fputs(total->ser[SER_RUNQUEUE].on ? "true" : "false", fp);
	jw_key(fp, &first, "\n  ", "loads");
	put_loads(fp, &total->wl);
	jw_key(fp, &first, "\n  ", "counts");
	json_counts(fp, &total->counts);
	jw_key(fp, &first, "\n  ", "machine");
	jsonmach_noise(fp, &total->noise, 0);
	jw_key(fp, &first, "\n  ", "floor");
	put_floor(fp, &total->floor);
	jw_key(fp, &first, "\n  ", "per_client");
	put_per_client(fp, cfg, total);
	jw_key(fp, &first, "\n  ", "classes");
	put_classes(fp, cfg, total, 0);
	jw_key(fp, &first, "\n  ", "order");
	put_order(fp, cfg, total->order);
	if (total->autopsy != NULL) {
		jw_key(fp, &first, "\n  ", "explain");
		jsonexpl_write(fp, total);
	}
	jw_key(fp, &first, "\n  ", "sweep");
	put_sweep(fp, total->sweep, runs);
	jw_key(fp, &first, "\n  ", "runs");
	fputs("[", fp);
	fputs(runs, fp);
	fputs("\n  ]\n}\n", fp);
	return ferror(fp) ? -1 : 0;
}

/*
 * One run, as an element of "runs": what ended it, its workload and
 * loads, and its series with their blocks.
 */
int
json_write_run(FILE *fp, const struct config *cfg, const struct result *res)
{
	fputs("\n  {\"run\": ", fp);
	put_run(fp, cfg, res);
	fputs(",\n  \"workload\": ", fp);
	put_workload(fp, &res->wl);
	/* --sweep=FILE=...: the knob's value the run ran under. */
	fputs(",\n  \"knob\": ", fp);
	if (cfg->sweep.kind == SWEEP_KNOB && cfg->sweep.at >= 0) {
		fputs("{\"file\": ", fp);
		jw_string(fp, cfg->sweep.file);
		fputs(", \"value\": ", fp);
		jw_string(fp, cfg->sweep.text[cfg->sweep.at]);
		fputc('}', fp);
	} else
		fputs("null", fp);
	put_series_list(fp, res->ser, "  ", 1);
	put_placement(fp, res, 1);
	if (res->autopsy != NULL) {
		fputs(",\n  \"explain\": ", fp);
		jsonexpl_write(fp, res);
	}
	fputs(",\n  \"loads\": ", fp);
	put_loads(fp, &res->wl);
	fputs(",\n  \"counts\": ", fp);
	json_counts(fp, &res->counts);
	fputs(",\n  \"machine\": ", fp);
	jsonmach_noise(fp, &res->noise, 1);
	fputs(",\n  \"classes\": ", fp);
	put_classes(fp, cfg, res, 1);
	fputs(",\n  \"order\": ", fp);
	put_order(fp, cfg, res->order);
	fputs("}", fp);
	return ferror(fp) ? -1 : 0;
}

static void
put_parameters(FILE *fp, const struct config *cfg)
{
	int first = 1, i;

	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "clients");
	fprintf(fp, "%u", cfg->nclients);
	jw_key(fp, &first, "\n    ", "min_delay_ns");
	fprintf(fp, "%lld", (long long)cfg->min_delay);
	jw_key(fp, &first, "\n    ", "max_delay_ns");
	fprintf(fp, "%lld", (long long)cfg->max_delay);
	jw_key(fp, &first, "\n    ", "seed");
	fprintf(fp, "%llu", (unsigned long long)cfg->seed);
	jw_key(fp, &first, "\n    ", "command");
	if (cfg->ncmd == 1)
		jw_string(fp, cfg->cmd[0]);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "argv");
	fputc('[', fp);
	for (i = 0; i < cfg->ncmd; i++) {
		if (i > 0)
			fputs(", ", fp);
		jw_string(fp, cfg->cmd[i]);
	}
	fputc(']', fp);
	jw_key(fp, &first, "\n    ", "loads");
	fputc('[', fp);
	for (i = 0; i < (int)cfg->nload; i++) {
		fprintf(fp, "%s{\"kind\": \"%s\", \"procs\": %u",
		    i > 0 ? ", " : "", config_load_name(cfg->load[i].kind),
		    config_load_nproc(cfg->load[i].kind, cfg->load[i].n));
		/* Only a pinned load says so: unpinned ones stay as ever. */
		if (cfg->load[i].ncpus > 0) {
			fputs(", \"cpus\": ", fp);
			put_cpu_list(fp, cfg->load[i].cpus,
			    cfg->load[i].ncpus);
		}
		fputc('}', fp);
	}
	fputc(']', fp);
	jw_key(fp, &first, "\n    ", "duration_ns");
	if (cfg->duration > 0)
		fprintf(fp, "%lld", (long long)cfg->duration);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "samples_limit");
	if (cfg->samples > 0)
		fprintf(fp, "%llu", (unsigned long long)cfg->samples);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "warmup_ns");
	fprintf(fp, "%lld", (long long)cfg->warmup);
	jw_key(fp, &first, "\n    ", "work_kb");
	if (cfg->work_kb > 0)
		fprintf(fp, "%u", cfg->work_kb);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "policy");
	put_policy(fp, cfg->policy);
	jw_key(fp, &first, "\n    ", "priority");
	jw_int_or_null(fp, cfg->policy == SCHED_FIFO ||
	    cfg->policy == SCHED_RR, cfg->prio);
	jw_key(fp, &first, "\n    ", "nice");
	jw_int_or_null(fp, cfg->set_nice, cfg->nice);
	jw_key(fp, &first, "\n    ", "cpus");
	if (cfg->cpus != NULL) {
		fputc('[', fp);
		for (i = 0; i < (int)cfg->ncpus; i++)
			fprintf(fp, "%s%d", i > 0 ? ", " : "", cfg->cpus[i]);
		fputc(']', fp);
	} else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "parent_cpu");
	jw_int_or_null(fp, cfg->parent_cpu >= 0, cfg->parent_cpu);
	jw_key(fp, &first, "\n    ", "mlock");
	fputs(cfg->mlock ? "true" : "false", fp);
	jw_key(fp, &first, "\n    ", "repeat");
	fprintf(fp, "%u", cfg->repeat);
	jw_key(fp, &first, "\n    ", "bare");
	fputs(cfg->bare ? "true" : "false", fp);
	jw_key(fp, &first, "\n    ", "loop");
	jw_string(fp, cfg->open_loop ? "open" : "closed");
	jw_key(fp, &first, "\n    ", "split");
	fputs(cfg->no_split ? "false" : "true", fp);
	jw_key(fp, &first, "\n    ", "split_every");
	jw_int_or_null(fp, !cfg->no_split, (long long)cfg->split_every);
	jw_key(fp, &first, "\n    ", "parent_policy");
	jw_str_or_null(fp, cfg->parent_policy == SCHED_FIFO ? "fifo" :
	    cfg->parent_policy == SCHED_OTHER ? "other" : NULL);
	jw_key(fp, &first, "\n    ", "parent_prio");
	if (cfg->parent_policy == SCHED_FIFO)
		fprintf(fp, "%d", cfg->parent_prio);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "dma_latency_us");
	if (cfg->dma_latency >= 0)
		fprintf(fp, "%d", cfg->dma_latency);
	else
		fputs("null", fp);
	fputs("\n  }", fp);
}

/* A scheduling policy by name, or null when latt left it as inherited. */
static void
put_policy(FILE *fp, int policy)
{
	const char *name = config_policy_name(policy);

	if (policy == -1)
		fputs("null", fp);
	else if (strcmp(name, "?") == 0)
		fprintf(fp, "%d", policy);
	else
		jw_string(fp, name);
}

static void
put_environment(FILE *fp, const struct result *total)
{
	static const char *keys[] = { "clocksource", "cpufreq_governor",
	    "smt" };		/* env_machine_changed's order */
	const struct sched_info *si = &total->sched;
	const struct environment *e = &total->env;
	const char *was, *now;
	unsigned i = 0;
	int first = 1, inner = 1;

	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "kernel_release");
	jw_str_or_null(fp, e->kernel_release);
	jw_key(fp, &first, "\n    ", "kernel_version");
	jw_str_or_null(fp, e->kernel_version);
	jw_key(fp, &first, "\n    ", "machine");
	jw_str_or_null(fp, e->arch);
	jw_key(fp, &first, "\n    ", "hostname");
	jw_str_or_null(fp, e->hostname);
	jw_key(fp, &first, "\n    ", "cpus_online");
	jw_int_or_null(fp, e->cpus_online > 0, e->cpus_online);
	jw_key(fp, &first, "\n    ", "clocksource");
	jw_str_or_null(fp, total->mach.clocksource);
	jw_key(fp, &first, "\n    ", "cmdline");
	jw_str_or_null(fp, e->cmdline);
	jw_key(fp, &first, "\n    ", "preemption");
	jw_str_or_null(fp, si->preemption);
	/* What compare warns about: "fair", or "sched_ext: OPS". */
	jw_key(fp, &first, "\n    ", "scheduler");
	if (si->ext_state != NULL && strcmp(si->ext_state, "enabled") == 0)
		fprintf(fp, "\"sched_ext: %s\"", si->ext_ops != NULL ?
		    si->ext_ops : "?");
	else
		jw_string(fp, "fair");
	jw_key(fp, &first, "\n    ", "scheduler_detail");
	put_scheduler(fp, si);
	jw_key(fp, &first, "\n    ", "cpufreq_governor");
	jw_str_or_null(fp, total->mach.governor);
	jw_key(fp, &first, "\n    ", "smt");
	jw_str_or_null(fp, total->mach.smt);
	/* What changed between the run's start and its end. */
	jw_key(fp, &first, "\n    ", "changed_during_run");
	fputc('{', fp);
	while (env_machine_changed(&total->mach, &total->mach_end, &was, &now,
	    &i) != NULL) {
		if (!inner)
			fputs(", ", fp);
		inner = 0;
		jw_string(fp, keys[i - 1]);
		fputs(": {\"start\": ", fp);
		jw_string(fp, was);
		fputs(", \"end\": ", fp);
		jw_string(fp, now);
		fputc('}', fp);
	}
	fputc('}', fp);
	jw_key(fp, &first, "\n    ", "cpu_model");
	jw_str_or_null(fp, e->cpu_model);
	jw_key(fp, &first, "\n    ", "virtualization");
	jw_str_or_null(fp, e->virtualization);
	/* The slack the workload inherited (latt's own is 1 ns). */
	jw_key(fp, &first, "\n    ", "timer_slack_ns");
	fprintf(fp, "%lu", e->timer_slack);
	jw_key(fp, &first, "\n    ", "latt_version");
	jw_string(fp, LATT_VERSION);
	jw_key(fp, &first, "\n    ", "host");
	jsonmach_host(fp, total);
	fputs("\n  }", fp);
}

static void
put_workload(FILE *fp, const struct workload *wl)
{
	const char *status;
	int first = 1, code = -1, sig = -1;

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
	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "status");
	jw_string(fp, status);
	jw_key(fp, &first, "\n    ", "exit_code");
	if (code >= 0)
		fprintf(fp, "%d", code);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "signal");
	if (sig >= 0)
		fprintf(fp, "%d", sig);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "wall_ns");
	fprintf(fp, "%lld", (long long)(wl->pid > 0 && wl->end >= wl->start ?
	    wl->end - wl->start : 0));
	jw_key(fp, &first, "\n    ", "cpu_ns");
	jw_int_or_null(fp, wl->pid > 0 && wl->reaped && wl->cpu_ns >= 0,
	    (long long)wl->cpu_ns);
	fputs("\n  }", fp);
}

static const char *
ended_by(enum stop_reason stop)
{
	switch (stop) {
	case STOP_WORKLOAD:
		return "workload";
	case STOP_SIGNAL:
		return "signal";
	case STOP_CLIENT:
		return "client";
	case STOP_DURATION:
		return "duration";
	case STOP_SAMPLES:
		return "samples";
	case STOP_BREAK:
		return "breaktrace";
	case STOP_ERROR:
	case STOP_SINK:
		return "error";
	default:
		return "error";
	}
}

static void
put_run(FILE *fp, const struct config *cfg, const struct result *res)
{
	uint64_t i, n;
	int first = 1;

	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "wall_ns");
	fprintf(fp, "%lld", (long long)(res->end - res->start));
	jw_key(fp, &first, "\n    ", "rounds");
	fprintf(fp, "%llu", (unsigned long long)res->nrounds);
	jw_key(fp, &first, "\n    ", "ended_by");
	jw_string(fp, ended_by(res->stop));
	jw_key(fp, &first, "\n    ", "discarded");
	fprintf(fp, "%llu", (unsigned long long)res->discarded);
	jw_key(fp, &first, "\n    ", "split_rounds");
	fprintf(fp, "%llu", (unsigned long long)res->split_rounds);
	jw_key(fp, &first, "\n    ", "split_left_out");
	fprintf(fp, "%llu", (unsigned long long)res->split_left_out);
	jw_key(fp, &first, "\n    ", "loop");
	jw_string(fp, cfg->open_loop ? "open" : "closed");
	jw_key(fp, &first, "\n    ", "pending");
	fprintf(fp, "%llu", (unsigned long long)res->npending);
	jw_key(fp, &first, "\n    ", "pending_oldest_ns");
	if (res->npending > 0)
		fprintf(fp, "%lld", (long long)res->pending_age);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "pending_client");
	if (res->npending > 0)
		fprintf(fp, "%u", res->pending_client);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "not_sent");
	fprintf(fp, "%llu", (unsigned long long)res->nunsent);
	jw_key(fp, &first, "\n    ", "stalls");
	fprintf(fp, "{\"count\": %llu, \"total_ns\": %lld, \"first\": [",
	    (unsigned long long)res->nstalls, (long long)res->stall_total);
	n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	for (i = 0; i < n; i++)
		fprintf(fp, "%s{\"at_ns\": %lld, \"len_ns\": %lld}",
		    i > 0 ? ", " : "", (long long)res->stalls[i].when,
		    (long long)res->stalls[i].len);
	fputs("]}", fp);
	jw_key(fp, &first, "\n    ", "started_at_ns");
	fprintf(fp, "%lld", (long long)res->start_wall);
	jw_key(fp, &first, "\n    ", "suspended_ns");
	fprintf(fp, "%lld", (long long)res->suspended);
	jw_key(fp, &first, "\n    ", "suspensions");
	fprintf(fp, "%u", res->nsuspend);
	jw_key(fp, &first, "\n    ", "suspended_dropped");
	fprintf(fp, "%llu", (unsigned long long)res->susp_dropped);
	jw_key(fp, &first, "\n    ", "workload_stopped_by");
	if (res->wl_stopsig != 0)
		fprintf(fp, "%d", res->wl_stopsig);
	else
		fputs("null", fp);
	fputs("\n  }", fp);
}

/*
 * The series of a list that are on, each as a member ",\n INDENT name:
 * {...}", with their blocks when blocks is set (a run's, for compare).
 */
static void
put_series_list(FILE *fp, const struct series *ser, const char *indent,
    int blocks)
{
	unsigned i;

	for (i = 0; i < SER_N; i++) {
		if (!ser[i].on || series_info[i].frame ||
		    series_info[i].place)
			continue;
		fprintf(fp, ",\n%s", indent);
		jw_string(fp, series_info[i].name);
		fputs(": ", fp);
		put_series(fp, &ser[i].st, series_info[i].client,
		    blocks ? ser[i].blocks : NULL);
	}
}

/*
 * Where the wake-ups woke, as the member ",\n  "placement": {...}": how
 * the topology was known, the samples of no kind, the migrations, and
 * every kind's series (those without samples too), with their blocks when
 * blocks is set.  null when the run took no placement.
 */
static void
put_placement(FILE *fp, const struct result *res, int blocks)
{
	unsigned i;

	fputs(",\n  \"placement\": ", fp);
	if (res->topo == NULL || !res->ser[SER_PLACE_SAME_CPU].on) {
		fputs("null", fp);
		return;
	}
	fputs("{\"llc_from\": ", fp);
	jw_string(fp, res->topo->llc_from);
	fputs(", \"node_from\": ", fp);
	jw_string(fp, res->topo->node_from);
	fprintf(fp, ", \"unknown\": %llu, \"migrated\": %llu",
	    (unsigned long long)res->place_unknown,
	    (unsigned long long)res->migrated);
	for (i = 0; i < SER_N; i++) {
		if (!res->ser[i].on || !series_info[i].place)
			continue;
		fputs(",\n  ", fp);
		jw_string(fp, series_info[i].name);
		fputs(": ", fp);
		put_series(fp, &res->ser[i].st, 1, blocks ?
		    res->ser[i].blocks : NULL);
	}
	fputc('}', fp);
}

/*
 * A series: the statistics of the text summary and the histogram's
 * non-empty buckets.  with_client says whether the maximum's tag is a
 * client (it is not for the timer series).
 */
static void
put_series(FILE *fp, const struct stats *st, int with_client,
    const struct blocks *bl)
{
	const struct hist *h = &st->hist;
	int64_t pct[NQUANTILES];
	int first = 1, bfirst = 1;
	size_t i;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "samples");
	fprintf(fp, "%llu", (unsigned long long)st->n);
	jw_key(fp, &first, "\n    ", "overflow");
	fprintf(fp, "%llu", (unsigned long long)h->overflow);
	jw_key(fp, &first, "\n    ", "min_ns");
	fprintf(fp, "%lld", (long long)st->min);
	jw_key(fp, &first, "\n    ", "max_ns");
	fprintf(fp, "%lld", (long long)st->max);
	jw_key(fp, &first, "\n    ", "max_client");
	if (with_client && st->n > 0)
		fprintf(fp, "%u", st->max_tag);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "max_at_ns");
	if (st->n > 0)
		fprintf(fp, "%lld", (long long)st->max_when);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "mean_ns");
	jw_double(fp, stats_mean(st));
	jw_key(fp, &first, "\n    ", "stdev_ns");
	jw_double(fp, stats_stdev(st));
	jw_key(fp, &first, "\n    ", "stderr_ns");
	jw_double(fp, stats_sterr(st));
	/* null where fewer than STATS_BEYOND samples lie beyond it. */
	for (i = 0; i < NQUANTILES; i++) {
		jw_key(fp, &first, "\n    ", qkeys[i]);
		if (st->n >= stats_need_q(quantiles[i]))
			fprintf(fp, "%lld", (long long)pct[i]);
		else
			fputs("null", fp);
	}
	jw_key(fp, &first, "\n    ", "histogram");
	fprintf(fp, "{\"sub_bits\": %u, \"buckets\": [", h->sub_bits);
	for (i = 0; i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		fprintf(fp, "%s\n      [%lld, %lld, %llu]", bfirst ? "" : ",",
		    (long long)hist_lower(h, i), (long long)hist_upper(h, i),
		    (unsigned long long)h->counts[i]);
		bfirst = 0;
	}
	fputs(bfirst ? "]}" : "\n    ]}", fp);
	if (bl != NULL)
		put_blocks(fp, bl);
	fputs("\n  }", fp);
}

/*
 * The blocks of a series: each block's samples, extremes and non-empty
 * buckets as a flat [index, count, index, count...] (index nbuckets: the
 * overflow), one line a block.
 */
static void
put_blocks(FILE *fp, const struct blocks *bl)
{
	const struct block *b;
	size_t i, j;
	int first;

	fprintf(fp, ",\n    \"blocks\": {\"sub_bits\": %u, "
	    "\"rounds_per_block\": %llu, \"list\": [",
	    bl->b[0].hist.sub_bits, (unsigned long long)bl->rounds_per);
	for (i = 0; i < bl->nused; i++) {
		b = &bl->b[i];
		fprintf(fp, "%s\n      {\"samples\": %llu, \"min_ns\": %lld, "
		    "\"max_ns\": %lld, \"buckets\": [", i > 0 ? "," : "",
		    (unsigned long long)b->n, (long long)b->min,
		    (long long)b->max);
		first = 1;
		for (j = 0; j < b->hist.nbuckets; j++)
			if (b->hist.counts[j] > 0) {
				fprintf(fp, "%s%zu,%llu", first ? "" : ",", j,
				    (unsigned long long)b->hist.counts[j]);
				first = 0;
			}
		if (b->hist.overflow > 0)
			fprintf(fp, "%s%zu,%llu", first ? "" : ",",
			    b->hist.nbuckets,
			    (unsigned long long)b->hist.overflow);
		fputs("]}", fp);
	}
	fputs(bl->nused > 0 ? "\n    ]}" : "]}", fp);
}

static void
put_per_client(FILE *fp, const struct config *cfg, const struct result *res)
{
	static const double q99[] = { 0.99 };
	const struct client_stats *cs;
	int64_t p99;
	unsigned i;

	fputc('[', fp);
	for (i = 0; res->clients != NULL && i < cfg->nclients; i++) {
		cs = &res->clients[i];
		stats_percentiles(&cs->lat, q99, &p99, 1);
		fprintf(fp, "%s\n    {\"client\": %u, \"samples\": %llu, "
		    "\"mean_ns\": ", i > 0 ? "," : "", i,
		    (unsigned long long)cs->lat.n);
		jw_double(fp, stats_mean(&cs->lat));
		fprintf(fp, ", \"max_ns\": %lld, \"p99_ns\": ",
		    (long long)cs->lat.max);
		if (cs->lat.n >= stats_need_q(q99[0]))
			fprintf(fp, "%lld", (long long)p99);
		else
			fputs("null", fp);
		fprintf(fp, ", \"migrations\": %llu}",
		    (unsigned long long)cs->migrations);
	}
	fputs(res->clients != NULL && cfg->nclients > 0 ? "\n  ]" : "]", fp);
}

/* What each load completed: its operations and their rate. */
static void
put_loads(FILE *fp, const struct workload *wl)
{
	const struct load_run *lr;
	double secs;
	unsigned i;

	fputc('[', fp);
	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		secs = (double)(lr->end - lr->start) / NSEC_PER_SEC;
		fprintf(fp, "%s\n    {\"kind\": \"%s\", \"procs\": %u, "
		    "\"started\": %u, "
		    "\"ops\": %llu, \"wall_ns\": %lld, \"ops_per_sec\": %.0f, "
		    "\"ended_early\": %u, \"cpus\": ", i > 0 ? "," : "",
		    config_load_name(lr->kind), lr->nproc, lr->nstarted,
		    (unsigned long long)lr->ops,
		    (long long)(lr->end - lr->start),
		    secs > 0 ? (double)lr->ops / secs : 0.0, lr->nlost);
		put_cpu_list(fp, lr->cpus, lr->ncpus);
		fputc('}', fp);
	}
	fputs(wl->nload > 0 ? "\n  ]" : "]", fp);
}

/*
 * What the kernel counted (struct counts), or null when it could not be
 * read: the machine's switches and interrupts, the clients' switches and
 * migrations (null where unknown), and procs_running's mean.
 */
void
json_counts(FILE *fp, const struct counts *c)
{
	int first = 1;

	if (!c->valid) {
		fputs("null", fp);
		return;
	}
	fputc('{', fp);
	jw_key(fp, &first, "", "elapsed_ns");
	fprintf(fp, "%lld", (long long)c->elapsed);
	jw_key(fp, &first, " ", "context_switches");
	fprintf(fp, "%llu", (unsigned long long)c->ctxt);
	jw_key(fp, &first, " ", "switches_per_s");
	put_known(fp, counts_rate(c, c->ctxt));
	jw_key(fp, &first, " ", "interrupts");
	fprintf(fp, "%llu", (unsigned long long)c->intr);
	jw_key(fp, &first, " ", "interrupts_per_s");
	put_known(fp, counts_rate(c, c->intr));
	jw_key(fp, &first, " ", "clients_voluntary");
	jw_int_or_null(fp, c->clients_ok, (long long)c->vol);
	jw_key(fp, &first, " ", "clients_involuntary");
	jw_int_or_null(fp, c->clients_ok, (long long)c->invol);
	jw_key(fp, &first, " ", "clients_migrations");
	jw_int_or_null(fp, c->migr_ok, (long long)c->migr);
	jw_key(fp, &first, " ", "runnable_mean");
	if (c->nrunnable > 0)
		jw_double(fp, counts_runnable_mean(c));
	else
		fputs("null", fp);
	jw_key(fp, &first, " ", "runnable_samples");
	fprintf(fp, "%llu}", (unsigned long long)c->nrunnable);
}

/*
 * --sweep: its setting and one object a value: the value as given, its
 * runs (the objects of "runs", cut out of their text), its wake-ups over
 * all its runs, the mean over the runs with its 95% interval, what the
 * kernel counted and each load's rate.  null without a sweep.
 */
static void
put_sweep(FILE *fp, const struct sweep_result *sr, const char *runs)
{
	unsigned i;

	if (sr == NULL) {
		fputs("null", fp);
		return;
	}
	fputs("{\"name\": ", fp);
	jw_string(fp, sr->name);
	fputs(", \"file\": ", fp);
	jw_str_or_null(fp, sr->file);
	fputs(", \"points\": [", fp);
	for (i = 0; i < sr->n; i++) {
		fputs(i > 0 ? ",\n    " : "\n    ", fp);
		put_point(fp, &sr->pt[i], runs);
	}
	fputs("]}", fp);
}

/* A figure that is negative when unknown: the figure, or null. */
static void
put_known(FILE *fp, double v)
{
	if (v >= 0)
		jw_double(fp, v);
	else
		fputs("null", fp);
}

static void
put_point(FILE *fp, const struct sweep_point *p, const char *runs)
{
	double rate;
	size_t len;
	unsigned k;

	fputs("{\"value\": ", fp);
	jw_string(fp, p->value);
	fprintf(fp, ", \"nruns\": %u, \"runs\": [", p->nruns);
	for (k = 0, len = strlen(runs); k < p->njson; k++)
		if (p->json[k][1] > p->json[k][0] && p->json[k][1] <= len) {
			if (k > 0)
				fputc(',', fp);
			fwrite(runs + p->json[k][0], 1, p->json[k][1] -
			    p->json[k][0], fp);
		}
	fputs("],\n    \"latency\": ", fp);
	put_series(fp, &p->lat, 1, NULL);
	fputs(",\n    \"mean_ns\": ", fp);
	if (p->nruns > 0)
		jw_double(fp, p->mean);
	else
		fputs("null", fp);
	fputs(", \"mean_ci95_ns\": ", fp);
	if (p->half >= 0)
		jw_double(fp, p->half);
	else
		fputs("null", fp);
	fputs(", \"switches_per_s\": ", fp);
	put_known(fp, counts_rate(&p->counts, p->counts.ctxt));
	fputs(", \"runnable_mean\": ", fp);
	put_known(fp, counts_runnable_mean(&p->counts));
	fputs(",\n    \"counts\": ", fp);
	json_counts(fp, &p->counts);
	fputs(",\n    \"loads\": [", fp);
	for (k = 0; k < p->nload; k++) {
		rate = p->load_ns[k] > 0 ? (double)p->load_ops[k] *
		    NSEC_PER_SEC / (double)p->load_ns[k] : 0;
		fprintf(fp, "%s{\"kind\": \"%s\", \"procs\": %u, "
		    "\"ops\": %llu, \"wall_ns\": %lld, \"ops_per_sec\": ",
		    k > 0 ? ", " : "", config_load_name(p->load_kind[k]),
		    p->load_nproc[k], (unsigned long long)p->load_ops[k],
		    (long long)p->load_ns[k]);
		jw_double(fp, rate);
		fputs(", \"ops_per_sec_per_proc\": ", fp);
		jw_double(fp, p->load_nproc[k] > 0 ? rate / p->load_nproc[k] :
		    0);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

/* latt's own floor (struct own_floor), each figure null when not measured. */
static void
put_floor(FILE *fp, const struct own_floor *f)
{
	const double v[3] = { f->clock_ns, f->pipe_ns, f->pingpong_ns };
	static const char *const k[3] = { "clock_ns", "pipe_ns",
	    "pingpong_ns" };
	int first = 1, i;

	if (!f->valid) {
		fputs("null", fp);
		return;
	}
	fputc('{', fp);
	for (i = 0; i < 3; i++) {
		jw_key(fp, &first, i > 0 ? " " : "", k[i]);
		if (v[i] >= 0)
			jw_double(fp, v[i]);
		else
			fputs("null", fp);
	}
	fputc('}', fp);
}

/* A load's CPUs as a list, or null when it is not pinned. */
static void
put_cpu_list(FILE *fp, const int *cpus, unsigned n)
{
	unsigned i;

	if (n == 0) {
		fputs("null", fp);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%d", i > 0 ? ", " : "[", cpus[i]);
	fputc(']', fp);
}

/* The scheduler in use: see struct sched_info. */
static void
put_scheduler(FILE *fp, const struct sched_info *si)
{
	fputs("{\"fair\": ", fp);
	jw_str_or_null(fp, si->fair);
	fputs(", \"sched_ext\": ", fp);
	if (si->ext_present) {
		fputs("{\"state\": ", fp);
		jw_str_or_null(fp, si->ext_state);
		fputs(", \"ops\": ", fp);
		jw_str_or_null(fp, si->ext_ops);
		fputc('}', fp);
	} else
		fputs("null", fp);
	fputs(", \"base_slice_ns\": ", fp);
	jw_int_or_null(fp, si->base_slice > 0, si->base_slice);
	fputs(", \"base_slice_from\": ", fp);
	jw_str_or_null(fp, si->base_slice <= 0 ? NULL :
	    si->base_slice_debugfs ? "debugfs" : "sched_getattr");
	fputs(", \"features\": ", fp);
	jw_str_or_null(fp, si->features);
	fputs(", \"autogroup\": ", fp);
	if (si->autogroup < 0)
		fputs("null", fp);
	else
		fputs(si->autogroup ? "true" : "false", fp);
	fputc('}', fp);
}

/*
 * The classes of -c N:ATTR...: at the top level what was asked, what the
 * kernel read back for the class's first client, and the latency series
 * of its clients (over all runs); in a run (in_run), each class's name and
 * its series with its blocks, for compare.  An empty array without
 * classes.
 */
static void
put_classes(FILE *fp, const struct config *cfg, const struct result *res,
    int in_run)
{
	const struct client_class *cl;
	const struct sched_req *r;
	const struct sched_got *g;
	unsigned i, j;
	int rt, dl;

	fputc('[', fp);
	for (i = 0; in_run && res->classes != NULL && i < cfg->nclasses; i++) {
		fprintf(fp, "%s\n    {\"name\": ", i > 0 ? "," : "");
		jw_string(fp, cfg->classes[i].name);
		if (cfg->classes[i].frame > 0)
			put_frames(fp, &cfg->classes[i], &res->classes[i], 1);
		else {
			fputs(", \"latency\": ", fp);
			put_series(fp, &res->classes[i].ser[SER_LATENCY].st, 1,
			    res->classes[i].ser[SER_LATENCY].blocks);
		}
		fputc('}', fp);
	}
	for (i = 0; !in_run && res->classes != NULL && i < cfg->nclasses;
	    i++) {
		cl = &cfg->classes[i];
		r = &cl->sched;
		g = &res->classes[i].got;
		rt = r->policy == SCHED_FIFO || r->policy == SCHED_RR;
		dl = r->policy == SCHED_DEADLINE;
		fprintf(fp, "%s\n    {\"name\": ", i > 0 ? "," : "");
		jw_string(fp, cl->name);
		fputs(", \"spec\": ", fp);
		jw_string(fp, cl->spec);
		fprintf(fp, ", \"clients\": %u, \"first_client\": %u,\n"
		    "     \"requested\": {\"policy\": ", cl->n, cl->first);
		jw_str_or_null(fp, r->policy == -1 ? NULL :
		    config_policy_name(r->policy));
		fputs(", \"prio\": ", fp);
		jw_int_or_null(fp, rt, r->prio);
		fputs(", \"nice\": ", fp);
		jw_int_or_null(fp, r->set_nice, r->nice);
		fputs(", \"slice_ns\": ", fp);
		jw_int_or_null(fp, r->slice > 0, r->slice);
		fputs(", \"runtime_ns\": ", fp);
		jw_int_or_null(fp, dl, r->runtime);
		fputs(", \"deadline_ns\": ", fp);
		jw_int_or_null(fp, dl, r->deadline);
		fputs(", \"period_ns\": ", fp);
		jw_int_or_null(fp, dl, r->period);
		fputs(", \"cpus\": ", fp);
		if (cl->ncpus == 0)
			fputs("null", fp);
		else {
			fputc('[', fp);
			for (j = 0; j < cl->ncpus; j++)
				fprintf(fp, "%s%d", j > 0 ? ", " : "",
				    cl->cpus[j]);
			fputc(']', fp);
		}
		fputs("},\n     \"kernel\": ", fp);
		if (!g->valid)
			fputs("null", fp);
		else {
			rt = g->policy == SCHED_FIFO || g->policy == SCHED_RR;
			dl = g->policy == SCHED_DEADLINE;
			fputs("{\"policy\": ", fp);
			jw_string(fp, config_policy_name(g->policy));
			fprintf(fp, ", \"prio\": %d, \"nice\": %d, "
			    "\"slice_ns\": ", g->prio, g->nice);
			jw_int_or_null(fp, !rt && !dl, (long long)g->runtime);
			fputs(", \"runtime_ns\": ", fp);
			jw_int_or_null(fp, dl, (long long)g->runtime);
			fputs(", \"deadline_ns\": ", fp);
			jw_int_or_null(fp, dl, (long long)g->deadline);
			fputs(", \"period_ns\": ", fp);
			jw_int_or_null(fp, dl, (long long)g->period);
			fputc('}', fp);
		}
		put_series_list(fp, res->classes[i].ser, "     ", 0);
		if (cl->frame > 0)
			put_frames(fp, cl, &res->classes[i], 0);
		fputc('}', fp);
	}
	fputs(res->classes != NULL && cfg->nclasses > 0 ? "\n  ]" : "]", fp);
}

/*
 * A frame class's member ", "frames": {...}": its period and busy phase,
 * its deadlines (percentages from 0 to 100, null without a deadline), the
 * longest stutter, and its two series, with their blocks in a run's
 * entry (blocks), for compare.
 */
static void
put_frames(FILE *fp, const struct client_class *cl,
    const struct class_result *c, int blocks)
{
	const struct frame_counts *fr = &c->fr;
	uint64_t all = frame_deadlines(fr);

	fprintf(fp, ",\n     \"frames\": {\"period_ns\": %lld, \"busy_ns\": "
	    "%lld, \"frames\": %llu, \"deadlines\": %llu, \"met\": %llu,\n"
	    "      \"met_pct\": ", (long long)cl->frame, (long long)cl->busy,
	    (unsigned long long)fr->frames, (unsigned long long)all,
	    (unsigned long long)fr->met);
	jw_double(fp, all > 0 ? 100.0 * (double)fr->met / (double)all : NAN);
	fputs(", \"desired_cpu_pct\": ", fp);
	jw_double(fp, all > 0 ? 100.0 * (double)fr->frames / (double)all :
	    NAN);
	fprintf(fp, ", \"missed\": %llu, \"not_started\": %llu,\n"
	    "      \"longest_stutter_frames\": %llu, "
	    "\"longest_stutter_ns\": %lld,\n      \"wake\": ",
	    (unsigned long long)fr->missed,
	    (unsigned long long)fr->not_started,
	    (unsigned long long)fr->longest,
	    (long long)fr->longest * (long long)cl->frame);
	put_series(fp, &c->ser[SER_FRAME_WAKE].st, 1, blocks ?
	    c->ser[SER_FRAME_WAKE].blocks : NULL);
	fputs(",\n      \"frame_time\": ", fp);
	put_series(fp, &c->ser[SER_FRAME_TIME].st, 1, blocks ?
	    c->ser[SER_FRAME_TIME].blocks : NULL);
	fputc('}', fp);
}

/*
 * The real-time order check (order.h), or null without real-time
 * clients: the counts, the release spread as a series, and the worst
 * inversions, worst first.
 */
static void
put_order(FILE *fp, const struct config *cfg, const struct order *o)
{
	const struct inversion *v;
	int first = 1;
	unsigned i;

	if (o == NULL) {
		fputs("null", fp);
		return;
	}
	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "rounds");
	fprintf(fp, "%llu", (unsigned long long)o->rounds);
	jw_key(fp, &first, "\n    ", "inversions");
	fprintf(fp, "%llu", (unsigned long long)o->inversions);
	jw_key(fp, &first, "\n    ", "rounds_with_inversions");
	fprintf(fp, "%llu", (unsigned long long)o->bad_rounds);
	jw_key(fp, &first, "\n    ", "share");
	if (o->rounds > 0)
		jw_double(fp, (double)o->bad_rounds / (double)o->rounds);
	else
		fputs("null", fp);
	jw_key(fp, &first, "\n    ", "single_priority_rounds");
	fprintf(fp, "%llu", (unsigned long long)o->single);
	jw_key(fp, &first, "\n    ", "unchecked");
	fprintf(fp, "%llu", (unsigned long long)o->unchecked);
	jw_key(fp, &first, "\n    ", "slack_ns");
	fprintf(fp, "%lld", (long long)o->slack);
	jw_key(fp, &first, "\n    ", "release_spread");
	put_series(fp, &o->spread, 0, NULL);
	jw_key(fp, &first, "\n    ", "worst");
	fputc('[', fp);
	for (i = 0; i < o->nworst; i++) {
		v = &o->worst[i];
		fprintf(fp, "%s\n      {\"round\": %llu, \"at_ns\": %lld, "
		    "\"waited_ns\": %lld, \"held_ns\": %lld,\n       "
		    "\"waiter\": ", i > 0 ? "," : "",
		    (unsigned long long)v->round, (long long)v->when,
		    (long long)v->waited, (long long)v->held);
		put_who(fp, cfg, v->waiter, v->waiter_cpu);
		fputs(", \"ran\": ", fp);
		put_who(fp, cfg, v->ran, v->ran_cpu);
		fputc('}', fp);
	}
	fputs(o->nworst > 0 ? "\n    ]}" : "]}", fp);
}

/* A client of an inversion: its number, class (or null) and CPU. */
static void
put_who(FILE *fp, const struct config *cfg, unsigned idx, int cpu)
{
	fprintf(fp, "{\"client\": %u, \"class\": ", idx);
	jw_str_or_null(fp, cfg->nclasses > 0 && idx < cfg->nclients ?
	    cfg->classes[cfg->class_of[idx]].name : NULL);
	fprintf(fp, ", \"cpu\": %d}", cpu);
}
