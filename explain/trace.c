/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs for --breaktrace: finds it (trace_find, --explain's too), opens
 * trace_marker and tracing_on before the run (so that a missing or
 * read-only tracefs is known before anything starts), and when a latency
 * breaks the limit writes a marker naming it and stops tracing.  The
 * measurement loop calls trace_break, which never prints; trace_prepare,
 * before the run, turns a missing tracefs into a usage error.
 */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/trace.h"
#include "lib/common.h"
#include "result.h"

#define TRACEFS_MAGIC	0x74726163	/* statfs f_type of a tracefs */
#define DEBUGFS_MAGIC	0x64626720	/* of debugfs (tracing inside it
					   before Linux 4.1) */

static int	 trace_open(struct trace *, const char **);
static int	 trace_is_on(const struct trace *);
static int	 open_in(const char *, const char *, int);
static int	 is_tracefs(const char *);

/*
 * --breaktrace needs tracefs: found and opened now, so that its absence
 * is a usage error before anything starts.
 */
void
trace_prepare(struct trace *tr)
{
	const char *file = NULL;

	if (trace_open(tr, &file) == -1) {
		if (tr->dir == NULL)
			usage_error("breaktrace: tracefs is not mounted (mount "
			    "-t tracefs nodev /sys/kernel/tracing)");
		usage_error("breaktrace: %s/%s: %s", tr->dir, file,
		    strerror(errno));
	}
	if (trace_is_on(tr) == 0)
		lwarnx("breaktrace: %s/tracing_on is 0: nothing is being "
		    "traced, and the marker will not be recorded", tr->dir);
}

/*
 * Finds tracefs and opens its two files for writing.  Returns 0; -1 with
 * errno ENOENT when no tracefs is mounted (tr->dir NULL); -1 with errno set
 * when a file could not be opened (tr->dir set, and *file naming it).
 */
static int
trace_open(struct trace *tr, const char **file)
{
	tr->marker_fd = tr->on_fd = -1;
	if ((tr->dir = trace_find()) == NULL) {
		errno = ENOENT;
		return -1;
	}
	*file = "trace_marker";
	if ((tr->marker_fd = open_in(tr->dir, *file, O_WRONLY)) == -1)
		return -1;
	*file = "tracing_on";
	if ((tr->on_fd = open_in(tr->dir, *file, O_RDWR)) == -1)
		return -1;
	return 0;
}

/* Whether tracing is on now: 1, 0, or -1 when tracing_on cannot be read. */
static int
trace_is_on(const struct trace *tr)
{
	char c;

	if (pread(tr->on_fd, &c, 1, 0) != 1)
		return -1;
	return c != '0';
}

/*
 * Writes a marker naming what broke the limit, then turns tracing off.
 * Returns 0, or -1 with errno set when either write failed (tracing is
 * turned off even when the marker could not be written).
 */
int
trace_break(const struct trace *tr, const struct brk *b)
{
	char msg[160], who[32];
	int len, e = 0;

	if (b->timer)
		snprintf(who, sizeof(who), "timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	len = snprintf(msg, sizeof(msg), "latt breaktrace: %s latency %lld ns"
	    " at %lld.%09lld s into the run\n", who, (long long)b->latency,
	    (long long)(b->when / NSEC_PER_SEC),
	    (long long)(b->when % NSEC_PER_SEC));
	if (write(tr->marker_fd, msg, (size_t)len) != len)
		e = errno != 0 ? errno : EIO;
	if (pwrite(tr->on_fd, "0", 1, 0) != 1 && e == 0)
		e = errno;
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

void
trace_close(struct trace *tr)
{
	if (tr->marker_fd != -1)
		close(tr->marker_fd);
	if (tr->on_fd != -1)
		close(tr->on_fd);
	tr->marker_fd = tr->on_fd = -1;
	free(tr->dir);
	tr->dir = NULL;
}

/*
 * Where tracefs is: /sys/kernel/tracing when a tracefs is mounted there,
 * else debugfs's tracing directory at its usual place, and only then the
 * first tracefs of the mount table, or any debugfs's tracing directory.
 * Every mount of tracefs shows the same buffers and instances, but one
 * mounted elsewhere (a test's, under /tmp) may be unmounted at any time.
 * NULL when there is none; else malloc'd.
 */
char *
trace_find(void)
{
	static const char *const usual[] = { "/sys/kernel/tracing",
	    "/sys/kernel/debug/tracing" };
	struct mntent *m;
	char *dir = NULL, *dbg = NULL;
	size_t i;
	FILE *fp;

	for (i = 0; i < sizeof(usual) / sizeof(usual[0]); i++)
		if (is_tracefs(usual[i]))
			return strdup(usual[i]);
	if ((fp = setmntent("/proc/mounts", "re")) == NULL)
		return NULL;
	while (dir == NULL && (m = getmntent(fp)) != NULL) {
		if (strcmp(m->mnt_type, "tracefs") == 0)
			dir = strdup(m->mnt_dir);
		else if (dbg == NULL && strcmp(m->mnt_type, "debugfs") == 0 &&
		    asprintf(&dbg, "%s/tracing", m->mnt_dir) == -1)
			dbg = NULL;
	}
	endmntent(fp);
	if (dir == NULL && dbg != NULL && is_tracefs(dbg)) {
		dir = dbg;
		dbg = NULL;
	}
	free(dbg);
	return dir;
}

/*
 * Whether dir is tracefs: a tracefs mount (debugfs's tracing directory is
 * one, mounted on first use), or debugfs's own tracing directory of the
 * kernels before tracefs.
 */
static int
is_tracefs(const char *dir)
{
	char path[PATH_MAX];
	struct statfs sf;

	if (statfs(dir, &sf) == -1)
		return 0;
	if (sf.f_type == TRACEFS_MAGIC)
		return 1;
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	return sf.f_type == DEBUGFS_MAGIC && access(path, F_OK) == 0;
}

static int
open_in(const char *dir, const char *file, int flags)
{
	char *path;
	int fd, e;

	if (asprintf(&path, "%s/%s", dir, file) == -1)
		return -1;
	fd = open(path, flags | O_CLOEXEC);
	e = errno;
	free(path);
	errno = e;
	return fd;
}
