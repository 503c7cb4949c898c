/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of how a report reaches its file (lib/common.c, issue 35):
 * the memory stream that keeps the runs' JSON says when it could not grow
 * (glibc's open_memstream drops the bytes and keeps no error, so a report
 * with a hole in it was written whole, status 0), and a report's temporary
 * file has no name until it is whole, is renamed over its file, and leaves
 * nothing behind when a write fails.  And grow, the one way an array
 * grows: a growth it cannot make leaves the array and its room as they
 * were (the loops it replaced counted the room first, and wrote the next
 * element past the end once memory had run out).
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/common.h"
#include "unit.h"

#define CHUNK		(1 << 20)	/* bytes a write into memory */
#define ROOM		(64 << 20)	/* address space left to grow in */

static void	 t_mem_whole(void);
static void	 t_mem_full(void);
static void	 t_tmp_unnamed(void);
static void	 t_tmp_fails(void);
static void	 t_grow(void);
static void	 t_grow_full(void);
static void	 fill_memory(void *);
static void	 grow_memory(void *);
static int	 entries(const char *dir);
static int	 holds(const char *path, const char *text);

static const struct unit_test tests[] = {
	{ "mem_open: every byte written, in order", t_mem_whole },
	{ "mem_open: a buffer that cannot grow is the stream's error",
	    t_mem_full },
	{ "tmp_open: no name until whole, then renamed over the file",
	    t_tmp_unnamed },
	{ "tmp_commit: a write that fails leaves the file and no other",
	    t_tmp_fails },
	{ "grow: doubled when full; too large, nothing changed", t_grow },
	{ "grow: out of memory, the array and its room as they were",
	    t_grow_full },
};

static char	 dir[] = "/tmp/latt-unit-files.XXXXXX";

int
main(void)
{
	int r;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	r = unit_main(tests, NELEM(tests));
	rmdir(dir);
	return r;
}

static void
t_mem_whole(void)
{
	struct mem m = { 0 };
	FILE *fp = mem_open(&m);
	char want[32];
	unsigned i;

	CHECK(fp != NULL, "mem_open: %s", strerror(errno));
	for (i = 0; i < 100000; i++)
		fprintf(fp, "%u,", i);
	CHECK(fflush(fp) == 0 && !ferror(fp), "fflush: %s", strerror(errno));
	CHECK(m.len == strlen(m.buf) && m.len == 588890, "%zu bytes, %zu "
	    "to the NUL", m.len, strlen(m.buf));
	snprintf(want, sizeof(want), ",%u,", 99999);
	CHECK(strncmp(m.buf, "0,1,2,", 6) == 0 &&
	    strcmp(m.buf + m.len - 7, want) == 0, "content");
out:
	if (fp != NULL)
		fclose(fp);
	free(m.buf);
}

/*
 * In a child, with ROOM of address space left: writes CHUNK after CHUNK
 * until a write falls short.  Exits 0 when the stream then is in error
 * and kept what it took, 3 when it says nothing (open_memstream's way), 4
 * when no write failed, 5 when it could not start.
 */
static void
fill_memory(void *arg)
{
	static char chunk[CHUNK];
	struct rlimit rl;
	struct mem m;
	long long pages;
	FILE *fp, *statm = fopen("/proc/self/statm", "r");
	int i;

	(void)arg;
	if (statm == NULL || fscanf(statm, "%lld", &pages) != 1)
		_exit(5);
	rl.rlim_cur = rl.rlim_max = (rlim_t)(pages * sysconf(_SC_PAGESIZE) +
	    ROOM);
	if (setrlimit(RLIMIT_AS, &rl) == -1 || (fp = mem_open(&m)) == NULL)
		_exit(5);
	memset(chunk, 'x', sizeof(chunk));
	for (i = 0; i < 4 * (ROOM / CHUNK); i++)
		if (fwrite(chunk, 1, sizeof(chunk), fp) < sizeof(chunk))
			break;
	if (i == 4 * (ROOM / CHUNK))
		_exit(4);
	/* What it kept is whole up to its end. */
	_exit(ferror(fp) && strlen(m.buf) == m.len ? 0 : 3);
}

/*
 * fn run in a child under its memory limit: 0 when it held, 5 or 4 when
 * the limit did not bite; what else it returned is why, in the check's
 * words.
 */
static void
under_limit(void (*fn)(void *), const char *why)
{
	char err[256];
	int st;

#if defined(__SANITIZE_ADDRESS__)
	SKIP("AddressSanitizer needs the address space a limit takes away");
#endif
	st = unit_exits(fn, NULL, err, sizeof(err));
	CHECK(st != 5 && st != 4, "the limit did not bite (status %d)", st);
	CHECK(st == 0, "%s (status %d)", why, st);
out:
	return;
}

static void
t_mem_full(void)
{
	under_limit(fill_memory, "a write fell short and the stream kept no "
	    "error");
}

