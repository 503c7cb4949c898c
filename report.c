/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text reports: the 2009 summary block, byte for byte in its old shape,
 * then the extension block (with the timer series), the --fail-above
 * verdicts, the per-client table, the text histogram, and the progress
 * line.  Reports read finished results (the progress line, the results so
 * far); they never measure.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "autopsy.h"
#include "common.h"
#include "config.h"
#include "loads.h"
#include "report.h"
#include "result.h"
#include "tune.h"

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

static void	 print_timer(FILE *, const struct stats *);
static void	 print_scheduler(FILE *, const struct sched_info *);
static void	 print_machine(FILE *, const struct result *);
static void	 print_class(FILE *, const struct result *,
		    const struct client_class *, const struct class_result *);
static void	 print_split(FILE *, const struct result *);
static void	 print_split_rows(FILE *, const char *, const struct stats *,
		    const struct stats *);
static void	 print_break(FILE *, const struct config *, const struct brk *);
static void	 print_quantiles(FILE *, const struct stats *, const char *);
static void	 print_too_few(FILE *, const struct stats *, const char *);
static void	 print_honesty(FILE *, const struct config *,
		    const struct result *);

/*
 * A percentile is shown only when at least PCT_BEYOND samples lie beyond
 * it (the rule of latt compare): q needs ceil(PCT_BEYOND / (1 - q)).
 */
uint64_t
report_pct_need(double q)
{
	return (uint64_t)ceil(PCT_BEYOND / (1 - q) - 1e-6);
}

static double
usec(double ns)
{
	return ns / NSEC_PER_USEC;
}

/*
 * One line of the extension blocks: a tab, the label, a tab, then the
 * value in column 25 whatever the label's length (a label under 8
 * characters reaches column 16 at its tab, and is padded to 24), after
 * one space.  Scripts read "\tLABEL\t" and strip the spaces after it.
 */
static void
row(FILE *fp, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(fp, "\t%s\t%s ", label, strlen(label) < 8 ? "        " : "");
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
}

/* A statistic: microseconds, right-aligned in the number column. */
static void
row_us(FILE *fp, const char *label, double ns)
{
	row(fp, label, "%12.3f", usec(ns));
}

/* A signal's name as the shell spells it: SIGTSTP. */
static const char *
signame(int sig)
{
	static char buf[16];

	if (sigabbrev_np(sig) == NULL)
		snprintf(buf, sizeof(buf), "signal %d", sig);
	else
		snprintf(buf, sizeof(buf), "SIG%s", sigabbrev_np(sig));
	return buf;
}

static void
print_workload(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct workload *wl = &res->wl;
	char *what, a[32], b[32], c[32];
	double secs = (double)(wl->end - wl->start) / NSEC_PER_SEC;
	int st = wl->status;

	if (cfg->ncmd == 0) {
		row(fp, "workload", "none%s", cfg->nload > 0 ?
		    " (the loads only)" : "");
		if (cfg->bare)
			row(fp, "bare run", "no command: %u clients, delays "
			    "%s to %s, %s", cfg->nclients,
			    fmt_time(a, sizeof(a), cfg->min_delay, 0, "us"),
			    fmt_time(b, sizeof(b), cfg->max_delay, 0, "us"),
			    fmt_time(c, sizeof(c), cfg->duration, 0, "us"));
		return;
	}
	what = workload_describe(cfg);
	row(fp, "workload", "%s", what != NULL ? what : "?");
	free(what);
	if (wl->pid <= 0)
		row(fp, "status", "not started");
	else if (wl->exec_errno)
		row(fp, "status", "could not run: %s",
		    strerror(wl->exec_errno));
	else if (res->wl_stopsig != 0)
		row(fp, "status", "stopped by %s from elsewhere at %.3f s, "
		    "then ended by latt", signame(res->wl_stopsig),
		    (double)res->wl_stop_at / NSEC_PER_SEC);
	else if (!wl->reaped)
		row(fp, "status", "still running");
	else if (wl->stopped_by_us)
		row(fp, "status", "stopped by latt after %.3f s", secs);
	else if (wl->interrupted)
		row(fp, "status", "interrupted at the terminal (%s) after "
		    "%.3f s", signame(wl->interrupted), secs);
	else if (WIFEXITED(st))
		row(fp, "status", "exited %d after %.3f s", WEXITSTATUS(st),
		    secs);
	else if (WIFSIGNALED(st))
		row(fp, "status", "killed by signal %d (%s) after %.3f s",
		    WTERMSIG(st), strsignal(WTERMSIG(st)), secs);
}

/* A rate with 4 significant digits and k, M or G: "362.1M". */
static const char *
fmt_rate(char *buf, size_t len, double v)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	int k = 0;

	while (k < 4 && v >= 1000) {
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.*f%s", v >= 100 ? 1 : v >= 10 ? 2 : 3, v,
	    pre[k]);
	return buf;
}

/*
 * One line per load: its kind, its processes (how many of them started,
 * when a fork failed), and its throughput over the time it ran, so that
 * two kernels can be compared on both; "none" when --load=none was all
 * that was asked.  The exact counts are in the JSON.
 */
