/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's facts: the lines after its tables, in two columns, that
 * say how the run ran and ended (the loop, what latt could not sample, the
 * run's length and why it ended, suspensions), on what (the workload and
 * its status, the loads and their throughput, what the kernel counted,
 * latt's floor, the scheduler, a machine setting that changed), and how
 * to repeat it (the seed and the settings that shape the samples: warmup,
 * work, the split, each class asked and got).  The notes among them, what
 * makes the figures doubtful, are the summary's; the rest are --details'.
 * report.c prints the facts of its tables (few samples, where the worst
 * ones were) before these.  It reads finished results and never measures.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "report/facts.h"
#include "result.h"

static void	 print_workload(FILE *, FILE *, const struct config *,
		    const struct result *);
static void	 print_loads(FILE *, const struct config *,
		    const struct workload *);
static void	 print_scheduler(FILE *, const struct sched_info *);
static void	 print_noise(FILE *, FILE *, const struct noise *);
static void	 print_class(FILE *, const struct client_class *,
		    const struct class_result *);
static void	 print_split(FILE *, const struct config *,
		    const struct result *);
static void	 print_break(FILE *, const struct config *, const struct brk *);
static void	 print_honesty(FILE *, FILE *, const struct config *,
		    const struct result *);
static void	 print_counts(FILE *, const struct counts *);

void
facts_row(FILE *fp, const char *label, const char *fmt, ...)
{
	va_list ap;

	if (fp == NULL)
		return;
	fprintf(fp, "\t%s\t%s ", label, strlen(label) < 8 ? "        " : "");
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
}

/* A signal's name as the shell spells it: SIGTSTP. */
static const char *
signame(int sig)
{
	static char buf[16];

	if (sigabbrev_np(sig) == NULL)
		snprintf(buf, sizeof(buf), "signal %d", sig);
	else
		snprintf(buf, sizeof(buf), "SIG%s", sigabbrev_np(sig));
	return buf;
}

const char *
facts_ended_by(enum stop_reason stop, int sig, int wl_stopsig)
{
	static const char *const why[] = {
		[STOP_WORKLOAD] = "the workload's end",
		[STOP_CLIENT] = "a client's death",
		[STOP_ERROR] = "an error", [STOP_SINK] = "an error",
		[STOP_DURATION] = "the duration",
		[STOP_SAMPLES] = "the sample count",
		[STOP_BREAK] = "breaktrace",
	};

	if (stop == STOP_SIGNAL)
		return strsignal(sig);
	if (stop == STOP_WORKLOAD && wl_stopsig != 0)
		return "the workload's stop";
	if ((size_t)stop >= sizeof(why) / sizeof(why[0]) || why[stop] == NULL)
		return "?";
	return why[stop];
}

void
facts_print(FILE *fp, FILE *all, const struct config *cfg,
    const struct result *res, unsigned nruns)
{
	const char *why, *name, *was, *now;
	unsigned i, k = 0;
	double ran;
	char a[32];

	facts_row(all, "rounds", "%llu", (unsigned long long)res->nrounds);
	ran = (double)(res->end - res->start - res->suspended) / NSEC_PER_SEC;
	/* More than 5% of the time: what the closed loop did not sample. */
	if (ran > 0 && res->waited > 0.05 * ran * NSEC_PER_SEC)
		facts_row(fp, "unreachable", "the clients, %.0f%% of the time: "
		    "--open-loop samples it", 100.0 * (double)res->waited /
		    NSEC_PER_SEC / ran);
	print_honesty(fp, all, cfg, res);
	why = facts_ended_by(res->stop, res->stop_signal, res->wl_stopsig);
	if (nruns > 1)
		facts_row(all, "ran", "%.3f s in %u runs, the last ended by %s",
		    ran, nruns, why);
	else
		facts_row(all, "ran", "%.3f s, ended by %s", ran, why);
	if (res->nsuspend > 0)
		facts_row(fp, "suspended", "%.3f s, %u time%s (%s), not "
		    "measured", (double)res->suspended / NSEC_PER_SEC,
		    res->nsuspend, res->nsuspend == 1 ? "" : "s",
		    signame(res->susp[0].sig));
	if (res->susp_dropped > 0)
		facts_row(all, "suspended", "%llu wake-up%s in flight across it "
		    "dropped", (unsigned long long)res->susp_dropped,
		    res->susp_dropped == 1 ? "" : "s");
	print_workload(fp, all, cfg, res);
	print_loads(all, cfg, &res->wl);
	print_counts(all, &res->counts);
	print_noise(fp, all, &res->noise);
	facts_floor(all, &res->floor);
	print_scheduler(all, &res->sched);
	/* A setting changed under the run: samples before and after differ. */
	while ((name = env_machine_changed(&res->mach, &res->mach_end, &was,
	    &now, &k)) != NULL)
		facts_row(fp, "changed", "%s %s -> %s during the run", name,
		    was, now);
	facts_row(all, "seed", "%llu", (unsigned long long)cfg->seed);
	if (cfg->warmup > 0)
		facts_row(all, "warmup", "%s, %llu samples discarded",
		    fmt_time(a, sizeof(a), cfg->warmup, 0, "us"),
		    (unsigned long long)res->discarded);
	if (res->stop == STOP_BREAK)
		print_break(all, cfg, &res->brk);
	if (cfg->work_kb > 0)
		facts_row(all, "work", "%u KiB a client, timed after each "
		    "wake-up", cfg->work_kb);
	if (res->ser[SER_RUNQUEUE].on)
		print_split(all, cfg, res);
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++)
		print_class(all, &cfg->classes[i], &res->classes[i]);
}

