/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h: the little that every room of latt uses, and nothing more:
 * the exit statuses, the monotonic clock, the one bounded parser of
 * numbers from the user, one-line error messages, small /proc and sysfs
 * readers, and the flags that the signal handlers set.  It includes no
 * other header of latt's, so that any room may include it.
 */
#ifndef COMMON_H
#define COMMON_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LATT_VERSION	"1.0"

/* Exit statuses, as documented in latt.1 and README.md. */
#define EXIT_OK		0
#define EXIT_RUNTIME	1	/* fork, pipe, a client died, a write failed */
#define EXIT_USAGE	2
#define EXIT_THRESHOLD	3	/* a --fail-above limit was exceeded */
#define EXIT_WORKLOAD	4	/* the workload failed; summary printed */
#define EXIT_CANNOT_TELL 5	/* a gate's limit could not be decided */
#define EXIT_NOEXEC	126	/* the command is not executable, as sh */
#define EXIT_NOTFOUND	127	/* the command is not found, as sh */

/*
 * --bisect: from exit_bisect on, exit_status turns each status into what
 * git bisect run reads (0 good, 1 bad, 125 skip the commit, 255 abort):
 * met 0, exceeded 1; cannot tell, a workload that failed or could not
 * run 125; a usage error, latt's own failure or a signal 255.  Every exit
 * of latt goes through it.
 */
void	 exit_bisect(void);
int	 exit_status(int status);

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL

/*
 * Flags set by latt.c's signal handlers and acted on by the loops that
 * wait (measure.c, workload.c): a handler does nothing else.
 */
extern volatile sig_atomic_t got_stop;		/* signal number, or 0 */
extern volatile sig_atomic_t got_child;
extern volatile sig_atomic_t got_tstp;		/* SIGTSTP: suspend the run */

/* CLOCK_MONOTONIC in ns: every time latt measures.  */
int64_t	 now_ns(void);
/*
 * CLOCK_MONOTONIC_COARSE in ns: the last tick, cheap to read, for the
 * checks of a loop (an end, a grace, a tick, a stall of 50 ms), never for
 * a stamp: it lags the real time by at most a tick.
 */
int64_t	 now_coarse_ns(void);
/*
 * Sleeps to an absolute CLOCK_MONOTONIC deadline and returns the time it
 * woke, or -1 when a signal cut it short or a flag above was already up
 * (so that the loop sees the flags at once).  A deadline already past
 * returns at once: that is still a sample, the cost of the call.
 */
int64_t	 sleep_until_ns(int64_t deadline);
/* CLOCK_REALTIME in ns: only for the date a report gives.  */
int64_t	 wall_ns(void);

/*
 * The one parser of every number from the user: the whole string, decimal
 * digits (no blank, no plus; a minus only where min is negative), within
 * [min, max]; anything else is a usage error naming the option
 * (`latt: clients is too large: 99999999 (at most 1000000)`).  parse_time
 * takes an optional unit (ns, us, ms, s, m, h; a bare number is in dflt ns)
 * and decimals that come to a whole number of ns; it returns ns.
 */
long long parse_num(const char *name, const char *s, long long min,
	    long long max);
long long parse_time(const char *name, const char *s, long long min,
	    long long max, long long dflt);
/* --confidence=PCT ("99", "99.5%"), 80 to 99.9 percent, as a fraction. */
double	 parse_level(const char *s);

/*
 * One-line messages on stderr, err(3)-style: "latt: " and the message;
 * lwarn adds ": " and strerror(errno), lwarnc the same for the errno given
 * (none when it is 0); errno is left as it was.
 * usage_error escapes the control bytes of what it quotes (the line stays
 * one line), cuts every %s value to about 60 bytes and "...", adds a line
 * "try 'latt --help'" (usage_error_hint names another help) and exits
 * with EXIT_USAGE.
 */
void	 lwarnc(int, const char *, ...) __attribute__((format(printf, 2, 3)));
#define	 lwarn(...)	lwarnc(errno, __VA_ARGS__)
#define	 lwarnx(...)	lwarnc(0, __VA_ARGS__)
void	 usage_error(const char *, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));
void	 usage_error_hint(const char *help);
/*
 * For "did you mean": the long option of opts (getopt_long's table) that
 * the fewest letters added, dropped or changed make of arg, an unknown
 * --NAME[=VALUE]; NULL when each takes more than a third of NAME's.
 */
struct option;
const char *option_nearest(const char *arg, const struct option *opts);
/*
 * A value as a message quotes it: s whole up to 63 bytes, else its first
 * 60 (or fewer: len - 4), cut before a UTF-8 character rather than inside
 * one, and "..." in buf.  Returns s, or buf.
 */
const char *cut_value(char *buf, size_t len, const char *s);

/*
 * splitmix64: small, fast, and good enough to spread the sleeps and order
 * the writes; each caller keeps its own state.
 */
static inline uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A procfs file, at most len - 2 bytes, into buf after a newline ("\nKEY"
 * finds a key), NUL-terminated; -1: unreadable or empty.
 */
int	 proc_read_keyed(const char *, char *, size_t);

/* Writes all len bytes of buf, again after EINTR; 0, or -1 with errno. */
int	 full_write(int fd, const void *buf, size_t len);

/*
 * A small /proc or sysfs file read whole (trailing newlines, spaces and
 * NULs cut; NULL when unreadable or empty), or as one number (-1 when
 * unreadable).
 */
char	*file_text(const char *path);
long long file_ll(const char *path);

/*
 * The file a path names, links followed, as an absolute path to free
 * (NULL and errno: no such directory); whether two paths name one file
 * (or, when neither exists, will) that two reports cannot share.
 */
char	*path_target(const char *path);
int	 same_file(const char *a, const char *b);

/* A stream into m as open_memstream's (m->buf to free), but one that
 * cannot grow is in error (ferror): glibc's drops the bytes unsaid. */
struct mem {
	char		*buf;
	size_t		 len;
};
FILE	*mem_open(struct mem *m);
/*
 * A report's temporary file beside target, mode 0666 less the umask:
 * unnamed (O_TMPFILE; a crash leaves none) or named *tmp (*anon says
 * which; *tmp is to free), or -1.  tmp_commit syncs, names, closes and
 * renames it over target; -1: removed, target as it was.  errno set.
 */
int	 tmp_open(const char *target, char **tmp, int *anon);
int	 tmp_commit(FILE *fp, const char *tmp, int anon, const char *target);

/* Length (1-4) of the well-formed UTF-8 sequence at p, or 0 (common.c). */
size_t	 utf8_len(const unsigned char *p, size_t avail);

/*
 * Room for one more element of size bytes in the array *arr points to,
 * which holds n of *cap: the array doubled (to first when empty) once
 * full.  0, or -1 with errno ENOMEM, the array and *cap as they were.
 */
int	 grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);

#endif /* COMMON_H */
