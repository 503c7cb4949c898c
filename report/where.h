/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * where.h: the API of where.c, the summary's block "Where it woke".
 */
#ifndef WHERE_H
#define WHERE_H

#include <stdio.h>

struct result;

/*
 * On fp, where a finished result's wake-ups woke: each placement kind's
 * share, samples, p50 and p99, the samples of no kind, and the
 * migrations; nothing when the run took no placement or no sample.
 */
void	 where_print(FILE *, const struct result *);

#endif /* WHERE_H */