static void
print_loads(FILE *fp, const struct config *cfg, const struct workload *wl)
{
	const struct load_run *lr;
	char rate[32], of[16];
	double secs;
	unsigned i;

	if (cfg->load_given && wl->nload == 0)
		row(fp, "load", "none");
	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		if (lr->nstarted == 0) {
			row(fp, "load", "%s: none of its %u process%s started",
			    load_name(lr->kind), lr->nproc,
			    lr->nproc == 1 ? "" : "es");
			continue;
		}
		secs = (double)(lr->end - lr->start) / NSEC_PER_SEC;
		snprintf(of, sizeof(of), "%u of ", lr->nstarted);
		row(fp, "load", "%s: %s%u process%s, %s %s/s, %.3f s",
		    load_name(lr->kind), lr->nstarted < lr->nproc ? of : "",
		    lr->nproc, lr->nproc == 1 ? "" : "es",
		    fmt_rate(rate, sizeof(rate), secs > 0 ?
		    (double)lr->ops / secs : 0.0), load_unit(lr->kind), secs);
		if (lr->nlost > 0)
			row(fp, "load", "%s: %u of its processes ended early",
			    load_name(lr->kind), lr->nlost);
	}
}

/*
 * The -x block: the same statistics as the extension block, for the time
 * each client spent on its work after waking, every label prefixed with
 * "work" so that no line of it can be taken for a latency.
 */
static void
print_work(FILE *fp, const struct config *cfg, const struct stats *st)
{
	fprintf(fp, "\nWork after wake-up (us, ns resolution, %u KiB a "
	    "client):\n", cfg->work_kb);
	row(fp, "work samples", "%12llu", (unsigned long long)st->n);
	row_us(fp, "work min", st->min);
	print_quantiles(fp, st, "work ");
	row_us(fp, "work worst", st->max);
	row_us(fp, "work mean", stats_mean(st));
	row_us(fp, "work sd", stats_stdev(st));
	row_us(fp, "work se", stats_sterr(st));
	print_too_few(fp, st, "work ");
}

/*
 * The percentile lines of a series, each label prefixed: a value, or "-"
 * when fewer than PCT_BEYOND samples lie beyond it.
 */
static void
print_quantiles(FILE *fp, const struct stats *st, const char *prefix)
{
	int64_t pct[NQUANTILES];
	char label[CLASS_NAME_MAX + 16];
	size_t i;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	for (i = 0; i < NQUANTILES; i++) {
		snprintf(label, sizeof(label), "%s%s", prefix, qnames[i]);
		if (st->n >= report_pct_need(quantiles[i]))
			row_us(fp, label, pct[i]);
		else
			row(fp, label, "%12s", "-");
	}
}

/*
 * What each "-" percentile would need, in "too few" lines (the label
 * prefixed), as many as it takes to stay within 80 columns.
 */
static void
print_too_few(FILE *fp, const struct stats *st, const char *prefix)
{
	char label[CLASS_NAME_MAX + 16], text[56], item[40];
	size_t i, len = 0;
	int any = 0;

	snprintf(label, sizeof(label), "%stoo few", prefix);
	for (i = 0; i < NQUANTILES; i++) {
		if (st->n >= report_pct_need(quantiles[i]))
			continue;
		snprintf(item, sizeof(item), "%s %llu", qnames[i],
		    (unsigned long long)report_pct_need(quantiles[i]));
		/* The value column holds 55; the last item ends "samples". */
		if (len > 0 && len + 2 + strlen(item) + 9 > 55) {
			row(fp, label, "%s,", text);
			len = 0;
		}
		len += snprintf(text + len, sizeof(text) - len, "%s%s",
		    len > 0 ? ", " : any ? "" : "needs ", item);
		any = 1;
	}
	if (!any)
		return;
	row(fp, label, "%s samples", text);
	row(fp, label, "(%d beyond each; %llu taken)", PCT_BEYOND,
	    (unsigned long long)st->n);
}

static const char *
describe_stop(const struct result *res)
{
	switch (res->stop) {
	case STOP_WORKLOAD:
		return res->wl_stopsig != 0 ? "the workload's stop" :
		    "the workload's end";
	case STOP_SIGNAL:
		return strsignal(res->stop_signal);
	case STOP_CLIENT:
		return "a client's death";
	case STOP_ERROR:
	case STOP_SINK:
		return "an error";
	case STOP_DURATION:
		return "the duration";
	case STOP_SAMPLES:
		return "the sample count";
	case STOP_BREAK:
		return "breaktrace";
	default:
		return "?";
	}
}

/*
 * The summary.  The first block keeps the 2009 tool's exact shape (whole
 * microseconds, "%8.0f" after a tab and a space) so that scripts written for
 * it keep working; no label after it contains Entries, Max, Avg or Stdev.
 * The blocks after it line up in two columns (see row) within 80 columns,
 * the command itself aside, and spell microseconds "us".
 */
