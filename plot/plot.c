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
 * Under the time panel, on its time axis, each frame class's panel
 * (plotframe.c), then the strip of what else ran (plotnoise.c), when the
 * run has its series.  The legend stands at the percentile panel's right;
 * the time panel's keys on its title's line.
 *
 * With two classes of clients or more (-c N:ATTR...), the percentile
 * panel has one curve per class (named in the legend, highest priority
 * first), beside the thinner curve of all clients together; one class is
 * the curve of all.  No two curves of a panel share a hue family: the
 * classes and the placement kinds take the colours left in turn, and
 * those past the last are left out, the legend says how many.  When every
 * class has its curve, the panel over time draws each class's samples as
 * dots of its colour (rt-migrate-test's figure of 2007), the highest
 * priority on top.
 *
 * Lines are drawn before labels; labels carry their values and a white
 * outline, and go where no curve crosses them (plotink.c).  The file
 * stays well under 2 MB however long the run.  A --sweep's plot is its
 * curve instead (plotcurve.c).
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "plot/plot.h"
#include "plot/plotcurve.h"
#include "plot/plotframe.h"
#include "plot/plotink.h"
#include "plot/plotnoise.h"
#include "result.h"

/* The percentile panel, and its legend at its right. */
#define A_L		84
#define A_R		700
#define A_T		112
#define A_B		326
#define LEG_X		(A_R + 22)
/* The time panel, the gutter for its labels, and the distribution. */
#define B_L		84
#define B_R		700
#define B_T		392
#define B_B		626
#define C_L		800
#define C_R		960
#define UNDER		(B_B + 44)	/* below the time panel's axis */
#define BINS_PER_DECADE	10
/* The palette (plotink.h); black for the marks, which are no curve. */
#define LAT_COLOR	INK_BLUE
#define TIMER_COLOR	INK_GREY
#define RQ_COLOR	INK_RED
#define RQ_DASH		"8 3"	/* a part of the latency: dashed */
#define PLACE_DASH	"6 3"
#define MARK_COLOR	"#000000"
#define P50_COLOR	INK_GREEN
#define P99_COLOR	INK_PINK
/* The colours left for the classes and the placement kinds, in turn. */
static const char *const pool[] = { INK_ORANGE, INK_GREEN, INK_PINK,
    INK_CYAN };
#define NPOOL		(sizeof(pool) / sizeof(pool[0]))

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

/* The time panel's shades: the workload's span, latt suspended, stalled. */
static const struct {
	const char	*cls, *fill, *name, *color;
} shade_kind[] = {
	{ "workload", "#e6f0e0", "workload", "#3d6b2f" },
	{ "suspended", "#d9d9d9", "suspended", "#444" },
	{ "stall", "#f6d7b0", "latt stalled", "#8a4b08" },
};

/* The placement kinds (SER_PLACE_*, in their order): their keys. */
#define PLACE_KINDS	5
static const char *const place_key[PLACE_KINDS] = {
	"woke on the waker's CPU", "on its SMT sibling", "on a CPU of its LLC",
	"on another LLC", "on another node",
};

/* A curve's look. */
struct style {
	const char	*color;
	const char	*dash;		/* stroke-dasharray, "" for none */
	double		 width;
};

/* A curve of the percentile panel, and its key in the legend. */
struct key {
	const struct stats *st;
	struct style	 sty;
	int		 cls;		/* a class's index, else -1 */
	char		 id[40];
	char		 name[CLASS_NAME_MAX + 16];
};
/* The keys: the latency's, the pool's, the runqueue's, the timer's. */
#define KEYS_MAX	(3 + NPOOL)

static void	 put_loads(FILE *, const struct config *);
static void	 draw_title(FILE *, const struct config *,
		    const struct result *);
static size_t	 make_keys(const struct config *, const struct result *,
		    struct key *, unsigned *);
static unsigned	 round_classes(const struct config *, const struct result *,
		    unsigned *);
static void	 draw_pct_axes(FILE *, const struct lax *,
		    const struct stats *, double);
static void	 mark_percentiles(FILE *, struct ink *, const struct stats *,
		    const struct lax *, double, const int64_t *);
static void	 draw_percentiles(FILE *, struct ink *, const struct result *,
		    const struct key *, size_t, const struct lax *,
		    const int64_t *);
static void	 draw_timeline(FILE *, struct ink *, const struct config *,
		    const struct result *, const struct key *, size_t,
		    const struct lax *, const int64_t *);
static void	 draw_distribution(FILE *, const struct ink *,
		    const struct result *, const struct lax *);
static void	 draw_legend(FILE *, const struct key *, size_t, unsigned);
static int	 place_kinds(const struct result *);
static int	 class_dots(const struct config *, const struct result *,
		    const struct key *, size_t);
static int	 class_prio(const struct client_class *);
static void	 by_priority(const struct config *, unsigned *);
static void	 draw_shades(FILE *, struct ink *, const struct result *,
		    double, int);

int
plot_write(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	struct ink ink = { 0 };
	struct lax ax;
	struct key key[KEYS_MAX];
	int64_t pct[NQUANTILES];
	double lo = INFINITY, hi = 0;
	int fh = plotframe_height(cfg);	/* the frame classes' panels */
	unsigned nleft;
	size_t nkey;

	/* A --sweep's plot is its curve. */
	if (res->sweep != NULL)
		return plotcurve_write(fp, cfg, res);
	stats_percentiles(st, quantiles, pct, NQUANTILES);
	/* The axis covers both series. */
	if (st->n > 0) {
		lo = (double)st->min;
		hi = (double)st->max;
	}
	if (tm->n > 0) {
		lo = fmin(lo, (double)tm->min);
		hi = fmax(hi, (double)tm->max);
	}
	ink_lax(&ax, lo, hi);
	nkey = make_keys(cfg, res, key, &nleft);
	ink_begin(fp, UNDER + fh + plotnoise_height(res), NULL);
	draw_title(fp, cfg, res);
	draw_percentiles(fp, &ink, res, key, nkey, &ax, pct);
	draw_legend(fp, key, nkey, nleft);
	draw_timeline(fp, &ink, cfg, res, key, nkey, &ax, pct);
	draw_distribution(fp, &ink, res, &ax);
	plotframe_draw(fp, cfg, res, UNDER);
	plotnoise_draw(fp, res, B_L, B_R, UNDER + fh);
	fputs("</svg>\n", fp);
	ink_free(&ink);
	return ferror(fp) ? -1 : 0;
}

/* The loads of the run, as " cpu\xc3\x974, yield\xc3\x971". */
static void
put_loads(FILE *fp, const struct config *cfg)
{
	unsigned i;

	for (i = 0; i < cfg->nload; i++)
		fprintf(fp, "%s %s\xc3\x97%u", i > 0 ? "," : "",
		    config_load_name(cfg->load[i].kind), cfg->load[i].n);
}

/*
 * The title: what ran (the command, or the loads of a run without one),
 * the settings, where and when, and the run in figures.
 */
static void
draw_title(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	char a[32], b[32], *what;
	size_t max;

	fputs("<g id=\"title\">\n<text x=\"20\" y=\"28\" font-size=\"16\" "
	    "font-weight=\"bold\">latt: ", fp);
	/* The characters of 16 px the line holds after "latt: ". */
	max = (size_t)((PLOT_WIDTH - 40) / (PLOT_CHAR_W * 16)) - 6;
	if (cfg->ncmd > 0) {
		what = config_command(cfg);
		ink_text(fp, what != NULL ? what : "?", max);
		free(what);
	} else if (cfg->nload > 0) {
		fputs("no command, loads", fp);
		put_loads(fp, cfg);
	} else
		fputs("no command, an idle machine", fp);
	fputs("</text>\n", fp);

	fprintf(fp, "<text id=\"settings\" x=\"20\" y=\"48\">%u client%s, "
	    "delays %s to %s", cfg->nclients, cfg->nclients == 1 ? "" : "s",
	    cfg->min_delay == 0 ? "0" : fmt_time(a, sizeof(a),
	    (double)cfg->min_delay, 0, PLOT_MICRO),
	    fmt_time(b, sizeof(b), (double)cfg->max_delay, 0, PLOT_MICRO));
	if (cfg->ncmd > 0 && cfg->nload > 0) {
		fputs(", loads", fp);
		put_loads(fp, cfg);
	}
	if (cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR)
		fprintf(fp, ", %s %d", config_policy_name(cfg->policy),
		    cfg->prio);
	else if (cfg->policy == SCHED_BATCH || cfg->policy == SCHED_IDLE)
		fprintf(fp, ", %s", config_policy_name(cfg->policy));
	if (cfg->set_nice)
		fprintf(fp, ", nice %d", cfg->nice);
	if (cfg->open_loop)
		fputs(", open loop", fp);
	if (cfg->work_kb > 0)
		fprintf(fp, ", %u KiB of work", cfg->work_kb);
	fprintf(fp, ", seed %llu</text>\n", (unsigned long long)cfg->seed);

	ink_system(fp, res->env.kernel_release, res->env.hostname,
	    res->start_wall, "");

	fprintf(fp, "<text id=\"figures\" x=\"20\" y=\"84\">%llu samples in "
	    "%s", (unsigned long long)st->n, fmt_time(a, sizeof(a),
	    (double)(res->end - res->start - res->suspended), 3, PLOT_MICRO));
	if (res->nsuspend > 0)
		fprintf(fp, " (and %s suspended)", fmt_time(a, sizeof(a),
		    (double)res->suspended, 3, PLOT_MICRO));
	if (st->n > 0) {
		fprintf(fp, ", mean %s", fmt_time(a, sizeof(a),
		    stats_mean(st), 3, PLOT_MICRO));
		fprintf(fp, ", max %s (client %u, %.2f s into the run)",
		    fmt_time(a, sizeof(a), (double)st->max, 3, PLOT_MICRO),
		    st->max_tag, (double)st->max_when / NSEC_PER_SEC);
	}
	fprintf(fp, ", %llu timer samples",
	    (unsigned long long)res->ser[SER_TIMER].st.n);
	if (res->npending > 0)
		fprintf(fp, "; %llu unanswered at the end, the oldest %s",
		    (unsigned long long)res->npending, fmt_time(a, sizeof(a),
		    (double)res->pending_age, 3, PLOT_MICRO));
	fputs("</text>\n</g>\n", fp);
}

/*
 * The percentile panel's curves in the legend's order: the latency's;
 * each class's, highest priority first, with two classes or more; each
 * placement kind's when it woke in two kinds or more; the runqueue wait's;
 * the timer's.  The classes and the kinds take the pool's colours in turn,
 * and those past its end are left out, counted in *nleft.  Returns the
 * keys, at most KEYS_MAX.
 */
static size_t
make_keys(const struct config *cfg, const struct result *res,
    struct key *key, unsigned *nleft)
{
	unsigned rank[CLASS_MAX], nc = round_classes(cfg, res, rank);
	unsigned i, c, npool = 0, last;
	size_t n = 0;
	struct key *k;

	nc = nc > 1 ? nc : 0;
	last = nc + PLACE_KINDS + 2;
	*nleft = 0;
	for (i = 0; i <= last; i++) {
		k = &key[n];
		k->cls = -1;
		k->sty = (struct style){ TIMER_COLOR, "", 1.5 };
		if (i == 0) {
			k->st = &res->ser[SER_LATENCY].st;
			k->sty = (struct style){ LAT_COLOR, "",
			    nc > 0 ? 1.2 : 2.2 };
			snprintf(k->id, sizeof(k->id), "latency-percentiles");
			snprintf(k->name, sizeof(k->name), "wake-up latency");
		} else if (i <= nc) {
			k->cls = (int)(c = rank[i - 1]);
			k->st = &res->classes[c].ser[SER_LATENCY].st;
			k->sty.width = 2;
			snprintf(k->id, sizeof(k->id), "class-%u-percentiles",
			    c);
			snprintf(k->name, sizeof(k->name), "class %s",
			    cfg->classes[c].name);
		} else if (i < last - 1) {
			c = SER_PLACE_SAME_CPU + i - nc - 1;
			k->st = place_kinds(res) > 1 ? &res->ser[c].st : NULL;
			k->sty = (struct style){ NULL, PLACE_DASH, 1.3 };
			snprintf(k->id, sizeof(k->id), "place-%s-percentiles",
			    series_info[c].name);
			snprintf(k->name, sizeof(k->name), "%s",
			    place_key[c - SER_PLACE_SAME_CPU]);
		} else if (i == last - 1) {
			k->st = &res->ser[SER_RUNQUEUE].st;
			k->sty = (struct style){ RQ_COLOR, RQ_DASH, 1.5 };
			snprintf(k->id, sizeof(k->id), "runqueue-percentiles");
			snprintf(k->name, sizeof(k->name), "runqueue wait "
			    "(schedstat)");
		} else {
			k->st = &res->ser[SER_TIMER].st;
			snprintf(k->id, sizeof(k->id), "timer-percentiles");
			snprintf(k->name, sizeof(k->name), "timer latency "
			    "(latt's own sleeps)");
		}
		if (k->st == NULL || k->st->n == 0)
			continue;
		if (i > 0 && i < last - 1) {
			if (npool == NPOOL) {
				++*nleft;
				continue;
			}
			k->sty.color = pool[npool++];
		}
		n++;
	}
	return n;
}

/*
 * The classes in the rounds (not the frame classes), highest priority
 * first, into rank; returns how many.
 */
static unsigned
round_classes(const struct config *cfg, const struct result *res,
    unsigned *rank)
{
	unsigned i, n = 0;

	by_priority(cfg, rank);
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++)
		if (cfg->classes[rank[i]].frame == 0)
			rank[n++] = rank[i];
	return n;
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
draw_pct_curve(FILE *fp, struct ink *ink, const struct stats *st,
    const struct lax *ax, double umax, const char *id,
    const struct style *sty)
{
	const struct hist *h = &st->hist;
	double n = (double)h->total, x, y;
	struct pen pen = { fp, ink, -1, -1, sty->width / 2 };
	uint64_t cum = 0;
	int64_t v;
	size_t i;
	int k, first = 1;

	if (st->n == 0 || h->total == 0)
		return;
	fprintf(fp, "<path id=\"%s\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"%.1f\"", id, sty->color, sty->width);
	if (sty->dash[0] != '\0')
		fprintf(fp, " stroke-dasharray=\"%s\"", sty->dash);
	fputs(" stroke-linejoin=\"round\" d=\"", fp);
	for (i = 0; i <= h->nbuckets; i++) {
		uint64_t c = i < h->nbuckets ? h->counts[i] : h->overflow;

		if (c == 0)
			continue;
		v = i < h->nbuckets ? hist_mid(h, i) : st->max;
		if (v < st->min)
			v = st->min;
		if (v > st->max || i == h->nbuckets)
			v = st->max;
		y = ink_ylat(ax, (double)v, A_T, A_B);
		for (k = 0; k < 2; k++) {
			x = xpct(u_of(((double)(k == 0 ? cum + 1 : cum + c) -
			    0.5) / n), umax);
			if (!first && fabs(x - pen.x) < 0.5 &&
			    fabs(y - pen.y) < 0.5)
				continue;
			ink_to(&pen, first, x, y);
			first = 0;
		}
		cum += c;
	}
	fputs("\"/>\n", fp);
}

/*
 * The percentile panel's frame and axes: latency up, 1/(1-p) across to
 * umax decades, shaded where fewer than ten of st's samples lie beyond.
 */
static void
draw_pct_axes(FILE *fp, const struct lax *ax, const struct stats *st,
    double umax)
{
	double x;
	int k;

	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Latency by "
	    "percentile</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
	    "font-size=\"%d\" fill=\"#555\">x: 1/(1-p), so that each "
	    "step right is ten times rarer</text>\n", A_L, A_T - 10, A_R,
	    A_T - 10, PLOT_SMALL);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fbfbfb\" stroke=\"#999\"/>\n", A_L, A_T, A_R - A_L,
	    A_B - A_T);
	/* Beyond 1 - 10/n fewer than ten samples lie: shaded. */
	if (st->n > 0) {
		x = st->n > 10 ? xpct(u_of(1 - 10.0 / (double)st->n), umax) :
		    A_L;
		if (x < A_R)
			fprintf(fp, "<rect class=\"thin\" x=\"%.1f\" y=\"%d\" "
			    "width=\"%.1f\" height=\"%d\" fill=\"#f1ece4\"/>"
			    "\n", x, A_T, A_R - x, A_B - A_T);
	}
	ink_lat_grid(fp, ax, A_L, A_R, A_T, A_B, 1);
	for (k = 0; k <= (int)umax; k++) {
		x = xpct(k, umax);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#d0d0d0\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"%d\">", x, A_T, x, A_B,
		    x, A_B + 15, PLOT_SMALL);
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
}

