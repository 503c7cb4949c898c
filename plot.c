/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SVG report: draws a finished run as a self-contained SVG (no script,
 * no external reference, plain stdio) that a kernel engineer can put in a
 * mail.  Under a title that says what ran where and when, three panels
 * share one logarithmic latency axis:
 *
 *   - latency by percentile, on a 1/(1-p) axis (HdrHistogram's percentile
 *     distribution), so that the tail is as wide as the body: the wake-up
 *     latency, the timer series and the runqueue wait (the schedstat
 *     split) beside it, and the percentiles the samples support marked
 *     with their values;
 *   - latency over time: every sample up to TIMELINE_POINTS, else the
 *     minimum-to-maximum band of each time slice with its p50 and p99; the
 *     timer series; the workload's span; the stretches when latt was
 *     suspended or stalled (struct result's stalls: no samples could be
 *     taken then);
 *   - the distribution, as bars along the same latency axis.
 *
 * With classes of clients (-c N:ATTR...), the percentile panel has one
 * curve per class in a colour of its own (named in the legend), beside
 * the thinner curve of all clients together.
 *
 * Lines are drawn before labels; labels carry their values, a white
 * outline, and are moved apart so that none overlaps another.  The file
 * stays well under 2 MB however long the run.
 */
#include <sys/types.h>

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "config.h"
#include "jsonread.h"
#include "loads.h"
#include "plot.h"
#include "report.h"
#include "result.h"

#define W		1000	/* the picture */
#define H		850
#define FONT		12	/* px */
#define SMALL		11
#define CHAR_W		0.62	/* a generous width of a character, in em */
/* The percentile panel. */
#define A_L		84
#define A_R		960
#define A_T		124
#define A_B		380
/* The time panel, the gutter for its labels, and the distribution. */
#define B_L		84
#define B_R		700
#define B_T		456
#define B_B		740
#define C_L		800
#define C_R		960
#define BINS_PER_DECADE	10
#define MAXLABELS	16
#define LABEL_GAP	14	/* px between label baselines */
/* A white outline keeps a label readable over lines and bars. */
#define HALO	"stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" " \
		"stroke-linejoin=\"round\""
#define MICRO	"\xc2\xb5s"
#define LAT_COLOR	"#2f6db5"
#define TIMER_COLOR	"#8c8c8c"
#define RQ_COLOR	"#e08214"
#define MARK_COLOR	"#b03a2e"
#define P50_COLOR	"#17365d"
#define P99_COLOR	"#7b3294"

/* The classes' colours (Okabe and Ito's, apart from the ones above). */
static const char *const class_colors[] = { "#e69f00", "#009e73",
    "#cc79a7", "#d55e00", "#56b4e9", "#0072b2", "#b8a400" };
#define NCLASS_COLORS	(sizeof(class_colors) / sizeof(class_colors[0]))

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

/* The logarithmic latency axis of all three panels: decades lo..hi. */
struct lax {
	int	lo;	/* log10 of the lowest value shown, ns */
	int	hi;
};

/* A label to be placed: where it wants to be, and what it says. */
struct label {
	double	 x, y;		/* anchor point */
	double	 want;		/* the y it wants */
	char	 text[64];
	const char *anchor;	/* "start" or "end" */
	const char *color;
};

static void	 put_cut(FILE *, const char *, size_t);
static double	 lfrac(const struct lax *, double);
static double	 ylat(const struct lax *, double, int, int);
static double	 nice_step(double, int);
static int	 supported(uint64_t, double);
static void	 draw_title(FILE *, const struct config *,
		    const struct result *);
static void	 draw_lat_axis(FILE *, const struct lax *, int, int, int, int,
		    int);
static void	 draw_percentiles(FILE *, const struct config *,
		    const struct result *, const struct lax *,
		    const int64_t *);
static void	 draw_timeline(FILE *, const struct result *,
		    const struct lax *, const int64_t *);
static void	 draw_distribution(FILE *, const struct result *,
		    const struct lax *);
static void	 draw_legend(FILE *, const struct config *,
		    const struct result *);
static void	 place_labels(FILE *, struct label *, size_t, double, double,
		    double);
static void	 no_samples(FILE *, int, int, int, int);