void
report_text(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	unsigned i;
	char a[32];

	fprintf(fp, "Entries: %llu (clients=%u)\n",
	    (unsigned long long)st->n, cfg->nclients);
	fprintf(fp, "\nAverages:\n");
	fprintf(fp, "------------------------------\n");
	fprintf(fp, "\tMax\t %8.0f usec\n", usec(st->max));
	fprintf(fp, "\tAvg\t %8.0f usec\n", usec(stats_mean(st)));
	fprintf(fp, "\tStdev\t %8.0f usec\n", usec(stats_stdev(st)));

	fprintf(fp, "\nDetails (us, ns resolution):\n");
	row_us(fp, "min", st->min);
	print_quantiles(fp, st, "");
	/* A wake-up still unanswered was at least this late: censored. */
	if (res->npending > 0 && res->pending_age > st->max) {
		snprintf(a, sizeof(a), ">=%.3f", usec(res->pending_age));
		row(fp, "worst", "%12s (unanswered at the end: a lower bound)",
		    a);
	} else
		row_us(fp, "worst", st->max);
	row_us(fp, "mean", stats_mean(st));
	row_us(fp, "sd", stats_stdev(st));
	row_us(fp, "se", stats_sterr(st));
	print_too_few(fp, st, "");
	if (st->n < FEW_SAMPLES)
		row(fp, "few samples", "%llu, under %d: shorten -f/-t, add -c "
		    "or run longer", (unsigned long long)st->n, FEW_SAMPLES);
	if (st->n > 0)
		row(fp, "worst at", "client %u, %.6f s into the run",
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	row(fp, "rounds", "%12llu", (unsigned long long)res->nrounds);
	print_honesty(fp, cfg, res);
	row(fp, "ran", "%.3f s, ended by %s",
	    (double)(res->end - res->start - res->suspended) / NSEC_PER_SEC,
	    describe_stop(res));
	if (res->nsuspend > 0)
		row(fp, "suspended", "%.3f s, %u time%s (%s), not measured",
		    (double)res->suspended / NSEC_PER_SEC, res->nsuspend,
		    res->nsuspend == 1 ? "" : "s", signame(res->susp[0].sig));
	if (res->susp_dropped > 0)
		row(fp, "suspended", "%llu wake-up%s in flight across it "
		    "dropped", (unsigned long long)res->susp_dropped,
		    res->susp_dropped == 1 ? "" : "s");
	print_workload(fp, cfg, res);
	print_loads(fp, cfg, &res->wl);
	print_scheduler(fp, &res->sched);
	print_machine(fp, res);
	row(fp, "seed", "%llu", (unsigned long long)cfg->seed);
	if (cfg->warmup > 0)
		row(fp, "warmup", "%s, %llu samples discarded",
		    fmt_time(a, sizeof(a), cfg->warmup, 0, "us"),
		    (unsigned long long)res->discarded);
	if (res->stop == STOP_BREAK)
		print_break(fp, cfg, &res->brk);
	print_timer(fp, &res->ser[SER_TIMER].st);
	if (cfg->work_kb > 0)
		print_work(fp, cfg, &res->ser[SER_WORK].st);
	if (res->ser[SER_RUNQUEUE].on)
		print_split(fp, res);
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++)
		print_class(fp, res, &cfg->classes[i], &res->classes[i]);
}

/*
 * The scheduler in use: the fair class and the preemption mode, sched_ext
 * and its scheduler, and the EEVDF base slice where readable.
 */
static void
print_scheduler(FILE *fp, const struct sched_info *si)
{
	char a[32];

	row(fp, "scheduler", "%s, preemption %s", si->fair != NULL ?
	    si->fair : "fair class unknown", si->preemption != NULL ?
	    si->preemption : "unknown");
	if (!si->ext_present)
		row(fp, "sched_ext", "none (no /sys/kernel/sched_ext)");
	else
		row(fp, "sched_ext", "%s%s%s", si->ext_state != NULL ?
		    si->ext_state : "state unknown", si->ext_ops != NULL ?
		    ", " : "", si->ext_ops != NULL ? si->ext_ops : "");
	if (si->base_slice > 0)
		row(fp, "base slice", "%s (%s)", fmt_time(a, sizeof(a),
		    (double)si->base_slice, 0, "us"), si->base_slice_debugfs ?
		    "debugfs" : "sched_getattr of latt");
}

/*
 * A setting of the machine that changed under the run (a clocksource the
 * kernel found unstable, a governor switched): the samples on either side
 * were taken on different machines.
 */
static void
print_machine(FILE *fp, const struct result *res)
{
	const char *name, *was, *now;
	unsigned i = 0;

	while ((name = machine_changed(&res->mach, &res->mach_end, &was, &now,
	    &i)) != NULL)
		row(fp, "changed", "%s %s -> %s during the run: samples "
		    "before and after are not alike", name, was, now);
}

/*
 * What the kernel read back for a class's first client: its policy and
 * the attributes that mean something under it.
 */