/* The percentiles st supports and its maximum, marked and labelled. */
static void
mark_percentiles(FILE *fp, struct ink *ink, const struct stats *st,
    const struct lax *ax, double umax, const int64_t *pct)
{
	static const struct field fld = { A_L + 2, A_T + 2, A_R - 2, A_B - 2,
	    0 };
	struct label lab[NQUANTILES + 1];
	double marks[2 * (NQUANTILES + 1)], u;
	char buf[32];
	size_t nlab = 0, i;
	int64_t v;

	for (i = 0; st->n > 0 && i <= NQUANTILES; i++) {
		if (i < NQUANTILES && st->n < stats_need_q(quantiles[i]))
			continue;
		v = i < NQUANTILES ? pct[i] : st->max;
		u = i < NQUANTILES ? u_of(quantiles[i]) :
		    u_of(1 - 0.5 / (double)st->n);
		lab[nlab].px = marks[2 * nlab] = xpct(u, umax);
		lab[nlab].py = marks[2 * nlab + 1] = ink_ylat(ax, (double)v,
		    A_T, A_B);
		lab[nlab].color = MARK_COLOR;
		snprintf(lab[nlab].text, sizeof(lab[nlab].text), "%s %s",
		    i < NQUANTILES ? qnames[i] : "max",
		    fmt_time(buf, sizeof(buf), (double)v, 3, PLOT_MICRO));
		fprintf(fp, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"%.1f\" fill=\"%s\"/>\n", lab[nlab].px, lab[nlab].py,
		    INK_MARK_R, MARK_COLOR);
		nlab++;
	}
	ink_place(fp, ink, lab, nlab, &fld, marks, nlab);
}

