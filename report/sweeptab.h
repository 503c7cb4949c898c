/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweeptab.h: the API of sweeptab.c, the text of a finished --sweep: a
 * setting's or a kernel knob's table, and the line that says whether the
 * knob was restored.
 */
#ifndef SWEEPTAB_H
#define SWEEPTAB_H

#include <stdio.h>

struct config;
struct knob;
struct result;

/* The table of res->sweep's values (a knob's: k, then its restore). */
void	 sweeptab_print(FILE *, const struct config *, const struct result *,
	    const struct knob *k);
/* The restore's line alone (the JSON on stdout: this goes to stderr). */
void	 sweeptab_restored(FILE *, const struct knob *);

#endif /* SWEEPTAB_H */
