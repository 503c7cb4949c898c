/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text reports: the summary (the 2009 block, byte for byte in its old
 * shape, a headline, the details table and the facts of its tables: too
 * few samples, where the worst were; the run's other facts are facts.c's),
 * the line of each run of --repeat, the per-client table, the text
 * histogram, the autopsy, the progress line, and why a run failed.
 * Reports read finished results (the progress line, the results so far);
 * they never measure.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "explain/autopsy.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "report/facts.h"
#include "report/frames.h"
#include "report/report.h"
#include "report/where.h"
#include "result.h"

static double
usec(double ns)
{
	return ns / NSEC_PER_USEC;
}

/* A figure of a run_brief, ns: NAN for none (-1). */
static double
known(int64_t ns)
{
	return ns >= 0 ? (double)ns : NAN;
}

void
report_brief(struct run_brief *b, const struct result *res)
{
	static const double q[] = { 0.5, 0.99 };
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	int64_t p[2], tp[2];

	memset(b, 0, sizeof(*b));
	stats_percentiles(st, q, p, 2);
	stats_percentiles(tm, q, tp, 2);
	b->n = st->n;
	b->p50 = st->n >= stats_need_q(q[0]) ? p[0] : -1;
	b->p99 = st->n >= stats_need_q(q[1]) ? p[1] : -1;
	b->worst = st->n > 0 ? st->max : -1;
	/* A wake-up still unanswered was at least this late: censored. */
	b->lower = res->npending > 0 && res->pending_age > b->worst ?
	    res->pending_age : -1;
	b->tworst = tm->n > 0 ? tm->max : -1;
	b->tp99 = tm->n >= stats_need_q(q[1]) ? tp[1] : -1;
	b->stop = res->stop;
	b->stop_signal = res->stop_signal;
	b->wl_stopsig = res->wl_stopsig;
	b->knob_moved = res->knob_moved;
}

/*
 * The headline's text: samples, p50, p99, the worst (">=" a lower bound)
 * and, with timer, the timer's p99.  Under 80 columns for every count
 * under 10^8 and every time under 1000 s.
 */
static void
headline(char *buf, size_t len, const struct run_brief *b, int timer)
{
	char a[32], c[32], d[32], e[32];

	snprintf(buf, len, "%llu sample%s  p50 %s  p99 %s  worst %s%s",
	    (unsigned long long)b->n, b->n == 1 ? "" : "s",
	    fmt_time(a, sizeof(a), known(b->p50), 3, "us"),
	    fmt_time(c, sizeof(c), known(b->p99), 3, "us"),
	    b->lower >= 0 ? ">=" : "", fmt_time(d, sizeof(d),
	    known(b->lower >= 0 ? b->lower : b->worst), 3, "us"));
	if (timer)
		snprintf(buf + strlen(buf), len - strlen(buf), "  timer p99 %s",
		    fmt_time(e, sizeof(e), known(b->tp99), 3, "us"));
}

void
report_run_line(FILE *fp, const struct run_brief *b, unsigned i, unsigned n)
{
	char text[160];

	headline(text, sizeof(text), b, 0);
	fprintf(fp, "run %u of %u: %s%s%s\n", i + 1, n, text,
	    *b->knob_moved != '\0' ? "; knob changed to " : "", b->knob_moved);
	fflush(fp);
}

/* The columns of the details table after samples. */
static const char *const tcols[] = { "min", "p50", "p90", "p99", "p99.9",
    "worst", "mean", "sd" };
static const enum stat_kind tkind[] = { STAT_MIN, STAT_P50, STAT_P90,
    STAT_P99, STAT_P999, STAT_MAX, STAT_MEAN, STAT_STDEV };
#define NTCOL	(sizeof(tcols) / sizeof(tcols[0]))
#define TCELL	6	/* a cell's width, after one space */
#define TLABEL	9	/* the label column's least width: "wake path" */
#define NOTES_MAX	5	/* the summary's notes without --details */

