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

static void	 open_spaced(struct jw *, const char *, struct jw *);
static void	 put_waker(struct jw *, const struct autopsy_sample *);
static void	 put_lists(struct jw *, const struct autopsy_sample *);
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

/*
 * The sample's lists: the tasks that had the CPU while its task waited
 * for it, the interrupts on the CPUs that mattered, and the timeline
 * from the send stamp to the sample's own stamp.
 */
static void
put_lists(struct jw *o, const struct autopsy_sample *as)
{
	const struct ran_task *r;
	const struct irq_span *q;
	const struct tl_item *t;
	struct jw a, e;
	unsigned i;

	jw_array(o, "ran", &a, "\n         ");
	for (i = 0; i < as->nran; i++) {
		r = &as->ran[i];
		open_spaced(&a, NULL, &e);
		jw_str(&e, "comm", r->comm);
		jw_int(&e, "pid", r->pid);
		jw_int(&e, "prio", r->prio);
		jw_str(&e, "policy", r->policy);
		jw_int(&e, "cpu", r->cpu);
		jw_int(&e, "ns", r->ns);
		jw_str(&e, "left", r->left);
		jw_end(&e, "");
	}
	jw_end(&a, "");
	jw_array(o, "irqs", &a, "\n         ");
	for (i = 0; i < as->nirqs; i++) {
		q = &as->irqs[i];
		open_spaced(&a, NULL, &e);
		jw_str(&e, "kind", q->kind);
		jw_int(&e, "num", q->num);
		jw_str(&e, "name", q->name);
		jw_int(&e, "cpu", q->cpu);
		jw_int(&e, "start_ns", q->start);
		jw_int(&e, "ns", q->ns);
		jw_end(&e, "");
	}
	jw_end(&a, "");
	jw_array(o, "timeline", &a, "\n         ");
	for (i = 0; i < as->ntl; i++) {
		t = &as->tl[i];
		open_spaced(&a, NULL, &e);
		jw_int(&e, "t_ns", t->t);
		jw_int(&e, "cpu", t->cpu);
		jw_str(&e, "kind", t->kind);
		jw_str(&e, "what", t->what);
		jw_end(&e, "");
	}
	jw_end(&a, "");
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
	put_lists(&o, as);
	jw_str(&o, "verdict", as->verdict);
	jw_end(&o, "");
}
