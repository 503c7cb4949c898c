/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * facts.h: the API of facts.c, the summary's facts: the lines after its
 * tables that say how a finished run ran and ended, on what, and how to
 * repeat it.
 */
#ifndef FACTS_H
#define FACTS_H

#include <stdio.h>

#include "result.h"

struct config;

/*
 * The facts from the count of rounds on: the notes (what makes the
 * figures doubtful: the clients unreachable, stalls, a failed workload, a
 * noisy machine...) on fp, the others on all (--details; NULL: none);
 * with --repeat (nruns > 1), res is the total of the runs.
 */
void	 facts_print(FILE *fp, FILE *all, const struct config *,
	    const struct result *, unsigned nruns);
/*
 * A line of the facts (and of the blocks after the details table), on
 * fp unless NULL: a tab, the label (under 16 characters), a tab, then
 * the value in column 26 (a label under 8 characters is padded).
 * Scripts read "\tLABEL\t" and strip the spaces after it.
 */
void	 facts_row(FILE *, const char *label, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* latt's own floor, as a line of the facts (fp NULL: none). */
void	 facts_floor(FILE *, const struct own_floor *);
/* Why a run ended, in the words of the "ran" line: "the duration". */
const char *facts_ended_by(enum stop_reason, int sig, int wl_stopsig);

#endif /* FACTS_H */
