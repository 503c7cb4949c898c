/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload: the one place where what runs beside the measurement is
 * started and stopped.
 *
 * The workload runs in its own process group, inside latt's session (a load
 * in another session lands in another autogroup and is scheduled very
 * differently).  latt is a child subreaper, so the workload's orphans come
 * back to it and the whole group can be signalled and reaped at the end.
 * Ending is SIGTERM (or the signal latt itself got), then SIGKILL after a
 * short grace: a workload cannot keep latt from ending.
 *
 * Job control: when stdin is latt's controlling terminal, latt treats the
 * workload as a shell treats a job.  In the foreground it hands the
 * workload's group the terminal (tcsetpgrp, SIGTTOU ignored), so that the
 * workload can read it and the terminal's Ctrl-C and Ctrl-Z reach it.
 * latt waits for it with WUNTRACED: a Ctrl-Z that stops it suspends the
 * whole run (workload_suspend: the loads and the workload stopped, the terminal
 * taken back, latt's own job stopped as the terminal would have stopped
 * it); on fg, the terminal goes back to the workload and everything gets
 * SIGCONT.  Without a terminal nothing of this happens.
 *
 * Nothing it started outlives latt: at every end guard.c ends the strays
 * that left the workload's group, and its guardian ends everything if
 * latt itself is killed.
 *
 * The built-in loads of --load are started here too, before the command:
 * each load is its own process group of forked latt processes (named
 * latt-KIND) running a body from loads.c, ended with SIGKILL (a pure load
 * has nothing to clean up); its operation count is read from the shared
 * slots once it is dead.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "lib/common.h"
#include "proc/guard.h"
#include "proc/loads.h"
#include "proc/proc.h"
#include "proc/workload.h"

#define GRACE_NS	(1 * NSEC_PER_SEC)
#define LOAD_REAP_NS	(5 * NSEC_PER_SEC)

static int	 poll_command(struct workload *);
static void	 reaped(struct workload *, int, const struct rusage *);
static int	 start_command(const struct config *, unsigned long,
		    struct workload *);
static void	 run_workload(const struct config *, unsigned long, int, int)
		    __attribute__((noreturn));
static int	 job_foreground(const struct workload *);
static void	 signal_all(const struct workload *, int);
static void	 end_group(struct workload *, int);
static void	 fork_failed(struct workload *, const char *what);
static int	 reap_group(struct workload *, int64_t);
static int	 start_loads(const struct config *, struct workload *);
static void	 run_load(const struct load_run *, unsigned,
		    struct load_slot *, size_t,
		    pid_t) __attribute__((noreturn));
static void	 stop_loads(struct workload *);
static unsigned	 reap_members(pid_t);

int
workload_start(const struct config *cfg, unsigned long slack, pid_t keeper,
    pid_t undo, struct workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	wl->guard.fd = -1;
	wl->cpu_ns = -1;
	wl->keeper = keeper;
	wl->undo = undo;
	/* stdin, when it is latt's controlling terminal: jobs are run. */
	wl->tty = isatty(STDIN_FILENO) && tcgetsid(STDIN_FILENO) == getsid(0) ?
	    STDIN_FILENO : -1;
	/* A command's processes may escape its group: they are guarded. */
	if (cfg->ncmd > 0) {
		if (guard_start_undo(&wl->guard, NULL, NULL, -1) == -1) {
			fork_failed(wl, "fork of latt's guardian");
			return -1;
		}
		guard_tell(&wl->guard, GUARD_SPARE, wl->keeper);
		guard_tell(&wl->guard, GUARD_SPARE, wl->undo);
	}
	if (start_loads(cfg, wl) == -1)
		return -1;
	if (cfg->ncmd == 0)
		return 0;
	return start_command(cfg, slack, wl);
}

