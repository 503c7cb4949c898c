/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.h: the API of sweep.c, --sweep=NAME=V1,V2,...: the whole
 * measurement once per value (times --repeat), one setting varied, and
 * what each value's runs gave together.
 */
#ifndef SWEEP_H
#define SWEEP_H

#include "config.h"
#include "result.h"

/* --sweep's value into cfg->sweep; bad input is a usage error. */
void	 sweep_parse(struct config *, const char *arg);
/* The sweep against the other options, once all are read (usage). */
void	 sweep_check(const struct config *);
/*
 * The widest settings of the sweep (the most clients, the most work), for
 * what is allocated once for all its runs.
 */
void	 sweep_widest(const struct config *, struct config *wide);
/* Tries every value's scheduling before anything runs: 0, or
 * tune_check's -1 (refused: usage) or -2 (the probe failed). */
int	 sweep_try(const struct config *);

/*
 * The sweep's schedule: the k-th measurement of it is a series of
 * cfg->repeat runs (the point's settings in *pc) of point *pi.  Returns 0,
 * or -1 past the end.
 */
int	 sweep_step(const struct config *, unsigned k, unsigned *pi,
	    struct config *pc);
int	 sweep_init(struct sweep_result *, const struct config *);
void	 sweep_add_run(struct sweep_result *, unsigned pi,
	    const struct result *);
void	 sweep_free(struct sweep_result *);

#endif /* SWEEP_H */
