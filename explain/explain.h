/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain.h: the API of --explain's measuring side: latt's own tracefs
 * instance, made before the run (explain_open), its events enabled at the
 * start (explain_start), the K worst samples kept as they come
 * (explain_keep) and the trace read into res->autopsy once everything has
 * stopped (explain_read).  The autopsy itself is a result: autopsy.h.
 */
#ifndef EXPLAIN_H
#define EXPLAIN_H

#include <sys/types.h>

#include <stddef.h>

struct config;
struct result;
struct sample;

/*
 * --explain: latt's own tracefs instance (explain.c), made before the run
 * and removed at its end; a keeper process removes it if latt dies.
 */
struct kwin;

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
 * explain_open returns 0; -1 for what the user can change (no tracefs, no
 * right to it, a PID namespace it cannot see through: status 2); -2 for a
 * runtime failure (fork, mmap: status 1); err says why.  explain_close
 * returns -1, with what to do in err, when the instance stays behind.
 */
int	 explain_open(struct tinst *, char *, size_t);
int	 explain_start(struct tinst *);
void	 explain_keep(const struct config *, struct tinst *, struct result *,
	    const struct sample *);
void	 explain_read(struct tinst *, struct result *);
int	 explain_close(struct tinst *, char *, size_t);

#endif /* EXPLAIN_H */
