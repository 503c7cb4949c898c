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

#endif /* CURVES_H */
