/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ink of the SVG plot (plot.c): every stroke that a curve, a dot or a
 * band leaves in a panel is kept as its path is written, and a label goes
 * to the nearest place to its point that no stroke crosses, no other
 * label or mark covers, and that stays in its panel; where there is none,
 * on a white ground of its own.  A grid of CELL px squares, each listing
 * the strokes near it, keeps the search quick: a place is checked against
 * the strokes of the few squares under it.  It writes the paths' data as
 * plot.c draws them, and the labels with their grounds and leader lines;
 * any text of the picture, escaped and cut to its room; and what the
 * pictures share: their start, their axes of latency and of time, the keys
 * of their legends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/common.h"
#include "lib/fmt.h"
#include "plot/plotink.h"

#define CELL		16	/* px, the squares of the grid */
#define GRID_C		(PLOT_WIDTH / CELL + 1)
#define GRID_R		(PLOT_HEIGHT / CELL + 1)
#define PAD		2.0	/* px kept clear around a label's text */
#define LABEL_CHAR_W	0.66	/* em: DejaVu Sans' digits are 0.636 */
#define OFF_DX		6.0	/* offsets tried, px: OFF_NX across ... */
#define OFF_DY		3.0	/* ... and OFF_NY up or down */
#define OFF_NX		24
#define OFF_NY		48
#define NOFFSETS	(OFF_NX * OFF_NY)
#define LEADER_MIN	10.0	/* a label this far from its point: a leader */
/* A white outline keeps a text readable over lines and bars. */
#define HALO	"stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" " \
		"stroke-linejoin=\"round\""

/* A stroke drawn in a panel: a segment, or a dot where its ends meet. */
struct stroke {
	float	 x0, y0, x1, y1;
	float	 hw;		/* half its width */
};

static void	 ink_add(struct ink *, double, double, double, double,
		    double);
static void	 ink_cells(const struct stroke *, int *);
static int	 ink_grid(struct ink *);
static int	 stroke_hits(const struct stroke *, const double *);
static int	 ink_hits(struct ink *, const double *);
static void	 label_box(const struct label *, double *);
static void	 label_at(struct label *, const struct field *, int, double,
		    double);
static int	 cmp_offset(const void *, const void *);
static int	 find_place(struct ink *, struct label *, size_t,
		    const struct field *, const double (*)[2], size_t,
		    const double *, size_t, int);

/* Keeps a stroke from (x0, y0) to (x1, y1), hw wide on either side. */
static void
ink_add(struct ink *ink, double x0, double y0, double x1, double y1,
    double hw)
{
	struct stroke *s;
	size_t cap;

	if (ink->lost)
		return;
	if (ink->n == ink->cap) {
		cap = ink->cap > 0 ? 2 * ink->cap : 1024;
		if ((s = realloc(ink->s, cap * sizeof(*s))) == NULL) {
			ink->lost = 1;
			return;
		}
		ink->s = s;
		ink->cap = cap;
	}
	s = &ink->s[ink->n++];
	s->x0 = (float)x0;
	s->y0 = (float)y0;
	s->x1 = (float)x1;
	s->y1 = (float)y1;
	s->hw = (float)hw;
}

/* The cells a stroke may touch with a label PAD away. */
static void
ink_cells(const struct stroke *s, int *c)
{
	double m = s->hw + PAD;

	c[0] = (int)floor((fmin(s->x0, s->x1) - m) / CELL);
	c[1] = (int)floor((fmin(s->y0, s->y1) - m) / CELL);
	c[2] = (int)floor((fmax(s->x0, s->x1) + m) / CELL);
	c[3] = (int)floor((fmax(s->y0, s->y1) + m) / CELL);
	c[0] = c[0] < 0 ? 0 : c[0] >= GRID_C ? GRID_C - 1 : c[0];
	c[2] = c[2] < 0 ? 0 : c[2] >= GRID_C ? GRID_C - 1 : c[2];
	c[1] = c[1] < 0 ? 0 : c[1] >= GRID_R ? GRID_R - 1 : c[1];
	c[3] = c[3] < 0 ? 0 : c[3] >= GRID_R ? GRID_R - 1 : c[3];
}

