/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * feed.c: what the measurement loop (measure.c) records into a result as
 * the run goes: each kept wake-up into the series of the run and of its
 * client's class (latency, the runqueue-wait split, the -x work, the busy
 * phase), into its placement kind's and the migrations, and into the
 * order check; each frame of a frame class into its
 * deadlines and series; latt's own stalls; and how long the closed
 * loop's rounds waited on late replies.  The loop decides which
 * wake-ups are kept, with the rule of a suspension kept here; the frames
 * kept are decided here, as the frames' end is.  Nothing here measures,
 * forks or prints.
 */
#include <stdint.h>

#include "config.h"
#include "lib/common.h"
#include "measure/client.h"
#include "measure/feed.h"
#include "record/order.h"
#include "record/topo.h"
#include "result.h"

static void	 add_wake(struct series *, const struct sample *, unsigned);
static void	 add_client(struct client_stats *, const struct sample *);
static void	 add_busy(struct result *, const struct config *,
		    const struct sample *);

void
feed_sample(struct result *res, const struct config *cfg, unsigned idx,
    const struct sample *s)
{
	add_wake(res->ser, s, idx);
	if (s->place >= 0 && s->place < PLACE_N)
		series_add(&res->ser[SER_PLACE(s->place)], s->latency, idx,
		    s->when);
	else
		res->place_unknown++;
	res->migrated += (unsigned)s->migrated;
	if (res->classes != NULL)
		add_wake(res->classes[cfg->class_of[idx]].ser, s, idx);
	if (res->ser[SER_WORK].on)
		series_add(&res->ser[SER_WORK], s->work_ns, idx, s->when);
	if (s->busy_ns >= 0)
		add_busy(res, cfg, s);
	if (res->order != NULL)
		order_add(res->order, s->round, idx, s->when,
		    s->when + s->latency, s->cpu);
	if (res->clients != NULL)
		add_client(&res->clients[idx], s);
	/* The plot's dots, the run's and each class's (the 2007 figure). */
	if (res->ser[SER_LATENCY].tl != NULL)
		timeline_add(res->ser[SER_LATENCY].tl, s->when, s->latency);
	if (res->classes != NULL && res->classes[cfg->class_of[idx]].ser[
	    SER_LATENCY].tl != NULL)
		timeline_add(res->classes[cfg->class_of[idx]].ser[
		    SER_LATENCY].tl, s->when, s->latency);
}

/* A wake-up into its client's own figures (--per-client, the JSON). */
static void
add_client(struct client_stats *cs, const struct sample *s)
{
	if (cs->last_cpu != -1 && s->cpu != cs->last_cpu)
		cs->migrations++;
	cs->last_cpu = s->cpu;
	stats_add(&cs->lat, s->latency, s->client, s->when);
}

/*
 * A frame met its deadline when its work was done by its next start (at
 * most a period after its own, and then no boundary was skipped).
 */
void
feed_frame(struct result *res, const struct config *cfg, unsigned idx,
    const struct reply *rep, int64_t end)
{
	struct class_result *c = &res->classes[cfg->class_of[idx]];
	int64_t period = cfg->classes[cfg->class_of[idx]].frame;
	int64_t when = rep->send - res->start, time = rep->done - rep->send;

	if (when < cfg->warmup || rep->send >= end ||
	    feed_suspended(res, rep->send, rep->done + (int64_t)rep->pos *
	    period))
		return;

	series_add(&c->ser[SER_FRAME_WAKE], rep->wake - rep->send, idx, when);
	series_add(&c->ser[SER_FRAME_TIME], time, idx, when);
	if (c->ser[SER_FRAME_TIME].tl != NULL)
		timeline_add(c->ser[SER_FRAME_TIME].tl, when, time);
	c->fr.frames++;
	if (time <= period && rep->pos == 0)
		c->fr.met++;
	else
		c->fr.missed++;
	c->fr.not_started += rep->pos;
	if (rep->run > c->fr.longest)
		c->fr.longest = rep->run;
}

