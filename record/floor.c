/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor.c: latt's own floor, measured at start-up in a few milliseconds:
 * the cost of the clock read that stamps every sample, of a pipe write
 * and read in one process (the request's path with no switch), and of a
 * pipe ping-pong between two threads pinned to the same CPU (a write, a
 * wake-up, a context switch and a read: the least a pipe wake-up can cost
 * here; threads, so that nothing is forked).  Each figure is the least
 * mean of FLOOR_BATCHES batches, the one least disturbed by the machine.
 * "lmbench has some extra, unaccounted for, overhead" (1998): latt states
 * its own beside its results.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "record/floor.h"

#define FLOOR_BATCHES	5
#define CLOCK_N		400		/* clock reads a batch */
#define PIPE_N		50		/* write and read pairs a batch */
#define PING_N		25		/* round trips a batch */
#define FLOOR_STACK	(256 * 1024)	/* the ponger thread's stack */

static double	 clock_batch(void);
static double	 pipe_batch(int *);
static double	 ping_batch(int, int);
static double	 pingpong(void);
static void	*ponger(void *);
static int	 xread(int, void *, size_t);

void
floor_measure(struct own_floor *f)
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
		if (full_write(fds[1], &stamp, sizeof(stamp)) == -1 ||
		    xread(fds[0], &stamp, sizeof(stamp)) == -1)
			return -1;
	t1 = now_ns();
	return (double)(t1 - t0) / PIPE_N;
}

/* The ponger thread: its CPU, then every byte back until EOF. */
struct ponger {
	int		 cpu;
	int		 rfd, wfd;
};

/*
 * One way of a ping-pong between latt's thread and a second thread, both
 * pinned to the CPU latt is on (its own affinity restored after), ns; -1
 * when it could not be measured.  A thread, not a process: nothing is
 * forked, so nothing can be left behind or taken for a client; a switch
 * between threads of one process skips the change of address space, so
 * this is a floor indeed.
 */
static double
pingpong(void)
{
	struct ponger pg;
	cpu_set_t saved, one;
	pthread_attr_t at;
	pthread_t th;
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, i, started = 0;
	double best = -1, v;

	if ((pg.cpu = sched_getcpu()) < 0 ||
	    sched_getaffinity(0, sizeof(saved), &saved) == -1)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(pg.cpu, &one);
	/* A pipe that fails is left as it was: -1, which close ignores. */
	if (pipe2(to, O_CLOEXEC) == 0 && pipe2(from, O_CLOEXEC) == 0 &&
	    sched_setaffinity(0, sizeof(one), &one) == 0) {
		pg.rfd = to[0];
		pg.wfd = from[1];
		/*
		 * A small stack: glibc keeps a joined thread's stack mapped,
		 * and 8 MiB of it made latt fail under ulimit -v where a
		 * smaller limit (no thread at all) ran.
		 */
		if (pthread_attr_init(&at) == 0) {
			started = pthread_attr_setstacksize(&at,
			    FLOOR_STACK) == 0 && pthread_create(&th, &at,
			    ponger, &pg) == 0;
			pthread_attr_destroy(&at);
		}
	}
	for (i = 0; started && i < FLOOR_BATCHES; i++)
		if ((v = ping_batch(to[1], from[0])) >= 0 &&
		    (v < best || best < 0))
			best = v;
	close(to[1]);			/* the thread reads EOF and ends */
	if (started)
		pthread_join(th, NULL);
	close(to[0]);
	close(from[0]);
	close(from[1]);
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
		if (full_write(wfd, &b, 1) == -1 || xread(rfd, &b, 1) == -1)
			return -1;
	t1 = now_ns();
	return (double)(t1 - t0) / (2.0 * PING_N);
}

static void *
ponger(void *arg)
{
	const struct ponger *pg = arg;
	cpu_set_t one;
	char b;

	CPU_ZERO(&one);
	CPU_SET(pg->cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == -1)
		return NULL;
	while (xread(pg->rfd, &b, 1) == 0 && full_write(pg->wfd, &b, 1) == 0)
		;
	return NULL;
}

static int
xread(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = read(fd, buf, len)) == -1 && errno == EINTR)
		;
	return n == (ssize_t)len ? 0 : -1;
}
