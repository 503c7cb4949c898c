/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel knob swept (--sweep=FILE=V1,V2,...): its file checked as the
 * options are read, its content saved, every value tried and the content
 * restored before the run; each run's value written and read back; the
 * content written back at the end, and by the guardian of an undo
 * (guard.c) if latt is killed.
 */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>

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

static void	 undo(void *);
static void	 choice(struct knob *);
static int	 put(const struct knob *, const char *, const char *,
		    char *, size_t);
static int	 holds(const char *, const char *);
static int	 read_all(const char *, char *, size_t *, char *, size_t);
static int	 write_all(const char *, const char *, size_t);

/*
 * --sweep=FILE=V1,V2,...: the knob's file checked as the options are read
 * (a usage error names it): a file that exists, is no directory, can be
 * read and written.  One outside /proc/sys, /sys and debugfs is allowed
 * (a test's own file), with one warning line.
 */
void
knob_check(const char *file)
{
	struct statfs sf;
	struct stat st;
	char *real;
	int fd, kernel;

	if (stat(file, &st) == -1)
		usage_error("sweep: %s: %s", file, strerror(errno));
	if (S_ISDIR(st.st_mode))
		usage_error("sweep: %s is a directory, not a knob's file",
		    file);
	if (!S_ISREG(st.st_mode))
		usage_error("sweep: %s is not a regular file", file);
	if ((fd = open(file, O_WRONLY | O_CLOEXEC)) == -1)
		usage_error("sweep: %s cannot be written: %s", file,
		    strerror(errno));
	close(fd);
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1)
		usage_error("sweep: %s cannot be read: %s", file,
		    strerror(errno));
	close(fd);
	real = realpath(file, NULL);
	kernel = real != NULL && (strncmp(real, "/proc/sys/", 10) == 0 ||
	    strncmp(real, "/sys/", 5) == 0);
	if (!kernel && statfs(file, &sf) == 0)
		kernel = sf.f_type == DEBUGFS_MAGIC || sf.f_type ==
		    TRACEFS_MAGIC;
	free(real);
	if (!kernel)
		lwarnx("sweep: %s is outside /proc/sys, /sys and debugfs: "
		    "not a kernel knob", file);
}

/*
 * Saves the knob's content, tries that it can be written back as it is,
 * tries every value (written and read back), and puts the content back:
 * all before anything runs, so that a refused value is bad input.  Then
 * starts the guardian that restores it if latt is killed.  Returns 0, -1
 * (a usage error, said) or -2 (a runtime failure, said).
 */
int
knob_save(struct knob *k, const struct sweep_spec *sw)
{
	char err[KNOB_TEXT + 256];
	unsigned i;

	memset(k, 0, sizeof(*k));
	k->guard.fd = -1;
	k->file = sw->file;
	if (read_all(k->file, k->orig, &k->len, err, sizeof(err)) == -1) {
		lwarnx("sweep: %s", err);
		return -1;
	}
	choice(k);
	/* What writes it back must give its content back, exactly. */
	if (put(k, k->back, k->orig, err, sizeof(err)) == -1) {
		lwarnx("sweep: %s: latt could not restore it", err);
		return -1;
	}
	k->changed = 1;
	for (i = 0; i < sw->n; i++)
		if (put(k, sw->text[i], NULL, err, sizeof(err)) == -1) {
			lwarnx("sweep: %s", err);
			knob_restore(k);
			return -1;
		}
	if (knob_restore(k) == -1)
		return -2;
	if (guard_start_undo(&k->guard, undo, k) == -1) {
		lwarn("fork of latt's knob guardian");
		return -2;
	}
	return 0;
}

/* Before a run: the value written and read back.  0, or -1 (said). */
int
knob_set(struct knob *k, const char *value)
{
	char err[KNOB_TEXT + 256];

	k->changed = 1;
	if (put(k, value, NULL, err, sizeof(err)) == 0)
		return 0;
	lwarnx("sweep: %s", err);
	return -1;
}

