/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SVG of a finished --sweep: its curve, one point a value of the
 * setting swept, drawn from the sweep's points in the result (sweep.c
 * summed each value's runs up); it never measures.  The swept value is on
 * x: a count (clients, a load's processes) on a linear axis from 0, so
 * that a straight line is a constant cost a task on the run queue; any
 * other setting (work, a slice, a delay) one category a value, evenly
 * spaced in the order given.  Latency is on a logarithmic y axis: the
 * p50 and the p99 of each value's runs together, each with the band of
 * its 95% interval over the runs where a value has 3 or more with it.
 * With loads, each one's operations a second (all its processes, over
 * the time they ran) are a dashed line on a second, linear axis at the
 * right.  latt's floor (the ping-pong of two threads on one CPU) is a
 * dotted line: what part of a latency is the instrument.  Strokes and
 * labels go through plotink.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "plot/plotcurve.h"
#include "plot/plotink.h"
#include "result.h"

#define H		620
#define P_L		90	/* the panel */
#define P_R		880
#define P_T		110
#define P_B		490
#define PAD		24	/* px between the frame and an end value */
#define P50_COLOR	"#000000"
#define P99_COLOR	INK_PINK	/* plot.c's p99 */
#define FLOOR_COLOR	INK_GREY
#define RATE_DASH	"7 4"
/* The loads' colours, no latency line's, each of a hue of its own. */
static const char *const rate_colors[] = { INK_GREEN, INK_ORANGE,
    INK_BLUE, INK_RED, INK_CYAN };
#define NRATE_COLORS	(sizeof(rate_colors) / sizeof(rate_colors[0]))

/* The two latency lines. */
static const struct {
	const char	*name;
	const char	*color;
} lines[2] = { { "p50", P50_COLOR }, { "p99", P99_COLOR } };

/* Where things go: each value's x, in drawing order, and the y axes. */
struct frame {
	const struct sweep_result *sr;
	unsigned	 order[SWEEP_MAX];	/* the points left to right */
	double		 x[SWEEP_MAX];		/* each point's */
	int		 linear;		/* a count on a linear axis */
	double		 vmax;			/* its end */
	struct lax	 ax;			/* latency */
	double		 rmax;			/* the rate axis' end, or 0 */
};

static void	 place_x(struct frame *, const struct config *);
static double	 ylat(const struct frame *, double);
static double	 pct_of(const struct sweep_point *, unsigned k);
static double	 rate_of(const struct sweep_point *, unsigned l);
static void	 draw_title(FILE *, const struct config *,
		    const struct result *);
static void	 x_title(FILE *, const struct config *);
static void	 draw_axes(FILE *, const struct frame *,
		    const struct config *, const struct result *);
static void	 draw_band(FILE *, const struct frame *, unsigned k);
static double	 trace_y(const struct frame *, unsigned o, unsigned t);
static int	 draw_trace(FILE *, struct ink *, const struct frame *,
		    unsigned t, struct label *);
static void	 draw_legend(FILE *, const struct frame *,
		    const struct result *, int keys);
static const char *tick_rate(char *, size_t, double);

int
plotcurve_write(FILE *fp, const struct config *cfg,
    const struct result *res)
{
	static const struct field fld = { P_L + 2, P_T + 2, P_R - 2, P_B - 2,
	    0 };
	const struct sweep_result *sr = res->sweep;
	struct frame f;
	struct ink ink = { 0 };
	struct label lab[2 + LOAD_MAX];
	double lo = INFINITY, hi = 0, v, r;
	unsigned i, k, nload, nlab = 0;
	int bands = 0, drawn = 0;

	memset(&f, 0, sizeof(f));
	f.sr = sr;
	place_x(&f, cfg);
	/* The latency axis: every line and band, and the floor. */
	for (i = 0; i < sr->n; i++)
		for (k = 0; k < 2; k++) {
			if ((v = pct_of(&sr->pt[i], k)) <= 0)
				continue;
			drawn |= 1 << k;
			r = sr->pt[i].pct_f[k] > 1 ? sr->pt[i].pct_f[k] : 1;
			lo = fmin(lo, v / r);
			hi = fmax(hi, v * r);
			bands |= sr->pt[i].pct_f[k] >= 1;
		}
	if (res->floor.valid && res->floor.pingpong_ns > 0 && hi > 0)
		lo = fmin(lo, res->floor.pingpong_ns);
	ink_lax(&f.ax, lo, hi);
	/* The rate axis: from 0 to a round step above the highest. */
	nload = sr->n > 0 ? sr->pt[0].nload : 0;
	for (i = 0; i < sr->n; i++)
		for (k = 0; k < nload && k < sr->pt[i].nload; k++)
			f.rmax = fmax(f.rmax, rate_of(&sr->pt[i], k));
	if (f.rmax > 0)
		f.rmax = ceil(f.rmax * 1.05 / ink_step(f.rmax, 5)) *
		    ink_step(f.rmax, 5);

	ink_begin(fp, H, sr->name);
	draw_title(fp, cfg, res);
	draw_axes(fp, &f, cfg, res);
	for (k = 0; k < 2; k++)
		draw_band(fp, &f, k);
	/* The loads' rates under the latency lines. */
	for (k = 0; k < nload; k++)
		nlab += (unsigned)draw_trace(fp, &ink, &f, 2 + k, &lab[nlab]);
	for (k = 0; k < 2; k++)
		nlab += (unsigned)draw_trace(fp, &ink, &f, k, &lab[nlab]);
	if (nlab == 0)
		ink_empty(fp, &ink, P_L, P_R, P_T, P_B);
	ink_place(fp, &ink, lab, nlab, &fld, NULL, 0);
	draw_legend(fp, &f, res, drawn | bands << 2);
	fputs("</svg>\n", fp);
	ink_free(&ink);
	return ferror(fp) ? -1 : 0;
}