/* A row of the details table: its label and its series. */
struct trow {
	const char		*label;
	const struct stats	*st;
};

/*
 * The rows: latency, timer, work, runqueue, wake path, then each class's
 * latency, but that of a class of all the nround clients of the rounds
 * (the latency's).  Returns how many (at most SER_N + cfg->nclasses).
 */
static unsigned
table_rows(struct trow *r, const struct config *cfg, const struct result *res,
    unsigned nround)
{
	static const char *const label[SER_N] = {
		[SER_LATENCY] = "latency", [SER_TIMER] = "timer",
		[SER_WORK] = "work", [SER_RUNQUEUE] = "runqueue",
		[SER_WAKE_PATH] = "wake path", [SER_BUSY] = "busy",
	};
	unsigned i, n = 0;

	for (i = 0; i < SER_N; i++) {
		if (!res->ser[i].on || series_info[i].place)
			continue;	/* the placement's: where.c */
		r[n].label = label[i];
		r[n++].st = &res->ser[i].st;
	}
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++) {
		if (cfg->classes[i].frame > 0 || cfg->classes[i].n == nround)
			continue;	/* frames.c's, or the latency row */
		r[n].label = cfg->classes[i].name;
		r[n++].st = &res->classes[i].ser[SER_LATENCY].st;
	}
	return n;
}

/* One row: the label (cut to w with "~"), the samples, the cells. */
static void
table_row(FILE *fp, const struct trow *r, int w, int sw)
{
	char c[32];
	size_t i;

	if ((int)strlen(r->label) > w)
		fprintf(fp, "%.*s~", w - 1, r->label);
	else
		fprintf(fp, "%-*s", w, r->label);
	fprintf(fp, " %*llu", sw, (unsigned long long)r->st->n);
	for (i = 0; i < NTCOL; i++)
		fprintf(fp, " %*s", TCELL, fmt_us(c, sizeof(c),
		    stats_shown(r->st, tkind[i])));
	fputc('\n', fp);
}

/*
 * The details: one row a series, one column a statistic, in microseconds,
 * within 80 columns: the label column is as wide as the longest label
 * (at least TLABEL), narrowed, and the labels cut, when a long class name
 * or a huge count would push a row past 80.  A cell is "-" where the
 * samples cannot give it: none, one for sd, and fewer than STATS_BEYOND
 * beyond a percentile.  Returns in *dash which percentiles were "-" in
 * a row that has samples (bit i for tcols[i]).
 */
static void
print_table(FILE *fp, const struct config *cfg, const struct result *res,
    unsigned nround, unsigned *dash)
{
	struct trow r[SER_N + CLASS_MAX];
	char num[24];
	unsigned n, i, k;
	int w = TLABEL, sw = 7;

	n = table_rows(r, cfg, res, nround);
	*dash = 0;
	for (i = 0; i < n; i++) {
		if ((int)strlen(r[i].label) > w)
			w = (int)strlen(r[i].label);
		if ((int)snprintf(num, sizeof(num), "%llu",
		    (unsigned long long)r[i].st->n) > sw)
			sw = (int)strlen(num);
		for (k = 0; k < NTCOL; k++)
			if (stats_kind_q(tkind[k]) > 0 && r[i].st->n > 0 &&
			    r[i].st->n < stats_need(tkind[k]))
				*dash |= 1u << k;
	}
	/* 80 columns: the label, the samples and 8 cells of 1 + TCELL. */
	if (w > 80 - 1 - sw - 8 * (1 + TCELL))
		w = 80 - 1 - sw - 8 * (1 + TCELL);
	fprintf(fp, "%-*s %*s", w, "(us)", sw, "samples");
	for (k = 0; k < NTCOL; k++)
		fprintf(fp, " %*s", TCELL, tcols[k]);
	fputc('\n', fp);
	for (i = 0; i < n; i++)
		table_row(fp, &r[i], w, sw);
}