int
plot_write(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	struct lax ax;
	int64_t pct[NQUANTILES], lo, hi;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	/* The axis covers both series, in whole decades. */
	lo = INT64_MAX;
	hi = 0;
	if (st->n > 0) {
		lo = st->min;
		hi = st->max;
	}
	if (tm->n > 0) {
		lo = tm->min < lo ? tm->min : lo;
		hi = tm->max > hi ? tm->max : hi;
	}
	if (lo == INT64_MAX) {
		lo = 1000;
		hi = 1000000;
	}
	ax.lo = (int)floor(log10(lo > 10 ? (double)lo : 10) + 1e-9);
	ax.hi = (int)ceil(log10(hi > 10 ? (double)hi : 10) - 1e-9);
	if (ax.hi <= ax.lo)
		ax.hi = ax.lo + 1;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
	    "font-size=\"%d\">\n", W, H, W, H, FONT);
	fputs("<title>latt: wake-up latency</title>\n", fp);
	fprintf(fp, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
	    W, H);
	draw_title(fp, cfg, res);
	draw_percentiles(fp, cfg, res, &ax, pct);
	draw_timeline(fp, res, &ax, pct);
	draw_distribution(fp, res, &ax);
	draw_legend(fp, cfg, res);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}

/*
 * Writes s as XML character data (markup escaped, never invalid), cut
 * after max characters (a UTF-8 sequence counts as one) with an ellipsis
 * when it is longer.
 */
static void
put_cut(FILE *fp, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, nchars = 0;

	for (; *s != '\0'; s += n, nchars++) {
		n = 1;
		if (nchars + 1 >= max && s[1] != '\0') {
			fputs("\xe2\x80\xa6", fp);	/* U+2026 */
			return;
		}
		if (*s == '&')
			fputs("&amp;", fp);
		else if (*s == '<')
			fputs("&lt;", fp);
		else if (*s == '>')
			fputs("&gt;", fp);
		else if (*s < 0x20 || *s == 0x7f)
			fputc(' ', fp);		/* not allowed in XML 1.0 */
		else if ((n = json_utf8_len(s)) == 0) {
			fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
			n = 1;
		} else
			fwrite(s, 1, n, fp);
	}
}

/* How many characters of size px fit in width px. */
static size_t
fit(double width, int px)
{
	return (size_t)(width / (CHAR_W * px));
}

/* How far (0 to 1) a latency (ns) lies along the latency axis, clamped. */
static double
lfrac(const struct lax *ax, double ns)
{
	double l = ns > 0 ? log10(ns) : ax->lo;

	if (l < ax->lo)
		l = ax->lo;
	if (l > ax->hi)
		l = ax->hi;
	return (l - ax->lo) / (ax->hi - ax->lo);
}

/* Where a latency falls on a vertical latency axis from top to bottom. */
static double
ylat(const struct lax *ax, double ns, int top, int bottom)
{
	return bottom - (bottom - top) * lfrac(ax, ns);
}

/* A step of 1, 2 or 5 times a power of ten giving at most max ticks. */
static double
nice_step(double span, int max)
{
	double p, m;

	if (!(span > 0))
		return 1;
	p = pow(10, floor(log10(span / max)));
	for (m = 1; ; m = m == 1 ? 2 : m == 2 ? 5 : 10)
		if (span / (p * m) <= max)
			return p * m;
}

/*
 * Whether n samples support the q quantile: at least 10 samples lie beyond
 * it (the rule of --fail-above and latt compare).
 */
static int
supported(uint64_t n, double q)
{
	return n >= report_pct_need(q);
}

/*
 * The title: what ran (the command, or the loads of a run without one),
 * the settings, where and when, and the run in figures.
 */
