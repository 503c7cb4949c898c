/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmp_int.h: what the rooms of latt compare share among themselves and no
 * other room needs; compare.h is their API for the rest of latt.
 *
 *   cmpread.c  reads result files into sides of runs;
 *   cmpstat.c  sums up a run (its statistics and within-run variances)
 *              and tests the runs of one side against another's;
 *   compare.c  the table, the JSON report and the subcommand.
 *
 * compare.c calls the other two, cmpread.c calls cmpstat.c, and cmpstat.c
 * calls neither, so that the statistics stand alone (tests/calib_compare.c
 * needs nothing else).
 */
#ifndef CMP_INT_H
#define CMP_INT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "stats.h"

/*
 * What a run says about its settings and environment, as compact JSON
 * text per key (NULL when absent), read by cmpread.c from the first file
 * of a side.  Keys that move the numbers warn, one line each, when the
 * sides differ (compare.c) or the files of one side do (cmpread.c); the
 * kernel's version string is only shown (its release and command line
 * warn).  The table is cmpread.c's; its length is checked where it stands.
 */
#define CMP_NINFO	35

struct cmp_info_key {
	const char	*obj;		/* "parameters" or "environment" */
	const char	*key;
	int		 warn;
};
extern const struct cmp_info_key cmp_info_keys[CMP_NINFO];

struct cmp_info {
	char	*text[CMP_NINFO];
};

/* A file of a side, and a run, by what they are known (cmpread.c). */
struct cmp_fileid {
	dev_t		 dev;
	ino_t		 ino;
	char		*name;
};

struct cmp_runid {
	char		*host;		/* environment.hostname, or "" */
	int64_t		 start;		/* run.started_at_ns */
	char		*where;		/* "a.json" or "a.json, run 2" */
};

/*
 * A run's blocks as the summary takes them: each block's sparse histogram
 * (bucket index, count), whether read from a file (cmpread.c) or taken
 * from a struct blocks (cmp_run_make).
 */
struct cmp_sblock {
	uint64_t	 n;
	int64_t		 min;
	int64_t		 max;
	size_t		 nb;
	uint32_t	*idx;		/* ascending; nbuckets: the overflow */
	uint64_t	*cnt;
};

struct cmp_sblocks {
	unsigned	 sub_bits;
	size_t		 n;
	struct cmp_sblock *b;
};

/*
 * cmp_run_make for blocks already sparse (sb may be NULL: none kept).
 * Returns 0, or -1 on ENOMEM.
 */
int	 cmp_summarize(struct cmp_run *, const struct stats *,
	    const struct cmp_sblocks *sb, uint64_t seed);
/* Frees what the blocks hold and empties them; an empty sb is safe. */
void	 cmp_sblocks_free(struct cmp_sblocks *);

#endif /* CMP_INT_H */
