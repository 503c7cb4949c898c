/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt: scheduler wake-up latency tester.
 *
 * A parent forks N clients, each blocked reading its own pipe.  While a
 * workload runs, the parent sleeps a random while, writes a CLOCK_MONOTONIC
 * stamp to every client, and each client replies with the moment it woke.
 * The differences are the wake-up latencies.  This file tells the story
 * of a run, start to end; options.c turns argv into its struct config.
 */
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "compare/compare.h"
#include "config.h"
#include "explain/autopsy.h"
#include "explain/explain.h"
#include "explain/trace.h"
#include "lib/common.h"
#include "measure/client.h"
#include "measure/measure.h"
#include "measure/split.h"
#include "proc/tune.h"
#include "proc/workload.h"
#include "record/env.h"
#include "record/floor.h"
#include "record/topo.h"
#include "report/gate.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/sweeptab.h"
#include "result.h"
#include "run.h"
#include "sweep/knob.h"
#include "sweep/sweep.h"

#define SPARE_FDS	64		/* descriptors beyond two a client */
#define NENDING		(sizeof(ending) / sizeof(ending[0]))

/* What ends a process by default, caught to end the run (setup_signals). */
static const int ending[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
    SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR,
    SIGSTKFLT };

/* What main holds from start to end, apart from the settings. */
struct latt {
	struct run	 run;		/* tracefs, the instance, the probes */
	struct result	 res;		/* the run being measured */
	struct result	 total;		/* --repeat: all runs together */
	struct outputs	 out;
	struct cmp_side	 base;		/* --baseline */
	struct cmp_gate	 gate;		/* --fail-if-worse */
	int		 dmafd;		/* --dma-latency, or < 0 */
	struct run_brief *briefs;	/* --repeat: each run's figures */
	unsigned	 nruns;		/* runs done */
	unsigned	 nmax;		/* runs asked: repeat, times a sweep's
					   values */
	struct config	 wide;	/* the settings, widened by a sweep */
	struct sweep_result sweep;	/* --sweep's points */
	unsigned	 point;		/* the sweep's point being measured */
};

static int	 prepare(const struct config *, struct latt *);
static int	 run_series(const struct config *, struct latt *);
static int	 run_sweep(const struct config *, struct latt *);
static int	 finish(const struct config *, struct latt *, int);
static void	 measure_once(const struct config *, struct run *,
		    struct result *, struct outputs *);
static void	 run_done(const struct config *, struct latt *, unsigned);
static int	 run_may_repeat(const struct result *);
static int	 cannot_exec(const struct config *, int);
static void	 run_close(struct run *);
static void	 hold_signals(sigset_t *);
static void	 setup_signals(void);
static int	 signal_status(const struct result *, int);
static void	 open_std_fds(void);
static int	 raise_nofile(unsigned, int *);

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct latt L;
	sigset_t inherited;
	int status;

	hold_signals(&inherited);
	open_std_fds();
	if (argc > 1 && strcmp(argv[1], "compare") == 0) {
		/* compare makes nothing outside itself: signals as given. */
		sigprocmask(SIG_SETMASK, &inherited, NULL);
		usage_error_hint("latt compare --help");
		return exit_status(compare_main(argc - 1, argv + 1));
	}
	options_parse(argc, argv, &cfg);
	memset(&L, 0, sizeof(L));
	L.run.trace.marker_fd = L.run.trace.on_fd = -1;
	L.run.inst.keeper_fd = L.run.inst.keeper_rfd = -1;
	L.dmafd = -1;
	L.res.wl.tty = -1;
	/* outputs_close is safe before outputs_open: no descriptor 0. */
	L.out.logf.fd = L.out.json.fd = L.out.plot.fd = L.out.ktapf.fd = -1;
	/* A sweep's runs share what is made once: made for its widest. */
	sweep_widest(&cfg, &L.wide);
	L.nmax = cfg.repeat * (cfg.sweep.n > 0 ? cfg.sweep.n : 1);
	if ((status = prepare(&L.wide, &L)) != EXIT_OK) {
		config_free(&cfg);
		run_close(&L.run);
		return exit_status(status);
	}
	L.res.topo = L.total.topo = L.run.topo;
	if (result_init(&L.res, &L.wide, L.run.schedstat, 1) == -1 ||
	    (L.nmax > 1 &&
	    (result_init(&L.total, &L.wide, L.run.schedstat, 0) == -1 ||
	    (L.briefs = calloc(L.nmax, sizeof(*L.briefs))) == NULL)) ||
	    (cfg.sweep.n > 0 && sweep_init(&L.sweep, &cfg) == -1) ||
	    outputs_open(&L.out, &L.wide, &L.res) == -1)
		status = EXIT_RUNTIME;
	else if ((status = cfg.sweep.n > 0 ? run_sweep(&cfg, &L) :
	    run_series(&cfg, &L)) != EXIT_NOTFOUND && status != EXIT_NOEXEC) {
		/* The knob put back as soon as the runs are done. */
		if (knob_restore(&L.run.knob) == -1 && status == EXIT_OK)
			status = EXIT_RUNTIME;
		status = signal_status(&L.res, finish(&L.wide, &L, status));
	}
	/* The DMA latency is held for the whole series of runs. */
	if (L.dmafd >= 0)
		close(L.dmafd);
	outputs_close(&L.out);
	if (cfg.baseline != NULL)
		cmp_side_free(&L.base);
	autopsy_free(L.res.autopsy);
	result_free(&L.res, &cfg, 1);
	result_free(&L.total, &cfg, 0);
	sweep_free(&L.sweep);
	free(L.briefs);
	config_free(&cfg);
	run_close(&L.run);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		lwarn("stdout");
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	return exit_status(status);
}

