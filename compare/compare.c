/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.c: what latt compare says and how it is asked: side A against
 * each later side as a table for a reader (cmp_report, also under latt
 * --baseline) or as JSON, the gate of --fail-if-worse with its one
 * "gate:" line, and the subcommand with its options.  The sides come from
 * cmpread.c, the rows' verdicts from cmpstat.c (cmp.h says how the
 * rooms of compare stand).
 *
 * The table fits 72 columns, so that it can go into a mail: latency rows
 * only unless --all (or a gate) asks for more, each side's value beside
 * the spread of its runs, the interval written within bounds, and the
 * reasons a row has no verdict in sentences below it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/cmp.h"
#include "json/jsonw.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "stats.h"

#define MAX_SIDES	26
#define WIDTH		72	/* the table's, and where sentences wrap */
#define MAX_COLS	80	/* the verdict's line */
#define MAX_WARN	3	/* lines of warnings without --details */
#define TALLY_LEN	1536	/* the gate's lists, a limit a line */
#define GATE_WIDTH	80	/* the gate's lines */

/* The rows shown without a gate asking for more. */
static const int default_row[STAT_NKINDS] = {
	[STAT_MEAN] = 1, [STAT_P50] = 1, [STAT_P90] = 1, [STAT_P95] = 1,
	[STAT_P99] = 1, [STAT_P999] = 1, [STAT_MAX] = 1,
};

/*
 * The series of the schedstat split and the timer: only with --all, as
 * the placement kinds' ("placement.KIND").
 */
static const char *const other_series[] = { "timer", "runqueue",
    "wake_path" };

/* What a limit found, by CMP_GATE_*. */
static const char *const gate_words[] = { "met", "exceeded", "cannot tell" };

/* One comparison as both reports show it (view_make). */
struct view {
	char		**warn;
	size_t		  nwarn;
	struct cmp_row	 *rows;
	size_t		  nrows;
};

/*
 * What the gate found over every comparison, for its one line: the
 * limits by what they found, and the exceeded and undecided ones named.
 */
struct tally {
	size_t		 n[3];		/* by CMP_GATE_MET... */
	int		 nsides;	/* comparisons */
	int		 multi;		/* several: name the side */
	char		 list[2][TALLY_LEN];	/* exceeded, cannot tell */
	size_t		 left_out[2];
};

static const struct option compare_longopts[] = {
	{ "fail-if-worse",	required_argument,	NULL,	'F' },
	{ "json",		optional_argument,	NULL,	'j' },
	{ "all",		no_argument,		NULL,	'a' },
	{ "by-knob",		no_argument,		NULL,	'k' },
	{ "drop-noisy",		no_argument,		NULL,	'N' },
	{ "bisect",		no_argument,		NULL,	'B' },
	{ "details",		no_argument,		NULL,	'D' },
	{ "ktap",		optional_argument,	NULL,	'K' },
	{ "confidence",		required_argument,	NULL,	'C' },
	{ "help",		no_argument,		NULL,	'h' },
	{ NULL,			0,			NULL,	0 }
};