static void
draw_title(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	char date[64], a[32], b[32], *what;
	time_t t;
	struct tm tm;
	unsigned i;
	size_t max;

	fputs("<g id=\"title\">\n<text x=\"20\" y=\"28\" font-size=\"16\" "
	    "font-weight=\"bold\">latt: ", fp);
	max = fit(W - 40, 16) - 6;
	if (cfg->ncmd > 0) {
		what = workload_describe(cfg);
		put_cut(fp, what != NULL ? what : "?", max);
		free(what);
	} else if (cfg->nload > 0) {
		fputs("no command, loads", fp);
		for (i = 0; i < cfg->nload; i++)
			fprintf(fp, "%s %s\xc3\x97%u", i > 0 ? "," : "",
			    load_name(cfg->load[i].kind), cfg->load[i].n);
	} else
		fputs("no command, an idle machine", fp);
	fputs("</text>\n", fp);

	fprintf(fp, "<text id=\"settings\" x=\"20\" y=\"48\">%u client%s, "
	    "delays %s to %s", cfg->nclients, cfg->nclients == 1 ? "" : "s",
	    cfg->min_delay == 0 ? "0" : fmt_time(a, sizeof(a),
	    (double)cfg->min_delay, 0, MICRO),
	    fmt_time(b, sizeof(b), (double)cfg->max_delay, 0, MICRO));
	if (cfg->ncmd > 0 && cfg->nload > 0) {
		fputs(", loads", fp);
		for (i = 0; i < cfg->nload; i++)
			fprintf(fp, "%s %s\xc3\x97%u", i > 0 ? "," : "",
			    load_name(cfg->load[i].kind), cfg->load[i].n);
	}
	if (cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR)
		fprintf(fp, ", %s %d", cfg->policy == SCHED_FIFO ? "fifo" :
		    "rr", cfg->prio);
	else if (cfg->policy == SCHED_BATCH || cfg->policy == SCHED_IDLE)
		fprintf(fp, ", %s", cfg->policy == SCHED_BATCH ? "batch" :
		    "idle");
	if (cfg->set_nice)
		fprintf(fp, ", nice %d", cfg->nice);
	if (cfg->open_loop)
		fputs(", open loop", fp);
	if (cfg->work_kb > 0)
		fprintf(fp, ", %u KiB of work", cfg->work_kb);
	fprintf(fp, ", seed %llu</text>\n", (unsigned long long)cfg->seed);

	t = (time_t)(res->start_wall / NSEC_PER_SEC);
	if (res->start_wall <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		strcpy(date, "?");
	fputs("<text id=\"system\" x=\"20\" y=\"66\">Linux ", fp);
	put_cut(fp, res->env.kernel_release != NULL ?
	    res->env.kernel_release : "?", 40);
	fputs(", host ", fp);
	put_cut(fp, res->env.hostname != NULL ? res->env.hostname : "?", 40);
	fprintf(fp, ", %s</text>\n", date);

	fprintf(fp, "<text id=\"figures\" x=\"20\" y=\"84\">%llu samples in "
	    "%s", (unsigned long long)st->n, fmt_time(a, sizeof(a),
	    (double)(res->end - res->start - res->suspended), 3, MICRO));
	if (res->nsuspend > 0)
		fprintf(fp, " (and %s suspended)", fmt_time(a, sizeof(a),
		    (double)res->suspended, 3, MICRO));
	if (st->n > 0) {
		fprintf(fp, ", mean %s", fmt_time(a, sizeof(a),
		    stats_mean(st), 3, MICRO));
		fprintf(fp, ", max %s (client %u, %.2f s into the run)",
		    fmt_time(a, sizeof(a), (double)st->max, 3, MICRO),
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	}
	fprintf(fp, ", %llu timer samples",
	    (unsigned long long)res->ser[SER_TIMER].st.n);
	if (res->npending > 0)
		fprintf(fp, "; %llu unanswered at the end, the oldest %s",
		    (unsigned long long)res->npending, fmt_time(a, sizeof(a),
		    (double)res->pending_age, 3, MICRO));
	fputs("</text>\n</g>\n", fp);
}

/*
 * The latency axis of a panel: gridlines and labels at every decade, and
 * at 2 and 5 times it when the axis spans few decades; labels left of x0
 * when left, else none (the panel shares its neighbour's).
 */
static void
draw_lat_axis(FILE *fp, const struct lax *ax, int x0, int x1, int top,
    int bottom, int left)
{
	static const int mult[] = { 1, 2, 5 };
	char buf[32];
	double y, v;
	int d, k, nk;

	nk = ax->hi - ax->lo <= 3 ? 3 : 1;
	for (d = ax->lo; d <= ax->hi; d++) {
		for (k = 0; k < nk; k++) {
			if (d == ax->hi && k > 0)
				break;
			v = mult[k] * pow(10, d);
			y = ylat(ax, v, top, bottom);
			fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			    "y2=\"%.1f\" stroke=\"%s\"/>\n", x0, y, x1, y,
			    k == 0 ? "#d0d0d0" : "#ececec");
			if (left)
				fprintf(fp, "<text x=\"%d\" y=\"%.1f\" "
				    "text-anchor=\"end\" font-size=\"%d\">%s"
				    "</text>\n", x0 - 5, y + 4, SMALL,
				    fmt_time(buf, sizeof(buf), v, 0, MICRO));
		}
	}
}

/* "no samples" in the middle of a panel. */
static void
no_samples(FILE *fp, int x0, int x1, int top, int bottom)
{
	fprintf(fp, "<text class=\"empty\" x=\"%d\" y=\"%d\" "
	    "text-anchor=\"middle\" font-size=\"16\" fill=\"#777\">no "
	    "samples</text>\n", (x0 + x1) / 2, (top + bottom) / 2);
}

/* The percentile axis: 0 at p = 0, k at p = 1 - 10^-k. */
static double
xpct(double u, double umax)
{
	return A_L + (A_R - A_L) * u / umax;
}

static double
u_of(double p)
{
	return p >= 1 ? 99 : -log10(1 - p);
}

/*
 * One series by percentile: a point at every non-empty bucket, at the
 * plotting positions (rank - 0.5) / n of its first and last sample; points
 * closer than half a pixel to the last one drawn are skipped.
 */
static void
draw_pct_curve(FILE *fp, const struct stats *st, const struct lax *ax,
    double umax, const char *id, const char *color, double width)
{
	const struct hist *h = &st->hist;
	double n = (double)h->total, x, y, lx = -1, ly = -1;
	uint64_t cum = 0;
	int64_t v;
	size_t i;
	int k, first = 1;

	if (st->n == 0 || h->total == 0)
		return;
	fprintf(fp, "<path id=\"%s\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"%.1f\" stroke-linejoin=\"round\" d=\"", id,
	    color, width);
	for (i = 0; i <= h->nbuckets; i++) {
		uint64_t c = i < h->nbuckets ? h->counts[i] : h->overflow;

		if (c == 0)
			continue;
		v = i < h->nbuckets ? hist_mid(h, i) : st->max;
		if (v < st->min)
			v = st->min;
		if (v > st->max || i == h->nbuckets)
			v = st->max;
		y = ylat(ax, (double)v, A_T, A_B);
		for (k = 0; k < 2; k++) {
			x = xpct(u_of(((double)(k == 0 ? cum + 1 : cum + c) -
			    0.5) / n), umax);
			if (!first && fabs(x - lx) < 0.5 && fabs(y - ly) < 0.5)
				continue;
			fprintf(fp, "%s%.1f %.1f", first ? "M" : "L", x, y);
			first = 0;
			lx = x;
			ly = y;
		}
		cum += c;
	}
	fputs("\"/>\n", fp);
}

static void
draw_percentiles(FILE *fp, const struct config *cfg,
    const struct result *res, const struct lax *ax, const int64_t *pct)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	struct label lab[NQUANTILES + 1];
	char buf[32], id[32];
	unsigned c;
	double umax, x, y, u;
	size_t nlab = 0, i;
	int k;

	/* Decades of 1/(1-p) up to that of the maximum, at least 99.9%. */
	umax = st->n > 0 ? ceil(log10(2.0 * (double)st->n) - 1e-9) : 3;
	if (tm->n > st->n)
		umax = ceil(log10(2.0 * (double)tm->n) - 1e-9);
	if (umax < 3)
		umax = 3;
	fputs("<g id=\"percentiles\">\n", fp);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Latency by "
	    "percentile</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
	    "font-size=\"%d\" fill=\"#555\">x: 1/(1-p), so that each "
	    "step right is ten times rarer</text>\n", A_L, A_T - 10, A_R,
	    A_T - 10, SMALL);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fbfbfb\" stroke=\"#999\"/>\n", A_L, A_T, A_R - A_L,
	    A_B - A_T);
	/* Beyond 1 - 10/n fewer than ten samples lie: shaded. */
	if (st->n > 0) {
		u = u_of(1 - 10.0 / (double)st->n);
		x = st->n > 10 ? xpct(u, umax) : A_L;
		if (x < A_R)
			fprintf(fp, "<rect class=\"thin\" x=\"%.1f\" y=\"%d\" "
			    "width=\"%.1f\" height=\"%d\" fill=\"#f1ece4\"/>"
			    "\n", x, A_T, A_R - x, A_B - A_T);
	}
	draw_lat_axis(fp, ax, A_L, A_R, A_T, A_B, 1);
	for (k = 0; k <= (int)umax; k++) {
		x = xpct(k, umax);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#d0d0d0\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"%d\">", x, A_T, x, A_B,
		    x, A_B + 15, SMALL);
		if (k == 0)
			fputs("0%", fp);
		else
			fprintf(fp, "%.*f%%", k > 2 ? k - 2 : 0,
			    100 * (1 - pow(10, -k)));
		fputs("</text>\n", fp);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	    "percentile</text>\n", (A_L + A_R) / 2, A_B + 32);
	fprintf(fp, "<text transform=\"translate(16 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">latency</text>\n", (A_T + A_B) / 2);
	if (st->n == 0 && tm->n == 0) {
		no_samples(fp, A_L, A_R, A_T, A_B);
		fputs("</g>\n", fp);
		return;
	}
	draw_pct_curve(fp, tm, ax, umax, "timer-percentiles", TIMER_COLOR,
	    1.5);
	/* The runqueue wait's share of each wake-up, below its latency. */
	draw_pct_curve(fp, &res->ser[SER_RUNQUEUE].st, ax, umax,
	    "runqueue-percentiles", RQ_COLOR, 1.5);
	for (c = 0; res->classes != NULL && c < cfg->nclasses; c++) {
		snprintf(id, sizeof(id), "class-%u-percentiles", c);
		draw_pct_curve(fp, &res->classes[c].ser[SER_LATENCY].st, ax,
		    umax, id, class_colors[c % NCLASS_COLORS], 2.0);
	}
	draw_pct_curve(fp, st, ax, umax, "latency-percentiles", LAT_COLOR,
	    res->classes != NULL ? 1.2 : 2.2);
	if (st->n == 0)
		no_samples(fp, A_L, A_R, A_T, A_B);
	/* The supported percentiles and the maximum, marked. */
	for (i = 0; st->n > 0 && i <= NQUANTILES; i++) {
		int64_t v;

		if (i < NQUANTILES && !supported(st->n, quantiles[i]))
			continue;
		v = i < NQUANTILES ? pct[i] : st->max;
		u = i < NQUANTILES ? u_of(quantiles[i]) :
		    u_of(1 - 0.5 / (double)st->n);
		x = xpct(u, umax);
		y = ylat(ax, (double)v, A_T, A_B);
		fprintf(fp, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"3.5\" fill=\"%s\"/>\n", x, y, MARK_COLOR);
		lab[nlab].x = x;
		lab[nlab].y = y;
		lab[nlab].want = y;
		lab[nlab].anchor = "end";
		lab[nlab].color = MARK_COLOR;
		snprintf(lab[nlab].text, sizeof(lab[nlab].text), "%s %s",
		    i < NQUANTILES ? qnames[i] : "max",
		    fmt_time(buf, sizeof(buf), (double)v, 3, MICRO));
		nlab++;
	}
	/*
	 * Labels above and left of their points, where a rising curve
	 * never is, moved apart, in the panel.
	 */
	for (i = 0; i < nlab; i++)
		lab[i].x -= 6;
	place_labels(fp, lab, nlab, A_T + 12, A_B - 4, -9);
	fputs("</g>\n", fp);
}

