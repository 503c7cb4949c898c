/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gate.h: the API of gate.c, the --fail-above gate: every limit against a
 * finished result, met, exceeded or cannot tell, in a "gate:" line (and
 * a line a limit when there are several).
 */
#ifndef GATE_H
#define GATE_H

#include <stdio.h>

struct config;
struct result;

/*
 * Judges every --fail-above limit of cfg against res and says so on fp,
 * within 80 columns: a line that starts "gate:", then with several limits
 * a line each, its verdict, figure, unit and counts; and to ktap (NULL:
 * none) a KTAP test each, numbered from first + 1 (fmt_ktap).  Returns
 * EXIT_OK (every limit met), EXIT_THRESHOLD (one exceeded) or
 * EXIT_CANNOT_TELL (none exceeded, one that the samples cannot decide).
 * Without a limit, only KTAP's one test of the run, ok with samples.
 */
int	 gate_judge(FILE *, FILE *ktap, unsigned first, const struct config *,
	    const struct result *);

/*
 * Adds the limits of one --fail-above=SPEC to cfg (it cuts arg up):
 * STAT=TIME[,STAT=TIME...], each TIME with its unit, inversions=N, a
 * count of the order check's, or CLASS.missed=PCT%, the share of a frame
 * class's deadlines missed; several add up.  Bad input is a usage error.
 */
void	 gate_parse(struct config *, char *arg);
/*
 * Once the classes are known: each CLASS.missed limit must name a frame
 * class (a usage error else).
 */
void	 gate_check(struct config *);

#endif /* GATE_H */
