/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * curves.c: the text report of a finished --sweep, its table: one row a
 * value of the setting swept, from the value's runs together (sweep.c
 * summed them up).  Nothing here measures.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "config.h"
#include "counts.h"
#include "curves.h"
#include "loads.h"
#include "report.h"
#include "result.h"
#include "stats.h"

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
			report_cell(c[k], sizeof(c[k]), p->lat.n >=
			    report_pct_need(stats_kind_q(pk[k])), v);
		}
		if (p->nruns == 0)
			snprintf(m, sizeof(m), "-");
		else if (p->half < 0)
			report_cell(m, sizeof(m), 1, p->mean);
		else {
			report_cell(m, sizeof(m), 1, p->mean);
			strcat(m, " +- ");
			report_cell(m + strlen(m), sizeof(m) - strlen(m), 1,
			    p->half);
		}
		v = counts_rate(&p->counts, p->counts.ctxt);
		snprintf(sw, sizeof(sw), "-");
		if (v >= 0)
			report_rate(sw, sizeof(sw), v);
		v = counts_runnable_mean(&p->counts);
		snprintf(rq, sizeof(rq), v >= 0 ? "%.2f" : "-", v);
		fprintf(fp, "%-6.6s %4u %7llu %6s %6s %6s %14s %8s %5s",
		    p->value, p->nruns, (unsigned long long)p->lat.n, c[0],
		    c[1], c[2], m, sw, rq);
		for (k = 0; k < nl && k < p->nload; k++) {
			snprintf(ld[k], sizeof(ld[k]), "-");
			if (p->load_ns[k] > 0)
				report_rate(ld[k], sizeof(ld[k]),
				    (double)p->load_ops[k] * NSEC_PER_SEC /
				    (double)p->load_ns[k]);
			fprintf(fp, " %8s", ld[k]);
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
	report_floor(fp, &res->floor);
	fprintf(fp, "\tseed\t         %llu\n", (unsigned long long)cfg->seed);
}