/*
 * The grid of every stroke so far: each cell's strokes listed, in one
 * array, from first[cell] to first[cell + 1].  0, or -1 when memory ran
 * out (and then ink->lost).
 */
static int
ink_grid(struct ink *ink)
{
	size_t i, *at;
	int c[4], r, k;

	if (ink->lost)
		return -1;
	if (ink->first != NULL && ink->ngrid == ink->n)
		return 0;
	free(ink->first);
	free(ink->idx);
	ink->idx = NULL;
	at = NULL;
	if ((ink->first = calloc(GRID_C * GRID_R + 1, sizeof(size_t))) ==
	    NULL || (at = calloc(GRID_C * GRID_R, sizeof(size_t))) == NULL)
		goto lost;
	for (i = 0; i < ink->n; i++) {
		ink_cells(&ink->s[i], c);
		for (r = c[1]; r <= c[3]; r++)
			for (k = c[0]; k <= c[2]; k++)
				ink->first[r * GRID_C + k + 1]++;
	}
	for (k = 0; k < GRID_C * GRID_R; k++) {
		ink->first[k + 1] += ink->first[k];
		at[k] = ink->first[k];
	}
	if ((ink->idx = malloc((ink->first[GRID_C * GRID_R] + 1) *
	    sizeof(size_t))) == NULL)
		goto lost;
	for (i = 0; i < ink->n; i++) {
		ink_cells(&ink->s[i], c);
		for (r = c[1]; r <= c[3]; r++)
			for (k = c[0]; k <= c[2]; k++)
				ink->idx[at[r * GRID_C + k]++] = i;
	}
	free(at);
	ink->ngrid = ink->n;
	return 0;
lost:
	free(at);
	ink->lost = 1;
	return -1;
}

/*
 * Whether the stroke s passes within its width and PAD of the box b (x0,
 * y0, x1, y1): the segment clipped to the grown box (Liang and Barsky)
 * is not empty.
 */
static int
stroke_hits(const struct stroke *s, const double *b)
{
	double m = s->hw + PAD, t0 = 0, t1 = 1, r, p[4], q[4];
	int k;

	p[0] = -(p[1] = s->x1 - s->x0);
	p[2] = -(p[3] = s->y1 - s->y0);
	q[0] = s->x0 - (b[0] - m);
	q[1] = b[2] + m - s->x0;
	q[2] = s->y0 - (b[1] - m);
	q[3] = b[3] + m - s->y0;
	for (k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return 0;
			continue;
		}
		r = q[k] / p[k];
		if (p[k] < 0 && r > t0)
			t0 = r;
		else if (p[k] > 0 && r < t1)
			t1 = r;
		if (t0 > t1)
			return 0;
	}
	return 1;
}

/* Whether any stroke drawn so far crosses the box b; 1 without a grid. */
static int
ink_hits(struct ink *ink, const double *b)
{
	int c0, c1, r0, r1, r, k;
	size_t j;

	if (ink_grid(ink) != 0)
		return 1;
	c0 = (int)fmax(0, floor(b[0] / CELL));
	c1 = (int)fmin(GRID_C - 1, floor(b[2] / CELL));
	r0 = (int)fmax(0, floor(b[1] / CELL));
	r1 = (int)fmin(GRID_R - 1, floor(b[3] / CELL));
	for (r = r0; r <= r1; r++)
		for (k = c0; k <= c1; k++)
			for (j = ink->first[r * GRID_C + k];
			    j < ink->first[r * GRID_C + k + 1]; j++)
				if (stroke_hits(&ink->s[ink->idx[j]], b))
					return 1;
	return 0;
}

void
ink_free(struct ink *ink)
{
	free(ink->s);
	free(ink->first);
	free(ink->idx);
}

void
ink_to(struct pen *pen, int move, double x, double y)
{
	fprintf(pen->fp, "%c%.1f %.1f", move ? 'M' : 'L', x, y);
	if (!move)
		ink_add(pen->ink, pen->x, pen->y, x, y, pen->hw);
	pen->x = x;
	pen->y = y;
}

void
ink_h(struct pen *pen, double x)
{
	fprintf(pen->fp, "H%.1f", x);
	ink_add(pen->ink, pen->x, pen->y, x, pen->y, pen->hw);
	pen->x = x;
}

