/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.c: what every room uses (common.h): the clocks, the bounded
 * parser of numbers, the one-line error messages, small file readers,
 * the file a path names, and the signal flags.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "lib/fmt.h"

#define HOUR_NS		(3600 * NSEC_PER_SEC)
#define SMALL_TEXT_MAX	65536	/* /proc/cpuinfo, a sysfs or debugfs file */
#define QUOTE_MAX	60	/* bytes of a value that a usage error quotes */
#define LINKS_MAX	40	/* symbolic links followed, as the kernel's */
#define TMP_BASE_MAX	200	/* bytes of a name in its temporary's */

/* A unit suffix of a number, and what it multiplies by. */
struct unit {
	const char	*suffix;
	long long	 scale;
};

/* Times: a bare number is in the caller's default unit. */
static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC }, { "h", HOUR_NS },
	{ NULL, 0 }
};

static const char progname[] = "latt";
static const char *usage_hint = "latt --help";
static int bisect;		/* exit_bisect: statuses for git bisect */

volatile sig_atomic_t got_stop;
volatile sig_atomic_t got_child;
volatile sig_atomic_t got_tstp;

static long long parse_scaled(const char *, const char *, long long,
		    long long, const struct unit *, long long);
static const char *show_limit(long long, const struct unit *);
static void	 say(int, const char *, const char *);
static char	*quote_values(const char *, va_list);
static int	 plain_format(const char *);

static inline int64_t
read_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t
now_ns(void)
{
	return read_clock(CLOCK_MONOTONIC);
}

int64_t
wall_ns(void)
{
	return read_clock(CLOCK_REALTIME);
}

int64_t
now_coarse_ns(void)
{
	return read_clock(CLOCK_MONOTONIC_COARSE);
}

int64_t
sleep_until_ns(int64_t deadline)
{
	struct timespec ts;

	ts.tv_sec = deadline / NSEC_PER_SEC;
	ts.tv_nsec = deadline % NSEC_PER_SEC;
	if (got_stop || got_child || got_tstp)
		return -1;
	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		return -1;
	return now_ns();
}

long long
parse_num(const char *name, const char *s, long long min, long long max)
{
	return parse_scaled(name, s, min, max, NULL, 1);
}

double
parse_level(const char *s)
{
	char *end;
	double p;

	errno = 0;
	p = strtod(s, &end);
	end += end != s && *end == '%';
	if (end == s || *end != '\0' || errno != 0 || !(p >= 80 && p <= 99.9))
		usage_error("--confidence=%s: a percent from 80 to 99.9 (the "
		    "intervals' confidence, e.g. 99)", s);
	return p / 100;
}

long long
parse_time(const char *name, const char *s, long long min, long long max,
    long long dflt)
{
	return parse_scaled(name, s, min, max, time_units, dflt);
}

/*
 * The same with an optional unit suffix from units (a bare number is in
 * dflt); the result, in the smallest unit, is checked against [min, max]
 * without overflowing.  With units, the number may have decimals ("1.5",
 * "0.5s", "200us"), as long as the value is a whole number of the smallest
 * unit; without, it is a whole number of digits, after a minus only
 * where min is negative (a count takes no sign).  Neither takes a blank.
 */
static long long
parse_scaled(const char *name, const char *s, long long min, long long max,
    const struct unit *units, long long dflt)
{
	const struct unit *u;
	unsigned __int128 v = 0, frac = 0, div = 1;
	long long iv, scale = dflt;
	const char *p = s;
	char *end;
	int ndigits = 0;

	if (*s == '\0')
		usage_error("%s is empty", name);
	if (units == NULL) {
		/* Digits only, after a minus (strtoll would skip blanks). */
		p = s + (*s == '-');
		errno = 0;
		iv = strtoll(s, &end, 10);
		if (*p < '0' || *p > '9' || *end != '\0')
			usage_error("%s is not a number: %s", name, s);
		if ((errno == ERANGE && *s != '-') || iv > max)
			usage_error("%s is too large: %s (at most %lld)", name,
			    s, max);
		if (errno == ERANGE || iv < min || (*s == '-' && min >= 0))
			usage_error("%s is too small: %s (at least %lld)", name,
			    s, min);
		return iv;
	}
	/* Digits, an optional fraction, an optional unit; nothing else. */
	for (; *p >= '0' && *p <= '9'; p++, ndigits++)
		if ((v = v * 10 + (unsigned)(*p - '0')) > (unsigned __int128)
		    LLONG_MAX)
			usage_error("%s is too large: %s (at most %s)", name, s,
			    show_limit(max, units));
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, ndigits++) {
			if (div > (unsigned __int128)1000000000000000000ULL)
				usage_error("%s has too many decimals: %s",
				    name, s);
			frac = frac * 10 + (unsigned)(*p - '0');
			div *= 10;
		}
	}
	if (ndigits == 0)
		usage_error("%s is not a number%s: %s", name,
		    " with an optional unit (ns, us, ms, s, m, h)", s);
	if (*p != '\0') {
		for (u = units; u->suffix != NULL; u++)
			if (strcmp(p, u->suffix) == 0)
				break;
		if (u->suffix == NULL)
			usage_error("%s is not a number with an optional unit "
			    "(ns, us, ms, s, m, h): %s", name, s);
		scale = u->scale;
	}
	if (v > (unsigned __int128)max / (unsigned long long)scale + 1)
		usage_error("%s is too large: %s (at most %s)", name, s,
		    show_limit(max, units));
	if (frac * (unsigned long long)scale % div != 0)
		usage_error("%s is finer than a nanosecond: %s", name, s);
	v = v * (unsigned long long)scale + frac *
	    (unsigned long long)scale / div;
	if (v > (unsigned __int128)max)
		usage_error("%s is too large: %s (at most %s)", name, s,
		    show_limit(max, units));
	if ((long long)v < min)
		usage_error("%s is too small: %s (at least %s)", name, s,
		    show_limit(min, units));
	return (long long)v;
}