static void
print_got(FILE *fp, const char *label, const struct sched_got *g)
{
	char a[32], b[32], c[32];

	if (!g->valid) {
		row(fp, label, "not read back");
		return;
	}
	switch (g->policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		row(fp, label, "%s, prio %d", tune_policy_name(g->policy),
		    g->prio);
		break;
	case SCHED_DEADLINE:
		row(fp, label, "deadline, runtime %s, deadline %s, period %s",
		    fmt_time(a, sizeof(a), (double)g->runtime, 0, "us"),
		    fmt_time(b, sizeof(b), (double)g->deadline, 0, "us"),
		    fmt_time(c, sizeof(c), (double)g->period, 0, "us"));
		break;
	default:
		row(fp, label, "%s, nice %d, slice %s",
		    tune_policy_name(g->policy), g->nice,
		    fmt_time(a, sizeof(a), (double)g->runtime, 0, "us"));
		break;
	}
}

/*
 * A class's block: what was asked and what the kernel read back, then the
 * statistics of the details block for its clients alone and their
 * runqueue-wait split, every label prefixed with the class's name.
 */
static void
print_class(FILE *fp, const struct result *res, const struct client_class *cl,
    const struct class_result *cr)
{
	const struct stats *st = &cr->ser[SER_LATENCY].st;
	char prefix[CLASS_NAME_MAX + 2], label[CLASS_NAME_MAX + 16];

	snprintf(prefix, sizeof(prefix), "%s ", cl->name);
	fprintf(fp, "\nClass %s (us, ns resolution):\n", cl->name);
#define LABEL(what)	(snprintf(label, sizeof(label), "%s%s", prefix, what), \
	    label)
	if (cl->n == 1)
		row(fp, LABEL("asked"), "-c%u%s%s, client %u", cl->n,
		    *cl->spec != '\0' ? ":" : "", cl->spec, cl->first);
	else
		row(fp, LABEL("asked"), "-c%u%s%s, clients %u-%u", cl->n,
		    *cl->spec != '\0' ? ":" : "", cl->spec, cl->first,
		    cl->first + cl->n - 1);
	print_got(fp, LABEL("kernel"), &cr->got);
	row(fp, LABEL("samples"), "%12llu", (unsigned long long)st->n);
	row_us(fp, LABEL("min"), st->min);
	print_quantiles(fp, st, prefix);
	row_us(fp, LABEL("worst"), st->max);
	row_us(fp, LABEL("mean"), stats_mean(st));
	row_us(fp, LABEL("sd"), stats_stdev(st));
	row_us(fp, LABEL("se"), stats_sterr(st));
	print_too_few(fp, st, prefix);
	if (st->n > 0)
		row(fp, LABEL("worst at"), "client %u, %.6f s into the run",
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	if (res->ser[SER_RUNQUEUE].on)
		print_split_rows(fp, prefix, &cr->ser[SER_RUNQUEUE].st,
		    &cr->ser[SER_WAKE_PATH].st);
#undef LABEL
}

/*
 * The timer series: how late the parent's absolute sleeps woke.  Every
 * label starts with "timer", so none clashes with the details above.
 */
static void
print_timer(FILE *fp, const struct stats *st)
{
	fprintf(fp, "\nTimer latency (us; the parent's sleeps, woke minus "
	    "deadline):\n");
	row(fp, "timer samples", "%12llu", (unsigned long long)st->n);
	row_us(fp, "timer min", st->min);
	print_quantiles(fp, st, "timer ");
	row_us(fp, "timer worst", st->max);
	row_us(fp, "timer mean", stats_mean(st));
	row_us(fp, "timer sd", stats_stdev(st));
	print_too_few(fp, st, "timer ");
	if (st->n > 0)
		row(fp, "timer worst at", "%.6f s into the run",
		    (double)st->max_when / NSEC_PER_SEC);
}

/*
 * What the samples cannot show: the loop (closed or open), latt's own
 * policy and the DMA latency it held, the wake-ups still unanswered at
 * the end (censored), requests that did not fit a stalled client's pipe,
 * and the times latt itself could take no sample.
 */
static void
print_honesty(FILE *fp, const struct config *cfg, const struct result *res)
{
	char a[32], text[64];
	uint64_t i, n;

	row(fp, "loop", "%s", cfg->open_loop ? "open: each round sent at its "
	    "time, replies or not" : "closed: a round waits for every reply "
	    "(2009)");
	if (cfg->parent_policy == SCHED_FIFO)
		row(fp, "parent", "SCHED_FIFO %d", cfg->parent_prio);
	else if (cfg->parent_policy == SCHED_OTHER)
		row(fp, "parent", "SCHED_OTHER");
	if (cfg->dma_latency >= 0)
		row(fp, "dma latency", "%d us held", cfg->dma_latency);
	if (res->npending > 0)
		row(fp, "pending", "%llu wake-up%s unanswered at the end, the "
		    "oldest", (unsigned long long)res->npending,
		    res->npending == 1 ? "" : "s");
	if (res->npending > 0)
		row(fp, "pending", "%s old (client %u): not in the samples",
		    fmt_time(a, sizeof(a), res->pending_age, 4, "us"),
		    res->pending_client);
	if (res->nunsent > 0)
		row(fp, "not sent", "%llu request%s: a stalled client's pipe "
		    "was full", (unsigned long long)res->nunsent,
		    res->nunsent == 1 ? "" : "s");
	if (res->nstalls == 0)
		return;
	row(fp, "stalled", "latt took no sample for %.3f s in %llu stall%s:",
	    (double)res->stall_total / NSEC_PER_SEC,
	    (unsigned long long)res->nstalls, res->nstalls == 1 ? "" : "s");
	n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	/* Three a line: "0.052 s at 1.234 s, ..." */
	for (i = 0; i < n; i += 3) {
		snprintf(text, sizeof(text), "%.3f s at %.3f s",
		    (double)res->stalls[i].len / NSEC_PER_SEC,
		    (double)res->stalls[i].when / NSEC_PER_SEC);
		if (i + 1 < n)
			snprintf(text + strlen(text), sizeof(text) -
			    strlen(text), ", %.3f s at %.3f s",
			    (double)res->stalls[i + 1].len / NSEC_PER_SEC,
			    (double)res->stalls[i + 1].when / NSEC_PER_SEC);
		if (i + 2 < n)
			snprintf(text + strlen(text), sizeof(text) -
			    strlen(text), ", %.3f s at %.3f s",
			    (double)res->stalls[i + 2].len / NSEC_PER_SEC,
			    (double)res->stalls[i + 2].when / NSEC_PER_SEC);
		row(fp, "stalled", "%s%s", text, i + 3 < n ||
		    n < res->nstalls ? "," : "");
	}
	if (n < res->nstalls)
		row(fp, "stalled", "...");
}

