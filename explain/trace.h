/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h: the API of trace.c, tracefs for --breaktrace: finds the mount,
 * opens trace_marker and tracing_on before the run, and writes the marker
 * and stops tracing when a latency passes the limit.
 */
#ifndef TRACE_H
#define TRACE_H

struct brk;

/* tracefs, opened before the run by trace_prepare; fds are -1 when unused. */
struct trace {
	char		*dir;		/* the tracefs directory */
	int		 marker_fd;	/* trace_marker */
	int		 on_fd;		/* tracing_on */
};

/*
 * Where tracefs is (--explain's too): /sys/kernel/tracing when a tracefs
 * is mounted there, else debugfs's tracing directory at its usual place,
 * and only then the first tracefs of the mount table, or any debugfs's
 * tracing directory (a tracefs mounted elsewhere, a test's under /tmp,
 * may be unmounted at any time).  NULL when there is none; else malloc'd.
 */
char	*trace_find(void);
/*
 * Before the run: finds tracefs and opens its two files, or exits with a
 * usage error; warns when tracing is off.
 */
void	 trace_prepare(struct trace *);
/*
 * A latency broke the limit: writes a marker naming it, then turns
 * tracing off (even when the marker could not be written).  Never prints;
 * returns 0, or -1 with errno set when either write failed.
 */
int	 trace_break(const struct trace *, const struct brk *);
void	 trace_close(struct trace *);

#endif /* TRACE_H */
