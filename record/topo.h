/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.h: the API of topo.c, the machine's CPU topology as sysfs gives it,
 * read once before the run, and where a wake-up landed against its waker:
 * the same CPU, an SMT sibling, another core of the same last-level cache,
 * another cache domain of the same node, or another node.
 */
#ifndef TOPO_H
#define TOPO_H

/* Where a client woke against the CPU that woke it, nearest first. */
enum place_kind {
	PLACE_UNKNOWN = -1,	/* a CPU unknown, or not described enough */
	PLACE_SAME_CPU,
	PLACE_SMT_SIBLING,	/* another thread of the waker's core */
	PLACE_SAME_LLC,		/* another core sharing its last-level cache */
	PLACE_OTHER_LLC,	/* another cache domain of its node */
	PLACE_OTHER_NODE,
	PLACE_N
};

/*
 * Every possible CPU's core, last-level cache and node, each known by an
 * id (the lowest CPU of its list; the node's number), -1 where sysfs does
 * not say.  A CPU without a topology directory is not described.
 */
struct topo {
	int		 ncpus;		/* possible CPUs: 0 to ncpus - 1 */
	int		*core;
	int		*llc;
	int		*node;
	int		 ndescribed;	/* CPUs with a core */
	const char	*llc_from;	/* "cache": cache/index*; "package":
					   no cache described, the package
					   stands for it (as the scheduler's
					   own MC domain does then); "none":
					   neither is described */
	const char	*node_from;	/* "sysfs", or "one node": no
					   /sys/devices/system/node */
};

/*
 * Reads the topology from /sys/devices/system.  Returns it, or NULL with
 * errno set when memory ran out; a sysfs that says nothing gives a
 * topology whose CPUs are not described (only PLACE_SAME_CPU is known).
 */
struct topo *topo_read(void);
void	 topo_free(struct topo *);		/* NULL is safe */

/*
 * Where a wake-up on CPU wakee landed against CPU waker (either -1:
 * unknown).  Two equal CPUs are the same CPU whatever sysfs says; past
 * that, a CPU out of range or a level either CPU lacks is PLACE_UNKNOWN.
 * Cheap: a few loads, for every sample.
 */
static inline int
topo_place(const struct topo *t, int waker, int wakee)
{
	if (t == NULL || waker < 0 || wakee < 0 || waker >= t->ncpus ||
	    wakee >= t->ncpus)
		return PLACE_UNKNOWN;
	if (waker == wakee)
		return PLACE_SAME_CPU;
	if (t->core[waker] < 0 || t->core[wakee] < 0)
		return PLACE_UNKNOWN;
	if (t->core[waker] == t->core[wakee])
		return PLACE_SMT_SIBLING;
	if (t->llc[waker] < 0 || t->llc[wakee] < 0)
		return PLACE_UNKNOWN;
	if (t->llc[waker] == t->llc[wakee])
		return PLACE_SAME_LLC;
	if (t->node[waker] < 0 || t->node[wakee] < 0)
		return PLACE_UNKNOWN;
	return t->node[waker] == t->node[wakee] ? PLACE_OTHER_LLC :
	    PLACE_OTHER_NODE;
}

/* The kind's name in the JSON, the log and compare: "same_cpu"... */
const char *topo_place_name(int kind);

#endif /* TOPO_H */
