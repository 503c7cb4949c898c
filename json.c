/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON report: writes a finished run as one JSON object in the schema
 * of docs/json-schema.md (schema_version 2), with every setting that moves
 * the numbers and the environment the run took place in.  The top level
 * holds the totals of all runs (--repeat); "runs" holds each run, with the
 * per-block histograms that latt compare resamples.  Strings are always valid JSON and valid UTF-8: control
 * characters, quotes and backslashes are escaped, and every byte that is
 * not part of a well-formed UTF-8 sequence becomes U+FFFD.
 */
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <errno.h>
#include <sched.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain.h"
#include "jsonread.h"
#include "latt.h"

#define SCHEMA_VERSION	2

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qkeys[] = { "p50_ns", "p90_ns", "p99_ns",
    "p99_9_ns", "p99_99_ns" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

static void	 put_string(FILE *, const char *);
static void	 put_double(FILE *, double);
static void	 put_key(FILE *, int *, const char *);
static void	 put_member(FILE *, int *, const char *);
static void	 put_str_or_null(FILE *, const char *);
static void	 put_policy(FILE *, int);
static void	 put_int_or_null(FILE *, int, long long);
static char	*cpu_model(void);
static const char *virtualization(void);
static void	 put_parameters(FILE *, const struct config *);
static void	 put_environment(FILE *, const struct config *,
		    const struct result *);
static void	 put_scheduler(FILE *, const struct sched_info *);
static void	 put_classes(FILE *, const struct config *,
		    const struct result *, int);
static void	 put_workload(FILE *, const struct workload *);
static void	 put_run(FILE *, const struct config *, const struct result *);
static void	 put_series(FILE *, const struct stats *, int with_client,
		    const struct blocks *);
static void	 put_loads(FILE *, const struct workload *);
static void	 put_blocks(FILE *, const struct blocks *);
static void	 put_per_client(FILE *, const struct config *,
		    const struct result *);

int
json_write(FILE *fp, const struct config *cfg, const struct result *total,
    unsigned nruns, const char *runs)
{
	int first = 1;

	fputc('{', fp);
	put_key(fp, &first, "schema_version");
	fprintf(fp, "%d", SCHEMA_VERSION);
	put_key(fp, &first, "tool");
	put_string(fp, "latt");
	put_key(fp, &first, "version");
	put_string(fp, LATT_VERSION);
	put_key(fp, &first, "parameters");
	put_parameters(fp, cfg);
	put_key(fp, &first, "environment");
	put_environment(fp, cfg, total);
	put_key(fp, &first, "workload");
	put_workload(fp, &total->wl);
	put_key(fp, &first, "run");
	put_run(fp, cfg, total);
	put_key(fp, &first, "nruns");
	fprintf(fp, "%u", nruns);
	put_key(fp, &first, "latency");
	put_series(fp, &total->lat, 1, NULL);
	put_key(fp, &first, "timer");
	put_series(fp, &total->timer, 0, NULL);
	if (cfg->work_kb > 0) {
		put_key(fp, &first, "work");
		put_series(fp, &total->work, 1, NULL);
	}
	put_key(fp, &first, "schedstat");
	fputs(cfg->schedstat ? "true" : "false", fp);
	if (cfg->schedstat) {
		put_key(fp, &first, "runqueue");
		put_series(fp, &total->rq, 1, NULL);
		put_key(fp, &first, "wake_path");
		put_series(fp, &total->path, 1, NULL);
	}
	put_key(fp, &first, "loads");
	put_loads(fp, &total->wl);
	put_key(fp, &first, "per_client");
	put_per_client(fp, cfg, total);
	put_key(fp, &first, "classes");
	put_classes(fp, cfg, total, 0);
	if (total->autopsy != NULL) {
		put_key(fp, &first, "explain");
		json_explain(fp, total);
	}
	put_key(fp, &first, "runs");
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
	fputs(",\n  \"latency\": ", fp);
	put_series(fp, &res->lat, 1, res->lat_blocks);
	fputs(",\n  \"timer\": ", fp);
	put_series(fp, &res->timer, 0, res->timer_blocks);
	if (cfg->work_kb > 0) {
		fputs(",\n  \"work\": ", fp);
		put_series(fp, &res->work, 1, NULL);
	}
	if (cfg->schedstat) {
		fputs(",\n  \"runqueue\": ", fp);
		put_series(fp, &res->rq, 1, res->rq_blocks);
		fputs(",\n  \"wake_path\": ", fp);
		put_series(fp, &res->path, 1, res->path_blocks);
	}
	if (res->autopsy != NULL) {
		fputs(",\n  \"explain\": ", fp);
		json_explain(fp, res);
	}
	fputs(",\n  \"loads\": ", fp);
	put_loads(fp, &res->wl);
	fputs(",\n  \"classes\": ", fp);
	put_classes(fp, cfg, res, 1);
	fputs("}", fp);
	return ferror(fp) ? -1 : 0;
}

/* Starts a member of an object: a comma unless first, a newline, the key. */
static void
put_key(FILE *fp, int *first, const char *key)
{
	if (!*first)
		fputc(',', fp);
	*first = 0;
	fputs("\n  ", fp);
	put_string(fp, key);
	fputs(": ", fp);
}

/* The same, one level deeper: a member of a top-level member. */
static void
put_member(FILE *fp, int *first, const char *key)
{
	if (!*first)
		fputc(',', fp);
	*first = 0;
	fputs("\n    ", fp);
	put_string(fp, key);
	fputs(": ", fp);
}

/* Writes s as a JSON string; see the header comment for what is escaped. */
static void
put_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', fp);
	while (*s != '\0') {
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			if ((n = json_utf8_len(s)) == 0) {
				fputs("\\ufffd", fp);
				break;
			}
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', fp);
}

static void
put_str_or_null(FILE *fp, const char *s)
{
	if (s == NULL)
		fputs("null", fp);
	else
		put_string(fp, s);
}

/*
 * Writes a double in the shortest of %.15g, %.16g and %.17g that reads
 * back to the same value, so that a reader gets exactly what latt had.
 * Statistics are never NaN or infinite; if one were, it would be null.
 */
static void
put_double(FILE *fp, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	/* A whole number keeps a ".0" so that every reader sees a float. */
	if (strspn(buf, "-0123456789") == strlen(buf))
		strcat(buf, ".0");
	fputs(buf, fp);
}

static void
put_parameters(FILE *fp, const struct config *cfg)
{
	int first = 1, i;

	fputc('{', fp);
	put_member(fp, &first, "clients");
	fprintf(fp, "%u", cfg->nclients);
	put_member(fp, &first, "min_delay_ns");
	fprintf(fp, "%lld", (long long)cfg->min_delay);
	put_member(fp, &first, "max_delay_ns");
	fprintf(fp, "%lld", (long long)cfg->max_delay);
	put_member(fp, &first, "seed");
	fprintf(fp, "%llu", (unsigned long long)cfg->seed);
	put_member(fp, &first, "command");
	if (cfg->ncmd == 1)
		put_string(fp, cfg->cmd[0]);
	else
		fputs("null", fp);
	put_member(fp, &first, "argv");
	fputc('[', fp);
	for (i = 0; i < cfg->ncmd; i++) {
		if (i > 0)
			fputs(", ", fp);
		put_string(fp, cfg->cmd[i]);
	}
	fputc(']', fp);
	put_member(fp, &first, "loads");
	fputc('[', fp);
	for (i = 0; i < (int)cfg->nload; i++)
		fprintf(fp, "%s{\"kind\": \"%s\", \"procs\": %u}",
		    i > 0 ? ", " : "", load_name(cfg->load[i].kind),
		    load_nproc(cfg->load[i].kind, cfg->load[i].n));
	fputc(']', fp);
	put_member(fp, &first, "duration_ns");
	if (cfg->duration > 0)
		fprintf(fp, "%lld", (long long)cfg->duration);
	else
		fputs("null", fp);
	put_member(fp, &first, "samples_limit");
	if (cfg->samples > 0)
		fprintf(fp, "%llu", (unsigned long long)cfg->samples);
	else
		fputs("null", fp);
	put_member(fp, &first, "warmup_ns");
	fprintf(fp, "%lld", (long long)cfg->warmup);
	put_member(fp, &first, "work_kb");
	if (cfg->work_kb > 0)
		fprintf(fp, "%u", cfg->work_kb);
	else
		fputs("null", fp);
	put_member(fp, &first, "policy");
	put_policy(fp, cfg->policy);
	put_member(fp, &first, "priority");
	put_int_or_null(fp, cfg->policy == SCHED_FIFO ||
	    cfg->policy == SCHED_RR, cfg->prio);
	put_member(fp, &first, "nice");
	put_int_or_null(fp, cfg->set_nice, cfg->nice);
	put_member(fp, &first, "cpus");
	if (cfg->cpus != NULL) {
		fputc('[', fp);
		for (i = 0; i < (int)cfg->ncpus; i++)
			fprintf(fp, "%s%d", i > 0 ? ", " : "", cfg->cpus[i]);
		fputc(']', fp);
	} else
		fputs("null", fp);
	put_member(fp, &first, "parent_cpu");
	put_int_or_null(fp, cfg->parent_cpu >= 0, cfg->parent_cpu);
	put_member(fp, &first, "mlock");
	fputs(cfg->mlock ? "true" : "false", fp);
	put_member(fp, &first, "repeat");
	fprintf(fp, "%u", cfg->repeat);
	put_member(fp, &first, "bare");
	fputs(cfg->bare ? "true" : "false", fp);
	put_member(fp, &first, "loop");
	put_string(fp, cfg->open_loop ? "open" : "closed");
	put_member(fp, &first, "split");
	fputs(cfg->no_split ? "false" : "true", fp);
	put_member(fp, &first, "parent_policy");
	put_str_or_null(fp, cfg->parent_policy == SCHED_FIFO ? "fifo" :
	    cfg->parent_policy == SCHED_OTHER ? "other" : NULL);
	put_member(fp, &first, "parent_prio");
	if (cfg->parent_policy == SCHED_FIFO)
		fprintf(fp, "%d", cfg->parent_prio);
	else
		fputs("null", fp);
	put_member(fp, &first, "dma_latency_us");
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
	switch (policy) {
	case -1:
		fputs("null", fp);
		break;
	case SCHED_OTHER:
		put_string(fp, "other");
		break;
	case SCHED_BATCH:
		put_string(fp, "batch");
		break;
	case SCHED_IDLE:
		put_string(fp, "idle");
		break;
	case SCHED_FIFO:
		put_string(fp, "fifo");
		break;
	case SCHED_RR:
		put_string(fp, "rr");
		break;
	default:
		fprintf(fp, "%d", policy);
		break;
	}
}

static void
put_int_or_null(FILE *fp, int present, long long v)
{
	if (present)
		fprintf(fp, "%lld", v);
	else
		fputs("null", fp);
}

static void
put_environment(FILE *fp, const struct config *cfg,
    const struct result *total)
{
	static const char *keys[] = { "clocksource", "cpufreq_governor",
	    "smt" };		/* machine_changed's order */
	const struct sched_info *si = &total->sched;
	const char *was, *now;
	struct utsname u, *up = NULL;
	char host[256], *s;
	long ncpu;
	unsigned i = 0;
	int first = 1, inner = 1;

	if (uname(&u) == 0)
		up = &u;
	fputc('{', fp);
	put_member(fp, &first, "kernel_release");
	put_str_or_null(fp, up != NULL ? u.release : NULL);
	put_member(fp, &first, "kernel_version");
	put_str_or_null(fp, up != NULL ? u.version : NULL);
	put_member(fp, &first, "machine");
	put_str_or_null(fp, up != NULL ? u.machine : NULL);
	put_member(fp, &first, "hostname");
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		put_string(fp, host);
	} else
		fputs("null", fp);
	put_member(fp, &first, "cpus_online");
	if ((ncpu = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		fprintf(fp, "%ld", ncpu);
	else
		fputs("null", fp);
	put_member(fp, &first, "clocksource");
	put_str_or_null(fp, total->mach.clocksource);
	put_member(fp, &first, "cmdline");
	s = file_text("/proc/cmdline");
	put_str_or_null(fp, s);
	free(s);
	put_member(fp, &first, "preemption");
	put_str_or_null(fp, si->preemption);
	/* What compare warns about: "fair", or "sched_ext: OPS". */
	put_member(fp, &first, "scheduler");
	if (si->ext_state != NULL && strcmp(si->ext_state, "enabled") == 0)
		fprintf(fp, "\"sched_ext: %s\"", si->ext_ops != NULL ?
		    si->ext_ops : "?");
	else
		put_string(fp, "fair");
	put_member(fp, &first, "scheduler_detail");
	put_scheduler(fp, si);
	put_member(fp, &first, "cpufreq_governor");
	put_str_or_null(fp, total->mach.governor);
	put_member(fp, &first, "smt");
	put_str_or_null(fp, total->mach.smt);
	/* What changed between the run's start and its end. */
	put_member(fp, &first, "changed_during_run");
	fputc('{', fp);
	while (machine_changed(&total->mach, &total->mach_end, &was, &now,
	    &i) != NULL) {
		if (!inner)
			fputs(", ", fp);
		inner = 0;
		put_string(fp, keys[i - 1]);
		fputs(": {\"start\": ", fp);
		put_string(fp, was);
		fputs(", \"end\": ", fp);
		put_string(fp, now);
		fputc('}', fp);
	}
	fputc('}', fp);
	put_member(fp, &first, "cpu_model");
	s = cpu_model();
	put_str_or_null(fp, s);
	free(s);
	put_member(fp, &first, "virtualization");
	put_str_or_null(fp, virtualization());
	/* The slack the workload inherited (latt's own is 1 ns). */
	put_member(fp, &first, "timer_slack_ns");
	fprintf(fp, "%lu", cfg->inherited_slack);
	put_member(fp, &first, "latt_version");
	put_string(fp, LATT_VERSION);
	fputs("\n  }", fp);
}

/* The first "model name" of /proc/cpuinfo, or NULL. */
static char *
cpu_model(void)
{
	char *info, *p, *e;

	if ((info = file_text("/proc/cpuinfo")) == NULL)
		return NULL;
	p = strstr(info, "model name");
	if (p == NULL || (p = strchr(p, ':')) == NULL) {
		free(info);
		return NULL;
	}
	p += strspn(p + 1, " \t") + 1;
	if ((e = strchr(p, '\n')) != NULL)
		*e = '\0';
	p = strdup(p);
	free(info);
	return p;
}

/*
 * "hypervisor" when the CPU says it runs under one (the cpuinfo flag),
 * or the type of /sys/hypervisor; "none" otherwise.
 */
static const char *
virtualization(void)
{
	static char type[64];
	char *s, *info;
	int found;

	if ((s = file_text("/sys/hypervisor/type")) != NULL) {
		snprintf(type, sizeof(type), "%s", s);
		free(s);
		return type;
	}
	if ((info = file_text("/proc/cpuinfo")) == NULL)
		return NULL;
	found = strstr(info, " hypervisor") != NULL;
	free(info);
	return found ? "hypervisor" : "none";
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
	put_member(fp, &first, "status");
	put_string(fp, status);
	put_member(fp, &first, "exit_code");
	if (code >= 0)
		fprintf(fp, "%d", code);
	else
		fputs("null", fp);
	put_member(fp, &first, "signal");
	if (sig >= 0)
		fprintf(fp, "%d", sig);
	else
		fputs("null", fp);
	put_member(fp, &first, "wall_ns");
	fprintf(fp, "%lld", (long long)(wl->pid > 0 && wl->end >= wl->start ?
	    wl->end - wl->start : 0));
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
	put_member(fp, &first, "wall_ns");
	fprintf(fp, "%lld", (long long)(res->end - res->start));
	put_member(fp, &first, "rounds");
	fprintf(fp, "%llu", (unsigned long long)res->nrounds);
	put_member(fp, &first, "ended_by");
	put_string(fp, ended_by(res->stop));
	put_member(fp, &first, "discarded");
	fprintf(fp, "%llu", (unsigned long long)res->discarded);
	put_member(fp, &first, "loop");
	put_string(fp, cfg->open_loop ? "open" : "closed");
	put_member(fp, &first, "pending");
	fprintf(fp, "%llu", (unsigned long long)res->npending);
	put_member(fp, &first, "pending_oldest_ns");
	if (res->npending > 0)
		fprintf(fp, "%lld", (long long)res->pending_age);
	else
		fputs("null", fp);
	put_member(fp, &first, "pending_client");
	if (res->npending > 0)
		fprintf(fp, "%u", res->pending_client);
	else
		fputs("null", fp);
	put_member(fp, &first, "not_sent");
	fprintf(fp, "%llu", (unsigned long long)res->nunsent);
	put_member(fp, &first, "stalls");
	fprintf(fp, "{\"count\": %llu, \"total_ns\": %lld, \"first\": [",
	    (unsigned long long)res->nstalls, (long long)res->stall_total);
	n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	for (i = 0; i < n; i++)
		fprintf(fp, "%s{\"at_ns\": %lld, \"len_ns\": %lld}",
		    i > 0 ? ", " : "", (long long)res->stalls[i].when,
		    (long long)res->stalls[i].len);
	fputs("]}", fp);
	put_member(fp, &first, "started_at_ns");
	fprintf(fp, "%lld", (long long)res->start_wall);
	put_member(fp, &first, "suspended_ns");
	fprintf(fp, "%lld", (long long)res->suspended);
	put_member(fp, &first, "suspensions");
	fprintf(fp, "%u", res->nsuspend);
	put_member(fp, &first, "suspended_dropped");
	fprintf(fp, "%llu", (unsigned long long)res->susp_dropped);
	put_member(fp, &first, "workload_stopped_by");
	if (res->wl_stopsig != 0)
		fprintf(fp, "%d", res->wl_stopsig);
	else
		fputs("null", fp);
	fputs("\n  }", fp);
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
	put_member(fp, &first, "samples");
	fprintf(fp, "%llu", (unsigned long long)st->n);
	put_member(fp, &first, "overflow");
	fprintf(fp, "%llu", (unsigned long long)h->overflow);
	put_member(fp, &first, "min_ns");
	fprintf(fp, "%lld", (long long)st->min);
	put_member(fp, &first, "max_ns");
	fprintf(fp, "%lld", (long long)st->max);
	put_member(fp, &first, "max_client");
	if (with_client && st->n > 0)
		fprintf(fp, "%u", st->max_tag);
	else
		fputs("null", fp);
	put_member(fp, &first, "max_at_ns");
	if (st->n > 0)
		fprintf(fp, "%lld", (long long)st->max_when);
	else
		fputs("null", fp);
	put_member(fp, &first, "mean_ns");
	put_double(fp, stats_mean(st));
	put_member(fp, &first, "stdev_ns");
	put_double(fp, stats_stdev(st));
	put_member(fp, &first, "stderr_ns");
	put_double(fp, stats_sterr(st));
	/* null where fewer than PCT_BEYOND samples lie beyond it. */
	for (i = 0; i < NQUANTILES; i++) {
		put_member(fp, &first, qkeys[i]);
		if (st->n >= report_pct_need(quantiles[i]))
			fprintf(fp, "%lld", (long long)pct[i]);
		else
			fputs("null", fp);
	}
	put_member(fp, &first, "histogram");
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
		put_double(fp, stats_mean(&cs->lat));
		fprintf(fp, ", \"max_ns\": %lld, \"p99_ns\": ",
		    (long long)cs->lat.max);
		if (cs->lat.n >= report_pct_need(q99[0]))
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
		    "\"ops\": %llu, \"wall_ns\": %lld, \"ops_per_sec\": %.0f, "
		    "\"ended_early\": %u}", i > 0 ? "," : "",
		    load_name(lr->kind), lr->nproc,
		    (unsigned long long)lr->ops, (long long)(lr->end - lr->start),
		    secs > 0 ? (double)lr->ops / secs : 0.0, lr->nlost);
	}
	fputs(wl->nload > 0 ? "\n  ]" : "]", fp);
}

