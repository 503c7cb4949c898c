/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text reports: the 2009 summary block, byte for byte in its old shape,
 * then the extension block.  Reports read finished results; they never
 * measure.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <stdlib.h>
#include <string.h>

#include "latt.h"

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

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
		fprintf(fp, "\tworkload\tnone (the loads only)\n");
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
	int64_t pct[NQUANTILES];
	size_t i;

	fprintf(fp, "\nWork after wake-up (usec, ns resolution, %u KiB a "
	    "client):\n", cfg->work_kb);
	fprintf(fp, "\twork samples\t%llu\n", (unsigned long long)st->n);
	stats_percentiles(st, quantiles, pct, NQUANTILES);
	fprintf(fp, "\twork min\t %12.3f\n", usec(st->min));
	for (i = 0; i < NQUANTILES; i++)
		fprintf(fp, "\twork %s\t %12.3f\n", qnames[i], usec(pct[i]));
	fprintf(fp, "\twork worst\t %12.3f\n", usec(st->max));
	fprintf(fp, "\twork mean\t %12.3f\n", usec(stats_mean(st)));
	fprintf(fp, "\twork sd\t %12.3f\n", usec(stats_stdev(st)));
	fprintf(fp, "\twork se\t %12.3f\n", usec(stats_sterr(st)));
}

static const char *
describe_stop(const struct result *res)
{
	switch (res->stop) {
	case STOP_WORKLOAD:
		return "the workload ended";
	case STOP_SIGNAL:
		return strsignal(res->stop_signal);
	case STOP_CLIENT:
		return "a client died";
	case STOP_ERROR:
	case STOP_SINK:
		return "an error";
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
	int64_t pct[NQUANTILES];
	size_t i;

	fprintf(fp, "Entries: %llu (clients=%u)\n",
	    (unsigned long long)st->n, cfg->nclients);
	fprintf(fp, "\nAverages:\n");
	fprintf(fp, "------------------------------\n");
	fprintf(fp, "\tMax\t %8.0f usec\n", usec(st->max));
	fprintf(fp, "\tAvg\t %8.0f usec\n", usec(stats_mean(st)));
	fprintf(fp, "\tStdev\t %8.0f usec\n", usec(stats_stdev(st)));

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	fprintf(fp, "\nDetails (usec, ns resolution):\n");
	fprintf(fp, "\tmin\t %12.3f\n", usec(st->min));
	for (i = 0; i < NQUANTILES; i++)
		fprintf(fp, "\t%s\t %12.3f\n", qnames[i], usec(pct[i]));
	fprintf(fp, "\tworst\t %12.3f\n", usec(st->max));
	fprintf(fp, "\tmean\t %12.3f\n", usec(stats_mean(st)));
	fprintf(fp, "\tsd\t %12.3f\n", usec(stats_stdev(st)));
	fprintf(fp, "\tse\t %12.3f\n", usec(stats_sterr(st)));
	if (st->n > 0)
		fprintf(fp, "\tworst at\tclient %u, %.6f s into the run\n",
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	fprintf(fp, "\trounds\t%llu\n", (unsigned long long)res->nrounds);
	fprintf(fp, "\tran\t%.3f s, ended by %s\n",
	    (double)(res->end - res->start) / NSEC_PER_SEC,
	    describe_stop(res));
	print_workload(fp, cfg, &res->wl);
	print_loads(fp, cfg, &res->wl);
	if (cfg->work_kb > 0)
		print_work(fp, cfg, &res->work);
}

/* One line per sample on -v, in the spirit of the 2009 "log delay" lines. */
void
report_verbose(FILE *fp, const struct sample *s)
{
	fprintf(fp, "log delay %12.3f usec (client %u, pid %d, cpu %d, "
	    "round %llu", usec(s->latency), s->client, (int)s->pid, s->cpu,
	    (unsigned long long)s->round);
	if (s->work_ns > 0)
		fprintf(fp, ", work %.3f usec", usec(s->work_ns));
	fputs(")\n", fp);
}