/*
 * Each point's x: a count (clients, a load's processes) in proportion on
 * an axis from 0, left to right by value; any other setting a category,
 * in the order given.
 */
static void
place_x(struct frame *f, const struct config *cfg)
{
	const struct sweep_result *sr = f->sr;
	unsigned i, j, t;

	f->linear = cfg->sweep.kind == SWEEP_CLIENTS ||
	    cfg->sweep.kind == SWEEP_LOAD;
	for (i = 0; i < sr->n; i++)
		f->order[i] = i;
	if (!f->linear) {
		for (i = 0; i < sr->n; i++)
			f->x[i] = P_L + (P_R - P_L) * (i + 0.5) / sr->n;
		return;
	}
	for (i = 1; i < sr->n; i++)
		for (j = i; j > 0 && cfg->sweep.v[f->order[j - 1]] >
		    cfg->sweep.v[f->order[j]]; j--) {
			t = f->order[j];
			f->order[j] = f->order[j - 1];
			f->order[j - 1] = t;
		}
	for (i = 0, f->vmax = 1; i < sr->n; i++)
		f->vmax = fmax(f->vmax, (double)cfg->sweep.v[i]);
	for (i = 0; i < sr->n; i++)
		f->x[i] = P_L + PAD + (P_R - P_L - 2 * PAD) *
		    (double)cfg->sweep.v[i] / f->vmax;
}

/* Where a latency (ns) falls on the panel's axis. */
static double
ylat(const struct frame *f, double ns)
{
	return ink_ylat(&f->ax, ns, P_T, P_B);
}

/*
 * A point's p50 (k 0) or p99 (k 1) of its runs together, ns; 0 when fewer
 * than ten of its samples lie beyond it (the table's "-").
 */
static double
pct_of(const struct sweep_point *p, unsigned k)
{
	enum stat_kind sk = k == 0 ? STAT_P50 : STAT_P99;

	if (p->lat.n < stats_need(sk))
		return 0;
	return stats_value(&p->lat, sk);
}

/* Load l's operations a second at a point (its runs together), or 0. */
static double
rate_of(const struct sweep_point *p, unsigned l)
{
	if (l >= p->nload || p->load_ns[l] <= 0)
		return 0;
	return (double)p->load_ops[l] * NSEC_PER_SEC / (double)p->load_ns[l];
}

