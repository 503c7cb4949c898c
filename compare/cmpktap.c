/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpktap.c: --ktap of --fail-if-worse (latt compare, latt --baseline): a
 * KTAP test a limit of a comparison, named for scripts, its change and
 * runs in its diagnostic line.
 */
#include <stdio.h>
#include <string.h>

#include "compare/cmp.h"
#include "compare/compare.h"
#include "lib/fmt.h"
#include "stats.h"

void
cmp_ktap(const struct cmp_gate *g, const char *side, const struct cmp_row *rows,
    size_t n, const struct cmp_side *a, const struct cmp_side *b,
    size_t first)
{
	const struct cmp_row *rw;
	const char *stat;
	char name[96], diag[320], what[128], ci[40];
	size_t i, j;

	for (j = 0; g->ktap != NULL && j < g->n; j++) {
		stat = stats_kind_name(g->item[j].stat);
		for (i = 0, rw = NULL; i < n && rw == NULL; i++)
			if (rows[i].limit >= 0 && rows[i].stat ==
			    g->item[j].stat && strcmp(rows[i].series,
			    g->item[j].series) == 0)
				rw = &rows[i];
		if (rw != NULL && rw->has_ci)
			snprintf(what, sizeof(what), "change %+.1f%%, 99%% "
			    "interval %s,", rw->change, cmp_interval(ci,
			    sizeof(ci), rw->lo, rw->hi));
		else
			snprintf(what, sizeof(what), "(%s)", rw != NULL ?
			    rw->reason : "the series is not in every run");
		snprintf(diag, sizeof(diag), "%s %s %s against %lld%%; %s %zu "
		    "runs, %llu samples; %s %zu runs, %llu samples",
		    g->item[j].series, stat, what, g->item[j].limit, a->name,
		    a->nruns, (unsigned long long)a->nsamples, b->name,
		    b->nruns, (unsigned long long)b->nsamples);
		snprintf(name, sizeof(name), "%s_%s_%s_change_le_%lldpct", side,
		    g->item[j].series, stat, g->item[j].limit);
		fmt_ktap(g->ktap, (unsigned)(first + j + 1), rw == NULL ?
		    CMP_GATE_CANNOT : rw->gate, name + (*side == '\0'), diag);
	}
}