/*
 * The percentile panel: each key's curve, the latency's on top, and the
 * latency's percentiles marked.
 */
static void
draw_percentiles(FILE *fp, struct ink *ink, const struct result *res,
    const struct key *key, size_t nkey, const struct lax *ax,
    const int64_t *pct)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct stats *tm = &res->ser[SER_TIMER].st;
	double umax;
	size_t i;

	/* Decades of 1/(1-p) up to that of the maximum, at least 99.9%. */
	umax = st->n > 0 ? ceil(log10(2.0 * (double)st->n) - 1e-9) : 3;
	if (tm->n > st->n)
		umax = ceil(log10(2.0 * (double)tm->n) - 1e-9);
	if (umax < 3)
		umax = 3;
	fputs("<g id=\"percentiles\">\n", fp);
	draw_pct_axes(fp, ax, st, umax);
	for (i = nkey; i-- > 0;)
		draw_pct_curve(fp, ink, key[i].st, ax, umax, key[i].id,
		    &key[i].sty);
	if (st->n == 0)
		ink_empty(fp, ink, A_L, A_R, A_T, A_B);
	mark_percentiles(fp, ink, st, ax, umax, pct);
	fputs("</g>\n", fp);
}

/*
 * The shaded stretches of the time panel: the workload's span, then when
 * latt was suspended or stalled.  With names, each one's name instead, at
 * its top or its bottom, where it fits and nothing drawn crosses it (else
 * none: the legend names them too).
 */
