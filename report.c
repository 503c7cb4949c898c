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

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "latt.h"

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

static void	 print_timer(FILE *, const struct stats *);
static void	 print_split(FILE *, const struct result *);
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

static void
print_workload(FILE *fp, const struct config *cfg, const struct workload *wl)
{
	char *what;
	double secs = (double)(wl->end - wl->start) / NSEC_PER_SEC;
	int st = wl->status;

	if (cfg->ncmd == 0) {
		fprintf(fp, "\tworkload\tnone%s\n",
		    cfg->nload > 0 ? " (the loads only)" : "");
		if (cfg->bare)
			fprintf(fp, "\tbare run\tno command: %u clients, "
			    "delays %lld-%lld ms, for %.3f s (defaults where "
			    "not given)\n", cfg->nclients,
			    (long long)(cfg->min_delay / NSEC_PER_MSEC),
			    (long long)(cfg->max_delay / NSEC_PER_MSEC),
			    (double)cfg->duration / NSEC_PER_SEC);
		return;
	}
	what = workload_describe(cfg);
	fprintf(fp, "\tworkload\t%s\n", what != NULL ? what : "?");
	free(what);
	if (wl->pid <= 0)
		fprintf(fp, "\tstatus\tnot started\n");
	else if (wl->exec_errno)
		fprintf(fp, "\tstatus\tcould not run: %s\n",
		    strerror(wl->exec_errno));
	else if (!wl->reaped)
		fprintf(fp, "\tstatus\tstill running\n");
	else if (wl->stopped_by_us)
		fprintf(fp, "\tstatus\tstopped by latt after %.3f s\n", secs);
	else if (WIFEXITED(st))
		fprintf(fp, "\tstatus\texited %d after %.3f s\n",
		    WEXITSTATUS(st), secs);
	else if (WIFSIGNALED(st))
		fprintf(fp, "\tstatus\tkilled by signal %d (%s) after %.3f s\n",
		    WTERMSIG(st), strsignal(WTERMSIG(st)), secs);
}

/*
 * One line per load: its kind, its processes, and its throughput over the
 * time it ran, so that two kernels can be compared on both; "none" when
 * --load=none was all that was asked.
 */
static void
print_loads(FILE *fp, const struct config *cfg, const struct workload *wl)
{
	const struct load_run *lr;
	double secs;
	unsigned i;

	if (cfg->load_given && wl->nload == 0)
		fprintf(fp, "\tload\tnone\n");
	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		secs = (double)(lr->end - lr->start) / NSEC_PER_SEC;
		fprintf(fp, "\tload\t%s: %u process%s, %.0f ops/s (%llu %s "
		    "in %.3f s)", load_name(lr->kind), lr->nproc,
		    lr->nproc == 1 ? "" : "es",
		    secs > 0 ? (double)lr->ops / secs : 0.0,
		    (unsigned long long)lr->ops, load_unit(lr->kind), secs);
		if (lr->nlost > 0)
			fprintf(fp, ", %u ended early", lr->nlost);
		fputc('\n', fp);
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
	fprintf(fp, "\nWork after wake-up (usec, ns resolution, %u KiB a "
	    "client):\n", cfg->work_kb);
	fprintf(fp, "\twork samples\t%llu\n", (unsigned long long)st->n);
	fprintf(fp, "\twork min\t %12.3f\n", usec(st->min));
	print_quantiles(fp, st, "work ");
	fprintf(fp, "\twork worst\t %12.3f\n", usec(st->max));
	fprintf(fp, "\twork mean\t %12.3f\n", usec(stats_mean(st)));
	fprintf(fp, "\twork sd\t %12.3f\n", usec(stats_stdev(st)));
	fprintf(fp, "\twork se\t %12.3f\n", usec(stats_sterr(st)));
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
	size_t i;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	for (i = 0; i < NQUANTILES; i++) {
		if (st->n >= report_pct_need(quantiles[i]))
			fprintf(fp, "\t%s%s\t %12.3f\n", prefix, qnames[i],
			    usec(pct[i]));
		else
			fprintf(fp, "\t%s%s\t %12s\n", prefix, qnames[i], "-");
	}
}