static void	 compare_usage(void) __attribute__((noreturn));
static void	 tally_put(struct tally *, int which, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

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

/* What the row's limit finds (compare.h): met, exceeded, cannot tell. */
static int
gate_state(const struct cmp_row *rw)
{
	if (rw->limit < 0)
		return CMP_GATE_NONE;
	if (!rw->has_ci)
		return CMP_GATE_CANNOT;
	if (rw->lo > (double)rw->limit)
		return CMP_GATE_EXCEEDED;
	if (rw->hi <= (double)rw->limit)
		return CMP_GATE_MET;
	return CMP_GATE_CANNOT;
}

/*
 * The rows of a against b into v: for each series both sides have in
 * every run, the default statistics and those the gate names.  Returns 0,
 * or -1 on ENOMEM.
 */
static int
build_rows(const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate, struct view *v)
{
	const struct cmp_series *sa, *sb;
	struct cmp_ask q = { 1, 0, cmp_paired(a, b), CMP_WANT, 0, b->name };
	struct cmp_row *nr;
	size_t i;
	long long lim;
	int k;

	for (i = 0; i < a->nseries; i++) {
		sa = full_series(a, a->series[i].name);
		sb = full_series(b, a->series[i].name);
		if (sa == NULL || sb == NULL || cmp_place_empty(sa) ||
		    cmp_place_empty(sb))
			continue;
		for (k = 0; k < STAT_NKINDS; k++) {
			lim = gate_limit(gate, sa->name, (enum stat_kind)k);
			if (!default_row[k] && lim < 0)
				continue;
			if ((nr = realloc(v->rows, (v->nrows + 1) *
			    sizeof(*nr))) == NULL)
				return -1;
			v->rows = nr;
			nr = &v->rows[v->nrows++];
			q.want = lim >= 0 ? (double)lim : CMP_WANT;
			cmp_test(sa->runs, sa->nruns, sb->runs, sb->nruns,
			    (enum stat_kind)k, &q, nr);
			nr->series = sa->name;
			nr->limit = lim;
			nr->gate = gate_state(nr);
		}
	}
	return 0;
}

/* Setting k of a side as its JSON text, or as shown; absent, in words. */
static const char *
info_of(const struct cmp_side *s, size_t k, int shown)
{
	const char *t = s->info == NULL ? NULL : shown ? s->info->show[k] :
	    s->info->text[k];

	return t != NULL ? t : shown ? "not recorded" : "(absent)";
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

/*
 * The noisy runs of both sides in one sentence: "3 of A's 5 runs were
 * noisy (others took 14-61%); --drop-noisy leaves them out."
 */
static int
say_noisy(const struct cmp_side *s[2], char ***w, size_t *n)
{
	char part[2][48], took[40] = "";
	double lo = INFINITY, hi = -INFINITY;
	size_t i, k = 0, all;

	for (i = 0; i < 2; i++) {
		if (s[i]->nnoisy == 0)
			continue;
		all = s[i]->nruns + (s[i]->drop_noisy ? s[i]->nnoisy : 0);
		snprintf(part[k++], sizeof(part[0]), "%zu of %s's %zu run%s",
		    s[i]->nnoisy, s[i]->name, all, all == 1 ? "" : "s");
		lo = fmin(lo, s[i]->noisy_lo);
		hi = fmax(hi, s[i]->noisy_hi);
	}
	if (isfinite(lo) && isfinite(hi))
		snprintf(took, sizeof(took), lo + 0.5 >= hi ? " (others "
		    "took %.0f%%)" : " (others took %.0f-%.0f%%)", lo, hi);
	return cmp_say(w, n, "%s%s%s %s noisy%s; --drop-noisy %s them out.",
	    part[0], k > 1 ? " and " : "", k > 1 ? part[1] : "", k == 1 &&
	    s[0]->nnoisy + s[1]->nnoisy == 1 ? "was" : "were", took,
	    s[0]->drop_noisy ? "left" : "leaves");
}

/*
 * The warnings of a against b, one sentence each, into v: first each side
 * too small for verdicts, then its noisy runs (one sentence for all
 * unless details), the notes within the sides, every setting that differs
 * between them, each series some runs lack, the runs the sides share, and
 * last the host's state.  Returns 0, or -1 on ENOMEM.
 */
static int
warnings(const struct cmp_side *a, const struct cmp_side *b, int details,
    struct view *v)
{
	const struct cmp_side *sides[2] = { a, b };
	const struct cmp_series *se;
	char bx[CMP_SHOW_WIDTH + 8], by[CMP_SHOW_WIDTH + 8], ***w = &v->warn;
	size_t *n = &v->nwarn, i, k;
	int r = 0;

	for (i = 0; i < 2 && r == 0; i++)
		if (sides[i]->nruns < CMP_MIN_RUNS)
			r = cmp_say(w, n, "%s has %zu run%s: verdicts need "
			    "%d a side (several files joined by commas, or "
			    "--repeat=N).", sides[i]->name, sides[i]->nruns,
			    sides[i]->nruns == 1 ? "" : "s", CMP_MIN_RUNS);
	for (i = 0; details && i < a->nnoisy + b->nnoisy && r == 0; i++)
		r = cmp_say(w, n, "%s", i < a->nnoisy ? a->noisy[i] :
		    b->noisy[i - a->nnoisy]);
	if (!details && a->nnoisy + b->nnoisy > 0 && r == 0)
		r = say_noisy(sides, w, n);
	for (i = 0; i < a->nnotes + b->nnotes && r == 0; i++)
		r = cmp_say(w, n, "%s", i < a->nnotes ? a->notes[i] :
		    b->notes[i - a->nnotes]);
	for (k = 0; k < CMP_NINFO && r == 0; k++) {
		if (!cmp_info_keys[k].warn ||
		    strcmp(info_of(a, k, 0), info_of(b, k, 0)) == 0)
			continue;
		cmp_show_pair(info_of(a, k, 1), info_of(b, k, 1), bx, by,
		    sizeof(bx));
		r = cmp_say(w, n, "%s: %s %s, %s %s.", cmp_info_keys[k].what,
		    a->name, bx, b->name, by);
	}
	for (i = 0; i < 2; i++)
		for (k = 0; k < sides[i]->nseries && r == 0; k++)
			if ((se = &sides[i]->series[k])->nruns !=
			    sides[i]->nruns)
				r = cmp_say(w, n, "only %zu of %s's %zu runs "
				    "have a %s series: its rows are left out.",
				    se->nruns, sides[i]->name, sides[i]->nruns,
				    se->name);
	if (r == 0 && (k = cmp_side_shared(a, b)) > 0)
		r = cmp_say(w, n, "%zu of %s's runs are runs of %s too (the "
		    "same host and start time): the sides were measured "
		    "together, not apart.", k, b->name, a->name);
	return r == -1 ? -1 : cmp_host_warn(a, b, w, n);
}

static void
view_free(struct view *v)
{
	free(v->rows);
	cmp_say_free(v->warn, v->nwarn);
}

/*
 * What both reports of a against b show: the warnings (each noisy run
 * alone with details) and the rows.  Returns 0, or -1 on ENOMEM (with
 * nothing to free).
 */
static int
view_make(struct view *v, const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate, int details)
{
	memset(v, 0, sizeof(*v));
	if (warnings(a, b, details, v) == 0 &&
	    build_rows(a, b, gate, v) == 0)
		return 0;
	view_free(v);
	return -1;
}

/* Whether a series is one of latency (the clients', or a class's). */
static int
latency_series(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(other_series) / sizeof(other_series[0]); i++)
		if (strcmp(name, other_series[i]) == 0)
			return 0;
	return strncmp(name, "placement.", 10) != 0;
}

/* "p99" for the clients' latency, "timer.p99" (sep ".") for others. */
static void
row_label(char *buf, size_t len, const struct cmp_row *rw, const char *sep)
{
	if (strcmp(rw->series, "latency") == 0)
		snprintf(buf, len, "%s", stats_kind_name(rw->stat));
	else
		snprintf(buf, len, "%s%s%s", rw->series, sep,
		    stats_kind_name(rw->stat));
}

static const char *
verdict_word(const struct cmp_row *rw)
{
	return cmp_word(rw, "worse", "better");
}

/* The column heads of a series' rows, its name in the first. */
static void
print_head(FILE *fp, const char *series)
{
	size_t len = strlen(series);

	if (len > 9) {
		fprintf(fp, "%s\n", series);
		len = 0;
		series = "";
	}
	fprintf(fp, "%s%*s%6s%8s%6s%8s  %-16s verdict\n", series,
	    (int)(14 - len), "A us", "+-", "B us", "+-", "change",
	    cmp_interval_name());
}

static void
print_row(FILE *fp, const struct cmp_row *rw)
{
	char va[16], vb[16];

	cmp_row_print(fp, 6, stats_kind_name(rw->stat), fmt_us(va, sizeof(va),
	    rw->a), fmt_us(vb, sizeof(vb), rw->b), rw, verdict_word(rw));
}

/* Whether the table shows a row: latency's, or asked for. */
static int
shown(const struct cmp_row *rw, int all)
{
	return all || rw->limit >= 0 || latency_series(rw->series);
}

/*
 * The answer of a comparison, from the rows of its table (all: with
 * --all's; the answer takes the latency's and the gate's, whatever
 * --all): worse when a row is worse, else better when one is, else
 * cannot tell when one cannot, else noise (no row at all: cannot tell).
 */
static const char *
answer(const struct view *v, int all)
{
	static const char *const words[] = { "worse", "better",
	    "cannot tell", "noise" };
	size_t i, j, best = 4;

	for (i = 0; i < v->nrows; i++)
		for (j = 0; j < best && shown(&v->rows[i], all); j++)
			if (strcmp(verdict_word(&v->rows[i]), words[j]) == 0)
				best = j;
	return best < 4 ? words[best] : "cannot tell";
}

/*
 * The answer's line, within MAX_COLS: "verdict: worse (p50, p99)",
 * naming the rows that decide it, the rest of them counted.
 */
static void
print_answer(FILE *fp, const struct view *v, int all)
{
	const char *word = answer(v, all);
	char label[64];
	size_t i, col, more = 0;

	col = (size_t)fprintf(fp, "verdict: %s", word);
	for (i = 0; i < v->nrows; i++) {
		if (!shown(&v->rows[i], all) ||
		    strcmp(verdict_word(&v->rows[i]), word) != 0)
			continue;
		row_label(label, sizeof(label), &v->rows[i], ".");
		if (more > 0 || col + strlen(label) + 16 > MAX_COLS)
			more++;
		else
			col += (size_t)fprintf(fp, "%s%s", col > 9 +
			    strlen(word) ? ", " : " (", label);
	}
	if (more > 0)
		fprintf(fp, ", %zu more", more);
	fputs(col > 9 + strlen(word) ? ")\n" : "\n", fp);
}

/* The lines fmt_wrap gives a warning. */
static size_t
wrapped(const char *text)
{
	char *buf = NULL;
	size_t len = 0, i, n = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL)
		return 1;
	fmt_wrap(m, "warning: ", 4, WIDTH, text);
	fclose(m);
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	free(buf);
	return n;
}