/*
 * Few samples, in one line: the count, and what each "-" percentile of
 * the table would need: "812; - needs p99 1000, p99.9 10000".
 */
static void
print_few(FILE *fp, uint64_t n, unsigned dash)
{
	char text[96] = "";
	size_t k, len = 0;

	for (k = 0; k < NTCOL; k++)
		if (dash & (1u << k))
			len += (size_t)snprintf(text + len, sizeof(text) - len,
			    ", %s %llu", tcols[k],
			    (unsigned long long)stats_need(tkind[k]));
	if (dash != 0 || n < FEW_SAMPLES)
		facts_row(fp, "few samples", "%llu%s%s", (unsigned long long)n,
		    dash != 0 ? "; - needs" : ": run longer or add -c",
		    text + (dash != 0));
}

/*
 * The notes without --details, after a blank line: the first NOTES_MAX,
 * or one less and how many more --details shows.
 */
static void
print_notes(FILE *fp, const char *buf, size_t len)
{
	const char *p = buf, *e;
	unsigned n = 0, i;

	for (e = buf; e < buf + len; e++)
		n += *e == '\n';
	if (n > 0)
		fputc('\n', fp);
	for (i = 0; i < n && (n <= NOTES_MAX || i < NOTES_MAX - 1); i++) {
		e = strchr(p, '\n') + 1;
		fwrite(p, 1, (size_t)(e - p), fp);
		p = e;
	}
	if (i < n)
		facts_row(fp, "more", "%u notes: --details shows them", n - i);
}

/*
 * --repeat: one line a run, the headline's figures in the table's cells,
 * and what ended it.
 */
static void
print_runs(FILE *fp, const struct run_brief *runs, unsigned nruns)
{
	const struct run_brief *b;
	char a[32], c[32], d[32], e[32], num[16];
	unsigned i;

	fprintf(fp, "\n%-*s %8s %*s %*s %8s  %9s  %s\n", TLABEL, "run (us)",
	    "samples", TCELL, "p50", TCELL, "p99", "worst", "timer p99",
	    "ended by");
	for (i = 0; i < nruns; i++) {
		b = &runs[i];
		snprintf(num, sizeof(num), "%u", i + 1);
		snprintf(d, sizeof(d), "%s", b->lower >= 0 ? ">=" : "");
		fmt_us(d + strlen(d), sizeof(d) - strlen(d),
		    known(b->lower >= 0 ? b->lower : b->worst));
		fprintf(fp, "%-*s %8llu %*s %*s %8s  %9s  %s%s%s\n", TLABEL, num,
		    (unsigned long long)b->n, TCELL, fmt_us(a, sizeof(a),
		    known(b->p50)), TCELL, fmt_us(c, sizeof(c), known(b->p99)),
		    d, fmt_us(e, sizeof(e), known(b->tp99)),
		    facts_ended_by(b->stop, b->stop_signal, b->wl_stopsig),
		    *b->knob_moved != '\0' ? "; knob changed to " : "",
		    b->knob_moved);
	}
}

/* The 2009 block's figure: whole microseconds, or "-" where none can be. */
static void
print_2009(FILE *fp, const char *label, int ok, double ns)
{
	if (ok)
		fprintf(fp, "\t%s\t %8.0f usec\n", label, usec(ns));
	else
		fprintf(fp, "\t%s\t %8s usec\n", label, "-");
}

/* A client's class name, or "client" without classes. */
#define CLIENT_LABEL(cfg, idx) ((cfg)->nclasses > 0 ? \
	(cfg)->classes[(cfg)->class_of[(idx)]].name : "client")

/*
 * The real-time order check (order.h): rounds checked, inversions and
 * their share of the rounds, the release's spread, and with --details the
 * worst few inversions, two lines each: who waited, and who ran meanwhile.
 */
