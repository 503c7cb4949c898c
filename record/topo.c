/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.c: the machine's CPU topology, read once from sysfs before a run
 * (never while it measures): for every possible CPU its SMT core
 * (topology/core_cpus_list, or thread_siblings_list on older kernels),
 * its last-level cache (the highest cache/indexN level that holds data,
 * its shared_cpu_list), and its node (/sys/devices/system/node/nodeN/
 * cpulist).  Each is known by an id: the lowest CPU of its list, or the
 * node's number.  What sysfs lacks collapses as the kernel's scheduler
 * collapses it: no cache described (a VM, often), the package stands for
 * the last-level cache; no node directory (no NUMA), one node.
 */
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/common.h"
#include "record/topo.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_NODE	"/sys/devices/system/node"
#define CPUS_MAX	65536	/* beyond any kernel's NR_CPUS */
#define CACHE_INDEX_MAX	16	/* cache/index0 to index15 */

static int	 possible_cpus(void);
static long long cpu_ll(int cpu, const char *file, const char *or);
static int	 list_next(const char **, long *, long *);
static int	 list_max(const char *);
static void	 list_set(const char *, int *, int n, int value);
static int	 read_llc(int cpu, int *from_cache);
static void	 read_nodes(struct topo *);

static const char *const place_names[PLACE_N] = {
	[PLACE_SAME_CPU] = "same_cpu",
	[PLACE_SMT_SIBLING] = "smt_sibling",
	[PLACE_SAME_LLC] = "same_llc",
	[PLACE_OTHER_LLC] = "other_llc",
	[PLACE_OTHER_NODE] = "other_node",
};

const char *
topo_place_name(int kind)
{
	return kind >= 0 && kind < PLACE_N ? place_names[kind] : "unknown";
}

struct topo *
topo_read(void)
{
	struct topo *t;
	int c, n, cache, any_package = 0, any_none = 0;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->ncpus = n = possible_cpus();
	/* One allocation: core, llc and node one after the other. */
	if ((t->core = malloc(3 * n * sizeof(int))) == NULL) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->llc = t->core + n;
	t->node = t->llc + n;
	for (c = 0; c < n; c++) {
		t->core[c] = (int)cpu_ll(c, "topology/core_cpus_list",
		    "topology/thread_siblings_list");
		t->llc[c] = t->node[c] = -1;
		if (t->core[c] < 0)
			continue;
		t->ndescribed++;
		t->llc[c] = read_llc(c, &cache);
		if (t->llc[c] < 0)
			any_none = 1;
		else if (!cache)
			any_package = 1;
	}
	t->llc_from = any_none ? "none" : any_package ? "package" : "cache";
	read_nodes(t);
	return t;
}

void
topo_free(struct topo *t)
{
	if (t == NULL)
		return;
	free(t->core);
	free(t);
}

/*
 * The possible CPUs (a CPU hot-added later is one of them): one past the
 * highest of /sys/devices/system/cpu/possible, else the CPUs configured.
 */
static int
possible_cpus(void)
{
	char *text = file_text(SYS_CPU "/possible");
	long conf;
	int n = text != NULL ? list_max(text) + 1 : 0;

	free(text);
	if (n <= 0 && (conf = sysconf(_SC_NPROCESSORS_CONF)) > 0)
		n = conf < CPUS_MAX ? (int)conf : CPUS_MAX;
	return n > 0 ? n : 1;
}

/*
 * The id of cpu's last-level cache: the lowest CPU sharing the highest
 * level of cache that holds data (an instruction cache is never the last
 * level); *from_cache 1.  Without any, its package's (*from_cache 0), or
 * -1 when neither is described.
 */
static int
read_llc(int cpu, int *from_cache)
{
	char path[128], *type;
	long long level, best = -1, id, best_id = -1;
	int i, k;

	*from_cache = 1;
	for (i = 0; i < CACHE_INDEX_MAX; i++) {
		/* The directory's path, then each file's name after it. */
		k = snprintf(path, sizeof(path), SYS_CPU
		    "/cpu%d/cache/index%d/", cpu, i);
		strcpy(path + k, "level");
		if ((level = file_ll(path)) < 0)
			break;
		strcpy(path + k, "type");
		type = file_text(path);
		strcpy(path + k, "shared_cpu_list");
		id = file_ll(path);
		if (level > best && id >= 0 && (type == NULL ||
		    strcmp(type, "Instruction") != 0)) {
			best = level;
			best_id = id;
		}
		free(type);
	}
	if (best_id >= 0)
		return (int)best_id;
	*from_cache = 0;
	return (int)cpu_ll(cpu, "topology/package_cpus_list",
	    "topology/core_siblings_list");
}

/* The number of a file of cpu's in sysfs, or else of or; -1: neither. */
static long long
cpu_ll(int cpu, const char *file, const char *or)
{
	char path[128];
	long long v;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/%s", cpu, file);
	if ((v = file_ll(path)) >= 0 || or == NULL)
		return v;
	return cpu_ll(cpu, or, NULL);
}

/*
 * Each described CPU's node from the nodes' cpulists; without the node
 * directory (a kernel without NUMA), every described CPU is on node 0.
 */
static void
read_nodes(struct topo *t)
{
	struct dirent *de;
	char path[300], *list, *end;
	long node;
	DIR *d;
	int c;

	if ((d = opendir(SYS_NODE)) == NULL) {
		for (c = 0; c < t->ncpus; c++)
			if (t->core[c] >= 0)
				t->node[c] = 0;
		t->node_from = "one node";
		return;
	}
	t->node_from = "sysfs";
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "node", 4) != 0 ||
		    !isdigit((unsigned char)de->d_name[4]))
			continue;
		errno = 0;
		node = strtol(de->d_name + 4, &end, 10);
		if (*end != '\0' || errno != 0 || node > CPUS_MAX)
			continue;
		snprintf(path, sizeof(path), SYS_NODE "/%s/cpulist",
		    de->d_name);
		if ((list = file_text(path)) == NULL)
			continue;
		list_set(list, t->node, t->ncpus, (int)node);
		free(list);
	}
	closedir(d);
}

/*
 * Reads the next range of a CPU list ("0-3,8,10-11") at *p into lo and
 * hi and moves *p past it.  Returns 0, or -1 at the end or at text that
 * is not a list.
 */
static int
list_next(const char **p, long *lo, long *hi)
{
	char *end;

	while (**p == ',' || **p == ' ' || **p == '\n')
		(*p)++;
	if (!isdigit((unsigned char)**p))
		return -1;
	*lo = *hi = strtol(*p, &end, 10);
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		*hi = strtol(end + 1, &end, 10);
	}
	*p = end;
	return *lo >= 0 && *hi >= *lo && *hi < CPUS_MAX ? 0 : -1;
}

/* The highest CPU of a list, or -1. */
static int
list_max(const char *s)
{
	long lo, hi, max = -1;

	while (list_next(&s, &lo, &hi) == 0)
		if (hi > max)
			max = hi;
	return (int)max;
}

/* v[cpu] = value for every CPU of the list below n. */
static void
list_set(const char *s, int *v, int n, int value)
{
	long lo, hi, c;

	while (list_next(&s, &lo, &hi) == 0)
		for (c = lo; c <= hi && c < n; c++)
			v[c] = value;
}