/*
 * The warnings, in their order: all with details, else while they fit
 * in MAX_WARN lines, the rest counted in the last.
 */
static void
print_warnings(FILE *fp, const struct view *v, int details)
{
	size_t i, used = 0, n;

	for (i = 0; i < v->nwarn; i++) {
		n = wrapped(v->warn[i]);
		if (!details && used + n + (i + 1 < v->nwarn) > MAX_WARN)
			break;
		fmt_wrap(fp, "warning: ", 4, WIDTH, v->warn[i]);
		used += n;
	}
	if (i < v->nwarn)
		cmp_more(fp, v->warn + i, v->nwarn - i, MAX_COLS);
}

/* Whether the table shows a row without a verdict, for reason r. */
static int
for_reason(const struct cmp_row *rw, int all, const char *r)
{
	return shown(rw, all) && rw->verdict == CMP_CANNOT &&
	    (r == NULL || strcmp(rw->reason, r) == 0);
}

/*
 * Below the table, why the rows without a verdict have none, one sentence
 * for each reason: "cannot tell: p99.9, max: a run of A has 400 samples,
 * p99.9 needs 10000."
 */
static void
print_reasons(FILE *fp, const struct cmp_row *rows, size_t n, int all)
{
	char line[1024], label[64];
	const char *r;
	size_t len, i, j;

	for (i = 0; i < n; i++) {
		if (!for_reason(&rows[i], all, NULL))
			continue;
		r = rows[i].reason;
		for (j = 0; j < i; j++)
			if (for_reason(&rows[j], all, r))
				break;
		if (j < i)
			continue;	/* said with the first */
		for (j = i, len = 0; j < n && len < sizeof(line) - 1; j++)
			if (for_reason(&rows[j], all, r)) {
				row_label(label, sizeof(label), &rows[j], " ");
				len += (size_t)snprintf(line + len,
				    sizeof(line) - len, "%s%s", len > 0 ? ", " :
				    "", label);
			}
		if (len < sizeof(line) - 1)
			snprintf(line + len, sizeof(line) - len, ": %s.", r);
		fmt_wrap(fp, "cannot tell: ", 4, WIDTH, line);
	}
}

/*
 * One line of the runs a side that would resolve the change that matters
 * in the rows that cannot tell, from their runs' spread.
 */
