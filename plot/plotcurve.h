/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotcurve.h: the API of plotcurve.c, the SVG of a finished --sweep: the
 * curve of latency (and the loads' rates) against the value swept.
 */
#ifndef PLOTCURVE_H
#define PLOTCURVE_H

#include <stdio.h>

#include "config.h"
#include "result.h"

/*
 * The curve of res->sweep (not NULL), on fp; 0, or -1 with errno set when
 * fp failed.
 */
int	 plotcurve_write(FILE *, const struct config *, const struct result *);

#endif /* PLOTCURVE_H */
