/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The client's side of a measurement: everything a client does after the
 * fork, until it leaves through _exit.
 *
 * Each client is a forked process that holds exactly two descriptors of the
 * run: the read end of its request pipe and the write end of its reply pipe.
 * It blocks in read(), stamps CLOCK_MONOTONIC the moment read() returns and
 * sends the stamp back.  The parent (measure.c) stamps immediately before
 * each write, so a wake-up latency is the client's stamp minus the
 * parent's, in nanoseconds.  A client reads nothing else on its way
 * (the runqueue-wait split is the parent's reading of its schedstat,
 * before and after a round: measure.c), so that its turn on the CPU, and
 * so the wait of the clients queued behind it, is only the stamp and the
 * reply.  The request, the reply and the page shared at the start are the
 * contract with the parent, in client.h.
 *
 * This is the hot path: what a client does between two wake-ups is all
 * here, in one file, so that the compiler sees it whole.
 */
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "lib/common.h"
#include "measure/client.h"
#include "proc/tune.h"
#include "result.h"

#define WORK_TABLE	4096		/* match-finder slots of the -x work */
#define CLIENT_STACK	(16 * 1024)	/* stack --mlock touches at start */

static uint32_t	 do_work(unsigned char *, size_t, uint64_t);
static void	 spin(uint64_t, volatile uint64_t *)
		    __attribute__((noinline));
static void	 close_span(unsigned, unsigned);
static void	 keep_only(int, int);
static void	 run_frames(const struct config *, unsigned, int, int,
		    uint64_t) __attribute__((noreturn));

/*
 * The client: ignore the signals a terminal sends to the whole process
 * group (latt stops its clients by closing their pipes, or by SIGKILL),
 * keep only its own two pipe ends, take its CPU, policy and priority, say
 * it is ready, then answer every request with the time it woke.  A setting
 * it cannot take is left in the shared page for the parent to report.  With
 * work_kb, it also does the work of -x after stamping and stamps again; its
 * buffer is allocated and touched, and a part of its stack, before it says
 * it is ready.  With a busy phase, it then spins for the turns it was
 * given (the work that takes busy= on an idle CPU), so that it holds its
 * CPU as long as the scheduler lets it, and times it.
 * Requests are answered one at a time in the order they came,
 * each stamped when read: in the open loop, a client that finds several
 * waiting answers each with its own latency.
 */
void
client_run(const struct config *cfg, unsigned idx, int in, int out,
    struct shared *sh, uint64_t busy)
{
	unsigned char *buf = NULL;
	size_t len = (size_t)cfg->work_kb * 1024;
	static const int ignored[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP,
	    SIGTSTP };
	const char *what = NULL;
	struct sched_got got;
	struct sigaction sa;
	volatile char stack[CLIENT_STACK];
	struct request req;
	struct reply rep;
	sigset_t none;
	volatile uint64_t spun;
	ssize_t n;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sigaction(ignored[i], &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	keep_only(in, out);
	memset(&got, 0, sizeof(got));
	if (tune_client(cfg, idx, &what, &got) == -1) {
		sh->setup_errno = errno;
		sh->setup_what = what;
		_exit(1);
	}
	/* The first client of a class says what the kernel read back. */
	if (cfg->nclasses == 0 && idx == 0)
		sh->got[0] = got;
	else if (cfg->nclasses > 0 &&
	    cfg->classes[cfg->class_of[idx]].first == idx)
		sh->got[cfg->class_of[idx]] = got;
	if (len > 0) {
		if ((buf = malloc(len)) == NULL)
			_exit(1);
		memset(buf, 0, len);
	}
	/*
	 * The priming round runs the loop once before any sample; with
	 * --mlock the stack below is faulted in and locked as well.
	 */
	for (i = 0; cfg->mlock && i < sizeof(stack); i += 512)
		stack[i] = 0;
	if (sem_post(&sh->sem) == -1) {
		free(buf);
		_exit(1);
	}

	if (config_frame(cfg, idx) > 0)
		run_frames(cfg, idx, in, out, busy);
	memset(&rep, 0, sizeof(rep));
	for (;;) {
		n = read(in, &req, sizeof(req));
		if (n == -1 && errno == EINTR)
			continue;
		if (n != sizeof(req)) {
			free(buf);
			_exit(n == 0 ? 0 : 1);
		}
		rep.wake = now_ns();
		rep.cpu = sched_getcpu();
		rep.done = rep.wake;
		if (buf != NULL) {
			rep.sum = do_work(buf, len, req.round);
			rep.done = now_ns();
		}
		rep.busy = -1;
		if (busy > 0) {
			spin(busy, &spun);
			rep.sum ^= (uint32_t)spun;
			rep.busy = now_ns() - rep.done;
		}
		rep.send = req.send;
		rep.round = req.round;
		rep.pos = req.pos;
		rep.waker_cpu = req.waker_cpu;
		if (write(out, &rep, sizeof(rep)) != sizeof(rep)) {
			free(buf);
			_exit(1);
		}
	}
}

/*
 * A frame client (frame=PERIOD): once the parent's one request says when
 * the first frame starts (its send), it sleeps to each frame's start with
 * clock_nanosleep(TIMER_ABSTIME), stamps as it wakes, does the busy
 * phase's fixed work and stamps again, and sends one reply a frame (the
 * contract in client.h).  A frame done after the next start missed its
 * deadline; the next frame then starts at the first period boundary at or
 * after the end of the work (no burst to catch up), and the boundaries
 * passed meanwhile are frames that could not start.  It leaves at the end
 * of the frame in which it finds its request pipe closed, or on a reply
 * the parent no longer reads.
 */
static void
run_frames(const struct config *cfg, unsigned idx, int in, int out,
    uint64_t busy)
{
	int64_t period = config_frame(cfg, idx), start, k;
	volatile uint64_t spun;
	struct timespec ts;
	struct request req;
	struct reply rep;
	uint32_t run = 0;
	char c;
	ssize_t n;

	while ((n = read(in, &req, sizeof(req))) == -1 && errno == EINTR)
		;
	if (n != sizeof(req))
		_exit(n == 0 ? 0 : 1);
	if (fcntl(in, F_SETFL, O_NONBLOCK) == -1)
		_exit(1);
	memset(&rep, 0, sizeof(rep));
	for (start = req.send;; start += k * period) {
		ts.tv_sec = start / NSEC_PER_SEC;
		ts.tv_nsec = start % NSEC_PER_SEC;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
		    NULL) == EINTR)
			;
		rep.wake = now_ns();
		rep.cpu = sched_getcpu();
		spin(busy, &spun);
		rep.done = now_ns();
		rep.sum = (uint32_t)spun;
		/* The first boundary at or after the end, one period on. */
		k = (rep.done - start + period - 1) / period;
		if (k < 1)
			k = 1;
		run = k == 1 ? 0 : run + (uint32_t)k;
		rep.send = start;
		rep.round++;
		rep.pos = (uint32_t)(k - 1);
		rep.run = run;
		rep.busy = rep.done - rep.wake;
		if (write(out, &rep, sizeof(rep)) != sizeof(rep) ||
		    read(in, &c, 1) == 0)
			_exit(0);
	}
}