static void
print_need(FILE *fp, const struct cmp_row *rows, size_t n, int all)
{
	char line[512] = "to resolve 10% (or the limit asked), from the "
	    "runs' spread, a side:", label[64];
	size_t len = strlen(line), start = len, i;

	for (i = 0; i < n && len + 80 < sizeof(line); i++)
		if (shown(&rows[i], all) && rows[i].need > 0) {
			row_label(label, sizeof(label), &rows[i], " ");
			len += (size_t)snprintf(line + len, sizeof(line) - len,
			    "%s %s %s%zu", len > start ? "," : "", label,
			    rows[i].need >= CMP_MAX_NEED ? ">" : "",
			    rows[i].need);
		}
	if (len > start)
		fmt_wrap(fp, "more runs: ", 4, WIDTH, line);
}

static void
tally_put(struct tally *t, int which, const char *fmt, ...)
{
	char *l = t->list[which];
	size_t len = strlen(l);
	va_list ap;
	int n;

	if (t->left_out[which] > 0 || len + 200 > TALLY_LEN) {
		t->left_out[which]++;
		return;
	}
	if (len > 0)
		len += (size_t)snprintf(l + len, TALLY_LEN - len, "\n");
	va_start(ap, fmt);
	n = vsnprintf(l + len, TALLY_LEN - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= TALLY_LEN - len)
		l[len] = '\0';
}

/* Adds the limits of one comparison (of side bname) to the tally. */
static void
tally_add(struct tally *t, const char *bname, const struct cmp_row *rows,
    size_t n, const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate)
{
	const struct cmp_row *rw;
	char label[64], ci[40], side[8];
	size_t i, j;

	snprintf(side, sizeof(side), "%s%s", t->multi ? bname : "",
	    t->multi ? " " : "");
	cmp_ktap(gate, side, rows, n, a, b, t->n[0] + t->n[1] + t->n[2]);
	for (i = 0; i < n; i++) {
		rw = &rows[i];
		if (rw->gate == CMP_GATE_NONE)
			continue;
		t->n[rw->gate]++;
		row_label(label, sizeof(label), rw, ".");
		cmp_interval(ci, sizeof(ci), rw->has_ci ? rw->lo : NAN, rw->hi);
		if (rw->gate == CMP_GATE_EXCEEDED)
			tally_put(t, 0, "%s%s %+.1f%% > %lld%% (interval %s)",
			    side, label, rw->change, rw->limit, ci);
		else if (rw->gate == CMP_GATE_CANNOT && rw->has_ci)
			tally_put(t, 1, "%s%s (interval %s holds %lld%%)",
			    side, label, ci, rw->limit);
		else if (rw->gate == CMP_GATE_CANNOT)
			tally_put(t, 1, "%s%s (%s)", side, label, rw->reason);
	}
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (full_series(a, gate->item[j].series) == NULL ||
		    full_series(b, gate->item[j].series) == NULL) {
			t->n[CMP_GATE_CANNOT]++;
			tally_put(t, 1, "%s%s.%s (no %s series in every run "
			    "of %s and %s)", side, gate->item[j].series,
			    stats_kind_name(gate->item[j].stat),
			    gate->item[j].series, a->name, b->name);
		}
}

/*
 * The gate's lines, each within 80 columns: "gate: met (3 limits)"; one
 * limit: "gate: exceeded: p50 +34.0% > 10% (interval [+21%, +48%])";
 * several: "gate: exceeded (3 limits: 1 exceeded, 1 cannot tell, 1 met)"
 * then a line for each limit not met.  Returns what it says (CMP_GATE_*).
 */
static int
gate_line(FILE *fp, const struct tally *t)
{
	size_t total = t->n[0] + t->n[1] + t->n[2];
	int which = t->n[CMP_GATE_EXCEEDED] > 0 ? CMP_GATE_EXCEEDED :
	    t->n[CMP_GATE_CANNOT] > 0 ? CMP_GATE_CANNOT : CMP_GATE_MET;
	char sides[32] = "", lead[32], item[TALLY_LEN + 32], *p, *save;
	int k;

	if (t->nsides > 1)
		snprintf(sides, sizeof(sides), " on %d sides", t->nsides);
	if (which == CMP_GATE_MET) {
		fprintf(fp, "gate: met (%zu limit%s%s)\n", total, total == 1 ?
		    "" : "s", sides);
		return which;
	}
	if (total > 1)
		fprintf(fp, "gate: %s (%zu limits%s: %zu exceeded, %zu cannot "
		    "tell, %zu met)\n", gate_words[which], total, sides,
		    t->n[CMP_GATE_EXCEEDED], t->n[CMP_GATE_CANNOT],
		    t->n[CMP_GATE_MET]);
	for (k = CMP_GATE_EXCEEDED; k <= CMP_GATE_CANNOT; k++) {
		snprintf(item, sizeof(item), "%s", t->list[k - 1]);
		if (total == 1)
			snprintf(lead, sizeof(lead), "gate: %s: ", gate_words[k]);
		else
			snprintf(lead, sizeof(lead), "  %-13s", gate_words[k]);
		for (p = strtok_r(item, "\n", &save); p != NULL;
		    p = strtok_r(NULL, "\n", &save))
			fmt_wrap(fp, lead, total == 1 ? 4 : 15, GATE_WIDTH, p);
		if (t->left_out[k - 1] > 0)
			fprintf(fp, "%s and %zu more\n", lead,
			    t->left_out[k - 1]);
	}
	return which;
}

/*
 * The table of a against b for a reader, to fp: the sides, the answer,
 * the kernels, the warnings (all with details), the tables; the gate's
 * findings into t (NULL: kept elsewhere).  Returns 0, or -1 on ENOMEM.
 */
