/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h: the API of plot.c, the SVG report of a finished run.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdio.h>

#include "config.h"
#include "result.h"

/* plot.c: returns 0, or -1 with errno set when fp failed. */
int	 plot_write(FILE *, const struct config *, const struct result *);

#endif /* PLOT_H */
