/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs for --breaktrace: found and opened before the run (so that a
 * missing or read-only tracefs is known before anything starts); when a
 * latency breaks the limit, a marker naming it, and tracing stopped.
 */
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

static int	 open_in(const char *, const char *, int);
static int	 is_tracefs(const char *);

void
trace_prepare(struct trace *tr)
{
	const char *file = "trace_marker";
	char c;

	tr->marker_fd = tr->on_fd = -1;
	if ((tr->dir = trace_find()) == NULL)
		usage_error("breaktrace: tracefs is not mounted (mount "
		    "-t tracefs nodev /sys/kernel/tracing)");
	if ((tr->marker_fd = open_in(tr->dir, file, O_WRONLY)) != -1) {
		file = "tracing_on";
		tr->on_fd = open_in(tr->dir, file, O_RDWR);
	}
	if (tr->on_fd == -1)
		usage_error("breaktrace: %s/%s: %s", tr->dir, file,
		    strerror(errno));
	if (pread(tr->on_fd, &c, 1, 0) == 1 && c == '0')
		lwarnx("breaktrace: %s/tracing_on is 0: nothing is being "
		    "traced, and the marker will not be recorded", tr->dir);
}

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
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return open(path, flags | O_CLOEXEC);
}