static int
write_text(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate, int all, int details, struct tally *t)
{
	const struct cmp_side *sides[2] = { a, b };
	const char *last = NULL;
	size_t rel = info_index("kernel_release"),
	    ver = info_index("kernel_version"), i, j;
	struct view v;

	if (view_make(&v, a, b, gate, details) == -1)
		return -1;
	for (j = 0; j < 2; j++) {
		fprintf(fp, "%s: ", sides[j]->name);
		fmt_put(fp, sides[j]->label != NULL ? sides[j]->label : "?",
		    SIZE_MAX);
		fprintf(fp, " (%zu run%s, %llu samples)\n", sides[j]->nruns,
		    sides[j]->nruns == 1 ? "" : "s",
		    (unsigned long long)sides[j]->nsamples);
	}
	print_answer(fp, &v, 0);
	for (j = 0; j < 2; j++) {	/* a file's bytes, escaped */
		fprintf(fp, "kernel %s: ", sides[j]->name);
		fmt_put(fp, info_of(sides[j], rel, 0), SIZE_MAX);
		fputc(' ', fp);
		fmt_put(fp, info_of(sides[j], ver, 0), SIZE_MAX);
		fputc('\n', fp);
	}
	print_warnings(fp, &v, details);
	for (i = 0; i < v.nrows; i++) {
		if (!shown(&v.rows[i], all))
			continue;
		if (last == NULL || strcmp(last, v.rows[i].series) != 0) {
			fputc('\n', fp);
			print_head(fp, v.rows[i].series);
			last = v.rows[i].series;
		}
		print_row(fp, &v.rows[i]);
	}
	if (last != NULL)
		cmp_legend(fp, WIDTH, cmp_paired(a, b));
	print_reasons(fp, v.rows, v.nrows, all);
	print_need(fp, v.rows, v.nrows, all);
	cmp_order_print(fp, a, b);
	cmp_counts_print(fp, a, b);
	cmp_work_print(fp, a, b);
	cmp_shares_print(fp, a, b, all);
	if (gate != NULL && t != NULL)
		tally_add(t, b->name, v.rows, v.nrows, a, b, gate);
	view_free(&v);
	return 0;
}

int
cmp_report(FILE *fp, FILE *gatefp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate)
{
	struct tally t;

	memset(&t, 0, sizeof(t));
	t.nsides = 1;
	if (write_text(fp, a, b, gate, 0, 1, &t) == -1)
		return -1;
	if (gate == NULL)
		return CMP_GATE_MET;
	fflush(fp);
	return gate_line(gatefp, &t);
}

/* One row of the JSON report: the table's, as data. */
static void
put_row(FILE *fp, const struct cmp_row *rw)
{
	char label[64];
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
	jw_key(fp, &first, " ", "a_spread_pct");
	jw_double(fp, expm1(rw->spread_a) * 100);
	jw_key(fp, &first, " ", "b_spread_pct");
	jw_double(fp, expm1(rw->spread_b) * 100);
	cmp_row_json(fp, &first, rw, verdict_word(rw));
	jw_key(fp, &first, " ", "reason");
	jw_str_or_null(fp, rw->verdict == CMP_CANNOT ? rw->reason :
	    NULL);
	jw_key(fp, &first, " ", "limit_pct");
	jw_int_or_null(fp, rw->limit >= 0, rw->limit);
	jw_key(fp, &first, " ", "gate");
	jw_str_or_null(fp, rw->limit < 0 ? NULL : gate_words[rw->gate]);
	fputc('}', fp);
}

/* The JSON list of the rows that decide the answer (the table's). */
static void
put_deciders(FILE *fp, const struct view *v)
{
	const char *word = answer(v, 0);
	char label[64];
	size_t i, n = 0;

	fputc('[', fp);
	for (i = 0; i < v->nrows; i++)
		if (shown(&v->rows[i], 0) &&
		    strcmp(verdict_word(&v->rows[i]), word) == 0) {
			row_label(label, sizeof(label), &v->rows[i], ".");
			fputs(n++ > 0 ? ", " : "", fp);
			jw_string(fp, label);
		}
	fputc(']', fp);
}

/* The JSON list of the gate's limits on series a or b lacks. */
static void
put_missing(FILE *fp, const struct cmp_side *a, const struct cmp_side *b,
    const struct cmp_gate *gate)
{
	char label[64];
	size_t j, n = 0;

	fputc('[', fp);
	for (j = 0; gate != NULL && j < gate->n; j++)
		if (full_series(a, gate->item[j].series) == NULL ||
		    full_series(b, gate->item[j].series) == NULL) {
			snprintf(label, sizeof(label), "%s.%s",
			    gate->item[j].series,
			    stats_kind_name(gate->item[j].stat));
			fputs(n++ > 0 ? ", " : "", fp);
			jw_string(fp, label);
		}
	fputc(']', fp);
}

/*
 * One comparison, a against b, as a JSON object: every row, whatever
 * --all; the gate's findings into t.  Returns 0, or -1 on ENOMEM.
 */
static int
write_json(FILE *fp, struct cmp_side *a, struct cmp_side *b,
    const struct cmp_gate *gate, struct tally *t)
{
	struct view v;
	size_t before = t->n[CMP_GATE_EXCEEDED], i;
	int first = 1;

	if (view_make(&v, a, b, gate, 1) == -1)
		return -1;
	if (gate != NULL)
		tally_add(t, b->name, v.rows, v.nrows, a, b, gate);
	fputc('{', fp);
	jw_key(fp, &first, "", "a");
	jw_string(fp, a->name);
	jw_key(fp, &first, " ", "b");
	jw_string(fp, b->name);
	jw_key(fp, &first, " ", "verdict");
	jw_string(fp, answer(&v, 0));
	jw_key(fp, &first, " ", "verdict_rows");
	put_deciders(fp, &v);
	jw_key(fp, &first, " ", "test");
	jw_string(fp, cmp_paired(a, b) ? "paired" : "unpaired");
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
	jw_key(fp, &first, "\n    ", "order");
	cmp_order_json(fp, a, b);
	jw_key(fp, &first, "\n    ", "counts");
	cmp_counts_json(fp, a, b);
	jw_key(fp, &first, "\n    ", "workload");
	cmp_work_json(fp, a, b);
	jw_key(fp, &first, "\n    ", "gate_not_applied");
	put_missing(fp, a, b, gate);
	jw_key(fp, &first, "\n    ", "gate_failed");
	fputs(t->n[CMP_GATE_EXCEEDED] > before ? "true" : "false", fp);
	fputc('}', fp);
	view_free(&v);
	return 0;
}

