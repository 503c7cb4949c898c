/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SVG report: draws a finished run as a self-contained SVG (no script,
 * no external reference, plain stdio) with two panels.  The first is the
 * latency distribution on a logarithmic latency axis with the percentiles
 * marked; the second is latency over time, a scatter of the samples when
 * the timeline kept them all, else the minimum-to-maximum band of every
 * time slice, with the workload's span shaded.  The file stays well under
 * 2 MB: at most TIMELINE_POINTS points or TIMELINE_SLICES bands.
 */
#include <sys/types.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "latt.h"

#define W		900	/* the picture */
#define H		760
#define LEFT		90	/* the panels' plotting areas */
#define RIGHT		(W - 30)
#define P1_TOP		82
#define P1_BOTTOM	330
#define P2_TOP		420
#define P2_BOTTOM	690
#define BINS_PER_DECADE	20
/* A white outline keeps a label readable over the bars. */
#define HALO	"stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\""

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9",
    "p99.99" };
#define NQUANTILES	(sizeof(quantiles) / sizeof(quantiles[0]))

/* The logarithmic latency axis shared by both panels: decades lo..hi. */
struct logaxis {
	int	lo;	/* log10 of the first value, ns */
	int	hi;
};

static void	 put_text(FILE *, const char *);
static double	 xlog(const struct logaxis *, double);
static double	 ylog(const struct logaxis *, double);
static const char *decade_label(int, char *, size_t);
static void	 draw_distribution(FILE *, const struct result *,
		    const struct logaxis *, const int64_t *);
static void	 draw_timeline(FILE *, const struct result *,
		    const struct logaxis *, const int64_t *);