/*
 * The work after a wake-up (-x): fill the buffer from a xorshift64
 * generator seeded by the round, with half of every byte's bits masked so
 * that the data repeats, then run an LZ77-like match finder over it: a
 * hash of every 4 bytes looks up where they last occurred, and a repeat
 * adds to the checksum.  Fixed and deterministic for a given size, in
 * proportion to it, and both CPU and memory bound.  The checksum goes back
 * in the reply so that none of it can be optimised away.
 */
static uint32_t
do_work(unsigned char *buf, size_t len, uint64_t seed)
{
	uint32_t table[WORK_TABLE], w = 0, cw, h, sum = 0;
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL | 1, v;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x & 0x0303030303030303ULL;
		memcpy(buf + i, &v, 8);
	}
	memset(table, 0, sizeof(table));
	for (i = 0; i + 4 <= len; i++) {
		memcpy(&w, buf + i, 4);
		h = (w * 2654435761U) >> 20;
		if (table[h] != 0) {
			memcpy(&cw, buf + table[h] - 1, 4);
			if (cw == w)
				sum += (uint32_t)i - table[h];
		}
		table[h] = (uint32_t)i + 1;
	}
	return sum ^ w;
}

/*
 * The busy phase: n turns of a xorshift64 generator, each depending on
 * the last, so that no compiler can shorten it; pure CPU.  The result is
 * stored through out, so that the call cannot move across the stamps
 * around it (a function without side effects could).
 */
static void
spin(uint64_t n, volatile uint64_t *out)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	while (n-- > 0) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	*out = x;
}

uint64_t
client_busy_calibrate(void)
{
	volatile uint64_t sink;
	uint64_t n = 4096;
	int64_t t, best = INT64_MAX;
	int i;

	/* A trial of 250 us at least, then the quickest of 16. */
	for (;;) {
		t = now_ns();
		spin(n, &sink);
		if (now_ns() - t >= 250 * NSEC_PER_USEC || n > (1ULL << 40))
			break;
		n *= 2;
	}
	for (i = 0; i < 16; i++) {
		t = now_ns();
		spin(n, &sink);
		if ((t = now_ns() - t) < best)
			best = t;
	}
	if (best < 1)
		best = 1;
	return (uint64_t)((double)n * NSEC_PER_MSEC / (double)best);
}

uint64_t
client_busy_turns(const struct config *cfg, uint64_t per_ms, unsigned idx)
{
	return (uint64_t)((double)config_busy(cfg, idx) / NSEC_PER_MSEC *
	    (double)per_ms);
}

/*
 * Closes the descriptors lo to hi, with close_range(2) where the kernel
 * has it, one by one (up to 65535) where it has not.
 */
static void
close_span(unsigned lo, unsigned hi)
{
	unsigned fd;

	if (lo > hi)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	if (hi > 65535)
		hi = 65535;
	for (fd = lo; fd <= hi; fd++)
		close(fd);
}

/*
 * Closes every descriptor above stderr except a and b, so that a client
 * holds nothing of the run but its own two pipe ends: a request pipe's
 * write end inherited by another client would keep that pipe's client
 * from the end-of-file that stops it.
 */
static void
keep_only(int a, int b)
{
	unsigned lo = a < b ? a : b, hi = a < b ? b : a;

	close_span(3, lo - 1);
	close_span(lo + 1, hi - 1);
	close_span(hi + 1, UINT_MAX);
}
