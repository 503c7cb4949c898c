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
#include "lib/common.h"
#include "result.h"

static void	 put_ns_or_null(FILE *, int *, const char *, int64_t);
static void	 put_waker(FILE *, const struct autopsy_sample *);
static void	 put_item(FILE *, unsigned);
static void	 put_ran(FILE *, const struct autopsy_sample *);
static void	 put_irqs(FILE *, const struct autopsy_sample *);
static void	 put_timeline(FILE *, const struct autopsy_sample *);
static void	 put_autopsy_sample(FILE *, const struct autopsy_sample *);

/* A split of the latency: ns, or null where the trace could not say. */
static void
put_ns_or_null(FILE *fp, int *first, const char *key, int64_t v)
{
	jw_key(fp, first, " ", key);
	if (v < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%lld", (long long)v);
}

/* Who issued the sample's wake-up: null when the trace does not say. */
static void
put_waker(FILE *fp, const struct autopsy_sample *as)
{
	int first = 1;

	fputs(",\n       \"waker\": ", fp);
	if (as->waker_cpu < 0) {
		fputs("null", fp);
		return;
	}
	fputc('{', fp);
	jw_key(fp, &first, " ", "pid");
	fprintf(fp, "%d", (int)as->waker_pid);
	jw_key(fp, &first, " ", "comm");
	jw_string(fp, as->waker_comm);
	jw_key(fp, &first, " ", "cpu");
	fprintf(fp, "%d", (int)as->waker_cpu);
	jw_key(fp, &first, " ", "from_interrupt");
	fputs(as->waker_irq ? "true" : "false", fp);
	fputc('}', fp);
}

/* The opening of the i-th object of a sample's list. */
static void
put_item(FILE *fp, unsigned i)
{
	fputs(i > 0 ? ",\n         {" : "\n         {", fp);
}

/* The tasks that had the CPU while the sample's task waited for it. */
static void
put_ran(FILE *fp, const struct autopsy_sample *as)
{
	const struct ran_task *r;
	unsigned i;
	int first;

	fputs(",\n       \"ran\": [", fp);
	for (i = 0; i < as->nran; i++) {
		r = &as->ran[i];
		put_item(fp, i);
		first = 1;
		jw_key(fp, &first, " ", "comm");
		jw_string(fp, r->comm);
		jw_key(fp, &first, " ", "pid");
		fprintf(fp, "%d", (int)r->pid);
		jw_key(fp, &first, " ", "prio");
		fprintf(fp, "%d", r->prio);
		jw_key(fp, &first, " ", "policy");
		jw_string(fp, r->policy);
		jw_key(fp, &first, " ", "cpu");
		fprintf(fp, "%d", (int)r->cpu);
		jw_key(fp, &first, " ", "ns");
		fprintf(fp, "%lld", (long long)r->ns);
		jw_key(fp, &first, " ", "left");
		jw_string(fp, r->left);
		fputc('}', fp);
	}
	fputc(']', fp);
}

/* The interrupts on the CPUs that mattered. */
static void
put_irqs(FILE *fp, const struct autopsy_sample *as)
{
	const struct irq_span *q;
	unsigned i;
	int first;

	fputs(",\n       \"irqs\": [", fp);
	for (i = 0; i < as->nirqs; i++) {
		q = &as->irqs[i];
		put_item(fp, i);
		first = 1;
		jw_key(fp, &first, " ", "kind");
		jw_string(fp, q->kind);
		jw_key(fp, &first, " ", "num");
		fprintf(fp, "%d", q->num);
		jw_key(fp, &first, " ", "name");
		jw_string(fp, q->name);
		jw_key(fp, &first, " ", "cpu");
		fprintf(fp, "%d", (int)q->cpu);
		jw_key(fp, &first, " ", "start_ns");
		fprintf(fp, "%lld", (long long)q->start);
		jw_key(fp, &first, " ", "ns");
		fprintf(fp, "%lld", (long long)q->ns);
		fputc('}', fp);
	}
	fputc(']', fp);
}

/* The timeline from the send stamp to the sample's own stamp. */
static void
put_timeline(FILE *fp, const struct autopsy_sample *as)
{
	const struct tl_item *t;
	unsigned i;
	int first;

	fputs(",\n       \"timeline\": [", fp);
	for (i = 0; i < as->ntl; i++) {
		t = &as->tl[i];
		put_item(fp, i);
		first = 1;
		jw_key(fp, &first, " ", "t_ns");
		fprintf(fp, "%lld", (long long)t->t);
		jw_key(fp, &first, " ", "cpu");
		fprintf(fp, "%d", (int)t->cpu);
		jw_key(fp, &first, " ", "kind");
		jw_string(fp, t->kind);
		jw_key(fp, &first, " ", "what");
		jw_string(fp, t->what);
		fputc('}', fp);
	}
	fputc(']', fp);
}

static void
put_autopsy_sample(FILE *fp, const struct autopsy_sample *as)
{
	int first = 1, f2;

	fputs("\n      {", fp);
	jw_key(fp, &first, " ", "client");
	if (as->timer)
		fputs("null", fp);
	else
		fprintf(fp, "%u", as->s.client);
	jw_key(fp, &first, " ", "timer");
	fputs(as->timer ? "true" : "false", fp);
	jw_key(fp, &first, " ", "breaktrace");
	fputs(as->broke ? "true" : "false", fp);
	jw_key(fp, &first, " ", "pid");
	fprintf(fp, "%d", (int)as->s.pid);
	jw_key(fp, &first, " ", "round");
	fprintf(fp, "%llu", (unsigned long long)as->s.round);
	jw_key(fp, &first, " ", "latency_ns");
	fprintf(fp, "%lld", (long long)as->s.latency);
	jw_key(fp, &first, " ", "at_ns");
	fprintf(fp, "%lld", (long long)as->s.when);
	jw_key(fp, &first, " ", "cpu");
	fprintf(fp, "%d", (int)as->s.cpu);
	put_ns_or_null(fp, &first, "schedstat_runqueue_ns", as->s.rq_wait);
	jw_key(fp, &first, " ", "found");
	fputs(as->found ? "true" : "false", fp);
	jw_key(fp, &first, " ", "complete");
	fputs(as->complete ? "true" : "false", fp);
	jw_key(fp, &first, " ", "incomplete");
	jw_str_or_null(fp, as->complete ? NULL : as->lost_note);
	jw_key(fp, &first, " ", "state_at_send");
	jw_string(fp, as->state);
	put_waker(fp, as);
	fprintf(fp, ", \"target_cpu\": %d, \"run_cpu\": %d, \"idle_target\": "
	    "%s, \"ipi\": %s, \"migrations\": %u", (int)as->target_cpu,
	    (int)as->run_cpu, as->idle_target ? "true" : "false",
	    as->ipi ? "true" : "false", as->migrations);
	fputs(",\n       \"split_ns\": {", fp);
	f2 = 1;
	put_ns_or_null(fp, &f2, "issue", as->issue);
	put_ns_or_null(fp, &f2, "not_runnable", as->not_runnable);
	put_ns_or_null(fp, &f2, "in_flight", as->in_flight);
	put_ns_or_null(fp, &f2, "runqueue", as->rq_wait);
	put_ns_or_null(fp, &f2, "running", as->running);
	fputc('}', fp);
	put_ran(fp, as);
	put_irqs(fp, as);
	put_timeline(fp, as);
	fputs(",\n       \"verdict\": ", fp);
	jw_string(fp, as->verdict);
	fputc('}', fp);
}

/* --explain: the autopsy of the worst wake-ups (docs/json-schema.md). */
void
jsonexpl_write(FILE *fp, const struct result *res)
{
	const struct autopsy *ap = res->autopsy;
	int first = 1;
	unsigned i;

	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "instance");
	jw_str_or_null(fp, ap->instance);
	jw_key(fp, &first, "\n    ", "trace_clock");
	jw_string(fp, "mono");
	jw_key(fp, &first, "\n    ", "buffer_kb");
	fprintf(fp, "%u", ap->buf_kb);
	jw_key(fp, &first, "\n    ", "cpus");
	fprintf(fp, "%u", ap->ncpus);
	jw_key(fp, &first, "\n    ", "events");
	fprintf(fp, "%llu", (unsigned long long)ap->events);
	jw_key(fp, &first, "\n    ", "lost_events");
	fprintf(fp, "%llu", (unsigned long long)ap->lost);
	jw_key(fp, &first, "\n    ", "covered_from_ns");
	fprintf(fp, "%lld", (long long)ap->covered_from);
	jw_key(fp, &first, "\n    ", "error");
	if (ap->error == NULL)
		fputs("null", fp);
	else {
		char *msg;

		if (ap->error_errno == 0 || asprintf(&msg, "%s: %s",
		    ap->error, strerror(ap->error_errno)) == -1)
			msg = NULL;
		jw_str_or_null(fp, msg != NULL ? msg : ap->error);
		free(msg);
	}
	jw_key(fp, &first, "\n    ", "mount_lost");
	jw_str_or_null(fp, ap->mount_lost);
	/* Without a trace, the samples have no autopsy to show. */
	jw_key(fp, &first, "\n    ", "samples");
	fputc('[', fp);
	for (i = 0; ap->error == NULL && i < ap->n; i++) {
		if (i > 0)
			fputc(',', fp);
		put_autopsy_sample(fp, &ap->s[i]);
	}
	fputs(ap->error == NULL && ap->n > 0 ? "\n    ]" : "]", fp);
	fputs("\n  }", fp);
}