static void
draw_shades(FILE *fp, struct ink *ink, const struct result *res,
    double span, int names)
{
	struct label lab[1 + SUSPEND_MAX + STALLS_MAX];
	struct field fld = { 0, B_T + 2, 0, B_B - 2, 0 };
	struct shade {
		int64_t		 a, b;	/* ns since the run's start */
		unsigned	 k;	/* its kind */
	} sh[1 + SUSPEND_MAX + STALLS_MAX];
	double xa, xb;
	size_t n = 0;
	unsigned i, nsh = 0, k;

	if (res->wl.pid > 0)
		sh[nsh++] = (struct shade){ res->wl.start - res->start,
		    (res->wl.reaped ? res->wl.end : res->end) - res->start, 0 };
	for (i = 0; i < res->nsuspend && i < SUSPEND_MAX; i++)
		sh[nsh++] = (struct shade){ res->susp[i].from,
		    res->susp[i].to, 1 };
	for (i = 0; i < res->nstalls && i < STALLS_MAX; i++)
		sh[nsh++] = (struct shade){ res->stalls[i].when,
		    res->stalls[i].when + res->stalls[i].len, 2 };
	for (i = 0; i < nsh; i++) {
		k = sh[i].k;
		xa = B_L + (B_R - B_L) * fmax(0, (double)sh[i].a) / span;
		xb = B_L + (B_R - B_L) * fmin(span, (double)sh[i].b) / span;
		if (k == 0 && xb <= xa)
			continue;	/* an empty workload span */
		if (xb - xa < 1)
			xb = xa + 1;
		if (!names) {
			/* The workload's span has an id too. */
			fprintf(fp, "<rect class=\"%s\"%s x=\"%.1f\" y=\"%d\" "
			    "width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
			    shade_kind[k].cls, k == 0 ? " id=\"workload\"" : "",
			    xa, B_T, xb - xa, B_B - B_T, shade_kind[k].fill);
			continue;
		}
		snprintf(lab[n].text, sizeof(lab[n].text), "%s",
		    shade_kind[k].name);
		lab[n].color = shade_kind[k].color;
		lab[n].end = lab[n].ground = 0;
		lab[n].x = xa + 3;
		fld.x0 = xa + 2;
		fld.x1 = xb - 2;
		lab[n].y = B_T + 13 + 13 * k;
		if (!ink_fits(ink, &lab[n], lab, n, &fld, NULL, 0, 1)) {
			lab[n].y = B_B - 5 - 13 * k;
			if (!ink_fits(ink, &lab[n], lab, n, &fld, NULL, 0,
			    1))
				continue;
		}
		ink_label(fp, &lab[n++]);
	}
}