static void
print_order(FILE *fp, const struct config *cfg, const struct order *o)
{
	const struct inversion *v;
	char a[32], b[32], c[32];
	unsigned i;

	fmt_time(a, sizeof(a), (double)o->slack, 0, "us");
	if (o->rounds == 0)
		fprintf(fp, "\norder: no round with two priorities to compare "
		    "(%llu of one); slack %s\n", (unsigned long long)o->single,
		    a);
	else
		fprintf(fp, "\norder: %llu rounds checked, %llu inversion%s in "
		    "%llu rounds (%.1f%%); slack %s\n", (unsigned long long)
		    o->rounds, (unsigned long long)o->inversions,
		    o->inversions == 1 ? "" : "s", (unsigned long long)
		    o->bad_rounds, 100.0 * (double)o->bad_rounds /
		    (double)o->rounds, a);
	if (o->spread.n > 0)
		fprintf(fp, "  release spread: p50 %s, p99 %s, worst %s (first "
		    "write to last)\n", fmt_time(a, sizeof(a),
		    stats_value(&o->spread, STAT_P50), 4, "us"),
		    fmt_time(b, sizeof(b), stats_shown(&o->spread,
		    STAT_P99), 4, "us"), fmt_time(c, sizeof(c),
		    (double)o->spread.max, 4, "us"));
	for (i = 0; cfg->details && i < o->nworst && i < 3; i++) {
		v = &o->worst[i];
		fprintf(fp, "  round %llu at %.3f s: %s (client %u, CPU %d) "
		    "waited %s,\n", (unsigned long long)v->round,
		    (double)v->when / NSEC_PER_SEC, CLIENT_LABEL(cfg,
		    v->waiter), v->waiter, v->waiter_cpu, fmt_time(a,
		    sizeof(a), (double)v->waited, 4, "us"));
		fprintf(fp, "    %s of it after %s (client %u, CPU %d) had "
		    "started\n", fmt_time(b, sizeof(b), (double)v->held, 4,
		    "us"), CLIENT_LABEL(cfg, v->ran), v->ran, v->ran_cpu);
	}
}

/* "run 2", the first of --repeat's whose worst is worst, or "the run". */
static const char *
worst_run(char *buf, size_t len, const struct run_brief *runs,
    unsigned nruns, int64_t worst, int timer)
{
	unsigned k;

	for (k = 0; k < nruns; k++)
		if ((timer ? runs[k].tworst : runs[k].worst) == worst)
			break;
	snprintf(buf, len, k < nruns ? "run %u" : "the run", k + 1);
	return buf;
}

/*
 * The facts of the run after the tables: the notes, what makes its
 * figures doubtful or notable (in a buffer, to keep NOTES_MAX of them);
 * with --details, every fact: where the worst ones were, how it ran and
 * ended, on what, and how to repeat it.
 */
static void
print_facts(FILE *fp, const struct config *cfg, const struct result *res,
    const struct run_brief *runs, unsigned nruns, unsigned dash)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	FILE *all = cfg->details ? fp : NULL, *notes = fp;
	char in[16], *buf = NULL;
	size_t len = 0;

	/* Without memory for the buffer, every note. */
	if (all == NULL && (notes = open_memstream(&buf, &len)) == NULL)
		notes = fp;
	if (notes == fp)
		fputc('\n', fp);
	print_few(notes, st->n, dash);
	if (st->n > 0)
		facts_row(all, "worst at", "client %u, %.6f s into %s",
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC,
		    worst_run(in, sizeof(in), runs, nruns, st->max, 0));
	if (tm->n > 0)
		facts_row(all, "timer worst at", "%.6f s into %s",
		    (double)tm->max_when / NSEC_PER_SEC,
		    worst_run(in, sizeof(in), runs, nruns, tm->max, 1));
	facts_print(notes, all, cfg, res, nruns);
	if (notes != fp) {
		fclose(notes);
		print_notes(fp, buf, len);
	}
	free(buf);
}