static void
print_break(FILE *fp, const struct config *cfg, const struct brk *b)
{
	char who[32], a[32], c[32];

	if (b->timer)
		snprintf(who, sizeof(who), "timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	row(fp, "breaktrace", "%s, %s > %s, %.6f s into the run", who,
	    fmt_time(a, sizeof(a), b->latency, 0, "us"),
	    fmt_time(c, sizeof(c), cfg->breaktrace, 0, "us"),
	    (double)b->when / NSEC_PER_SEC);
	row(fp, "breaktrace", "%s", b->err != 0 ? strerror(b->err) :
	    "marker written, tracing stopped");
}

/*
 * The --fail-above limits, after the summary: one line on fp for every
 * limit exceeded, and for every statistic that the samples are too few to
 * make meaningful (a quantile q needs PCT_BEYOND samples beyond it, the
 * rule of the summary and of latt compare: 10 / (1 - q) samples; min,
 * max and mean one, stdev two), which counts as failed.  Returns how many
 * failed.
 */
unsigned
report_limits(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st;
	const struct limit *l;
	uint64_t need;
	double v;
	unsigned i, nfail = 0;
	char name[40];

	for (i = 0; i < cfg->nlimits; i++) {
		l = &cfg->limits[i];
		st = &res->ser[l->timer ? SER_TIMER : SER_LATENCY].st;
		snprintf(name, sizeof(name), "%s%s", l->timer ? "timer." : "",
		    stats_kind_name(l->stat));
		if (stats_kind_q(l->stat) > 0)
			need = report_pct_need(stats_kind_q(l->stat));
		else
			need = stats_kind_need(l->stat);
		if (st->n < need) {
			fprintf(fp, "latt: fail-above: %s is not meaningful "
			    "from %llu samples (it needs at least %llu): "
			    "counted as failed\n", name,
			    (unsigned long long)st->n,
			    (unsigned long long)need);
			nfail++;
			continue;
		}
		v = stats_value(st, l->stat);
		if (v > (double)l->value) {
			fprintf(fp, "latt: fail-above: %s %.3f us is above "
			    "the limit %.3f us\n", name, usec(v),
			    usec((double)l->value));
			nfail++;
		}
	}
	return nfail;
}

/* One line per sample on -v, in the spirit of the 2009 "log delay" lines. */
int
report_verbose(FILE *fp, const struct sample *s)
{
	fprintf(fp, "log delay %12.3f usec (client %u, pid %d, cpu %d, "
	    "round %llu", usec(s->latency), s->client, (int)s->pid, s->cpu,
	    (unsigned long long)s->round);
	if (s->work_ns > 0)
		fprintf(fp, ", work %.3f usec", usec(s->work_ns));
	return fputs(")\n", fp) == EOF || ferror(fp) ? -1 : 0;
}

/*
 * The per-client table.  Per-client histograms are coarse (CLIENT_SUB_BITS),
 * so the p99 column is within 6.25% of the exact value.
 */
void
report_per_client(FILE *fp, const struct config *cfg,
    const struct result *res)
{
	static const double q99[] = { 0.99 };
	const struct client_stats *cs;
	int64_t p99;
	unsigned i;

	if (res->clients == NULL)
		return;
	fprintf(fp, "\nPer client (us; p99 within 6.25%%, - under %llu "
	    "samples):\n", (unsigned long long)report_pct_need(q99[0]));
	fprintf(fp, "\t%6s %10s %12s %12s %12s %10s\n", "client", "samples",
	    "mean", "max", "p99", "migrations");
	for (i = 0; i < cfg->nclients; i++) {
		cs = &res->clients[i];
		stats_percentiles(&cs->lat, q99, &p99, 1);
		fprintf(fp, "\t%6u %10llu %12.3f %12.3f ", i,
		    (unsigned long long)cs->lat.n, usec(stats_mean(&cs->lat)),
		    usec(cs->lat.max));
		if (cs->lat.n >= report_pct_need(q99[0]))
			fprintf(fp, "%12.3f", usec(p99));
		else
			fprintf(fp, "%12s", "-");
		fprintf(fp, " %10llu\n", (unsigned long long)cs->migrations);
	}
}