/*
 * The JSON report's opening, up to its list of comparisons: the sides,
 * their files, runs and samples.  *first is write_all's, for the members
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
	fputs("3", fp);
	jw_key(fp, first, "\n  ", "level");
	jw_double(fp, cmp_level);
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

/* Where the reports go: the table (NULL: none) and the JSON (NULL: none). */
struct outs {
	FILE		*text;
	FILE		*json;
	int		 all;
	int		 details;	/* every warning */
};

/*
 * Every later side against the first, as tables, as one JSON object, or
 * both; then the gate's line on stderr.  Returns CMP_GATE_* (MET without
 * a gate), or -1 on ENOMEM (the JSON then left unfinished).
 */
static int
write_all(const struct outs *o, struct cmp_side *sides, int nsides,
    const struct cmp_gate *gate)
{
	struct tally t;
	int first = 1, i, r = 0, state;

	memset(&t, 0, sizeof(t));
	t.nsides = nsides - 1;
	t.multi = nsides > 2;
	if (o->json != NULL)
		json_head(o->json, sides, nsides, &first);
	for (i = 1; i < nsides && r != -1; i++) {
		if (o->text != NULL) {
			if (i > 1)
				fputs("\n\n", o->text);
			r = write_text(o->text, &sides[0], &sides[i], gate,
			    o->all, o->details, o->json == NULL ? &t : NULL);
		}
		if (r != -1 && o->json != NULL) {
			fputs(i > 1 ? ",\n    " : "\n    ", o->json);
			r = write_json(o->json, &sides[0], &sides[i], gate,
			    &t);
		}
	}
	if (r == -1)
		return -1;
	state = CMP_GATE_MET;
	if (gate != NULL) {
		fflush(stdout);
		state = gate_line(stderr, &t);
	}
	if (o->json != NULL) {
		fputs("\n  ]", o->json);
		jw_key(o->json, &first, "\n  ", "gate");
		jw_str_or_null(o->json, gate != NULL ? gate_words[state] :
		    NULL);
		jw_key(o->json, &first, "\n  ", "gate_failed");
		fputs(state == CMP_GATE_EXCEEDED ? "true\n}\n" : "false\n}\n",
		    o->json);
	}
	return state;
}

#define COMPARE_SYNOPSIS \
	"usage: latt compare [-h] [--all] [--confidence=PCT] [--details]\n" \
	"                    [--drop-noisy] [--json[=FILE]]\n" \
	"                    [--fail-if-worse=SPEC [--bisect] " \
	"[--ktap[=FILE]]]\n" \
	"                    A.json[,A2.json...] B.json[,B2.json...] " \
	"[C.json ...]\n       latt compare --by-knob [options] FILE.json\n"

/* latt compare --help, after its usage lines. */
static const char compare_help[] =
"\n"
"Compares latt results (written by --json): each argument is one side, the\n"
"runs of its files (--repeat=N writes N runs into one file; the files of\n"
"one side join with commas).  Every side after the first is compared with\n"
"the first.  Two files without commas are two sides; more are sides only\n"
"when each holds several runs.  A run counts once in a side: a file, or a\n"
"run (its host and start time), given twice is a usage error, and so is a\n"
"file on two sides.\n"
"\n"
"The run is the unit of evidence: for mean, p50, p90, p95, p99, p99.9 and\n"
"max it prints the geometric mean of the runs' values on each side with\n"
"their spread, the change, a 97.5% interval of the change (on the logarithms:\n"
"paired, over neighbouring runs' differences, when the runs alternate A B\n"
"A B as a knob's sweep does; else Welch's t over the runs) and a verdict:\n"
"worse or better (the interval excludes 0), noise (it holds 0 within +-10%,\n"
"or the limit asked), else cannot tell (why below the table, with the runs\n"
"a side that would tell).  One rule judges every table's rows.  A verdict\n"
"needs 3 runs a side.  The kernel's counts (switches, interrupts,\n"
"the clients' switches a wake-up, runnable) follow: higher, lower or noise;\n"
"then the workload's wall and CPU time and its loads' rates, and each frame\n"
"class's share of deadlines missed.  The answer comes first, after the\n"
"sides: 'verdict: worse (p50, p99)', from the table's rows (worse, else\n"
"better, else cannot tell, else noise).  Options may stand anywhere.\n"
"\n"
"      --all             also the rows of the timer, runqueue and wake_path\n"
"                        series and of each placement kind both sides\n"
"                        have (placement.same_cpu...), and the kinds'\n"
"                        shares of the samples (the latency rows only by\n"
"                        default)\n"
"      --bisect          statuses for git bisect run: 0 every limit met, 1\n"
"                        one exceeded, 125 cannot tell, 255 usage or failure\n"
"      --by-knob         one file of --sweep=FILE=V1,V2...: a side a value\n"
"      --confidence=PCT  the intervals' confidence, 80 to 99.9 (default\n"
"                        97.5; 99 calls fewer false alarms and needs more\n"
"                        runs)\n"
"      --details         every warning in full (each noisy run, each\n"
"                        setting); without it they fill at most 3 lines\n"
"      --drop-noisy      leave out the runs latt marked noisy (other\n"
"                        processes' CPU use); without it they are counted\n"
"                        in one warning; a side left no run cannot tell\n"
"                        (exit 5)\n"
"      --fail-if-worse=SPEC\n"
"                        a gate: SPEC is STAT=N%[,STAT=N%...], STAT one of\n"
"                        min, mean, stdev, p50, p90, p95, p99, p99.9,\n"
"                        p99.99, max, or SERIES.STAT for the series timer,\n"
"                        runqueue and wake_path or a class of clients.  A\n"
"                        limit is exceeded when the row's interval lies\n"
"                        wholly above N% (exit 3), met when wholly at or\n"
"                        below it, and cannot tell (exit 5) when the\n"
"                        interval holds N% or the row has no verdict.  One\n"
"                        line on stderr starts with 'gate:' and says which\n"
"      --json[=FILE]     the rows, intervals and verdicts as JSON: to\n"
"                        stdout in place of the table, or into FILE\n"
"                        (attached) beside the table\n"
"      --ktap[=FILE]     the gate as KTAP version 1 for kernel CI, a test a\n"
"                        limit: to stdout (the table to stderr), or into\n"
"                        FILE (attached)\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 compared (and every limit met), 1 a report could not be\n"
"written, 2 usage or an unreadable file, 3 a limit exceeded, 5 a limit\n"
"that cannot be told (3 outranks 5).\n"
"\n"
"Example: latt --repeat=5 --json=old.json ...; (new kernel) latt --repeat=5\n"
"         --json=new.json ...; latt compare old.json new.json\n";

