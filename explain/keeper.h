/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keeper.h: the API of keeper.c, the process (latt-tracefs) that keeps
 * --explain's tracefs instance: it drains the instance's buffers into the
 * pages worth keeping, hands them back on request, and removes the
 * instance however latt ends.
 */
#ifndef KEEPER_H
#define KEEPER_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/*
 * The windows of the samples kept so far (CLOCK_MONOTONIC ns), written by
 * explain_keep and read by the keeper under a sequence count.
 */
struct kwin {
	_Atomic uint32_t seq;		/* odd while being written */
	uint32_t	 n;
	struct {
		int64_t	 from, to;
	}		 w[EXPLAIN_MAX + 1];
};

pid_t	 keeper_start(const char *, int, int *, int *, struct kwin *);
int	 keeper_ask(int);
int	 keeper_record(int, size_t, unsigned char *, uint32_t *, int *,
	    uint32_t *);
size_t	 keeper_page_size(const char *);

#endif /* KEEPER_H */