/* A series over time: its points, or its bands with p50 and p99 lines. */
static void
draw_series(FILE *fp, struct ink *ink, const struct timeline *tl,
    const struct lax *ax, double span, const char *id, const char *color,
    double dot)
{
	struct pen pen = { fp, ink, 0, 0, dot / 2 };
	double x, y0, y1, bw;
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
			ink_dot(&pen, XT(tl->points[i].when), ink_ylat(ax,
			    (double)tl->points[i].value, B_T, B_B));
		fputs("\"/>\n", fp);
		return;
	}
	bw = fmax(1, (B_R - B_L) / (span / (double)tl->width));
	pen.hw = bw / 2;
	fprintf(fp, "<path id=\"%s-bands\" fill=\"none\" stroke=\"%s\" "
	    "stroke-opacity=\"0.45\" stroke-width=\"%.1f\" d=\"", id, color,
	    bw);
	for (i = 0; i < tl->nused; i++) {
		if (tl->slice[i].n == 0)
			continue;
		x = XT(((double)i + 0.5) * (double)tl->width);
		y0 = ink_ylat(ax, (double)tl->slice[i].min, B_T, B_B);
		y1 = ink_ylat(ax, (double)tl->slice[i].max, B_T, B_B);
		ink_to(&pen, 1, x, y0 + 0.5);
		ink_v(&pen, y1 - 0.5);
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
	pen.hw = 0.75;
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
			if ((double)cnt < need || (v = timeline_quantile(tl,
			    from, from + g, q)) < 0) {
				first = 1;
				continue;
			}
			ink_to(&pen, first, XT((double)from *
			    (double)tl->width), ink_ylat(ax, (double)v, B_T,
			    B_B));
			ink_h(&pen, XT(fmin((double)(from + g) *
			    (double)tl->width, span)));
			first = 0;
		}
		fputs("\"/>\n", fp);
	}