static void
compare_usage(void)
{
	fputs(COMPARE_SYNOPSIS, stdout);
	fputs(compare_help, stdout);
	exit(EXIT_OK);
}

/* The usage error of an option getopt refused (argv[optind - 1]). */
static void
bad_option(int ch, char *argv[])
{
	const char *arg = argv[optind - 1], *near;
	const struct option *o;
	size_t len;

	if (ch == ':')
		usage_error("compare: option %s needs a value (%s=...)", arg,
		    arg);
	if (strncmp(arg, "--", 2) == 0) {
		len = strcspn(arg + 2, "=");
		for (o = compare_longopts; o->name != NULL; o++)
			if (strncmp(o->name, arg + 2, len) == 0 &&
			    arg[2 + len] == '=' && o->has_arg == no_argument)
				usage_error("compare: option --%s takes no "
				    "value: %s", o->name, arg);
		if ((near = option_nearest(arg, compare_longopts)) != NULL)
			usage_error("compare: unknown option: %s (did you mean "
			    "--%s?)", arg, near);
		usage_error("compare: unknown option: %s (try 'latt compare "
		    "--help')", arg);
	}
	usage_error("compare: unknown option: -%c (try 'latt compare "
	    "--help')", optopt);
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
	char form[512], some[32], msg[768];
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
	/* The comma form is a command to paste: whole, not cut as a value. */
	snprintf(msg, sizeof(msg), "compare: %d files without commas would be "
	    "%d sides, %s; join the files of a side with commas: latt compare "
	    "%s", nsides, nsides, some, form);
	usage_error("%s", msg);
}

/* Usage errors: options that clash, an empty --json= or --ktap=. */
static void
check_options(int have_gate, int bisect, const char *ktap, const char *json,
    int json_out)
{
	if ((ktap != NULL && *ktap == '\0') || (json != NULL && *json == '\0'))
		usage_error("compare: --%s= needs a file name", json != NULL &&
		    *json == '\0' ? "json" : "ktap");
	if (bisect && !have_gate)
		usage_error("compare: --bisect needs --fail-if-worse=SPEC, the "
		    "gate whose status it maps");
	if (ktap != NULL && !have_gate)
		usage_error("compare: --ktap needs --fail-if-worse=SPEC, the "
		    "gate it reports");
	if (ktap != NULL && strcmp(ktap, "-") == 0 && json_out)
		usage_error("compare: --json and --ktap both to stdout: give "
		    "one a file (--ktap=FILE)");
}

static void
free_sides(struct cmp_side *sides, int nsides)
{
	int i;

	for (i = 0; i < nsides; i++)
		cmp_side_free(&sides[i]);
	free(sides);
}

/* Loads the sides, each checked against those before it. */
static void
load_sides(struct cmp_side *sides, int nsides, char *argv[], int drop)
{
	char name[4], err[512];
	int i, j;

	for (i = 0; i < nsides; i++) {
		snprintf(name, sizeof(name), "%c", 'A' + i);
		cmp_side_init(&sides[i], name);
		sides[i].drop_noisy = drop;
		cmp_side_load(&sides[i], argv[i]);
		for (j = 0; j < i; j++)
			if (cmp_side_overlap(&sides[j], &sides[i], err,
			    sizeof(err)) == -1)
				usage_error("%s", err);
	}
	check_commas(sides, nsides, argv);
}

/*
 * A side --drop-noisy left without a run: its one line (on stdout with the
 * table, else on stderr) and EXIT_CANNOT_TELL; -1 when there is none.
 */
static int
emptied(const struct cmp_side *sides, int nsides, int json_out)
{
	int i;

	for (i = 0; i < nsides; i++)
		if (sides[i].nruns == 0) {
			fprintf(json_out ? stderr : stdout, "verdict: cannot "
			    "tell: --drop-noisy left %s no run (%zu noisy)\n",
			    sides[i].name, sides[i].nnoisy);
			return EXIT_CANNOT_TELL;
		}
	return -1;
}