/*
 * Draws labels at their anchors' x, each with its baseline dy below the
 * y it wants unless that would put it closer than LABEL_GAP to another:
 * from the lowest up, a label too close to the one below moves up; when
 * that runs past top, they are pushed down again from there (never below
 * bottom).  A label moved away from its point gets a thin leader line.
 */
static void
place_labels(FILE *fp, struct label *lab, size_t n, double top,
    double bottom, double dy)
{
	struct label t;
	double y[MAXLABELS], hi;
	size_t i, j;

	if (n > MAXLABELS)
		n = MAXLABELS;
	/* Sort by the y wanted, lowest on the page first. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && lab[j].want > lab[j - 1].want; j--) {
			t = lab[j];
			lab[j] = lab[j - 1];
			lab[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		y[i] = lab[i].want + dy;
		if (y[i] > bottom)
			y[i] = bottom;
		if (i > 0 && y[i] > y[i - 1] - LABEL_GAP)
			y[i] = y[i - 1] - LABEL_GAP;
	}
	hi = top;
	for (i = n; i-- > 0; ) {
		if (y[i] < hi)
			y[i] = hi;
		hi = y[i] + LABEL_GAP;
	}
	for (i = 0; i < n; i++) {
		if (fabs(y[i] - dy - lab[i].want) > 3)
			fprintf(fp, "<line class=\"leader\" x1=\"%.1f\" "
			    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"0.6\"/>\n", lab[i].x + (strcmp(
			    lab[i].anchor, "end") == 0 ? 5 : -5), lab[i].want,
			    lab[i].x, y[i] - 4, lab[i].color);
		fprintf(fp, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\" " HALO
		    ">%s</text>\n", lab[i].x, y[i], lab[i].anchor, SMALL,
		    lab[i].color, lab[i].text);
	}
}

/* A shaded stretch of the time panel, with its name when it fits. */
static void
shade(FILE *fp, const char *cls, double xa, double xb, const char *fill,
    const char *name, const char *ink, int row)
{
	if (xb - xa < 1)
		xb = xa + 1;
	/* The workload's span is one: it has an id too. */
	fprintf(fp, "<g class=\"%s\"%s><rect x=\"%.1f\" y=\"%d\" "
	    "width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", cls,
	    strcmp(cls, "workload") == 0 ? " id=\"workload\"" : "", xa, B_T,
	    xb - xa, B_B - B_T, fill);
	if (name != NULL && xb - xa > strlen(name) * CHAR_W * SMALL + 6)
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" font-size=\"%d\" "
		    "fill=\"%s\" " HALO ">%s</text>", xa + 3,
		    B_T + 13 + 13 * row, SMALL, ink, name);
	fputs("</g>\n", fp);
}