/*
 * The content it had before latt written back (when latt changed it),
 * and read back.  Returns 0, or -1 (said); either way the guardian goes.
 */
int
knob_restore(struct knob *k)
{
	char err[KNOB_TEXT + 256];
	int r = 0;

	if (k->file != NULL && k->changed) {
		if ((r = put(k, k->back, k->orig, err,
		    sizeof(err))) == -1)
			lwarnx("sweep: %s: its content before latt could not "
			    "be restored", err);
		else
			k->changed = 0;
	}
	if (k->guard.pid > 0)
		guard_stop(&k->guard);
	return r;
}

/* In the knob's guardian, latt dead: the content written back. */
static void
undo(void *arg)
{
	struct knob *k = arg;

	(void)write_all(k->file, k->back, strlen(k->back));
}

/*
 * What restores the knob: its content as it is, or, for a list of
 * choices with the one in force marked ("none voluntary (full)", "always
 * [madvise] never"), that one.
 */
static void
choice(struct knob *k)
{
	const char *p = k->orig, *e;
	size_t n;

	snprintf(k->back, sizeof(k->back), "%s", k->orig);
	while (*p != '\0') {
		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		e = p + n - 1;
		if (n > 2 && ((*p == '[' && *e == ']') ||
		    (*p == '(' && *e == ')'))) {
			snprintf(k->back, sizeof(k->back), "%.*s",
			    (int)(n - 2), p + 1);
			return;
		}
		p += n;
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
	char got[KNOB_TEXT];
	size_t len;

	if (write_all(k->file, text, strlen(text)) == -1) {
		snprintf(err, errlen, "%s refuses %s: %s", k->file, text,
		    strerror(errno));
		return -1;
	}
	if (read_all(k->file, got, &len, err, errlen) == -1)
		return -1;
	if (want != NULL ? strcmp(got, want) == 0 : holds(got, text))
		return 0;
	len = strcspn(got, "\n");
	snprintf(err, errlen, "%s: wrote %s, it reads back %.*s%s", k->file,
	    text, (int)(len > 80 ? 80 : len), got, got[len] != '\0' ||
	    len > 80 ? "..." : "");
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

/* The knob's whole content into buf (KNOB_TEXT).  0, or -1 and err. */
static int
read_all(const char *file, char *buf, size_t *len, char *err,
    size_t errlen)
{
	ssize_t n;
	size_t have = 0;
	int fd;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	while (have < KNOB_TEXT - 1 && ((n = read(fd, buf + have,
	    KNOB_TEXT - 1 - have)) > 0 || (n == -1 && errno == EINTR)))
		have += n > 0 ? (size_t)n : 0;
	close(fd);
	buf[have] = '\0';
	*len = have;
	if (have == KNOB_TEXT - 1) {
		snprintf(err, errlen, "%s holds more than %d bytes: not a "
		    "knob latt can restore", file, KNOB_TEXT - 2);
		return -1;
	}
	return 0;
}

/*
 * Writes text to the knob in one write(2), as echo would: a kernel file
 * takes the whole value at once; a plain file is cut to it too.  0, or
 * -1 with errno set.  Async-signal-safe, for the guardian.
 */
static int
write_all(const char *file, const char *text, size_t len)
{
	struct statfs sf;
	ssize_t n;
	int fd, e;

	if ((fd = open(file, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((n = write(fd, text, len)) == -1 && errno == EINTR)
		;
	e = n == -1 ? errno : n != (ssize_t)len ? EIO : 0;
	/* Kernel files take no truncation: only a plain one is cut. */
	if (e == 0 && fstatfs(fd, &sf) == 0 && sf.f_type != PROC_MAGIC &&
	    sf.f_type != SYSFS_MAGIC && sf.f_type != DEBUGFS_MAGIC &&
	    sf.f_type != TRACEFS_MAGIC && sf.f_type != CGROUP2_MAGIC &&
	    ftruncate(fd, (off_t)len) == -1)
		e = errno;
	if (close(fd) == -1 && e == 0)
		e = errno;
	errno = e;
	return e == 0 ? 0 : -1;
}