int
plot_write(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct stats *st = &res->lat;
	struct logaxis ax;
	int64_t pct[NQUANTILES];
	char *what;

	stats_percentiles(st, quantiles, pct, NQUANTILES);
	ax.lo = st->n > 0 && st->min > 1 ? (int)floor(log10((double)st->min)) :
	    0;
	ax.hi = st->n > 0 ? (int)ceil(log10((double)st->max + 1)) : 1;
	if (ax.hi <= ax.lo)
		ax.hi = ax.lo + 1;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
	fputs("<title>latt: wake-up latency</title>\n", fp);
	fprintf(fp, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
	    W, H);
	fputs("<text x=\"20\" y=\"28\" font-size=\"15\" font-weight=\"bold\">"
	    "latt: ", fp);
	what = workload_describe(cfg);
	put_text(fp, what != NULL ? what : "?");
	free(what);
	fputs("</text>\n", fp);
	fprintf(fp, "<text x=\"20\" y=\"46\">%llu samples, %u clients, "
	    "%llu rounds, %.3f s; mean %.3f \xc2\xb5s, max %.3f \xc2\xb5s "
	    "(client %u)</text>\n", (unsigned long long)st->n, cfg->nclients,
	    (unsigned long long)res->nrounds,
	    (double)(res->end - res->start) / NSEC_PER_SEC,
	    stats_mean(st) / NSEC_PER_USEC, (double)st->max / NSEC_PER_USEC,
	    st->max_tag);
	draw_distribution(fp, res, &ax, pct);
	draw_timeline(fp, res, &ax, pct);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* Writes s as XML character data: markup escaped, never invalid. */
static void
put_text(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	for (; *s != '\0'; s += n) {
		n = 1;
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

/* How far (0 to 1) a latency (ns) lies along a logarithmic axis, clamped. */
static double
logfrac(const struct logaxis *ax, double ns)
{
	double l = ns > 0 ? log10(ns) : ax->lo;

	if (l < ax->lo)
		l = ax->lo;
	if (l > ax->hi)
		l = ax->hi;
	return (l - ax->lo) / (ax->hi - ax->lo);
}

/* Where a latency (ns) falls on the distribution's x axis. */
static double
xlog(const struct logaxis *ax, double ns)
{
	return LEFT + (RIGHT - LEFT) * logfrac(ax, ns);
}

/* Where a latency (ns) falls on the timeline's y axis. */
static double
ylog(const struct logaxis *ax, double ns)
{
	return P2_BOTTOM - (P2_BOTTOM - P2_TOP) * logfrac(ax, ns);
}

/* "1 ns", "10 µs", "100 ms", "1 s", ... for 10^d ns. */
static const char *
decade_label(int d, char *buf, size_t len)
{
	static const char *const units[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int u = d / 3;

	if (u > 3)
		u = 3;
	snprintf(buf, len, "%.0f %s", pow(10, d - 3 * u), units[u]);
	return buf;
}

static void
draw_distribution(FILE *fp, const struct result *res,
    const struct logaxis *ax, const int64_t *pct)
{
	const struct stats *st = &res->lat;
	const struct hist *h = &st->hist;
	uint64_t *bins, top = 0;
	size_t nbins, i, b;
	double x0, x1, y, frac, ymax;
	char buf[32];
	int d, k, right;

	nbins = (size_t)(ax->hi - ax->lo) * BINS_PER_DECADE;
	bins = calloc(nbins, sizeof(*bins));
	fputs("<g id=\"distribution\">\n<title>latency distribution</title>\n",
	    fp);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#f8f8f8\" stroke=\"#999\"/>\n", LEFT, P1_TOP, RIGHT - LEFT,
	    P1_BOTTOM - P1_TOP);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Latency "
	    "distribution</text>\n", LEFT, P1_TOP - 10);
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
	for (b = 0; bins != NULL && b < nbins; b++)
		if (bins[b] > top)
			top = bins[b];
	ymax = st->n > 0 && top > 0 ? 100.0 * (double)top / (double)st->n : 1;
	/* y axis: share of samples, in percent. */
	for (k = 0; k <= 4; k++) {
		y = P1_BOTTOM - (P1_BOTTOM - P1_TOP) * k / 4.0;
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%.3g%%</text>\n", LEFT, y, RIGHT, y,
		    LEFT - 6, y + 4, ymax * k / 4.0);
	}
	fprintf(fp, "<text transform=\"translate(22 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">samples per bin (%%, %d bins a "
	    "decade)</text>\n", (P1_TOP + P1_BOTTOM) / 2, BINS_PER_DECADE);
	fputs("<path fill=\"#4a7ab5\" d=\"", fp);
	for (b = 0; bins != NULL && b < nbins; b++) {
		if (bins[b] == 0)
			continue;
		x0 = LEFT + (RIGHT - LEFT) * (double)b / (double)nbins;
		x1 = LEFT + (RIGHT - LEFT) * (double)(b + 1) / (double)nbins;
		y = P1_BOTTOM - (P1_BOTTOM - P1_TOP) *
		    (100.0 * (double)bins[b] / (double)st->n) / ymax;
		fprintf(fp, "M%.1f %dV%.1fH%.1fV%dZ", x0, P1_BOTTOM, y, x1,
		    P1_BOTTOM);
	}
	fputs("\"/>\n", fp);
	free(bins);
	/* x axis: decades of latency. */
	for (d = ax->lo; d <= ax->hi; d++) {
		x0 = xlog(ax, pow(10, d));
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\">%s</text>\n", x0, P1_BOTTOM, x0,
		    P1_BOTTOM + 5, x0, P1_BOTTOM + 18,
		    decade_label(d, buf, sizeof(buf)));
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">wake-up "
	    "latency (logarithmic)</text>\n", (LEFT + RIGHT) / 2,
	    P1_BOTTOM + 36);
	/* The percentiles and the maximum, labels stepped down. */
	if (st->n == 0) {
		fputs("</g>\n", fp);
		return;
	}
	for (k = 0; k <= (int)NQUANTILES; k++) {
		int64_t v = k < (int)NQUANTILES ? pct[k] : st->max;

		x0 = xlog(ax, (double)v);
		right = x0 > RIGHT - 130;
		fprintf(fp, "<g class=\"percentile\"><line x1=\"%.1f\" "
		    "y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c0392b\" "
		    "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"%s\" " HALO " fill=\"#c0392b\">%s %.1f "
		    "\xc2\xb5s</text></g>\n", x0, P1_TOP, x0, P1_BOTTOM,
		    right ? x0 - 3 : x0 + 3, P1_TOP + 14 + 14 * k,
		    right ? "end" : "start",
		    k < (int)NQUANTILES ? qnames[k] : "max",
		    (double)v / NSEC_PER_USEC);
	}
	fputs("</g>\n", fp);
}

/* A step of 1, 2 or 5 times a power of ten giving at most ten ticks. */
static double
nice_step(double span)
{
	double p = pow(10, floor(log10(span / 10))), m;

	for (m = 1; ; m = m == 1 ? 2 : m == 2 ? 5 : 10)
		if (span / (p * m) <= 10)
			return p * m;
}

static void
draw_timeline(FILE *fp, const struct result *res, const struct logaxis *ax,
    const int64_t *pct)
{
	const struct timeline *tl = res->timeline;
	double span, step, t, x, y0, y1, xa, xb;
	int64_t wend;
	char buf[32];
	size_t i;
	int d;

	span = (double)(res->end - res->start);
	if (span < NSEC_PER_MSEC)
		span = NSEC_PER_MSEC;
#define XT(ns)	(LEFT + (RIGHT - LEFT) * (double)(ns) / span)
	fputs("<g id=\"timeline\">\n<title>latency over time</title>\n", fp);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#f8f8f8\" stroke=\"#999\"/>\n", LEFT, P2_TOP, RIGHT - LEFT,
	    P2_BOTTOM - P2_TOP);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Latency "
	    "over time (%s)</text>\n", LEFT, P2_TOP - 10,
	    tl == NULL || tl->npoints == tl->n ? "every sample" :
	    "minimum to maximum per time slice");
	/* The workload's span. */
	if (res->wl.pid > 0) {
		wend = res->wl.reaped ? res->wl.end : res->end;
		xa = XT(fmax(0, (double)(res->wl.start - res->start)));
		xb = XT(fmin(span, (double)(wend - res->start)));
		if (xb > xa)
			fprintf(fp, "<g id=\"workload\"><rect x=\"%.1f\" "
			    "y=\"%d\" width=\"%.1f\" height=\"%d\" "
			    "fill=\"#e3eedd\"/><text x=\"%.1f\" y=\"%d\" "
			    "fill=\"#4b7a3a\">workload</text></g>\n", xa,
			    P2_TOP, xb - xa, P2_BOTTOM - P2_TOP, xa + 4,
			    P2_TOP + 14);
	}
	/* y axis: decades of latency. */
	for (d = ax->lo; d <= ax->hi; d++) {
		y0 = ylog(ax, pow(10, d));
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%s</text>\n", LEFT, y0, RIGHT, y0,
		    LEFT - 6, y0 + 4, decade_label(d, buf, sizeof(buf)));
	}
	fprintf(fp, "<text transform=\"translate(22 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">wake-up latency (logarithmic)</text>\n",
	    (P2_TOP + P2_BOTTOM) / 2);
	/* x axis: seconds into the run. */
	step = nice_step(span / NSEC_PER_SEC);
	for (t = 0; t * NSEC_PER_SEC <= span * (1 + 1e-9); t += step) {
		x = XT(t * NSEC_PER_SEC);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\">%g s</text>\n", x, P2_BOTTOM, x,
		    P2_BOTTOM + 5, x, P2_BOTTOM + 18, t);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time "
	    "into the run (s)</text>\n", (LEFT + RIGHT) / 2, P2_BOTTOM + 36);
	/* The samples, or the bands. */
	if (tl != NULL && tl->n > 0 && tl->npoints == tl->n) {
		fputs("<path id=\"samples\" fill=\"none\" stroke=\"#4a7ab5\" "
		    "stroke-width=\"3\" stroke-linecap=\"round\" d=\"", fp);
		for (i = 0; i < tl->npoints; i++)
			fprintf(fp, "M%.1f %.1fh0", XT(tl->points[i].when),
			    ylog(ax, (double)tl->points[i].value));
		fputs("\"/>\n", fp);
	} else if (tl != NULL && tl->n > 0) {
		fputs("<path id=\"bands\" fill=\"none\" stroke=\"#4a7ab5\" "
		    "stroke-width=\"1.5\" stroke-linecap=\"round\" d=\"", fp);
		for (i = 0; i < tl->nused; i++) {
			if (tl->slice[i].n == 0)
				continue;
			x = XT(((double)i + 0.5) * (double)tl->width);
			y0 = ylog(ax, (double)tl->slice[i].min);
			y1 = ylog(ax, (double)tl->slice[i].max);
			fprintf(fp, "M%.1f %.1fV%.1f", x, y0, y1);
		}
		fputs("\"/>\n", fp);
	}
	/* The p99 and the maximum, for reference. */
	if (res->lat.n > 0) {
		y0 = ylog(ax, (double)pct[2]);
		y1 = ylog(ax, (double)res->lat.max);
		fprintf(fp, "<g class=\"percentile\"><line x1=\"%d\" "
		    "y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#c0392b\" "
		    "stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\" fill=\"#c0392b\">p99</text>"
		    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#c0392b\" stroke-dasharray=\"1 3\"/><text "
		    "x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
		    "fill=\"#c0392b\">max</text></g>\n", LEFT, y0, RIGHT, y0,
		    RIGHT - 4, y0 - 3, LEFT, y1, RIGHT, y1, RIGHT - 4, y1 - 3);
	}
#undef XT
	fputs("</g>\n", fp);
}
