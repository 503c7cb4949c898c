/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpwork.c: the workload's rows of latt compare: each run's workload
 * wall time and CPU time (runs[].workload) and each load's operations a
 * second (runs[].loads), side against side, so that a change that buys
 * latency with throughput says so in the same report; and --by-knob, one
 * file of a knob's sweep split into a side a value.
 *
 * A row is judged as a latency row is (cmp_judge on the logarithms of
 * the runs' values: paired in a knob's sweep, at cmp_level).  A
 * workload's times count only in a run where it ended by itself with
 * status 0: a command that latt stopped (at -d's end, at a signal) or
 * that failed has no time of its own to compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "json/jsonread.h"
#include "json/jsonw.h"
#include "lib/common.h"
#include "lib/fmt.h"

#define LABEL_W		9	/* the rows' first column */

/* One row of the workload's: what it is, and how to read its values. */
struct wrow {
	char		 label[16];	/* "wall s", "cpu s", "pipe/s" */
	int		 load;		/* -1: wall or cpu; else the load */
	int		 cpu;		/* the CPU time, not the wall time */
	int		 higher_worse;	/* a longer time; fewer operations
					   is worse the other way */
};

static double	 value_of(const struct cmp_work *, const struct wrow *);
static int	 make_rows(const struct cmp_side *, const struct cmp_side *,
		    struct wrow *, size_t);
static void	 judge(const struct cmp_side *, const struct cmp_side *,
		    const struct wrow *, struct cmp_row *);
static const char *word(const struct cmp_row *, const struct wrow *);

int
cmp_work_read(struct cmp_side *side, const struct json *run)
{
	const struct json *wl = json_get(run, "workload"), *ld, *o, *v;
	struct cmp_work *w, *nw;
	size_t i;

	nw = realloc(side->work, (side->nwork + 1) * sizeof(*nw));
	if (nw == NULL)
		return -1;
	side->work = nw;
	w = &nw[side->nwork++];
	memset(w, 0, sizeof(*w));
	w->wall = w->cpu = NAN;
	v = json_get(wl, "status");
	o = json_get(wl, "exit_code");
	if (v != NULL && v->type == JSON_STRING &&
	    strcmp(v->str, "exited") == 0 && o != NULL &&
	    o->type == JSON_NUMBER && json_num(o) == 0) {
		if ((v = json_get(wl, "wall_ns")) != NULL &&
		    v->type == JSON_NUMBER && json_num(v) > 0)
			w->wall = json_num(v);
		if ((v = json_get(wl, "cpu_ns")) != NULL &&
		    v->type == JSON_NUMBER && json_num(v) >= 0)
			w->cpu = json_num(v);
	}
	ld = json_get(run, "loads");
	for (i = 0; ld != NULL && ld->type == JSON_ARRAY && i < ld->n &&
	    w->nload < CMP_WORK_LOADS; i++) {
		o = json_at(ld, i);
		v = json_get(o, "kind");
		snprintf(w->kind[w->nload], sizeof(w->kind[0]), "%s",
		    v != NULL && v->type == JSON_STRING ? v->str : "?");
		v = json_get(o, "ops_per_sec");
		w->ops[w->nload++] = v != NULL && v->type == JSON_NUMBER ?
		    json_num(v) : NAN;
	}
	return 0;
}

void
cmp_work_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct wrow rows[2 + CMP_WORK_LOADS];
	struct cmp_row rw;
	char va[16], vb[16];
	double sc;
	int n, i;

	if ((n = make_rows(a, b, rows, 2 + CMP_WORK_LOADS)) == 0)
		return;
	fprintf(fp, "\n%-*s%8s%6s%8s%6s%8s  %-16s %s\n", LABEL_W, "workload",
	    "A", "+-", "B", "+-", "change", cmp_interval_name(), "verdict");
	for (i = 0; i < n; i++) {
		judge(a, b, &rows[i], &rw);
		sc = rows[i].load < 0 ? 1e-9 : 1;	/* times in s */
		cmp_row_print(fp, LABEL_W, rows[i].label, fmt_num(va,
		    sizeof(va), rw.a * sc, 1), fmt_num(vb, sizeof(vb),
		    rw.b * sc, 1), &rw, word(&rw, &rows[i]));
	}
	for (i = 0; i < n; i++) {
		judge(a, b, &rows[i], &rw);
		if (rw.verdict == CMP_CANNOT)
			fprintf(fp, "cannot tell: workload %s: %s.\n",
			    rows[i].label, rw.reason);
	}
	fprintf(fp, "wall s, cpu s: the workload's times, in s, in the runs "
	    "where it ended by\n    itself with status 0; KIND/s: a load's "
	    "operations a second.\n");
}

