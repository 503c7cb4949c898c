/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonmach.h: the API of jsonmach.c, the records of the machine in the
 * results file, each the member key of in: the host's state, all in one
 * object for compare to list its differences, and what else ran
 * (noise.h): the figures, whether the run was noisy and why, and with
 * series each sample's [t, foreign %, pressure %, runnable, interrupts/s,
 * softirqs/s, MHz].
 */
#ifndef JSONMACH_H
#define JSONMACH_H

#include "json/jsonw.h"
#include "record/noise.h"
#include "result.h"

void	 jsonmach_host(struct jw *in, const char *key, const struct result *);
void	 jsonmach_noise(struct jw *in, const char *key, const struct noise *,
	    int series);

#endif /* JSONMACH_H */
