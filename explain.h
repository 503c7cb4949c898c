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

#include "config.h"
#include "result.h"

/*
 * --explain: latt's own tracefs instance (explain.c), made before the run
 * and removed at its end; a keeper process removes it if latt dies.
 */
struct kwin;

struct tinst {
	char		*top;		/* the tracefs mount */
	char		*dir;		/* top/instances/latt-PID */
	int		 made;		/* dir exists and is ours to remove */
	pid_t		 keeper;	/* 0: none */
	int		 keeper_fd;	/* its pipe; closing it lets it go */
	int		 keeper_rfd;	/* the pages it kept come back here */
	struct kwin	*win;		/* shared with it: what to keep */
	unsigned	 buf_kb;	/* buffer_size_kb, a CPU */
};

int	 explain_open(struct tinst *, char *, size_t);
int	 explain_start(const struct tinst *);
void	 explain_keep(const struct config *, struct tinst *, struct result *,
	    const struct sample *);
void	 explain_read(const struct tinst *, struct result *);
void	 explain_close(struct tinst *);

#endif /* EXPLAIN_H */