/* The power-of-two group of a value: 0 for 0 and 1, else floor(log2 v). */
static unsigned
group_of(int64_t v)
{
	if (v < 2)
		return 0;
	return 63 - (unsigned)__builtin_clzll((uint64_t)v);
}

/*
 * The text histogram: one line per power of two of latency, from the
 * lowest non-empty one to the highest, with the count, the cumulative
 * percentage and a bar scaled to width columns.  Samples beyond the
 * histogram's range get a line of their own.
 */
void
report_histogram(FILE *fp, const struct result *res, int width)
{
	const struct hist *h = &res->ser[SER_LATENCY].st.hist;
	uint64_t groups[HIST_MAX_BITS], cum = 0, top = 0, c;
	unsigned g, lo = HIST_MAX_BITS, hi = 0;
	int barw, len, k;
	size_t i;

	memset(groups, 0, sizeof(groups));
	for (i = 0; i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		g = group_of(hist_lower(h, i));
		groups[g] += h->counts[i];
		if (g < lo)
			lo = g;
		if (g > hi)
			hi = g;
	}
	fprintf(fp, "\nHistogram (us, one line per power of two):\n");
	fprintf(fp, "  %10s   %10s    %10s %8s\n", "from", "to", "count",
	    "cum%");
	if (h->total == 0) {
		fprintf(fp, "  (no samples)\n");
		return;
	}
	for (g = lo; g <= hi; g++)
		if (groups[g] > top)
			top = groups[g];
	if (h->overflow > top)
		top = h->overflow;
	barw = width - 52;
	if (barw < 10)
		barw = 10;
	/* Rows lo..hi are the groups; row HIST_MAX_BITS is the overflow. */
	for (g = lo; g <= HIST_MAX_BITS; g++) {
		if (g > hi && g < HIST_MAX_BITS)
			continue;
		if (g == HIST_MAX_BITS && h->overflow == 0)
			break;
		if (g < HIST_MAX_BITS) {
			c = groups[g];
			fprintf(fp, "  %10.3f - %10.3f us %10llu",
			    g == 0 ? 0.0 : usec((double)((int64_t)1 << g)),
			    usec(g == 0 ? 1.0 :
			    (double)(((int64_t)1 << (g + 1)) - 1)),
			    (unsigned long long)c);
		} else {
			c = h->overflow;
			fprintf(fp, "  %10.3f - %10s us %10llu",
			    usec((double)((int64_t)1 << HIST_MAX_BITS)), "more",
			    (unsigned long long)c);
		}
		cum += c;
		fprintf(fp, " %7.2f%% ",
		    100.0 * (double)cum / (double)h->total);
		len = (int)((double)c * barw / (double)top + 0.5);
		if (len == 0 && c > 0)
			len = 1;
		for (k = 0; k < len; k++)
			fputc('#', fp);
		fputc('\n', fp);
	}
}

/*
 * The progress line on a terminal: carriage return, the figures so far,
 * cut to width - 1 columns so that it never wraps, and an erase to the
 * end of the line, so that it redraws in place.  It says what runs beside
 * the measurement: the workload (or that it ended), the loads, or nothing.
 */
void
report_progress(FILE *fp, const struct config *cfg, const struct result *res,
    int64_t now, int width)
{
	static const double q99[] = { 0.99 };
	const struct stats *lat = &res->ser[SER_LATENCY].st;
	char line[256], a[32], b[32];
	const char *what;
	int64_t p99;
	int n;

	stats_percentiles(lat, q99, &p99, 1);
	if (cfg->ncmd > 0)
		what = res->wl.reaped ? "workload ended" : "workload running";
	else
		what = res->wl.nload > 0 ? "loads running" : "no load";
	n = snprintf(line, sizeof(line), "%.0f s  %llu samples  p99 %s  "
	    "max %s  %s", (double)(now - res->start - res->suspended) /
	    NSEC_PER_SEC, (unsigned long long)lat->n,
	    lat->n >= report_pct_need(q99[0]) ? fmt_time(a, sizeof(a), p99,
	    3, "us") : "-",
	    lat->n > 0 ? fmt_time(b, sizeof(b), lat->max, 3, "us") : "-",
	    what);
	if (width < 2)
		width = 2;
	if (n >= width)
		line[width - 1] = '\0';
	fprintf(fp, "\r%s\033[K", line);
	fflush(fp);
}

/*
 * --explain: the autopsy of each kept sample: a header, the timeline from
 * the send stamp (times in microseconds from it, the CPU where each thing
 * happened), the split of the latency, and the verdict.
 */
