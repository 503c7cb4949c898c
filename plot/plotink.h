/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotink.h: the API of plotink.c, the ink of the SVG plot: every stroke
 * a curve, a dot or a band leaves in a panel is kept as it is written, so
 * that the labels go where no stroke passes; and the pieces the pictures
 * share (their start, their axes, their legends' keys).
 */
#ifndef PLOTINK_H
#define PLOTINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PLOT_WIDTH	1000	/* the picture, px */
#define PLOT_HEIGHT	850
#define PLOT_SMALL	11	/* px: the labels' font size */
#define PLOT_MICRO	"\xc2\xb5s"	/* the plot's "us" */
#define PLOT_CHAR_W	0.62	/* a generous width of a character, em */
#define PLOT_KEY_W	22	/* a legend's swatch, px */
#define INK_MARK_R	3.5	/* a percentile mark's radius, px */
/*
 * The palette: Okabe and Ito's blue, orange, green and purple, a red, a
 * cyan, a grey.  Hues 40 degrees apart or more (CIELAB, tests/svghue.py),
 * each two 10 apart (CIEDE2000) to normal and colour-blind sight.
 */
#define INK_BLUE	"#0072b2"
#define INK_ORANGE	"#e69f00"
#define INK_GREEN	"#009e73"
#define INK_PINK	"#cc79a7"
#define INK_RED		"#d62728"
#define INK_CYAN	"#17becf"
#define INK_GREY	"#666666"

struct stroke;

/*
 * All that has been drawn that a label must keep off (every segment of
 * the curves, dots and bands), and a grid of squares over the picture
 * listing the strokes near each, built when labels are placed.  Zeroed to
 * start; ink_free frees it.
 */
struct ink {
	struct stroke	*s;
	size_t		 n, cap;
	int		 lost;		/* out of memory: labels get a ground */
	size_t		 ngrid;		/* strokes in the grid */
	size_t		*first;		/* where each cell's list starts */
	size_t		*idx;		/* the lists */
};

/*
 * A path's data being written to fp, its segments kept in ink: hw is half
 * the path's stroke width; x and y, the last point.
 */
struct pen {
	FILE		*fp;
	struct ink	*ink;
	double		 x, y;
	double		 hw;
};

/*
 * A label: the point it names (px, py), what it says and in what colour;
 * where it went (its anchor x, its baseline y, anchored at its end or its
 * start) and whether on a white ground, because no place near the point
 * was free.
 */
struct label {
	double		 px, py;
	char		 text[64];
	const char	*color;
	double		 x, y;
	int		 end;
	int		 ground;
};

/*
 * Where a panel's labels may go: a label's box stays in [x0, x1] x [y0,
 * y1]; a gutter's labels start at x0 and move only up or down.
 */
struct field {
	double		 x0, y0, x1, y1;
	int		 gutter;
};

void	 ink_free(struct ink *);
/* Path data: a move (move != 0) or a line to (x, y); a line to x, to y. */
void	 ink_to(struct pen *, int move, double x, double y);
void	 ink_h(struct pen *, double x);
void	 ink_v(struct pen *, double y);
/* A dot at (x, y): a line of no length, drawn by a round cap. */
void	 ink_dot(struct pen *, double x, double y);
/*
 * Whether label l fits where it is: inside the field, clear of the n
 * labels placed and of the nmarks marks (x then y), and, with_ink, of
 * every stroke so far.
 */
int	 ink_fits(struct ink *, const struct label *l,
	    const struct label *placed, size_t n, const struct field *,
	    const double *marks, size_t nmarks, int with_ink);
/*
 * Places the n labels in turn, each at the nearest place to its point
 * that fits (ink_fits) with no stroke crossing it; where none does, at
 * the nearest clear of the other labels and the marks, on a white ground.
 * Writes a leader line to each label away from its point, then the
 * labels, each in its color.
 */
void	 ink_place(FILE *, struct ink *, struct label *, size_t n,
	    const struct field *, const double *marks, size_t nmarks);
/* Writes a label, on its white ground when it has one. */
void	 ink_label(FILE *, const struct label *);

/*
 * Writes s as XML character data (markup escaped, never invalid), cut
 * after max characters (a UTF-8 sequence counts as one) with an ellipsis
 * when it is longer.
 */
void	 ink_text(FILE *, const char *, size_t max);

/*
 * The title's line of the system: "Linux KERNEL, host HOST, " then before
 * and the date of start (ns since the epoch; "?" when unknown), a <text>.
 */
void	 ink_system(FILE *, const char *kernel, const char *host,
	    int64_t start, const char *before);

/*
 * The picture's start: its svg element, PLOT_WIDTH x height px, its title
 * ("latt: wake-up latency", " against " against unless NULL), its ground.
 */
void	 ink_begin(FILE *, int height, const char *against);

/* A round step (1, 2 or 5 times a power of ten) for at most max ticks. */
double	 ink_step(double span, int max);
/* Ticks under an x axis x0 to x1 at y, 0 to max by step, with unit. */
void	 ink_xticks(FILE *, double x0, double x1, double y, double max,
	    double step, const char *unit);
/*
 * The run's time (span ns) on the x axis from x0 to x1 at y, in seconds
 * (milliseconds under 2 s) at round steps.  Returns the unit, ns.
 */
double	 ink_time_axis(FILE *, double x0, double x1, double y, double span);

/* A logarithmic latency axis: the decades lo to hi of nanoseconds. */
struct lax {
	int		 lo;
	int		 hi;
};

/* The axis in whole decades over lo to hi ns; lo > hi: 1 us to 1 ms. */
void	 ink_lax(struct lax *, double lo, double hi);
/* Where a latency (ns) falls on the axis from bottom up to top, clamped. */
double	 ink_ylat(const struct lax *, double ns, int top, int bottom);
/*
 * The axis' gridlines from x0 to x1 at every decade, and at 2 and 5 times
 * it over 3 decades or fewer of 40 px or more; labelled left of x0 when
 * left.
 */
void	 ink_lat_grid(FILE *, const struct lax *, int x0, int x1, int top,
	    int bottom, int left);
/*
 * "no samples" in the middle of a panel, on a white ground when anything
 * has been drawn (another series' curve may pass there).
 */
void	 ink_empty(FILE *, const struct ink *, int x0, int x1, int top,
	    int bottom);

/*
 * A key of a legend at x, on the baseline y: a swatch of class cls, a
 * line of color (dashed by dash unless "") or, with dash NULL, a patch of
 * color with the attributes patch; then name, of class tcls unless NULL.
 * Returns its width, px.
 */
double	 ink_key(FILE *, double x, int y, const char *cls, const char *color,
	    const char *dash, const char *patch, const char *tcls,
	    const char *name);

#endif /* PLOTINK_H */
