/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpfile.c: the result files of latt compare as files: opened (FILE@VALUE
 * names one value of a --sweep in FILE), known by device and inode so
 * that none counts twice in a side, and read whole within MAX_FILE (a
 * FIFO as written, WAIT_MS a part at most; none at all without a writer).
 * cmpread.c reads what they hold.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/cmp.h"

#define MAX_FILE	((size_t)32 << 20) /* a result file: 32 MiB at most */
#define WAIT_MS		10000	/* a FIFO's writer: each wait at most */

static int	 keep_fileid(struct cmp_side *, const char *, int,
		    const struct stat *, char *, size_t);
static char	*read_whole(int, const char *, const struct stat *,
		    size_t *, char *, size_t);

char *
cmp_file_read(struct cmp_side *side, const char *path, const char **point,
    size_t *len, char *err, size_t errlen)
{
	char file[PATH_MAX];
	const char *at = strrchr(path, '@');
	struct stat st;
	char *buf = NULL;
	int fd;

	snprintf(file, sizeof(file), "%s", path);
	if (at != NULL && access(path, F_OK) == -1 && errno == ENOENT &&
	    (size_t)(at - path) < sizeof(file))
		file[at - path] = '\0';
	else
		at = NULL;
	*point = at != NULL ? at + 1 : NULL;
	/* Not held up by a FIFO that has no writer. */
	if ((fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == -1)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > MAX_FILE)
		snprintf(err, errlen, "%s: %jd bytes, above compare's limit "
		    "of %zu MiB for one file (latt's result files are kB to a "
		    "few MB; split the runs over several files)", path,
		    (intmax_t)st.st_size, MAX_FILE >> 20);
	else if (keep_fileid(side, path, at != NULL, &st, err, errlen) == 0)
		buf = read_whole(fd, path, &st, len, err, errlen);
	close(fd);
	return buf;
}

/*
 * The file of side s that is file (dev, ino) with the FILE@VALUE
 * selector point ("@V" or NULL), or NULL.
 */
static const struct cmp_fileid *
known(const struct cmp_side *s, dev_t dev, ino_t ino, const char *point)
{
	const struct cmp_fileid *id;
	size_t i;

	for (i = 0; i < s->nfids; i++) {
		id = &s->fids[i];
		if (id->dev == dev && id->ino == ino && (id->point == point ||
		    (id->point != NULL && point != NULL &&
		    strcmp(id->point, point) == 0)))
			return id;
	}
	return NULL;
}

/* The message of file name counted twice (in, also as other); -1. */
static int
twice(char *err, size_t errlen, const char *name, const char *in,
    const char *other)
{
	snprintf(err, errlen, "compare: %s is %s%s%s: each run counts once",
	    name, in, strcmp(name, other) ? ", also as " : "",
	    strcmp(name, other) ? other : "");
	return -1;
}

int
cmp_side_overlap(const struct cmp_side *a, const struct cmp_side *b,
    char *err, size_t errlen)
{
	const struct cmp_fileid *id;
	char in[32];
	size_t i;

	snprintf(in, sizeof(in), "in both sides %s and %s", a->name, b->name);
	for (i = 0; i < a->nfids; i++)
		if ((id = known(b, a->fids[i].dev, a->fids[i].ino,
		    a->fids[i].point)) != NULL)
			return twice(err, errlen, id->name, in,
			    a->fids[i].name);
	return 0;
}

/*
 * Keeps what file fd is known by (device and inode), refusing a file the
 * side already has.
 */
static int
keep_fileid(struct cmp_side *side, const char *path, int sel,
    const struct stat *st, char *err, size_t errlen)
{
	const struct cmp_fileid *id;
	struct cmp_fileid *nf;
	char in[32];

	if ((id = known(side, st->st_dev, st->st_ino, sel ?
	    strrchr(path, '@') : NULL)) != NULL) {
		snprintf(in, sizeof(in), "given twice in side %s", side->name);
		return twice(err, errlen, path, in, id->name);
	}
	if ((nf = realloc(side->fids, (side->nfids + 1) *
	    sizeof(*nf))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	side->fids = nf;
	if ((nf[side->nfids].name = strdup(path)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	nf[side->nfids].dev = st->st_dev;
	nf[side->nfids].ino = st->st_ino;
	nf[side->nfids].point = sel ? strrchr(nf[side->nfids].name, '@') :
	    NULL;
	side->nfids++;
	return 0;
}

/*
 * Reads the whole of fd (path, opened O_NONBLOCK) into a new buffer: at
 * most MAX_FILE bytes, a regular file refused by its size before anything
 * is read.  Returns the buffer, or NULL after the message.
 */
static char *
read_whole(int fd, const char *path, const struct stat *st, size_t *len,
    char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t cap;
	ssize_t got = 0;
	char *buf, *nb;

	*len = 0;
	cap = S_ISREG(st->st_mode) ? (size_t)st->st_size + 1 : 65536;
	if (cap > MAX_FILE)
		cap = MAX_FILE + 1;
	if ((buf = malloc(cap)) == NULL)
		goto oom;
	for (;;) {
		if (*len == cap) {
			if (cap > MAX_FILE)
				break;
			cap = cap * 2 > MAX_FILE + 1 ? MAX_FILE + 1 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL)
				goto oom;
			buf = nb;
		}
		if ((got = read(fd, buf + *len, cap - *len)) > 0)
			*len += (size_t)got;
		else if (got == 0 || (errno != EINTR && (errno != EAGAIN ||
		    poll(&pfd, 1, WAIT_MS) == 0)))
			break;	/* the end, an error, or WAIT_MS of nothing */
	}
	if (*len > MAX_FILE) {
		snprintf(err, errlen, "%s: larger than %zu MiB, compare's "
		    "limit for one file (latt's result files are kB to a few "
		    "MB; split the runs over several files)", path,
		    MAX_FILE >> 20);
		free(buf);
		return NULL;
	}
	if (got != 0 || (*len == 0 && S_ISFIFO(st->st_mode))) {
		snprintf(err, errlen, "%s: %s", path, got == 0 ? "a FIFO with "
		    "no writer" : errno == EAGAIN ? "read: its writer sent "
		    "nothing for 10 s" : strerror(errno));
		free(buf);
		return NULL;
	}
	return buf;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
	free(buf);
	return NULL;
}
