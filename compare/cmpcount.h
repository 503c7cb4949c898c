/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpcount.h: the API of cmpcount.c, latt compare's rows of what the
 * kernel counted in each run (switches, interrupts, the clients' switches
 * and migrations, the runnable mean).
 */
#ifndef CMPCOUNT_H
#define CMPCOUNT_H

#include <stdio.h>

#include "compare/compare.h"
#include "json/jsonread.h"

struct cmp_counts;

/*
 * A run's "counts" (absent or null: none) into the side's; a figure that
 * is null is left out of its row.  0, or -1 on ENOMEM.
 */
int	 cmp_counts_add(struct cmp_side *, const struct json *run);
void	 cmp_counts_free(struct cmp_counts *);	/* NULL is safe */
/* The rows both sides have, as a table after compare's, to fp. */
void	 cmp_counts_print(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);
/* The same rows as a JSON array, or null. */
void	 cmp_counts_json(FILE *, const struct cmp_side *a,
	    const struct cmp_side *b);

#endif /* CMPCOUNT_H */
