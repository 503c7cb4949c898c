/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client.h: the API of client.c, the client's side of a measurement, and
 * the contract between a client and the parent (measure.c): the request
 * and the reply that cross the pipes, and the page they share while the
 * clients start.  The parent calls client_run in the child of each fork;
 * nothing in client.c calls back into the parent's side.
 */
#ifndef CLIENT_H
#define CLIENT_H

#include <semaphore.h>
#include <stdint.h>

#include "config.h"
#include "result.h"

/* What the parent writes to a client to wake it, one per wake-up. */
struct request {
	int64_t		send;		/* the parent's stamp, just before */
	uint64_t	round;
	uint32_t	pos;		/* place in its round's write order */
	int32_t		waker_cpu;	/* the parent's CPU (sched_getcpu)
					   just before its stamp; -1: none */
};

/*
 * What a client writes back, one per request, in the order they came:
 * cpu is the client's CPU at its wake stamp, waker_cpu the request's
 * echoed.  A frame client (frame=) writes one a frame instead, unasked:
 * send the frame's start, wake and done its stamps, round the frame's
 * number, pos the boundaries passed while it worked (frames not started),
 * run the deadlines missed in a row through it (0: it met its own), busy
 * done minus wake; a frame has no waker.
 */
struct reply {
	int64_t		send;		/* the request's stamp, echoed */
	int64_t		wake;		/* stamped as read() returned */
	int64_t		done;		/* after the -x work; wake without it */
	uint64_t	round;
	int32_t		cpu;
	uint32_t	sum;		/* the work's checksum, kept alive */
	uint32_t	pos;
	union {
		int32_t	waker_cpu;	/* a wake-up's */
		uint32_t run;		/* a frame's */
	};
	int64_t		busy;		/* the busy phase took, ns; or -1 */
};

/*
 * Shared with the clients: the start semaphore, a setup failure, and the
 * scheduling attributes each class's first client read back (one slot
 * without classes).  The parent maps it and initialises the semaphore
 * before the first fork; a client posts once it is ready, or leaves the
 * call that failed here before it exits.
 */
struct shared {
	sem_t		 sem;
	int		 setup_errno;	/* a client could not apply --cpus... */
	const char	*setup_what;	/* the call that failed (static) */
	struct sched_got got[];
};

/*
 * The client idx, in the child of a fork: in is the read end of its
 * request pipe, out the write end of its reply pipe, busy the turns of
 * its busy phase (0: none; see client_busy_calibrate).  It never returns: it
 * leaves through _exit, 0 once the parent closes its request pipe, 1 on
 * failure.
 */
void	 client_run(const struct config *, unsigned idx, int in, int out,
	    struct shared *, uint64_t busy) __attribute__((noreturn));

/*
 * The turns of the busy phase's loop that take one millisecond on an idle
 * CPU: the quickest of several timed trials, since preemption and other
 * tasks only ever make a trial slower.  Takes some 5 ms.
 */
uint64_t client_busy_calibrate(void);
/* The turns of client idx's busy phase (0: none) at per_ms a millisecond. */
uint64_t client_busy_turns(const struct config *, uint64_t per_ms, unsigned idx);

#endif /* CLIENT_H */
