/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor.c: latt's own floor, measured at start-up in a few milliseconds:
 * the cost of the clock read that stamps every sample, of a pipe write
 * and read in one process (the request's path with no switch), and of a
 * pipe ping-pong between two processes pinned to the same CPU (a write, a
 * wake-up, a context switch and a read: the least a pipe wake-up can cost
 * here).  Each figure is the least mean of FLOOR_BATCHES batches, the one
 * least disturbed by the machine.  "lmbench has some extra, unaccounted
 * for, overhead" (1998): latt states its own beside its results.
 */
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "floor.h"

#define FLOOR_BATCHES	5
#define CLOCK_N		400		/* clock reads a batch */
#define PIPE_N		200		/* write and read pairs a batch */
#define PING_N		100		/* round trips a batch */

static double	 clock_batch(void);
static double	 pipe_batch(int *);
static double	 ping_batch(int, int);
static double	 pingpong(void);
static void	 ponger(int, int) __attribute__((noreturn));
static int	 xread(int, void *, size_t);
static int	 xwrite(int, const void *, size_t);

void
floor_measure(struct floor *f)
{
	int fds[2], i;
	double v;

	memset(f, 0, sizeof(*f));
	f->clock_ns = f->pipe_ns = f->pingpong_ns = -1;
	for (i = 0; i < FLOOR_BATCHES; i++)
		if ((v = clock_batch()) < f->clock_ns || f->clock_ns < 0)
			f->clock_ns = v;
	if (pipe(fds) == 0) {
		for (i = 0; i < FLOOR_BATCHES; i++)
			if ((v = pipe_batch(fds)) >= 0 &&
			    (v < f->pipe_ns || f->pipe_ns < 0))
				f->pipe_ns = v;
		close(fds[0]);
		close(fds[1]);
	}
	f->pingpong_ns = pingpong();
	f->valid = 1;
}

/* The mean of CLOCK_N clock reads, ns. */
static double
clock_batch(void)
{
	struct timespec ts;
	int64_t t0, t1;
	int i;

	t0 = now_ns();
	for (i = 0; i < CLOCK_N; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	t1 = now_ns();
	return (double)(t1 - t0) / CLOCK_N;
}

/* The mean of PIPE_N writes of a stamp each read back at once, ns. */
static double
pipe_batch(int *fds)
{
	int64_t t0, t1, stamp = 0;
	int i;

	t0 = now_ns();
	for (i = 0; i < PIPE_N; i++)
		if (xwrite(fds[1], &stamp, sizeof(stamp)) == -1 ||
		    xread(fds[0], &stamp, sizeof(stamp)) == -1)
			return -1;
	t1 = now_ns();
	return (double)(t1 - t0) / PIPE_N;
}

/*
 * One way of a ping-pong between latt and a child, both on the CPU latt
 * is on (its own affinity restored after), ns; -1 when it could not be
 * measured (no fork, no pinning).  The child dies with latt.
 */
static double
pingpong(void)
{
	cpu_set_t saved, one;
	int to[2], from[2], i, st, cpu;
	double best = -1, v;
	pid_t pid, self = getpid();

	if ((cpu = sched_getcpu()) < 0 ||
	    sched_getaffinity(0, sizeof(saved), &saved) == -1)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == -1)
		return -1;
	if (pipe2(to, O_CLOEXEC) == -1) {
		sched_setaffinity(0, sizeof(saved), &saved);
		return -1;
	}
	if (pipe2(from, O_CLOEXEC) == -1) {
		close(to[0]);
		close(to[1]);
		sched_setaffinity(0, sizeof(saved), &saved);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != self)
			_exit(1);
		close(to[1]);
		close(from[0]);
		ponger(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	for (i = 0; pid > 0 && i < FLOOR_BATCHES; i++)
		if ((v = ping_batch(to[1], from[0])) >= 0 &&
		    (v < best || best < 0))
			best = v;
	close(to[1]);			/* the child reads EOF and leaves */
	close(from[0]);
	while (pid > 0 && waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	sched_setaffinity(0, sizeof(saved), &saved);
	return best;
}

/* PING_N round trips, ns a one-way trip. */
static double
ping_batch(int wfd, int rfd)
{
	int64_t t0, t1;
	char b = 0;
	int i;

	t0 = now_ns();
	for (i = 0; i < PING_N; i++)
		if (xwrite(wfd, &b, 1) == -1 || xread(rfd, &b, 1) == -1)
			return -1;
	t1 = now_ns();
	return (double)(t1 - t0) / (2.0 * PING_N);
}

/* The child: every byte back, until EOF. */
static void
ponger(int rfd, int wfd)
{
	char b;

	while (xread(rfd, &b, 1) == 0 && xwrite(wfd, &b, 1) == 0)
		;
	_exit(0);
}

static int
xread(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = read(fd, buf, len)) == -1 && errno == EINTR)
		;
	return n == (ssize_t)len ? 0 : -1;
}

static int
xwrite(int fd, const void *buf, size_t len)
{
	ssize_t n;

	while ((n = write(fd, buf, len)) == -1 && errno == EINTR)
		;
	return n == (ssize_t)len ? 0 : -1;
}