void
cmp_work_json(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	struct wrow rows[2 + CMP_WORK_LOADS];
	struct cmp_row rw;
	int n, i, first;

	n = make_rows(a, b, rows, 2 + CMP_WORK_LOADS);
	fputc('[', fp);
	for (i = 0; i < n; i++) {
		judge(a, b, &rows[i], &rw);
		first = 1;
		fputs(i > 0 ? ", {" : "{", fp);
		jw_key(fp, &first, "", "row");
		jw_string(fp, rows[i].label);
		jw_key(fp, &first, " ", "a");
		jw_double(fp, rw.a);
		jw_key(fp, &first, " ", "b");
		jw_double(fp, rw.b);
		jw_key(fp, &first, " ", "unit");
		jw_string(fp, rows[i].load >= 0 ? "ops/s" : "ns");
		cmp_row_json(fp, &first, &rw, word(&rw, &rows[i]));
		jw_key(fp, &first, " ", "reason");
		jw_str_or_null(fp, rw.verdict == CMP_CANNOT ? rw.reason :
		    NULL);
		fputc('}', fp);
	}
	fputc(']', fp);
}

/* A run's value for a row: ns or operations a second; NAN: none. */
static double
value_of(const struct cmp_work *w, const struct wrow *r)
{
	if (r->load < 0)
		return r->cpu ? w->cpu : w->wall;
	return (unsigned)r->load < w->nload ? w->ops[r->load] : NAN;
}

/* Whether some run of the side has a value for the row. */
static int
some(const struct cmp_side *s, const struct wrow *r)
{
	size_t i;

	for (i = 0; i < s->nwork; i++)
		if (!isnan(value_of(&s->work[i], r)))
			return 1;
	return 0;
}

/*
 * The rows both sides can show: wall and cpu when both recorded them in
 * some run, each load both ran as the same kind in their first runs.
 */
static int
make_rows(const struct cmp_side *a, const struct cmp_side *b,
    struct wrow *rows, size_t max)
{
	struct wrow r;
	size_t n = 0, k;

	if (a->nwork == 0 || b->nwork == 0)
		return 0;
	for (k = 0; k < 2; k++) {
		memset(&r, 0, sizeof(r));
		r.load = -1;
		r.cpu = (int)k;
		r.higher_worse = 1;
		snprintf(r.label, sizeof(r.label), k ? "cpu s" : "wall s");
		if (some(a, &r) && some(b, &r) && n < max)
			rows[n++] = r;
	}
	for (k = 0; k < a->work[0].nload && k < b->work[0].nload; k++) {
		if (strcmp(a->work[0].kind[k], b->work[0].kind[k]) != 0)
			break;
		memset(&r, 0, sizeof(r));
		r.load = (int)k;
		snprintf(r.label, sizeof(r.label), "%.7s/s",
		    a->work[0].kind[k]);
		if (some(a, &r) && some(b, &r) && n < max)
			rows[n++] = r;
	}
	return (int)n;
}

/*
 * A row judged by cmp_judge on the runs' values, paired when the sides'
 * runs are.  A side with a run lacking the value has no verdict; out of
 * memory, none either, and the reason says so.
 */
