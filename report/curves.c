/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * curves.c: the text reports of what latt counted and swept: the
 * kernel's counts and latt's floor as lines of the summary's facts, and a
 * finished --sweep's table, one row a value of the setting swept, from
 * the value's runs together (sweep.c summed them up).  Nothing here
 * measures.
 */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

#include "lib/common.h"
#include "config.h"
#include "machine/counts.h"
#include "report/curves.h"
#include "report/facts.h"
#include "proc/loads.h"
#include "result.h"
#include "stats.h"

static const char *cell(char *, size_t, int, double);


/*
 * --sweep: one row a value, from its runs together: runs, samples, p50,
 * p90, p99, the mean over the runs with its 95% interval (3 runs or more),
 * the machine's switches a second, the mean runnable count, and the
 * first load's rate (every load's is in the JSON), within 80 columns;
 * then latt's floor.
 */
void
curves_table(FILE *fp, const struct config *cfg, const struct result *res)
{
	static const enum stat_kind pk[3] = { STAT_P50, STAT_P90, STAT_P99 };
	const struct sweep_result *sr = res->sweep;
	const struct sweep_point *p;
	char c[3][16], m[40], sw[16], rq[16], ld[1][16], hd[1][16];
	unsigned i, k, nl;
	double v;

	nl = sr->n > 0 && sr->pt[0].nload > 0;
	for (k = 0; k < nl; k++)
		snprintf(hd[k], sizeof(hd[k]), "%.7s/s",
		    load_name(sr->pt[0].load_kind[k]));
	fprintf(fp, "sweep of %s: %u value%s, %u run%s each, latency in us\n\n",
	    sr->name, sr->n, sr->n == 1 ? "" : "s", cfg->repeat,
	    cfg->repeat == 1 ? "" : "s");
	fprintf(fp, "%-6s %4s %7s %6s %6s %6s %14s %8s %5s", sr->name, "runs",
	    "samples", "p50", "p90", "p99", "mean +-95%", "switch/s", "runq");
	for (k = 0; k < nl; k++)
		fprintf(fp, " %8s", hd[k]);
	fputc('\n', fp);
	for (i = 0; i < sr->n; i++) {
		p = &sr->pt[i];
		for (k = 0; k < 3; k++) {
			v = stats_value(&p->lat, pk[k]);
			cell(c[k], sizeof(c[k]), p->lat.n >=
			    10 * stats_kind_need(pk[k]), v);
		}
		if (p->nruns == 0)
			snprintf(m, sizeof(m), "-");
		else if (p->half < 0)
			cell(m, sizeof(m), 1, p->mean);
		else {
			cell(m, sizeof(m), 1, p->mean);
			strcat(m, " +- ");
			cell(m + strlen(m), sizeof(m) - strlen(m), 1,
			    p->half);
		}
		v = counts_rate(&p->counts, p->counts.ctxt);
		snprintf(sw, sizeof(sw), "-");
		if (v >= 0)
			fmt_rate(sw, sizeof(sw), v);
		v = counts_runnable_mean(&p->counts);
		snprintf(rq, sizeof(rq), v >= 0 ? "%.2f" : "-", v);
		fprintf(fp, "%-6.6s %4u %7llu %6s %6s %6s %14s %8s %5s",
		    p->value, p->nruns, (unsigned long long)p->lat.n, c[0],
		    c[1], c[2], m, sw, rq);
		for (k = 0; k < nl && k < p->nload; k++) {
			snprintf(ld[k], sizeof(ld[k]), "-");
			if (p->load_ns[k] > 0)
				fmt_rate(ld[k], sizeof(ld[k]),
				    (double)p->load_ops[k] * NSEC_PER_SEC /
				    (double)p->load_ns[k]);
			fprintf(fp, " %8s", ld[k]);
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
	curves_floor(fp, &res->floor);
	facts_row(fp, "seed", "%llu", (unsigned long long)cfg->seed);
}

/*
 * What the kernel counted from the end of the priming round to the end of
 * the loop: the machine's switches and interrupts a second, the clients'
 * switches and migrations, and the mean of procs_running (latt counts
 * itself: an idle machine shows about 1).
 */
void
curves_counts(FILE *fp, const struct counts *c)
{
	char a[32], b[32], m[48];
	double rq = counts_runnable_mean(c);

	if (!c->valid)
		return;
	snprintf(a, sizeof(a), "-");
	snprintf(b, sizeof(b), "-");
	if (counts_rate(c, c->ctxt) >= 0) {
		fmt_rate(a, sizeof(a), counts_rate(c, c->ctxt));
		fmt_rate(b, sizeof(b), counts_rate(c, c->intr));
	}
	if (rq >= 0)
		facts_row(fp, "switches", "%s/s, %s interrupts/s; runnable %.2f "
		    "(mean)", a, b, rq);
	else
		facts_row(fp, "switches", "%s/s, %s interrupts/s", a, b);
	if (!c->clients_ok)
		return;
	snprintf(m, sizeof(m), c->migr_ok ? ", %llu migrations" : "",
	    (unsigned long long)c->migr);
	facts_row(fp, "clients'", "%llu voluntary, %llu involuntary switches%s",
	    (unsigned long long)c->vol, (unsigned long long)c->invol, m);
}

/* latt's own floor: what part of a latency is the instrument. */
void
curves_floor(FILE *fp, const struct floor *f)
{
	char a[32], b[32], c[32];

	if (!f->valid)
		return;
	facts_row(fp, "floor", "clock %s, write+read %s, ping-pong %s",
	    f->clock_ns < 0 ? "-" : fmt_time(a, sizeof(a), f->clock_ns, 3,
	    "us"), f->pipe_ns < 0 ? "-" : fmt_time(b, sizeof(b), f->pipe_ns,
	    3, "us"), f->pingpong_ns < 0 ? "-" : fmt_time(c, sizeof(c),
	    f->pingpong_ns, 3, "us"));
}

/* Microseconds to four significant digits, as the details table's. */
static const char *
cell(char *buf, size_t len, int ok, double ns)
{
	double v = ns / 1e3;

	if (!ok)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", v < 9.9995 ? 3 : v < 99.995 ? 2 :
		    v < 999.95 ? 1 : 0, v);
	return buf;
}

