/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel knob swept (--sweep=FILE=V1,V2,...): its file checked as the
 * options are read; locked (one latt a knob), saved, found restorable,
 * guarded (guard.c's undo) before the first write, then written back as
 * a test and every value tried; each run's value written and read back;
 * the content written back at the end, or by the guardian if latt is
 * killed.
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "lib/common.h"
#include "proc/guard.h"
#include "sweep/knob.h"

/* statfs f_type of the file systems of kernel knobs. */
#define PROC_MAGIC	0x9fa0
#define SYSFS_MAGIC	0x62656572
#define DEBUGFS_MAGIC	0x64626720
#define TRACEFS_MAGIC	0x74726163
#define CGROUP2_MAGIC	0x63677270

static int	 lock(struct knob *);
static int	 put_back(struct knob *);
static void	 undo(void *);
static void	 choice(struct knob *);
static int	 put(const struct knob *, const char *, const char *,
		    char *, size_t);
static int	 holds(const char *, const char *);
static int	 ours(const struct knob *, char *, size_t);
static int	 read_all(const char *, char *, size_t *, char *, size_t);
static int	 write_all(const char *, const char *, size_t);
static int	 kernel_fd(int);

/*
 * --sweep=FILE=V1,V2,...: the knob's file checked as the options are read
 * (a usage error names it): a file that exists, is no directory, can be
 * read and written.  One outside the kernel's file systems (procfs,
 * sysfs, debugfs) is allowed (a test's own file), with one warning line.
 */
void
knob_check(const char *file)
{
	struct stat st;
	int fd;

	if (stat(file, &st) == -1)
		usage_error("sweep: %s: %s", file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		usage_error("sweep: %s is %s, not a knob's file", file,
		    S_ISDIR(st.st_mode) ? "a directory" : "no regular file");
	if ((fd = open(file, O_RDWR | O_CLOEXEC)) == -1)
		usage_error("sweep: %s cannot be read and written: %s", file,
		    strerror(errno));
	if (!kernel_fd(fd))
		lwarnx("sweep: %s is outside /proc/sys, /sys and debugfs: "
		    "not a kernel knob", file);
	close(fd);
}

int
knob_save(struct knob *k, const struct sweep_spec *sw)
{
	char err[KNOB_TEXT + 256];
	unsigned i;
	int r;

	memset(k, 0, sizeof(*k));
	k->guard.fd = -1;
	k->file = sw->file;
	k->sw = sw;
	if ((r = lock(k)) < 0)
		return r;
	if (read_all(k->file, k->orig, &k->len, err, sizeof(err)) == -1) {
		lwarnx("sweep: %s", err);
		return -1;
	}
	choice(k);
	/* Armed before the first write: from it on, a kill -9 is undone. */
	if (guard_start_undo(&k->guard, undo, k, k->lockfd) == -1) {
		lwarn("fork of latt's knob guardian");
		return -2;
	}
	k->changed = 2;		/* the test's failure is said here, once */
	if (put(k, k->back, k->orig, err, sizeof(err)) == -1) {
		lwarnx("sweep: %s: latt could not restore it", err);
		return -1;
	}
	k->changed = 1;
	for (i = 0; i < sw->n; i++)
		if (put(k, sw->text[i], NULL, err, sizeof(err)) == -1) {
			lwarnx("sweep: %s", err);
			return put_back(k) == -1 ? -2 : -1;
		}
	return put_back(k) == -1 ? -2 : 0;
}

int
knob_set(struct knob *k, const char *value)
{
	char err[KNOB_TEXT + 256];

	if (!knob_guarded(k))
		return -1;
	k->changed = 1;
	k->now = value;
	if (put(k, value, NULL, err, sizeof(err)) == 0)
		return 0;
	lwarnx("sweep: %s", err);
	put_back(k);
	return -1;
}

int
knob_held(const struct knob *k, char *found, size_t len)
{
	char got[KNOB_TEXT], t[64];
	size_t n;

	if (k->now == NULL)
		return 1;
	if (read_all(k->file, got, &n, NULL, 0) == -1)
		snprintf(got, sizeof(got), "(unreadable)");
	if (holds(got, k->now))
		return 1;
	got[strcspn(got, "\n")] = '\0';
	snprintf(found, len, "%s", cut_value(t, sizeof(t), got));
	return 0;
}

/* Reaped here, or as a stray by workload.c, latt-undo is gone. */
int
knob_guarded(struct knob *k)
{
	if (k->guard.pid > 0 && waitpid(k->guard.pid, NULL, WNOHANG) == 0)
		return 1;
	if (k->guard.pid > 0)
		lwarnx("sweep: latt's knob guardian (latt-undo) is gone: %s "
		    "%s, the sweep ends", k->file, put_back(k) == 0 ?
		    "restored" : "not restored");
	k->guard.pid = 0;
	return 0;
}

int
knob_restore(struct knob *k)
{
	int r;

	if (k->file == NULL)
		return 0;
	r = put_back(k);
	guard_stop(&k->guard);
	if (k->lockfd > 0)
		close(k->lockfd);
	k->lockfd = 0;
	return r;
}

/*
 * One latt a knob: flock(2) on the file itself (/proc/sys's and sysfs's
 * too), which dies with the last holder: latt, its guardian till the undo
 * is done.  Held: one line naming the holder's pid (/proc/locks), refused
 * at once: -1 (status 2).  A lock that fails otherwise: -2.
 */
static int
lock(struct knob *k)
{
	char line[256];
	unsigned long ino;
	unsigned maj, min;
	struct stat st;
	int pid = 0, p;
	FILE *f;

	if ((k->lockfd = open(k->file, O_RDONLY | O_CLOEXEC)) != -1 &&
	    flock(k->lockfd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK) {
		lwarn("sweep: locking %s", k->file);
		return -2;
	}
	if (fstat(k->lockfd, &st) == 0 &&
	    (f = fopen("/proc/locks", "re")) != NULL) {
		while (pid == 0 && fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "%*d: FLOCK %*s WRITE %d %x:%x:%lu",
			    &p, &maj, &min, &ino) == 4 && ino == st.st_ino &&
			    maj == major(st.st_dev) && min == minor(st.st_dev))
				pid = p;
		fclose(f);
	}
	lwarnx("sweep: %s is swept by another latt (pid %d): one latt a "
	    "knob", k->file, pid);
	return -1;
}

/*
 * The content written back, its failure said once.  0, or -1.  changed:
 * 0 the content in it, 1 latt's value, 2 could not be restored, 3 left
 * to another writer.
 */
static int
put_back(struct knob *k)
{
	char err[KNOB_TEXT + 256], got[64];

	if (k->changed != 1)
		return k->changed == 0 ? 0 : -1;
	k->changed = 2;
	if (!ours(k, got, sizeof(got))) {
		lwarnx("sweep: %s holds %s, not a value latt wrote: left as "
		    "another writer set it", k->file, got);
		k->changed = 3;
		return -1;
	}
	if (put(k, k->back, k->orig, err, sizeof(err)) == -1) {
		lwarnx("sweep: %s: its content before latt could not be "
		    "restored", err);
		return -1;
	}
	k->changed = 0;
	return 0;
}

/* In the guardian, latt dead: the content written back. */
static void
undo(void *arg)
{
	struct knob *k = arg;

	if (ours(k, NULL, 0))
		(void)write_all(k->file, k->back, strlen(k->back));
}

/*
 * What restores the knob: its content as it is, or, for a kernel file's
 * list of choices with the one in force marked ("none voluntary (full)",
 * "always [madvise] never"), that one; a plain file's bytes are text.
 */
static void
choice(struct knob *k)
{
	const char *p, *e;
	size_t n;

	memcpy(k->back, k->orig, k->len + 1);
	for (p = kernel_fd(k->lockfd) ? k->orig : ""; *p != '\0'; p += n) {
		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		e = p + n - 1;
		if (n > 2 && ((*p == '[' && *e == ']') ||
		    (*p == '(' && *e == ')'))) {
			snprintf(k->back, sizeof(k->back), "%.*s",
			    (int)(n - 2), p + 1);
			return;
		}
	}
}

/*
 * Writes text to the knob and reads it back: with want, the content must
 * be want exactly; without, text must be what it holds (trailing spaces
 * aside) or the choice marked in it.  0, or -1 with a line in err.
 */
static int
put(const struct knob *k, const char *text, const char *want,
    char *err, size_t errlen)
{
	char got[KNOB_TEXT], one[KNOB_TEXT], t[64], g[64];	/* 60 bytes */
	size_t len;

	snprintf(one, sizeof(one), "%.*s", (int)strcspn(text, "\n"), text);
	if (write_all(k->file, text, strlen(text)) == -1) {
		snprintf(err, errlen, "%s refuses %s: %s", k->file,
		    cut_value(t, sizeof(t), one), strerror(errno));
		return -1;
	}
	if (read_all(k->file, got, &len, err, errlen) == -1)
		return -1;
	if (want != NULL ? strcmp(got, want) == 0 : holds(got, text))
		return 0;
	got[strcspn(got, "\n")] = '\0';
	snprintf(err, errlen, "%s: wrote %s, it reads back %s", k->file,
	    cut_value(t, sizeof(t), one), cut_value(g, sizeof(g), got));
	return -1;
}

/* Whether the content got holds value: as a whole, or marked as chosen. */
static int
holds(const char *got, const char *value)
{
	size_t n = strlen(value), m = strlen(got);
	const char *p;

	while (m > 0 && (got[m - 1] == '\n' || got[m - 1] == ' '))
		m--;
	if (m == n && strncmp(got, value, n) == 0)
		return 1;
	for (p = got; (p = strstr(p, value)) != NULL; p++)
		if (p > got && p[n] != '\0' && ((p[-1] == '[' && p[n] == ']')
		    || (p[-1] == '(' && p[n] == ')')))
			return 1;
	return 0;
}

/*
 * Whether the knob holds its content before latt or a value latt wrote
 * (else another writer's, which latt leaves, in got when not NULL).
 * Async-signal-safe without got, for the guardian.
 */
static int
ours(const struct knob *k, char *got, size_t len)
{
	char now[KNOB_TEXT], t[64];
	size_t n;
	unsigned i;

	if (read_all(k->file, now, &n, NULL, 0) == -1 ||
	    strcmp(now, k->orig) == 0 || holds(now, k->back))
		return 1;
	for (i = 0; i < k->sw->n; i++)
		if (holds(now, k->sw->text[i]))
			return 1;
	if (got != NULL) {
		now[strcspn(now, "\n")] = '\0';
		snprintf(got, len, "%s", cut_value(t, sizeof(t), now));
	}
	return 0;
}

/*
 * The knob's whole content into buf (KNOB_TEXT).  0, or -1 and err (when
 * not NULL: the guardian's undo reads without stdio).
 */
static int
read_all(const char *file, char *buf, size_t *len, char *err,
    size_t errlen)
{
	ssize_t n;
	size_t have = 0;
	int fd;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1) {
		if (err != NULL)
			snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	while (have < KNOB_TEXT - 1 && ((n = read(fd, buf + have,
	    KNOB_TEXT - 1 - have)) > 0 || (n == -1 && errno == EINTR)))
		have += n > 0 ? (size_t)n : 0;
	close(fd);
	buf[have] = '\0';
	*len = have;
	/* What latt could not write back exactly it never writes. */
	if ((have == KNOB_TEXT - 1 || strlen(buf) != have) && err != NULL)
		snprintf(err, errlen, "%s holds more than %d bytes, or a NUL "
		    "byte: not a knob latt can restore", file, KNOB_TEXT - 2);
	return have == KNOB_TEXT - 1 || strlen(buf) != have ? -1 : 0;
}

/*
 * Writes text to the knob in one write(2), as echo would: a kernel file
 * takes the whole value at once; a plain file is cut to it too.  0, or
 * -1 with errno set.  Async-signal-safe, for the guardian.
 */
static int
write_all(const char *file, const char *text, size_t len)
{
	ssize_t n;
	int fd, e;

	if ((fd = open(file, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((n = write(fd, text, len)) == -1 && errno == EINTR)
		;
	e = n == -1 ? errno : n != (ssize_t)len ? EIO : 0;
	/* Kernel files take no truncation: only a plain one is cut. */
	if (e == 0 && !kernel_fd(fd) && ftruncate(fd, (off_t)len) == -1)
		e = errno;
	if (close(fd) == -1 && e == 0)
		e = errno;
	errno = e;
	return e == 0 ? 0 : -1;
}

/* Whether fd is a file of a kernel file system (its own write rules). */
static int
kernel_fd(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && (sf.f_type == PROC_MAGIC ||
	    sf.f_type == SYSFS_MAGIC || sf.f_type == DEBUGFS_MAGIC ||
	    sf.f_type == TRACEFS_MAGIC || sf.f_type == CGROUP2_MAGIC);
}