void
ink_v(struct pen *pen, double y)
{
	fprintf(pen->fp, "V%.1f", y);
	ink_add(pen->ink, pen->x, pen->y, pen->x, y, pen->hw);
	pen->y = y;
}

void
ink_dot(struct pen *pen, double x, double y)
{
	fprintf(pen->fp, "M%.1f %.1fh0", x, y);
	ink_add(pen->ink, x, y, x, y, pen->hw);
	pen->x = x;
	pen->y = y;
}

/*
 * The box a label's text takes at its place (x0, y0, x1, y1), from a
 * generous width of its characters (a UTF-8 sequence is one) and the
 * font's ascent and descent.
 */
static void
label_box(const struct label *l, double *b)
{
	const unsigned char *s;
	double w;
	size_t n = 0;

	for (s = (const unsigned char *)l->text; *s != '\0'; s++)
		n += (*s & 0xc0) != 0x80;
	w = (double)n * LABEL_CHAR_W * PLOT_SMALL;
	b[0] = l->end ? l->x - w : l->x;
	b[2] = b[0] + w;
	b[1] = l->y - 0.8 * PLOT_SMALL;
	b[3] = l->y + 0.25 * PLOT_SMALL;
}

int
ink_fits(struct ink *ink, const struct label *l, const struct label *placed,
    size_t nplaced, const struct field *f, const double *marks,
    size_t nmarks, int with_ink)
{
	double b[4], o[4];
	size_t i;

	label_box(l, b);
	if (b[0] < f->x0 || b[2] > f->x1 || b[1] < f->y0 || b[3] > f->y1)
		return 0;
	for (i = 0; i < nplaced; i++) {
		label_box(&placed[i], o);
		if (b[0] < o[2] + PAD && o[0] < b[2] + PAD &&
		    b[1] < o[3] + PAD && o[1] < b[3] + PAD)
			return 0;
	}
	for (i = 0; i < nmarks; i++)
		if (marks[2 * i] > b[0] - INK_MARK_R - PAD &&
		    marks[2 * i] < b[2] + INK_MARK_R + PAD &&
		    marks[2 * i + 1] > b[1] - INK_MARK_R - PAD &&
		    marks[2 * i + 1] < b[3] + INK_MARK_R + PAD)
			return 0;
	return !with_ink || !ink_hits(ink, b);
}

/*
 * Where label l goes at offset (dx, dy) on side k: 0 above and left of
 * its point, 1 below and right, 2 above and right, 3 below and left (a
 * rising curve never passes above-left or below-right of its own point);
 * in a gutter, 0 up and 1 down from the point's height, never sideways.
 */
static void
label_at(struct label *l, const struct field *f, int k, double dx,
    double dy)
{
	int up = k == 0 || k == 2;

	if (f->gutter) {
		l->end = 0;
		l->x = f->x0;
		l->y = l->py + 0.35 * PLOT_SMALL + (k == 0 ? -dy : dy);
		return;
	}
	l->end = k == 0 || k == 3;
	l->x = l->end ? l->px - 6 - dx : l->px + 6 + dx;
	l->y = up ? l->py - 7 - dy : l->py + 6 + 0.8 * PLOT_SMALL + dy;
}

/* Offsets tried for a label, nearest first. */
static int
cmp_offset(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;
	double da = hypot(a[0], a[1]), db = hypot(b[0], b[1]);

	return da < db ? -1 : da > db;
}

/*
 * Label i at the nearest of the noff offsets from its point, on any side
 * (at one offset, the sides in label_at's order), where it fits; 0 when
 * none does.
 */
static int
find_place(struct ink *ink, struct label *lab, size_t i,
    const struct field *f, const double (*off)[2], size_t noff,
    const double *marks, size_t nmarks, int with_ink)
{
	size_t j;
	int k;

	for (j = 0; j < noff; j++)
		for (k = 0; k < (f->gutter ? 2 : 4); k++) {
			label_at(&lab[i], f, k, off[j][0], off[j][1]);
			if (ink_fits(ink, &lab[i], lab, i, f, marks, nmarks,
			    with_ink))
				return 1;
		}
	return 0;
}

