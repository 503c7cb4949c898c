/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h: the API of trace.c, tracefs for --breaktrace: finds the mount,
 * opens trace_marker and tracing_on before the run, and writes the marker
 * and stops tracing when a latency passes the limit.
 */
#ifndef TRACE_H
#define TRACE_H

struct brk;

/* tracefs, opened before the run by trace_open; fds are -1 when unused. */
struct trace {
	char		*dir;		/* the tracefs directory */
	int		 marker_fd;	/* trace_marker */
	int		 on_fd;		/* tracing_on */
};

char	*trace_find(void);
void	 trace_prepare(struct trace *);	/* a usage error if it cannot */
int	 trace_break(const struct trace *, const struct brk *);
void	 trace_close(struct trace *);

#endif /* TRACE_H */