void
workload_stop(struct workload *wl, int sig)
{
	pid_t spare[3] = { wl->keeper, wl->guard.pid, wl->undo };

	if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP)
		sig = SIGTERM;
	stop_loads(wl);
	/* The command's group, then its strays that came back to latt. */
	if (wl->pid > 0) {
		end_group(wl, sig);
		guard_sweep(spare, 3, GRACE_NS);
	}
	/* The terminal comes back to latt, for the summary. */
	if (wl->tty >= 0 && wl->pid > 0 && tcgetpgrp(wl->tty) == wl->pid)
		tcsetpgrp(wl->tty, getpgrp());
	guard_stop(&wl->guard);
}

/* Whether latt's own group is the terminal's foreground. */
static int
job_foreground(const struct workload *wl)
{
	return wl->tty >= 0 && tcgetpgrp(wl->tty) == getpgrp();
}

int
workload_stop_signal(struct workload *wl)
{
	int sig = wl->stopsig;

	if (sig == 0)
		return 0;
	if (wl->tty >= 0 && (sig == SIGTSTP || sig == SIGTTIN ||
	    sig == SIGTTOU))
		return sig;
	return -sig;
}

void
workload_suspend(struct workload *wl, int sig)
{
	struct sigaction dfl, old;
	sigset_t set, oset;
	int running = wl->pid > 0 && !wl->reaped;

	signal_all(wl, SIGSTOP);
	if (wl->tty >= 0 && running && tcgetpgrp(wl->tty) == wl->pid)
		tcsetpgrp(wl->tty, getpgrp());
	fflush(stdout);
	fflush(stderr);
	got_tstp = 0;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, &old);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, &oset);
	/*
	 * latt stops here, and goes on when it is continued.  Without a
	 * terminal latt's group may be orphaned, where the kernel discards
	 * a SIGTSTP: SIGSTOP always stops.
	 */
	if (wl->tty >= 0)
		kill(0, sig);
	else
		raise(SIGSTOP);
	sigaction(sig, &old, NULL);
	sigprocmask(SIG_SETMASK, &oset, NULL);
	got_tstp = 0;
	/* fg: the terminal goes back to the workload; bg: it stays. */
	if (running && job_foreground(wl))
		tcsetpgrp(wl->tty, wl->pid);
	signal_all(wl, SIGCONT);
	wl->stopsig = 0;
}

/* Sends sig to every load's group, and to the command's while it runs. */
static void
signal_all(const struct workload *wl, int sig)
{
	unsigned i;

	for (i = 0; i < wl->nload; i++)
		if (wl->load[i].pgid > 0)
			kill(-wl->load[i].pgid, sig);
	if (wl->pid > 0 && !wl->reaped)
		kill(-wl->pid, sig);
}

/*
 * Forks and execs the workload, if there is one (with --duration there
 * need not be).  Returns 0, or -1 with errno set when nothing could be
 * started.  A workload that could not be executed is
 * reaped at once and its errno kept in wl->exec_errno.
 */
static int
start_command(const struct config *cfg, unsigned long slack,
    struct workload *wl)
{
	int ep[2], e, st, handover;
	ssize_t n;
	pid_t pid;