void
report_text(FILE *fp, const struct config *cfg, const struct result *res,
    const struct run_brief *runs, unsigned nruns)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	struct run_brief b;
	unsigned dash, i, n;
	char text[160];

	/* The clients of the rounds: a frame class's wake on their own. */
	for (i = 0, n = cfg->nclients; i < cfg->nclasses; i++)
		n -= cfg->classes[i].frame > 0 ? cfg->classes[i].n : 0;
	fprintf(fp, "Entries: %llu (clients=%u)\n",
	    (unsigned long long)st->n, n);
	fprintf(fp, "\nAverages:\n");
	fprintf(fp, "------------------------------\n");
	print_2009(fp, "Max", st->n > 0, (double)st->max);
	print_2009(fp, "Avg", st->n > 0, stats_mean(st));
	print_2009(fp, "Stdev", st->n > 1, stats_stdev(st));

	report_brief(&b, res);
	headline(text, sizeof(text), &b, 1);
	fprintf(fp, "\n%s\n\n", text);
	print_table(fp, cfg, res, n, &dash);
	if (nruns > 1)
		print_runs(fp, runs, nruns);
	if (res->order != NULL)
		print_order(fp, cfg, res->order);
	frames_print(fp, cfg, res);
	if (cfg->details)
		where_print(fp, res);
	print_facts(fp, cfg, res, runs, nruns, dash);
}

int
report_verbose(FILE *fp, const struct sample *s)
{
	fprintf(fp, "log delay %12.3f usec (client %u, pid %d, cpu %d, "
	    "round %llu", usec(s->latency), s->client, (int)s->pid, s->cpu,
	    (unsigned long long)s->round);
	if (s->work_ns > 0)
		fprintf(fp, ", work %.3f usec", usec(s->work_ns));
	return fputs(")\n", fp) == EOF || ferror(fp) ? -1 : 0;
}

void
report_per_client(FILE *fp, const struct config *cfg,
    const struct result *res)
{
	const struct client_stats *cs;
	double p99;
	unsigned i;

	if (res->clients == NULL)
		return;
	fprintf(fp, "\nPer client (us; p99 within 6.25%%, - under %llu "
	    "samples):\n", (unsigned long long)stats_need(STAT_P99));
	fprintf(fp, "\t%6s %10s %12s %12s %12s %10s\n", "client", "samples",
	    "mean", "max", "p99", "migrations");
	for (i = 0; i < cfg->nclients; i++) {
		cs = &res->clients[i];
		p99 = stats_shown(&cs->lat, STAT_P99);
		fprintf(fp, "\t%6u %10llu %12.3f %12.3f ", i,
		    (unsigned long long)cs->lat.n, usec(stats_mean(&cs->lat)),
		    usec(cs->lat.max));
		if (isnan(p99))
			fprintf(fp, "%12s", "-");
		else
			fprintf(fp, "%12.3f", usec(p99));
		fprintf(fp, " %10llu\n", (unsigned long long)cs->migrations);
	}
}

/* The power-of-two group of a value: 0 for 0 and 1, else floor(log2 v). */
static unsigned
group_of(int64_t v)
{
	if (v < 2)
		return 0;
	return 63 - (unsigned)__builtin_clzll((uint64_t)v);
}