/* A series over time: its points, or its bands with p50 and p99 lines. */
static void
draw_series(FILE *fp, const struct timeline *tl, const struct lax *ax,
    double span, const char *id, const char *color, double dot)
{
	double x, y0, y1;
	int64_t v;
	size_t i;
	int k, first;

#define XT(ns)	(B_L + (B_R - B_L) * (double)(ns) / span)
	if (tl == NULL || tl->n == 0)
		return;
	if (tl->npoints == tl->n) {
		fprintf(fp, "<path id=\"%s\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"%.1f\" stroke-linecap=\"round\" d=\"", id,
		    color, dot);
		for (i = 0; i < tl->npoints; i++)
			fprintf(fp, "M%.1f %.1fh0", XT(tl->points[i].when),
			    ylat(ax, (double)tl->points[i].value, B_T, B_B));
		fputs("\"/>\n", fp);
		return;
	}
	fprintf(fp, "<path id=\"%s-bands\" fill=\"none\" stroke=\"%s\" "
	    "stroke-opacity=\"0.45\" stroke-width=\"%.1f\" d=\"", id, color,
	    fmax(1, (B_R - B_L) / (span / (double)tl->width)));
	for (i = 0; i < tl->nused; i++) {
		if (tl->slice[i].n == 0)
			continue;
		x = XT(((double)i + 0.5) * (double)tl->width);
		y0 = ylat(ax, (double)tl->slice[i].min, B_T, B_B);
		y1 = ylat(ax, (double)tl->slice[i].max, B_T, B_B);
		fprintf(fp, "M%.1f %.1fV%.1f", x, y0 + 0.5, y1 - 0.5);
	}
	fputs("\"/>\n", fp);
	if (tl->qcounts == NULL)
		return;
	/*
	 * The p50 and the p99 over time, as steps: slices are taken
	 * together in groups large enough for the quantile (ten samples
	 * beyond it on average), at most 256 groups; a group with too few
	 * samples for it is left out.
	 */
	for (k = 0; k < 2; k++) {
		double q = k == 0 ? 0.5 : 0.99, need = 10 / (1 - q);
		size_t g = 1, j, from;
		uint64_t cnt;

		while (g < tl->nused && ((double)tl->n * g / tl->nused < need ||
		    tl->nused / g > 256))
			g *= 2;
		fprintf(fp, "<path id=\"%s-%s\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1.5\" stroke-linejoin=\"round\" d=\"", id,
		    k == 0 ? "p50" : "p99", k == 0 ? P50_COLOR : P99_COLOR);
		first = 1;
		for (from = 0; from < tl->nused; from += g) {
			for (cnt = 0, j = from; j < from + g && j < tl->nused;
			    j++)
				cnt += tl->slice[j].n;
			q = k == 0 ? 0.5 : 0.99;
			if ((double)cnt < need || (v = timeline_quantile(tl,
			    from, from + g, q)) < 0) {
				first = 1;
				continue;
			}
			y0 = ylat(ax, (double)v, B_T, B_B);
			fprintf(fp, "%s%.1f %.1fH%.1f", first ? "M" : "L",
			    XT((double)from * (double)tl->width), y0,
			    XT(fmin((double)(from + g) * (double)tl->width,
			    span)));
			first = 0;
		}
		fputs("\"/>\n", fp);
	}
#undef XT
}

