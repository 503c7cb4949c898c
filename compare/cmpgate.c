/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpgate.c: the gate of a comparison (--fail-if-worse, of latt compare
 * and latt --baseline): its spec read, and with --ktap a KTAP test a
 * limit, named for scripts, its change and runs in its diagnostic line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "compare/compare.h"
#include "lib/common.h"
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
			snprintf(what, sizeof(what), "change %+.1f%%, %s %s,",
			    rw->change, cmp_interval_name(), cmp_interval(ci,
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

void
cmp_gate_parse(struct cmp_gate *g, const char *spec)
{
	char *copy, *part, *save = NULL, *eq, *name, *pct, *dot, what[64];
	char orig[64];
	const char *series;
	size_t i, len;
	int k;

	memset(g, 0, sizeof(*g));
	if (*spec == '\0')
		usage_error("fail-if-worse is empty");
	len = strlen(spec);
	if (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))
		usage_error("fail-if-worse has an empty part: %s", spec);
	if ((copy = strdup(spec)) == NULL)
		usage_error("fail-if-worse: %s", strerror(errno));
	for (part = strtok_r(copy, ",", &save); part != NULL;
	    part = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(part, '=')) == NULL)
			usage_error("fail-if-worse: %s is not STAT=N%%",
			    part);
		*eq = '\0';
		snprintf(orig, sizeof(orig), "%s", part);
		name = part;
		series = "latency";
		/* SERIES.STAT: placement.same_cpu.p99, timer.p99.9 */
		k = stats_kind_find(name);
		for (dot = strchr(name, '.'); k == -1 && dot != NULL &&
		    dot != name && (size_t)(dot - name) <
		    sizeof(g->item[0].series); dot = strchr(dot + 1, '.'))
			if ((k = stats_kind_find(dot + 1)) != -1) {
				*dot = '\0';
				series = name;
			}
		if (k == -1)
			usage_error("fail-if-worse: unknown statistic in "
			    "%s=%s (known: min, mean, stdev, p50, p90, p95, "
			    "p99, p99.9, p99.99, max, or SERIES.STAT)", orig,
			    eq + 1);
		for (i = 0; i < g->n; i++)
			if ((int)g->item[i].stat == k &&
			    strcmp(g->item[i].series, series) == 0)
				usage_error("fail-if-worse: %s=%s: %s is "
				    "given twice", orig, eq + 1, orig);
		if (g->n == CMP_MAX_GATE)
			usage_error("fail-if-worse: more than %d limits",
			    CMP_MAX_GATE);
		pct = eq + 1;
		len = strlen(pct);
		if (len == 0 || pct[len - 1] != '%')
			usage_error("fail-if-worse: %s=%s: the limit needs a "
			    "%% sign (for example p99=10%%)", orig, pct);
		pct[len - 1] = '\0';
		snprintf(what, sizeof(what), "fail-if-worse %s",
		    stats_kind_name((enum stat_kind)k));
		snprintf(g->item[g->n].series, sizeof(g->item[0].series),
		    "%s", series);
		g->item[g->n].stat = (enum stat_kind)k;
		g->item[g->n].limit = parse_num(what, pct, 0, 100000);
		g->n++;
	}
	free(copy);
}