	/* In the foreground of a terminal, the workload gets it. */
	handover = job_foreground(wl);
	if (pipe2(ep, O_CLOEXEC) == -1)
		return -1;
	if ((pid = proc_fork(ep)) == -1) {
		fork_failed(wl, "fork of the workload");
		return -1;
	}
	if (pid == 0) {
		close(ep[0]);
		run_workload(cfg, slack, ep[1], handover ? wl->tty : -1);
	}
	/* Both sides set the group, so neither can race the other. */
	setpgid(pid, pid);
	guard_tell(&wl->guard, GUARD_GROUP, pid);
	if (handover)
		tcsetpgrp(wl->tty, pid);
	close(ep[1]);
	wl->pid = pid;
	wl->start = now_ns();
	while ((n = read(ep[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(ep[0]);
	if (n == sizeof(e)) {
		wl->exec_errno = e;
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		wl->status = st;
		wl->reaped = 1;
		wl->end = now_ns();
	}
	return 0;
}

static void
run_workload(const struct config *cfg, unsigned long slack, int errfd,
    int tty)
{
	static const int deflt[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE,
	    SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU };
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int e;

	setpgid(0, 0);
	/* SIGTTOU is still ignored here, as in latt. */
	if (tty >= 0)
		tcsetpgrp(tty, getpid());
	/*
	 * No death signal: were latt killed, this process would die before
	 * the guardian had found its children outside the group.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(deflt) / sizeof(deflt[0]); i++)
		sigaction(deflt[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The timer slack latt inherited (tune_parent). */
	prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
	/* A machine-readable stdout is never mixed with the workload's. */
	if (cfg->json_path != NULL && strcmp(cfg->json_path, "-") == 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	if (cfg->ncmd == 1)
		/* "--": a command that starts with a dash is no option. */
		execl("/bin/sh", "sh", "-c", "--", cfg->cmd[0], (char *)NULL);
	else
		execvp(cfg->cmd[0], cfg->cmd);
	e = errno;
	(void)!write(errfd, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

/*
 * Reaps the workload if it has ended.  Returns 1 once it has been reaped,
 * else 0.  A run without a command (loads only) never ends this way.  A
 * workload seen stopped is left in wl->stopsig, for workload_stop_signal.
 */
static int
poll_command(struct workload *wl)
{
	struct rusage ru;
	pid_t r;
	int st;

	if (wl->pid <= 0)
		return 0;
	if (wl->reaped)
		return 1;
	while ((r = wait4(wl->pid, &st, WNOHANG | WUNTRACED, &ru)) == -1 &&
	    errno == EINTR)
		;
	if (r == wl->pid && WIFSTOPPED(st)) {
		wl->stopsig = WSTOPSIG(st);
	} else if (r == wl->pid) {
		reaped(wl, st, &ru);
		/* Ctrl-C at the terminal it held: latt was interrupted. */
		if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT ||
		    WTERMSIG(st) == SIGQUIT) && wl->tty >= 0 &&
		    tcgetpgrp(wl->tty) == wl->pid)
			wl->interrupted = WTERMSIG(st);
	} else if (r == -1) {
		/* Not our child any more: nothing left to wait for. */
		wl->reaped = 1;
		wl->end = now_ns();
	}
	return wl->reaped;
}

int
workload_reap(struct workload *wl)
{
	siginfo_t si;
	pid_t self = getpgrp(), pg;
	unsigned i;
	int st;

	for (i = 0; i < wl->nload; i++)
		if (wl->load[i].pgid > 0)
			wl->load[i].nlost += reap_members(wl->load[i].pgid);
	for (;;) {
		/* A look first (WNOWAIT): a client's zombie is not ours. */
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (si.si_pid <= 0)
			break;
		if (si.si_pid == wl->pid) {
			if (poll_command(wl) == 0)
				break;
			continue;
		}
		/*
		 * Left for measure.c when in latt's own group (a client),
		 * unless it is the guardian (killed: latt runs unguarded, as
		 * before it) or the keeper (its death costs the autopsy:
		 * explain.c says).
		 */
		pg = getpgid(si.si_pid);
		if (pg == self && si.si_pid != wl->guard.pid &&
		    si.si_pid != wl->keeper)
			break;
		for (i = 0; i < wl->nload; i++)
			if (pg == wl->load[i].pgid)
				wl->load[i].nlost++;
		while (waitpid(si.si_pid, &st, 0) == -1 && errno == EINTR)
			;
		if (si.si_pid == wl->guard.pid)
			wl->guard.pid = 0;
		else if (si.si_pid == wl->undo)
			wl->undo = -1;	/* the knob's guardian: gone */
		else if (si.si_pid == wl->keeper) {
			wl->keeper_status = st;
			wl->keeper_reaped = 1;
		}
	}
	return poll_command(wl);
}

/*
 * Ends the command and everything left in its process group: sig, then
 * SIGTERM, then SIGKILL, a grace apart.  Returns when all are gone.
 */
static void
end_group(struct workload *wl, int sig)
{
	if (!wl->reaped)
		wl->stopped_by_us = 1;
	else if (kill(-wl->pid, 0) == -1)
		return;
	/* sig, then SIGTERM unless sig was it, then SIGKILL. */
	for (; sig != SIGKILL; sig = sig == SIGTERM ? SIGKILL : SIGTERM) {
		kill(-wl->pid, sig);
		kill(-wl->pid, SIGCONT);
		if (reap_group(wl, now_ns() + GRACE_NS))
			return;
	}
	kill(-wl->pid, SIGKILL);
	reap_group(wl, now_ns() + 5 * GRACE_NS);
}

/*
 * Reaps members of the workload's group until none is left or the deadline
 * passes.  Returns 1 when the group is gone.
 */
static int
reap_group(struct workload *wl, int64_t deadline)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	struct rusage ru;
	pid_t r;
	int st;

	for (;;) {
		r = wait4(-wl->pid, &st, WNOHANG, &ru);
		if (r > 0) {
			if (r == wl->pid && !wl->reaped)
				reaped(wl, st, &ru);
			continue;
		}
		if (r == -1 && errno == EINTR)
			continue;
		if (wl->reaped && kill(-wl->pid, 0) == -1 && errno == ESRCH)
			return 1;
		if (now_ns() > deadline)
			return 0;
		nanosleep(&ms, NULL);
	}
}

/*
 * Forks every load: n processes in a new process group per load, the
 * first one its leader.  The slots are mapped before any fork so that
 * every process shares them.  After a fork that fails, -1: what started
 * is counted (nstarted) and timed, the loads not reached are listed with
 * none started.
 */
static int
start_loads(const struct config *cfg, struct workload *wl)
{
	struct load_slot *slot;
	struct load_run *lr;
	size_t nslots = 0, membytes = 0;
	int64_t t0;
	unsigned i, j, per;
	pid_t pid, self = getpid();
	char what[64];
	int e = 0;

	for (i = 0; i < cfg->nload; i++) {
		nslots += config_load_nproc(cfg->load[i].kind, cfg->load[i].n);
		if (cfg->load[i].kind == LOAD_MEM)
			membytes = loads_mem_bytes();
	}
	if (nslots == 0)
		return 0;
	wl->slots = mmap(NULL, nslots * sizeof(*slot), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wl->slots == MAP_FAILED) {
		wl->slots = NULL;
		return -1;
	}
	wl->nslots = nslots;
	slot = wl->slots;
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < cfg->nload; i++) {
		if (cfg->load[i].kind == LOAD_NONE)
			continue;
		lr = &wl->load[wl->nload++];
		lr->kind = cfg->load[i].kind;
		lr->n = cfg->load[i].n;
		lr->cpus = cfg->load[i].cpus;
		lr->ncpus = cfg->load[i].ncpus;
		lr->nproc = config_load_nproc(lr->kind, lr->n);
		lr->slot = slot;
		slot += lr->nproc;
		/* After a failed fork, the loads asked are listed unstarted. */
		if (e != 0)
			continue;
		per = lr->nproc / lr->n;
		t0 = now_ns();
		for (j = 0; j < lr->n; j++) {
			if ((pid = fork()) == -1) {
				e = errno;
				snprintf(what, sizeof(what), "fork of a %s "
				    "load's process",
				    config_load_name(lr->kind));
				fork_failed(wl, what);
				break;
			}
			if (pid == 0)
				run_load(lr, j, lr->slot + j * per, membytes,
				    self);
			if (j == 0) {
				lr->pgid = pid;
				guard_tell(&wl->guard, GUARD_GROUP, pid);
			}
			/* Both sides set the group, as for the command. */
			setpgid(pid, lr->pgid);
			lr->nstarted += per;
		}
		/*
		 * Its time runs from its first fork: its operations count
		 * from there (a fork at a limit, the run over at once, made
		 * a rate from the last fork ten times what the CPUs can).
		 */
		if (lr->nstarted > 0)
			lr->start = t0;
	}
	errno = e;
	return e != 0 ? -1 : 0;
}

/*
 * Notes what could not be forked, and the limit that refused it while it
 * still holds (the reports read no /proc).  errno is kept.
 */
static void
fork_failed(struct workload *wl, const char *what)
{
	int e = errno;

	snprintf(wl->fork_what, sizeof(wl->fork_what), "%s", what);
	proc_fork_why(e, wl->fork_why, sizeof(wl->fork_why));
	errno = e;
}

/*
 * Load process j: its own group (or its load's), default signals, no
 * descriptor of latt's (0, 1 and 2 on /dev/null), death with latt, a name
 * that ps and top show, its CPU with cpus= (a pipe pair shares it), then
 * the body.  A CPU refused makes it end at once: counted as ended early.
 */
static void
run_load(const struct load_run *lr, unsigned j, struct load_slot *slot,
    size_t membytes, pid_t parent)
{
	char name[16];
	cpu_set_t one;

	/* Outside its group, SIGKILL at the end would miss it. */
	if (setpgid(0, lr->pgid) == -1)
		_exit(1);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (lr->ncpus > 0) {
		CPU_ZERO(&one);
		CPU_SET(lr->cpus[j % lr->ncpus], &one);
		if (sched_setaffinity(0, sizeof(one), &one) == -1)
			_exit(1);
	}
	proc_detach(NULL, 0, 3);
	snprintf(name, sizeof(name), "latt-%s", config_load_name(lr->kind));
	prctl(PR_SET_NAME, name);
	loads_body(lr->kind, slot, membytes);
}

/* Reaps the members of a group that have ended; returns how many. */
static unsigned
reap_members(pid_t pgid)
{
	unsigned n = 0;
	pid_t r;
	int st;

	while ((r = waitpid(-pgid, &st, WNOHANG)) > 0 ||
	    (r == -1 && errno == EINTR))
		if (r > 0)
			n++;
	return n;
}

/*
 * Kills every load's group with SIGKILL, reaps every member (the orphans
 * of a fork or pipe load come back to latt, the subreaper), then adds up
 * the operation counts.  A member reaped before the kill ended early.
 */
static void
stop_loads(struct workload *wl)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	struct load_run *lr;
	int64_t deadline;
	unsigned i, j, left;

	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		if (lr->pgid <= 0)
			continue;
		lr->nlost += reap_members(lr->pgid);
		kill(-lr->pgid, SIGKILL);
		lr->end = now_ns();
	}
	deadline = now_ns() + LOAD_REAP_NS;
	do {
		left = 0;
		for (i = 0; i < wl->nload; i++) {
			lr = &wl->load[i];
			if (lr->pgid <= 0)
				continue;
			reap_members(lr->pgid);
			if (kill(-lr->pgid, 0) == 0)
				left++;
		}
		if (left > 0)
			nanosleep(&ms, NULL);
	} while (left > 0 && now_ns() < deadline);

	for (i = 0; i < wl->nload; i++) {
		lr = &wl->load[i];
		lr->ops = 0;
		for (j = 0; lr->pgid > 0 && j < lr->nproc; j++)
			lr->ops += __atomic_load_n(&lr->slot[j].ops,
			    __ATOMIC_RELAXED);
		lr->slot = NULL;
	}
	if (wl->slots != NULL)
		munmap(wl->slots, wl->nslots * sizeof(*wl->slots));
	wl->slots = NULL;
	wl->nslots = 0;
}

/*
 * The command reaped with wait status st, and the CPU time it used, user
 * and system, with that of the children it waited for (a shell's, a
 * make's): what wait4 says of it.
 */
static void
reaped(struct workload *wl, int st, const struct rusage *ru)
{
	wl->cpu_ns = (int64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) *
	    NSEC_PER_SEC + (int64_t)(ru->ru_utime.tv_usec +
	    ru->ru_stime.tv_usec) * NSEC_PER_USEC;
	wl->status = st;
	wl->reaped = 1;
	wl->end = now_ns();
}
