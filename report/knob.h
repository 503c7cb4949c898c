/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.h: the API of knob.c, the text of a finished sweep of a kernel
 * knob (--sweep=FILE=V1,V2,...): a row a value, with the workload's times
 * beside the latency, and the line that says whether the knob was
 * restored.
 */
#ifndef KNOB_H
#define KNOB_H

#include <stdio.h>

#include "config.h"
#include "result.h"
#include "proc/tune.h"

/* The table of res->sweep's values, the order and the restore's line. */
void	 knob_table(FILE *, const struct config *, const struct result *,
	    const struct knob *);
/* The restore's line alone (the JSON on stdout: this goes to stderr). */
void	 knob_restored(FILE *, const struct knob *);

#endif /* KNOB_H */