/*
 * Everything that can fail before a process is forked: tracefs, the
 * baseline, --explain's instance, the schedstat probe, the scheduling
 * attributes asked for, the limits, latt's own tuning.  Returns EXIT_OK,
 * or the status to exit with after saying why.
 */
static int
prepare(const struct config *cfg, struct latt *L)
{
	char err[PATH_MAX + 256];
	int r;

	/* The signals that end latt wait for setup_signals (hold_signals). */
	if (cfg->breaktrace > 0)
		trace_prepare(&L->run.trace);
	/* A baseline that cannot be read fails now, before anything runs. */
	if (cfg->confidence > 0)
		cmp_level = cfg->confidence;
	if (cfg->baseline != NULL) {
		cmp_side_init(&L->base, "A");
		L->base.drop_noisy = cfg->drop_noisy;
		cmp_side_load(&L->base, cfg->baseline);
		if (cfg->fail_if_worse != NULL)
			cmp_gate_parse(&L->gate, cfg->fail_if_worse);
	}
	/*
	 * --explain: latt's own tracefs instance, made now so that a
	 * missing tracefs or right is a usage error before anything runs.
	 */
	if (cfg->explain > 0 &&
	    (r = explain_open(&L->run.inst, err, sizeof(err))) < 0) {
		lwarnx("explain: %s", err);
		return r == -1 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	/*
	 * No schedstat: one line, and the run goes on without the split.
	 * --no-split asks for none (bench/split-cost.py's peer, too).
	 */
	L->run.schedstat = !cfg->no_split && split_probe() == 0;
	if ((r = sweep_try(cfg)) < 0)
		return r == -1 ? EXIT_USAGE : EXIT_RUNTIME;
	/* A knob: saved, its values tried, put back, and guarded. */
	if (cfg->sweep.kind == SWEEP_KNOB &&
	    (r = knob_save(&L->run.knob, &cfg->sweep)) < 0)
		return r == -1 ? EXIT_USAGE : EXIT_RUNTIME;
	if (!cfg->no_split && !L->run.schedstat)
		lwarnx("/proc/PID/schedstat cannot be read (%s): no "
		    "runqueue-wait split in this run", strerror(errno));
	/* latt's own floor, before its signals, tuning and pinning. */
	floor_measure(&L->res.floor);
	setup_signals();		/* unblocks them: any pending is taken */
	if (config_any_busy(cfg))
		L->run.busy_per_ms = client_busy_calibrate();
	/* A class's refused attributes are bad input: status 2. */
	if ((r = tune_check(cfg)) < 0)
		return r == -1 && cfg->nclasses > 0 ? EXIT_USAGE :
		    EXIT_RUNTIME;
	if (raise_nofile(cfg->nclients, &L->run.schedstat) == -1 ||
	    tune_parent(cfg, &L->run.inherited_slack) == -1 ||
	    (L->dmafd = tune_dma_open(cfg)) == -1)
		return EXIT_RUNTIME;
	/* Orphans of the workload come back to us, to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	env_sched_read(&L->res.sched);
	env_read(&L->res.env, L->run.inherited_slack);
	/* Where each wake-up lands is told from sysfs, read now only. */
	if ((L->run.topo = topo_read()) == NULL) {
		lwarn("the CPU topology");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/*
 * --repeat: the whole measurement N times back to back, clients,
 * workload and loads started afresh each time; a run that fails or is
 * interrupted ends the series.  Returns the status of the last run, or
 * 127 or 126 when the command could not be executed (nothing to report).
 * Within a sweep, one series is one value's runs.
 */
static int
run_series(const struct config *cfg, struct latt *L)
{
	char t[64];
	unsigned i;
	int status = EXIT_OK, lost;

	for (i = 0; i < cfg->repeat; i++) {
		if (L->nruns > 0) {
			autopsy_free(L->res.autopsy);	/* printed */
			L->res.autopsy = NULL;
			result_reset(&L->res, cfg);
		}
		measure_once(cfg, &L->run, &L->res, &L->out);
		if (L->res.wl.exec_errno != 0) {
			status = cannot_exec(cfg, L->res.wl.exec_errno);
			break;
		}
		/*
		 * A knob's guardian gone: the knob restored, the sweep ends;
		 * another writer's value in it: the run marked, it ends too.
		 */
		lost = cfg->sweep.kind == SWEEP_KNOB &&
		    (!knob_guarded(&L->run.knob) || !knob_held(&L->run.knob,
		    L->res.knob_moved, sizeof(L->res.knob_moved)));
		if (L->nmax > 1)
			run_done(cfg, L, L->nruns);
		else
			outputs_summary(cfg, &L->res, NULL, 0);
		if (cfg->sweep.n > 0)
			sweep_add_run(&L->sweep, L->point, &L->res);
		if ((status = report_failure(cfg, &L->res)) == EXIT_OK && lost)
			status = EXIT_RUNTIME;
		if (L->res.knob_moved[0] != '\0')
			lwarnx("sweep: %s was changed during run %u (value %s): "
			    "it holds %s; the sweep ends", cfg->sweep.file,
			    L->nruns > 0 ? L->nruns : 1, cut_value(t, sizeof(t),
			    L->run.knob.now), L->res.knob_moved);
		if (status == EXIT_WORKLOAD && cfg->misplaced != NULL)
			lwarnx("options go before the command: %s went to the "
			    "workload", cfg->misplaced);
		if (L->res.stop == STOP_BREAK)
			report_break(L->run.trace.dir, &L->res.brk);
		report_explain_fault(&L->res);
		if (outputs_add_run(&L->out, &L->res) == -1 &&
		    status == EXIT_OK)
			status = EXIT_RUNTIME;
		if (L->nmax > 1)
			result_merge(&L->total, &L->res, cfg);
		if (status != EXIT_OK || !run_may_repeat(&L->res))
			break;
	}
	return status;
}

/*
 * --sweep: a series of runs for each value (sweep_step says which, with
 * which settings; a knob's values one run at a time, interleaved, the
 * value written before its run), each value's runs kept apart in the
 * JSON's text.  What ends a series early ends the sweep.
 */
static int
run_sweep(const struct config *cfg, struct latt *L)
{
	struct sweep_point *p;
	struct config pc;
	unsigned k, pi;
	int status = EXIT_OK;

	L->res.sweep = L->total.sweep = &L->sweep;
	for (k = 0; sweep_step(cfg, k, &pi, &pc) == 0; k++) {
		p = &L->sweep.pt[pi];
		L->point = pi;
		if (cfg->sweep.kind == SWEEP_KNOB &&
		    knob_set(&L->run.knob, cfg->sweep.text[pi]) == -1) {
			status = EXIT_RUNTIME;
			break;
		}
		L->out.cfg = &pc;
		p->json[p->njson][0] = L->out.runs.m.len + (L->out.runs.n > 0);
		status = run_series(&pc, L);
		p->json[p->njson++][1] = L->out.runs.m.len;
		if (status != EXIT_OK || !run_may_repeat(&L->res))
			break;
	}
	L->out.cfg = &L->wide;
	return status;
}

/*
 * --repeat: a run's figures, kept for the summary of all runs, its line on
 * stderr as it ends (not with -q), and its autopsy, which the next run's
 * replaces.
 */
static void
run_done(const struct config *cfg, struct latt *L, unsigned i)
{
	report_brief(&L->briefs[i], &L->res);
	L->nruns = i + 1;
	if (!cfg->quiet)
		report_run_line(stderr, &L->briefs[i], i, L->nmax);
	if (L->res.autopsy != NULL && !(cfg->json_path != NULL &&
	    strcmp(cfg->json_path, "-") == 0)) {
		printf("--- run %u of %u\n", i + 1, L->nmax);
		report_explain(stdout, &L->res);
		fflush(stdout);
	}
}

/*
 * The reports of the finished runs (with --repeat, the summary of all
 * of them), the comparison with --baseline and the --fail-above gate;
 * returns the exit status.  A runtime failure (1) and a failed workload
 * (4) outrank 3, and 3 outranks 5.
 */
static int
finish(const struct config *cfg, struct latt *L, int status)
{
	struct result *done = L->nmax > 1 ? &L->total : &L->res;
	unsigned nworse = cfg->fail_if_worse != NULL ? L->gate.n : 0;
	int wstatus, gstatus, gate = CMP_GATE_MET;
	FILE *ktap;

	/*
	 * A sweep's summary is its table: its runs' totals mix values.  A
	 * knob's says it was restored, and two values end in their
	 * comparison.
	 */
	if (cfg->sweep.kind == SWEEP_KNOB && cfg->json_path != NULL &&
	    strcmp(cfg->json_path, "-") == 0)
		sweeptab_restored(stderr, &L->run.knob);
	else if (cfg->sweep.kind == SWEEP_KNOB) {
		sweeptab_print(stdout, cfg, done, &L->run.knob);
		/* Both values must have run: an interrupted sweep may not. */
		if (cfg->sweep.n == 2 && L->sweep.pt[0].nruns > 0 &&
		    L->sweep.pt[1].nruns > 0 &&
		    outputs_knob_compare(&L->out, done) == -1 &&
		    status == EXIT_OK)
			status = EXIT_RUNTIME;
	} else if (cfg->sweep.n > 0 && (cfg->json_path == NULL ||
	    strcmp(cfg->json_path, "-") != 0))
		sweeptab_print(stdout, cfg, done, NULL);
	else if (L->nmax > 1)
		outputs_summary(cfg, &L->total, L->briefs, L->nruns);
	/* The JSON's top level has the last run's autopsy. */
	if (L->nmax > 1)
		L->total.autopsy = L->res.autopsy;
	wstatus = outputs_write(&L->out, done);
	if (wstatus != EXIT_OK &&
	    (status == EXIT_OK || status == EXIT_WORKLOAD))
		status = wstatus;
	/*
	 * --fail-if-worse: exceeded (3) outranks cannot tell (5); a baseline
	 * that could not be compared is a runtime failure, said already.
	 * --ktap: a test a limit of both gates, or one of the run.
	 */
	ktap = outputs_ktap(&L->out, nworse + cfg->nlimits > 0 ? nworse +
	    cfg->nlimits : 1);
	if (cfg->ktap_path != NULL && ktap == NULL)
		status = EXIT_RUNTIME;
	L->gate.ktap = ktap;
	if (cfg->baseline != NULL)
		gate = outputs_baseline(&L->out, done, &L->base,
		    cfg->fail_if_worse != NULL ? &L->gate : NULL);
	if (status == EXIT_OK)
		status = gate == CMP_GATE_EXCEEDED ? EXIT_THRESHOLD :
		    gate == CMP_GATE_CANNOT ? EXIT_CANNOT_TELL :
		    gate == -1 ? EXIT_RUNTIME : EXIT_OK;
	/* The gate's lines come after the summary, also on a terminal. */
	fflush(stdout);
	if (cfg->nlimits > 0 || (ktap != NULL && nworse == 0)) {
		gstatus = gate_judge(stderr, ktap, nworse, cfg, done);
		if (status == EXIT_OK || (status == EXIT_CANNOT_TELL &&
		    gstatus == EXIT_THRESHOLD))
			status = gstatus;
	}
	if (ktap != NULL && outputs_ktap_end(&L->out, ktap, gate != -1) == -1)
		status = EXIT_RUNTIME;
	return status;
}

/*
 * One measurement: the clients, the workload and loads, the loop, and
 * everything stopped again.  Why it ended is in res->stop.
 */
static void
measure_once(const struct config *cfg, struct run *run, struct result *res,
    struct outputs *out)
{
	struct engine *eng;
	int stopsig;

	env_machine_read(&res->mach);
	eng = measure_start(cfg, run, res);
	res->start = now_ns();
	res->start_wall = wall_ns();
	if (res->stop == STOP_NONE) {
		if (workload_start(cfg, run->inherited_slack, run->inst.keeper,
		    run->knob.guard.pid, &res->wl) == -1) {
			res->stop = STOP_ERROR;
			res->fail_what = res->wl.fork_what[0] != '\0' ?
			    res->wl.fork_what : "fork";
			res->fail_errno = errno;
		} else if (res->wl.reaped)
			res->stop = STOP_WORKLOAD;
	}
	if (res->stop == STOP_NONE && tune_pin_parent(cfg) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "sched_setaffinity (parent-cpu)";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE && tune_sched_parent(cfg) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "sched_setscheduler (latt's own policy)";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE && cfg->explain > 0 &&
	    explain_start(&run->inst) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "explain: enabling the trace events";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE)
		measure_run(cfg, run, eng, res,
		    outputs_want_samples(out) ? outputs_sink : NULL,
		    outputs_want_ticks(out) ? outputs_tick : NULL, out);
	res->end = now_ns();
	env_machine_read(&res->mach_end);
	outputs_progress_off(out);
	stopsig = res->stop == STOP_SIGNAL ? res->stop_signal : SIGTERM;
	workload_stop(&res->wl, stopsig);
	measure_stop(eng, res);
	/* The autopsy reads the trace once everything has stopped. */
	if (cfg->explain > 0)
		explain_read(&run->inst, res);
}

/*
 * The command was found before the run but its exec failed (a script's
 * interpreter missing, say): nothing was measured beside it, so no summary
 * and no report, one line and the status a shell gives.
 */
static int
cannot_exec(const struct config *cfg, int e)
{
	char a[64];

	lwarnc(e, "cannot run '%s'", cut_value(a, sizeof(a), cfg->ncmd > 1 ?
	    cfg->cmd[0] : "/bin/sh"));
	return e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
}

/* Whether another run may follow this one: it ended as runs end. */
static int
run_may_repeat(const struct result *res)
{
	return res->stop == STOP_DURATION || res->stop == STOP_SAMPLES ||
	    (res->stop == STOP_WORKLOAD && !result_workload_failed(&res->wl));
}

/* tracefs, --explain's instance and the topology. */
static void
run_close(struct run *run)
{
	char err[PATH_MAX + 256];

	topo_free(run->topo);
	run->topo = NULL;
	trace_close(&run->trace);
	/* Whatever ended latt early: the knob is put back. */
	knob_restore(&run->knob);
	if (explain_close(&run->inst, err, sizeof(err)) == -1)
		lwarnx("explain: %s", err);
}

static void
on_stop(int sig)
{
	got_stop = sig;
}

static void
on_tstp(int sig)
{
	got_tstp = sig;
}

static void
on_child(int sig)
{
	(void)sig;
	got_child = 1;
}

/*
 * Whether sig ends a run as an interruption, exit status 128 + sig, rather
 * than as SIGINT, SIGTERM and SIGHUP do (status 0, as documented since
 * 2009's tool was interrupted to end it).
 */
static int
fatal_signal(int sig)
{
	return sig > 0 && sig != SIGINT && sig != SIGTERM && sig != SIGHUP;
}

/*
 * The exit status after a signal that ends latt by default and that latt
 * catches, other than SIGINT, SIGTERM and SIGHUP: the run ended as at any
 * signal (summary, reports, everything stopped), then one line names it
 * and the status is 128 + its number, what a shell expects of a process
 * the signal ended.  One that came after the run counts too.
 */
static int
signal_status(const struct result *res, int status)
{
	const char *name;
	int sig = res->stop == STOP_SIGNAL ? res->stop_signal : 0;

	if (!fatal_signal(sig))
		sig = got_stop;
	if (!fatal_signal(sig))
		return status;
	if ((name = sigabbrev_np(sig)) != NULL)
		lwarnx("ended by SIG%s", name);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		lwarnx("ended by SIGRTMIN+%d", sig - SIGRTMIN);
	else
		lwarnx("ended by signal %d", sig);
	return 128 + sig;
}

/*
 * latt never trusts the dispositions it inherits (a script's "cmd &" starts
 * it with SIGINT ignored): it sets every one it relies on.  Every signal
 * whose default is to end a process, and that can be caught, ends the run
 * cleanly; SIGPIPE is ignored (a write says EPIPE); the faults a program
 * raises itself (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
 * SIGSYS) keep their default.
 */
static void
setup_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (i = 0; i < NENDING; i++)
		sigaction(ending[i], &sa, NULL);
	/* glibc keeps the first real-time signals: sigaction refuses them. */
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	/* Ctrl-Z suspends the whole run, between rounds (workload_suspend). */
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, NULL);
	/* A stopped workload is noticed: no SA_NOCLDSTOP. */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/*
	 * latt hands the terminal to the workload and takes it back
	 * (tcsetpgrp), and writes its progress and summary wherever the
	 * terminal is: a SIGTTOU must never stop it.
	 */
	sigaction(SIGTTOU, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * From latt's first instruction, every signal that setup_signals catches
 * (and SIGPIPE, which it ignores) is blocked until it does, so that one
 * sent while the tracefs instance, the knob's guardian and the rest are
 * made ends latt as at any time, not by default (an instance was left).
 * The keeper keeps the mask; every other child sets its own.  The mask as
 * inherited into *was.
 */
static void
hold_signals(sigset_t *was)
{
	sigset_t set;
	size_t i;
	int sig;

	sigemptyset(&set);
	for (i = 0; i < NENDING; i++)
		sigaddset(&set, ending[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&set, sig);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, was);
}

/* A closed stdin, stdout or stderr would be reused by a pipe: fill them. */
static void
open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) != -1 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/*
 * Each client costs the parent two descriptors, and a third with the
 * split (its schedstat, *split).  Raises the soft limit up to the hard one
 * when needed; a hard limit too low only for the third turns the split
 * off (one line); one too low for the two fails, before anything starts.
 */
static int
raise_nofile(unsigned nclients, int *split)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)nclients * 2 + SPARE_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		lwarn("getrlimit");
		return -1;
	}
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		lwarnx("%u clients need %llu open files, but the hard limit "
		    "is %llu: raise it (ulimit -Hn, or nofile in limits.conf) "
		    "or use fewer clients", nclients, (unsigned long long)need,
		    (unsigned long long)rl.rlim_max);
		return -1;
	}
	if (*split && rl.rlim_max != RLIM_INFINITY &&
	    rl.rlim_max < need + nclients) {
		*split = 0;
		lwarnx("%u clients and their split need %llu open files, but "
		    "the hard limit is %llu: no runqueue-wait split in this "
		    "run", nclients, (unsigned long long)(need + nclients),
		    (unsigned long long)rl.rlim_max);
	} else if (*split)
		need += nclients;
	if (rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		lwarn("setrlimit: raising the open files limit to %llu",
		    (unsigned long long)need);
		return -1;
	}
	return 0;
}