static void
t_tmp_unnamed(void)
{
	char target[64], *tmp = NULL;
	struct stat sb;
	mode_t mask = umask(022);
	FILE *fp = NULL;
	int fd, anon = 1;

	snprintf(target, sizeof(target), "%s/r.json", dir);
	fp = fopen(target, "w");
	CHECK(fp != NULL && fputs("old", fp) >= 0 && fclose(fp) == 0,
	    "%s: %s", target, strerror(errno));
	fp = NULL;
	CHECK((fd = tmp_open(target, &tmp, &anon)) >= 0, "tmp_open: %s",
	    strerror(errno));
	CHECK((fp = fdopen(fd, "w")) != NULL, "fdopen");
	if (!anon)
		SKIP("%s refuses O_TMPFILE: a named temporary file", dir);
	CHECK(fputs("new", fp) >= 0 && entries(dir) == 1,
	    "%d names in the directory while the report is written",
	    entries(dir));
	CHECK(strstr(tmp, "/.r.json.tmp-") != NULL, "named %s", tmp);
	CHECK(tmp_commit(fp, tmp, anon, target) == 0, "tmp_commit: %s",
	    strerror(errno));
	fp = NULL;
	CHECK(holds(target, "new") && entries(dir) == 1,
	    "after: %d names, the file %s", entries(dir),
	    holds(target, "old") ? "old" : "other");
	CHECK(stat(target, &sb) == 0 && (sb.st_mode & 0777) == 0644,
	    "mode %o", (unsigned)sb.st_mode & 0777);
out:
	if (fp != NULL)
		fclose(fp);
	if (tmp != NULL && !anon)
		unlink(tmp);
	free(tmp);
	unlink(target);
	umask(mask);
}

static void
t_tmp_fails(void)
{
	char target[64], *tmp = NULL;
	FILE *fp = NULL;
	int fd, anon, e;

	snprintf(target, sizeof(target), "%s/f.json", dir);
	fp = fopen(target, "w");
	CHECK(fp != NULL && fputs("old", fp) >= 0 && fclose(fp) == 0,
	    "%s: %s", target, strerror(errno));
	fp = NULL;
	/* Either kind: its data goes to /dev/full in its stead. */
	CHECK((fd = tmp_open(target, &tmp, &anon)) >= 0, "tmp_open: %s",
	    strerror(errno));
	close(fd);
	CHECK((fp = fopen("/dev/full", "w")) != NULL, "/dev/full: %s",
	    strerror(errno));
	fputs("new", fp);
	e = tmp_commit(fp, tmp, anon, target) == 0 ? 0 : errno;
	fp = NULL;
	CHECK(e == ENOSPC, "tmp_commit: %s", e == 0 ? "no error" :
	    strerror(e));
	CHECK(holds(target, "old") && entries(dir) == 1,
	    "after: %d names, the file %s", entries(dir),
	    holds(target, "new") ? "replaced" : "changed");
out:
	if (fp != NULL)
		fclose(fp);
	free(tmp);
	unlink(target);
}

/* The names in a directory, . and .. aside; -1 when it cannot be read. */
static int
entries(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Whether the file at path holds text and nothing else. */
static int
holds(const char *path, const char *text)
{
	char buf[64];
	size_t n;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return strcmp(buf, text) == 0;
}

static void
t_grow(void)
{
	int *v = NULL, *was;
	size_t cap = 0, n;

	for (n = 0; n < 100; n++) {
		CHECK(grow(&v, &cap, n, sizeof(*v), 4) == 0 && cap > n,
		    "grow at %zu: %s", n, strerror(errno));
		v[n] = (int)n;
	}
	CHECK(cap == 128, "room for %zu, not 128", cap);
	for (n = 0; n < 100; n++)
		CHECK(v[n] == (int)n, "v[%zu] is %d", n, v[n]);
	was = v;
	errno = 0;
	CHECK(grow(&v, &cap, cap, SIZE_MAX / 64, 4) == -1 && errno == ENOMEM,
	    "an element of SIZE_MAX / 64 bytes doubled");
	CHECK(v == was && cap == 128, "changed by a growth not made");
out:
	free(v);
}

/*
 * In a child, with ROOM of address space left: an array of CHUNK-byte
 * elements grown until grow fails.  Exits 0 when the array and its room
 * are then as they were (and every element there), 3 when not, 4 when
 * grow never failed, 5 when it could not start.
 */
static void
grow_memory(void *arg)
{
	struct rlimit rl;
	long long pages;
	char (*v)[CHUNK] = NULL, (*was)[CHUNK];
	size_t cap = 0, n, had;
	FILE *statm = fopen("/proc/self/statm", "r");

	(void)arg;
	if (statm == NULL || fscanf(statm, "%lld", &pages) != 1)
		_exit(5);
	rl.rlim_cur = rl.rlim_max = (rlim_t)(pages * sysconf(_SC_PAGESIZE) +
	    ROOM);
	if (setrlimit(RLIMIT_AS, &rl) == -1)
		_exit(5);
	for (n = 0; n < 4 * (ROOM / CHUNK); n++) {
		was = v;
		had = cap;
		if (grow(&v, &cap, n, sizeof(*v), 4) == -1)
			_exit(v == was && cap == had && cap == n &&
			    v[n - 1][0] == (char)(n - 1) ? 0 : 3);
		v[n][0] = (char)n;
	}
	_exit(4);
}

static void
t_grow_full(void)
{
	under_limit(grow_memory, "a growth that failed changed the array or "
	    "its room");
}
