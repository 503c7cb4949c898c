/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workload.h: the API of workload.c, the one place where what runs beside
 * the measurement (the user's command and the built-in loads) is started
 * and stopped, and of what it keeps of them for the reports.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <sys/types.h>

#include <stdint.h>

#include "config.h"
#include "proc/guard.h"

struct load_slot;

/* One load as it ran. */
struct load_run {
	enum load_kind	 kind;
	unsigned	 n;		/* as given */
	const int	*cpus;		/* cpus=, as given, or NULL */
	unsigned	 ncpus;
	unsigned	 nproc;		/* processes it runs (pipe: 2n) */
	unsigned	 nlost;	/* processes that ended before the run */
	unsigned	 nstarted;	/* processes started: nproc, or fewer
					   when a fork failed */
	pid_t		 pgid;		/* its process group, 0: not started */
	uint64_t	 ops;		/* operations completed */
	int64_t		 start;		/* CLOCK_MONOTONIC ns, its first fork */
	int64_t		 end;		/* when it was stopped */
	struct load_slot *slot;		/* its first slot in the mapping */
};

struct workload {
	pid_t		 pid;		/* 0: none running */
	int		 tty;		/* the controlling terminal on stdin,
					   for job control; -1: none */
	int		 stopsig;	/* it was seen stopped by this, or 0 */
	int		 interrupted;	/* it died of the terminal's SIGINT or
					   SIGQUIT while it held the terminal */
	int		 status;	/* wait status once reaped */
	int		 reaped;
	int		 stopped_by_us;	/* we signalled it to end the run */
	int		 exec_errno;	/* exec failed in the child */
	int64_t		 start;		/* CLOCK_MONOTONIC ns */
	int64_t		 end;
	int64_t		 cpu_ns;	/* its CPU time, user and system, with
					   the children it waited for, once
					   reaped (wait4); -1: unknown */
	struct guard	 guard;		/* ends it all if latt is killed */
	char		 fork_what[64];	/* what could not be forked, or "" */
	char		 fork_why[200];	/* the limit that refused it, or "" */
	pid_t		 keeper;	/* --explain's keeper, reaped here
					   when it dies during the run */
	int		 keeper_status;	/* its wait status then */
	int		 keeper_reaped;
	pid_t		 undo;		/* the knob's guardian; -1: reaped */
	struct load_run	 load[LOAD_MAX];
	unsigned	 nload;
	struct load_slot *slots; /* shared mapping of every load's slots */
	size_t		 nslots;
};

/*
 * Starts the loads, then the command if there is one; slack is the timer
 * slack it gets back, keeper and undo latt's processes its guardian must
 * spare.  Returns 0, or -1 with errno set (what did start is still ended
 * by workload_stop).
 */
int	 workload_start(const struct config *, unsigned long slack,
	    pid_t keeper, pid_t undo, struct workload *);
/*
 * On SIGCHLD: reaps whatever has ended beside the measurement, so that no
 * zombie piles up during the run: the command (its status kept), the
 * members of its group and its orphans (latt is their subreaper), and a
 * load process that died early (counted as ended early); latt's clients,
 * in latt's own process group, are left to the caller.  Returns 1 once
 * the command has been reaped (never without one), else 0.
 */
int	 workload_reap(struct workload *);
/*
 * Ends the loads and the command, and reaps them all.  sig is the signal
 * that ended the run: SIGINT, SIGTERM and SIGHUP are passed on to the
 * command, any other is SIGTERM to it (a SIGUSR1 or SIGQUIT meant for
 * latt means something else, or a core dump, to many a command).
 */
void	 workload_stop(struct workload *, int sig);
/*
 * What a stop of the command (seen by workload_reap) asks of the loop: 0
 * nothing; a signal number: suspend the run with it (a terminal's stop:
 * Ctrl-Z, or a read or write of the terminal from the background); minus
 * a signal number: it was stopped from elsewhere (SIGSTOP, or any stop
 * without a terminal), which ends the run.
 */
int	 workload_stop_signal(struct workload *);
/*
 * Suspends everything that runs beside the measurement and then latt
 * itself, as a shell's job is suspended; returns once latt is continued,
 * with everything running again.  The caller stops and continues the
 * clients.  sig is the stop to pass on: SIGTSTP for Ctrl-Z, SIGTTIN or
 * SIGTTOU for a terminal access from the background (so that the shell
 * says why).  With a terminal, latt's whole group gets it; without one,
 * latt alone stops, with SIGSTOP.
 */
void	 workload_suspend(struct workload *, int sig);

#endif /* WORKLOAD_H */
