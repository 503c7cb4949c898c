/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.c: the text of a finished sweep of a kernel knob: one row a
 * value, from its runs together (sweep.c summed them up), with the
 * workload's mean wall and CPU time beside the latency, so that a value
 * that buys latency with the build's time shows both; the order the runs
 * took; and whether the knob holds its content from before latt again
 * (tune.c wrote it back).  Nothing here measures or writes the knob.
 */
#include <stdio.h>
#include <string.h>

#include "lib/common.h"
#include "config.h"
#include "report/knob.h"
#include "result.h"
#include "stats.h"
#include "proc/tune.h"

static const char *us(char *, size_t, int, double);

void
knob_table(FILE *fp, const struct config *cfg, const struct result *res,
    const struct knob *k)
{
	static const enum stat_kind pk[2] = { STAT_P50, STAT_P99 };
	const struct sweep_result *sr = res->sweep;
	const struct sweep_point *p;
	char c[2][16], m[16], w[16], u[16];
	unsigned i, j;

	fprintf(fp, "knob %s: %u values, %u run%s each, interleaved (",
	    cfg->sweep.file, sr->n, cfg->repeat, cfg->repeat == 1 ? "" : "s");
	for (i = 0; i < sr->n && i < 3; i++)
		fprintf(fp, "%s%s", i > 0 ? " " : "", sr->pt[i].value);
	fprintf(fp, "%s ...)\n\n", sr->n > 3 ? " ..." : "");
	fprintf(fp, "%-14s %4s %7s %8s %8s %8s %9s %9s\n", "value", "runs",
	    "samples", "p50 us", "p99 us", "mean us", "wall s", "cpu s");
	for (i = 0; i < sr->n; i++) {
		p = &sr->pt[i];
		for (j = 0; j < 2; j++)
			us(c[j], sizeof(c[j]), p->lat.n >=
			    10 * stats_kind_need(pk[j]),
			    stats_value(&p->lat, pk[j]));
		us(m, sizeof(m), p->nruns > 0, p->mean);
		snprintf(w, sizeof(w), "-");
		snprintf(u, sizeof(u), "-");
		if (p->wl_runs > 0) {
			snprintf(w, sizeof(w), "%.3f", (double)p->wl_wall /
			    p->wl_runs / NSEC_PER_SEC);
			snprintf(u, sizeof(u), "%.3f", (double)p->wl_cpu /
			    p->wl_runs / NSEC_PER_SEC);
		}
		fprintf(fp, "%-14.14s %4u %7llu %8s %8s %8s %9s %9s\n",
		    p->value, p->nruns, (unsigned long long)p->lat.n, c[0],
		    c[1], m, w, u);
	}
	fputs("wall s, cpu s: the workload's mean over the value's runs\n",
	    fp);
	knob_restored(fp, k);
}

/* "restored": the knob holds what it held before latt, read back. */
void
knob_restored(FILE *fp, const struct knob *k)
{
	size_t n = strcspn(k->orig, "\n");

	if (k->file == NULL)
		return;
	if (k->changed)
		fprintf(fp, "knob %s NOT restored: write back its content "
		    "(%.*s) by hand\n", k->file, (int)(n > 60 ? 60 : n),
		    k->orig);
	else
		fprintf(fp, "knob %s restored: it holds %.*s%s again, as "
		    "before latt\n", k->file, (int)(n > 60 ? 60 : n), k->orig,
		    k->orig[n] != '\0' && k->orig[n + 1] != '\0' ? " ..." :
		    "");
}

/* A latency in us, four figures, or "-" when the samples cannot say. */
static const char *
us(char *buf, size_t len, int known, double ns)
{
	double v = ns / NSEC_PER_USEC;

	if (!known)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, v < 10 ? "%.3f" : v < 100 ? "%.2f" :
		    v < 1000 ? "%.1f" : "%.0f", v);
	return buf;
}