#undef XT
}

/*
 * The panel over time: its keys on its title's line (the p50's and the
 * p99's lines over bands, the shades), the samples or each class's, the
 * timer's, and the p99 and the maximum labelled in the gutter.
 */
static void
draw_timeline(FILE *fp, struct ink *ink, const struct config *cfg,
    const struct result *res, const struct key *key, size_t nkey,
    const struct lax *ax, const int64_t *pct)
{
	static const struct field fld = { B_R + 8, B_T, C_L - 4, B_B + 4, 1 };
	const struct timeline *tl = res->ser[SER_LATENCY].tl;
	int dots = class_dots(cfg, res, key, nkey);
	int on[5] = { 0, 0, res->wl.pid > 0, res->nsuspend > 0,
	    res->nstalls > 0 };
	struct label lab[2];
	double span, unit, x = B_L + 136;
	char buf[32];
	size_t nlab = 0, i;

	span = (double)(res->end - res->start);
	if (span < NSEC_PER_MSEC)
		span = NSEC_PER_MSEC;
	on[0] = on[1] = !dots && tl != NULL && tl->npoints != tl->n &&
	    tl->qcounts != NULL;
	fprintf(fp, "<g id=\"timeline\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n<text x=\"%d\" "
	    "y=\"%d\" font-weight=\"bold\">Latency over time</text>\n", B_L,
	    B_T, B_R - B_L, B_B - B_T, B_L, B_T - 10);
	for (i = 0; i < 5; i++)
		if (on[i] && x < C_L - 120)
			x += 12 + (i < 2 ? ink_key(fp, x, B_T - 10, "key",
			    i ? P99_COLOR : P50_COLOR, "", "", NULL, i ? "p99" :
			    "p50") : ink_key(fp, x, B_T - 10, "key",
			    shade_kind[i - 2].fill, NULL, " stroke=\"#999\" "
			    "stroke-width=\"0.5\"", NULL,
			    shade_kind[i - 2].name));
	draw_shades(fp, ink, res, span, 0);
	ink_lat_grid(fp, ax, B_L, B_R, B_T, B_B, 1);
	unit = ink_time_axis(fp, B_L, B_R, B_B, span);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s "
	    "into the run</text>\n", (B_L + B_R) / 2, B_B + 32,
	    unit == NSEC_PER_SEC ? "seconds" : "milliseconds");
	fprintf(fp, "<text transform=\"translate(16 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">latency</text>\n", (B_T + B_B) / 2);
	draw_series(fp, ink, res->ser[SER_TIMER].tl, ax, span, "timer",
	    TIMER_COLOR, 2);
	/* Each class's samples, the lowest priority first (the 2007 figure). */
	for (i = nkey; dots && i-- > 0;)
		if (key[i].cls >= 0) {
			/* Its name after "class ". */
			snprintf(buf, sizeof(buf), "class-%s", key[i].name + 6);
			draw_series(fp, ink, res->classes[key[i].cls].ser[
			    SER_LATENCY].tl, ax, span, buf, key[i].sty.color,
			    3);
		}
	if (!dots)
		draw_series(fp, ink, tl, ax, span, "samples", LAT_COLOR, 3);
	draw_shades(fp, ink, res, span, 1);
	if (res->ser[SER_LATENCY].st.n == 0) {
		ink_empty(fp, ink, B_L, B_R, B_T, B_B);
		fputs("</g>\n", fp);
		return;
	}
	/* The p99 (when supported) and the maximum, labelled in the gutter. */
	for (i = 0; i < 2; i++) {
		int64_t v = i == 0 ? pct[2] : res->ser[SER_LATENCY].st.max;

		if (i == 0 && res->ser[SER_LATENCY].st.n < stats_need_q(0.99))
			continue;
		lab[nlab].px = B_R + 4;
		lab[nlab].py = ink_ylat(ax, (double)v, B_T, B_B);
		fprintf(fp, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" "
		    "x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\""
		    "%s\"/>\n", B_L, lab[nlab].py, B_R + 4, lab[nlab].py,
		    MARK_COLOR, i == 0 ? "5 3" : "1 3");
		lab[nlab].color = MARK_COLOR;
		snprintf(lab[nlab].text, sizeof(lab[nlab].text), "%s %s",
		    i == 0 ? "p99" : "max",
		    fmt_time(buf, sizeof(buf), (double)v, 3, PLOT_MICRO));
		nlab++;
	}
	ink_place(fp, ink, lab, nlab, &fld, NULL, 0);
	fputs("</g>\n", fp);
}