/*
 * --json=FILE and --ktap=FILE (opt): written into a temporary file
 * (tmp_open) and renamed over FILE once whole, an old FILE as it was until
 * then.  Returns the stream, or NULL after saying why.
 */
static FILE *
json_open(const char *opt, const char *path, char **tmp, int *anon)
{
	FILE *fp = NULL;
	int fd;

	if ((fd = tmp_open(path, tmp, anon)) == -1 ||
	    (fp = fdopen(fd, "w")) == NULL) {
		lwarn("--%s=%s", opt, path);
		if (fd >= 0 && !*anon)
			unlink(*tmp);
		if (fd >= 0)
			close(fd);
		free(*tmp);
		*tmp = NULL;
	}
	return fp;
}

/* Finishes json_open's file: EXIT_OK, or EXIT_RUNTIME after saying why. */
static int
json_close(FILE *fp, const char *opt, const char *path, char *tmp, int anon,
    int ok)
{
	int r = EXIT_OK;

	if (ok && tmp_commit(fp, tmp, anon, path) == -1) {
		lwarn("--%s=%s", opt, path);
		r = EXIT_RUNTIME;
	} else if (!ok) {
		fclose(fp);
		unlink(tmp);	/* named, or no such file */
	}
	free(tmp);
	return r;
}

int
compare_main(int argc, char *argv[])
{
	struct cmp_side *sides;
	struct cmp_gate gate;
	struct outs o = { stdout, NULL, 0, 0 };
	const char *json_path = NULL, *ktap = NULL;
	char *tmp = NULL, *ktmp = NULL;
	int ch, nsides, r, st, have_gate = 0, json = 0, by_knob = 0;
	int drop = 0, anon = 0, bisect = 0, kanon = 0;

	memset(&gate, 0, sizeof(gate));
	opterr = 0;
	/* --bisect first: its statuses hold for every error after it. */
	for (optind = 0; (ch = getopt_long(argc, argv, ":h",
	    compare_longopts, NULL)) != -1;)
		if (ch == 'B')
			exit_bisect();
	optind = 0;
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
			json_path = optarg != NULL && strcmp(optarg, "-") ?
			    optarg : NULL;
			break;
		case 'a':
			o.all = 1;
			break;
		case 'k':
			by_knob = 1;
			break;
		case 'N':
			drop = 1;
			break;
		case 'B':
			bisect = 1;
			break;
		case 'D':
			o.details = 1;
			break;
		case 'K':
			ktap = optarg != NULL ? optarg : "-";
			break;
		case 'C':
			cmp_level = parse_level(optarg);
			break;
		case 'h':
			compare_usage();
		default:
			bad_option(ch, argv);
		}
	}
	check_options(have_gate, bisect, ktap, json_path,
	    json && json_path == NULL);
	nsides = argc - optind;
	if (by_knob)	/* FILE@V1 FILE@V2 ...: cmpwork.c */
		nsides = cmp_knob_sides(nsides, argv + optind, &argv, &optind);
	if (nsides < 2)
		usage_error("compare needs two sides or more (for example: "
		    "latt compare a.json b.json)");
	if (nsides > MAX_SIDES)
		usage_error("compare takes at most %d sides", MAX_SIDES);
	if ((sides = calloc((size_t)nsides, sizeof(*sides))) == NULL)
		usage_error("compare: %s", strerror(errno));
	load_sides(sides, nsides, argv + optind, drop);
	if (by_knob)
		cmp_knob_free(argv, nsides);
	if ((r = emptied(sides, nsides, json && json_path == NULL)) != -1) {
		free_sides(sides, nsides);
		return r;
	}
	if (json && json_path == NULL) {
		o.json = stdout;
		o.text = NULL;
	}
	/* --ktap: to stdout, the table then to stderr, or into its file. */
	if (ktap != NULL && strcmp(ktap, "-") == 0) {
		gate.ktap = stdout;
		o.text = stderr;
	}
	if ((json && json_path != NULL && (o.json = json_open("json",
	    json_path, &tmp, &anon)) == NULL) || (ktap != NULL &&
	    gate.ktap == NULL && (gate.ktap = json_open("ktap", ktap, &ktmp,
	    &kanon)) == NULL)) {
		if (tmp != NULL)
			json_close(o.json, "json", json_path, tmp, anon, 0);
		free_sides(sides, nsides);
		return EXIT_RUNTIME;
	}
	if (ktap != NULL)
		fprintf(gate.ktap, "KTAP version 1\n1..%zu\n", gate.n *
		    (size_t)(nsides - 1));
	r = write_all(&o, sides, nsides, have_gate ? &gate : NULL);
	free_sides(sides, nsides);
	st = EXIT_OK;
	if (r == -1) {
		lwarnc(ENOMEM, "compare");
		st = EXIT_RUNTIME;
	}
	if (tmp != NULL && json_close(o.json, "json", json_path, tmp, anon,
	    r >= 0) != EXIT_OK)
		st = EXIT_RUNTIME;
	if (ktmp != NULL && json_close(gate.ktap, "ktap", ktap, ktmp, kanon,
	    r >= 0) != EXIT_OK)
		st = EXIT_RUNTIME;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		lwarn("stdout");
		st = EXIT_RUNTIME;
	}
	if (st != EXIT_OK)
		return st;
	return r == CMP_GATE_EXCEEDED ? EXIT_THRESHOLD :
	    r == CMP_GATE_CANNOT ? EXIT_CANNOT_TELL : EXIT_OK;
}
