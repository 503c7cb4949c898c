/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.c: what latt compare says and how it is asked: side A against
 * each later side as a table (cmp_report, also under latt --baseline) or
 * as JSON, the gate of --fail-if-worse, and the subcommand with its
 * options.  The sides come from cmpread.c, the rows' verdicts from
 * cmpstat.c (cmp_int.h says how the rooms of compare stand).
 */
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_int.h"
#include "common.h"
#include "compare.h"
#include "jsonw.h"
#include "stats.h"

#define MAX_SIDES	26

/* The rows shown without a gate asking for more. */
static const int default_row[STAT_NKINDS] = {
	[STAT_MEAN] = 1, [STAT_P50] = 1, [STAT_P90] = 1, [STAT_P95] = 1,
	[STAT_P99] = 1, [STAT_P999] = 1, [STAT_MAX] = 1,
};

/* The verdicts by CMP_REAL, CMP_NOISE and CMP_INCONCLUSIVE: words, keys. */
static const char *const verdict_names[] = {
	"real difference", "noise", "inconclusive"
};
static const char *const verdict_keys[] = { "real", "noise", "inconclusive" };

/* One comparison as both reports show it (view_make). */
struct view {
	char		**warn;
	ssize_t		  nwarn;
	struct cmp_row	 *rows;
	ssize_t		  nrows;
	int		  failed;	/* the gate failed on a row */
};

static const struct option compare_longopts[] = {
	{ "fail-if-worse",	required_argument,	NULL,	'F' },
	{ "json",		no_argument,		NULL,	'j' },
	{ "help",		no_argument,		NULL,	'h' },
	{ NULL,			0,			NULL,	0 }
};

static void	 compare_usage(void) __attribute__((noreturn));

/* A series of the side in every one of its runs, or NULL. */
static const struct cmp_series *
full_series(const struct cmp_side *side, const char *name)
{
	size_t i;

	for (i = 0; i < side->nseries; i++)
		if (strcmp(side->series[i].name, name) == 0)
			return side->series[i].nruns == side->nruns ?
			    &side->series[i] : NULL;
	return NULL;
}

/* The gate's limit on a row, or -1. */
static long long
gate_limit(const struct cmp_gate *g, const char *series, enum stat_kind k)
{
	size_t i;

	for (i = 0; g != NULL && i < g->n; i++)
		if (g->item[i].stat == k && strcmp(g->item[i].series,
		    series) == 0)
			return g->item[i].limit;
	return -1;
}

/*
 * The rows of a against b: for each series both sides have in every run,
 * the default statistics and those the gate names.  Returns the number of
 * rows (into *rows, to be freed), or -1 on ENOMEM.
 */
static ssize_t
build_rows(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate, struct cmp_row **rows)
{
	const struct cmp_series *sa, *sb;
	struct cmp_row *out, *nr;
	size_t n = 0, i;
	long long lim;
	int k;

	out = NULL;
	for (i = 0; i < a->nseries; i++) {
		sa = full_series(a, a->series[i].name);
		sb = full_series(b, a->series[i].name);
		if (sa == NULL || sb == NULL)
			continue;
		for (k = 0; k < STAT_NKINDS; k++) {
			lim = gate_limit(gate, sa->name, (enum stat_kind)k);
			if (!default_row[k] && lim < 0)
				continue;
			nr = realloc(out, (n + 1) * sizeof(*nr));
			if (nr == NULL) {
				free(out);
				return -1;
			}
			out = nr;
			cmp_test(sa->runs, sa->nruns, sb->runs, sb->nruns,
			    (enum stat_kind)k, &out[n]);
			out[n].series = sa->name;
			out[n].limit = lim;
			out[n].failed = lim >= 0 &&
			    out[n].verdict == CMP_REAL && out[n].worse &&
			    out[n].change > (double)lim;
			n++;
		}
	}
	*rows = out;
	return (ssize_t)n;
}

static const char *
info_of(const struct cmp_side *s, size_t k)
{
	const char *t = s->info != NULL ? s->info->text[k] : NULL;

	return t != NULL ? t : "(absent)";
}

static size_t
info_index(const char *key)
{
	size_t k;

	for (k = 0; k < CMP_NINFO; k++)
		if (strcmp(cmp_info_keys[k].key, key) == 0)
			return k;
	return 0;
}

