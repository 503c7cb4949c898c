/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotframe.c: the plot's panels of the frame classes (frame=), under
 * plot.c's time panel and on its time axis: for each frame class, its
 * frame times over the run, the period as a dashed line (a frame above
 * it missed its deadline), the frames that met it as dots of one colour
 * and those that missed as red dots; past TIMELINE_POINTS frames, each
 * time slice's span from its shortest to its longest frame, red where it
 * reaches above the period.  The y axis is logarithmic, so that a period
 * stays in view beside frames a hundred times longer.  At the right, in
 * large type, the deadlines met and the desired CPU (report/frames.c's).
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

#define P_L		84	/* a panel's area: plot.c's time panel's */
#define P_R		700
#define P_AREA		(PLOTFRAME_HEIGHT - 24)	/* its height */
#define P_MAX		4	/* frame classes drawn */
#define MET_COLOR	INK_BLUE
#define MISS_COLOR	INK_RED

static void	 draw_panel(FILE *, const struct client_class *,
		    const struct class_result *, double span, int top);
static void	 draw_frames(FILE *, const char *, const struct timeline *,
		    double span, int64_t period, const struct lax *, int top,
		    int bottom);

int
plotframe_height(const struct config *cfg)
{
	unsigned i, n = 0;

	for (i = 0; i < cfg->nclasses; i++)
		n += cfg->classes[i].frame > 0;
	return (int)(n < P_MAX ? n : P_MAX) * PLOTFRAME_HEIGHT;
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
		    top + (int)n++ * PLOTFRAME_HEIGHT);
	}
}

/*
 * One frame class's panel, from top down PLOTFRAME_HEIGHT px: its area,
 * its time axis under it, its figures at its right.
 */
static void
draw_panel(FILE *fp, const struct client_class *cl,
    const struct class_result *c, double span, int top)
{
	const struct stats *ft = &c->ser[SER_FRAME_TIME].st;
	uint64_t all = frame_deadlines(&c->fr);
	int at = top + 4, ab = at + P_AREA;
	struct lax ax;
	char p[32], b[32];
	double y;

	/* From the busy phase (or the shortest frame) to the longest. */
	ink_lax(&ax, ft->n > 0 ? fmin((double)ft->min, (double)cl->busy) :
	    (double)cl->busy, fmax(ft->n > 0 ? (double)ft->max : 0, 2.0 *
	    (double)cl->frame));
	fprintf(fp, "<g id=\"frames-%s\">\n<rect x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#fbfbfb\" stroke=\"#999\"/>"
	    "\n<text transform=\"translate(16 %d) rotate(-90)\" "
	    "text-anchor=\"middle\" font-size=\"%d\">frame time</text>\n",
	    cl->name, P_L, at, P_R - P_L, P_AREA, (at + ab) / 2, PLOT_SMALL);
	ink_lat_grid(fp, &ax, P_L, P_R, at, ab, 1);
	ink_time_axis(fp, P_L, P_R, ab, span);
	draw_frames(fp, cl->name, c->ser[SER_FRAME_TIME].tl, span, cl->frame,
	    &ax, at, ab);
	y = ink_ylat(&ax, (double)cl->frame, at, ab);
	fprintf(fp, "<line id=\"frames-%s-period\" x1=\"%d\" y1=\"%.1f\" "
	    "x2=\"%d\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"6 4\"/>"
	    "\n<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", cl->name, P_L,
	    y, P_R, y, P_R + 16, at + 10);
	ink_text(fp, cl->name, 12);
	fprintf(fp, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
	    "font-size=\"%d\">every %s, busy %s</text>\n", PLOT_WIDTH - 10,
	    at + 10, PLOT_SMALL, fmt_time(p, sizeof(p), (double)cl->frame, 0,
	    PLOT_MICRO), fmt_time(b, sizeof(b), (double)cl->busy, 0,
	    PLOT_MICRO));
	if (all == 0)
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"16\">no frame "
		    "ended</text>\n", P_R + 16, at + 34);
	else
		fprintf(fp, "<text class=\"met\" x=\"%d\" y=\"%d\" "
		    "font-size=\"20\" font-weight=\"bold\">%.2f%% met</text>"
		    "<text x=\"%d\" y=\"%d\" font-size=\"%d\">of %llu "
		    "deadlines</text>\n<text class=\"desired\" x=\"%d\" "
		    "y=\"%d\" font-size=\"16\">desired CPU %.1f%%</text>\n",
		    P_R + 16, at + 34, 100.0 * (double)c->fr.met / (double)all,
		    P_R + 166, at + 34, PLOT_SMALL, (unsigned long long)all,
		    P_R + 16, at + 54, 100.0 * (double)c->fr.frames /
		    (double)all);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "fill=\"#555\">red: missed; dashed: the period</text>\n</g>\n",
	    P_R + 16, at + 70, PLOT_SMALL);
}

/*
 * The frames: each one a dot (met, then missed, two paths, empty without
 * a frame), or past TIMELINE_POINTS, each slice's span from its shortest
 * to its longest frame, the part above the period red.
 */
static void
draw_frames(FILE *fp, const char *name, const struct timeline *tl,
    double span, int64_t period, const struct lax *ax, int top, int bottom)
{
	double x, y0, y1, yp = ink_ylat(ax, (double)period, top, bottom);
	size_t i;
	int miss;

#define XT(ns)	(P_L + (P_R - P_L) * (double)(ns) / span)
#define YF(ns)	ink_ylat(ax, (double)(ns), top, bottom)
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
