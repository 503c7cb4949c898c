/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpcount.c: latt compare's rows of what the kernel counted in each run
 * (the run's "counts", docs/json-schema.md): the machine's context
 * switches and interrupts a second, the clients' voluntary and
 * involuntary switches and migrations per sample (per wake-up: a client
 * blocks once a wake-up, so 1 voluntary switch a sample is the floor), and
 * the mean runnable count.  They say whether two sides saw the same
 * number of events, the 1998 question; a count is neither better nor
 * worse, so a row says higher, lower or noise: Welch's t on the runs'
 * values (not their logarithms: a count may be 0), at CMP_LEVEL, with
 * CMP_MIN_RUNS runs a side; with fewer, the row is information only.
 * It reads each run's counts as cmpread.c hands them over, and prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "json/jsonread.h"
#include "json/jsonw.h"
#include "lib/fmt.h"

#define NROWS	6

/* The rows: a name for the table, one for the JSON, how each is read. */
static const struct {
	const char	*label;		/* at most 10 characters */
	const char	*key;		/* the JSON report's name */
	const char	*field;		/* in the run's "counts" */
	int		 per_sample;	/* divided by the run's samples */
	int		 rate;		/* shown with k, M, G */
} rows[NROWS] = {
	{ "switch/s", "switches_per_s", "switches_per_s", 0, 1 },
	{ "intr/s", "interrupts_per_s", "interrupts_per_s", 0, 1 },
	{ "vol/wake", "clients_voluntary_per_sample", "clients_voluntary",
	    1, 0 },
	{ "invol/wake", "clients_involuntary_per_sample",
	    "clients_involuntary", 1, 0 },
	{ "migr/wake", "clients_migrations_per_sample",
	    "clients_migrations", 1, 0 },
	{ "runnable", "runnable_mean", "runnable_mean", 0, 0 },
};

/* Each row's value in each run of a side that had it. */
struct cmp_counts {
	struct cmp_vals	 row[NROWS];
};

/* One row of a against b. */
struct crow {
	size_t		 na, nb;	/* runs with the row */
	double		 a, b;		/* the means of the runs */
	double		 sa, sb;	/* their sd over the mean; NAN: none */
	double		 change;	/* percent; NAN: unknown */
	double		 lo, hi;	/* its interval; NAN: none */
	const char	*verdict;
};

static int	 row_of(const struct cmp_side *, const struct cmp_side *,
		    unsigned, struct crow *);

int
cmp_counts_add(struct cmp_side *side, const struct json *run)
{
	const struct json *c = json_get(run, "counts"), *v, *lat;
	struct cmp_counts *cc = side->counts;
	double samples = 0, x;
	unsigned k;

	if (c == NULL || c->type != JSON_OBJECT)
		return 0;
	lat = json_get(json_get(run, "latency"), "samples");
	if (lat != NULL && lat->type == JSON_NUMBER)
		samples = json_num(lat);
	if (cc == NULL && (cc = side->counts = calloc(1, sizeof(*cc))) ==
	    NULL)
		return -1;
	for (k = 0; k < NROWS; k++) {
		v = json_get(c, rows[k].field);
		if (v == NULL || v->type != JSON_NUMBER ||
		    !isfinite(x = json_num(v)) || x < 0 ||
		    (rows[k].per_sample && !(samples > 0)))
			continue;
		if (cmp_vals_add(&cc->row[k], rows[k].per_sample ?
		    x / samples : x) == -1)
			return -1;
	}
	return 0;
}

void
cmp_counts_free(struct cmp_counts *cc)
{
	unsigned k;

	if (cc == NULL)
		return;
	for (k = 0; k < NROWS; k++)
		free(cc->row[k].v);
	free(cc);
}

void
cmp_counts_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	char va[16], vb[16], sa[16], sb[16], ch[16], ci[40];
	struct crow r;
	unsigned k, n = 0;

	for (k = 0; k < NROWS; k++) {
		if (!row_of(a, b, k, &r))
			continue;
		if (n++ == 0)
			fprintf(fp, "\n%-10s %7s %4s %7s %4s %7s  %-16s %s\n",
			    "counts", "A", "+-", "B", "+-", "change",
			    "99% interval", "verdict");
		fmt_num(va, sizeof(va), r.a, rows[k].rate);
		fmt_num(vb, sizeof(vb), r.b, rows[k].rate);
		cmp_spread(sa, sizeof(sa), 100 * r.sa);
		cmp_spread(sb, sizeof(sb), 100 * r.sb);
		cmp_pct(ch, sizeof(ch), r.change, 9.95);
		cmp_interval(ci, sizeof(ci), r.lo, r.hi);
		fprintf(fp, "%-10s %7s %4s %7s %4s %7s  %-16s %s\n",
		    rows[k].label, va, sa, vb, sb, ch, ci, r.verdict);
	}
	if (n > 0)
		fprintf(fp, "counts: the machine's switches and interrupts a "
		    "second, the clients'\n    voluntary and involuntary "
		    "switches and migrations a wake-up, the\n    mean "
		    "runnable count; higher or lower needs %d runs a side, "
		    "else\n    info.\n", CMP_MIN_RUNS);
}