/* A limit of parse_scaled in the largest unit that states it exactly. */
static const char *
show_limit(long long v, const struct unit *units)
{
	static char buf[48];
	const struct unit *u, *best = NULL;

	for (u = units; u != NULL && u->suffix != NULL; u++)
		if (v % u->scale == 0)
			best = u;
	if (best == NULL || v == 0)
		snprintf(buf, sizeof(buf), "%lld", v);
	else
		snprintf(buf, sizeof(buf), "%lld%s", v / best->scale,
		    best->suffix);
	return buf;
}

/*
 * The message, then ": " and strerror(err) unless err is 0.  The message
 * quotes what the user typed: control bytes (a newline in a value, say)
 * are escaped, so that it stays one line.  fmt stands in for a message
 * that could not be made (no memory).
 */
static void
say(int err, const char *msg, const char *fmt)
{
	fprintf(stderr, "%s: ", progname);
	fmt_put(stderr, msg != NULL ? msg : fmt, SIZE_MAX);
	if (err != 0)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void
lwarnc(int err, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int saved = errno;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	say(err, msg, fmt);
	free(msg);
	errno = saved;
}

/* A 130 KB argument is not echoed whole. */
void
usage_error(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = quote_values(fmt, ap);
	va_end(ap);
	say(0, msg, fmt);
	free(msg);
	fprintf(stderr, "try '%s'\n", usage_hint);
	exit(exit_status(EXIT_USAGE));
}

void
exit_bisect(void)
{
	bisect = 1;
}

int
exit_status(int s)
{
	if (!bisect || s == EXIT_OK)
		return s;
	if (s == EXIT_THRESHOLD)
		return 1;
	return s == EXIT_CANNOT_TELL || s == EXIT_WORKLOAD ||
	    s == EXIT_NOEXEC || s == EXIT_NOTFOUND ? 125 : 255;
}

const char *
option_nearest(const char *arg, const struct option *o)
{
	const char *w = arg + 2, *found = NULL;
	size_t i, j, len;
	unsigned d[32], best, diag, up;

	if (strncmp(arg, "--", 2) != 0 || (len = strcspn(w, "=")) >= 32)
		return NULL;
	for (best = (unsigned)len / 3 + 1; o->name != NULL; o++) {
		for (j = 0; j <= len; j++)
			d[j] = (unsigned)j;
		for (i = 0; o->name[i] != '\0'; i++) {
			diag = d[0]++;
			for (j = 1; j <= len; j++) {
				up = d[j];
				d[j] = diag + (o->name[i] != w[j - 1]);
				if (up + 1 < d[j] || d[j - 1] + 1 < d[j])
					d[j] = (up < d[j - 1] ? up :
					    d[j - 1]) + 1;
				diag = up;
			}
		}
		if (d[len] < best) {
			best = d[len];
			found = o->name;
		}
	}
	return found;
}

void
usage_error_hint(const char *help)
{
	usage_hint = help;
}

/*
 * usage_error's message: fmt with every %s argument taken for a value the
 * user typed, and cut (cut_value).  A format of "%s" alone is a message
 * made elsewhere, kept whole; so is one with a conversion this does not
 * know (plain_format), then printed by vasprintf as it is.  Returns the
 * message (the caller frees it), or NULL.
 */
static char *
quote_values(const char *fmt, va_list ap)
{
	const char *p, *v;
	char *msg = NULL, cut[QUOTE_MAX + 4];
	size_t len = 0;
	FILE *mem;
	int lng;

	if (strcmp(fmt, "%s") == 0 || !plain_format(fmt)) {
		if (vasprintf(&msg, fmt, ap) == -1)
			return NULL;
		return msg;
	}
	if ((mem = open_memstream(&msg, &len)) == NULL)
		return NULL;
	for (p = fmt; *p != '\0'; p++) {
		if (*p != '%') {
			fputc(*p, mem);
			continue;
		}
		for (lng = 0, p++; *p == 'l' || *p == 'z'; p++)
			lng += *p == 'z' ? 3 : 1;
		switch (*p) {
		case 's':
			v = va_arg(ap, const char *);
			fputs(cut_value(cut, sizeof(cut), v != NULL ? v :
			    "(null)"), mem);
			break;
		case 'c':
			fputc(va_arg(ap, int), mem);
			break;
		case 'd':
			if (lng == 0)
				fprintf(mem, "%d", va_arg(ap, int));
			else if (lng == 1)
				fprintf(mem, "%ld", va_arg(ap, long));
			else
				fprintf(mem, "%lld", va_arg(ap, long long));
			break;
		case 'u':
			if (lng == 0)
				fprintf(mem, "%u", va_arg(ap, unsigned));
			else if (lng == 1)
				fprintf(mem, "%lu", va_arg(ap, unsigned long));
			else if (lng == 2)
				fprintf(mem, "%llu",
				    va_arg(ap, unsigned long long));
			else
				fprintf(mem, "%zu", va_arg(ap, size_t));
			break;
		default:
			fputc('%', mem);
			break;
		}
	}
	if (fclose(mem) == EOF) {
		free(msg);
		return NULL;
	}
	return msg;
}

/* Whether fmt's conversions are all %s, %c, %d, %u, %ld ... %zu or %%. */
static int
plain_format(const char *fmt)
{
	static const char *const known[] = { "s", "c", "d", "u", "ld", "lu",
	    "lld", "llu", "zu", "%" };
	const char *p = fmt;
	size_t i, n;

	while ((p = strchr(p, '%')) != NULL) {
		p++;
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			n = strlen(known[i]);
			if (strncmp(p, known[i], n) == 0)
				break;
		}
		if (i == sizeof(known) / sizeof(known[0]))
			return 0;
		p += n;
	}
	return 1;
}