/* The title: what was swept, what ran beside it, where and when. */
static void
draw_title(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct sweep_result *sr = res->sweep;
	char a[32], b[32], *what;
	unsigned i;

	fprintf(fp, "<g id=\"title\">\n<text x=\"20\" y=\"28\" "
	    "font-size=\"16\" font-weight=\"bold\">latt: wake-up latency "
	    "against %s</text>\n", sr->name);
	fprintf(fp, "<text id=\"settings\" x=\"20\" y=\"48\">%u value%s, %u "
	    "run%s each; ", sr->n, sr->n == 1 ? "" : "s", cfg->repeat,
	    cfg->repeat == 1 ? "" : "s");
	if (cfg->sweep.kind != SWEEP_CLIENTS)
		fprintf(fp, "%u client%s, ", cfg->nclients,
		    cfg->nclients == 1 ? "" : "s");
	if (cfg->sweep.kind != SWEEP_DELAY)
		fprintf(fp, "delays %s to %s, ", cfg->min_delay == 0 ? "0" :
		    fmt_time(a, sizeof(a), (double)cfg->min_delay, 0,
		    PLOT_MICRO), fmt_time(b, sizeof(b),
		    (double)cfg->max_delay, 0, PLOT_MICRO));
	what = config_command(cfg);
	if (cfg->ncmd > 0)
		ink_text(fp, what != NULL ? what : "?", 50);
	else
		fputs("no command", fp);
	free(what);
	for (i = 0; i < cfg->nload; i++)
		fprintf(fp, "%s %s", i > 0 ? "," : ", loads",
		    config_load_name(cfg->load[i].kind));
	if (cfg->nload == 0 && cfg->ncmd == 0)
		fputs(", no load", fp);
	fprintf(fp, "; seed %llu</text>\n", (unsigned long long)cfg->seed);
	ink_system(fp, res->env.kernel_release, res->env.hostname,
	    res->start_wall, "the last run at ");
	fputs("</g>\n", fp);
}

/* What the x axis says: the setting swept, in words and its unit. */
static void
x_title(FILE *fp, const struct config *cfg)
{
	static const char *const what[SWEEP_KNOB + 1] = {
		[SWEEP_CLIENTS] = "the clients woken each round (-c)",
		[SWEEP_WORK] = "KiB each client works over (-x)",
		[SWEEP_SLICE] = "every client's EEVDF slice",
		[SWEEP_DELAY] = "the sleep between rounds (-f = -t)",
	};
	const char *load;

	fputs(cfg->sweep.name, fp);
	if (cfg->sweep.kind == SWEEP_LOAD) {
		load = config_load_name(cfg->load[0].kind);
		fprintf(fp, ": %s processes (-l %s:N)", load, load);
	} else if (what[cfg->sweep.kind] != NULL)
		fprintf(fp, ": %s", what[cfg->sweep.kind]);
}

/*
 * The panel, its latency gridlines and labels at every decade (and at 2
 * and 5 times it over 3 decades or fewer), the x axis with a tick at each
 * value or at round counts, the rate axis at the right with loads, and
 * the floor's line.
 */
static void
draw_axes(FILE *fp, const struct frame *f, const struct config *cfg,
    const struct result *res)
{
	char buf[32];
	double y, v, x, step;
	unsigned i;

	fprintf(fp, "<g id=\"axes\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n", P_L, P_T,
	    P_R - P_L, P_B - P_T);
	ink_lat_grid(fp, &f->ax, P_L, P_R, P_T, P_B, 1);
	fprintf(fp, "<text id=\"y-title\" transform=\"translate(20 %d) "
	    "rotate(-90)\" text-anchor=\"middle\">wake-up latency (log)"
	    "</text>\n", (P_T + P_B) / 2);
	/* x: round counts from 0, or each value's own label. */
	if (f->linear) {
		step = fmax(1, ink_step(f->vmax, 10));
		for (v = 0; v <= f->vmax * (1 + 1e-9); v += step) {
			x = P_L + PAD + (P_R - P_L - 2 * PAD) * v / f->vmax;
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			    "y2=\"%d\" stroke=\"#333\"/><text class=\"tick\" "
			    "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			    "font-size=\"%d\">%g</text>\n", x, P_B, x, P_B + 4,
			    x, P_B + 16, PLOT_SMALL, v);
		}
	} else
		for (i = 0; i < f->sr->n; i++) {
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			    "y2=\"%d\" stroke=\"#333\"/><text class=\"tick\" "
			    "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			    "font-size=\"%d\">", f->x[i], P_B, f->x[i],
			    P_B + 4, f->x[i], P_B + 16, PLOT_SMALL);
			if (cfg->sweep.kind == SWEEP_SLICE ||
			    cfg->sweep.kind == SWEEP_DELAY)
				fputs(fmt_time(buf, sizeof(buf),
				    (double)cfg->sweep.v[i], 0, PLOT_MICRO),
				    fp);
			else
				ink_text(fp, f->sr->pt[i].value, 16);
			fputs("</text>\n", fp);
		}
	fprintf(fp, "<text id=\"x-title\" x=\"%d\" y=\"%d\" "
	    "text-anchor=\"middle\">", (P_L + P_R) / 2, P_B + 36);
	x_title(fp, cfg);
	fputs("</text>\n", fp);
	if (f->rmax > 0) {
		step = ink_step(f->rmax, 5);
		for (v = 0; v <= f->rmax * (1 + 1e-9); v += step) {
			y = P_B - (P_B - P_T) * v / f->rmax;
			fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			    "y2=\"%.1f\" stroke=\"#333\"/><text x=\"%d\" "
			    "y=\"%.1f\" font-size=\"%d\">%s</text>\n", P_R, y,
			    P_R + 4, y, P_R + 7, y + 4, PLOT_SMALL,
			    tick_rate(buf, sizeof(buf), v));
		}
		fprintf(fp, "<text id=\"rate-title\" transform=\"translate(%d "
		    "%d) rotate(90)\" text-anchor=\"middle\">the loads' "
		    "operations a second</text>\n", PLOT_WIDTH - 30,
		    (P_T + P_B) / 2);
	}
	if (res->floor.valid && res->floor.pingpong_ns > 0) {
		y = ylat(f, res->floor.pingpong_ns);
		fprintf(fp, "<line id=\"floor\" x1=\"%d\" y1=\"%.1f\" "
		    "x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray="
		    "\"1 3\"/>\n", P_L, y, P_R, y, FLOOR_COLOR);
	}
	fputs("</g>\n", fp);
}