/* One line naming the samples each "-" percentile would need. */
static void
print_too_few(FILE *fp, const struct stats *st, const char *prefix)
{
	size_t i;
	int first = 1;

	for (i = 0; i < NQUANTILES; i++) {
		if (st->n >= report_pct_need(quantiles[i]))
			continue;
		if (first)
			fprintf(fp, "\t%spercentiles\t- has fewer than %d "
			    "samples beyond it: ", prefix, PCT_BEYOND);
		fprintf(fp, "%s%s needs %llu", first ? "" : ", ", qnames[i],
		    (unsigned long long)report_pct_need(quantiles[i]));
		first = 0;
	}
	if (!first)
		fprintf(fp, " (%llu taken)\n", (unsigned long long)st->n);
}

static const char *
describe_stop(const struct result *res)
{
	switch (res->stop) {
	case STOP_WORKLOAD:
		return "the workload's end";
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
 */
void
report_text(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->lat;

	fprintf(fp, "Entries: %llu (clients=%u)\n",
	    (unsigned long long)st->n, cfg->nclients);
	fprintf(fp, "\nAverages:\n");
	fprintf(fp, "------------------------------\n");
	fprintf(fp, "\tMax\t %8.0f usec\n", usec(st->max));
	fprintf(fp, "\tAvg\t %8.0f usec\n", usec(stats_mean(st)));
	fprintf(fp, "\tStdev\t %8.0f usec\n", usec(stats_stdev(st)));

	fprintf(fp, "\nDetails (usec, ns resolution):\n");
	fprintf(fp, "\tmin\t %12.3f\n", usec(st->min));
	print_quantiles(fp, st, "");
	/* A wake-up still unanswered was at least this late: censored. */
	if (res->npending > 0 && res->pending_age > st->max)
		fprintf(fp, "\tworst\t>=%12.3f (unanswered at the end: a lower "
		    "bound)\n", usec(res->pending_age));
	else
		fprintf(fp, "\tworst\t %12.3f\n", usec(st->max));
	fprintf(fp, "\tmean\t %12.3f\n", usec(stats_mean(st)));
	fprintf(fp, "\tsd\t %12.3f\n", usec(stats_stdev(st)));
	fprintf(fp, "\tse\t %12.3f\n", usec(stats_sterr(st)));
	print_too_few(fp, st, "");
	if (st->n < FEW_SAMPLES)
		fprintf(fp, "\tfew samples\t%llu, under %d: shorten the sleeps "
		    "(-f, -t), add clients (-c) or run longer (-d)\n",
		    (unsigned long long)st->n, FEW_SAMPLES);
	if (st->n > 0)
		fprintf(fp, "\tworst at\tclient %u, %.6f s into the run\n",
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	fprintf(fp, "\trounds\t%llu\n", (unsigned long long)res->nrounds);
	print_honesty(fp, cfg, res);
	fprintf(fp, "\tran\t%.3f s, ended by %s\n",
	    (double)(res->end - res->start) / NSEC_PER_SEC,
	    describe_stop(res));
	print_workload(fp, cfg, &res->wl);
	print_loads(fp, cfg, &res->wl);
	fprintf(fp, "\tseed\t%llu\n", (unsigned long long)cfg->seed);
	if (cfg->warmup > 0)
		fprintf(fp, "\twarmup\t%.3f s, %llu samples discarded\n",
		    (double)cfg->warmup / NSEC_PER_SEC,
		    (unsigned long long)res->discarded);
	if (res->stop == STOP_BREAK)
		print_break(fp, cfg, &res->brk);
	print_timer(fp, &res->timer);
	if (cfg->work_kb > 0)
		print_work(fp, cfg, &res->work);
	if (cfg->schedstat)
		print_split(fp, res);
}

/*
 * The timer series: how late the parent's absolute sleeps woke.  Every
 * label starts with "timer", so none clashes with the details above.
 */
static void
print_timer(FILE *fp, const struct stats *st)
{
	fprintf(fp, "\nTimer latency (usec, ns resolution; the parent's "
	    "sleeps, woke minus deadline):\n");
	fprintf(fp, "\ttimer samples\t %llu\n", (unsigned long long)st->n);
	fprintf(fp, "\ttimer min\t %12.3f\n", usec(st->min));
	print_quantiles(fp, st, "timer ");
	fprintf(fp, "\ttimer worst\t %12.3f\n", usec(st->max));
	fprintf(fp, "\ttimer mean\t %12.3f\n", usec(stats_mean(st)));
	fprintf(fp, "\ttimer sd\t %12.3f\n", usec(stats_stdev(st)));
	print_too_few(fp, st, "timer ");
	if (st->n > 0)
		fprintf(fp, "\ttimer worst at\t%.6f s into the run\n",
		    (double)st->max_when / NSEC_PER_SEC);
}

/*
 * What the samples cannot show: the loop (closed or open), latt's own
 * policy and the DMA latency it held, the wake-ups still unanswered at the end (censored),
 * requests that did not fit a stalled client's pipe, and the times latt
 * itself could take no sample.
 */
static void
print_honesty(FILE *fp, const struct config *cfg, const struct result *res)
{
	uint64_t i, n;

	fprintf(fp, "\tloop\t%s\n", cfg->open_loop ? "open: each round sent "
	    "at its time, replies or not" : "closed: a round waits for every "
	    "reply (the 2009 method)");
	if (cfg->parent_policy == SCHED_FIFO)
		fprintf(fp, "\tparent\tSCHED_FIFO %d\n", cfg->parent_prio);
	else if (cfg->parent_policy == SCHED_OTHER)
		fprintf(fp, "\tparent\tSCHED_OTHER\n");
	if (cfg->dma_latency >= 0)
		fprintf(fp, "\tdma latency\t%d usec held\n", cfg->dma_latency);
	if (res->npending > 0)
		fprintf(fp, "\tpending\t%llu wake-up%s unanswered at the end, the "
		    "oldest %.3f usec old (client %u): not in the samples\n",
		    (unsigned long long)res->npending,
		    res->npending == 1 ? "" : "s", usec(res->pending_age),
		    res->pending_client);
	if (res->nunsent > 0)
		fprintf(fp, "\tnot sent\t%llu request%s: a stalled client's "
		    "pipe was full\n", (unsigned long long)res->nunsent,
		    res->nunsent == 1 ? "" : "s");
	if (res->nstalls == 0)
		return;
	fprintf(fp, "\tstalled\tlatt itself took no sample for %.3f s in "
	    "%llu stall%s:", (double)res->stall_total / NSEC_PER_SEC,
	    (unsigned long long)res->nstalls, res->nstalls == 1 ? "" : "s");
	n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	for (i = 0; i < n; i++)
		fprintf(fp, "%s %.3f s from %.3f s", i > 0 ? "," : "",
		    (double)res->stalls[i].len / NSEC_PER_SEC,
		    (double)res->stalls[i].when / NSEC_PER_SEC);
	if (n < res->nstalls)
		fprintf(fp, ", ...");
	fputc('\n', fp);
}

static void
print_break(FILE *fp, const struct config *cfg, const struct brk *b)
{
	fprintf(fp, "\tbreaktrace\t");
	if (b->timer)
		fprintf(fp, "timer");
	else
		fprintf(fp, "client %u", b->client);
	fprintf(fp, ", %.3f usec > %.3f usec, %.6f s into the run; ",
	    usec(b->latency), usec(cfg->breaktrace),
	    (double)b->when / NSEC_PER_SEC);
	if (b->err != 0)
		fprintf(fp, "tracefs: %s\n", strerror(b->err));
	else
		fprintf(fp, "marker written, tracing stopped\n");
}

static const struct {
	const char	*name;
	double		 q;		/* 0: not a percentile */
} statinfo[] = {
	[STAT_MIN] = { "min", 0 },
	[STAT_P50] = { "p50", 0.5 },
	[STAT_P90] = { "p90", 0.9 },
	[STAT_P99] = { "p99", 0.99 },
	[STAT_P999] = { "p99.9", 0.999 },
	[STAT_P9999] = { "p99.99", 0.9999 },
	[STAT_MAX] = { "max", 0 },
	[STAT_MEAN] = { "mean", 0 },
	[STAT_STDEV] = { "stdev", 0 },
};

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
	const struct stats *st = &res->lat;
	const struct limit *l;
	uint64_t need;
	double v = 0;
	int64_t p;
	unsigned i, nfail = 0;

	for (i = 0; i < cfg->nlimits; i++) {
		l = &cfg->limits[i];
		if (statinfo[l->stat].q > 0)
			need = report_pct_need(statinfo[l->stat].q);
		else
			need = l->stat == STAT_STDEV ? 2 : 1;
		if (st->n < need) {
			fprintf(fp, "latt: fail-above: %s is not meaningful "
			    "from %llu samples (it needs at least %llu): "
			    "counted as failed\n", statinfo[l->stat].name,
			    (unsigned long long)st->n,
			    (unsigned long long)need);
			nfail++;
			continue;
		}
		switch (l->stat) {
		case STAT_MIN:
			v = (double)st->min;
			break;
		case STAT_MAX:
			v = (double)st->max;
			break;
		case STAT_MEAN:
			v = stats_mean(st);
			break;
		case STAT_STDEV:
			v = stats_stdev(st);
			break;
		default:
			stats_percentiles(st, &statinfo[l->stat].q, &p, 1);
			v = (double)p;
			break;
		}
		if (v > (double)l->value) {
			fprintf(fp, "latt: fail-above: %s %.3f usec is above "
			    "the limit %.3f usec\n", statinfo[l->stat].name,
			    usec(v), usec((double)l->value));
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
	fprintf(fp, "\nPer client (usec; p99 within 6.25%%, - under %llu "
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
	const struct hist *h = &res->lat.hist;
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
	fprintf(fp, "\nHistogram (usec, one line per power of two):\n");
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
		fprintf(fp, " %7.2f%% ", 100.0 * (double)cum / (double)h->total);
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
 * and an erase to the end of the line, so that it redraws in place.
 */
void
report_progress(FILE *fp, const struct result *res, int64_t now)
{
	static const double q99[] = { 0.99 };
	int64_t p99;

	stats_percentiles(&res->lat, q99, &p99, 1);
	fprintf(fp, "\r%.0f s  %llu samples  max %.1f us  ",
	    (double)(now - res->start) / NSEC_PER_SEC,
	    (unsigned long long)res->lat.n, usec(res->lat.max));
	if (res->lat.n >= report_pct_need(q99[0]))
		fprintf(fp, "p99 %.1f us  ", usec(p99));
	else
		fprintf(fp, "p99 -  ");
	fprintf(fp, "workload %s\033[K", res->wl.reaped ? "ended" : "running");
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
	if (ap->error != NULL) {
		fprintf(fp, "\tthe trace could not be read: %s: %s\n",
		    ap->error, strerror(ap->error_errno));
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
		fprintf(fp, "\n#%u %s: %.3f usec, round %llu, %.6f s into the "
		    "run%s\n", i + 1, who, usec((double)as->s.latency),
		    (unsigned long long)as->s.round,
		    (double)as->s.when / NSEC_PER_SEC, as->broke ?
		    " (the sample that stopped --breaktrace)" : "");
		for (j = 0; j < as->ntl; j++) {
			t = &as->tl[j];
			if (t->cpu >= 0)
				snprintf(cpu, sizeof(cpu), "cpu%d", (int)t->cpu);
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
	static const double q[] = { 0.5, 0.99 };
	static const char *const qn[] = { "p50", "p99" };
	const struct stats *st[] = { &res->rq, &res->path };
	static const char *const name[] = { "runqueue", "wake path" };
	int64_t pct[2];
	size_t i, j;

	fprintf(fp, "\nWhere the time went (usec, ns resolution; each "
	    "client's schedstat run delay):\n");
	fprintf(fp, "\tsplit samples\t %llu\n", (unsigned long long)res->rq.n);
	for (i = 0; i < 2; i++) {
		stats_percentiles(st[i], q, pct, 2);
		fprintf(fp, "\t%s mean\t %12.3f\n", name[i],
		    usec(stats_mean(st[i])));
		/* The summary's rule: PCT_BEYOND samples beyond, or "-". */
		for (j = 0; j < 2; j++)
			if (st[i]->n >= report_pct_need(q[j]))
				fprintf(fp, "\t%s %s\t %12.3f\n", name[i],
				    qn[j], usec(pct[j]));
			else
				fprintf(fp, "\t%s %s\t %12s\n", name[i],
				    qn[j], "-");
	}
}
