/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The real-time order check (order.h): the measurement loop hands it how
 * each round was released and every finished sample (the loop never
 * judges); once a round's samples are all in, it is checked, and only the
 * counts, the worst cases and the release spread are kept.
 *
 * An inversion is a client that started more than the slack after a
 * client of lower priority in its round had started, and more than the
 * slack after its own wake-up was issued: a lower priority ran while it
 * waited.  The second condition keeps the release itself out of the
 * check (a client written last cannot start before it is written); the
 * slack keeps out the few microseconds a wake-up takes.  A client's
 * priority is its real-time priority; deadline clients rank above every
 * real-time one and fair ones below, as the kernel's classes do.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "record/order.h"

#define ORDER_RING	4	/* rounds gathered at once (open loop) */
#define RANK_DEADLINE	100	/* above every real-time priority */

/* A client's start in a round, as the check needs it. */
struct start {
	int64_t		 start;		/* ns since the run started */
	int64_t		 send;		/* its wake-up issued */
	uint32_t	 client;
	int32_t		 cpu;
	int		 rank;
};

/* A round being gathered. */
struct order_round {
	uint64_t	 round;		/* 0: none */
	int64_t		 when;
	unsigned	 expect;
	unsigned	 got;
	struct start	*s;		/* nclients of them */
};

static int	 rt_prio(int, int);
static int	 rank_of(const struct sched_req *);
static int64_t	 busy_max(const struct config *);
static void	 check_round(struct order *, struct order_round *);
static void	 keep_worst(struct order *, const struct inversion *);
static int	 by_rank(const void *, const void *);

int
order_wanted(const struct config *cfg)
{
	return order_top(cfg) > 0;
}

int
order_top(const struct config *cfg)
{
	const struct sched_req *r;
	unsigned i;
	int top = 0;

	if (cfg->nclasses == 0)
		return rt_prio(cfg->policy, cfg->prio);
	for (i = 0; i < cfg->nclasses; i++) {
		r = &cfg->classes[i].sched;
		/* A class of frames is never in a round. */
		if (cfg->classes[i].frame == 0 &&
		    rt_prio(r->policy, r->prio) > top)
			top = r->prio;
	}
	return top;
}

void
order_check_config(const struct config *cfg)
{
	char a[32], b[32];
	int64_t busy = busy_max(cfg);
	unsigned i;

	if (!order_wanted(cfg) && cfg->order_slack >= 0)
		usage_error("order-slack needs real-time clients (policy fifo "
		    "or rr): the order check is theirs");
	for (i = 0; !order_wanted(cfg) && i < cfg->nlimits; i++)
		if (cfg->limits[i].order)
			usage_error("fail-above inversions needs real-time "
			    "clients (policy fifo or rr)");
	if (busy > cfg->min_delay)
		lwarnx("busy phase of %s is longer than the shortest delay "
		    "between rounds (%s): %s", fmt_time(a, sizeof(a),
		    (double)busy, 0, "us"), fmt_time(b, sizeof(b),
		    (double)cfg->min_delay, 0, "us"), cfg->open_loop ?
		    "it runs into the next round" : "each round waits for it, "
		    "so rounds come further apart than -f says");
}

/* The longest busy phase of the clients, ns (0: none). */
static int64_t
busy_max(const struct config *cfg)
{
	int64_t busy = cfg->nclasses > 0 ? 0 : cfg->busy;
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		if (cfg->classes[i].busy > busy && cfg->classes[i].frame == 0)
			busy = cfg->classes[i].busy;
	return busy;
}

/* A real-time policy's priority, or 0. */
static int
rt_prio(int policy, int prio)
{
	return policy == SCHED_FIFO || policy == SCHED_RR ? prio : 0;
}

static int
rank_of(const struct sched_req *r)
{
	return r->policy == SCHED_DEADLINE ? RANK_DEADLINE :
	    rt_prio(r->policy, r->prio);
}

struct order *
order_new(const struct config *cfg)
{
	struct order *o;
	unsigned i;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->slack = cfg->order_slack >= 0 ? cfg->order_slack : ORDER_SLACK_NS;
	o->nclients = cfg->nclients;
	if (stats_init(&o->spread, STATS_SUB_BITS) == -1 ||
	    (o->rank = calloc(cfg->nclients, sizeof(*o->rank))) == NULL ||
	    (o->ring = calloc(ORDER_RING, sizeof(*o->ring))) == NULL)
		goto oom;
	for (i = 0; i < ORDER_RING; i++)
		if ((o->ring[i].s = calloc(cfg->nclients,
		    sizeof(*o->ring[i].s))) == NULL)
			goto oom;
	for (i = 0; i < cfg->nclients; i++)
		o->rank[i] = cfg->nclasses > 0 ?
		    rank_of(&cfg->classes[cfg->class_of[i]].sched) :
		    cfg->prio;
	return o;
oom:
	order_free(o);
	errno = ENOMEM;
	return NULL;
}