void
ink_place(FILE *fp, struct ink *ink, struct label *lab, size_t n,
    const struct field *f, const double *marks, size_t nmarks)
{
	double off[NOFFSETS][2], b[4], gx, gy, d;
	size_t i, j, noff = 0;
	int k;

	for (j = 0; j < (f->gutter ? 1 : OFF_NX); j++)
		for (k = 0; k < OFF_NY; k++) {
			off[noff][0] = (double)j * OFF_DX;
			off[noff++][1] = (double)k * OFF_DY;
		}
	qsort(off, noff, sizeof(off[0]), cmp_offset);
	for (i = 0; i < n; i++) {
		lab[i].ground = 0;
		if (!find_place(ink, lab, i, f, off, noff, marks, nmarks, 1)) {
			lab[i].ground = 1;
			if (!find_place(ink, lab, i, f, off, noff, marks,
			    nmarks, 0))
				label_at(&lab[i], f, 0, 0, 0);
		}
		/* The leader: from the point's edge to the label's box. */
		label_box(&lab[i], b);
		gx = fmin(fmax(lab[i].px, b[0]), b[2]) - lab[i].px;
		gy = fmin(fmax(lab[i].py, b[1]), b[3]) - lab[i].py;
		if ((d = hypot(gx, gy)) > LEADER_MIN)
			fprintf(fp, "<line class=\"leader\" x1=\"%.1f\" "
			    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"0.6\"/>\n", lab[i].px + gx *
			    INK_MARK_R / d, lab[i].py + gy * INK_MARK_R / d,
			    lab[i].px + gx, lab[i].py + gy, lab[i].color);
	}
	for (i = 0; i < n; i++)
		ink_label(fp, &lab[i]);
}

void
ink_label(FILE *fp, const struct label *l)
{
	double b[4];

	if (l->ground) {
		label_box(l, b);
		fprintf(fp, "<rect class=\"ground\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\" fill=\"white\"/>\n",
		    b[0] - PAD, b[1] - PAD, b[2] - b[0] + 2 * PAD,
		    b[3] - b[1] + 2 * PAD);
	}
	fprintf(fp, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
	    "text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\" " HALO ">%s"
	    "</text>\n", l->x, l->y, l->end ? "end" : "start", PLOT_SMALL,
	    l->color, l->text);
}

void
ink_text(FILE *fp, const char *str, size_t max)
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
		else if ((n = utf8_len(s, SIZE_MAX)) == 0) {
			fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
			n = 1;
		} else
			fwrite(s, 1, n, fp);
	}
}

void
ink_system(FILE *fp, const char *kernel, const char *host, int64_t start,
    const char *before)
{
	char date[40];
	struct tm tm;
	time_t t;

	t = (time_t)(start / 1000000000);
	if (start <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		strcpy(date, "?");
	fputs("<text id=\"system\" x=\"20\" y=\"66\">Linux ", fp);
	ink_text(fp, kernel != NULL ? kernel : "?", 40);
	fputs(", host ", fp);
	ink_text(fp, host != NULL ? host : "?", 40);
	fprintf(fp, ", %s%s</text>\n", before, date);
}

double
ink_step(double span, int max)
{
	double want = span > 0 ? span / max : 1, p;

	p = pow(10, floor(log10(want)));
	if (want <= p)
		return p;
	if (want <= 2 * p)
		return 2 * p;
	return want <= 5 * p ? 5 * p : 10 * p;
}

double
ink_key(FILE *fp, double x, int y, const char *cls, const char *color,
    const char *dash, const char *patch, const char *tcls, const char *name)
{
	if (dash == NULL)
		fprintf(fp, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" "
		    "width=\"%d\" height=\"10\" fill=\"%s\"%s/>", cls, x,
		    y - 9, PLOT_KEY_W, color, patch);
	else {
		fprintf(fp, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"",
		    cls, x, y - 4, x + PLOT_KEY_W, y - 4, color);
		if (dash[0] != '\0')
			fprintf(fp, " stroke-dasharray=\"%s\"", dash);
		fputs("/>", fp);
	}
	fputs("<text", fp);
	if (tcls != NULL)
		fprintf(fp, " class=\"%s\"", tcls);
	fprintf(fp, " x=\"%.1f\" y=\"%d\" font-size=\"%d\">%s</text>\n",
	    x + PLOT_KEY_W + 5, y, PLOT_SMALL, name);
	return PLOT_KEY_W + 5 + (double)strlen(name) * PLOT_CHAR_W *
	    PLOT_SMALL;
}

void
ink_begin(FILE *fp, int height, const char *against)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
	    "font-size=\"12\">\n", PLOT_WIDTH, height, PLOT_WIDTH, height);
	fprintf(fp, "<title>latt: wake-up latency%s%s</title>\n", against !=
	    NULL ? " against " : "", against != NULL ? against : "");
	fprintf(fp, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
	    PLOT_WIDTH, height);
}

