/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpplace.c: latt compare's view of where the wake-ups woke (a run's
 * "placement"): each run's share of its samples by placement kind and
 * its share of migrations, kept by side, and shown with --all as a table
 * of points, A against B.  A share is no better or worse by itself, so
 * the table says "changed" (the interval excludes 0) or "noise", not a
 * verdict; the latency of each kind is a series of its own
 * ("placement.KIND", read by cmpread.c) with the rows of the others.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_int.h"
#include "compare/compare.h"
#include "json/jsonread.h"

/* The kinds in the order of the JSON (topo.h's enum place_kind). */
const char *const cmp_place_kinds[CMP_PLACE_KINDS] = {
	"same_cpu", "smt_sibling", "same_llc", "other_llc", "other_node",
};

int
cmp_place_empty(const struct cmp_series *s)
{
	size_t i;

	if (strncmp(s->name, "placement.", 10) != 0)
		return 0;
	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].n > 0)
			return 0;
	return 1;
}

int
cmp_place_add(struct cmp_side *side, const struct json *p)
{
	const struct json *ser, *v;
	double n[CMP_PLACE_COLS], all = 0, *nv;
	size_t k;

	for (k = 0; k < CMP_PLACE_KINDS; k++) {
		ser = json_get(p, cmp_place_kinds[k]);
		v = ser != NULL ? json_get(ser, "samples") : NULL;
		n[k] = v != NULL && v->type == JSON_NUMBER ? json_num(v) : 0;
		all += n[k];
	}
	v = json_get(p, "unknown");
	all += v != NULL && v->type == JSON_NUMBER ? json_num(v) : 0;
	v = json_get(p, "migrated");
	n[CMP_PLACE_KINDS] = v != NULL && v->type == JSON_NUMBER ?
	    json_num(v) : 0;
	if (!(all > 0))
		return 0;		/* no sample: no share */
	for (k = 0; k < CMP_PLACE_COLS; k++) {
		nv = realloc(side->place[k], (side->nplace + 1) * sizeof(*nv));
		if (nv == NULL)
			return -1;
		side->place[k] = nv;
		nv[side->nplace] = 100 * n[k] / all;
	}
	side->nplace++;
	return 0;
}

void
cmp_place_free(struct cmp_side *side)
{
	size_t k;

	for (k = 0; k < CMP_PLACE_COLS; k++) {
		free(side->place[k]);
		side->place[k] = NULL;
	}
	side->nplace = 0;
}

/* Whether any run of a side has a share of column k. */
static int
any(const struct cmp_side *s, size_t k)
{
	size_t i;

	for (i = 0; i < s->nplace; i++)
		if (s->place[k][i] > 0)
			return 1;
	return 0;
}

void
cmp_place_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct cmp_points p;
	const char *word;
	char ci[32];
	size_t k;
	int r;

	if (a->nplace == 0 || b->nplace == 0)
		return;
	fprintf(fp, "\n%-11s %6s %5s %6s %5s %6s  %-15s %s\n", "placement",
	    "A %", "+-", "B %", "+-", "change", "99% interval", "shares");
	for (k = 0; k < CMP_PLACE_COLS; k++) {
		if (k < CMP_PLACE_KINDS && !any(a, k) && !any(b, k))
			continue;
		r = cmp_points(a->place[k], a->nplace, b->place[k], b->nplace,
		    &p);
		snprintf(ci, sizeof(ci), "-");
		if (r > 0)
			snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", p.lo, p.hi);
		word = r < 2 ? "cannot tell" : p.lo > 0 || p.hi < 0 ?
		    "changed" : "noise";
		fprintf(fp, "%-11s %6.1f %5.1f %6.1f %5.1f %+6.1f  %-15s %s\n",
		    k < CMP_PLACE_KINDS ? cmp_place_kinds[k] : "migrated",
		    p.ma, p.sa, p.mb, p.sb, p.mb - p.ma, ci, word);
	}
	fputs("placement: each run's share of its samples by where they woke "
	    "(migrated:\n    on another CPU than the time before); +-: their "
	    "sd; change, interval:\n    points; latency by kind: the "
	    "placement.KIND rows.\n", fp);
}
