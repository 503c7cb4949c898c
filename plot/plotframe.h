/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plotframe.h: the API of plotframe.c, the plot's panels of the frame
 * classes: each one's frame times over the run against its period.
 */
#ifndef PLOTFRAME_H
#define PLOTFRAME_H

#include <stdio.h>

#include "config.h"
#include "result.h"

#define PLOTFRAME_HEIGHT	80	/* px, a frame class's panel */

/* The height the frame classes' panels add to the plot, px (0: none). */
int	 plotframe_height(const struct config *);
/* The panels, from y = top down plotframe_height px. */
void	 plotframe_draw(FILE *, const struct config *, const struct result *,
	    int top);

#endif /* PLOTFRAME_H */