static void
print_workload(FILE *note, FILE *all, const struct config *cfg,
    const struct result *res)
{
	const struct workload *wl = &res->wl;
	char *what, a[32], b[32], c[32];
	double secs = (double)(wl->end - wl->start) / NSEC_PER_SEC;
	int st = wl->status;
	/* Its status is a note when it failed or was stopped from elsewhere. */
	FILE *fp = result_workload_failed(wl) || res->wl_stopsig ? note : all;

	if (cfg->ncmd == 0) {
		facts_row(all, "workload", "none%s", cfg->nload > 0 ?
		    " (the loads only)" : "");
		if (cfg->bare)
			facts_row(all, "bare run", "no command: %u clients, "
			    "delays %s to %s, %s", cfg->nclients,
			    fmt_time(a, sizeof(a), cfg->min_delay, 0, "us"),
			    fmt_time(b, sizeof(b), cfg->max_delay, 0, "us"),
			    fmt_time(c, sizeof(c), cfg->duration, 0, "us"));
		return;
	}
	what = config_command(cfg);
	facts_row(all, "workload", "%s", what != NULL ? what : "?");
	free(what);
	if (wl->pid <= 0)
		facts_row(fp, "status", "not started");
	else if (wl->exec_errno)
		facts_row(fp, "status", "could not run: %s",
		    strerror(wl->exec_errno));
	else if (res->wl_stopsig != 0)
		facts_row(fp, "status", "stopped by %s from elsewhere at "
		    "%.3f s, then ended", signame(res->wl_stopsig),
		    (double)res->wl_stop_at / NSEC_PER_SEC);
	else if (!wl->reaped)
		facts_row(fp, "status", "still running");
	else if (wl->stopped_by_us)
		facts_row(fp, "status", "stopped by latt after %.3f s", secs);
	else if (wl->interrupted)
		facts_row(fp, "status", "interrupted at the terminal (%s) "
		    "after %.3f s", signame(wl->interrupted), secs);
	else if (WIFEXITED(st))
		facts_row(fp, "status", "exited %d after %.3f s",
		    WEXITSTATUS(st), secs);
	else if (WIFSIGNALED(st))
		facts_row(fp, "status", "killed by signal %d (%s) after %.3f s",
		    WTERMSIG(st), strsignal(WTERMSIG(st)), secs);
}

