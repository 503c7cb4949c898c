/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpshare.c: latt compare's rows of a share a run, side against side, in
 * points: each frame class's share of its deadlines missed (done late or
 * not started; frame=) and, with --all, each run's share of its samples
 * by placement kind and of migrations (a run's "placement").  A run's
 * deadlines and wake-ups are not independent (a stutter misses hundreds
 * in a row), so the unit is the run: each side's mean of its runs' shares
 * and their sd, the change (B - A) and its 99% interval (cmp_points).  A
 * missed share is worse or better when the interval lies wholly on one
 * side of 0, a placement share is no better or worse by itself and says
 * "changed", else noise; with fewer than CMP_MIN_RUNS runs a side, cannot
 * tell.  The latency of each placement kind is a series of its own
 * ("placement.KIND", read by cmpread.c) with the rows of the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "json/jsonread.h"

/* The kinds in the order of the JSON (topo.h's enum place_kind). */
const char *const cmp_place_kinds[CMP_PLACE_KINDS] = {
	"same_cpu", "smt_sibling", "same_llc", "other_llc", "other_node",
};

/* The two tables: their heads, and the words of a real change. */
static const struct table {
	const char	*name;
	int		 width;		/* of the first column */
	int		 dec;		/* the interval's decimals */
	const char	*last;		/* the last column's head */
	const char	*up, *down;	/* B higher, B lower */
	const char	*foot;
} tables[2] = {
	{ "missed", 10, 0, "verdict", "worse", "better",
	    "missed: the share of a frame class's deadlines missed (late or "
	    "not\n    started), a value a run; +-: their sd; change, "
	    "interval: points.\n" },
	{ "placement", 11, 1, "shares", "changed", "changed",
	    "placement: each run's share of its samples by where they woke "
	    "(migrated:\n    on another CPU than the time before); +-: their "
	    "sd; change, interval:\n    points; latency by kind: the "
	    "placement.KIND rows.\n" },
};

static void	 row(FILE *, const struct table *, int *, const char *,
		    const struct cmp_vals *, const struct cmp_vals *);

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
cmp_frames_add(struct cmp_side *side, const char *name, double missed)
{
	struct cmp_frames *nf;
	size_t i;

	for (i = 0; i < side->nframes; i++)
		if (strcmp(side->frames[i].name, name) == 0)
			return cmp_vals_add(&side->frames[i].missed, missed);
	if ((nf = realloc(side->frames, (i + 1) * sizeof(*nf))) == NULL)
		return -1;
	side->frames = nf;
	memset(&nf[i], 0, sizeof(nf[i]));
	if ((nf[i].name = strdup(name)) == NULL)
		return -1;
	side->nframes++;
	return cmp_vals_add(&nf[i].missed, missed);
}

/* A count of the placement object p; 0 when absent. */
static double
count(const struct json *p, const char *key)
{
	const struct json *v = json_get(p, key);

	if (v != NULL && v->type == JSON_OBJECT)
		v = json_get(v, "samples");
	return v != NULL && v->type == JSON_NUMBER ? json_num(v) : 0;
}

int
cmp_place_add(struct cmp_side *side, const struct json *p)
{
	double n[CMP_PLACE_COLS], all;
	size_t k;

	all = count(p, "unknown");
	for (k = 0; k < CMP_PLACE_KINDS; k++)
		all += n[k] = count(p, cmp_place_kinds[k]);
	n[CMP_PLACE_KINDS] = count(p, "migrated");
	if (!(all > 0))
		return 0;		/* no sample: no share */
	if (side->place == NULL && (side->place = calloc(CMP_PLACE_COLS,
	    sizeof(*side->place))) == NULL)
		return -1;
	for (k = 0; k < CMP_PLACE_COLS; k++)
		if (cmp_vals_add(&side->place[k], 100 * n[k] / all) == -1)
			return -1;
	return 0;
}

void
cmp_shares_free(struct cmp_side *side)
{
	size_t k;

	for (k = 0; k < side->nframes; k++) {
		free(side->frames[k].name);
		free(side->frames[k].missed.v);
	}
	free(side->frames);
	for (k = 0; side->place != NULL && k < CMP_PLACE_COLS; k++)
		free(side->place[k].v);
	free(side->place);
}

/* Whether any run of a side has a share in vs. */
static int
any(const struct cmp_vals *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (vs->v[i] > 0)
			return 1;
	return 0;
}

void
cmp_shares_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b,
    int all)
{
	size_t i, j;
	int head = 0;

	for (i = 0; i < a->nframes; i++)
		for (j = 0; j < b->nframes; j++)
			if (strcmp(a->frames[i].name, b->frames[j].name) == 0)
				row(fp, &tables[0], &head, a->frames[i].name,
				    &a->frames[i].missed, &b->frames[j].missed);
	if (head)
		fputs(tables[0].foot, fp);
	if (!all || a->place == NULL || b->place == NULL)
		return;
	for (i = 0, head = 0; i < CMP_PLACE_COLS; i++)
		if (i == CMP_PLACE_KINDS || any(&a->place[i]) ||
		    any(&b->place[i]))
			row(fp, &tables[1], &head, i < CMP_PLACE_KINDS ?
			    cmp_place_kinds[i] : "migrated", &a->place[i],
			    &b->place[i]);
	fputs(tables[1].foot, fp);
}

/* One row of table t, after its head when it is the first (*head 0). */
static void
row(FILE *fp, const struct table *t, int *head, const char *label,
    const struct cmp_vals *a, const struct cmp_vals *b)
{
	struct cmp_points p;
	char ci[32] = "-";
	int r = cmp_points(a, b, &p);

	if (r > 0)
		snprintf(ci, sizeof(ci), "[%+.*f, %+.*f]", t->dec, p.lo, t->dec,
		    p.hi);
	if ((*head)++ == 0)
		fprintf(fp, "\n%-*s %6s %5s %6s %5s %6s  %-15s %s\n", t->width,
		    t->name, "A %", "+-", "B %", "+-", "change",
		    "99% interval", t->last);
	fprintf(fp, "%-*s %6.1f %5.1f %6.1f %5.1f %+6.1f  %-15s %s\n",
	    t->width, label, p.ma, p.sa, p.mb, p.sb, p.mb - p.ma, ci, r < 2 ?
	    "cannot tell" : p.lo > 0 ? t->up : p.hi < 0 ? t->down : "noise");
}
