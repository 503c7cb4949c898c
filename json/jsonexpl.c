/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonexpl.c: --explain's autopsy in the results file (json.c's
 * "explain", docs/json-schema.md): the trace's coverage and, for each of
 * the worst wake-ups, who woke it, what ran and what interrupted it
 * meanwhile, its timeline, split and verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/autopsy.h"
#include "json/jsonexpl.h"
#include "json/jsonw.h"
#include "result.h"

typedef void	 put_fn(struct jw *, const struct autopsy_sample *, unsigned);

static void	 open_spaced(struct jw *, const char *, struct jw *);
static void	 put_waker(struct jw *, const struct autopsy_sample *);
static void	 put_list(struct jw *, const char *,
		    const struct autopsy_sample *, unsigned, put_fn *);
static put_fn	 put_ran, put_irq, put_step;
static void	 put_sample(struct jw *, const struct autopsy_sample *);

void
jsonexpl_write(struct jw *in, const char *key, const struct result *res)
{
	const struct autopsy *ap = res->autopsy;
	char *msg = NULL;
	struct jw o, a;
	unsigned i;

	jw_object(in, key, &o, "\n    ");
	jw_str(&o, "instance", ap->instance);
	jw_str(&o, "trace_clock", "mono");
	jw_uint(&o, "buffer_kb", ap->buf_kb);
	jw_uint(&o, "cpus", ap->ncpus);
	jw_uint(&o, "events", ap->events);
	jw_uint(&o, "lost_events", ap->lost);
	jw_int(&o, "covered_from_ns", ap->covered_from);
	if (ap->error != NULL && ap->error_errno != 0 && asprintf(&msg,
	    "%s: %s", ap->error, strerror(ap->error_errno)) == -1)
		msg = NULL;
	jw_str(&o, "error", msg != NULL ? msg : ap->error);
	free(msg);
	jw_str(&o, "mount_lost", ap->mount_lost);
	/* Without a trace, the samples have no autopsy to show. */
	jw_array(&o, "samples", &a, "\n      ");
	for (i = 0; ap->error == NULL && i < ap->n; i++)
		put_sample(&a, &ap->s[i]);
	jw_end(&a, "\n    ");
	jw_end(&o, "\n  ");
}

/* An object of a sample's, written "{ ...}": a space before each member. */
static void
open_spaced(struct jw *in, const char *key, struct jw *o)
{
	jw_object(in, key, o, " ");
	jw_sep(o, " ");
}

/* Who issued the sample's wake-up: null when the trace does not say. */
static void
put_waker(struct jw *in, const struct autopsy_sample *as)
{
	struct jw o;

	if (!jw_object_if(in, "waker", &o, " ", as->waker_cpu >= 0))
		return;
	jw_sep(&o, " ");
	jw_int(&o, "pid", as->waker_pid);
	jw_str(&o, "comm", as->waker_comm);
	jw_int(&o, "cpu", as->waker_cpu);
	jw_bool(&o, "from_interrupt", as->waker_irq);
	jw_end(&o, "");
}

/* A list of the sample's: n objects, put writing the members of each. */
static void
put_list(struct jw *in, const char *key, const struct autopsy_sample *as,
    unsigned n, put_fn *put)
{
	struct jw a, o;
	unsigned i;

	jw_array(in, key, &a, "\n         ");
	for (i = 0; i < n; i++) {
		open_spaced(&a, NULL, &o);
		put(&o, as, i);
		jw_end(&o, "");
	}
	jw_end(&a, "");
}

/* A task that had the CPU while the sample's task waited for it. */
static void
put_ran(struct jw *o, const struct autopsy_sample *as, unsigned i)
{
	const struct ran_task *r = &as->ran[i];

	jw_str(o, "comm", r->comm);
	jw_int(o, "pid", r->pid);
	jw_int(o, "prio", r->prio);
	jw_str(o, "policy", r->policy);
	jw_int(o, "cpu", r->cpu);
	jw_int(o, "ns", r->ns);
	jw_str(o, "left", r->left);
}

/* An interrupt on a CPU that mattered. */
static void
put_irq(struct jw *o, const struct autopsy_sample *as, unsigned i)
{
	const struct irq_span *q = &as->irqs[i];

	jw_str(o, "kind", q->kind);
	jw_int(o, "num", q->num);
	jw_str(o, "name", q->name);
	jw_int(o, "cpu", q->cpu);
	jw_int(o, "start_ns", q->start);
	jw_int(o, "ns", q->ns);
}

/* A step of the timeline from the send stamp to the sample's own stamp. */
static void
put_step(struct jw *o, const struct autopsy_sample *as, unsigned i)
{
	const struct tl_item *t = &as->tl[i];

	jw_int(o, "t_ns", t->t);
	jw_int(o, "cpu", t->cpu);
	jw_str(o, "kind", t->kind);
	jw_str(o, "what", t->what);
}

static void
put_sample(struct jw *in, const struct autopsy_sample *as)
{
	struct jw o, s;

	open_spaced(in, NULL, &o);
	jw_int_if(&o, "client", !as->timer, as->s.client);
	jw_bool(&o, "timer", as->timer);
	jw_bool(&o, "breaktrace", as->broke);
	jw_int(&o, "pid", as->s.pid);
	jw_uint(&o, "round", as->s.round);
	jw_int(&o, "latency_ns", as->s.latency);
	jw_int(&o, "at_ns", as->s.when);
	jw_int(&o, "cpu", as->s.cpu);
	jw_int_if(&o, "schedstat_runqueue_ns", as->s.rq_wait >= 0,
	    as->s.rq_wait);
	jw_bool(&o, "found", as->found);
	jw_bool(&o, "complete", as->complete);
	jw_str(&o, "incomplete", as->complete ? NULL : as->lost_note);
	jw_str(&o, "state_at_send", as->state);
	jw_sep(&o, "\n       ");
	put_waker(&o, as);
	jw_int(&o, "target_cpu", as->target_cpu);
	jw_int(&o, "run_cpu", as->run_cpu);
	jw_bool(&o, "idle_target", as->idle_target);
	jw_bool(&o, "ipi", as->ipi);
	jw_uint(&o, "migrations", as->migrations);
	o.sep = "\n       ";
	/* The split of the latency, null where the trace could not say. */
	open_spaced(&o, "split_ns", &s);
	jw_int_if(&s, "issue", as->issue >= 0, as->issue);
	jw_int_if(&s, "not_runnable", as->not_runnable >= 0,
	    as->not_runnable);
	jw_int_if(&s, "in_flight", as->in_flight >= 0, as->in_flight);
	jw_int_if(&s, "runqueue", as->rq_wait >= 0, as->rq_wait);
	jw_int_if(&s, "running", as->running >= 0, as->running);
	jw_end(&s, "");
	put_list(&o, "ran", as, as->nran, put_ran);
	put_list(&o, "irqs", as, as->nirqs, put_irq);
	put_list(&o, "timeline", as, as->ntl, put_step);
	jw_str(&o, "verdict", as->verdict);
	jw_end(&o, "");
}