void
cmp_counts_json(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct crow r;
	unsigned k, n = 0;

	for (k = 0; k < NROWS; k++) {
		if (!row_of(a, b, k, &r))
			continue;
		fprintf(fp, "%s{\"name\": \"%s\", \"a\": ", n++ > 0 ?
		    ",\n      " : "[\n      ", rows[k].key);
		jw_double(fp, r.a);
		fprintf(fp, ", \"a_runs\": %zu, \"b\": ", r.na);
		jw_double(fp, r.b);
		fprintf(fp, ", \"b_runs\": %zu, \"change\": ", r.nb);
		jw_double(fp, r.change);
		fputs(", \"lo\": ", fp);
		jw_double(fp, r.lo);
		fputs(", \"hi\": ", fp);
		jw_double(fp, r.hi);
		fputs(", \"verdict\": ", fp);
		jw_string(fp, r.verdict);
		fputc('}', fp);
	}
	fputs(n > 0 ? "\n    ]" : "null", fp);
}

/*
 * Row k of a against b, when both sides have it (else 0): the sides'
 * means and spreads, the change, and with CMP_MIN_RUNS runs a side
 * Welch's interval of the difference of the means at CMP_LEVEL
 * (cmp_points, as a percent of A's), and the verdict.
 */
static int
row_of(const struct cmp_side *a, const struct cmp_side *b, unsigned k,
    struct crow *r)
{
	struct cmp_points p;
	double d;
	int n;

	if (a->counts == NULL || b->counts == NULL ||
	    (r->na = a->counts->row[k].n) == 0 ||
	    (r->nb = b->counts->row[k].n) == 0)
		return 0;
	n = cmp_points(&a->counts->row[k], &b->counts->row[k], &p);
	d = p.mb - p.ma;
	r->a = p.ma;
	r->b = p.mb;
	r->sa = r->a > 0 && r->na > 1 ? p.sa / r->a : NAN;
	r->sb = r->b > 0 && r->nb > 1 ? p.sb / r->b : NAN;
	r->change = r->a > 0 ? 100 * d / r->a : d == 0 ? 0 : NAN;
	r->lo = r->hi = NAN;
	r->verdict = "info";
	if (n < 2)
		return 1;
	r->verdict = p.lo > 0 ? "higher" : p.hi < 0 ? "lower" : "noise";
	if (p.lo == p.hi)	/* the same value in every run of each side */
		r->lo = r->hi = r->change;
	else if (r->a > 0) {	/* no count falls below 0: nor the interval */
		r->lo = fmax(-100, 100 * p.lo / r->a);
		r->hi = 100 * p.hi / r->a;
	}
	return 1;
}