static void
free_strings(char **s, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

/*
 * The warnings of a against b, one string each: differences within a
 * side, every setting that differs between the sides, a side too small
 * for verdicts, and the runs the sides share.  Returns how many (into *out), or -1 on ENOMEM.
 */
static ssize_t
warnings(const struct cmp_side *a, const struct cmp_side *b, char ***out)
{
	const struct cmp_side *sides[2] = { a, b }, *sd;
	const struct cmp_series *se;
	char **w = NULL, **nw, *s;
	size_t n = 0, i, k;
	const char *x, *y;
	int r;

	for (i = 0; i <= 2 + a->nnotes + b->nnotes + CMP_NINFO + 2 *
	    CMP_MAX_SERIES; i++) {
		s = NULL;
		r = 0;
		if (i == 2 + a->nnotes + b->nnotes + CMP_NINFO + 2 *
		    CMP_MAX_SERIES) {
			if ((k = cmp_side_shared(a, b)) > 0)
				r = asprintf(&s, "%zu of %s's runs are runs of "
				    "%s too (the same host and start time): the "
				    "sides were measured together, not apart",
				    k, b->name, a->name);
		} else if (i >= 2 + a->nnotes + b->nnotes + CMP_NINFO) {
			k = i - 2 - a->nnotes - b->nnotes - CMP_NINFO;
			sd = sides[k / CMP_MAX_SERIES];
			if (k % CMP_MAX_SERIES >= sd->nseries)
				continue;
			se = &sd->series[k % CMP_MAX_SERIES];
			if (se->nruns != sd->nruns)
				r = asprintf(&s, "%s: %zu of %zu runs have a "
				    "%s series: its rows are left out",
				    sd->name, se->nruns, sd->nruns, se->name);
		} else if (i < 2) {
			k = i;
			if (sides[k]->nruns < CMP_MIN_RUNS)
				r = asprintf(&s, "%s has %zu run%s: verdicts "
				    "need %d a side (several files, or "
				    "--repeat=N)", sides[k]->name,
				    sides[k]->nruns, sides[k]->nruns == 1 ?
				    "" : "s", CMP_MIN_RUNS);
		} else if (i < 2 + a->nnotes) {
			r = asprintf(&s, "%s", a->notes[i - 2]);
		} else if (i < 2 + a->nnotes + b->nnotes) {
			r = asprintf(&s, "%s", b->notes[i - 2 - a->nnotes]);
		} else if (i < 2 + a->nnotes + b->nnotes + CMP_NINFO) {
			k = i - 2 - a->nnotes - b->nnotes;
			if (!cmp_info_keys[k].warn)
				continue;
			x = info_of(a, k);
			y = info_of(b, k);
			if (strcmp(x, y) != 0)
				r = asprintf(&s, "%s differs: %s %s, %s %s",
				    cmp_info_keys[k].key, a->name, x, b->name,
				    y);
		}
		if (r < 0)
			goto oom;
		if (s == NULL)
			continue;
		if ((nw = realloc(w, (n + 1) * sizeof(*nw))) == NULL) {
			free(s);
			goto oom;
		}
		w = nw;
		w[n++] = s;
	}
	*out = w;
	return (ssize_t)n;
oom:
	free_strings(w, (ssize_t)n);
	return -1;
}

static void
row_label(char *buf, size_t len, const struct cmp_row *rw, const char *sep)
{
	/*
	 * The split's series, shortened in the table to keep its columns
	 * (the gate's "series.stat" names keep the full name).
	 */
	const char *name = strcmp(sep, " ") != 0 ? rw->series :
	    strcmp(rw->series, "runqueue") == 0 ? "rq" :
	    strcmp(rw->series, "wake_path") == 0 ? "wake" : rw->series;

	if (strcmp(rw->series, "latency") == 0)
		snprintf(buf, len, "%s", stats_kind_name(rw->stat));
	else
		snprintf(buf, len, "%s%s%s", name, sep,
		    stats_kind_name(rw->stat));
}

static void
print_value(FILE *fp, double ns)
{
	if (isnan(ns))
		fprintf(fp, " %12s", "-");
	else
		fprintf(fp, " %12.3f", ns / NSEC_PER_USEC);
}

static void
print_row(FILE *fp, const struct cmp_row *rw, int width)
{
	char ci[48], label[48];

	row_label(label, sizeof(label), rw, " ");
	fprintf(fp, "%-*s", width, label);
	print_value(fp, rw->a);
	print_value(fp, rw->b);
	if (isnan(rw->change))
		fprintf(fp, " %9s", "n/a");
	else
		fprintf(fp, " %+8.1f%%", rw->change);
	if (rw->has_ci)
		snprintf(ci, sizeof(ci), "[%+.1f%%, %+.1f%%]", rw->lo, rw->hi);
	else
		snprintf(ci, sizeof(ci), "-");
	fprintf(fp, "  %-22s %s", ci, verdict_names[rw->verdict]);
	if (rw->verdict == CMP_INCONCLUSIVE)
		fprintf(fp, ": %s", rw->reason);
	fputc('\n', fp);
}

/* Whether gate item i names a series not in every run of both sides. */
static int
gate_missing(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *g, size_t i)
{
	return full_series(a, g->item[i].series) == NULL ||
	    full_series(b, g->item[i].series) == NULL;
}

/*
 * What both reports of a against b show: the warnings, the rows, and
 * whether the gate failed on one.  Returns 0, or -1 on ENOMEM (with
 * nothing to free).
 */
static int
view_make(struct view *v, const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate)
{
	ssize_t i;

	memset(v, 0, sizeof(*v));
	if ((v->nwarn = warnings(a, b, &v->warn)) == -1)
		return -1;
	if ((v->nrows = build_rows(a, b, gate, &v->rows)) == -1) {
		free_strings(v->warn, v->nwarn);
		return -1;
	}
	for (i = 0; i < v->nrows; i++)
		v->failed |= v->rows[i].failed;
	return 0;
}

static void
view_free(struct view *v)
{
	free(v->rows);
	free_strings(v->warn, v->nwarn);
}

int
cmp_report(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	const struct cmp_side *sides[2] = { a, b };
	const struct cmp_row *rw;
	struct view v;
	char label[48];
	size_t rel = info_index("kernel_release"),
	    ver = info_index("kernel_version"), j;
	ssize_t i;
	int width = 12;

	if (view_make(&v, a, b, gate) == -1)
		return -1;
	for (j = 0; j < 2; j++)
		fprintf(fp, "%s: %s (%zu run%s, %llu samples)\n",
		    sides[j]->name, sides[j]->label != NULL ?
		    sides[j]->label : "?", sides[j]->nruns,
		    sides[j]->nruns == 1 ? "" : "s",
		    (unsigned long long)sides[j]->nsamples);
	for (j = 0; j < 2; j++)
		fprintf(fp, "kernel %s: %s %s\n", sides[j]->name,
		    info_of(sides[j], rel), info_of(sides[j], ver));
	for (i = 0; i < v.nwarn; i++)
		fprintf(fp, "warning: %s\n", v.warn[i]);
	/* The label column: 12, or wider for a class's rows. */
	for (i = 0; i < v.nrows; i++) {
		row_label(label, sizeof(label), &v.rows[i], " ");
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	fprintf(fp, "\n%-*s %12s %12s %9s  %-22s %s\n", width, "us", a->name,
	    b->name, "change", "99% CI of change", "verdict");
	for (i = 0; i < v.nrows; i++)
		print_row(fp, &v.rows[i], width);
	for (i = 0; i < v.nrows; i++) {
		rw = &v.rows[i];
		if (rw->limit < 0)
			continue;
		row_label(label, sizeof(label), rw, ".");
		if (rw->verdict == CMP_INCONCLUSIVE)
			fprintf(fp, "gate: %s: not applied: inconclusive "
			    "(%s)\n", label, rw->reason);
		else if (rw->failed)
			fprintf(fp, "gate: %s: %s is %+.1f%% worse than %s "
			    "(limit %lld%%): FAIL\n", label, b->name,
			    rw->change, a->name, rw->limit);
	}
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (gate_missing(a, b, gate, j))
			fprintf(fp, "gate: %s.%s: not applied: no %s series "
			    "in every run of both sides\n",
			    gate->item[j].series,
			    stats_kind_name(gate->item[j].stat),
			    gate->item[j].series);
	view_free(&v);
	return v.failed;
}

/* One row of the JSON report: print_row's, as data. */
static void
put_row(FILE *fp, const struct cmp_row *rw)
{
	char label[48];
	int first = 1;

	row_label(label, sizeof(label), rw, ".");
	fputc('{', fp);
	jw_key(fp, &first, "", "row");
	jw_string(fp, label);
	jw_key(fp, &first, " ", "series");
	jw_string(fp, rw->series);
	jw_key(fp, &first, " ", "stat");
	jw_string(fp, stats_kind_name(rw->stat));
	jw_key(fp, &first, " ", "a_ns");
	jw_double(fp, rw->a);
	jw_key(fp, &first, " ", "b_ns");
	jw_double(fp, rw->b);
	jw_key(fp, &first, " ", "change_pct");
	jw_double(fp, rw->change);
	jw_key(fp, &first, " ", "ci_pct");
	if (rw->has_ci) {
		fputc('[', fp);
		jw_double(fp, rw->lo);
		fputs(", ", fp);
		jw_double(fp, rw->hi);
		fputc(']', fp);
	} else
		fputs("null", fp);
	jw_key(fp, &first, " ", "verdict");
	jw_string(fp, verdict_keys[rw->verdict]);
	jw_key(fp, &first, " ", "reason");
	jw_str_or_null(fp, rw->verdict == CMP_INCONCLUSIVE ? rw->reason :
	    NULL);
	jw_key(fp, &first, " ", "worse");
	fputs(rw->worse ? "true" : "false", fp);
	jw_key(fp, &first, " ", "limit_pct");
	jw_int_or_null(fp, rw->limit >= 0, rw->limit);
	jw_key(fp, &first, " ", "gate");
	jw_str_or_null(fp, rw->limit < 0 ? NULL : rw->verdict ==
	    CMP_INCONCLUSIVE ? "not applied" : rw->failed ? "fail" : "pass");
	fputc('}', fp);
}

/* One comparison, a against b, as a JSON object; like cmp_report. */
static int
report_json(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	struct view v;
	char label[48];
	ssize_t i;
	size_t j, nmissing = 0;
	int first = 1;

	if (view_make(&v, a, b, gate) == -1)
		return -1;
	fputc('{', fp);
	jw_key(fp, &first, "", "a");
	jw_string(fp, a->name);
	jw_key(fp, &first, " ", "b");
	jw_string(fp, b->name);
	jw_key(fp, &first, " ", "warnings");
	fputc('[', fp);
	for (i = 0; i < v.nwarn; i++) {
		fputs(i > 0 ? ", " : "", fp);
		jw_string(fp, v.warn[i]);
	}
	fputc(']', fp);
	jw_key(fp, &first, "\n    ", "rows");
	fputc('[', fp);
	for (i = 0; i < v.nrows; i++) {
		fputs(i > 0 ? ",\n      " : "\n      ", fp);
		put_row(fp, &v.rows[i]);
	}
	fputs(v.nrows > 0 ? "\n    ]" : "]", fp);
	jw_key(fp, &first, "\n    ", "gate_not_applied");
	fputc('[', fp);
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (gate_missing(a, b, gate, j)) {
			snprintf(label, sizeof(label), "%s.%s",
			    gate->item[j].series,
			    stats_kind_name(gate->item[j].stat));
			fputs(nmissing++ > 0 ? ", " : "", fp);
			jw_string(fp, label);
		}
	fputc(']', fp);
	jw_key(fp, &first, "\n    ", "gate_failed");
	fputs(v.failed ? "true" : "false", fp);
	fputc('}', fp);
	view_free(&v);
	return v.failed;
}

/*
 * The JSON report's opening, up to its list of comparisons: the sides,
 * their files, runs and samples.  *first is report_all's, for the members
 * that follow.
 */
static void
json_head(FILE *fp, const struct cmp_side *sides, int nsides, int *first)
{
	int i, f;

	fputc('{', fp);
	jw_key(fp, first, "\n  ", "tool");
	jw_string(fp, "latt");
	jw_key(fp, first, "\n  ", "compare_version");
	fputs("1", fp);
	jw_key(fp, first, "\n  ", "level");
	jw_double(fp, CMP_LEVEL);
	jw_key(fp, first, "\n  ", "sides");
	fputc('[', fp);
	for (i = 0; i < nsides; i++) {
		fputs(i > 0 ? ",\n    {" : "\n    {", fp);
		f = 1;
		jw_key(fp, &f, "", "name");
		jw_string(fp, sides[i].name);
		jw_key(fp, &f, " ", "files");
		jw_string(fp, sides[i].label);
		jw_key(fp, &f, " ", "runs");
		fprintf(fp, "%zu", sides[i].nruns);
		jw_key(fp, &f, " ", "samples");
		fprintf(fp, "%llu", (unsigned long long)sides[i].nsamples);
		fputc('}', fp);
	}
	fputs(nsides > 0 ? "\n  ]" : "]", fp);
	jw_key(fp, first, "\n  ", "comparisons");
	fputc('[', fp);
}

/*
 * Every later side against the first, as tables or as one JSON object.
 * Returns 1 when the gate failed on one of them, 0 when not, -1 on ENOMEM
 * (the JSON then left unfinished).
 */
static int
report_all(FILE *fp, struct cmp_side *sides, int nsides,
    const struct cmp_gate *gate, int json)
{
	int first = 1, failed = 0, i, r = 0;

	if (json)
		json_head(fp, sides, nsides, &first);
	for (i = 1; i < nsides && r != -1; i++) {
		if (json) {
			fputs(i > 1 ? ",\n    " : "\n    ", fp);
			r = report_json(fp, &sides[0], &sides[i], gate);
		} else {
			if (i > 1)
				fputc('\n', fp);
			r = cmp_report(fp, &sides[0], &sides[i], gate);
		}
		if (r == 1)
			failed = 1;
	}
	if (r == -1)
		return -1;
	if (json) {
		fputs("\n  ]", fp);
		jw_key(fp, &first, "\n  ", "gate_failed");
		fputs(failed ? "true\n}\n" : "false\n}\n", fp);
	}
	return failed;
}

#define COMPARE_SYNOPSIS \
	"usage: latt compare [-h] [--json] [--fail-if-worse=SPEC] " \
	"A.json[,A2.json...] B.json[,B2.json...] [C.json ...]\n"

static void
compare_usage(void)
{
	fputs(COMPARE_SYNOPSIS, stdout);
	fputs(
"\n"
"Compares latt results (written by --json): each argument is one side, the\n"
"runs of its files (--repeat=N writes N runs into one file; several files\n"
"join with commas).  Every side after the first is compared with the first.\n"
"Two files without commas are two sides; more are sides only when each\n"
"holds several runs.  A run counts once in a side: a file, or a run (its\n"
"host and start time), given twice is a usage error, and so is a file on\n"
"two sides.\n"
"The run is the unit of evidence: for mean, p50, p90, p95, p99, p99.9 and\n"
"max (and the timer series) it prints the geometric mean of the runs' values\n"
"on each side, the change, a 99% interval of the change (Welch's t on the\n"
"logarithms, each run's within-run noise from its blocks as a floor) and a\n"
"verdict: real difference, noise, or inconclusive with the reason.  A\n"
"verdict needs 3 runs a side; 5 a side find a 20% change in a typical row.\n"
"Options may stand anywhere.\n"
"\n"
"  --fail-if-worse=SPEC  exit 3 when a later side is worse than A by more\n"
"                        than a limit and the difference is real (never on\n"
"                        an inconclusive row: a gate needs 3 runs a side,\n"
"                        better 5); SPEC is STAT=N%[,STAT=N%...], STAT one\n"
"                        of min, mean, stdev, p50, p90, p95, p99, p99.9,\n"
"                        p99.99, max, or SERIES.STAT for the series timer,\n"
"                        runqueue or wake_path (rq and wake in the table)\n"
"                        (CLASS.STAT for a class of clients: runs with\n"
"                        -c N:ATTR classes get rows per class, each\n"
"                        against its namesake)\n"
"      --json            write the table, intervals and verdicts as JSON\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 compared, 2 usage or unreadable file, 3 the gate failed.\n"
"\n"
"Example: latt --repeat=5 --json=old.json ...; (new kernel) latt --repeat=5\n"
"         --json=new.json ...; latt compare old.json new.json\n", stdout);
	exit(EXIT_OK);
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
		if ((k = stats_kind_find(name)) == -1 &&
		    (dot = strchr(name, '.')) != NULL &&
		    (size_t)(dot - name) < sizeof(g->item[0].series) &&
		    dot != name) {
			*dot = '\0';
			series = name;
			k = stats_kind_find(dot + 1);
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

/*
 * Files given without commas: two are two sides; more are sides only when
 * each holds several runs, for several files of one run each are most
 * likely the runs of two sides written apart.  A usage error shows the
 * comma form.
 */
static void
check_commas(struct cmp_side *sides, int nsides, char *argv[])
{
	char form[512], some[32];
	size_t len = 0;
	int i, one = -1, n1 = 0;

	if (nsides <= 2)
		return;
	for (i = 0; i < nsides; i++) {
		if (strchr(argv[i], ',') != NULL)
			return;
		if (sides[i].nruns < 2 && n1++ == 0)
			one = i;
	}
	if (one == -1)
		return;
	if (n1 == nsides)
		snprintf(some, sizeof(some), "one run each");
	else
		snprintf(some, sizeof(some), "%s of one run",
		    sides[one].name);
	for (i = 0; i < nsides && len < sizeof(form); i++)
		len += (size_t)snprintf(form + len, sizeof(form) - len, "%s%s",
		    i == 0 ? "" : i == nsides / 2 ? " " : ",", argv[i]);
	if (nsides % 2 != 0 || len >= sizeof(form) - 1)
		snprintf(form, sizeof(form), "A1.json,A2.json,A3.json "
		    "B1.json,B2.json,B3.json");
	usage_error("compare: %d files without commas would be %d sides, %s; "
	    "join the files of a side with commas: latt compare %s", nsides,
	    nsides, some, form);
}

/* Loads the sides, each checked against those before it. */
static void
load_sides(struct cmp_side *sides, int nsides, char *argv[])
{
	char name[4], err[512];
	int i, j;

	for (i = 0; i < nsides; i++) {
		snprintf(name, sizeof(name), "%c", 'A' + i);
		cmp_side_init(&sides[i], name);
		cmp_side_load(&sides[i], argv[i]);
		for (j = 0; j < i; j++)
			if (cmp_side_overlap(&sides[j], &sides[i], err,
			    sizeof(err)) == -1)
				usage_error("%s", err);
	}
	check_commas(sides, nsides, argv);
}

int
compare_main(int argc, char *argv[])
{
	struct cmp_side *sides;
	struct cmp_gate gate;
	int ch, nsides, i, r, have_gate = 0, json = 0;

	memset(&gate, 0, sizeof(gate));
	opterr = 0;
	optind = 1;
	/* No '+': options may follow the files (GNU getopt permutes). */
	while ((ch = getopt_long(argc, argv, ":h", compare_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'F':
			cmp_gate_parse(&gate, optarg);
			have_gate = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			compare_usage();
		case ':':
			usage_error("option %s needs a value",
			    argv[optind - 1]);
		default:
			if (optopt != 0)
				usage_error("unknown option: -%c", optopt);
			usage_error("unknown option: %s", argv[optind - 1]);
		}
	}
	nsides = argc - optind;
	if (nsides < 2)
		usage_error("compare needs two sides or more (for example: "
		    "latt compare a.json b.json)");
	if (nsides > MAX_SIDES)
		usage_error("compare takes at most %d sides", MAX_SIDES);
	if ((sides = calloc((size_t)nsides, sizeof(*sides))) == NULL)
		usage_error("compare: %s", strerror(errno));
	load_sides(sides, nsides, argv + optind);
	r = report_all(stdout, sides, nsides, have_gate ? &gate : NULL, json);
	for (i = 0; i < nsides; i++)
		cmp_side_free(&sides[i]);
	free(sides);
	if (r == -1) {
		lwarnc(ENOMEM, "compare");
		return EXIT_RUNTIME;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		lwarn("stdout");
		return EXIT_RUNTIME;
	}
	return r == 1 ? EXIT_THRESHOLD : EXIT_OK;
}
