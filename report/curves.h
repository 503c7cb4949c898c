/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * curves.h: the API of curves.c, the text table of a finished --sweep.
 */
#ifndef CURVES_H
#define CURVES_H

#include <stdio.h>

#include "config.h"
#include "result.h"

/* The table of res->sweep's values, then latt's floor and the seed. */
void	 curves_table(FILE *, const struct config *, const struct result *);
/* The facts' lines of what the kernel counted, and of latt's floor. */
void	 curves_counts(FILE *, const struct counts *);
void	 curves_floor(FILE *, const struct floor *);

#endif /* CURVES_H */
