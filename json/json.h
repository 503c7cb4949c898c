/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h: the API of json.c, the JSON report of finished results.
 */
#ifndef JSON_H
#define JSON_H

#include <stdio.h>

#include "config.h"
#include "result.h"

/*
 * json.c: json_write_run writes one run as an object of the "runs" array;
 * json_write writes the whole file: the runs' totals at the top level and
 * runs (json_write_run's objects, joined by commas) as the array.  Both
 * return 0, or -1 with errno set when fp failed.
 */
int	 json_write_run(FILE *, const struct config *, const struct result *);
int	 json_write(FILE *, const struct config *, const struct result *total,
	    unsigned nruns, const char *runs);

#endif /* JSON_H */
