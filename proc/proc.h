/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proc.h: the API of proc.c, what /proc says of processes: a process's
 * numbers in its PID namespaces (NSpid), its children, its state, and
 * which limit refused a fork; and the fork and the detaching every helper
 * process of latt's shares.  Pids here are procfs's own (its PID
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

/*
 * The NSpid line of /proc/PID/status (0: latt itself): the process's pid
 * in each PID namespace from procfs's down to its own, outermost first.
 * Stores up to max of them and returns how many the line has; -1 when it
 * cannot be read (or the kernel, before 4.1, has no such line).
 */
int	 proc_nspid(pid_t, pid_t *, int max);
/* latt's own pid as procfs numbers it; -1 when /proc cannot say. */
pid_t	 proc_self(void);
/*
 * A procfs pid as the calling process's PID namespace numbers it (the
 * same pid unless procfs belongs to an outer namespace); 0 when that
 * namespace does not see it.
 */
pid_t	 proc_own(pid_t);
/* /proc/PID/stat (0: latt itself).  Returns 0, or -1 when it is gone. */
int	 proc_stat(pid_t, struct proc_stat *);
/* Whether pid ignores or blocks sig: 1, 0, or -1 when it cannot be read. */
int	 proc_deaf(pid_t, int sig);
/*
 * The children of pid (0: latt itself), from each of its threads'
 * children file, or where the kernel has none (CONFIG_PROC_CHILDREN),
 * from a walk of /proc.  Returns a malloc'd array of *n pids, or NULL
 * with *n 0 when there are none or they cannot be read.
 */
pid_t	*proc_children(pid_t, size_t *n);
/*
 * How the pids tracefs records relate to latt's: the same; told by NSpid,
 * with latt's own in *host; or not at all (a container with a /proc of
 * its own), with why in why.
 */
enum proc_view proc_host_view(pid_t *host, char *why, size_t len);
/*
 * Why a fork failed with err, for the end of its one-line error: the
 * limit that refused it, as far as /proc can tell now.  Returns buf.
 */
const char *proc_fork_why(int err, char *buf, size_t len);

/*
 * Flushes stdout and stderr (or the child would repeat them) and forks;
 * when the fork fails, closes the pipe p meant for the child, errno kept.
 * Returns what fork returns.
 */
pid_t	 proc_fork(int p[2]);
/*
 * In a process latt forked that is to keep nothing of latt's (a load, a
 * guardian): every signal to its default but those of deaf, ignored, and
 * none blocked; 0, 1 and 2 on /dev/null (a reader of latt's output must
 * see its end with latt's); every descriptor from lo up closed.
 */
void	 proc_detach(const int *deaf, size_t ndeaf, unsigned lo);

#endif /* PROC_H */