void
order_sent(struct order *o, uint64_t r, unsigned nsend, int64_t spread,
    int64_t when)
{
	struct order_round *rd = &o->ring[r % ORDER_RING];

	stats_add(&o->spread, spread, 0, when);
	if (rd->round != 0)
		o->unchecked++;
	rd->round = nsend > 0 ? r : 0;
	rd->when = when;
	rd->expect = nsend;
	rd->got = 0;
}

void
order_add(struct order *o, uint64_t r, uint32_t client, int64_t send,
    int64_t start, int32_t cpu)
{
	struct order_round *rd = &o->ring[r % ORDER_RING];
	struct start *st;

	if (rd->round != r || rd->got >= rd->expect || client >= o->nclients)
		return;
	st = &rd->s[rd->got++];
	st->start = start;
	st->send = send;
	st->client = client;
	st->cpu = cpu;
	st->rank = o->rank[client];
	if (rd->got == rd->expect) {
		check_round(o, rd);
		rd->round = 0;
	}
}

/*
 * One complete round: sorted by priority, each client is held against
 * the earliest start of every lower priority.
 */
static void
check_round(struct order *o, struct order_round *rd)
{
	struct inversion inv;
	struct start *s = rd->s, *low = NULL, *h;
	int64_t held, from;
	unsigned i, j, n = rd->got, bad = 0;

	qsort(s, n, sizeof(*s), by_rank);
	if (n < 2 || s[0].rank == s[n - 1].rank) {
		o->single++;
		return;
	}
	o->rounds++;
	for (i = 0; i < n; i = j) {
		/* The group of rank s[i].rank, against the lower ones. */
		for (j = i; j < n && s[j].rank == s[i].rank; j++) {
			h = &s[j];
			if (low == NULL)
				continue;
			from = low->start > h->send ? low->start : h->send;
			if ((held = h->start - from) <= o->slack)
				continue;
			bad++;
			memset(&inv, 0, sizeof(inv));
			inv.round = rd->round;
			inv.when = rd->when;
			inv.waiter = h->client;
			inv.waiter_cpu = h->cpu;
			inv.waited = h->start - h->send;
			inv.ran = low->client;
			inv.ran_cpu = low->cpu;
			inv.held = held;
			keep_worst(o, &inv);
		}
		for (j = i; j < n && s[j].rank == s[i].rank; j++)
			if (low == NULL || s[j].start < low->start)
				low = &s[j];
	}
	o->inversions += bad;
	o->bad_rounds += bad > 0;
}

/* Keeps the ORDER_WORST longest held, worst first. */
static void
keep_worst(struct order *o, const struct inversion *inv)
{
	unsigned i;

	if (o->nworst == ORDER_WORST &&
	    o->worst[ORDER_WORST - 1].held >= inv->held)
		return;
	i = o->nworst < ORDER_WORST ? o->nworst++ : ORDER_WORST - 1;
	for (; i > 0 && o->worst[i - 1].held < inv->held; i--)
		o->worst[i] = o->worst[i - 1];
	o->worst[i] = *inv;
}

/* Priority, then start: the order of the check. */
static int
by_rank(const void *a, const void *b)
{
	const struct start *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

void
order_reset(struct order *o)
{
	unsigned i;

	stats_reset(&o->spread);
	o->rounds = o->single = o->unchecked = 0;
	o->inversions = o->bad_rounds = 0;
	o->nworst = 0;
	for (i = 0; i < ORDER_RING; i++)
		o->ring[i].round = 0;
}

void
order_merge(struct order *total, const struct order *o)
{
	unsigned i;

	stats_merge(&total->spread, &o->spread);
	total->slack = o->slack;
	total->rounds += o->rounds;
	total->single += o->single;
	total->unchecked += o->unchecked;
	total->inversions += o->inversions;
	total->bad_rounds += o->bad_rounds;
	for (i = 0; i < o->nworst; i++)
		keep_worst(total, &o->worst[i]);
}

void
order_free(struct order *o)
{
	unsigned i;

	if (o == NULL)
		return;
	stats_free(&o->spread);
	for (i = 0; o->ring != NULL && i < ORDER_RING; i++)
		free(o->ring[i].s);
	free(o->ring);
	free(o->rank);
	free(o);
}
