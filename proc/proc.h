/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proc.h: the API of proc.c, what /proc says of processes: a process's
 * numbers in its PID namespaces (NSpid), its children, its state, and
 * which limit refused a fork.  Pids here are procfs's own (its PID
 * namespace's) unless said otherwise; proc_own translates one to latt's.
 */
#ifndef PROC_H
#define PROC_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* One line of /proc/PID/stat, the fields latt needs. */
struct proc_stat {
	char		 state;		/* R, S, D, T, t, Z... */
	pid_t		 ppid;
	pid_t		 pgid;
	unsigned	 flags;		/* PF_* */
	uint64_t	 start;		/* start time, clock ticks after boot */
};

/* How pids that tracefs records (the initial namespace's) relate to
   latt's own, from proc_host_view. */
enum proc_view {
	PROC_VIEW_SAME,		/* latt runs in the initial PID namespace */
	PROC_VIEW_NSPID,	/* in another, and /proc is the initial one's:
				   NSpid translates */
	PROC_VIEW_NONE,		/* in another, and /proc cannot say */
};

int	 proc_nspid(pid_t, pid_t *, int max);
pid_t	 proc_self(void);
pid_t	 proc_own(pid_t);
int	 proc_stat(pid_t, struct proc_stat *);
int	 proc_deaf(pid_t, int sig);
pid_t	*proc_children(pid_t, size_t *n);
enum proc_view proc_host_view(pid_t *host, char *why, size_t len);
const char *proc_fork_why(int err, char *buf, size_t len);

#endif /* PROC_H */