void
report_explain(FILE *fp, const struct result *res)
{
	const struct autopsy *ap = res->autopsy;
	const struct autopsy_sample *as;
	const struct tl_item *t;
	char who[48], cpu[16], d[5][32];
	unsigned i, j;

	fprintf(fp, "\nAutopsy of the %u worst wake-up%s (tracefs instance %s,"
	    " trace_clock mono, %u KiB a CPU; %llu events read, %llu lost):\n",
	    res->nworst, res->nworst == 1 ? "" : "s", ap->instance != NULL ?
	    ap->instance : "?", ap->buf_kb, (unsigned long long)ap->events,
	    (unsigned long long)ap->lost);
	if (ap->mount_lost != NULL)
		fprintf(fp, "\ttracefs was unmounted from %s during the run: "
		    "the instance was still reached through latt's open "
		    "handle on it\n", ap->mount_lost);
	if (ap->error != NULL) {
		fprintf(fp, "\tthe trace could not be read: %s%s%s\n",
		    ap->error, ap->error_errno != 0 ? ": " : "",
		    ap->error_errno != 0 ? strerror(ap->error_errno) : "");
		return;
	}
	if (ap->lost > 0)
		fprintf(fp, "\t%llu events were lost to a full buffer: the "
		    "trace is whole only from %.6f s into the run\n",
		    (unsigned long long)ap->lost,
		    (double)ap->covered_from / NSEC_PER_SEC);
	if (ap->n == 0)
		fprintf(fp, "\tno samples to explain\n");
	for (i = 0; i < ap->n; i++) {
		as = &ap->s[i];
		if (as->timer)
			snprintf(who, sizeof(who), "the timer (pid %d)",
			    (int)as->s.pid);
		else
			snprintf(who, sizeof(who), "client %u (pid %d)",
			    as->s.client, (int)as->s.pid);
		fprintf(fp, "\n#%u %s: %.3f us, round %llu, %.6f s into the "
		    "run%s\n", i + 1, who, usec((double)as->s.latency),
		    (unsigned long long)as->s.round,
		    (double)as->s.when / NSEC_PER_SEC, as->broke ?
		    " (the sample that stopped --breaktrace)" : "");
		for (j = 0; j < as->ntl; j++) {
			t = &as->tl[j];
			if (t->cpu >= 0)
				snprintf(cpu, sizeof(cpu), "cpu%d",
				    (int)t->cpu);
			else
				snprintf(cpu, sizeof(cpu), "-");
			fprintf(fp, "\t%+12.3f us  %-6s %s\n",
			    usec((double)t->t), cpu, t->what);
		}
		if (as->found)
			fprintf(fp, "\tsplit: write %s, not runnable %s, in "
			    "flight %s, runqueue %s, switch-in to stamp %s\n",
			    explain_dur(as->issue, d[0], sizeof(d[0])),
			    explain_dur(as->not_runnable, d[1], sizeof(d[1])),
			    explain_dur(as->in_flight, d[2], sizeof(d[2])),
			    explain_dur(as->rq_wait, d[3], sizeof(d[3])),
			    explain_dur(as->running, d[4], sizeof(d[4])));
		if (as->s.rq_wait >= 0)
			fprintf(fp, "\tschedstat: runqueue wait %s (the "
			    "client's own run delay)\n", explain_dur(
			    as->s.rq_wait, d[0], sizeof(d[0])));
		fprintf(fp, "\tverdict: %s\n", as->verdict);
	}
}

/*
 * Where each wake-up's time went, from the clients' own run delay
 * (/proc/thread-self/schedstat read before blocking and after waking):
 * the runqueue wait (runnable, not running) and the rest, the wake-up
 * path (the write, the wake-up, the switch in).  Labels start with
 * "runqueue" and "wake path", clear of every other block's.
 */
static void
print_split(FILE *fp, const struct result *res)
{
	fprintf(fp, "\nWhere the time went (us; each client's schedstat run "
	    "delay):\n");
	row(fp, "split samples", "%12llu",
	    (unsigned long long)res->ser[SER_RUNQUEUE].st.n);
	print_split_rows(fp, "", &res->ser[SER_RUNQUEUE].st,
	    &res->ser[SER_WAKE_PATH].st);
}

/*
 * The split's rows, each label prefixed: the runqueue wait and the rest
 * of the wake-up path, mean, p50 and p99.
 */
static void
print_split_rows(FILE *fp, const char *prefix, const struct stats *rq,
    const struct stats *path)
{
	static const double q[] = { 0.5, 0.99 };
	static const char *const qn[] = { "p50", "p99" };
	const struct stats *st[] = { rq, path };
	static const char *const name[] = { "runqueue", "wake path" };
	char label[CLASS_NAME_MAX + 32];
	int64_t pct[2];
	size_t i, j;

	for (i = 0; i < 2; i++) {
		stats_percentiles(st[i], q, pct, 2);
		snprintf(label, sizeof(label), "%s%s mean", prefix, name[i]);
		row_us(fp, label, stats_mean(st[i]));
		/* The summary's rule: PCT_BEYOND samples beyond, or "-". */
		for (j = 0; j < 2; j++) {
			snprintf(label, sizeof(label), "%s%s %s", prefix,
			    name[i], qn[j]);
			if (st[i]->n >= report_pct_need(q[j]))
				row_us(fp, label, pct[j]);
			else
				row(fp, label, "%12s", "-");
		}
	}
}

