/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * order.h: the API of order.c, the real-time order check (the question of
 * rt-migrate-test): within each round, did a client start while one of
 * higher priority, already woken, kept waiting?  It is fed the finished
 * samples of each round and how its release went, and keeps the counts,
 * the release spread and the worst cases for the reports.
 */
#ifndef ORDER_H
#define ORDER_H

#include <stdint.h>

#include "config.h"
#include "stats.h"

#define ORDER_WORST	5		/* inversions kept for the reports */
#define ORDER_SLACK_NS	500000		/* --order-slack by default: 500 us */

/*
 * One inversion: in round `round`, released `when` ns after the run
 * started, client `waiter` (woken, on CPU waiter_cpu) started `held` ns
 * after client `ran` of lower priority had started (on ran_cpu) and after
 * its own wake-up was issued; `waited` is its whole latency.
 */
struct inversion {
	uint64_t	 round;
	int64_t		 when;
	uint32_t	 waiter;
	uint32_t	 ran;
	int32_t		 waiter_cpu;
	int32_t		 ran_cpu;
	int64_t		 waited;
	int64_t		 held;
};

struct order_round;

/* What the check found, read by the reports once the run is over. */
struct order {
	int64_t		 slack;		/* ns: a later start within it is no
					   inversion */
	uint64_t	 rounds;	/* rounds checked: complete, and with
					   two priorities or more */
	uint64_t	 single;	/* complete rounds of one priority */
	uint64_t	 unchecked;	/* rounds with a reply missing (the
					   end, --warmup, a suspension) */
	uint64_t	 inversions;	/* clients that waited, all rounds */
	uint64_t	 bad_rounds;	/* rounds with an inversion */
	struct stats	 spread;	/* each round's release: first write
					   to the end of the last, ns */
	struct inversion worst[ORDER_WORST];	/* the longest held, worst
						   first */
	unsigned	 nworst;
	/* The rounds being gathered: order.c's. */
	unsigned	 nclients;
	int		*rank;		/* each client's priority */
	struct order_round *ring;
};

/*
 * Whether a run takes the check: some of its clients are real-time
 * (fifo or rr).  order_top is their highest priority, or 0.
 */
int	 order_wanted(const struct config *);
int	 order_top(const struct config *);
/*
 * The options of the check, once every option is read: --order-slack and
 * --fail-above=inversions need real-time clients (a usage error, status
 * 2, else); a busy phase longer than the shortest delay is said in one
 * line, and the run goes on.
 */
void	 order_check_config(const struct config *);
/* A check for the run, or NULL with errno set (ENOMEM). */
struct order *order_new(const struct config *);
/*
 * Round r goes out to nsend clients; its release took spread ns.  A round
 * still incomplete in its slot (a reply never came) is given up.
 */
void	 order_sent(struct order *, uint64_t r, unsigned nsend,
	    int64_t spread, int64_t when);
/*
 * A wake-up of round r, which order_sent announced: client, its wake-up
 * issued at send, its start (the client's stamp) and CPU; ns since the
 * run started.
 */
void	 order_add(struct order *, uint64_t r, uint32_t client, int64_t send,
	    int64_t start, int32_t cpu);
/* Empties it for the next run of --repeat. */
void	 order_reset(struct order *);
/* Adds a finished run's check to the totals. */
void	 order_merge(struct order *total, const struct order *);
void	 order_free(struct order *);		/* NULL is safe */

#endif /* ORDER_H */
