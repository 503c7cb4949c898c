/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The analysis of --explain: for each kept sample, follows its task
 * through the decoded trace (tracedec.h) from the parent's send stamp to
 * the task's own stamp: its state at the send, the wake-up (who issued
 * it, from which CPU, to which), the IPI or migration, the time it waited
 * runnable and who had the CPU meanwhile, the switch in, and the
 * interrupts on the CPUs that mattered.  The stretches add up to the
 * latency; the largest of them makes a one-line verdict.  What it builds
 * is struct autopsy (autopsy.h), which report.c and json.c print; it reads
 * no tracefs file (explain.c hands it the trace) and prints nothing.
 */
#include <sys/types.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/autopsy.h"
#include "explain/tracedec.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "result.h"

#define TL_MAX		96		/* timeline lines of one sample */
#define RAN_MAX		32		/* tasks listed for one sample */
#define IRQ_MAX		64		/* interrupts listed for one sample */
#define SEG_MAX		64		/* stretches of one sample */
#define TICK_NEAR_NS	(30 * NSEC_PER_USEC)	/* a switch after a tick */
#define EXPLAIN_DIGITS	4		/* significant digits of a time */

/* One stretch of the sampled task's life between its send and stamp. */
enum seg_kind {
	SEG_ISSUE,		/* until the wake-up was issued */
	SEG_NOTRUN,		/* stopped or asleep past the write */
	SEG_FLIGHT,		/* wake-up issued, not yet enqueued */
	SEG_QUEUED,		/* runnable, not running */
	SEG_RUNNING,		/* switched in, until the stamp */
	SEG_N
};

struct seg {
	enum seg_kind	 kind;
	int32_t		 cpu;
	int64_t		 a, b;
	int64_t		 from_merge;	/* where a merged stretch began, or 0 */
};

/* The sampled task followed through the trace, one event at a time. */
struct follow {
	const struct tdec_trace *tr;
	struct autopsy_sample *as;
	pid_t		 pid;		/* the sampled task */
	pid_t		 parent;	/* latt */
	struct seg	 segs[SEG_MAX];	/* the stretches ended so far */
	unsigned	 nseg;
	enum seg_kind	 cur;		/* the stretch under way */
	int32_t		 cpu;		/* its CPU, -1: unknown */
	int64_t		 from;		/* and its start */
	int		 seen;		/* the trace has the task's wake-up */
};

static void	 mark_breaktrace(struct autopsy *, const struct result *,
		    pid_t);
static void	 analyse(const struct tdec_trace *, pid_t,
		    struct autopsy_sample *);
static void	 check_whole(const struct tdec_trace *,
		    struct autopsy_sample *);
static void	 state_at_send(struct follow *);
static void	 follow_events(struct follow *);
static void	 end_seg(struct follow *, int64_t, enum seg_kind, int32_t);
static void	 on_waking(struct follow *, const struct tdec_ev *);
static void	 on_ipi(struct follow *, const struct tdec_ev *);
static void	 on_switch(struct follow *, const struct tdec_ev *);
static void	 tally(struct follow *);
static const struct tdec_ev *current_on(const struct tdec_trace *, int32_t,
		    int64_t);
static int	 after_tick(const struct tdec_trace *, int32_t, int64_t);
static void	 who_ran(const struct tdec_trace *, struct autopsy_sample *,
		    int32_t, int64_t, int64_t);
static void	 irqs_on(const struct tdec_trace *, struct autopsy_sample *,
		    int32_t, int64_t, int64_t);
static int	 intr_span(const struct tdec_trace *, size_t, int64_t,
		    struct irq_span *);