/*
 * Says on stderr, in one line, why the run failed, and returns the exit
 * status.  A runtime failure outranks a failed workload.
 */
int
report_failure(const struct config *cfg, const struct result *res)
{
	int st = res->dead_status;

	switch (res->stop) {
	case STOP_ERROR:
		if (res->dead_pid == 0)
			break;
		/* A client could not take its CPU, policy or memory lock. */
		lwarnc(res->fail_errno, "client %u (pid %d): %s",
		    res->dead_client, (int)res->dead_pid, res->fail_what);
		return EXIT_RUNTIME;
	default:
		break;
	}
	switch (res->stop) {
	case STOP_CLIENT:
		if (st == -1)
			lwarnx("client %u (pid %d) hung up", res->dead_client,
			    (int)res->dead_pid);
		else if (WIFSIGNALED(st))
			lwarnx("client %u (pid %d) was killed by signal %d "
			    "(%s)", res->dead_client, (int)res->dead_pid,
			    WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			lwarnx("client %u (pid %d) exited with status %d",
			    res->dead_client, (int)res->dead_pid,
			    WEXITSTATUS(st));
		return EXIT_RUNTIME;
	case STOP_SINK:
		if (cfg->log_path != NULL)
			lwarnx("cannot write the log %s: %s (the run ended "
			    "there)", cfg->log_path, strerror(res->fail_errno));
		else
			lwarnx("cannot write -v lines to stderr: %s (the run "
			    "ended there)", strerror(res->fail_errno));
		return EXIT_RUNTIME;
	case STOP_ERROR:
		/* A fork of the workload's side: the limit that refused. */
		if (res->wl.fork_why[0] != '\0' &&
		    res->fail_what == res->wl.fork_what)
			lwarnx("%s: %s (%s)", res->fail_what,
			    strerror(res->fail_errno), res->wl.fork_why);
		else if (res->fail_errno == EAGAIN &&
		    strcmp(res->fail_what, "fork") == 0)
			lwarnx("fork: %s (the process limit, ulimit -u, is "
			    "too low for the clients asked for)",
			    strerror(res->fail_errno));
		else if (res->fail_errno == EMFILE || res->fail_errno == ENFILE)
			lwarnx("%s: %s (raise the open files limit, ulimit -n)",
			    res->fail_what, strerror(res->fail_errno));
		else
			lwarnc(res->fail_errno, "%s", res->fail_what);
		return EXIT_RUNTIME;
	default:
		break;
	}
	if (res->wl_stopsig != 0) {
		lwarnx("the workload was stopped by SIG%s from outside latt, "
		    "%.3f s into the run: the run ended there",
		    sigabbrev_np(res->wl_stopsig) != NULL ?
		    sigabbrev_np(res->wl_stopsig) : "?",
		    (double)res->wl_stop_at / NSEC_PER_SEC);
		return EXIT_WORKLOAD;
	}
	if (workload_failed(&res->wl)) {
		if (res->wl.exec_errno)
			lwarnc(res->wl.exec_errno, "cannot run the workload");
		else if (WIFEXITED(res->wl.status))
			lwarnx("the workload exited with status %d",
			    WEXITSTATUS(res->wl.status));
		else
			lwarnx("the workload was killed by signal %d (%s)",
			    WTERMSIG(res->wl.status),
			    strsignal(WTERMSIG(res->wl.status)));
		return EXIT_WORKLOAD;
	}
	return EXIT_OK;
}

/*
 * Says on stderr, in one line, what cost --explain's autopsy (its keeper
 * stopped or dead, the trace unreadable), or that tracefs was unmounted
 * under it; the run's other results stand.
 */
void
report_explain_fault(const struct result *res)
{
	const struct autopsy *ap = res->autopsy;

	if (ap == NULL)
		return;
	if (ap->error != NULL)
		lwarnc(ap->error_errno, "explain: no autopsy: %s", ap->error);
	else if (ap->mount_lost != NULL)
		lwarnx("explain: tracefs was unmounted from %s during the run; "
		    "the trace was read, and the instance is removed, through "
		    "latt's open handle on it", ap->mount_lost);
}

/* Says on stderr that --breaktrace ended the run, and where to look. */
void
report_break(const char *trace_dir, const struct brk *b)
{
	char who[32], late[32];

	if (b->timer)
		snprintf(who, sizeof(who), "the timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	fmt_time(late, sizeof(late), (double)b->latency, 0, "us");
	/* The kernel's answer to a marker while its ring buffer is off. */
	if (b->err == EBADF)
		lwarnx("breaktrace: %s woke %s late, %.6f s into the run; "
		    "tracing was off (%s/tracing_on 0): no marker recorded",
		    who, late, (double)b->when / NSEC_PER_SEC, trace_dir);
	else if (b->err != 0)
		lwarnc(b->err, "breaktrace: %s woke %s late, %.6f s into the "
		    "run; writing %s failed", who, late,
		    (double)b->when / NSEC_PER_SEC, trace_dir);
	else
		lwarnx("breaktrace: %s woke %s late, %.6f s into the run; "
		    "tracing stopped, marker in %s/trace", who, late,
		    (double)b->when / NSEC_PER_SEC, trace_dir);
}