/*
 * The band of line k (p50, p99): its 95% interval over the runs at each
 * value that has one, joined across neighbours that both have one; a
 * value alone is a short bar.
 */
static void
draw_band(FILE *fp, const struct frame *f, unsigned k)
{
	const struct sweep_point *pt = f->sr->pt;
	unsigned a, b, i, n = f->sr->n, o, side;
	double v, r, y, dx;

#define HAS(j)	(pct_of(&pt[f->order[j]], k) > 0 && \
		    pt[f->order[j]].pct_f[k] >= 1)
	fprintf(fp, "<path id=\"%s-band\" class=\"band\" fill=\"%s\" "
	    "fill-opacity=\"0.18\" stroke=\"none\" d=\"", lines[k].name,
	    lines[k].color);
	for (a = 0; a < n; a = b) {
		if (!HAS(a)) {
			b = a + 1;
			continue;
		}
		for (b = a + 1; b < n && HAS(b); b++)
			;
		/* The upper edge left to right, the lower one back. */
		for (side = 0; side < 2; side++)
			for (i = 0; i < b - a; i++) {
				o = f->order[side == 0 ? a + i : b - 1 - i];
				v = pct_of(&pt[o], k);
				r = pt[o].pct_f[k];
				y = ylat(f, side == 0 ? v * r : v / r);
				dx = b - a > 1 ? 0 : side == 0 ? -5 : 5;
				fprintf(fp, "%s%.1f %.1f", side + i == 0 ? "M" :
				    "L", f->x[o] + dx, y);
				if (b - a == 1)
					fprintf(fp, "L%.1f %.1f", f->x[o] - dx,
					    y);
			}
		fputc('Z', fp);
	}
	fputs("\"/>\n", fp);
#undef HAS
}

/*
 * Where trace t falls at point o: the p50 (t 0) or the p99 (t 1) on the
 * latency axis, or load t - 2's operations a second on the rate axis; NAN
 * where the point has none.
 */
static double
trace_y(const struct frame *f, unsigned o, unsigned t)
{
	double v = t < 2 ? pct_of(&f->sr->pt[o], t) :
	    rate_of(&f->sr->pt[o], t - 2);

	if (v <= 0)
		return NAN;
	return t < 2 ? ylat(f, v) : P_B - (P_B - P_T) * v / f->rmax;
}

/*
 * Trace t (trace_y) through the values that have it (a value without it
 * breaks it), a dot at each (a square for a rate), and a label at its last
 * point, its name or its load's.  Returns 1 with a label made.
 */
static int
draw_trace(FILE *fp, struct ink *ink, const struct frame *f, unsigned t,
    struct label *lab)
{
	struct pen pen = { fp, ink, 0, 0, 1 };
	int rate = t >= 2, move = 1;
	const char *color = rate ? rate_colors[(t - 2) % NRATE_COLORS] :
	    lines[t].color;
	char id[16];
	unsigned j, o, n = 0;
	double y;