void
report_histogram(FILE *fp, const struct result *res, int width)
{
	const struct hist *h = &res->ser[SER_LATENCY].st.hist;
	uint64_t groups[HIST_MAX_BITS], cum = 0, top = 0, c;
	unsigned g, lo = HIST_MAX_BITS, hi = 0;
	int barw, len, k;
	char to[32];
	size_t i;

	memset(groups, 0, sizeof(groups));
	for (i = 0; i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		g = group_of(hist_lower(h, i));
		groups[g] += h->counts[i];
		if (g < lo)
			lo = g;
		if (g > hi)
			hi = g;
	}
	fprintf(fp, "\nHistogram (us, one line per power of two):\n");
	fprintf(fp, "  %10s   %10s    %10s %8s\n", "from", "to", "count",
	    "cum%");
	if (h->total == 0) {
		fprintf(fp, "  (no samples)\n");
		return;
	}
	for (g = lo; g <= hi; g++)
		if (groups[g] > top)
			top = groups[g];
	if (h->overflow > top)
		top = h->overflow;
	barw = width - 52;
	if (barw < 10)
		barw = 10;
	/* Rows lo..hi are the groups; row HIST_MAX_BITS is the overflow. */
	for (g = lo; g <= HIST_MAX_BITS; g++) {
		c = g < HIST_MAX_BITS ? groups[g] : h->overflow;
		if (g > hi && c == 0)
			continue;
		if (g < HIST_MAX_BITS)
			snprintf(to, sizeof(to), "%.3f", usec(g == 0 ? 1.0 :
			    (double)(((int64_t)1 << (g + 1)) - 1)));
		else
			snprintf(to, sizeof(to), "more");
		cum += c;
		fprintf(fp, "  %10.3f - %10s us %10llu %7.2f%% ", g == 0 ? 0.0 :
		    usec((double)((int64_t)1 << g)), to, (unsigned long long)c,
		    100.0 * (double)cum / (double)h->total);
		len = (int)((double)c * barw / (double)top + 0.5);
		if (len == 0 && c > 0)
			len = 1;
		for (k = 0; k < len; k++)
			fputc('#', fp);
		fputc('\n', fp);
	}
}

void
report_progress(FILE *fp, const struct config *cfg, const struct result *res,
    int64_t now, int width)
{
	const struct stats *lat = &res->ser[SER_LATENCY].st;
	char line[256], a[32], b[32];
	const char *what;
	int n;

	if (cfg->ncmd > 0)
		what = res->wl.reaped ? "workload ended" : "workload running";
	else
		what = res->wl.nload > 0 ? "loads running" : "no load";
	n = snprintf(line, sizeof(line), "%.0f s  %llu samples  p99 %s  "
	    "max %s  %s", (double)(now - res->start - res->suspended) /
	    NSEC_PER_SEC, (unsigned long long)lat->n,
	    fmt_time(a, sizeof(a), stats_shown(lat, STAT_P99), 3, "us"),
	    fmt_time(b, sizeof(b), stats_shown(lat, STAT_MAX), 3, "us"), what);
	if (width < 2)
		width = 2;
	if (n >= width)
		line[width - 1] = '\0';
	fprintf(fp, "\r%s\033[K", line);
	fflush(fp);
}

#define EXPLAIN_COLS	80	/* the autopsy's width */

