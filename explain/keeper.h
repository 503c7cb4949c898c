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

#include <stdint.h>

#include "config.h"

struct tdec_trace;

/*
 * The windows of the samples kept so far (CLOCK_MONOTONIC ns), written by
 * explain_keep and read by the keeper under a sequence count.
 */
struct kspan {
	int64_t		 from, to;
};
struct kwin {
	_Atomic uint32_t seq;		/* odd while being written */
	uint32_t	 n;
	struct kspan	 w[EXPLAIN_MAX + 1];
};

/*
 * Starts the keeper of the instance name, in the instances directory ifd
 * (held open), keeping the windows of win (shared memory): *wfd is its
 * pipe, whose closing (latt ended, however) lets it go, and it then
 * removes the instance; *rfd is where its pages come back.  Returns its
 * pid, or -1 with errno set.
 */
pid_t	 keeper_start(const char *name, int ifd, int *wfd, int *rfd,
	    struct kwin *win);
/*
 * Asks the keeper on wfd for the pages it kept of the instance at dir and
 * hands them, as they come on rfd, to tr (tdec_page).  Returns 0, or -1
 * with errno (EPROTO for a record out of shape, EPIPE when the keeper
 * went away, ETIMEDOUT when it sent nothing for 2 s, EINTR once got_stop
 * is set: the caller clears it first).
 */
int	 keeper_fetch(const char *dir, int wfd, int rfd,
	    struct tdec_trace *tr);

#endif /* KEEPER_H */