/*
 * One line per load: its kind, its processes (how many of them started,
 * when a fork failed), and its throughput over the time it ran, so that
 * two kernels can be compared on both; "none" when --load=none was all
 * that was asked.  The exact counts are in the JSON.
 */
static void
print_loads(FILE *fp, const struct config *cfg, const struct workload *wl)
{
	const struct load_run *lr;
	char rate[32], of[16], on[40];
	double secs;
	unsigned i, k;
	int len;

	if (cfg->load_given && wl->nload == 0)
		facts_row(fp, "load", "none");
	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		if (lr->nstarted == 0) {
			facts_row(fp, "load", "%s: none of its %u process%s "
			    "started", config_load_name(lr->kind), lr->nproc,
			    lr->nproc == 1 ? "" : "es");
			continue;
		}
		secs = (double)(lr->end - lr->start) / NSEC_PER_SEC;
		snprintf(of, sizeof(of), "%u of ", lr->nstarted);
		/* cpus=: where they ran, "on CPU 1" or "on CPUs 0,1". */
		on[0] = '\0';
		for (k = 0, len = 0; k < lr->ncpus && len < 30; k++)
			len += snprintf(on + len, sizeof(on) - len, "%s%d",
			    k > 0 ? "," : lr->ncpus > 1 ? " on CPUs " :
			    " on CPU ", lr->cpus[k]);
		facts_row(fp, "load", "%s: %s%u process%s%s, %s %s/s, %.3f s",
		    config_load_name(lr->kind), lr->nstarted < lr->nproc ? of :
		    "", lr->nproc, lr->nproc == 1 ? "" : "es", on,
		    fmt_num(rate, sizeof(rate), secs > 0 ? (double)lr->ops /
		    secs : 0.0, 1), config_load_unit(lr->kind), secs);
		if (lr->nlost > 0)
			facts_row(fp, "load", "%s: %u of its processes ended "
			    "early", config_load_name(lr->kind), lr->nlost);
	}
}

/*
 * The scheduler in use: the fair class and the preemption mode, sched_ext
 * and its scheduler where the kernel has it, and the EEVDF base slice
 * where readable.
 */
static void
print_scheduler(FILE *fp, const struct sched_info *si)
{
	char a[32];

	facts_row(fp, "scheduler", "%s, preemption %s", si->fair != NULL ?
	    si->fair : "fair class unknown", si->preemption != NULL ?
	    si->preemption : "unknown");
	if (si->ext_present)
		facts_row(fp, "sched_ext", "%s%s%s", si->ext_state != NULL ?
		    si->ext_state : "state unknown", si->ext_ops != NULL ?
		    ", " : "", si->ext_ops != NULL ? si->ext_ops : "");
	if (si->base_slice > 0)
		facts_row(fp, "base slice", "%s (%s)", fmt_time(a, sizeof(a),
		    (double)si->base_slice, 0, "us"), si->base_slice_debugfs ?
		    "debugfs" : "sched_getattr of latt");
}

/*
 * What the kernel read back for a class's first client: its policy and
 * the attributes that mean something under it, after the class's name.
 */
static void
print_got(FILE *fp, const char *name, const struct sched_got *g)
{
	char a[32], b[32], c[32];

	if (!g->valid)
		facts_row(fp, "kernel", "%s: not read back", name);
	else if (g->policy == SCHED_FIFO || g->policy == SCHED_RR)
		facts_row(fp, "kernel", "%s: %s, prio %d", name,
		    config_policy_name(g->policy), g->prio);
	else if (g->policy == SCHED_DEADLINE)
		facts_row(fp, "kernel", "%s: deadline, runtime %s, deadline "
		    "%s, period %s", name,
		    fmt_time(a, sizeof(a), (double)g->runtime, 0, "us"),
		    fmt_time(b, sizeof(b), (double)g->deadline, 0, "us"),
		    fmt_time(c, sizeof(c), (double)g->period, 0, "us"));
	else
		facts_row(fp, "kernel", "%s: %s, nice %d, slice %s", name,
		    config_policy_name(g->policy), g->nice,
		    fmt_time(a, sizeof(a), (double)g->runtime, 0, "us"));
}