const char *
cut_value(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), max = QUOTE_MAX;

	if (len < 5)
		return s;
	if (max > len - 4)
		max = len - 4;
	if (n <= max + 3 && n < len)
		return s;
	for (n = max; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
		;
	memcpy(buf, s, n);
	memcpy(buf + n, "...", 4);
	return buf;
}

/*
 * The file path names once symbolic links are followed, as an absolute
 * path (the caller frees it): realpath(3) when it exists; else the real
 * path of its directory and its last component, a dangling link followed
 * to where it points.  NULL with errno set: no such directory, say.
 */
char *
path_target(const char *path)
{
	char *cur, *next, *dir, *res = NULL, link[4096];
	const char *base;
	ssize_t n;
	int i;

	if ((res = realpath(path, NULL)) != NULL || errno != ENOENT)
		return res;
	if ((cur = strdup(path)) == NULL)
		return NULL;
	for (i = 0; i < LINKS_MAX &&
	    (n = readlink(cur, link, sizeof(link) - 1)) > 0; i++) {
		link[n] = '\0';
		base = strrchr(cur, '/');
		if (asprintf(&next, "%.*s%s", link[0] == '/' || base == NULL ?
		    0 : (int)(base - cur + 1), cur, link) == -1)
			next = NULL;
		free(cur);
		if ((cur = next) == NULL)
			return NULL;
	}
	base = strrchr(cur, '/');
	dir = base == NULL ? strdup(".") : base == cur ? strdup("/") :
	    strndup(cur, (size_t)(base - cur));
	base = base == NULL ? cur : base + 1;
	errno = ENOENT;
	if (dir != NULL && *base != '\0' && (next = realpath(dir, NULL)) !=
	    NULL) {
		if (asprintf(&res, "%s/%s", strcmp(next, "/") == 0 ? "" : next,
		    base) == -1)
			res = NULL;
		free(next);
	}
	free(dir);
	free(cur);
	return res;
}

/*
 * Whether paths a and b name one file that two reports cannot share: the
 * same file when both exist (through a link, a hard link or a bind mount;
 * a character device such as /dev/null takes any number of writers), else
 * the same path once links are followed.
 */
int
same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ta, *tb;
	int r;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
		    !S_ISCHR(sa.st_mode);
	ta = path_target(a);
	tb = path_target(b);
	r = ta != NULL && tb != NULL && strcmp(ta, tb) == 0;
	free(ta);
	free(tb);
	return r;
}