/* The distribution: bars along the latency axis, in % of the samples. */
static void
draw_distribution(FILE *fp, const struct ink *ink, const struct result *res,
    const struct lax *ax)
{
	const struct stats *st = &res->ser[SER_LATENCY].st;
	const struct hist *h = &st->hist;
	uint64_t *bins, top = 0;
	size_t nbins, i, b;
	double frac, y0, y1, x, xmax, step;

	fputs("<g id=\"distribution\">\n", fp);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">"
	    "Distribution</text>\n", C_L, B_T - 10);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fbfbfb\" stroke=\"#999\"/>\n", C_L, B_T, C_R - C_L,
	    B_B - B_T);
	ink_lat_grid(fp, ax, C_L, C_R, B_T, B_B, 0);
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
	step = ink_step(xmax, 3);
	xmax = ceil(xmax / step - 1e-9) * step;
	if (bins != NULL)
		ink_xticks(fp, C_L, C_R, B_B, xmax, step, "%");
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">share of "
	    "samples</text>\n", (C_L + C_R) / 2, B_B + 32);
	if (bins == NULL) {
		ink_empty(fp, ink, C_L, C_R, B_T, B_B);
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

/*
 * The legend at the percentile panel's right: a key a curve (a class's
 * name needs no escaping), how many were left out, and what the marks and
 * the shading mean.
 */
static void
draw_legend(FILE *fp, const struct key *key, size_t n, unsigned nleft)
{
	int y = A_T + 10;
	size_t i;

	fputs("<g id=\"legend\">\n", fp);
	for (i = 0; i < n; i++, y += 17)
		ink_key(fp, LEG_X, y, "key", key[i].sty.color, key[i].sty.dash,
		    "", key[i].cls >= 0 ? "class" : NULL, key[i].name);
	if (nleft > 0)
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%u more "
		    "not drawn: no colour left</text>\n", LEG_X, y, PLOT_SMALL,
		    nleft);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#555\">"
	    "Percentiles are marked where at least</text>\n<text x=\"%d\" "
	    "y=\"%d\" font-size=\"%d\" fill=\"#555\">ten samples lie beyond; "
	    "shaded: fewer.</text>\n<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "fill=\"#555\">latt %s</text>\n</g>\n", LEG_X, A_B - 34,
	    PLOT_SMALL, LEG_X, A_B - 20, PLOT_SMALL, LEG_X, A_B - 4, PLOT_SMALL,
	    LATT_VERSION);
}

