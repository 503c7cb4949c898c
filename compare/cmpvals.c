/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpvals.c: latt compare's rows of a value a run that is no latency,
 * side against side over the runs (cmp_judge on the runs' values, not
 * their logarithms, paired where the runs were), each row a table after
 * the latency's.
 *
 * What the kernel counted in each run (the run's "counts",
 * docs/json-schema.md): the machine's context switches and interrupts a
 * second, the clients' voluntary and involuntary switches and migrations
 * per sample (per wake-up: a client blocks once a wake-up, so 1 voluntary
 * switch a sample is the floor), and the mean runnable count.  They say
 * whether two sides saw the same number of events, the 1998 question; a
 * count is neither better nor worse, so a row says higher, lower or noise
 * (the change and its interval as a percent of A's); with fewer runs, the
 * row is information only.
 *
 * A share a run, in points: each frame class's share of its deadlines
 * missed (done late or not started; frame=) and, with --all, each run's
 * share of its samples by placement kind and of migrations (a run's
 * "placement").  A run's deadlines and wake-ups are not independent (a
 * stutter misses hundreds in a row), hence the run as the unit.  A missed
 * share is worse or better when the interval lies wholly on one side of
 * 0, a placement share is no better or worse by itself and says
 * "changed", noise within +-10 points, else cannot tell.  The latency of
 * each placement kind is a series of its own ("placement.KIND", read by
 * cmpread.c) with the rows of the others.  The order check's share of
 * rounds with an inversion is a row of its own (cmp_order_row).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "json/jsonread.h"
#include "json/jsonw.h"
#include "lib/fmt.h"

#define NCOUNTS	6

/* The counts: a name for the table, one for the JSON, how each is read. */
static const struct {
	const char	*label;		/* at most 10 characters */
	const char	*key;		/* the JSON report's name */
	const char	*field;		/* in the run's "counts" */
	int		 per_sample;	/* divided by the run's samples */
	int		 rate;		/* shown with k, M, G */
} counts[NCOUNTS] = {
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

/* Each count's value in each run of a side that had it. */
struct cmp_counts {
	struct cmp_vals	 row[NCOUNTS];
};

/* One count of a against b. */
struct crow {
	size_t		 na, nb;	/* runs with the count */
	double		 a, b;		/* the means of the runs */
	double		 sa, sb;	/* their sd over the mean; NAN: none */
	double		 change;	/* percent; NAN: unknown */
	double		 lo, hi;	/* its interval; NAN: none */
	const char	*verdict;
};

/* The placement kinds in the order of the JSON (topo.h's place_kind). */
const char *const cmp_place_kinds[CMP_PLACE_KINDS] = {
	"same_cpu", "smt_sibling", "same_llc", "other_llc", "other_node",
};

/*
 * The tables: their heads, the widths of their columns (the first, a
 * value or its change, an sd, the interval), and of a share's, the
 * interval's decimals and the words of a real change.
 */
static const struct table {
	const char	*name, *a, *b, *last;
	int		 wname, wval, wsd, wci, dec;
	const char	*up, *down;	/* B higher, B lower */
} tables[3] = {
	{ "counts", "A", "B", "verdict", 10, 6, 4, 16, 0, NULL, NULL },
	{ "missed", "A %", "B %", "verdict", 10, 6, 5, 15, 0, "worse",
	    "better" },
	{ "placement", "A %", "B %", "shares", 11, 6, 5, 15, 1, "changed",
	    "changed" },
};

static int	 count_row(const struct cmp_side *, const struct cmp_side *,
		    unsigned, struct crow *);
static void	 row(FILE *, const struct table *, int *, const char *,
		    char [5][16], const char *, const char *);
static void	 share_row(FILE *, const struct table *, int *, const char *,
		    const struct cmp_vals *, const struct cmp_vals *, int);

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
	for (k = 0; k < NCOUNTS; k++) {
		v = json_get(c, counts[k].field);
		if (v == NULL || v->type != JSON_NUMBER ||
		    !isfinite(x = json_num(v)) || x < 0 ||
		    (counts[k].per_sample && !(samples > 0)))
			continue;
		if (cmp_vals_add(&cc->row[k], counts[k].per_sample ?
		    x / samples : x) == -1)
			return -1;
	}
	return 0;
}