static const char *irq_what(const struct irq_span *, int, char *, size_t);
static void	 verdict(const struct follow *);
static void	 behind_whom(struct autopsy_sample *);
static const char *irq_when(const struct follow *, const struct irq_span *);
static void	 cat(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	 add_tl(struct autopsy_sample *, int64_t, int32_t,
		    const char *, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
static struct ran_task *add_ran(struct autopsy_sample *,
		    const struct tdec_trace *, const struct tdec_ev *,
		    const struct tdec_ev *, int32_t, int64_t);
static int	 cmp_ran(const void *, const void *);
static void	 describe_policy(pid_t, int, const char *, char *, size_t);
static const char *how_left(int64_t);
static const char *state_name(int64_t);

struct autopsy *
autopsy_new(struct result *res, const char *instance, unsigned buf_kb,
    pid_t parent)
{
	struct autopsy *ap;
	unsigned i, n;
	int have_brk;

	if ((ap = calloc(1, sizeof(*ap))) == NULL)
		return NULL;
	res->autopsy = ap;
	ap->instance = strdup(instance);
	ap->buf_kb = buf_kb;

	/* The subjects: the K worst, then the breaktrace sample. */
	have_brk = res->stop == STOP_BREAK && (res->brk.timer ||
	    res->have_last);
	n = res->nworst + (have_brk ? 1 : 0);
	if ((ap->s = calloc(n > 0 ? n : 1, sizeof(*ap->s))) == NULL) {
		ap->error = "calloc";
		ap->error_errno = ENOMEM;
		return ap;
	}
	for (i = 0; i < res->nworst; i++)
		ap->s[ap->n++].s = res->worst[i];
	if (have_brk)
		mark_breaktrace(ap, res, parent);
	for (i = 0; i < ap->n; i++) {
		ap->s[i].send = res->start + ap->s[i].s.when;
		ap->s[i].wake = ap->s[i].send + ap->s[i].s.latency;
	}
	return ap;
}

void
autopsy_analyse(struct autopsy *ap, const struct tdec_trace *tr,
    pid_t parent)
{
	unsigned i;

	for (i = 0; i < ap->n; i++)
		analyse(tr, parent, &ap->s[i]);
}

void
autopsy_free(struct autopsy *ap)
{
	unsigned i;

	if (ap == NULL)
		return;
	for (i = 0; i < ap->n; i++) {
		free(ap->s[i].ran);
		free(ap->s[i].irqs);
		free(ap->s[i].tl);
	}
	free(ap->s);
	free(ap->instance);
	free(ap->mount_lost);
	free(ap);
}

const char *
autopsy_dur(int64_t ns, char *buf, size_t len)
{
	double v = (double)ns, q;

	/* Rounded first, so that 999.97 us is 1.000 ms, never 1000.0 us. */
	if (fabs(v) >= 1e4) {
		q = pow(10, floor(log10(fabs(v))) - (EXPLAIN_DIGITS - 1));
		v = round(v / q) * q;
	}
	return fmt_time(buf, len, v, EXPLAIN_DIGITS, "us");
}

/*
 * The sample --breaktrace stopped at is marked among the K worst, or
 * added after them: the last client sample, or the timer's, which is the
 * parent's own wake-up.
 */
static void
mark_breaktrace(struct autopsy *ap, const struct result *res, pid_t parent)
{
	struct autopsy_sample *as;
	unsigned i;

	/* A client's sample may be among the K worst; the timer's never is. */
	for (i = 0; !res->brk.timer && i < ap->n; i++)
		if (ap->s[i].s.client == res->last.client &&
		    ap->s[i].s.round == res->last.round &&
		    ap->s[i].s.latency == res->last.latency) {
			ap->s[i].broke = 1;
			return;
		}
	as = &ap->s[ap->n++];
	as->broke = 1;
	if (res->brk.timer) {
		as->timer = 1;
		as->s.when = res->brk.when;
		as->s.latency = res->brk.latency;
		as->s.pid = parent;
		as->s.cpu = -1;
		as->s.rq_wait = -1;
	} else
		as->s = res->last;
}

/*
 * The autopsy of one sample: whether the trace is whole around it, the
 * task's state at the send, its life event by event until its stamp, then
 * the stretches summed and the verdict.
 */
static void
analyse(const struct tdec_trace *tr, pid_t parent, struct autopsy_sample *as)
{
	struct follow fw;
	char d[32];

	as->waker_cpu = as->target_cpu = as->run_cpu = -1;
	as->issue = as->not_runnable = as->in_flight = as->rq_wait =
	    as->running = -1;
	snprintf(as->state, sizeof(as->state), "unknown");
	check_whole(tr, as);

	memset(&fw, 0, sizeof(fw));
	fw.tr = tr;
	fw.as = as;
	fw.pid = as->s.pid;
	fw.parent = parent;
	fw.cpu = -1;
	state_at_send(&fw);
	follow_events(&fw);
	end_seg(&fw, as->wake, fw.cur, fw.cpu);
	add_tl(as, as->wake, as->run_cpu >= 0 ? as->run_cpu : as->s.cpu,
	    "stamp", "the %s stamps its wake-up: latency %s",
	    as->timer ? "parent" : "client", autopsy_dur(as->s.latency, d,
	    sizeof(d)));
	as->found = fw.seen;
	if (!fw.seen) {
		as->complete = 0;
		if (as->lost_note[0] == '\0')
			snprintf(as->lost_note, sizeof(as->lost_note), "the "
			    "trace has no wake-up of pid %d in the window",
			    (int)fw.pid);
		snprintf(as->verdict, sizeof(as->verdict), "no verdict: %s",
		    as->lost_note);
		return;
	}
	tally(&fw);
	if (as->ran != NULL)
		qsort(as->ran, as->nran, sizeof(*as->ran), cmp_ran);
	verdict(&fw);
}

/*
 * Whether the trace has every event around the sample: a CPU that lost
 * events and kept none from before the send, or a stretch missing during
 * the sample, makes its autopsy incomplete, and says so.
 */
static void
check_whole(const struct tdec_trace *tr, struct autopsy_sample *as)
{
	const struct tdec_gap *g;
	unsigned c;
	size_t k;

	as->complete = 1;
	for (c = 0; c < tr->ncpus; c++)
		if (tr->cpu[c].lost > 0 && tr->cpu[c].oldest > as->send) {
			as->complete = 0;
			snprintf(as->lost_note, sizeof(as->lost_note), "CPU %u "
			    "lost %llu events to a full buffer, and kept none "
			    "from before this sample", c,
			    (unsigned long long)tr->cpu[c].lost);
			break;
		}
	for (k = 0; as->complete && k < tr->ngaps; k++) {
		g = &tr->gaps[k];
		if (g->to >= as->send && g->from <= as->wake) {
			as->complete = 0;
			snprintf(as->lost_note, sizeof(as->lost_note), "CPU %d "
			    "%s during this sample", (int)g->cpu, g->kernel ?
			    "lost events to a full buffer" : "has a stretch "
			    "latt's keeper let go (its memory bound)");
		}
	}
}

/*
 * The task's state at the send stamp, from how it last left a CPU (or
 * that it was on one), and the first stretch: the write, a stop, or a
 * wait in the runqueue.
 */
static void
state_at_send(struct follow *fw)
{
	const struct tdec_trace *tr = fw->tr;
	struct autopsy_sample *as = fw->as;
	const struct tdec_ev *e, *prev = NULL;
	const char *st;
	size_t k;

	for (k = tdec_first_at(tr, as->send); k-- > 0; ) {
		e = &tr->ev[k];
		if (e->kind == EV_SWITCH && (e->sw.prev_pid == fw->pid ||
		    e->sw.next_pid == fw->pid)) {
			prev = e;
			break;
		}
	}
	fw->cur = SEG_ISSUE;
	fw->cpu = prev != NULL ? prev->cpu : -1;
	if (prev != NULL && prev->sw.next_pid == fw->pid) {
		snprintf(as->state, sizeof(as->state), "running");
		fw->cur = SEG_RUNNING;
	} else if (prev != NULL) {
		st = state_name(prev->sw.prev_state);
		snprintf(as->state, sizeof(as->state), "%s", st);
		if (strcmp(st, "stopped") == 0)
			fw->cur = SEG_NOTRUN;
		else if (strcmp(st, "runnable") == 0)
			fw->cur = SEG_QUEUED;
	}
	add_tl(as, as->send, -1, "send", "%s %s", as->timer ? "the timer's "
	    "deadline; the parent is" : "send: the parent stamps and writes; "
	    "the client is", as->state);
	if (prev != NULL && prev->sw.next_pid != fw->pid)
		add_tl(as, prev->ts, prev->cpu, "blocked",
		    "%s[%d] left CPU %d: %s", tdec_str(tr, prev->sw.prev_comm),
		    (int)fw->pid, (int)prev->cpu,
		    how_left(prev->sw.prev_state));
	fw->from = as->send;
}

/* Every event from the send stamp to the task's own stamp, in order. */
static void
follow_events(struct follow *fw)
{
	const struct tdec_trace *tr = fw->tr;
	const struct tdec_ev *e;
	size_t k;

	for (k = tdec_first_at(tr, fw->as->send); k < tr->nev &&
	    tr->ev[k].ts <= fw->as->wake; k++) {
		e = &tr->ev[k];
		switch (e->kind) {
		case EV_WAKING:
			if (e->wake.pid == fw->pid)
				on_waking(fw, e);
			break;
		case EV_WAKEUP:		/* the task enqueued: runnable */
			if (e->wake.pid != fw->pid)
				break;
			fw->seen = 1;
			end_seg(fw, e->ts, SEG_QUEUED, e->wake.target_cpu);
			add_tl(fw->as, e->ts, e->wake.target_cpu, "wakeup",
			    "runnable on CPU %d", (int)e->wake.target_cpu);
			break;
		case EV_MIGRATE:
			if (e->mig.pid != fw->pid)
				break;
			fw->as->migrations++;
			end_seg(fw, e->ts, fw->cur, e->mig.dest_cpu);
			add_tl(fw->as, e->ts, e->cpu, "migrate", "moved from "
			    "CPU %d to CPU %d", (int)e->mig.orig_cpu,
			    (int)e->mig.dest_cpu);
			break;
		case EV_IPI_CPU:
		case EV_IPI_MASK:
		case EV_IDLE_NOIPI:
			on_ipi(fw, e);
			break;
		case EV_SWITCH:
			on_switch(fw, e);
			break;
		default:
			break;
		}
	}
}

/*
 * The stretch under way ends at ts (the first SEG_MAX are kept), and the
 * next, of kind next on cpu, begins.
 */
static void
end_seg(struct follow *fw, int64_t ts, enum seg_kind next, int32_t cpu)
{
	if (fw->nseg < SEG_MAX)
		fw->segs[fw->nseg++] = (struct seg){ fw->cur, fw->cpu,
		    fw->from, ts, 0 };
	fw->cur = next;
	fw->cpu = cpu;
	fw->from = ts;
}

/*
 * The wake-up issued: the wait so far was the write, or a stop.  The
 * waker is the task the event ran in, or an interrupt that came in while
 * it ran.
 */
static void
on_waking(struct follow *fw, const struct tdec_ev *e)
{
	const struct tdec_trace *tr = fw->tr;
	struct autopsy_sample *as = fw->as;
	const struct tdec_ev *w, *t;

	fw->seen = 1;
	end_seg(fw, e->ts, SEG_FLIGHT, e->wake.target_cpu);
	as->waker_cpu = e->cpu;
	as->target_cpu = e->wake.target_cpu;
	w = current_on(tr, e->cpu, e->ts);
	as->waker_pid = e->pid;
	as->waker_irq = (e->flags & CTX_INTERRUPT) != 0;
	snprintf(as->waker_comm, sizeof(as->waker_comm), "%s", w != NULL &&
	    w->sw.next_pid == e->pid ? tdec_str(tr, w->sw.next_comm) :
	    e->pid == 0 ? "idle" : "?");
	t = current_on(tr, e->wake.target_cpu, e->ts);
	as->idle_target = t != NULL && t->sw.next_pid == 0;
	add_tl(as, e->ts, e->cpu, "waking", "woken %s %s[%d] on "
	    "CPU %d, for CPU %d (%s)", as->waker_irq ? "from an interrupt "
	    "over" : "by", as->waker_comm, (int)as->waker_pid, (int)e->cpu,
	    (int)e->wake.target_cpu, t == NULL ? "its task unknown" :
	    t->sw.next_pid == 0 ? "idle" : tdec_str(tr, t->sw.next_comm));
	if (!as->timer && as->waker_pid != fw->parent && fw->nseg > 0 &&
	    fw->segs[fw->nseg - 1].kind == SEG_ISSUE)
		fw->segs[fw->nseg - 1].kind = SEG_NOTRUN;
}

/* An IPI to the wake-up's target CPU while the wake-up is in flight. */
static void
on_ipi(struct follow *fw, const struct tdec_ev *e)
{
	struct autopsy_sample *as = fw->as;
	int32_t to = as->target_cpu;

	if (fw->cur != SEG_FLIGHT)
		return;
	if (e->kind == EV_IDLE_NOIPI) {
		if (e->ipi.cpu != to)
			return;
		add_tl(as, e->ts, e->cpu, "ipi", "CPU %d polls in "
		    "idle: woken without an IPI", (int)e->ipi.cpu);
		return;
	}
	if (to < 0 || (e->kind == EV_IPI_CPU ? e->ipi.cpu != to : to >= 64 ||
	    !(e->ipi.mask & ((uint64_t)1 << to))))
		return;
	as->ipi = 1;
	add_tl(as, e->ts, e->cpu, "ipi", "IPI from CPU %d to CPU "
	    "%d", (int)e->cpu, (int)to);
}

/* The task switched in (running until its stamp), or out again. */
static void
on_switch(struct follow *fw, const struct tdec_ev *e)
{
	const struct tdec_trace *tr = fw->tr;
	struct autopsy_sample *as = fw->as;
	const char *st;

	if (e->sw.next_pid == fw->pid) {
		fw->seen = 1;
		end_seg(fw, e->ts, SEG_RUNNING, e->cpu);
		as->run_cpu = e->cpu;
		if (e->inferred)
			add_tl(as, e->ts, e->cpu, "switch", "running on CPU %d "
			    "(seen back from read(); the kernel did not trace "
			    "its switch out of idle)", (int)e->cpu);
		else
			add_tl(as, e->ts, e->cpu, "switch", "switched in on "
			    "CPU %d (%s[%d] left it: %s)", (int)e->cpu,
			    tdec_str(tr, e->sw.prev_comm), (int)e->sw.prev_pid,
			    how_left(e->sw.prev_state));
	} else if (e->sw.prev_pid == fw->pid) {
		st = state_name(e->sw.prev_state);
		end_seg(fw, e->ts, strcmp(st, "runnable") == 0 ? SEG_QUEUED :
		    SEG_NOTRUN, fw->cpu);
		add_tl(as, e->ts, e->cpu,
		    (e->sw.prev_state & TS_PREEMPTED) ? "preempted" : "blocked",
		    "left CPU %d: %s (for %s[%d])", (int)e->cpu,
		    how_left(e->sw.prev_state), tdec_str(tr, e->sw.next_comm),
		    (int)e->sw.next_pid);
		if (fw->cur == SEG_NOTRUN)
			snprintf(as->state, sizeof(as->state), "%s", st);
	}
}

/*
 * The stretches summed by kind into the split of the latency, with who
 * had the CPU while the task waited for it and the interrupts on the CPUs
 * that mattered: the waker's while the wake-up was being issued, the
 * target's while it was in flight or queued, the task's own once running.
 */
static void
tally(struct follow *fw)
{
	const struct tdec_trace *tr = fw->tr;
	struct autopsy_sample *as = fw->as;
	int64_t *part[SEG_N] = { &as->issue, &as->not_runnable,
	    &as->in_flight, &as->rq_wait, &as->running }, from;
	struct seg *s, *next;
	unsigned i;
	int32_t cpu;

	for (i = 0; i < SEG_N; i++)
		*part[i] = 0;
	for (i = 0; i < fw->nseg; i++) {
		s = &fw->segs[i];
		next = i + 1 < fw->nseg ? &fw->segs[i + 1] : NULL;
		if (s->b <= s->a)
			continue;
		*part[s->kind] += s->b - s->a;
		switch (s->kind) {
		case SEG_ISSUE:
		case SEG_RUNNING:
			cpu = s->kind == SEG_ISSUE ? as->waker_cpu : s->cpu;
			if (cpu >= 0)
				irqs_on(tr, as, cpu, s->a, s->b);
			break;
		case SEG_FLIGHT:
		case SEG_QUEUED:
			/* In flight then queued on one CPU: one stretch. */
			if (next != NULL && next->cpu == s->cpu &&
			    (next->kind == SEG_FLIGHT ||
			    next->kind == SEG_QUEUED) && next->a == s->b) {
				next->from_merge = s->from_merge ?
				    s->from_merge : s->a;
				break;
			}
			if (s->cpu >= 0) {
				from = s->from_merge ? s->from_merge : s->a;
				who_ran(tr, as, s->cpu, from, s->b);
				irqs_on(tr, as, s->cpu, from, s->b);
			}
			break;
		default:
			break;
		}
	}
}

/*
 * The switch on cpu that was in force at ts: the last sched_switch
 * there before it, or NULL when the trace does not reach back so far.
 */
static const struct tdec_ev *
current_on(const struct tdec_trace *tr, int32_t cpu, int64_t ts)
{
	size_t i = tdec_first_at(tr, ts);

	while (i-- > 0)
		if (tr->ev[i].cpu == cpu && tr->ev[i].kind == EV_SWITCH)
			return &tr->ev[i];
	return NULL;
}

/*
 * Whether cpu took a timer interrupt shortly before ts: a switch that
 * follows one was made at the tick.
 */
static int
after_tick(const struct tdec_trace *tr, int32_t cpu, int64_t ts)
{
	size_t i = tdec_first_at(tr, ts);
	const struct tdec_ev *e;

	while (i-- > 0) {
		e = &tr->ev[i];
		if (ts - e->ts > TICK_NEAR_NS)
			return 0;
		if (e->cpu != cpu)
			continue;
		if ((e->kind == EV_VEC_EXIT &&
		    e->intr.vec == VEC_LOCAL_TIMER) ||
		    (e->kind == EV_SOFTIRQ_EXIT &&
		    (e->intr.num == SOFTIRQ_TIMER ||
		    e->intr.num == SOFTIRQ_HRTIMER)))
			return 1;
	}
	return 0;
}

/*
 * Who else had cpu during [a, b] while the sample's task waited for it:
 * the task current at a, then each one switched in before b, with its
 * share of the stretch and how it left (out: the switch that took it
 * away, NULL when it still ran at b).
 */
static void
who_ran(const struct tdec_trace *tr, struct autopsy_sample *as, int32_t cpu,
    int64_t a, int64_t b)
{
	const struct tdec_ev *in = current_on(tr, cpu, a), *out;
	struct ran_task *r;
	const char *left;
	int64_t from = a, to;
	size_t i;
	char d[32];

	for (i = tdec_first_at(tr, a); ; i++) {
		out = i < tr->nev && tr->ev[i].ts <= b ? &tr->ev[i] : NULL;
		if (out != NULL && (out->cpu != cpu || out->kind != EV_SWITCH))
			continue;
		to = out != NULL ? out->ts : b;
		if ((in == NULL || in->sw.next_pid != as->s.pid) && to > from &&
		    (r = add_ran(as, tr, in, out, cpu, to - from)) != NULL) {
			left = out != NULL ? how_left(out->sw.prev_state) :
			    "still running";
			snprintf(r->left, sizeof(r->left), "%s%s", left,
			    out != NULL && strcmp(left, "preempted") == 0 &&
			    after_tick(tr, cpu, out->ts) ? " at a tick" : "");
			add_tl(as, from, cpu, "ran", "%s[%d] (%s) ran %s%s%s",
			    r->comm, (int)r->pid, r->policy, autopsy_dur(to -
			    from, d, sizeof(d)), out != NULL ? ", then " : "",
			    out != NULL ? r->left : "");
		}
		if (out == NULL)
			break;
		in = out;
		from = out->ts;
	}
}

/*
 * The interrupts, softirqs and interrupt vectors that ran on cpu within
 * [a, b] (absolute ns): each entry is paired with its exit.
 */
static void
irqs_on(const struct tdec_trace *tr, struct autopsy_sample *as, int32_t cpu,
    int64_t a, int64_t b)
{
	struct irq_span q;
	char what[64], d[32];
	size_t i;

	for (i = tdec_first_at(tr, a); i < tr->nev && tr->ev[i].ts <= b; i++) {
		if (tr->ev[i].cpu != cpu || !intr_span(tr, i, b, &q))
			continue;
		q.start -= as->send;
		if (as->irqs == NULL)
			as->irqs = calloc(IRQ_MAX, sizeof(*as->irqs));
		if (as->irqs != NULL && as->nirqs < IRQ_MAX)
			as->irqs[as->nirqs++] = q;
		add_tl(as, tr->ev[i].ts, cpu, q.kind, "%s for %s",
		    irq_what(&q, 0, what, sizeof(what)), autopsy_dur(q.ns, d,
		    sizeof(d)));
	}
}

/*
 * The interrupt that tr->ev[i] enters, paired with its exit, looked for
 * until 10 ms after b (q->start absolute ns); 0 when it is no entry, or
 * its exit is not there.
 */
static int
intr_span(const struct tdec_trace *tr, size_t i, int64_t b,
    struct irq_span *q)
{
	static const struct {
		uint8_t		 entry, exit;
		const char	*kind;
	} intr[] = { { EV_IRQ_ENTRY, EV_IRQ_EXIT, "irq" },
	    { EV_SOFTIRQ_ENTRY, EV_SOFTIRQ_EXIT, "softirq" },
	    { EV_VEC_ENTRY, EV_VEC_EXIT, "vector" } };
	const struct tdec_ev *e = &tr->ev[i], *x;
	const char *name;
	size_t j, k;

	for (k = 0; k < 3 && intr[k].entry != e->kind; k++)
		;
	if (k == 3)
		return 0;
	name = k == 0 ? tdec_str(tr, e->intr.name) : k == 1 ?
	    tdec_softirq_name(e->intr.num) : tdec_vector_name(e->intr.vec);
	for (j = i + 1; j < tr->nev; j++) {
		x = &tr->ev[j];
		if (x->cpu == e->cpu && x->kind == intr[k].exit &&
		    x->intr.num == e->intr.num &&
		    (x->kind != EV_VEC_EXIT || x->intr.vec == e->intr.vec)) {
			memset(q, 0, sizeof(*q));
			snprintf(q->kind, sizeof(q->kind), "%s", intr[k].kind);
			snprintf(q->name, sizeof(q->name), "%s", name);
			q->num = e->intr.num;
			q->cpu = e->cpu;
			q->start = e->ts;
			q->ns = x->ts - e->ts;
			return 1;
		}
		if (x->cpu == e->cpu && x->ts > b + 10 * NSEC_PER_MSEC)
			break;
	}
	return 0;
}

/*
 * What an interrupt is, in words: "IRQ 24 (eth0)", "softirq TIMER",
 * "local timer interrupt" (with the: "the local timer interrupt").
 */
static const char *
irq_what(const struct irq_span *q, int the, char *buf, size_t len)
{
	if (strcmp(q->kind, "irq") == 0)
		snprintf(buf, len, "IRQ %d (%s)", q->num, q->name);
	else if (strcmp(q->kind, "softirq") == 0)
		snprintf(buf, len, "softirq %s", q->name);
	else
		snprintf(buf, len, "%s%s interrupt", the ? "the " : "",
		    q->name);
	return buf;
}

/*
 * The one-line verdict: the largest part of the latency in words, and
 * the longest interrupt, when it took a microsecond or more, and when it
 * came: "with 15.00 us of the local timer interrupt during the wait".
 */
static void
verdict(const struct follow *fw)
{
	struct autopsy_sample *as = fw->as;
	const struct irq_span *big = NULL;
	char *v = as->verdict, d[32], what[64];
	size_t len = sizeof(as->verdict);
	int64_t best = -1;
	unsigned i;
	int which = -1;
	const int64_t parts[] = { as->issue, as->not_runnable, as->in_flight,
	    as->rq_wait, as->running };

	v[0] = '\0';
	if (!as->complete)
		cat(v, len, "incomplete (%s): ", as->lost_note);
	for (i = 0; i < 5; i++)
		if (parts[i] > best) {
			best = parts[i];
			which = (int)i;
		}
	switch (which) {
	case 0:
		cat(v, len, "%s %s", autopsy_dur(as->issue, d, sizeof(d)),
		    as->timer ? "before the timer's interrupt woke the parent" :
		    "in the parent's write before the wake-up was issued");
		break;
	case 1:
		cat(v, len, "not runnable for %s: %s until %s[%d] woke it%s",
		    autopsy_dur(as->not_runnable, d, sizeof(d)), as->state,
		    as->waker_comm, (int)as->waker_pid,
		    strcmp(as->state, "stopped") == 0 ? " (SIGCONT)" : "");
		break;
	case 2:
		cat(v, len, "wake-up in flight %s to CPU %d%s",
		    autopsy_dur(as->in_flight, d, sizeof(d)),
		    (int)as->target_cpu, !as->idle_target ? "" : as->ipi ?
		    " (idle, woken by an IPI)" : " (idle, woken without an "
		    "IPI)");
		break;
	case 3:
		behind_whom(as);
		break;
	default:
		cat(v, len, "%s from the switch-in to the stamp",
		    autopsy_dur(as->running, d, sizeof(d)));
		break;
	}
	for (i = 0; i < as->nirqs; i++)
		if (big == NULL || as->irqs[i].ns > big->ns)
			big = &as->irqs[i];
	if (big != NULL && big->ns >= NSEC_PER_USEC)
		cat(v, len, ", with %s of %s %s", autopsy_dur(big->ns, d,
		    sizeof(d)), irq_what(big, 1, what, sizeof(what)),
		    irq_when(fw, big));
}

/* The runqueue wait, and the first two tasks it waited behind. */
static void
behind_whom(struct autopsy_sample *as)
{
	char d[32];
	unsigned i, shown;

	cat(as->verdict, sizeof(as->verdict), "runqueue wait %s",
	    autopsy_dur(as->rq_wait, d, sizeof(d)));
	for (i = 0, shown = 0; i < as->nran && shown < 2; i++) {
		if (as->ran[i].pid == 0 || as->ran[i].pid == -1)
			continue;
		cat(as->verdict, sizeof(as->verdict), "%s %s[%d] (%s)",
		    shown == 0 ? " behind" : ",", as->ran[i].comm,
		    (int)as->ran[i].pid, as->ran[i].policy);
		shown++;
	}
	if (shown == 0)
		cat(as->verdict, sizeof(as->verdict), " with no other task on "
		    "the CPU");
}

/*
 * When, within the latency, an interrupt came: the stretch of the sample
 * under way as it entered.
 */
static const char *
irq_when(const struct follow *fw, const struct irq_span *q)
{
	int64_t at = fw->as->send + q->start;
	unsigned i;

	for (i = 0; i < fw->nseg; i++) {
		if (at < fw->segs[i].a || at >= fw->segs[i].b)
			continue;
		switch (fw->segs[i].kind) {
		case SEG_ISSUE:
			return fw->as->timer ? "before the timer fired" :
			    "during the parent's write";
		case SEG_FLIGHT:
		case SEG_QUEUED:
			return "during the wait";
		case SEG_RUNNING:
			return "after the switch-in";
		default:
			return "while the task was not runnable";
		}
	}
	return "within the latency";
}

/* Appends to the string in buf, of len bytes in all. */
static void
cat(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(buf);

	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * Adds a timeline line at ts (absolute ns), in time order (lines come
 * nearly sorted).
 */
static void
add_tl(struct autopsy_sample *as, int64_t ts, int32_t cpu, const char *kind,
    const char *fmt, ...)
{
	int64_t t = ts - as->send;
	struct tl_item *it;
	va_list ap;
	unsigned i;

	if (as->tl == NULL &&
	    (as->tl = calloc(TL_MAX, sizeof(*as->tl))) == NULL)
		return;
	if (as->ntl == TL_MAX)
		return;
	for (i = as->ntl; i > 0 && as->tl[i - 1].t > t; i--)
		as->tl[i] = as->tl[i - 1];
	it = &as->tl[i];
	it->t = t;
	it->cpu = cpu;
	snprintf(it->kind, sizeof(it->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(it->what, sizeof(it->what), fmt, ap);
	va_end(ap);
	as->ntl++;
}

/*
 * Adds time to the task that ran on a CPU while the sample waited.  in:
 * the switch that gave it the CPU (NULL: before the trace); out: the one
 * that took it away, whose name is the newer (an exec renames).
 */
static struct ran_task *
add_ran(struct autopsy_sample *as, const struct tdec_trace *tr,
    const struct tdec_ev *in, const struct tdec_ev *out, int32_t cpu,
    int64_t ns)
{
	struct ran_task *r;
	pid_t pid = in != NULL ? in->sw.next_pid : -1;
	unsigned i;

	for (i = 0; i < as->nran; i++)
		if (as->ran[i].pid == pid && as->ran[i].cpu == cpu) {
			as->ran[i].ns += ns;
			return &as->ran[i];
		}
	if (as->ran == NULL &&
	    (as->ran = calloc(RAN_MAX, sizeof(*as->ran))) == NULL)
		return NULL;
	if (as->nran == RAN_MAX)
		return NULL;
	r = &as->ran[as->nran++];
	r->pid = pid;
	r->cpu = cpu;
	r->ns = ns;
	if (in == NULL) {
		snprintf(r->comm, sizeof(r->comm), "?");
		snprintf(r->policy, sizeof(r->policy), "before the trace");
		r->prio = -1;
	} else {
		snprintf(r->comm, sizeof(r->comm), "%s", tdec_str(tr,
		    out != NULL ? out->sw.prev_comm : in->sw.next_comm));
		r->prio = out != NULL ? out->sw.prev_prio : in->sw.next_prio;
		if (out == NULL && in->inferred)
			snprintf(r->policy, sizeof(r->policy), "priority not "
			    "traced");
		else
			describe_policy(pid, r->prio, r->comm, r->policy,
			    sizeof(r->policy));
	}
	return r;
}

/* The tasks that had the CPU, the longest first. */
static int
cmp_ran(const void *pa, const void *pb)
{
	const struct ran_task *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->pid - b->pid;
}

/*
 * The scheduling class and priority of a task, from the prio the
 * trace recorded; the policy's name is asked of the task itself when it
 * still runs under the same name, and left generic when it does not.
 */
static void
describe_policy(pid_t pid, int prio, const char *comm, char *buf,
    size_t len)
{
	char path[64], *now;
	const char *name = NULL;
	int pol = -1;

	if (pid == 0) {
		snprintf(buf, len, "idle");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((now = file_text(path)) != NULL) {
		if (strcmp(now, comm) == 0)
			pol = sched_getscheduler(pid);
		free(now);
	}
	if (prio < 0) {
		snprintf(buf, len, "SCHED_DEADLINE");
		return;
	}
	if (prio < 100) {
		name = pol == SCHED_FIFO ? "SCHED_FIFO" : pol == SCHED_RR ?
		    "SCHED_RR" : "real-time";
		snprintf(buf, len, "%s %d", name, 99 - prio);
		return;
	}
	name = pol == SCHED_OTHER ? "SCHED_OTHER" : pol == SCHED_BATCH ?
	    "SCHED_BATCH" : pol == SCHED_IDLE ? "SCHED_IDLE" : "fair";
	snprintf(buf, len, "%s nice %d", name, prio - 120);
}

/* How a task left the CPU, from sched_switch's prev_state. */
static const char *
how_left(int64_t st)
{
	if (st & TS_PREEMPTED)
		return "preempted";
	if (st & TS_INTERRUPTIBLE)
		return "blocked";
	if (st & TS_UNINTERRUPTIBLE)
		return "blocked (D)";
	if (st & (TS_STOPPED | TS_TRACED))
		return "stopped";
	if (st & (TS_DEAD | TS_ZOMBIE))
		return "exited";
	if (st & TS_PARKED)
		return "parked";
	if (st & TS_IDLE)
		return "blocked (idle)";
	/*
	 * TASK_RUNNING without the "+": preempted on its way back to user
	 * space (the kernel marks only in-kernel preemption), or a yield.
	 */
	return "preempted";
}

/* The task's state, from how it last left a CPU. */
static const char *
state_name(int64_t st)
{
	if (st & (TS_STOPPED | TS_TRACED))
		return "stopped";
	if (st & (TS_INTERRUPTIBLE | TS_UNINTERRUPTIBLE | TS_IDLE))
		return "asleep";
	if (st & (TS_DEAD | TS_ZOMBIE))
		return "exited";
	return "runnable";
}