void
feed_frames_end(struct result *res, const struct config *cfg, unsigned idx,
    int64_t next, int64_t end, uint64_t run)
{
	struct class_result *c = &res->classes[cfg->class_of[idx]];
	int64_t period = cfg->classes[cfg->class_of[idx]].frame;
	uint64_t passed;

	if (end - next < period || next - res->start < cfg->warmup)
		return;
	passed = (uint64_t)((end - next) / period);
	c->fr.not_started += passed;
	if (run + passed > c->fr.longest)
		c->fr.longest = run + passed;
}

int
feed_suspended(struct result *res, int64_t send, int64_t end)
{
	if (res->nsuspend == 0 || send > res->susp_last_to ||
	    end < res->susp_last_from)
		return 0;
	res->susp_dropped++;
	return 1;
}

void
feed_stall(struct result *res, int64_t when, int64_t len)
{
	struct stall *st;
	int64_t lo, hi;

	/* A suspension (Ctrl-Z) in it is no stall: what is left might be. */
	if (res->nsuspend > 0) {
		lo = when > res->susp_last_from ? when : res->susp_last_from;
		hi = when + len < res->susp_last_to ? when + len :
		    res->susp_last_to;
		if (hi > lo) {
			len -= hi - lo;
			if (lo == when)
				when = hi;
			if (len <= STALL_NS)
				return;
		}
	}

	when -= res->start;
	if (res->nstalls > 0 && res->nstalls <= STALLS_MAX) {
		st = &res->stalls[res->nstalls - 1];
		if (when <= st->when + st->len + NSEC_PER_MSEC) {
			res->stall_total += when + len - (st->when + st->len);
			st->len = when + len - st->when;
			return;
		}
	}
	res->stall_total += len;
	if (res->nstalls < STALLS_MAX)
		res->stalls[res->nstalls] = (struct stall){ when, len };
	res->nstalls++;
}

void
feed_waited(struct result *res, int64_t sent, int64_t now, int64_t next)
{
	/* latt's own stalls since the last round are not the clients'. */
	int64_t w = now - sent - next - (res->stall_total - res->waited_stalls);

	res->waited_stalls = res->stall_total;
	if (res->nrounds > 0 && w > 0 && sent >= res->susp_last_to)
		res->waited += w;
}

/*
 * A wake-up into a list of series (the run's, or its class's): its
 * latency, and the runqueue wait and the rest of it when known.
 */
static void
add_wake(struct series *ser, const struct sample *s, unsigned idx)
{
	series_add(&ser[SER_LATENCY], s->latency, idx, s->when);
	if (s->rq_wait < 0)
		return;
	series_add(&ser[SER_RUNQUEUE], s->rq_wait, idx, s->when);
	series_add(&ser[SER_WAKE_PATH], s->latency - s->rq_wait, idx, s->when);
}

/* A busy phase's real length, into the run's series and its class's. */
static void
add_busy(struct result *res, const struct config *cfg,
    const struct sample *s)
{
	if (res->ser[SER_BUSY].on)
		series_add(&res->ser[SER_BUSY], s->busy_ns, s->client,
		    s->when);
	if (res->classes != NULL &&
	    res->classes[cfg->class_of[s->client]].ser[SER_BUSY].on)
		series_add(&res->classes[cfg->class_of[s->client]].ser[
		    SER_BUSY], s->busy_ns, s->client, s->when);
}

/*
 * Hands a sample to the sink.  One that blocks latt for more than
 * STALL_NS (a --log reader slower than the samples come) is a stall of
 * latt's own: no round is sent meanwhile.
 */
int
feed_sink(struct result *res, int (*sink)(void *, const struct sample *),
    void *arg, const struct sample *s)
{
	int64_t t0 = now_ns(), t;
	int r;

	r = sink(arg, s);
	if ((t = now_ns()) - t0 > STALL_NS)
		feed_stall(res, t0, t - t0);
	return r;
}
