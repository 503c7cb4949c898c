/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The clients and the measurement loop.
 *
 * Each client is a forked process that holds exactly two descriptors of the
 * run: the read end of its request pipe and the write end of its reply pipe.
 * It blocks in read(), stamps CLOCK_MONOTONIC the moment read() returns and
 * sends the stamp back.  The parent stamps immediately before each write, so
 * a wake-up latency is the client's stamp minus the parent's, in
 * nanoseconds.  Each client also reads its own run delay around the wait
 * (see run_client), which splits the latency into the runqueue wait and the
 * rest.  The parent waits for a round's replies with epoll, so a
 * round costs in proportion to the replies, not to clients times wake-ups.
 *
 * This file never prints: samples go to the caller's sink and failures are
 * recorded in struct result for latt.c to report.
 */
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "latt.h"

#define MAXEVENTS	256
#define TICK_MS		100		/* how often a wait looks at the flags */
#define RECHECK_NS	(100 * NSEC_PER_MSEC)	/* and a long sleep */
#define STARTUP_NS	(30 * NSEC_PER_SEC)	/* a client that never starts */
#define REAP_GRACE_NS	(1 * NSEC_PER_SEC)
#define WORK_TABLE	4096		/* match-finder slots of the -x work */
#define SCHEDSTAT	"/proc/thread-self/schedstat"
#define REREAD_NS	(10 * NSEC_PER_USEC)	/* see run_client */

struct request {
	int64_t		send;
	uint64_t	round;
};

struct reply {
	int64_t		send;
	int64_t		wake;
	int64_t		done;		/* after the -x work; wake without it */
	uint64_t	round;
	int64_t		rq_wait;	/* run delay across the wait, or -1 */
	int32_t		cpu;
	uint32_t	sum;		/* the work's checksum, kept alive */
};

struct client {
	pid_t		pid;
	int		wfd;		/* request pipe, write end */
	int		rfd;		/* reply pipe, read end */
	int		reaped;
};

/* Shared with the clients: the start semaphore, and a setup failure. */
struct shared {
	sem_t		 sem;
	int		 setup_errno;	/* a client could not apply --cpus... */
	const char	*setup_what;	/* the call that failed (static) */
};

struct engine {
	unsigned	 n;		/* clients started */
	struct client	*c;
	int		 epfd;
	struct shared	*sh;
};

static void	 run_client(const struct config *, unsigned, int, int,
		    struct shared *) __attribute__((noreturn));
static uint32_t	 do_work(unsigned char *, size_t, uint64_t);
static void	 keep_only(int, int);
static int	 wait_ready(struct engine *, struct result *);
static int	 check_flags(struct engine *, struct result *);
static int	 check_hangups(struct engine *, struct result *, int);
static void	 client_died(struct engine *, struct result *, unsigned);
static int	 do_round(const struct config *, struct engine *,
		    struct result *, sample_sink, void *);
static int64_t	 sleep_until(int64_t);
static int	 check_break(const struct config *, struct result *,
		    const struct brk *);
static uint64_t	 next_random(uint64_t *);
static int	 read_schedstat(int, int64_t *);

int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void
fail(struct result *res, enum stop_reason why, const char *what)
{
	if (res->stop != STOP_NONE && res->stop != STOP_SIGNAL)
		return;
	res->stop = why;
	res->fail_what = what;
	res->fail_errno = errno;
}

/*
 * Forks cfg->nclients clients and waits until every one is ready.  Returns
 * the engine, or NULL when memory ran out; a failure half-way is recorded in
 * res->stop and the caller still hands the engine to clients_stop.
 */