/*
 * A class's facts, each value led by the class's name: what was asked
 * (its clients), and what the kernel read back; its figures are a row
 * of the details table.
 */
static void
print_class(FILE *fp, const struct client_class *cl,
    const struct class_result *cr)
{
	char who[32];

	snprintf(who, sizeof(who), cl->n == 1 ? "client %u" : "clients %u-%u",
	    cl->first, cl->first + cl->n - 1);
	facts_row(fp, "class", "%s: -c%u%s%s, %s", cl->name, cl->n,
	    *cl->spec != '\0' ? ":" : "", cl->spec, who);
	print_got(fp, cl->name, &cr->got);
}

/*
 * What the samples cannot show: the loop (closed or open), latt's own
 * policy and the DMA latency it held, the wake-ups still unanswered at
 * the end (censored), requests that did not fit a stalled client's pipe,
 * and the times latt itself could take no sample.
 */
static void
print_honesty(FILE *fp, FILE *all, const struct config *cfg,
    const struct result *res)
{
	char a[32];
	uint64_t i, n, k;

	facts_row(all, "loop", "%s", cfg->open_loop ? "open: each round sent "
	    "at its time, replies or not" : "closed: a round waits for every "
	    "reply (2009)");
	if (cfg->parent_policy == SCHED_FIFO)
		facts_row(all, "parent", "SCHED_FIFO %d", cfg->parent_prio);
	else if (cfg->parent_policy == SCHED_OTHER)
		facts_row(all, "parent", "SCHED_OTHER");
	if (cfg->dma_latency >= 0)
		facts_row(all, "dma latency", "%d us held", cfg->dma_latency);
	if (res->npending > 0)
		facts_row(fp, "pending", "%llu wake-up%s unanswered at the "
		    "end, the oldest %s", (unsigned long long)res->npending,
		    res->npending == 1 ? "" : "s", fmt_time(a, sizeof(a),
		    res->pending_age, 4, "us"));
	if (res->nunsent > 0)
		facts_row(fp, "not sent", "%llu request%s: a stalled client's "
		    "pipe was full", (unsigned long long)res->nunsent,
		    res->nunsent == 1 ? "" : "s");
	if (res->nstalls == 0)
		return;
	facts_row(fp, "stalled", "latt took no sample for %.3f s in %llu "
	    "stall%s", (double)res->stall_total / NSEC_PER_SEC,
	    (unsigned long long)res->nstalls, res->nstalls == 1 ? "" : "s");
	n = res->nstalls < STALLS_MAX ? res->nstalls : STALLS_MAX;
	for (i = 1, k = 0; i < n; i++)
		if (res->stalls[i].len > res->stalls[k].len)
			k = i;
	facts_row(all, "stalled", "the longest %.3f s, %.3f s into the run",
	    (double)res->stalls[k].len / NSEC_PER_SEC,
	    (double)res->stalls[k].when / NSEC_PER_SEC);
}

static void
print_break(FILE *fp, const struct config *cfg, const struct brk *b)
{
	char who[32], a[32], c[32];

	if (b->timer)
		snprintf(who, sizeof(who), "timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	facts_row(fp, "breaktrace", "%s, %s > %s, %.6f s into the run", who,
	    fmt_time(a, sizeof(a), b->latency, 0, "us"),
	    fmt_time(c, sizeof(c), cfg->breaktrace, 0, "us"),
	    (double)b->when / NSEC_PER_SEC);
	facts_row(fp, "breaktrace", "%s", b->err != 0 ? strerror(b->err) :
	    "marker written, tracing stopped");
}

/*
 * How the split into the runqueue wait and the wake path (the rows of
 * the details table) was taken: from the clients' run delay
 * (/proc/PID/schedstat), read by latt before the writes and after the
 * replies of 1 in split_every rounds drawn at random, or of every round;
 * and how many of those rounds' samples were left out (split.c).
 */
