/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotframe.c: the plot's panels of the frame classes (frame=), below
 * plot.c's three: for each frame class, its frame times over the run, the
 * period as a dashed line (a frame above it missed its deadline), the
 * frames that met it as dots of one colour and those that missed as red
 * dots; past TIMELINE_POINTS frames, each time slice's span from its
 * shortest to its longest frame, red where it reaches above the period.
 * The y axis is linear from 0, to the longest frame or twice the period.
 * It reads a finished result (the timelines feed.c filled) and never
 * measures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "plot/plotframe.h"
#include "plot/plotink.h"
#include "result.h"
#include "stats.h"

#define P_L		84	/* a panel's plot area, as plot.c's */
#define P_R		960
#define P_H		PLOTFRAME_HEIGHT
#define P_TOP		40	/* from the panel's top to its area */
#define P_BOT		44	/* below the area: the axis and its name */
#define P_MAX		4	/* frame classes drawn */
#define MET_COLOR	"#1f77b4"
#define MISS_COLOR	"#d62728"

static void	 draw_panel(FILE *, const struct client_class *,
		    const struct class_result *, double span, int top);
static void	 draw_frames(FILE *, const char *, const struct timeline *,
		    double span, int64_t period, double ymax, int top,
		    int bottom);

int
plotframe_height(const struct config *cfg)
{
	unsigned i, n = 0;

	for (i = 0; i < cfg->nclasses; i++)
		n += cfg->classes[i].frame > 0;
	return (int)(n < P_MAX ? n : P_MAX) * P_H;
}

void
plotframe_draw(FILE *fp, const struct config *cfg, const struct result *res,
    int top)
{
	double span = (double)(res->end - res->start);
	unsigned i, n = 0;

	if (res->classes == NULL)
		return;
	if (span < NSEC_PER_MSEC)
		span = NSEC_PER_MSEC;
	for (i = 0; i < cfg->nclasses && n < P_MAX; i++) {
		if (cfg->classes[i].frame == 0)
			continue;
		draw_panel(fp, &cfg->classes[i], &res->classes[i], span,
		    top + (int)n++ * P_H);
	}
}

/* One frame class's panel, from top down P_H px. */
static void
draw_panel(FILE *fp, const struct client_class *cl,
    const struct class_result *c, double span, int top)
{
	const struct stats *ft = &c->ser[SER_FRAME_TIME].st;
	uint64_t all = frame_deadlines(&c->fr);
	int at = top + P_TOP, ab = top + P_H - P_BOT;
	double ymax = 2.0 * (double)cl->frame, step, t, y, unit;
	char p[32], b[32];

	if (ft->n > 0 && (double)ft->max > ymax)
		ymax = (double)ft->max;
	step = ink_step(ymax / NSEC_PER_MSEC, 5) * NSEC_PER_MSEC;
	ymax = ceil(ymax / step) * step;
	fprintf(fp, "<g id=\"frames-%s\">\n<text x=\"%d\" y=\"%d\" "
	    "font-weight=\"bold\">Frames of %s: frame time over the run"
	    "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
	    "font-size=\"%d\" fill=\"#555\">every %s, busy %s: ", cl->name,
	    P_L, at - 10, cl->name, P_R, at - 10, PLOT_SMALL, fmt_time(p,
	    sizeof(p), (double)cl->frame, 0, "us"), fmt_time(b, sizeof(b),
	    (double)cl->busy, 0, "us"));
	if (all > 0)
		fprintf(fp, "%.2f%% of %llu deadlines met; red: missed",
		    100.0 * (double)c->fr.met / (double)all,
		    (unsigned long long)all);
	else
		fputs("no frame ended", fp);
	fprintf(fp, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n", P_L, at,
	    P_R - P_L, ab - at);
	/* y: frame time in ms from 0. */
	for (t = 0; t <= ymax * (1 + 1e-9); t += step) {
		y = ab - (ab - at) * t / ymax;
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#e4e4e4\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\" font-size=\"%d\">%g ms</text>\n", P_L,
		    y, P_R, y, P_L - 4, y + 4, PLOT_SMALL, t / NSEC_PER_MSEC);
	}
	unit = ink_time_axis(fp, P_L, P_R, ab, span);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
	    "font-size=\"%d\">%s into the run</text>\n", (P_L + P_R) / 2,
	    ab + 30, PLOT_SMALL, unit == NSEC_PER_SEC ? "seconds" :
	    "milliseconds");
	draw_frames(fp, cl->name, c->ser[SER_FRAME_TIME].tl, span, cl->frame,
	    ymax, at, ab);
	y = ab - (ab - at) * (double)cl->frame / ymax;
	fprintf(fp, "<line id=\"frames-%s-period\" x1=\"%d\" y1=\"%.1f\" "
	    "x2=\"%d\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"6 4\"/>"
	    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%d\" "
	    "fill=\"#333\">period %s</text>\n</g>\n", cl->name, P_L, y, P_R,
	    y, P_R - 4, y - 4, PLOT_SMALL, p);
}

/*
 * The frames: each one a dot (met, then missed, two paths, empty without
 * a frame), or past TIMELINE_POINTS, each slice's span from its shortest
 * to its longest frame, the part above the period red.
 */
static void
draw_frames(FILE *fp, const char *name, const struct timeline *tl,
    double span, int64_t period, double ymax, int top, int bottom)
{
	double x, y0, y1, yp = bottom - (bottom - top) * (double)period / ymax;
	size_t i;
	int miss;

#define XT(ns)	(P_L + (P_R - P_L) * (double)(ns) / span)
#define YF(ns)	(bottom - (bottom - top) * (double)(ns) / ymax)
	for (miss = 0; miss < 2; miss++) {
		fprintf(fp, "<path id=\"frames-%s-%s\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"3\" "
		    "stroke-linecap=\"round\" d=\"", name, miss ? "missed" :
		    "met", miss ? MISS_COLOR : MET_COLOR);
		for (i = 0; tl != NULL && tl->npoints == tl->n &&
		    i < tl->npoints; i++) {
			if ((tl->points[i].value > period) != miss)
				continue;
			x = XT(tl->points[i].when);
			fprintf(fp, "M%.1f %.1fh0", x,
			    YF(tl->points[i].value));
		}
		for (i = 0; tl != NULL && tl->npoints != tl->n &&
		    i < tl->nused; i++) {
			if (tl->slice[i].n == 0)
				continue;
			x = XT(((double)i + 0.5) * (double)tl->width);
			y0 = YF(tl->slice[i].min);
			y1 = YF(tl->slice[i].max);
			if (miss && tl->slice[i].max > period)
				fprintf(fp, "M%.1f %.1fV%.1f", x, fmin(y0, yp),
				    y1);
			else if (!miss)
				fprintf(fp, "M%.1f %.1fV%.1f", x, y0,
				    fmax(y1, yp));
		}
		fputs("\"/>\n", fp);
	}
#undef XT
#undef YF
}