/* Appends n bytes, room doubled; 0 (the stream's error): no memory. */
static ssize_t
mem_write(void *cookie, const char *p, size_t n)
{
	struct mem *m = cookie;
	char *b = m->buf;

	if (m->len + n >= malloc_usable_size(b) &&
	    (b = realloc(b, 2 * (m->len + n + 1))) == NULL)
		return 0;
	memcpy(b + m->len, p, n);
	m->len += n;
	b[m->len] = '\0';
	m->buf = b;
	return (ssize_t)n;
}

FILE *
mem_open(struct mem *m)
{
	*m = (struct mem){ calloc(1, 1), 0 };
	return m->buf == NULL ? NULL : fopencookie(m, "w",
	    (cookie_io_functions_t){ .write = mem_write });
}

/* Opens the directory path is in ("." for none) with flags, mode 0666. */
static int
open_dir_of(const char *path, int flags)
{
	const char *base = strrchr(path, '/');
	char *dir = base != NULL ? strndup(path, (size_t)(base - path + 1)) :
	    strdup(".");
	int fd = dir != NULL ? open(dir, flags | O_CLOEXEC, 0666) : -1;

	free(dir);
	return fd;
}

int
tmp_open(const char *target, char **tmp, int *anon)
{
	const char *base = strrchr(target, '/');
	int dl = base != NULL ? (int)(base - target + 1) : 0, fd = -1;

	if (asprintf(tmp, "%.*s.%.*s.tmp-%d", dl, target, TMP_BASE_MAX,
	    target + dl, (int)getpid()) == -1) {
		*tmp = NULL;
		return -1;
	}
	*anon = access("/proc/self/fd", X_OK) == 0 &&	/* to link it */
	    (fd = open_dir_of(target, O_TMPFILE | O_WRONLY)) >= 0;
	if (!*anon && (fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0666)) == -1) {
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

int
tmp_commit(FILE *fp, const char *tmp, int anon, const char *target)
{
	char proc[40];
	int e = 0, fd = fileno(fp);

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	errno = 0;
	if (fflush(fp) == EOF || ferror(fp) || fsync(fd) == -1)
		e = errno != 0 ? errno : EIO;
	else if (anon && linkat(AT_FDCWD, proc, AT_FDCWD, tmp,
	    AT_SYMLINK_FOLLOW) == -1)
		e = errno;
	else
		anon = 0;	/* named: removed below if the rest fails */
	if ((fclose(fp) == EOF || (e == 0 && rename(tmp, target) == -1)) &&
	    e == 0)
		e = errno;
	if (e != 0 && !anon)
		unlink(tmp);
	/* The directory synced too, so that the rename lasts a crash. */
	if (e == 0 && (fd = open_dir_of(target, O_RDONLY | O_DIRECTORY)) >= 0) {
		(void)!fsync(fd);
		close(fd);
	}
	errno = e;
	return e != 0 ? -1 : 0;
}

int
full_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

long long
file_ll(const char *path)
{
	long long v;
	FILE *fp;
	int k;

	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	k = fscanf(fp, "%lld", &v);
	fclose(fp);
	return k == 1 ? v : -1;
}

char *
file_text(const char *path)
{
	FILE *fp;
	char *buf;
	size_t n;

	if ((fp = fopen(path, "re")) == NULL)
		return NULL;
	if ((buf = malloc(SMALL_TEXT_MAX)) == NULL) {
		fclose(fp);
		return NULL;
	}
	n = fread(buf, 1, SMALL_TEXT_MAX - 1, fp);
	fclose(fp);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
	    buf[n - 1] == '\0'))
		n--;
	if (n == 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int
proc_read_keyed(const char *path, char *buf, size_t len)
{
	ssize_t n;
	size_t got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	/* A leading newline, so that every key is found as "\nKEY". */
	buf[got++] = '\n';
	while (got < len - 1 && ((n = read(fd, buf + got, len - 1 - got)) > 0 ||
	    (n == -1 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	return got > 1 ? 0 : -1;
}

/*
 * Length of the well-formed UTF-8 sequence at p (1 to 4, within avail
 * bytes), or 0: a stray continuation byte, a cut, overlong or surrogate
 * sequence, a code point past U+10FFFF.  A NUL ends any sequence.
 */
size_t
utf8_len(const unsigned char *p, size_t avail)
{
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

int
grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t ncap = *cap > 0 ? *cap * 2 : first;
	void *p;

	if (n < *cap)
		return 0;
	if (ncap > SIZE_MAX / size) {
		errno = ENOMEM;
		return -1;
	}
	/* *arr is some T *: copied, not read as a void * (aliasing). */
	memcpy(&p, arr, sizeof(p));
	if ((p = realloc(p, ncap * size)) == NULL)
		return -1;
	memcpy(arr, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
