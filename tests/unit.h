/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unit.h: the harness of the unit programs (tests/unit_*.c), each a table
 * of tests run in order by unit_main, each test reporting one line on
 * stdout: "PASS: name", "FAIL: name: reason" or "SKIP: name: reason".  The
 * exit status is 1 when a test failed.  A program links build/liblatt.a,
 * every room of latt but latt.c, and calls what latt calls.
 *
 * A test is a function with a label "out", where it frees what it holds:
 * a failed CHECK records the first reason and jumps there.  unit_exits
 * runs a function that must end the process (a usage error) in a child,
 * and checks its status and its stderr.
 */
#ifndef UNIT_H
#define UNIT_H

#include <sys/types.h>
#include <sys/wait.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		unit_fail(__VA_ARGS__);					\
		goto out;						\
	}								\
} while (0)

#define SKIP(...) do {							\
	unit_skip(__VA_ARGS__);						\
	goto out;							\
} while (0)

struct unit_test {
	const char	*name;
	void		(*fn)(void);
};

enum { UNIT_PASS, UNIT_FAIL, UNIT_SKIP };
static int	 unit_outcome;
static char	 unit_reason[512];

static void	 unit_fail(const char *, ...)
		    __attribute__((format(printf, 1, 2), unused));
static void	 unit_skip(const char *, ...)
		    __attribute__((format(printf, 1, 2), unused));

static void
unit_say(int outcome, const char *fmt, va_list ap)
{
	if (unit_outcome != UNIT_PASS)
		return;
	unit_outcome = outcome;
	vsnprintf(unit_reason, sizeof(unit_reason), fmt, ap);
}

static void
unit_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	unit_say(UNIT_FAIL, fmt, ap);
	va_end(ap);
}

static void
unit_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	unit_say(UNIT_SKIP, fmt, ap);
	va_end(ap);
}

/*
 * Runs fn(arg) in a child whose stderr is kept in err (len bytes, cut):
 * its exit status, or -1 when it did not exit (a signal, a fork that
 * failed).  For what latt ends with usage_error: status 2, one line.
 */
static int __attribute__((unused))
unit_exits(void (*fn)(void *), void *arg, char *err, size_t len)
{
	int p[2], st;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(p) == -1 || (pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		fn(arg);
		_exit(0);
	}
	close(p[1]);
	while (got + 1 < len && (n = read(p[0], err + got,
	    len - 1 - got)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) == -1)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs every test of the table; 1 when one failed. */
static int __attribute__((unused))
unit_main(const struct unit_test *t, size_t n)
{
	static const char *const word[] = { "PASS", "FAIL", "SKIP" };
	size_t i;
	int failed = 0;

	for (i = 0; i < n; i++) {
		unit_outcome = UNIT_PASS;
		unit_reason[0] = '\0';
		t[i].fn();
		printf("%s: %s%s%s\n", word[unit_outcome], t[i].name,
		    unit_outcome == UNIT_PASS ? "" : ": ", unit_reason);
		fflush(stdout);
		failed |= unit_outcome == UNIT_FAIL;
	}
	return failed;
}

#endif /* UNIT_H */