/* The scheduler in use: see struct sched_info. */
static void
put_scheduler(FILE *fp, const struct sched_info *si)
{
	fputs("{\"fair\": ", fp);
	put_str_or_null(fp, si->fair);
	fputs(", \"sched_ext\": ", fp);
	if (si->ext_present) {
		fputs("{\"state\": ", fp);
		put_str_or_null(fp, si->ext_state);
		fputs(", \"ops\": ", fp);
		put_str_or_null(fp, si->ext_ops);
		fputc('}', fp);
	} else
		fputs("null", fp);
	fputs(", \"base_slice_ns\": ", fp);
	put_int_or_null(fp, si->base_slice > 0, si->base_slice);
	fputs(", \"base_slice_from\": ", fp);
	put_str_or_null(fp, si->base_slice <= 0 ? NULL :
	    si->base_slice_debugfs ? "debugfs" : "sched_getattr");
	fputs(", \"features\": ", fp);
	put_str_or_null(fp, si->features);
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
		put_string(fp, cfg->classes[i].name);
		fputs(", \"latency\": ", fp);
		put_series(fp, &res->classes[i].lat, 1,
		    res->classes[i].blocks);
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
		put_string(fp, cl->name);
		fputs(", \"spec\": ", fp);
		put_string(fp, cl->spec);
		fprintf(fp, ", \"clients\": %u, \"first_client\": %u,\n"
		    "     \"requested\": {\"policy\": ", cl->n, cl->first);
		put_str_or_null(fp, r->policy == -1 ? NULL :
		    tune_policy_name(r->policy));
		fputs(", \"prio\": ", fp);
		put_int_or_null(fp, rt, r->prio);
		fputs(", \"nice\": ", fp);
		put_int_or_null(fp, r->set_nice, r->nice);
		fputs(", \"slice_ns\": ", fp);
		put_int_or_null(fp, r->slice > 0, r->slice);
		fputs(", \"runtime_ns\": ", fp);
		put_int_or_null(fp, dl, r->runtime);
		fputs(", \"deadline_ns\": ", fp);
		put_int_or_null(fp, dl, r->deadline);
		fputs(", \"period_ns\": ", fp);
		put_int_or_null(fp, dl, r->period);
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
			put_string(fp, tune_policy_name(g->policy));
			fprintf(fp, ", \"prio\": %d, \"nice\": %d, "
			    "\"slice_ns\": ", g->prio, g->nice);
			put_int_or_null(fp, !rt && !dl, (long long)g->runtime);
			fputs(", \"runtime_ns\": ", fp);
			put_int_or_null(fp, dl, (long long)g->runtime);
			fputs(", \"deadline_ns\": ", fp);
			put_int_or_null(fp, dl, (long long)g->deadline);
			fputs(", \"period_ns\": ", fp);
			put_int_or_null(fp, dl, (long long)g->period);
			fputc('}', fp);
		}
		fputs(",\n     \"latency\": ", fp);
		put_series(fp, &res->classes[i].lat, 1, NULL);
		if (cfg->schedstat) {
			fputs(",\n     \"runqueue\": ", fp);
			put_series(fp, &res->classes[i].rq, 1, NULL);
			fputs(",\n     \"wake_path\": ", fp);
			put_series(fp, &res->classes[i].path, 1, NULL);
		}
		fputc('}', fp);
	}
	fputs(res->classes != NULL && cfg->nclasses > 0 ? "\n  ]" : "]", fp);
}