void
report_explain(FILE *fp, const struct result *res)
{
	const struct autopsy *ap = res->autopsy;
	const struct autopsy_sample *as;
	const struct tl_item *t;
	char lead[48], text[384], d[5][32], when[24], cpu[16];
	unsigned i, j;

	/* A run with no sample has nothing to explain. */
	if (res->nworst == 0 && ap->n == 0)
		return;
	fprintf(fp, "\nAutopsy of the %u worst wake-up%s, times from each "
	    "one's send stamp:\n", res->nworst, res->nworst == 1 ? "" : "s");
	/* A path too long for the line goes on one of its own. */
	fprintf(fp, "  tracefs instance%s%s\n", ap->instance != NULL &&
	    strlen(ap->instance) > EXPLAIN_COLS - 19 ? "\n    " : " ",
	    ap->instance != NULL ? ap->instance : "?");
	fprintf(fp, "  trace_clock mono, %u KiB a CPU; %llu events read, %llu "
	    "lost\n", ap->buf_kb, (unsigned long long)ap->events,
	    (unsigned long long)ap->lost);
	if (ap->mount_lost != NULL)
		fprintf(fp, "\ttracefs was unmounted from %s during the run: "
		    "the instance was still reached through latt's open "
		    "handle on it\n", ap->mount_lost);
	if (ap->error != NULL) {
		fprintf(fp, "\tthe trace could not be read: %s%s%s\n",
		    ap->error, ap->error_errno != 0 ? ": " : "",
		    ap->error_errno != 0 ? strerror(ap->error_errno) : "");
		return;
	}
	if (ap->lost > 0) {
		snprintf(text, sizeof(text), "%llu events were lost to a full "
		    "buffer: the trace is whole only from %s into the run",
		    (unsigned long long)ap->lost, autopsy_dur(ap->covered_from,
		    d[0], sizeof(d[0])));
		fmt_wrap(fp, "  ", 4, EXPLAIN_COLS, text);
	}
	if (ap->n == 0)
		fprintf(fp, "  no samples to explain\n");
	for (i = 0; i < ap->n; i++) {
		as = &ap->s[i];
		if (as->timer)
			snprintf(lead, sizeof(lead), "#%u the timer (pid %d): ",
			    i + 1, (int)as->s.pid);
		else
			snprintf(lead, sizeof(lead), "#%u client %u (pid %d): ",
			    i + 1, as->s.client, (int)as->s.pid);
		snprintf(text, sizeof(text), "%s, round %llu, %s into the "
		    "run%s", autopsy_dur(as->s.latency, d[0], sizeof(d[0])),
		    (unsigned long long)as->s.round, autopsy_dur(as->s.when,
		    d[1], sizeof(d[1])), as->broke ? " (the sample that "
		    "stopped --breaktrace)" : "");
		fputc('\n', fp);
		fmt_wrap(fp, lead, 4, EXPLAIN_COLS, text);
		/* Each line: the time from the send stamp, the CPU, what. */
		for (j = 0; j < as->ntl; j++) {
			t = &as->tl[j];
			snprintf(when, sizeof(when), "%s", t->t < 0 ? "" : "+");
			autopsy_dur(t->t, when + strlen(when), sizeof(when) -
			    strlen(when));
			snprintf(cpu, sizeof(cpu), t->cpu >= 0 ? "cpu%d" : "-",
			    (int)t->cpu);
			snprintf(lead, sizeof(lead), "  %9s  %-5s ", when, cpu);
			fmt_wrap(fp, lead, (int)strlen(lead), EXPLAIN_COLS,
			    t->what);
		}
		if (as->found) {
			snprintf(text, sizeof(text), "write %s, not runnable "
			    "%s, in flight %s, runqueue %s, switch-in to stamp "
			    "%s",
			    autopsy_dur(as->issue, d[0], sizeof(d[0])),
			    autopsy_dur(as->not_runnable, d[1], sizeof(d[1])),
			    autopsy_dur(as->in_flight, d[2], sizeof(d[2])),
			    autopsy_dur(as->rq_wait, d[3], sizeof(d[3])),
			    autopsy_dur(as->running, d[4], sizeof(d[4])));
			fmt_wrap(fp, "  split: ", 9, EXPLAIN_COLS, text);
		}
		if (as->s.rq_wait >= 0) {
			snprintf(text, sizeof(text), "runqueue wait %s (the "
			    "client's own run delay)", autopsy_dur(
			    as->s.rq_wait, d[0], sizeof(d[0])));
			fmt_wrap(fp, "  schedstat: ", 13, EXPLAIN_COLS, text);
		}
		fmt_wrap(fp, "  verdict: ", 11, EXPLAIN_COLS, as->verdict);
	}
}