/*
 * Whether the panel over time shows each class's dots: with two classes
 * or more, each with its curve (so its colour) and its timeline.
 */
static int
class_dots(const struct config *cfg, const struct result *res,
    const struct key *key, size_t nkey)
{
	unsigned rank[CLASS_MAX], n = 0;
	size_t i;

	for (i = 0; i < nkey; i++)
		if (key[i].cls >= 0 && res->classes[key[i].cls].ser[
		    SER_LATENCY].tl != NULL)
			n++;
	return n > 1 && n == round_classes(cfg, res, rank);
}

/* A class's place in the kernel's order: deadline, rt by prio, fair. */
static int
class_prio(const struct client_class *cl)
{
	if (cl->sched.policy == SCHED_FIFO || cl->sched.policy == SCHED_RR)
		return cl->sched.prio;
	return cl->sched.policy == SCHED_DEADLINE ? 100 : 0;
}

/* The classes' indices into rank, highest priority first, else as given. */
static void
by_priority(const struct config *cfg, unsigned *rank)
{
	unsigned i, j, t;

	for (i = 0; i < cfg->nclasses; i++)
		rank[i] = i;
	for (i = 1; i < cfg->nclasses; i++)
		for (j = i; j > 0 && class_prio(&cfg->classes[rank[j - 1]]) <
		    class_prio(&cfg->classes[rank[j]]); j--) {
			t = rank[j];
			rank[j] = rank[j - 1];
			rank[j - 1] = t;
		}
}

/* How many placement kinds the run's wake-ups woke in. */
static int
place_kinds(const struct result *res)
{
	int c, n = 0;

	for (c = 0; c < PLACE_KINDS; c++)
		n += res->ser[SER_PLACE_SAME_CPU + c].on &&
		    res->ser[SER_PLACE_SAME_CPU + c].st.n > 0;
	return n;
}
