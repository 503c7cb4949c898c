/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain.h: the API of --explain's measuring side (explain.c): latt's
 * own tracefs instance and its keeper, from before the run to its end.
 * The autopsy it makes is a result: autopsy.h.
 */
#ifndef EXPLAIN_H
#define EXPLAIN_H

#include <sys/types.h>

#include <stddef.h>

struct config;
struct kwin;
struct result;
struct sample;

/* The instance, made before the run and removed at its end. */
struct tinst {
	char		*top;		/* the tracefs mount */
	char		*dir;		/* top/instances/latt-PID, as shown */
	char		*path;		/* the same through ifd, which reaches
					   it even once top is unmounted */
	char		 name[32];	/* latt-PID, PID as tracefs knows it */
	int		 ifd;		/* top/instances, held open (> 2) */
	dev_t		 idev;		/* what it is, to see top unmounted */
	ino_t		 iino;
	int		 made;		/* dir exists and is ours to remove */
	pid_t		 keeper;	/* 0: none */
	int		 keeper_fd;	/* its pipe; closing it lets it go */
	int		 keeper_rfd;	/* the pages it kept come back here */
	struct kwin	*win;		/* shared with it: what to keep */
	unsigned	 buf_kb;	/* buffer_size_kb, a CPU */
	pid_t		 host;		/* latt's pid as tracefs records it */
	int		 nspid;		/* in a PID namespace: pids translate */
	pid_t		(*map)[2];	/* then latt's children: own, host */
	size_t		 nmap;
};

/*
 * Before the run: makes latt's instance, its events off, and its keeper,
 * and has the decoder read the events' layouts.  Returns 0; -1 for what
 * the user can change (no tracefs, no right to it, a PID namespace it
 * cannot see through: status 2); -2 for a runtime failure (fork, mmap:
 * status 1); err says why.
 */
int	 explain_open(struct tinst *, char *err, size_t errlen);
/*
 * Once the clients run (in a PID namespace, their pids as tracefs knows
 * them are looked up now): enables the events and starts tracing.
 * Returns 0, or -1 with errno set.
 */
int	 explain_start(struct tinst *);
/*
 * From the sink, each sample: keeps the K worst in res->worst, worst
 * first, and the last one (where --breaktrace may have stopped), and
 * has the keeper keep the trace around the K worst.
 */
void	 explain_keep(const struct config *, struct tinst *, struct result *,
	    const struct sample *);
/*
 * After the run: stops tracing and builds res->autopsy, of each kept
 * sample and of the one --breaktrace stopped at, from the keeper's pages.
 * A failure (a keeper stopped or dead among them) is said there, never
 * fatal; a signal that ends latt ends the wait for the keeper at once.
 */
void	 explain_read(struct tinst *, struct result *);
/*
 * Lets the keeper go (killed when it does not end in time, or is
 * stopped) and removes the instance; safe twice, and on one never made.
 * Returns 0, or -1 with what to do in err when the instance stays behind.
 */
int	 explain_close(struct tinst *, char *err, size_t errlen);

#endif /* EXPLAIN_H */