static void
draw_timeline(FILE *fp, const struct result *res, const struct lax *ax,
    const int64_t *pct)
{
	const struct timeline *tl = res->ser[SER_LATENCY].tl;
	struct label lab[2];
	double span, step, t, x, y, xa, xb, unit;
	char buf[32];
	int64_t wend;
	size_t nlab = 0;
	unsigned i;

	span = (double)(res->end - res->start);
	if (span < NSEC_PER_MSEC)
		span = NSEC_PER_MSEC;
#define XT(ns)	(B_L + (B_R - B_L) * (double)(ns) / span)
	fputs("<g id=\"timeline\">\n", fp);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Latency "
	    "over time</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
	    "font-size=\"%d\" fill=\"#555\">%s</text>\n", B_L, B_T - 10, B_R,
	    B_T - 10, SMALL, tl == NULL || tl->npoints == tl->n ?
	    "every sample" : "per time slice: min to max, p50, p99");
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fbfbfb\" stroke=\"#999\"/>\n", B_L, B_T, B_R - B_L,
	    B_B - B_T);
	/* The workload's span, then when latt was suspended or stalled. */
	if (res->wl.pid > 0) {
		wend = res->wl.reaped ? res->wl.end : res->end;
		xa = XT(fmax(0, (double)(res->wl.start - res->start)));
		xb = XT(fmin(span, (double)(wend - res->start)));
		if (xb > xa)
			shade(fp, "workload", xa, xb, "#e6f0e0", "workload",
			    "#3d6b2f", 0);
	}
	for (i = 0; i < res->nsuspend && i < SUSPEND_MAX; i++)
		shade(fp, "suspended", XT(res->susp[i].from),
		    XT(res->susp[i].to), "#d9d9d9", "suspended", "#444", 1);
	for (i = 0; i < res->nstalls && i < STALLS_MAX; i++)
		shade(fp, "stall", XT(res->stalls[i].when),
		    XT(res->stalls[i].when + res->stalls[i].len), "#f6d7b0",
		    "latt stalled", "#8a4b08", 2);
	draw_lat_axis(fp, ax, B_L, B_R, B_T, B_B, 1);
	/* x axis: seconds (milliseconds in a short run), at round steps. */
	unit = span < 2.0 * NSEC_PER_SEC ? NSEC_PER_MSEC : NSEC_PER_SEC;
	step = nice_step(span / unit, 8);
	for (t = 0; t * unit <= span * (1 + 1e-9); t += step) {
		x = XT(t * unit);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"%d\">%g</text>\n", x,
		    B_B, x, B_B + 4, x, B_B + 15, SMALL,
		    round(t / step) * step);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s "
	    "into the run</text>\n", (B_L + B_R) / 2, B_B + 32,
	    unit == NSEC_PER_SEC ? "seconds" : "milliseconds");
	fprintf(fp, "<text transform=\"translate(16 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">latency</text>\n", (B_T + B_B) / 2);
	draw_series(fp, res->ser[SER_TIMER].tl, ax, span, "timer", TIMER_COLOR,
	    2);
	draw_series(fp, tl, ax, span, "samples", LAT_COLOR, 3);
	if (res->ser[SER_LATENCY].st.n == 0) {
		no_samples(fp, B_L, B_R, B_T, B_B);
		fputs("</g>\n", fp);
		return;
	}
	/* The p99 (when supported) and the maximum, labelled in the gutter. */
	for (i = 0; i < 2; i++) {
		int64_t v = i == 0 ? pct[2] : res->ser[SER_LATENCY].st.max;

		if (i == 0 && !supported(res->ser[SER_LATENCY].st.n, 0.99))
			continue;
		y = ylat(ax, (double)v, B_T, B_B);
		fprintf(fp, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" "
		    "x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\""
		    "%s\"/>\n", B_L, y, B_R + 4, y, MARK_COLOR,
		    i == 0 ? "5 3" : "1 3");
		lab[nlab].x = B_R + 8;
		lab[nlab].y = y;
		lab[nlab].want = y;
		lab[nlab].anchor = "start";
		lab[nlab].color = MARK_COLOR;
		snprintf(lab[nlab].text, sizeof(lab[nlab].text), "%s %s",
		    i == 0 ? "p99" : "max",
		    fmt_time(buf, sizeof(buf), (double)v, 3, MICRO));
		nlab++;
	}
	place_labels(fp, lab, nlab, B_T + 10, B_B, 4);
#undef XT
	fputs("</g>\n", fp);
}