void
ink_xticks(FILE *fp, double x0, double x1, double y, double max,
    double step, const char *unit)
{
	double v, x;

	for (v = 0; v <= max * (1 + 1e-9); v += step) {
		x = x0 + (x1 - x0) * v / max;
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" "
		    "y2=\"%.0f\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%.0f\" "
		    "text-anchor=\"middle\" font-size=\"%d\">%g%s</text>\n", x,
		    y, x, y + 4, x, y + 15, PLOT_SMALL, round(v / step) * step,
		    unit);
	}
}

double
ink_time_axis(FILE *fp, double x0, double x1, double y, double span)
{
	double unit = span < 2.0 * NSEC_PER_SEC ? NSEC_PER_MSEC :
	    NSEC_PER_SEC;

	ink_xticks(fp, x0, x1, y, span / unit, ink_step(span / unit, 8), "");
	return unit;
}

void
ink_lax(struct lax *ax, double lo, double hi)
{
	if (lo > hi) {
		lo = 1e3;
		hi = 1e6;
	}
	ax->lo = (int)floor(log10(fmax(lo, 10)) + 1e-9);
	ax->hi = (int)ceil(log10(fmax(hi, 10)) - 1e-9);
	if (ax->hi <= ax->lo)
		ax->hi = ax->lo + 1;
}

double
ink_ylat(const struct lax *ax, double ns, int top, int bottom)
{
	double l = ns > 0 ? log10(ns) : ax->lo;

	l = fmin(fmax(l, ax->lo), ax->hi);
	return bottom - (bottom - top) * ((l - ax->lo) / (ax->hi - ax->lo));
}

void
ink_lat_grid(FILE *fp, const struct lax *ax, int x0, int x1, int top,
    int bottom, int left)
{
	static const int mult[] = { 1, 2, 5 };
	char buf[32];
	double y, v;
	int d, k, nk = ax->hi - ax->lo <= 3 && bottom - top >= 40 *
	    (ax->hi - ax->lo) ? 3 : 1;

	for (d = ax->lo; d <= ax->hi; d++)
		for (k = 0; k < nk && !(d == ax->hi && k > 0); k++) {
			v = mult[k] * pow(10, d);
			y = ink_ylat(ax, v, top, bottom);
			fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			    "y2=\"%.1f\" stroke=\"%s\"/>\n", x0, y, x1, y,
			    k == 0 ? "#d0d0d0" : "#ececec");
			if (left)
				fprintf(fp, "<text x=\"%d\" y=\"%.1f\" "
				    "text-anchor=\"end\" font-size=\"%d\">%s"
				    "</text>\n", x0 - 5, y + 4, PLOT_SMALL,
				    fmt_time(buf, sizeof(buf), v, 0,
				    PLOT_MICRO));
		}
}

void
ink_empty(FILE *fp, const struct ink *ink, int x0, int x1, int top,
    int bottom)
{
	double w = 10 * 0.66 * 16;	/* ten characters of 16 px */

	if (ink->n > 0 || ink->lost)
		fprintf(fp, "<rect class=\"ground\" x=\"%.1f\" y=\"%d\" "
		    "width=\"%.1f\" height=\"%d\" fill=\"white\"/>\n",
		    (x0 + x1 - w) / 2 - 2, (top + bottom) / 2 - 15, w + 4, 21);
	fprintf(fp, "<text class=\"empty\" x=\"%d\" y=\"%d\" "
	    "text-anchor=\"middle\" font-size=\"16\" fill=\"#777\">no "
	    "samples</text>\n", (x0 + x1) / 2, (top + bottom) / 2);
}