struct engine *
clients_start(const struct config *cfg, struct result *res)
{
	struct engine *eng;
	struct epoll_event ev;
	unsigned i;
	int req[2], rep[2];
	pid_t pid;

	if ((eng = calloc(1, sizeof(*eng))) == NULL ||
	    (eng->c = calloc(cfg->nclients, sizeof(*eng->c))) == NULL) {
		free(eng);
		fail(res, STOP_ERROR, "calloc");
		return NULL;
	}
	eng->epfd = -1;
	eng->sh = MAP_FAILED;
	if ((eng->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		fail(res, STOP_ERROR, "epoll_create1");
		return eng;
	}
	eng->sh = mmap(NULL, sizeof(*eng->sh), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (eng->sh == MAP_FAILED) {
		fail(res, STOP_ERROR, "mmap");
		return eng;
	}
	if (sem_init(&eng->sh->sem, 1, 0) == -1) {
		fail(res, STOP_ERROR, "sem_init");
		munmap(eng->sh, sizeof(*eng->sh));
		eng->sh = MAP_FAILED;
		return eng;
	}

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < cfg->nclients; i++) {
		if (got_stop) {
			res->stop = STOP_SIGNAL;
			res->stop_signal = got_stop;
			return eng;
		}
		if (pipe2(req, O_CLOEXEC) == -1) {
			fail(res, STOP_ERROR, "pipe");
			return eng;
		}
		if (pipe2(rep, O_CLOEXEC) == -1) {
			fail(res, STOP_ERROR, "pipe");
			close(req[0]);
			close(req[1]);
			return eng;
		}
		if ((pid = fork()) == -1) {
			fail(res, STOP_ERROR, "fork");
			close(req[0]);
			close(req[1]);
			close(rep[0]);
			close(rep[1]);
			return eng;
		}
		if (pid == 0)
			run_client(cfg, i, req[0], rep[1], eng->sh);
		close(req[0]);
		close(rep[1]);
		eng->c[i].pid = pid;
		eng->c[i].wfd = req[1];
		eng->c[i].rfd = rep[0];
		eng->n = i + 1;
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.u32 = i;
		if (epoll_ctl(eng->epfd, EPOLL_CTL_ADD, rep[0], &ev) == -1) {
			fail(res, STOP_ERROR, "epoll_ctl");
			return eng;
		}
	}
	wait_ready(eng, res);
	return eng;
}

/*
 * Waits for one semaphore post per client.  A client that dies first shows
 * as a hang-up on its reply pipe, so a dead client never hangs the start.
 */
static int
wait_ready(struct engine *eng, struct result *res)
{
	struct timespec ts;
	int64_t deadline, giveup;
	unsigned ready = 0;

	giveup = now_ns() + STARTUP_NS;
	while (ready < eng->n) {
		deadline = now_ns() + TICK_MS * NSEC_PER_MSEC;
		ts.tv_sec = deadline / NSEC_PER_SEC;
		ts.tv_nsec = deadline % NSEC_PER_SEC;
		if (sem_clockwait(&eng->sh->sem, CLOCK_MONOTONIC, &ts) == 0) {
			ready++;
			continue;
		}
		if (errno != EINTR && errno != ETIMEDOUT) {
			fail(res, STOP_ERROR, "sem_clockwait");
			return -1;
		}
		if (check_flags(eng, res) || check_hangups(eng, res, 0))
			return -1;
		if (now_ns() > giveup) {
			errno = ETIMEDOUT;
			fail(res, STOP_ERROR, "waiting for clients to start");
			return -1;
		}
	}
	return 0;
}

/*
 * The client: ignore the signals a terminal sends to the whole process
 * group (latt stops its clients by closing their pipes, or by SIGKILL),
 * keep only its own two pipe ends, take its CPU, policy and priority, say
 * it is ready, then answer every request with the time it woke.  A setting
 * it cannot take is left in the shared page for the parent to report.  With
 * work_kb, it also does the work of -x after stamping and stamps again; its
 * buffer is allocated and touched before it says it is ready.
 */
static void
run_client(const struct config *cfg, unsigned idx, int in, int out,
    struct shared *sh)
{
	unsigned char *buf = NULL;
	size_t len = (size_t)cfg->work_kb * 1024;
	static const int ignored[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP,
	    SIGTSTP };
	const char *what = NULL;
	struct sigaction sa;
	struct request req;
	struct reply rep;
	sigset_t none;
	int64_t before = -1, after, after_at, gap, quickest = INT64_MAX;
	ssize_t n;
	size_t i;
	int ssfd = -1;

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
	if (tune_client(cfg, idx, &what) == -1) {
		sh->setup_errno = errno;
		sh->setup_what = what;
		_exit(1);
	}
	if (len > 0) {
		if ((buf = malloc(len)) == NULL)
			_exit(1);
		memset(buf, 0, len);
	}
	/*
	 * The runqueue wait of a wake-up is the growth of the client's run
	 * delay (schedstat) from before it blocks to after it wakes.  The
	 * reading taken after the previous wake-up stands for "before": it
	 * is taken again only when the pass from there to the read() took
	 * more than REREAD_NS longer than the quickest pass, i.e. when the
	 * client may have been preempted (by the parent its reply woke,
	 * say), so that such a wait is never counted, and one read a sample
	 * is the rule.  An unnoticed wait is shorter than REREAD_NS.
	 */
	if (cfg->schedstat &&
	    (ssfd = open(SCHEDSTAT, O_RDONLY | O_CLOEXEC)) != -1 &&
	    read_schedstat(ssfd, &before) == -1)
		before = -1;
	after_at = now_ns();
	if (sem_post(&sh->sem) == -1) {
		free(buf);
		_exit(1);
	}

	memset(&rep, 0, sizeof(rep));
	for (;;) {
		if (ssfd != -1 && before >= 0) {
			gap = now_ns() - after_at;
			if (gap < quickest)
				quickest = gap;
			else if (gap > quickest + REREAD_NS &&
			    read_schedstat(ssfd, &before) == -1)
				before = -1;
		}
		n = read(in, &req, sizeof(req));
		if (n == -1 && errno == EINTR)
			continue;
		if (n != sizeof(req)) {
			free(buf);
			_exit(n == 0 ? 0 : 1);
		}
		rep.wake = now_ns();
		rep.cpu = sched_getcpu();
		rep.rq_wait = -1;
		if (ssfd != -1) {
			if (read_schedstat(ssfd, &after) == 0) {
				if (before >= 0)
					rep.rq_wait = after - before;
				before = after;
			} else
				before = -1;
			after_at = now_ns();
		}
		rep.done = rep.wake;
		if (buf != NULL) {
			rep.sum = do_work(buf, len, req.round);
			rep.done = now_ns();
		}
		rep.send = req.send;
		rep.round = req.round;
		if (write(out, &rep, sizeof(rep)) != sizeof(rep)) {
			free(buf);
			_exit(1);
		}
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

/* Closes every descriptor above stderr except a and b. */
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

static void
keep_only(int a, int b)
{
	unsigned lo = a < b ? a : b, hi = a < b ? b : a;

	close_span(3, lo - 1);
	close_span(lo + 1, hi - 1);
	close_span(hi + 1, UINT_MAX);
}

/*
 * Looks at what the signal handlers flagged: a stop request, or a child
 * that changed state (the workload ending).  Returns 1 when the run must
 * end.
 */
static int
check_flags(struct engine *eng, struct result *res)
{
	if (got_stop && res->stop == STOP_NONE) {
		res->stop = STOP_SIGNAL;
		res->stop_signal = got_stop;
	}
	if (got_child) {
		/* A client that died raises SIGCHLD too. */
		got_child = 0;
		if (res->wl.pid > 0 && workload_poll(&res->wl) &&
		    res->stop == STOP_NONE)
			res->stop = STOP_WORKLOAD;
		else if (eng != NULL)
			check_hangups(eng, res, 0);
	}
	return res->stop != STOP_NONE;
}

/*
 * Between rounds every reply has been read, so any event on a reply pipe is
 * a client that hung up.  Waits up to timeout ms.  Returns 1 when one did.
 */
static int
check_hangups(struct engine *eng, struct result *res, int timeout)
{
	struct epoll_event ev[8];
	int i, k;

	k = epoll_wait(eng->epfd, ev, 8, timeout);
	for (i = 0; i < k; i++) {
		if (ev[i].events & (EPOLLHUP | EPOLLERR)) {
			client_died(eng, res, ev[i].data.u32);
			return 1;
		}
	}
	return 0;
}

/* Records a dead client and, within a second, how it died. */
static void
client_died(struct engine *eng, struct result *res, unsigned idx)
{
	struct client *c = &eng->c[idx];
	struct timespec ms = { 0, NSEC_PER_MSEC };
	int64_t giveup = now_ns() + REAP_GRACE_NS;
	int st;
	pid_t r;

	if (res->stop != STOP_NONE && res->stop != STOP_SIGNAL)
		return;
	if (eng->sh != MAP_FAILED && eng->sh->setup_errno != 0) {
		errno = eng->sh->setup_errno;
		res->stop = STOP_NONE;
		fail(res, STOP_ERROR, eng->sh->setup_what);
		res->dead_client = idx;
		res->dead_pid = c->pid;
		return;
	}
	res->stop = STOP_CLIENT;
	res->dead_client = idx;
	res->dead_pid = c->pid;
	res->dead_status = -1;
	while (!c->reaped && now_ns() < giveup) {
		r = waitpid(c->pid, &st, WNOHANG);
		if (r == c->pid) {
			c->reaped = 1;
			res->dead_status = st;
		} else if (r == -1 && errno != EINTR)
			break;
		else
			nanosleep(&ms, NULL);
	}
}

/*
 * Sleeps a random while to an absolute deadline, records how late the
 * sleep woke as a timer sample, runs a round, and repeats until something
 * ends the run: the workload, a signal, a failure, --duration, --samples
 * or --breaktrace.  The tick, if any, runs at most once a second, between
 * rounds or in the middle of a long sleep.  Returns 0; why the run ended is
 * in res->stop.
 */
int
measure_run(const struct config *cfg, struct engine *eng, struct result *res,
    sample_sink sink, tick_hook tick, void *sink_arg)
{
	uint64_t rng = cfg->seed, span;
	int64_t deadline, woke = -1, end, next_tick, now, target;
	struct brk b;

	end = cfg->duration > 0 ? res->start + cfg->duration : INT64_MAX;
	span = (uint64_t)(cfg->max_delay - cfg->min_delay) + 1;
	next_tick = now_ns() + NSEC_PER_SEC;
	while (!check_flags(eng, res)) {
		if (cfg->samples > 0 && res->lat.n >= cfg->samples) {
			res->stop = STOP_SAMPLES;
			break;
		}
		deadline = now_ns() + cfg->min_delay +
		    (int64_t)(next_random(&rng) % span);
		if (deadline > end)
			deadline = end;
		/*
		 * A sleep cut short by a signal is not a sample; unless the
		 * signal ends the run (a child of the workload that exited,
		 * say), latt sleeps on to the same deadline.  A long sleep
		 * wakes every RECHECK_NS, and for the tick, then sleeps on to
		 * the same absolute deadline: a signal that lands between
		 * the look at the flags and clock_nanosleep is then seen
		 * within RECHECK_NS, not only at the deadline.
		 */
		for (;;) {
			target = deadline;
			if (tick != NULL && next_tick < target)
				target = next_tick;
			if ((now = now_ns()) + RECHECK_NS < target)
				target = now + RECHECK_NS;
			while ((woke = sleep_until(target)) == -1 &&
			    !check_flags(eng, res) && now_ns() < target)
				;
			if (res->stop != STOP_NONE || target == deadline ||
			    check_flags(eng, res))
				break;
			if (tick != NULL && (now = now_ns()) >= next_tick) {
				next_tick = now + NSEC_PER_SEC;
				if (tick(sink_arg, res) == -1) {
					fail(res, STOP_SINK, "tick");
					return 0;
				}
			}
		}
		if (res->stop == STOP_NONE && woke != -1 &&
		    deadline - res->start >= cfg->warmup) {
			memset(&b, 0, sizeof(b));
			b.timer = 1;
			b.latency = woke - deadline;
			b.when = deadline - res->start;
			stats_add(&res->timer, b.latency, 0, b.when);
			if (check_break(cfg, res, &b))
				break;
		}
		if (check_flags(eng, res))
			break;
		if (now_ns() >= end) {
			res->stop = STOP_DURATION;
			break;
		}
		if (do_round(cfg, eng, res, sink, sink_arg) == -1)
			break;
		if (tick != NULL && (now = now_ns()) >= next_tick) {
			next_tick = now + NSEC_PER_SEC;
			if (tick(sink_arg, res) == -1) {
				fail(res, STOP_SINK, "tick");
				break;
			}
		}
	}
	return 0;
}

/*
 * With --breaktrace, a latency above the limit marks the trace, stops
 * tracing and ends the run.  Returns 1 when it did.
 */
static int
check_break(const struct config *cfg, struct result *res, const struct brk *b)
{
	if (cfg->breaktrace <= 0 || b->latency <= cfg->breaktrace)
		return 0;
	res->brk = *b;
	if (trace_break(&cfg->trace, b) == -1)
		res->brk.err = errno;
	res->stop = STOP_BREAK;
	return 1;
}

/*
 * Sleeps to an absolute deadline and returns the time it woke, or -1 when
 * a signal cut the sleep short (or a flag was already up), so that the
 * loop sees the flags at once.  A deadline already past returns at once:
 * that is still a sample, the cost of the call.
 */
static int64_t
sleep_until(int64_t deadline)
{
	struct timespec ts;

	ts.tv_sec = deadline / NSEC_PER_SEC;
	ts.tv_nsec = deadline % NSEC_PER_SEC;
	if (got_stop || got_child)
		return -1;
	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		return -1;
	return now_ns();
}

/*
 * One round: stamp and write to every client, then collect every reply.
 * Returns -1 when the run must end.
 */
static int
do_round(const struct config *cfg, struct engine *eng, struct result *res,
    sample_sink sink, void *sink_arg)
{
	struct epoll_event ev[MAXEVENTS];
	struct request req;
	struct reply rep;
	struct sample s;
	struct brk b;
	unsigned i, idx, pending, nsend = eng->n;
	ssize_t n;
	int k, j;

	/* --samples: the last round wakes only the clients still needed. */
	if (cfg->samples > 0 && cfg->samples - res->lat.n < nsend)
		nsend = (unsigned)(cfg->samples - res->lat.n);
	req.round = res->nrounds + 1;
	for (i = 0; i < nsend; i++) {
		req.send = now_ns();
		n = write(eng->c[i].wfd, &req, sizeof(req));
		if (n == sizeof(req))
			continue;
		if (n == -1 && errno == EPIPE) {
			client_died(eng, res, i);
			return -1;
		}
		if (n == -1 && errno == EINTR) {
			i--;
			continue;
		}
		fail(res, STOP_ERROR, "write to a client");
		return -1;
	}

	memset(&s, 0, sizeof(s));
	for (pending = nsend; pending > 0; ) {
		k = epoll_wait(eng->epfd, ev, MAXEVENTS, TICK_MS);
		if (k == -1 && errno != EINTR) {
			fail(res, STOP_ERROR, "epoll_wait");
			return -1;
		}
		for (j = 0; j < k; j++) {
			idx = ev[j].data.u32;
			if (!(ev[j].events & EPOLLIN)) {
				client_died(eng, res, idx);
				return -1;
			}
			n = read(eng->c[idx].rfd, &rep, sizeof(rep));
			if (n == -1 && errno == EINTR) {
				j--;
				continue;
			}
			if (n != sizeof(rep) || rep.round != req.round) {
				client_died(eng, res, idx);
				return -1;
			}
			pending--;
			s.when = rep.send - res->start;
			s.round = rep.round;
			s.client = idx;
			s.cpu = rep.cpu;
			s.pid = eng->c[idx].pid;
			s.latency = rep.wake - rep.send;
			s.work_ns = rep.done - rep.wake;
			if (s.when < cfg->warmup) {
				res->discarded++;
				continue;
			}
			/*
			 * A wait that began before the send (the client
			 * not yet blocked) is not this wake-up's beyond
			 * its latency.
			 */
			s.rq_wait = rep.rq_wait;
			if (s.rq_wait > s.latency)
				s.rq_wait = s.latency;
			stats_add(&res->lat, s.latency, idx, s.when);
			if (s.rq_wait >= 0) {
				stats_add(&res->rq, s.rq_wait, idx, s.when);
				stats_add(&res->path, s.latency - s.rq_wait,
				    idx, s.when);
			}
			if (cfg->work_kb > 0)
				stats_add(&res->work, s.work_ns, idx, s.when);
			if (sink != NULL && sink(sink_arg, &s) == -1) {
				fail(res, STOP_SINK, "log");
				return -1;
			}
			memset(&b, 0, sizeof(b));
			b.client = idx;
			b.latency = s.latency;
			b.when = s.when;
			if (check_break(cfg, res, &b))
				return -1;
		}
		/*
		 * A stop request abandons the round: a stopped client
		 * might never answer.  A workload that ended lets the round
		 * finish, since its wake-ups were taken under the load.
		 */
		if (got_stop) {
			check_flags(eng, res);
			return -1;
		}
	}
	res->nrounds++;
	return 0;
}

/*
 * Ends every client: closing its request pipe makes its read() return 0;
 * one that does not leave within a second (stopped, say) gets SIGKILL.
 * Every client is reaped.  clients_stop(NULL, res) is safe.
 */
void
clients_stop(struct engine *eng, struct result *res)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	unsigned i, left;
	int64_t giveup;
	pid_t r;
	int st;

	(void)res;
	if (eng == NULL)
		return;
	for (i = 0; i < eng->n; i++) {
		close(eng->c[i].wfd);
		close(eng->c[i].rfd);
	}
	giveup = now_ns() + REAP_GRACE_NS;
	for (;;) {
		left = 0;
		for (i = 0; i < eng->n; i++) {
			if (eng->c[i].reaped)
				continue;
			r = waitpid(eng->c[i].pid, &st, WNOHANG);
			if (r == eng->c[i].pid || (r == -1 && errno == ECHILD))
				eng->c[i].reaped = 1;
			else
				left++;
		}
		if (left == 0)
			break;
		if (now_ns() > giveup) {
			for (i = 0; i < eng->n; i++)
				if (!eng->c[i].reaped)
					kill(eng->c[i].pid, SIGKILL);
			for (i = 0; i < eng->n; i++)
				while (!eng->c[i].reaped &&
				    waitpid(eng->c[i].pid, &st, 0) == -1 &&
				    errno == EINTR)
					;
			break;
		}
		nanosleep(&ms, NULL);
	}
	if (eng->epfd != -1)
		close(eng->epfd);
	if (eng->sh != MAP_FAILED) {
		sem_destroy(&eng->sh->sem);
		munmap(eng->sh, sizeof(*eng->sh));
	}
	free(eng->c);
	free(eng);
}

/* splitmix64: small, fast, and good enough to spread the sleeps. */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Whether a client will be able to read its run delay: the second field
 * of /proc/thread-self/schedstat (time runnable but not running, ns) and
 * the third (times it got a CPU).  Returns 0, or -1 with errno set
 * (ENOENT: no such file, a kernel without CONFIG_SCHED_INFO; EINVAL: not
 * in the expected shape).
 */
int
schedstat_probe(void)
{
	int64_t delay;
	int fd, r;

	if ((fd = open(SCHEDSTAT, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	r = read_schedstat(fd, &delay);
	close(fd);
	return r;
}

/*
 * Reads a schedstat file from its start ("cpu_ns delay_ns runs") into
 * *delay.  Returns 0, or -1 with errno set.
 */
static int
read_schedstat(int fd, int64_t *delay)
{
	char buf[96], *p, *end;
	unsigned long long v[3];
	ssize_t n;
	int i;

	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0) {
		if (n == 0)
			errno = EINVAL;
		return -1;
	}
	buf[n] = '\0';
	for (i = 0, p = buf; i < 3; i++, p = end) {
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (end == p || errno != 0) {
			errno = EINVAL;
			return -1;
		}
	}
	*delay = (int64_t)v[1];
	return 0;
}