int
report_failure(const struct config *cfg, const struct result *res)
{
	int st = res->dead_status;

	switch (res->stop) {
	case STOP_CLIENT:
		if (st == -1)
			lwarnx("client %u (pid %d) hung up", res->dead_client,
			    (int)res->dead_pid);
		else if (WIFSIGNALED(st))
			lwarnx("client %u (pid %d) was killed by signal %d "
			    "(%s)", res->dead_client, (int)res->dead_pid,
			    WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			lwarnx("client %u (pid %d) exited with status %d",
			    res->dead_client, (int)res->dead_pid,
			    WEXITSTATUS(st));
		return EXIT_RUNTIME;
	case STOP_SINK:
		if (cfg->log_path != NULL)
			lwarnx("cannot write the log %s: %s (the run ended "
			    "there)", cfg->log_path, strerror(res->fail_errno));
		else
			lwarnx("cannot write -v lines to stderr: %s (the run "
			    "ended there)", strerror(res->fail_errno));
		return EXIT_RUNTIME;
	case STOP_ERROR:
		/* A client could not take its CPU, policy or memory lock. */
		if (res->dead_pid != 0)
			lwarnc(res->fail_errno, "client %u (pid %d): %s",
			    res->dead_client, (int)res->dead_pid,
			    res->fail_what);
		/* A fork, a client's or the workload's: the limit. */
		else if (res->wl.fork_why[0] != '\0' &&
		    res->fail_what == res->wl.fork_what)
			lwarnx("%s: %s (%s)", res->fail_what,
			    strerror(res->fail_errno), res->wl.fork_why);
		else if (res->fail_errno == EMFILE || res->fail_errno == ENFILE)
			lwarnx("%s: %s (raise the open files limit, ulimit -n)",
			    res->fail_what, strerror(res->fail_errno));
		else
			lwarnc(res->fail_errno, "%s", res->fail_what);
		return EXIT_RUNTIME;
	default:
		break;
	}
	if (res->wl_stopsig != 0) {
		lwarnx("the workload was stopped by SIG%s from outside latt, "
		    "%.3f s into the run: the run ended there",
		    sigabbrev_np(res->wl_stopsig) != NULL ?
		    sigabbrev_np(res->wl_stopsig) : "?",
		    (double)res->wl_stop_at / NSEC_PER_SEC);
		return EXIT_WORKLOAD;
	}
	if (result_workload_failed(&res->wl)) {
		if (res->wl.exec_errno)
			lwarnc(res->wl.exec_errno, "cannot run the workload");
		else if (WIFEXITED(res->wl.status))
			lwarnx("the workload exited with status %d",
			    WEXITSTATUS(res->wl.status));
		else
			lwarnx("the workload was killed by signal %d (%s)",
			    WTERMSIG(res->wl.status),
			    strsignal(WTERMSIG(res->wl.status)));
		return EXIT_WORKLOAD;
	}
	return EXIT_OK;
}

void
report_explain_fault(const struct result *res)
{
	const struct autopsy *ap = res->autopsy;

	if (ap == NULL)
		return;
	if (ap->error != NULL)
		lwarnc(ap->error_errno, "explain: no autopsy: %s", ap->error);
	else if (ap->mount_lost != NULL)
		lwarnx("explain: tracefs was unmounted from %s during the run; "
		    "the trace was read, and the instance is removed, through "
		    "latt's open handle on it", ap->mount_lost);
}

void
report_break(const char *trace_dir, const struct brk *b)
{
	char who[32], late[32];

	if (b->timer)
		snprintf(who, sizeof(who), "the timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	fmt_time(late, sizeof(late), (double)b->latency, 0, "us");
	/* The kernel's answer to a marker while its ring buffer is off. */
	if (b->err == EBADF)
		lwarnx("breaktrace: %s woke %s late, %.6f s into the run; "
		    "tracing was off (%s/tracing_on 0): no marker recorded",
		    who, late, (double)b->when / NSEC_PER_SEC, trace_dir);
	else if (b->err != 0)
		lwarnc(b->err, "breaktrace: %s woke %s late, %.6f s into the "
		    "run; writing %s failed", who, late,
		    (double)b->when / NSEC_PER_SEC, trace_dir);
	else
		lwarnx("breaktrace: %s woke %s late, %.6f s into the run; "
		    "tracing stopped, marker in %s/trace", who, late,
		    (double)b->when / NSEC_PER_SEC, trace_dir);
}