/* A member of an object written on one line: ", " unless first. */
static void
put_inline(FILE *fp, int *first, const char *key)
{
	if (!*first)
		fputs(", ", fp);
	*first = 0;
	put_string(fp, key);
	fputs(": ", fp);
}

/* A split of the latency: ns, or null where the trace could not say. */
static void
put_ns_or_null(FILE *fp, int *first, const char *key, int64_t v)
{
	put_inline(fp, first, key);
	if (v < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%lld", (long long)v);
}

static void
put_autopsy_sample(FILE *fp, const struct autopsy_sample *as)
{
	const struct ran_task *r;
	const struct irq_span *q;
	const struct tl_item *t;
	int first = 1, f2;
	unsigned i;

	fputs("\n      {", fp);
	put_inline(fp, &first, "client");
	if (as->timer)
		fputs("null", fp);
	else
		fprintf(fp, "%u", as->s.client);
	put_inline(fp, &first, "timer");
	fputs(as->timer ? "true" : "false", fp);
	put_inline(fp, &first, "breaktrace");
	fputs(as->broke ? "true" : "false", fp);
	put_inline(fp, &first, "pid");
	fprintf(fp, "%d", (int)as->s.pid);
	put_inline(fp, &first, "round");
	fprintf(fp, "%llu", (unsigned long long)as->s.round);
	put_inline(fp, &first, "latency_ns");
	fprintf(fp, "%lld", (long long)as->s.latency);
	put_inline(fp, &first, "at_ns");
	fprintf(fp, "%lld", (long long)as->s.when);
	put_inline(fp, &first, "cpu");
	fprintf(fp, "%d", (int)as->s.cpu);
	put_inline(fp, &first, "schedstat_runqueue_ns");
	if (as->s.rq_wait < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%lld", (long long)as->s.rq_wait);
	put_inline(fp, &first, "found");
	fputs(as->found ? "true" : "false", fp);
	put_inline(fp, &first, "complete");
	fputs(as->complete ? "true" : "false", fp);
	put_inline(fp, &first, "incomplete");
	put_str_or_null(fp, as->complete ? NULL : as->lost_note);
	put_inline(fp, &first, "state_at_send");
	put_string(fp, as->state);
	fputs(",\n       \"waker\": ", fp);
	if (as->waker_cpu < 0)
		fputs("null", fp);
	else {
		f2 = 1;
		fputc('{', fp);
		put_inline(fp, &f2, "pid");
		fprintf(fp, "%d", (int)as->waker_pid);
		put_inline(fp, &f2, "comm");
		put_string(fp, as->waker_comm);
		put_inline(fp, &f2, "cpu");
		fprintf(fp, "%d", (int)as->waker_cpu);
		put_inline(fp, &f2, "from_interrupt");
		fputs(as->waker_irq ? "true" : "false", fp);
		fputc('}', fp);
	}
	fprintf(fp, ", \"target_cpu\": %d, \"run_cpu\": %d, \"idle_target\": "
	    "%s, \"ipi\": %s, \"migrations\": %u", (int)as->target_cpu,
	    (int)as->run_cpu, as->idle_target ? "true" : "false",
	    as->ipi ? "true" : "false", as->migrations);
	fputs(",\n       \"split_ns\": {", fp);
	f2 = 1;
	put_ns_or_null(fp, &f2, "issue", as->issue);
	put_ns_or_null(fp, &f2, "not_runnable", as->not_runnable);
	put_ns_or_null(fp, &f2, "in_flight", as->in_flight);
	put_ns_or_null(fp, &f2, "runqueue", as->rq_wait);
	put_ns_or_null(fp, &f2, "running", as->running);
	fputs("},\n       \"ran\": [", fp);
	for (i = 0; i < as->nran; i++) {
		r = &as->ran[i];
		fputs(i > 0 ? ",\n         {" : "\n         {", fp);
		f2 = 1;
		put_inline(fp, &f2, "comm");
		put_string(fp, r->comm);
		put_inline(fp, &f2, "pid");
		fprintf(fp, "%d", (int)r->pid);
		put_inline(fp, &f2, "prio");
		fprintf(fp, "%d", r->prio);
		put_inline(fp, &f2, "policy");
		put_string(fp, r->policy);
		put_inline(fp, &f2, "cpu");
		fprintf(fp, "%d", (int)r->cpu);
		put_inline(fp, &f2, "ns");
		fprintf(fp, "%lld", (long long)r->ns);
		put_inline(fp, &f2, "left");
		put_string(fp, r->left);
		fputc('}', fp);
	}
	fputs("],\n       \"irqs\": [", fp);
	for (i = 0; i < as->nirqs; i++) {
		q = &as->irqs[i];
		fputs(i > 0 ? ",\n         {" : "\n         {", fp);
		f2 = 1;
		put_inline(fp, &f2, "kind");
		put_string(fp, q->kind);
		put_inline(fp, &f2, "num");
		fprintf(fp, "%d", q->num);
		put_inline(fp, &f2, "name");
		put_string(fp, q->name);
		put_inline(fp, &f2, "cpu");
		fprintf(fp, "%d", (int)q->cpu);
		put_inline(fp, &f2, "start_ns");
		fprintf(fp, "%lld", (long long)q->start);
		put_inline(fp, &f2, "ns");
		fprintf(fp, "%lld", (long long)q->ns);
		fputc('}', fp);
	}
	fputs("],\n       \"timeline\": [", fp);
	for (i = 0; i < as->ntl; i++) {
		t = &as->tl[i];
		fputs(i > 0 ? ",\n         {" : "\n         {", fp);
		f2 = 1;
		put_inline(fp, &f2, "t_ns");
		fprintf(fp, "%lld", (long long)t->t);
		put_inline(fp, &f2, "cpu");
		fprintf(fp, "%d", (int)t->cpu);
		put_inline(fp, &f2, "kind");
		put_string(fp, t->kind);
		put_inline(fp, &f2, "what");
		put_string(fp, t->what);
		fputc('}', fp);
	}
	fputs("],\n       \"verdict\": ", fp);
	put_string(fp, as->verdict);
	fputc('}', fp);
}

/* --explain: the autopsy of the worst wake-ups (docs/json-schema.md). */
void
json_explain(FILE *fp, const struct result *res)
{
	const struct autopsy *ap = res->autopsy;
	int first = 1;
	unsigned i;

	fputc('{', fp);
	put_member(fp, &first, "instance");
	put_str_or_null(fp, ap->instance);
	put_member(fp, &first, "trace_clock");
	put_string(fp, "mono");
	put_member(fp, &first, "buffer_kb");
	fprintf(fp, "%u", ap->buf_kb);
	put_member(fp, &first, "cpus");
	fprintf(fp, "%u", ap->ncpus);
	put_member(fp, &first, "events");
	fprintf(fp, "%llu", (unsigned long long)ap->events);
	put_member(fp, &first, "lost_events");
	fprintf(fp, "%llu", (unsigned long long)ap->lost);
	put_member(fp, &first, "covered_from_ns");
	fprintf(fp, "%lld", (long long)ap->covered_from);
	put_member(fp, &first, "error");
	if (ap->error == NULL)
		fputs("null", fp);
	else {
		char *msg;

		if (asprintf(&msg, "%s: %s", ap->error,
		    strerror(ap->error_errno)) == -1)
			msg = NULL;
		put_str_or_null(fp, msg != NULL ? msg : ap->error);
		free(msg);
	}
	put_member(fp, &first, "samples");
	fputc('[', fp);
	for (i = 0; i < ap->n; i++) {
		if (i > 0)
			fputc(',', fp);
		put_autopsy_sample(fp, &ap->s[i]);
	}
	fputs(ap->n > 0 ? "\n    ]" : "]", fp);
	fputs("\n  }", fp);
}