/* The distribution: bars along the latency axis, in % of the samples. */
static void
draw_distribution(FILE *fp, const struct result *res, const struct lax *ax)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct hist *h = &st->hist;
	uint64_t *bins, top = 0;
	size_t nbins, i, b;
	double frac, y0, y1, x, xmax, step, v;

	fputs("<g id=\"distribution\">\n", fp);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">"
	    "Distribution</text>\n", C_L, B_T - 10);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fbfbfb\" stroke=\"#999\"/>\n", C_L, B_T, C_R - C_L,
	    B_B - B_T);
	draw_lat_axis(fp, ax, C_L, C_R, B_T, B_B, 0);
	nbins = (size_t)(ax->hi - ax->lo) * BINS_PER_DECADE;
	bins = st->n > 0 ? calloc(nbins, sizeof(*bins)) : NULL;
	/* Each histogram bucket goes to the bin of its midpoint. */
	for (i = 0; bins != NULL && i < h->nbuckets; i++) {
		if (h->counts[i] == 0)
			continue;
		frac = (log10(fmax(1, (double)hist_mid(h, i))) - ax->lo) *
		    BINS_PER_DECADE;
		b = frac < 0 ? 0 : (size_t)frac;
		if (b >= nbins)
			b = nbins - 1;
		bins[b] += h->counts[i];
	}
	if (bins != NULL && h->overflow > 0)
		bins[nbins - 1] += h->overflow;
	for (b = 0; bins != NULL && b < nbins; b++)
		if (bins[b] > top)
			top = bins[b];
	/* The share axis: round steps up to the tallest bar. */
	xmax = top > 0 ? 100.0 * (double)top / (double)st->n : 10;
	step = nice_step(xmax, 3);
	xmax = ceil(xmax / step - 1e-9) * step;
	for (v = 0; bins != NULL && v <= xmax * (1 + 1e-9); v += step) {
		x = C_L + (C_R - C_L) * v / xmax;
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"%d\">%g%%</text>\n",
		    x, B_B, x, B_B + 4, x, B_B + 15, SMALL,
		    round(v / step) * step);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">share of "
	    "samples</text>\n", (C_L + C_R) / 2, B_B + 32);
	if (bins == NULL) {
		fprintf(fp, "<text class=\"empty\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"%d\" fill=\"#777\">"
		    "no samples</text>\n", (C_L + C_R) / 2, (B_T + B_B) / 2,
		    SMALL);
		fputs("</g>\n", fp);
		return;
	}
	fprintf(fp, "<path id=\"bars\" fill=\"%s\" d=\"", LAT_COLOR);
	for (b = 0; b < nbins; b++) {
		if (bins[b] == 0)
			continue;
		y0 = B_B - (B_B - B_T) * (double)b / (double)nbins;
		y1 = B_B - (B_B - B_T) * (double)(b + 1) / (double)nbins;
		x = C_L + (C_R - C_L) * (100.0 * (double)bins[b] /
		    (double)st->n) / xmax;
		fprintf(fp, "M%d %.1fH%.1fV%.1fH%dZ", C_L, y0, fmax(x,
		    C_L + 1), y1, C_L);
	}
	fputs("\"/>\n", fp);
	free(bins);
	fputs("</g>\n", fp);
}