void
cmp_counts_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	char c[5][16], ci[40];
	struct crow r;
	unsigned k;
	int head = 0;

	for (k = 0; k < NCOUNTS; k++) {
		if (!count_row(a, b, k, &r))
			continue;
		fmt_num(c[0], sizeof(c[0]), r.a, counts[k].rate);
		cmp_spread(c[1], sizeof(c[1]), 100 * r.sa);
		fmt_num(c[2], sizeof(c[2]), r.b, counts[k].rate);
		cmp_spread(c[3], sizeof(c[3]), 100 * r.sb);
		cmp_pct(c[4], sizeof(c[4]), r.change, 9.95);
		row(fp, &tables[0], &head, counts[k].label, c,
		    cmp_interval(ci, sizeof(ci), r.lo, r.hi), r.verdict);
	}
	if (head)
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

	for (k = 0; k < NCOUNTS; k++) {
		if (!count_row(a, b, k, &r))
			continue;
		fprintf(fp, "%s{\"name\": \"%s\", \"a\": ", n++ > 0 ?
		    ",\n      " : "[\n      ", counts[k].key);
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

/* Whether values a run of a and b stand beside each other's runs. */
static int
pairs(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_vals *va, const struct cmp_vals *vb)
{
	return va->n == a->nruns && vb->n == b->nruns && cmp_paired(a, b);
}

/*
 * Count k of a against b, when both sides have it (else 0): the sides'
 * means and spreads (over their means), and the change with its interval
 * by the one rule in percent of A's mean (never below -100%: no count
 * falls below 0), and the verdict; info under CMP_MIN_RUNS runs a side.
 */
static int
count_row(const struct cmp_side *a, const struct cmp_side *b, unsigned k,
    struct crow *r)
{
	struct cmp_ask q = { 0, 1, 0, CMP_WANT, 0, b->name };
	struct cmp_row rw;

	if (a->counts == NULL || b->counts == NULL ||
	    (r->na = a->counts->row[k].n) == 0 ||
	    (r->nb = b->counts->row[k].n) == 0)
		return 0;
	memset(&rw, 0, sizeof(rw));
	q.paired = pairs(a, b, &a->counts->row[k], &b->counts->row[k]);
	cmp_judge(a->counts->row[k].v, r->na, b->counts->row[k].v, r->nb, &q,
	    &rw);
	r->a = rw.a;
	r->b = rw.b;
	r->sa = r->a > 0 ? rw.spread_a / r->a : NAN;
	r->sb = r->b > 0 ? rw.spread_b / r->b : NAN;
	r->change = rw.change;
	r->lo = rw.has_ci ? fmax(-100, rw.lo) : NAN;
	r->hi = rw.has_ci ? rw.hi : NAN;
	r->verdict = r->na < CMP_MIN_RUNS || r->nb < CMP_MIN_RUNS ? "info" :
	    cmp_word(&rw, "higher", "lower");
	return 1;
}

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
cmp_vals_free(struct cmp_side *side)
{
	size_t k;

	for (k = 0; side->counts != NULL && k < NCOUNTS; k++)
		free(side->counts->row[k].v);
	free(side->counts);
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
				share_row(fp, &tables[1], &head,
				    a->frames[i].name, &a->frames[i].missed,
				    &b->frames[j].missed, pairs(a, b,
				    &a->frames[i].missed, &b->frames[j].missed));
	if (head)
		fputs("missed: the share of a frame class's deadlines missed "
		    "(late or not\n    started), a value a run; +-: their sd; "
		    "change, interval: points.\n", fp);
	if (!all || a->place == NULL || b->place == NULL)
		return;
	for (i = 0, head = 0; i < CMP_PLACE_COLS; i++)
		if (i == CMP_PLACE_KINDS || any(&a->place[i]) ||
		    any(&b->place[i]))
			share_row(fp, &tables[2], &head, i < CMP_PLACE_KINDS ?
			    cmp_place_kinds[i] : "migrated", &a->place[i],
			    &b->place[i], pairs(a, b, &a->place[i],
			    &b->place[i]));
	fputs("placement: each run's share of its samples by where they woke "
	    "(migrated:\n    on another CPU than the time before); +-: their "
	    "sd; change, interval:\n    points; latency by kind: the "
	    "placement.KIND rows.\n", fp);
}

/* A share's row of table t by the one rule, in points. */
static void
share_row(FILE *fp, const struct table *t, int *head, const char *label,
    const struct cmp_vals *a, const struct cmp_vals *b, int paired)
{
	struct cmp_ask q = { 0, 0, paired, CMP_WANT, 0, "B" };
	struct cmp_row rw;
	char c[5][16], ci[32] = "-";

	memset(&rw, 0, sizeof(rw));
	cmp_judge(a->v, a->n, b->v, b->n, &q, &rw);
	if (rw.has_ci)
		snprintf(ci, sizeof(ci), "[%+.*f, %+.*f]", t->dec, rw.lo,
		    t->dec, rw.hi);
	snprintf(c[0], sizeof(c[0]), "%.1f", rw.a);
	snprintf(c[1], sizeof(c[1]), "%.1f", isnan(rw.spread_a) ? 0 :
	    rw.spread_a);
	snprintf(c[2], sizeof(c[2]), "%.1f", rw.b);
	snprintf(c[3], sizeof(c[3]), "%.1f", isnan(rw.spread_b) ? 0 :
	    rw.spread_b);
	snprintf(c[4], sizeof(c[4]), "%+.1f", rw.change);
	row(fp, t, head, label, c, ci, cmp_word(&rw, t->up, t->down));
}

/* A row of table t, after its head when it is the first (*head 0). */
static void
row(FILE *fp, const struct table *t, int *head, const char *label,
    char c[5][16], const char *ci, const char *word)
{
	if ((*head)++ == 0)
		fprintf(fp, "\n%-*s %*s %*s %*s %*s %*s  %-*s %s\n", t->wname,
		    t->name, t->wval, t->a, t->wsd, "+-", t->wval, t->b, t->wsd,
		    "+-", t->wval, "change", t->wci, cmp_interval_name(),
		    t->last);
	fprintf(fp, "%-*s %*s %*s %*s %*s %*s  %-*s %s\n", t->wname, label,
	    t->wval, c[0], t->wsd, c[1], t->wval, c[2], t->wsd, c[3], t->wval,
	    c[4], t->wci, ci, word);
}

void
cmp_order_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct cmp_order r;
	char sa[24], sb[24], ch[16], ci[32] = "-";

	cmp_order_row(a, b, cmp_paired(a, b), &r);
	if (r.verdict == NULL)
		return;
	snprintf(sa, sizeof(sa), "%.1f%% of %llu", 100 * r.pa,
	    (unsigned long long)a->ord_rounds);
	snprintf(sb, sizeof(sb), "%.1f%% of %llu", 100 * r.pb,
	    (unsigned long long)b->ord_rounds);
	snprintf(ch, sizeof(ch), "%+.1f pt", r.row.change);
	if (r.row.has_ci)
		snprintf(ci, sizeof(ci), "%+.1f to %+.1f", r.row.lo, r.row.hi);
	fprintf(fp, "\n%-10s %-13s %-13s %-9s %-15s %s\n", "order", "A rounds",
	    "B rounds", "change", cmp_interval_name(), "verdict");
	fprintf(fp, "%-10s %-13s %-13s %-9s %-15s %s\n", "inversions",
	    a->ord_rounds > 0 ? sa : "-", b->ord_rounds > 0 ? sb : "-",
	    a->ord_rounds > 0 && b->ord_rounds > 0 ? ch : "-", ci, r.verdict);
	fmt_wrap(fp, "", 4, 72, "order: the share of rounds with an "
	    "inversion (real-time order check), judged over the runs' "
	    "shares; a verdict needs 3 runs a side.");
}

void
cmp_order_json(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct cmp_order r;
	int has = a->ord_rounds > 0 && b->ord_rounds > 0;

	cmp_order_row(a, b, cmp_paired(a, b), &r);
	if (r.verdict == NULL) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "{\"a_rounds\": %llu, \"a_rounds_with_inversions\": %llu, "
	    "\"b_rounds\": %llu, \"b_rounds_with_inversions\": %llu, "
	    "\"change\": ", (unsigned long long)a->ord_rounds,
	    (unsigned long long)a->ord_bad, (unsigned long long)b->ord_rounds,
	    (unsigned long long)b->ord_bad);
	jw_double(fp, has ? r.row.change / 100 : NAN);
	fputs(", \"lo\": ", fp);
	jw_double(fp, r.row.has_ci ? r.row.lo / 100 : NAN);
	fputs(", \"hi\": ", fp);
	jw_double(fp, r.row.has_ci ? r.row.hi / 100 : NAN);
	fputs(", \"verdict\": ", fp);
	jw_string(fp, r.verdict);
	fputs(r.row.paired ? ", \"test\": \"paired\"}" :
	    ", \"test\": \"unpaired\"}", fp);
}
