/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotnoise.h: the API of plotnoise.c, the plot's strip of what else ran
 * (noise.h's series of the run), under the time panel and on its x axis.
 */
#ifndef PLOTNOISE_H
#define PLOTNOISE_H

#include <stdio.h>

#include "result.h"

#define PLOTNOISE_HEIGHT	160	/* px, the strip */

/* The height the strip adds to the plot, px: 0 without a series. */
int	 plotnoise_height(const struct result *);
/*
 * The strip, from y = top down plotnoise_height px, its area from x0 to
 * x1: the time panel's, whose time (the run's, res->start to res->end)
 * it shares.  Nothing without a series.
 */
void	 plotnoise_draw(FILE *, const struct result *, int x0, int x1,
	    int top);

#endif /* PLOTNOISE_H */
