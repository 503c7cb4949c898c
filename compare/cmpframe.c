/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpframe.c: latt compare's rows of the frame classes (frame=): for each
 * class both sides have, the share of its deadlines missed, A against B.
 *
 * A run's deadlines are not independent (a stutter misses hundreds in a
 * row), so the unit is the run: each side's mean of its runs' shares, the
 * change in points (B - A) and its 99% interval by Welch's t over the
 * runs; worse or better when the interval lies wholly on one side of 0,
 * with CMP_MIN_RUNS runs a side, else noise; cannot tell with fewer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_int.h"
#include "compare/compare.h"

static void	 mean_sd(const double *, size_t, double *, double *);
static const struct cmp_frames *find(const struct cmp_side *, const char *);

int
cmp_frames_add(struct cmp_side *side, const char *name, double missed)
{
	struct cmp_frames *cf, *nf;
	double *nm;
	size_t i;

	for (i = 0; i < side->nframes; i++)
		if (strcmp(side->frames[i].name, name) == 0)
			break;
	if (i == side->nframes) {
		nf = realloc(side->frames, (i + 1) * sizeof(*nf));
		if (nf == NULL)
			return -1;
		side->frames = nf;
		memset(&nf[i], 0, sizeof(nf[i]));
		if ((nf[i].name = strdup(name)) == NULL)
			return -1;
		side->nframes++;
	}
	cf = &side->frames[i];
	if ((nm = realloc(cf->missed, (cf->n + 1) * sizeof(*nm))) == NULL)
		return -1;
	cf->missed = nm;
	nm[cf->n++] = missed;
	return 0;
}

void
cmp_frames_free(struct cmp_side *side)
{
	size_t k;

	for (k = 0; k < side->nframes; k++) {
		free(side->frames[k].name);
		free(side->frames[k].missed);
	}
	free(side->frames);
}

int
cmp_points(const double *a, size_t na, const double *b, size_t nb,
    struct cmp_points *p)
{
	double va, vb, se, df, t;

	mean_sd(a, na, &p->ma, &p->sa);
	mean_sd(b, nb, &p->mb, &p->sb);
	p->lo = p->hi = 0;
	if (na < 2 || nb < 2)
		return 0;
	va = p->sa * p->sa / (double)na;
	vb = p->sb * p->sb / (double)nb;
	se = sqrt(va + vb);
	df = se > 0 ? pow(va + vb, 2) / (va * va / (double)(na - 1) + vb *
	    vb / (double)(nb - 1)) : 1;
	t = cmp_t_upper((1 - CMP_LEVEL) / 2, df);
	p->lo = p->mb - p->ma - t * se;
	p->hi = p->mb - p->ma + t * se;
	return na >= CMP_MIN_RUNS && nb >= CMP_MIN_RUNS ? 2 : 1;
}

void
cmp_frames_print(FILE *fp, const struct cmp_side *a, const struct cmp_side *b)
{
	const struct cmp_frames *fa, *fb;
	struct cmp_points p;
	const char *verdict;
	char ci[32];
	size_t i;
	int head = 0, r;

	for (i = 0; i < a->nframes; i++) {
		fa = &a->frames[i];
		if ((fb = find(b, fa->name)) == NULL)
			continue;
		r = cmp_points(fa->missed, fa->n, fb->missed, fb->n, &p);
		verdict = "cannot tell";
		snprintf(ci, sizeof(ci), "-");
		if (r > 0)
			snprintf(ci, sizeof(ci), "[%+.0f, %+.0f]", p.lo, p.hi);
		if (r == 2)
			verdict = p.lo > 0 ? "worse" : p.hi < 0 ? "better" :
			    "noise";
		if (!head++)
			fprintf(fp, "\n%-10s %6s %5s %6s %5s %6s  %-15s %s\n",
			    "missed", "A %", "+-", "B %", "+-", "change",
			    "99% interval", "verdict");
		fprintf(fp, "%-10s %6.1f %5.1f %6.1f %5.1f %+6.1f  %-15s %s\n",
		    fa->name, p.ma, p.sa, p.mb, p.sb, p.mb - p.ma, ci, verdict);
	}
	if (head)
		fputs("missed: the share of a frame class's deadlines missed "
		    "(late or not\n    started), a value a run; +-: their sd; "
		    "change, interval: points.\n", fp);
}

/* The mean and sd of n values (sd 0 with one). */
static void
mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double m = 0, q = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = v[i] - m;
		m += d / (double)(i + 1);
		q += d * (v[i] - m);
	}
	*mean = m;
	*sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
}

static const struct cmp_frames *
find(const struct cmp_side *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nframes; i++)
		if (strcmp(s->frames[i].name, name) == 0)
			return &s->frames[i];
	return NULL;
}