static void
judge(const struct cmp_side *a, const struct cmp_side *b,
    const struct wrow *r, struct cmp_row *rw)
{
	const struct cmp_side *s[2] = { a, b };
	struct cmp_ask q = { 1, 0, cmp_paired(a, b), CMP_WANT, 0, b->name };
	struct cmp_vals v[2] = { { NULL, 0 }, { NULL, 0 } };
	size_t i, j, miss[2] = { 0, 0 };
	int oom = 0;

	memset(rw, 0, sizeof(*rw));
	for (j = 0; j < 2; j++)
		for (i = 0; i < s[j]->nwork; i++)
			if (isnan(value_of(&s[j]->work[i], r)))
				miss[j]++;
			else if (cmp_vals_add(&v[j], value_of(&s[j]->work[i],
			    r)) == -1)
				oom = 1;
	cmp_judge(v[0].v, v[0].n, v[1].v, v[1].n, &q, rw);
	for (j = 0; j < 2; j++) {
		if (miss[j] == 0 && !oom)
			continue;
		rw->verdict = CMP_CANNOT;
		rw->has_ci = 0;
		rw->a = rw->b = rw->change = NAN;
		if (oom)
			snprintf(rw->reason, sizeof(rw->reason), "out of "
			    "memory");
		else
			snprintf(rw->reason, sizeof(rw->reason), "%zu of %s's "
			    "%zu runs %s", miss[j], s[j]->name, s[j]->nwork,
			    r->load >= 0 ? "lack its rate" : "have no time of "
			    "the workload's own (stopped, failed, or none)");
	}
	free(v[0].v);
	free(v[1].v);
}

/* The verdict's word: worse or better by the row's sense. */
static const char *
word(const struct cmp_row *rw, const struct wrow *r)
{
	if (r->cpu)
		return cmp_word(rw, "more", "less");
	return r->higher_worse ? cmp_word(rw, "worse", "better") :
	    cmp_word(rw, "better", "worse");
}

int
cmp_knob_sides(int n, char *files[], char ***argv, int *optind)
{
	const struct json *pts, *v, *k = NULL;
	struct json *root;
	char perr[256], *buf = NULL, **out;
	size_t len = 0, i;
	ssize_t got;
	FILE *fp;
	int fd;

	if (n != 1)
		usage_error("compare --by-knob takes one file (%d given)", n);
	if ((fd = open(files[0], O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1 ||
	    (fp = fdopen(fd, "r")) == NULL)
		usage_error("compare: %s: %s", files[0], strerror(errno));
	if ((got = getdelim(&buf, &len, '\0', fp)) == -1 && !feof(fp))
		usage_error("compare: %s: %s", files[0], strerror(errno));
	fclose(fp);
	/* At the end at once (empty, a FIFO with no writer): nothing read. */
	if ((root = json_parse(got > 0 ? buf : "", got > 0 ? strlen(buf) : 0,
	    perr, sizeof(perr))) == NULL)
		usage_error("compare: %s:%s", files[0], perr);
	pts = json_get(json_get(root, "sweep"), "points");
	if (pts != NULL && pts->type == JSON_ARRAY && pts->n > 0)
		k = json_get(json_at(json_get(json_at(pts, 0), "runs"), 0),
		    "knob");
	if (k == NULL || k->type != JSON_OBJECT || pts->n < 2)
		usage_error("compare --by-knob: %s holds no sweep of a kernel "
		    "knob with two values or more (--sweep=FILE=V1,V2)",
		    files[0]);
	if ((out = calloc(pts->n + 1, sizeof(*out))) == NULL)
		usage_error("compare: %s", strerror(errno));
	for (i = 0; i < pts->n; i++) {
		v = json_get(json_at(pts, i), "value");
		if (v == NULL || v->type != JSON_STRING ||
		    asprintf(&out[i], "%s@%s", files[0], v->str) < 0)
			usage_error("compare --by-knob: %s: a point of the "
			    "sweep has no value", files[0]);
	}
	json_free(root);
	free(buf);
	*argv = out;
	*optind = 0;
	return (int)i;
}

void
cmp_knob_free(char *argv[], int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
}
