/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotnoise.c: the plot's strip of what else ran (plotnoise.h), under
 * plot.c's time panel and on its x axis, drawn from the series noise.c
 * kept of the run (the last run's, with --repeat): the CPU time of
 * processes that are not latt's, in % of all the CPUs, as a shaded area
 * of steps (each sample's figure over the span it covers), with the
 * threshold from which a run is noisy (NOISY_FOREIGN_PCT) as a dashed
 * line named in the keys; the CPU pressure (PSI some, where the kernel
 * has it) as dashed steps on the same % axis; the runnable tasks at each
 * sample as a thin line on an axis of their own at the right; the CPU
 * frequency, where cpufreq reports it, as its range in the strip's key.
 * The strip's title line says whether the run was noisy and why.  A run
 * without a series (too short, or no /proc/stat) has no strip.  It reads
 * a finished result and never measures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/common.h"
#include "plot/plotink.h"
#include "plot/plotnoise.h"
#include "record/noise.h"
#include "result.h"

#define S_TITLE		14	/* from the strip's top: the title's line */
#define S_TOP		24	/* the area */
#define S_AREA		90	/* px, its height */
#define S_RIGHT		(PLOT_WIDTH - 40)	/* the title line's end */
#define FOREIGN_COLOR	INK_RED
#define PSI_COLOR	INK_PINK
#define PSI_DASH	"4 2"
#define RUN_COLOR	INK_GREEN
#define NOISY_COLOR	INK_RED
#define LINE_COLOR	"#333333"	/* the threshold */
#define LINE_DASH	"6 4"

/* The strip's geometry and what it draws from. */
struct strip {
	FILE			*fp;
	const struct noise	*n;
	double			 x0, x1;	/* the area */
	double			 at, ab;	/* its top and bottom */
	double			 span;		/* the run's time, ns */
	double			 off;		/* the series' start in it */
	double			 ymax;		/* % at the top */
	double			 rmax;		/* runnable tasks at the top */
};

static void	 draw_title(struct strip *);
static void	 draw_axes(struct strip *);
static void	 draw_steps(struct strip *, int psi);
static void	 draw_runnable(struct strip *);
static void	 draw_keys(struct strip *, int y);
static double	 xs(const struct strip *, double t);
static double	 ypct(const struct strip *, double pct);

int
plotnoise_height(const struct result *res)
{
	return res->noise.valid && res->noise.npts > 0 ? PLOTNOISE_HEIGHT :
	    0;
}

void
plotnoise_draw(FILE *fp, const struct result *res, int x0, int x1, int top)
{
	const struct noise *n = &res->noise;
	struct strip s = { 0 };
	double most = NOISY_FOREIGN_PCT, r = 0, y;
	size_t i;

	if (plotnoise_height(res) == 0)
		return;
	s.fp = fp;
	s.n = n;
	s.x0 = x0;
	s.x1 = x1;
	s.at = top + S_TOP;
	s.ab = s.at + S_AREA;
	s.span = fmax((double)(res->end - res->start), NSEC_PER_MSEC);
	s.off = (double)(n->begin.at - res->start);
	/* % from 0 to 25, 50 or 100; the runnable tasks to a power of 2. */
	for (i = 0; i < n->npts; i++) {
		most = fmax(most, fmax(n->pts[i].foreign_pct,
		    n->pts[i].psi_some_pct));
		r = fmax(r, n->pts[i].runnable);
	}
	s.ymax = most <= 25 ? 25 : most <= 50 ? 50 : 100;
	for (s.rmax = 2; s.rmax < r && s.rmax < 1e9; s.rmax *= 2)
		;
	fputs("<g id=\"noise\">\n", fp);
	draw_title(&s);
	draw_axes(&s);
	draw_steps(&s, 1);
	draw_steps(&s, 0);
	draw_runnable(&s);
	/*
	 * The threshold of a noisy run, over the traces, named in the keys
	 * (a label in the area would sit on them wherever they run).
	 */
	y = ypct(&s, NOISY_FOREIGN_PCT);
	fprintf(fp, "<line id=\"noise-threshold\" x1=\"%.0f\" y1=\"%.1f\" "
	    "x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"%s\"/>"
	    "\n", s.x0, y, s.x1, y, LINE_COLOR, LINE_DASH);
	draw_keys(&s, (int)s.ab + 34);
	fputs("</g>\n", fp);
}

/* Where s seconds into the series fall on the run's time, clamped. */
static double
xs(const struct strip *s, double t)
{
	double f = (s->off + t * NSEC_PER_SEC) / s->span;

	return s->x0 + (s->x1 - s->x0) * fmin(fmax(f, 0), 1);
}

static double
ypct(const struct strip *s, double pct)
{
	return s->ab - (s->ab - s->at) * fmin(fmax(pct, 0), s->ymax) /
	    s->ymax;
}

/*
 * The title: what the strip is, and at the end of its line whether the
 * run was noisy and why (or quiet, and how far from noisy).
 */
static void
draw_title(struct strip *s)
{
	static const char what[] = "What else ran: other processes' CPU %";
	const struct noise *n = s->n;
	double room;
	int y = (int)s->at - S_TOP + S_TITLE;

	fprintf(s->fp, "<text x=\"%.0f\" y=\"%d\" font-weight=\"bold\">%s"
	    "</text>\n", s->x0, y, what);
	/* The characters left of the line for the verdict. */
	room = (S_RIGHT - s->x0 - (sizeof(what) + 4) * PLOT_CHAR_W * 12 *
	    1.1) / (PLOT_CHAR_W * PLOT_SMALL);
	if (n->noisy) {
		fprintf(s->fp, "<text id=\"noise-noisy\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"end\" font-size=\"%d\" font-weight=\"bold\" "
		    "fill=\"%s\">noisy: ", S_RIGHT, y, PLOT_SMALL, NOISY_COLOR);
		ink_text(s->fp, n->why, (size_t)room - 7);
		fputs("</text>\n", s->fp);
	} else if (n->foreign_pct >= 0)
		fprintf(s->fp, "<text id=\"noise-quiet\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"end\" font-size=\"%d\" fill=\"#555\">quiet: "
		    "others took %.0f%% of the CPUs (noisy from %.0f%%)"
		    "</text>\n", S_RIGHT, y, PLOT_SMALL, n->foreign_pct,
		    NOISY_FOREIGN_PCT);
}

/*
 * The area's frame, its % axis at the left with gridlines, the runnable
 * tasks' axis at the right, and the run's time below as the time
 * panel's, in its unit.
 */
static void
draw_axes(struct strip *s)
{
	FILE *fp = s->fp;
	double v, y, step;

	fprintf(fp, "<rect id=\"noise-area\" x=\"%.0f\" y=\"%.0f\" "
	    "width=\"%.0f\" height=\"%d\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n",
	    s->x0, s->at, s->x1 - s->x0, S_AREA);
	step = s->ymax / 5;
	for (v = 0; v <= s->ymax * (1 + 1e-9); v += step) {
		y = ypct(s, v);
		fprintf(fp, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" "
		    "y2=\"%.1f\" stroke=\"#e4e4e4\"/><text class=\"pct\" "
		    "x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\" "
		    "font-size=\"%d\">%g%%</text>\n", s->x0, y, s->x1, y,
		    s->x0 - 5, y + 4, PLOT_SMALL, v);
	}
	fprintf(fp, "<text transform=\"translate(16 %.0f) rotate(-90)\" "
	    "text-anchor=\"middle\" font-size=\"%d\">%% of all CPUs</text>\n",
	    (s->at + s->ab) / 2, PLOT_SMALL);
	for (v = 0; v <= s->rmax; v += s->rmax / 2) {
		y = s->ab - (s->ab - s->at) * v / s->rmax;
		fprintf(fp, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" "
		    "y2=\"%.1f\" stroke=\"%s\"/><text x=\"%.0f\" y=\"%.1f\" "
		    "font-size=\"%d\" fill=\"%s\">%g</text>\n", s->x1, y,
		    s->x1 + 4, y, RUN_COLOR, s->x1 + 6, y + 4, PLOT_SMALL,
		    RUN_COLOR, v);
	}
	fprintf(fp, "<text transform=\"translate(%.0f %.0f) rotate(-90)\" "
	    "text-anchor=\"middle\" font-size=\"%d\" fill=\"%s\">runnable"
	    "</text>\n", s->x1 + 44, (s->at + s->ab) / 2, PLOT_SMALL,
	    RUN_COLOR);
	ink_time_axis(fp, s->x0, s->x1, s->ab, s->span);
}

/*
 * The foreign CPU (psi 0), an area of steps: each sample's figure from
 * the sample before it to its own time, a stretch of unknown figures
 * left open; or the pressure (psi 1), the same steps as a dashed line.
 * A step's level is written once (V), its end once (H), so that every
 * sample is one H of the path.
 */
static void
draw_steps(struct strip *s, int psi)
{
	const struct noise_point *p;
	double v;
	size_t i;
	int open = 0;

	if (psi && !s->n->psi)
		return;
	if (psi)
		fprintf(s->fp, "<path id=\"noise-psi\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"1.5\" "
		    "stroke-dasharray=\"%s\" d=\"", PSI_COLOR, PSI_DASH);
	else
		fprintf(s->fp, "<path id=\"noise-foreign\" fill=\"%s\" "
		    "fill-opacity=\"0.3\" stroke=\"%s\" stroke-width=\"1.5\" "
		    "stroke-linejoin=\"round\" d=\"", FOREIGN_COLOR,
		    FOREIGN_COLOR);
	for (i = 0; i < s->n->npts; i++) {
		p = &s->n->pts[i];
		v = psi ? p->psi_some_pct : p->foreign_pct;
		if (v < 0) {
			if (open && !psi)
				fprintf(s->fp, "V%.1fZ", s->ab);
			open = 0;
			continue;
		}
		if (!open)
			fprintf(s->fp, "M%.1f %.1f", xs(s, p->t - p->span),
			    psi ? ypct(s, v) : s->ab);
		fprintf(s->fp, "V%.1fH%.1f", ypct(s, v), xs(s, p->t));
		open = 1;
	}
	if (open && !psi)
		fprintf(s->fp, "V%.1fZ", s->ab);
	fputs("\"/>\n", s->fp);
}

/* The runnable tasks at each sample, a line on the right axis. */
static void
draw_runnable(struct strip *s)
{
	const struct noise_point *p;
	size_t i;
	int first = 1;

	fprintf(s->fp, "<path id=\"noise-runnable\" fill=\"none\" "
	    "stroke=\"%s\" stroke-width=\"1.2\" stroke-linejoin=\"round\" "
	    "d=\"", RUN_COLOR);
	for (i = 0; i < s->n->npts; i++) {
		p = &s->n->pts[i];
		if (p->runnable < 0) {
			first = 1;
			continue;
		}
		fprintf(s->fp, "%c%.1f %.1f", first ? 'M' : 'L', xs(s, p->t),
		    s->ab - (s->ab - s->at) * fmin(p->runnable, s->rmax) /
		    s->rmax);
		first = 0;
	}
	fputs("\"/>\n", s->fp);
}

/* The strip's keys, and the CPU frequency's range where cpufreq has it. */
static void
draw_keys(struct strip *s, int y)
{
	double x = s->x0, lo = -1, hi = -1, m;
	char name[32];
	size_t i;

	x += ink_key(s->fp, x, y, "noise-key", FOREIGN_COLOR, NULL,
	    " fill-opacity=\"0.3\" stroke=\"" FOREIGN_COLOR "\"", NULL,
	    "other processes' CPU %") + 12;
	if (s->n->psi)
		x += ink_key(s->fp, x, y, "noise-key", PSI_COLOR, PSI_DASH, "",
		    NULL, "CPU pressure %") + 12;
	x += ink_key(s->fp, x, y, "noise-key", RUN_COLOR, "", "", NULL,
	    "runnable tasks (right)") + 12;
	snprintf(name, sizeof(name), "noisy from %.0f%%", NOISY_FOREIGN_PCT);
	x += ink_key(s->fp, x, y, "noise-key", LINE_COLOR, LINE_DASH, "", NULL,
	    name) + 12;
	for (i = 0; s->n->cpufreq && i < s->n->npts; i++) {
		if ((m = s->n->pts[i].mhz) <= 0)
			continue;
		lo = lo < 0 || m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	if (hi <= 0)
		return;
	fprintf(s->fp, "<text id=\"noise-mhz\" x=\"%.1f\" y=\"%d\" "
	    "font-size=\"%d\">cpufreq ", x, y, PLOT_SMALL);
	if (hi - lo < 0.5)
		fprintf(s->fp, "%.0f MHz", hi);
	else
		fprintf(s->fp, "%.0f to %.0f MHz", lo, hi);
	fputs("</text>\n", s->fp);
}
