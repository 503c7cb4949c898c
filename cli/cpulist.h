/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpulist.h: the API of cpulist.c, CPU lists as the user gives them.
 */
#ifndef CPULIST_H
#define CPULIST_H

/*
 * A list such as 0-3,8 or 3,1 into *cpus (malloc'd, the old one freed) in
 * the order given (a range ascends): clients or load processes are
 * pinned round-robin over it.  A CPU twice, an empty item or a number out
 * of range is a usage error naming name.
 */
void	 cpulist_parse(const char *name, const char *arg, int **cpus,
	    unsigned *ncpus);
/* Each CPU must be online and in latt's own affinity mask, else usage. */
void	 cpulist_check(const char *name, const int *cpus, unsigned n);
/* Whether a list split by sep is empty or has an empty item ("1,,2"). */
int	 cpulist_gap(const char *, char sep);

#endif /* CPULIST_H */