static void
print_split(FILE *fp, const struct config *cfg, const struct result *res)
{
	if (cfg->split_every == 1)
		facts_row(fp, "split", "every round (%llu)",
		    (unsigned long long)res->split_rounds);
	else
		facts_row(fp, "split", "1 in %u rounds at random (%llu of "
		    "%llu)", cfg->split_every,
		    (unsigned long long)res->split_rounds,
		    (unsigned long long)res->nrounds);
	if (res->split_left_out > 0)
		facts_row(fp, "split", "%llu samples left out (client ran "
		    "twice between reads)",
		    (unsigned long long)res->split_left_out);
}

/*
 * What else ran (noise.h): whether the run was quiet or noisy by the
 * foreign CPU time, then pressure, interrupts and the frequency.
 */
static void
print_noise(FILE *fp, FILE *all, const struct noise *n)
{
	char a[32], b[32], p[32], f[32];

	/* Each line within 80 columns: 55 bytes after the label. */
	if (!n->valid)
		return;
	if (n->foreign_pct < 0)
		facts_row(all, "machine", "others' CPU unknown (latt's own "
		    "unread)");
	else if (n->noisy)
		facts_row(fp, "machine", "NOISY: others took %.0f%% of the "
		    "CPUs (%.2f CPUs; >= %.0f%%)", n->foreign_pct,
		    n->foreign_cpus, NOISY_FOREIGN_PCT);
	else
		facts_row(all, "machine", "quiet: others took %.1f%% of the "
		    "CPUs (noisy from %.0f%%)", n->foreign_pct,
		    NOISY_FOREIGN_PCT);
	if (n->psi_some_pct >= 0)
		snprintf(p, sizeof(p), "CPU PSI %.0f%%", n->psi_some_pct);
	else
		snprintf(p, sizeof(p), "no CPU PSI");
	snprintf(f, sizeof(f), n->mhz > 0 ? ", %.0f MHz" : "", n->mhz);
	facts_row(all, "machine", "%s; %s irq/s, %s softirq/s%s", p,
	    fmt_num(a, sizeof(a), n->irq_s, 1), fmt_num(b, sizeof(b),
	    n->softirq_s, 1), f);
}

/*
 * What the kernel counted from the end of the priming round to the end of
 * the loop: the machine's switches and interrupts a second, the clients'
 * switches and migrations, and the mean of procs_running (latt counts
 * itself: an idle machine shows about 1).
 */
static void
print_counts(FILE *fp, const struct counts *c)
{
	char a[32], b[32], m[48];
	double rq = counts_runnable_mean(c);
	int ok = counts_rate(c, c->ctxt) >= 0;

	if (!c->valid)
		return;
	fmt_num(a, sizeof(a), ok ? counts_rate(c, c->ctxt) : NAN, 1);
	fmt_num(b, sizeof(b), ok ? counts_rate(c, c->intr) : NAN, 1);
	if (rq >= 0)
		facts_row(fp, "switches", "%s/s, %s interrupts/s; runnable "
		    "%.2f (mean)", a, b, rq);
	else
		facts_row(fp, "switches", "%s/s, %s interrupts/s", a, b);
	if (!c->clients_ok)
		return;
	snprintf(m, sizeof(m), c->migr_ok ? ", %llu migrations" : "",
	    (unsigned long long)c->migr);
	facts_row(fp, "clients'", "%llu voluntary, %llu involuntary switches%s",
	    (unsigned long long)c->vol, (unsigned long long)c->invol, m);
}

void
facts_floor(FILE *fp, const struct own_floor *f)
{
	char a[32], b[32], c[32];

	if (!f->valid)
		return;
	facts_row(fp, "floor", "clock %s, write+read %s, ping-pong %s",
	    f->clock_ns < 0 ? "-" : fmt_time(a, sizeof(a), f->clock_ns, 3,
	    "us"), f->pipe_ns < 0 ? "-" : fmt_time(b, sizeof(b), f->pipe_ns,
	    3, "us"), f->pingpong_ns < 0 ? "-" : fmt_time(c, sizeof(c),
	    f->pingpong_ns, 3, "us"));
}
