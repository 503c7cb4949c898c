/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpulist.c: CPU lists as the user gives them (--cpus, a class's cpus=, a
 * load's cpus=): parsed into the order given, and each CPU checked to be
 * online and allowed to latt.  Bad input is a usage error, before anything
 * runs.
 */
#include <sys/types.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cpulist.h"
#include "lib/common.h"

void
cpulist_parse(const char *name, const char *arg, int **cpus, unsigned *ncpus)
{
	char *list, *tok, *save, *dash;
	long long lo, hi, c;
	cpu_set_t seen;
	unsigned n = 0;
	int *v;

	if (*arg == '\0')
		usage_error("%s is empty", name);
	if (cpulist_gap(arg, ','))
		usage_error("%s is not a CPU list: %s", name, arg);
	if ((list = strdup(arg)) == NULL ||
	    (v = calloc(CPU_SETSIZE, sizeof(int))) == NULL)
		usage_error("%s: %s", name, strerror(errno));
	CPU_ZERO(&seen);
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((dash = strchr(tok, '-')) != NULL)
			*dash = '\0';
		lo = parse_num(name, tok, 0, CPU_SETSIZE - 1);
		hi = dash != NULL ? parse_num(name, dash + 1, 0,
		    CPU_SETSIZE - 1) : lo;
		if (lo > hi)
			usage_error("%s: the range %lld-%lld is backwards: "
			    "%s", name, lo, hi, arg);
		for (c = lo; c <= hi; c++) {
			if (CPU_ISSET(c, &seen))
				usage_error("%s: CPU %lld is given twice: %s "
				    "(each client is pinned to the next CPU "
				    "of the list)", name, c, arg);
			CPU_SET(c, &seen);
			v[n++] = (int)c;
		}
	}
	free(list);
	free(*cpus);
	*cpus = v;
	*ncpus = n;
}

void
cpulist_check(const char *name, const int *cpus, unsigned n)
{
	char path[64];
	cpu_set_t allowed;
	int mask = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		/* Online: a directory, and no online file (cpu0) or not 0. */
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d",
		    cpus[i]);
		if (access(path, F_OK) != 0 ||
		    file_ll(strcat(path, "/online")) == 0)
			usage_error("%s: CPU %d is not online (see "
			    "/sys/devices/system/cpu/online)", name, cpus[i]);
		if (mask && !CPU_ISSET(cpus[i], &allowed))
			usage_error("%s: CPU %d is not among the CPUs latt may "
			    "use (its affinity or cpuset)", name, cpus[i]);
	}
}

int
cpulist_gap(const char *s, char sep)
{
	const char two[] = { sep, sep, '\0' };

	return *s == '\0' || *s == sep || s[strlen(s) - 1] == sep ||
	    strstr(s, two) != NULL;
}
