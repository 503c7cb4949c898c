/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * where.c: the summary's block "Where it woke": for each placement kind
 * with samples (the client's CPU at its stamp against the parent's as it
 * wrote: topo.h), its share of the samples and its p50 and p99 where the
 * samples give them; the samples of no kind; the wake-ups that migrated;
 * and how sysfs described the machine when it lacked a level.  It reads a
 * finished result (the series and counts that feed.c filled) and never
 * measures.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "record/topo.h"
#include "report/where.h"
#include "result.h"
#include "stats.h"

static double	 share(uint64_t, uint64_t);

/* The kinds as the block names them, in the order of enum place_kind. */
static const char *const labels[PLACE_N] = {
	[PLACE_SAME_CPU] = "same CPU",
	[PLACE_SMT_SIBLING] = "SMT sibling",
	[PLACE_SAME_LLC] = "same LLC",
	[PLACE_OTHER_LLC] = "other LLC",
	[PLACE_OTHER_NODE] = "other node",
};

void
where_print(FILE *fp, const struct result *res)
{
	const struct stats *st;
	uint64_t all = res->place_unknown;
	char a[32], b[32];
	int k;

	if (res->topo == NULL || !res->ser[SER_PLACE_SAME_CPU].on)
		return;
	for (k = 0; k < PLACE_N; k++)
		all += res->ser[SER_PLACE(k)].st.n;
	if (all == 0)
		return;
	fprintf(fp, "\n%-13s %8s %6s %8s %8s\n", "Where it woke", "samples",
	    "share", "p50", "p99");
	for (k = 0; k < PLACE_N; k++) {
		st = &res->ser[SER_PLACE(k)].st;
		if (st->n == 0)
			continue;
		fprintf(fp, "%-13s %8llu %5.1f%% %8s %8s\n", labels[k],
		    (unsigned long long)st->n, share(st->n, all),
		    fmt_time(a, sizeof(a), stats_shown(st, STAT_P50), 3, "us"),
		    fmt_time(b, sizeof(b), stats_shown(st, STAT_P99), 3, "us"));
	}
	if (res->place_unknown > 0)
		fprintf(fp, "%-13s %8llu %5.1f%%  a CPU sysfs does not "
		    "describe\n", "unknown", (unsigned long long)
		    res->place_unknown, share(res->place_unknown, all));
	fprintf(fp, "%-13s %8llu %5.1f%%  woke on another CPU than the "
	    "time before\n", "migrated", (unsigned long long)res->migrated,
	    share(res->migrated, all));
	if (strcmp(res->topo->llc_from, "package") == 0)
		fprintf(fp, "%-13s sysfs describes no cache: the package "
		    "stands for it\n", "LLC");
	else if (strcmp(res->topo->llc_from, "none") == 0)
		fprintf(fp, "%-13s sysfs describes neither cache nor package\n",
		    "LLC");
}

/* n of all, in percent. */
static double
share(uint64_t n, uint64_t all)
{
	return 100.0 * (double)n / (double)all;
}
