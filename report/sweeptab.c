/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweeptab.c: the text of a finished --sweep, one row a value from its
 * runs together (sweep.c summed them up).  A setting's sweep: runs,
 * samples, p50, p90, p99, the mean over the runs with its 95% interval,
 * the machine's switches a second, the runnable mean and the first
 * load's rate.  A kernel knob's: the workload's mean wall and CPU time
 * beside the latency, so that a value that buys latency with the build's
 * time shows both, the order the runs took, and whether the knob holds
 * its content from before latt again.  Nothing here measures or writes
 * the knob.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "report/facts.h"
#include "report/sweeptab.h"
#include "result.h"
#include "stats.h"
#include "sweep/knob.h"

static void	 plain_table(FILE *, const struct config *,
		    const struct result *);
static void	 knob_table(FILE *, const struct config *,
		    const struct result *, const struct knob *);

void
sweeptab_print(FILE *fp, const struct config *cfg, const struct result *res,
    const struct knob *k)
{
	if (cfg->sweep.kind == SWEEP_KNOB)
		knob_table(fp, cfg, res, k);
	else
		plain_table(fp, cfg, res);
}

/*
 * --sweep: one row a value, from its runs together: runs, samples, p50,
 * p90, p99, the mean over the runs with its 95% interval (3 runs or more),
 * the machine's switches a second, the mean runnable count, and the
 * first load's rate (every load's is in the JSON), within 80 columns;
 * then, with --details, latt's floor and the seed.
 */
static void
plain_table(FILE *fp, const struct config *cfg, const struct result *res)
{
	static const enum stat_kind pk[3] = { STAT_P50, STAT_P90, STAT_P99 };
	const struct sweep_result *sr = res->sweep;
	const struct sweep_point *p;
	char c[3][16], m[40], sw[16], rq[16], ld[16];
	unsigned i, k, nl;
	double v;

	nl = sr->n > 0 && sr->pt[0].nload > 0;
	fprintf(fp, "sweep of %s: %u value%s, %u run%s each, latency in us\n\n",
	    sr->name, sr->n, sr->n == 1 ? "" : "s", cfg->repeat,
	    cfg->repeat == 1 ? "" : "s");
	fprintf(fp, "%-6s %4s %7s %6s %6s %6s %14s %8s %5s", sr->name, "runs",
	    "samples", "p50", "p90", "p99", "mean +-95%", "switch/s", "runq");
	if (nl) {
		snprintf(ld, sizeof(ld), "%.7s/s",
		    config_load_name(sr->pt[0].load_kind[0]));
		fprintf(fp, " %8s", ld);
	}
	fputc('\n', fp);
	for (i = 0; i < sr->n; i++) {
		p = &sr->pt[i];
		for (k = 0; k < 3; k++)
			fmt_us(c[k], sizeof(c[k]), stats_shown(&p->lat, pk[k]));
		fmt_us(m, sizeof(m), p->nruns > 0 ? p->mean : NAN);
		if (p->nruns > 0 && p->half >= 0) {
			strcat(m, " +- ");
			fmt_us(m + strlen(m), sizeof(m) - strlen(m), p->half);
		}
		v = counts_rate(&p->counts, p->counts.ctxt);
		fmt_num(sw, sizeof(sw), v >= 0 ? v : NAN, 1);
		v = counts_runnable_mean(&p->counts);
		snprintf(rq, sizeof(rq), v >= 0 ? "%.2f" : "-", v);
		fprintf(fp, "%-6.6s %4u %7llu %6s %6s %6s %14s %8s %5s",
		    p->value, p->nruns, (unsigned long long)p->lat.n, c[0],
		    c[1], c[2], m, sw, rq);
		if (nl && p->nload > 0)
			fprintf(fp, " %8s", fmt_num(ld, sizeof(ld),
			    p->load_ns[0] > 0 ? (double)p->load_ops[0] *
			    NSEC_PER_SEC / (double)p->load_ns[0] : NAN, 1));
		fputc('\n', fp);
	}
	if (cfg->details)
		fputc('\n', fp);
	facts_floor(cfg->details ? fp : NULL, &res->floor);
	facts_row(cfg->details ? fp : NULL, "seed", "%llu",
	    (unsigned long long)cfg->seed);
}

static void
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
			fmt_us(c[j], sizeof(c[j]), stats_shown(&p->lat, pk[j]));
		fmt_us(m, sizeof(m), p->nruns > 0 ? p->mean : NAN);
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
	fputs("wall s, cpu s: the workload's mean over the runs where it ended "
	    "by itself\n    with status 0 ('-': none)\n", fp);
	sweeptab_restored(fp, k);
}

void
sweeptab_restored(FILE *fp, const struct knob *k)
{
	size_t n = strcspn(k->orig, "\n");

	if (k->file == NULL)
		return;
	fputs("knob ", fp);	/* the path and the file's bytes, escaped */
	fmt_put(fp, k->file, SIZE_MAX);
	fputs(k->changed == 3 ? " left at another writer's value (before "
	    "latt: " : k->changed ? " NOT restored: write back its content (" :
	    " restored: it holds ", fp);
	fmt_put(fp, k->orig, n > 60 ? 60 : n);
	fputs(k->changed == 3 ? ")\n" : k->changed ? ") by hand\n" :
	    k->orig[n] != '\0' && k->orig[n + 1] != '\0' ?
	    " ... again, as before latt\n" : " again, as before latt\n", fp);
}