/* A legend of what the colours mean, and a line of caveats. */
static void
draw_legend(FILE *fp, const struct config *cfg, const struct result *res)
{
	static const struct {
		const char	*name;
		const char	*color;
		int		 line;
	} key[] = {
		{ "wake-up latency", LAT_COLOR, 0 },
		{ "timer latency (latt's own sleeps)", TIMER_COLOR, 0 },
		{ "runqueue wait (schedstat)", RQ_COLOR, 0 },
		{ "p50 over time", P50_COLOR, 1 },
		{ "p99 over time", P99_COLOR, 1 },
		{ "workload", "#e6f0e0", 0 },
		{ "suspended", "#d9d9d9", 0 },
		{ "latt stalled (no samples)", "#f6d7b0", 0 },
	};
	int show[sizeof(key) / sizeof(key[0])];
	int band = res->ser[SER_LATENCY].tl != NULL &&
	    res->ser[SER_LATENCY].tl->npoints != res->ser[SER_LATENCY].tl->n;
	double x = B_L, w;
	int y = H - 50;
	unsigned c;
	size_t i;

	show[0] = res->ser[SER_LATENCY].st.n > 0;
	show[1] = res->ser[SER_TIMER].st.n > 0;
	show[2] = res->ser[SER_RUNQUEUE].st.n > 0;
	show[3] = show[4] = band;
	show[5] = res->wl.pid > 0;
	show[6] = res->nsuspend > 0;
	show[7] = res->nstalls > 0;
	fputs("<g id=\"legend\">\n", fp);
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++) {
		if (!show[i])
			continue;
		w = 19 + strlen(key[i].name) * CHAR_W * SMALL;
		/* A second line when the first is full. */
		if (x + w > W - 20) {
			x = B_L;
			y += 16;
		}
		if (key[i].line)
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			    "y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>", x,
			    y - 4, x + 14, y - 4, key[i].color);
		else
			fprintf(fp, "<rect x=\"%.1f\" y=\"%d\" width=\"14\" "
			    "height=\"10\" fill=\"%s\" stroke=\"#999\" "
			    "stroke-width=\"0.5\"/>", x, y - 9, key[i].color);
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" font-size=\"%d\">%s"
		    "</text>\n", x + 19, y, SMALL, key[i].name);
		x += w + 12;
	}
	/* The classes, by percentile; their names need no escaping. */
	for (c = 0; res->classes != NULL && c < cfg->nclasses; c++) {
		w = 19 + (strlen(cfg->classes[c].name) + 6) * CHAR_W * SMALL;
		if (x + w > W - 20) {
			x = B_L;
			y += 16;
		}
		if (y > H - 34) {
			fprintf(fp, "<text x=\"%.1f\" y=\"%d\" "
			    "font-size=\"%d\">\xe2\x80\xa6</text>\n", x, y - 16,
			    SMALL);
			break;
		}
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
		    "y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/><text "
		    "class=\"class\" x=\"%.1f\" y=\"%d\" font-size=\"%d\">"
		    "class %s</text>\n", x, y - 4, x + 14, y - 4,
		    class_colors[c % NCLASS_COLORS], x + 19, y, SMALL,
		    cfg->classes[c].name);
		x += w + 12;
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#555\">"
	    "Percentiles are marked only where at least ten samples lie "
	    "beyond them; shaded: fewer than ten beyond.  latt %s</text>\n",
	    B_L, H - 18, SMALL, LATT_VERSION);
	fputs("</g>\n", fp);
}