	if (rate && f->rmax <= 0)
		return 0;
	if (rate)
		snprintf(id, sizeof(id), "load-%u", t - 2);
	else
		snprintf(id, sizeof(id), "%s", lines[t].name);
	fprintf(fp, "<path id=\"%s%s\" class=\"%s\" fill=\"none\" "
	    "stroke=\"%s\" stroke-width=\"%s\" %s d=\"", id, rate ? "-rate" :
	    "", rate ? "rate" : "line", color, rate ? "1.5" : "2", rate ?
	    "stroke-dasharray=\"" RATE_DASH "\"" : "stroke-linejoin=\"round\"");
	for (j = 0; j < f->sr->n; j++) {
		if (isnan(y = trace_y(f, o = f->order[j], t))) {
			move = 1;
			continue;
		}
		ink_to(&pen, move, f->x[o], y);
		move = 0;
	}
	/* A dot at each, by the round or square cap of a line of none. */
	pen.hw = rate ? 3 : INK_MARK_R;
	fprintf(fp, "\"/>\n<path id=\"%s-points\" class=\"%s\" "
	    "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
	    "stroke-linecap=\"%s\" d=\"", id, rate ? "rate-points" : "points",
	    color, 2 * pen.hw, rate ? "square" : "round");
	for (j = 0; j < f->sr->n; j++) {
		if (isnan(y = trace_y(f, o = f->order[j], t)))
			continue;
		ink_dot(&pen, f->x[o], y);
		lab->px = f->x[o];
		lab->py = y;
		n++;
	}
	fputs("\"/>\n", fp);
	if (n == 0)
		return 0;
	lab->color = color;
	snprintf(lab->text, sizeof(lab->text), "%s%s", rate ?
	    config_load_name(f->sr->pt[0].load_kind[t - 2]) : lines[t].name,
	    rate ? "/s" : "");
	return 1;
}

/*
 * What the lines, bands and dashes are, and a line of caveats; keys: bit 0
 * the p50 was drawn, bit 1 the p99, bit 2 a band.
 */
static void
draw_legend(FILE *fp, const struct frame *f, const struct result *res,
    int keys)
{
	const struct sweep_result *sr = f->sr;
	unsigned l, nload = f->rmax > 0 && sr->n > 0 ? sr->pt[0].nload : 0;
	int nfloor = res->floor.valid && res->floor.pingpong_ns > 0;
	char name[64], buf[32];
	double x = P_L;
	int y = H - 54;

	fputs("<g id=\"legend\">\n", fp);
	if (keys & 1)
		x += ink_key(fp, x, y, "key", P50_COLOR, "", "", NULL, "p50") +
		    14;
	if (keys & 2)
		x += ink_key(fp, x, y, "key", P99_COLOR, "", "", NULL, "p99") +
		    14;
	if (keys & 4)
		x += ink_key(fp, x, y, "key", "#555555", NULL,
		    " fill-opacity=\"0.18\"", NULL,
		    "95% interval over the runs") + 14;
	/* Each load's rate, then latt's floor, a row more when one is full. */
	for (l = 0; l < nload + nfloor; l++) {
		if (l < nload)
			snprintf(name, sizeof(name), "%s: %s a second",
			    config_load_name(sr->pt[0].load_kind[l]),
			    config_load_unit(sr->pt[0].load_kind[l]));
		else
			snprintf(name, sizeof(name), "latt's floor: "
			    "ping-pong %s", fmt_time(buf, sizeof(buf),
			    res->floor.pingpong_ns, 3, PLOT_MICRO));
		if (x + strlen(name) * PLOT_CHAR_W * PLOT_SMALL + PLOT_KEY_W >
		    PLOT_WIDTH - 20) {
			x = P_L;
			y += 16;
		}
		x += ink_key(fp, x, y, "key", l < nload ? rate_colors[l %
		    NRATE_COLORS] : FLOOR_COLOR, l < nload ? RATE_DASH : "1 3",
		    "", NULL, name) + 14;
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#555\">"
	    "Each point: a value's runs together; a percentile only where "
	    "ten of their samples lie beyond it.  Bands: t over the runs' "
	    "logarithms (3 runs or more).  latt %s</text>\n", P_L, H - 18,
	    PLOT_SMALL, LATT_VERSION);
	fputs("</g>\n", fp);
}

/* A tick's rate: fmt_num's, without the zeros that end its figures. */
static const char *
tick_rate(char *buf, size_t len, double v)
{
	size_t n;
	char *e;

	fmt_num(buf, len, v, 1);
	e = buf + (n = strspn(buf, "-.0123456789"));
	if (memchr(buf, '.', n) != NULL) {
		while (e[-1] == '0')
			e--;
		if (e[-1] == '.')
			e--;
	}
	memmove(e, buf + n, strlen(buf + n) + 1);
	return buf;
}
