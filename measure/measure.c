/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parent's side of a measurement: starting and stopping the clients,
 * the measurement loop, and taking the clients' replies into the result.
 *
 * The clients (client.c) block reading their request pipes.  The parent
 * stamps CLOCK_MONOTONIC just before each write; a wake-up latency is the
 * client's stamp minus the parent's.  A round's replies are awaited with
 * epoll, at a cost in proportion to the replies.  On a round drawn at
 * random (1 in --split) each client's run delay is read before the first
 * write and after the replies (split.c): the runqueue-wait split.
 *
 * Every round writes in a fresh random order (from --seed); an unmeasured
 * priming round pays the first touches.  The closed loop (2009) waits for
 * every reply; the open loop sends each round at its time and a client
 * answers every request it finds, so that a stall is sampled in
 * proportion to its length.  An end takes effect within END_GRACE_NS;
 * replies still out are censored samples (counted, with the oldest age).
 *
 * It never prints: samples go to the caller's sink, failures to latt.c.
 */
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "explain/explain.h"
#include "explain/trace.h"
#include "lib/common.h"
#include "measure/client.h"
#include "measure/feed.h"
#include "measure/measure.h"
#include "measure/split.h"
#include "proc/proc.h"
#include "proc/workload.h"
#include "record/counts.h"
#include "record/noise.h"
#include "record/order.h"
#include "record/topo.h"
#include "result.h"
#include "run.h"

#if __GLIBC__ * 100 + __GLIBC_MINOR__ >= 234	/* no atfork handlers */
#define FORK	_Fork
#else
#define FORK	fork
#endif

#define MAXEVENTS	256
#define TICK_MS		100		/* how often waits look at the flags */
#define RECHECK_NS	(100 * NSEC_PER_MSEC)	/* and a long sleep */
#define STARTUP_NS	(30 * NSEC_PER_SEC)	/* a client that never starts */
#define PACE_NS		(3 * NSEC_PER_MSEC)	/* a client's start, one by one */
#define REAP_GRACE_NS	(1 * NSEC_PER_SEC)
#define PRIME_ROUNDS	1		/* unmeasured rounds before the first */
#define END_GRACE_NS	(200 * NSEC_PER_MSEC)	/* replies after the end */
#define RING		4096		/* open loop: rounds' send times kept */
#define REPLY_BATCH	16		/* replies read at once */
#define FRAME_LEAD_NS	(10 * NSEC_PER_MSEC)	/* the first frame's start */

/* A client as the parent holds it. */
struct client {
	pid_t		pid;
	int		wfd;		/* request pipe, write end */
	int		rfd;		/* reply pipe, read end */
	int		reaped;
	uint32_t	npending;	/* requests sent, not yet answered */
	int32_t		last_cpu;	/* its last wake-up's CPU, or -1 */
	uint64_t	last_round;	/* the last round it answered */
	int64_t		last_send;	/* stamp of the last request sent */
	struct split_proc sp;		/* its schedstat, for the split */
	int		holding;	/* held: its reply, until read after */
	struct sample	held;
	int		frame;		/* a frame client: on its own timer */
	int64_t		next;		/* its next frame's start, or 0 */
	uint64_t	run;		/* deadlines it missed in a row */
};

struct engine {
	unsigned	 n;		/* clients started */
	unsigned	 ready;		/* of them, posted the semaphore */
	struct client	*c;
	int		 epfd;
	struct shared	*sh;		/* client.h */
	size_t		 shsize;
	unsigned	 nround;	/* order[0..nround): no frame client */
	uint32_t	*order;		/* the write order of a round */
	int64_t		 sent[RING];	/* round r's last write, at
					   sent[r % RING] */
	int64_t		 end;		/* --duration's end, or INT64_MAX; moved
					   on by the time suspended */
};

/* One run of the loop: what every step of it needs. */
struct loop {
	const struct config *cfg;
	const struct trace *trace;	/* --breaktrace's */
	struct tinst	*inst;		/* --explain's */
	struct engine	*eng;
	struct result	*res;
	sample_sink	 sink;
	tick_hook	 tick;
	void		*arg;
	int64_t		 next_tick;
	uint64_t	 order_rng;	/* the write order's own stream */
	uint64_t	 sleep_rng;	/* the sleeps', from the seed itself */
	uint64_t	 span;		/* of a sleep: max - min delay + 1 */
	uint64_t	 outstanding;	/* requests not yet answered */
	uint64_t	 seq;		/* requests' round numbers, priming
					   too */
	int64_t		 limit;		/* the grace for replies ends here */
	int		 priming;	/* replies are not samples */
	int		 split;		/* the split is on */
	uint64_t	 split_rng;	/* which rounds it takes */
	uint64_t	 nheld;		/* samples held for the split */
	int		 rqfd;		/* /proc/loadavg, or -1 */
};

static int	 wait_ready(struct engine *, struct result *, int64_t,
		    const char *);
static int	 check_flags(struct engine *, struct result *);
static void	 suspend_run(struct engine *, struct result *, int);
static int	 check_hangups(struct engine *, struct result *, int);
static void	 client_died(struct engine *, struct result *, unsigned);
static int	 prime(struct loop *);
static int	 closed_loop(struct loop *);
static int	 open_loop(struct loop *);
static uint64_t	 samples_left(const struct loop *);
static int64_t	 next_delay(struct loop *);
static int	 sleep_to(struct loop *, int64_t);
static int	 send_round(struct loop *, unsigned);
static int	 collect(struct loop *, int);
static int	 take_reply(struct loop *, unsigned, const struct reply *);
static int	 start_frames(struct loop *);
static int	 take_frame(struct loop *, unsigned, const struct reply *);
static int	 keep_sample(struct loop *, unsigned, struct sample *);
static void	 read_before(struct loop *, unsigned, uint64_t);
static int	 read_after(struct loop *);
static int	 wait_replies(struct loop *);
static void	 finish(struct loop *);
static int	 run_tick(struct loop *);
static int	 check_break(const struct loop *, struct result *,
		    const struct brk *);
static int	 timer_sample(struct result *, const struct brk *, sample_sink,
		    void *);
static void	 count_clients(const struct engine *, struct kcount *);

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
 * Forks cfg->nclients clients, waits until each is ready and returns the
 * engine (NULL: no memory); a failure half-way is in res->stop, and the
 * caller still hands the engine to measure_stop.
 */
struct engine *
measure_start(const struct config *cfg, const struct run *run,
    struct result *res)
{
	struct engine *eng;
	struct epoll_event ev;
	struct client *c;
	const char *what = NULL;
	int64_t pace;
	unsigned i;
	int req[2], rep[2], r;
	pid_t pid;

	if ((eng = calloc(1, sizeof(*eng))) == NULL ||
	    (eng->c = calloc(cfg->nclients, sizeof(*eng->c))) == NULL ||
	    (eng->order = calloc(cfg->nclients, sizeof(*eng->order))) ==
	    NULL) {
		if (eng != NULL)
			free(eng->c);
		free(eng);
		fail(res, STOP_ERROR, "calloc");
		return NULL;
	}
	eng->epfd = -1;
	eng->sh = MAP_FAILED;
	eng->shsize = sizeof(*eng->sh) + sizeof(eng->sh->got[0]) *
	    (cfg->nclasses > 0 ? cfg->nclasses : 1);
	/* A mapping whose sem_init failed is unmapped by measure_stop. */
	if ((eng->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		what = "epoll_create1";
	else if ((eng->sh = mmap(NULL, eng->shsize, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		what = "mmap";
	else if (sem_init(&eng->sh->sem, 1, 0) == -1)
		what = "sem_init";
	if (what != NULL)
		goto bad;

	fflush(stdout);
	fflush(stderr);
	/*
	 * One at a time while they keep PACE_NS each (the rest together):
	 * a page written after a fork is copied with a TLB flush, and forks
	 * overlapping the clients' start took twice the CPU.
	 */
	pace = now_ns() + 16 * PACE_NS;
	for (i = 0; i < cfg->nclients && !got_stop; i++) {
		req[0] = req[1] = rep[0] = rep[1] = -1;
		if (pipe2(req, O_CLOEXEC) == -1 || pipe2(rep, O_CLOEXEC) == -1 ||
		    (pid = FORK()) == -1) {
			/* A fork: the limit that refused it (report.c). */
			if (rep[0] != -1) {
				r = errno;
				snprintf(res->wl.fork_what,
				    sizeof(res->wl.fork_what), "fork of client "
				    "%u", i);
				proc_fork_why(r, res->wl.fork_why,
				    sizeof(res->wl.fork_why));
				errno = r;
			}
			fail(res, STOP_ERROR, rep[0] == -1 ? "pipe" :
			    res->wl.fork_what);
			close(req[0]);
			close(req[1]);
			close(rep[0]);
			close(rep[1]);
			return eng;
		}
		if (pid == 0)
			client_run(cfg, i, req[0], rep[1], eng->sh,
			    client_busy_turns(cfg, run->busy_per_ms, i));
		close(req[0]);
		close(rep[1]);
		eng->c[i] = (struct client){ .pid = pid, .wfd = req[1],
		    .rfd = rep[0], .sp.fd = -1, .last_cpu = -1 };
		eng->n = i + 1;
		ev = (struct epoll_event){ .events = EPOLLIN, .data.u32 = i };
		if (epoll_ctl(eng->epfd, EPOLL_CTL_ADD, rep[0], &ev) == -1) {
			fail(res, STOP_ERROR, "epoll_ctl");
			return eng;
		}
		pace += PACE_NS;
		if (pace > 0 && (r = wait_ready(eng, res, pace, NULL)) != 0) {
			if (r == -1)
				return eng;
			pace = 0;
		}
	}
	if (check_flags(eng, res) || wait_ready(eng, res, now_ns() +
	    STARTUP_NS, "waiting for clients to start") != 0)
		return eng;
	for (i = 0; i < eng->n; i++) {
		c = &eng->c[i];
		noise_client(&res->noise, c->pid);
		c->frame = config_frame(cfg, i) > 0;
		/* The open loop never blocks: what does not fit is not sent. */
		if (cfg->open_loop && fcntl(c->wfd, F_SETFL, O_NONBLOCK) == -1)
			what = "fcntl";
		else if (run->schedstat && split_open(&c->sp, c->pid) == -1)
			what = "open /proc/PID/schedstat";
		if (what != NULL)
			goto bad;
	}
	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++)
		res->classes[i].got = eng->sh->got[i];
	return eng;
bad:
	fail(res, STOP_ERROR, what);
	return eng;
}

/*
 * Waits until every client started has posted the semaphore; at until, 1,
 * or with late a failure.  A client that dies first shows as a hang-up.
 */
static int
wait_ready(struct engine *eng, struct result *res, int64_t until,
    const char *late)
{
	struct timespec ts;
	int64_t deadline;

	while (eng->ready < eng->n) {
		deadline = now_ns() + TICK_MS * NSEC_PER_MSEC;
		if (deadline > until)
			deadline = until;
		ts.tv_sec = deadline / NSEC_PER_SEC;
		ts.tv_nsec = deadline % NSEC_PER_SEC;
		if (sem_clockwait(&eng->sh->sem, CLOCK_MONOTONIC, &ts) == 0) {
			eng->ready++;
			continue;
		}
		if (errno != EINTR && errno != ETIMEDOUT) {
			fail(res, STOP_ERROR, "sem_clockwait");
			return -1;
		}
		if (check_flags(eng, res) || check_hangups(eng, res, 0))
			return -1;
		if (now_ns() < until)
			continue;
		if (late != NULL) {
			errno = ETIMEDOUT;
			fail(res, STOP_ERROR, late);
		}
		return late != NULL ? -1 : 1;
	}
	return 0;
}

/*
 * Looks at what the signal handlers flagged: a stop request, or a child
 * that changed state.  On SIGCHLD the workload, its orphans (latt is their
 * subreaper) and a load's dead are reaped at once; a client that died is
 * left to its hang-up.  Returns 1 when the run must end.
 */
static int
check_flags(struct engine *eng, struct result *res)
{
	int sig;

	if (got_stop && res->stop == STOP_NONE) {
		res->stop = STOP_SIGNAL;
		res->stop_signal = got_stop;
	}
	if (got_child) {
		got_child = 0;
		if (workload_reap(&res->wl) && res->wl.pid > 0 &&
		    res->stop == STOP_NONE) {
			res->stop = STOP_WORKLOAD;
			/* The terminal's Ctrl-C reached the workload. */
			if (res->wl.interrupted) {
				res->stop = STOP_SIGNAL;
				res->stop_signal = res->wl.interrupted;
			}
		} else if (eng != NULL && res->stop == STOP_NONE)
			check_hangups(eng, res, 0);
		/* The knob's guardian reaped: the run ends, latt.c restores. */
		if (res->wl.undo < 0) {
			errno = ESRCH;
			fail(res, STOP_ERROR, "latt-undo, the knob's guardian");
		}
	}
	if (res->stop != STOP_NONE)
		return 1;
	/*
	 * A stopped workload: a terminal's stop suspends the run; a stop
	 * from elsewhere ends it (never a silent idle run).  Ctrl-Z at a
	 * terminal latt holds itself suspends it too.
	 */
	if ((sig = workload_stop_signal(&res->wl)) < 0) {
		res->wl_stopsig = -sig;
		res->wl_stop_at = now_ns() - res->start;
		res->stop = STOP_WORKLOAD;
		return 1;
	}
	if (sig == 0 && got_tstp)
		sig = SIGTSTP;
	/* Only once the run has started; before, a Ctrl-Z waits for it. */
	if (sig > 0 && eng != NULL && res->start != 0)
		suspend_run(eng, res, sig);
	return 0;
}

/*
 * Suspends the run (clients, loads, workload, then latt) and records for
 * how long, once it goes on: that time is neither measured nor counted
 * towards --duration, a wake-up in flight across it is dropped, and it is
 * no stall of latt.
 */
static void
suspend_run(struct engine *eng, struct result *res, int sig)
{
	int64_t from = now_ns(), to;

	measure_signal(eng, SIGSTOP);
	workload_suspend(&res->wl, sig);
	measure_signal(eng, SIGCONT);
	to = now_ns();
	if (res->nsuspend < SUSPEND_MAX) {
		res->susp[res->nsuspend].from = from - res->start;
		res->susp[res->nsuspend].to = to - res->start;
		res->susp[res->nsuspend].sig = sig;
	}
	res->nsuspend++;
	res->suspended += to - from;
	res->susp_last_from = from;
	res->susp_last_to = to;
	if (eng->end != INT64_MAX)
		eng->end += to - from;
}

/* Sends sig to every client (SIGSTOP and SIGCONT, for a suspension). */
void
measure_signal(struct engine *eng, int sig)
{
	unsigned i;

	for (i = 0; eng != NULL && i < eng->n; i++)
		if (!eng->c[i].reaped)
			kill(eng->c[i].pid, sig);
}

/*
 * Any hang-up or error on a reply pipe is a client that died (a reply
 * waiting to be read is not looked at here).  Waits up to timeout ms.
 * Returns 1 when one did.
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
 * Primes the clients, then runs the closed or the open loop until
 * something ends the run: the workload, a signal, a failure, --duration,
 * --samples or --breaktrace.  The tick, if any, runs at most once a
 * second, also while a round waits for its replies.  Returns 0; why the
 * run ended is in res->stop, what was left unanswered in res->npending.
 */
int
measure_run(const struct config *cfg, struct run *run, struct engine *eng,
    struct result *res, sample_sink sink, tick_hook tick, void *sink_arg)
{
	struct kcount end;
	struct loop L;
	unsigned i;
	int primed;

	memset(&L, 0, sizeof(L));
	L.cfg = cfg;
	L.trace = &run->trace;
	L.inst = &run->inst;
	L.eng = eng;
	L.res = res;
	L.sink = sink;
	L.tick = tick;
	L.arg = sink_arg;
	/* suspend_run moves the end on by the time suspended. */
	eng->end = cfg->duration > 0 ? res->start + cfg->duration : INT64_MAX;
	L.limit = INT64_MAX;
	L.next_tick = now_ns() + NSEC_PER_SEC;
	L.sleep_rng = cfg->seed;
	L.span = (uint64_t)(cfg->max_delay - cfg->min_delay) + 1;
	/* Its own stream, so that the sleeps of a seed stay what they were. */
	L.order_rng = cfg->seed ^ 0x6a09e667f3bcc909ULL;
	L.split = res->ser[SER_RUNQUEUE].on;
	L.split_rng = cfg->seed ^ 0xbb67ae8584caa73bULL;
	for (i = 0, eng->nround = 0; i < eng->n; i++)
		if (!eng->c[i].frame)
			eng->order[eng->nround++] = i;
	L.rqfd = -1;
	if ((primed = prime(&L) == 0) && start_frames(&L) == 0) {
		/* The counts start after the priming round, outside it. */
		counts_system(&res->counts.begin);
		count_clients(eng, &res->counts.begin);
		L.rqfd = counts_runnable_open();
		noise_begin(&res->noise, now_coarse_ns());
		if (cfg->open_loop)
			open_loop(&L);
		else
			closed_loop(&L);
	}
	finish(&L);
	if (primed) {
		counts_system(&end);
		count_clients(eng, &end);
		counts_finish(&res->counts, &end, eng->n);
		noise_finish(&res->noise);
	}
	if (L.rqfd >= 0)
		close(L.rqfd);
	return 0;
}

/* Every client's switches and migrations into k (counts.c). */
static void
count_clients(const struct engine *eng, struct kcount *k)
{
	unsigned i;

	for (i = 0; i < eng->n; i++)
		if (!eng->c[i].reaped)
			counts_task(k, eng->c[i].pid);
}

/*
 * PRIME_ROUNDS unmeasured rounds, which pay the first touches of stacks,
 * pipe buffers and caches.  Returns 0, or -1 when the run ended meanwhile.
 */
static int
prime(struct loop *L)
{
	int i;

	L->priming = 1;
	for (i = 0; i < PRIME_ROUNDS && !check_flags(L->eng, L->res); i++)
		if (send_round(L, L->eng->nround) == -1 ||
		    wait_replies(L) == -1)
			break;
	L->priming = 0;
	return L->res->stop == STOP_NONE ? 0 : -1;
}

/*
 * The 2009 loop: sleep a random while, write to every client, wait for
 * every reply, repeat.  A round waits for its slowest reply, so a stall is
 * sampled about once whatever its length (docs/method.md, "Closed or
 * open loop"): the wait past the next round's time is counted instead.
 */
static int
closed_loop(struct loop *L)
{
	uint64_t left;
	unsigned nsend;
	int64_t d, now;

	while (!check_flags(L->eng, L->res)) {
		if (samples_left(L) == 0) {
			L->res->stop = STOP_SAMPLES;
			break;
		}
		d = next_delay(L);
		now = now_ns();
		feed_waited(L->res, L->eng->sent[L->seq % RING], now, d);
		if (sleep_to(L, now + d) == -1)
			break;
		/* --samples: the last round wakes only the clients needed. */
		left = samples_left(L);
		nsend = left < L->eng->nround ? (unsigned)left :
		    L->eng->nround;
		if (send_round(L, nsend) == -1 || wait_replies(L) == -1 ||
		    read_after(L) == -1 || (L->eng->nround < L->eng->n &&
		    collect(L, 0) == -1) || run_tick(L) == -1)
			break;
		counts_runnable(L->rqfd, &L->res->counts, now_coarse_ns());
		noise_sample(&L->res->noise, now_coarse_ns());
	}
	return 0;
}

/*
 * --open-loop: rounds are scheduled a random while apart, and each is
 * sent at its time whether or not the earlier replies are in; replies are
 * read whenever latt is awake.  A latt that falls a whole max-delay behind
 * its schedule (it was stopped or starved: a stall, recorded as one)
 * starts a new schedule from now rather than catching up in a burst.
 */
static int
open_loop(struct loop *L)
{
	uint64_t left;
	int64_t next, now;
	unsigned nsend;

	next = now_ns() + next_delay(L);
	while (!check_flags(L->eng, L->res)) {
		if (samples_left(L) == 0) {
			L->res->stop = STOP_SAMPLES;
			break;
		}
		if (sleep_to(L, next) == -1)
			break;
		/* The split reads after the replies already in. */
		if (L->split && (collect(L, 0) == -1 || read_after(L) == -1))
			break;
		left = samples_left(L);
		nsend = left < L->eng->nround ? (unsigned)left :
		    L->eng->nround;
		if (send_round(L, nsend) == -1 || collect(L, 0) == -1 ||
		    run_tick(L) == -1)
			break;
		counts_runnable(L->rqfd, &L->res->counts, now_coarse_ns());
		/* Never while a wake-up is in flight. */
		if (L->outstanding == 0)
			noise_sample(&L->res->noise, now_coarse_ns());
		next += next_delay(L);
		if ((now = now_ns()) > next + L->cfg->max_delay)
			next = now + next_delay(L);
	}
	return 0;
}

/*
 * With --samples, how many more requests the run may send: the samples
 * wanted, less those on their way and held for the split; UINT64_MAX
 * without --samples.
 */
static uint64_t
samples_left(const struct loop *L)
{
	uint64_t due;

	if (L->cfg->samples == 0)
		return UINT64_MAX;
	due = L->res->ser[SER_LATENCY].st.n + L->outstanding + L->nheld;
	return due < L->cfg->samples ? L->cfg->samples - due : 0;
}

/* How long the parent sleeps before a round: min to max delay, at random. */
static int64_t
next_delay(struct loop *L)
{
	return L->cfg->min_delay +
	    (int64_t)(splitmix64(&L->sleep_rng) % L->span);
}

/*
 * Sleeps to an absolute deadline, clamped to the run's end, in steps of at
 * most RECHECK_NS and to the tick, so that the flags and the tick are seen
 * on the way (and, in the open loop, replies read).  A signal that cuts a
 * step short without ending the run sleeps on to the same deadline; one
 * that lands after the deadline passed leaves the time it was seen as the
 * wake-up.  So every sleep that reaches its deadline gives exactly one
 * timer sample, late ones included; a sleep clamped to the run's end, or
 * cut by the run's end, gives none.  A step that woke more than STALL_NS
 * late is a stall of latt.  Returns 0 when the deadline was reached, -1
 * when the run ends.
 */
static int
sleep_to(struct loop *L, int64_t deadline)
{
	struct result *res = L->res;
	int64_t target, now, woke, susp = res->suspended;
	struct brk b;
	int clamped = 0;

	if (deadline >= L->eng->end) {
		deadline = L->eng->end;
		clamped = 1;
	}
	for (;;) {
		target = deadline;
		if (L->tick != NULL && L->next_tick < target)
			target = L->next_tick;
		if ((now = now_coarse_ns()) + RECHECK_NS < target)
			target = now + RECHECK_NS;
		if ((woke = sleep_until_ns(target)) == -1) {
			if (check_flags(L->eng, res))
				return -1;
			if ((now = now_ns()) < target)
				continue;
			woke = now;
		}
		if (woke - target > STALL_NS)
			feed_stall(res, target, woke - target);
		if (target == deadline)
			break;
		if (check_flags(L->eng, res) ||
		    ((L->cfg->open_loop || L->eng->nround < L->eng->n) &&
		    collect(L, 0) == -1) ||
		    run_tick(L) == -1)
			return -1;
	}
	if (clamped && deadline >= L->eng->end) {
		if (res->stop == STOP_NONE)
			res->stop = STOP_DURATION;
		return -1;
	}
	/* A sleep the run was suspended in is no timer sample. */
	if (res->suspended != susp)
		return 0;
	if (deadline - res->start >= L->cfg->warmup) {
		memset(&b, 0, sizeof(b));
		b.timer = 1;
		b.latency = woke - deadline;
		b.when = deadline - res->start;
		series_add(&res->ser[SER_TIMER], b.latency, 0, b.when);
		if (res->ser[SER_TIMER].tl != NULL)
			timeline_add(res->ser[SER_TIMER].tl, b.when,
			    b.latency);
		if (L->sink != NULL && timer_sample(res, &b, L->sink,
		    L->arg) == -1)
			return -1;
		if (check_break(L, res, &b))
			return -1;
	}
	return 0;
}

/*
 * Writes one request to each of nsend clients, in a fresh random order of
 * all clients (a Fisher-Yates shuffle from the seed), each with latt's CPU
 * (read before the stamp) and stamped just before its write.  A round
 * drawn for the split (its own stream from the seed, drawn before anything
 * of the round is seen) first has its clients' run delays read.  A full
 * request pipe (open loop only) counts the request as not sent.  Returns
 * -1 when the run must end.
 */
static int
send_round(struct loop *L, unsigned nsend)
{
	struct engine *eng = L->eng;
	struct result *res = L->res;
	struct request req;
	struct client *c;
	int64_t first = 0;
	uint32_t t;
	unsigned i, j;
	ssize_t n;

	for (i = eng->nround - 1; eng->nround > 0 && i > 0; i--) {
		j = (unsigned)(splitmix64(&L->order_rng) % (i + 1));
		t = eng->order[i];
		eng->order[i] = eng->order[j];
		eng->order[j] = t;
	}
	memset(&req, 0, sizeof(req));
	req.round = ++L->seq;
	if (L->split && !L->priming && (L->cfg->split_every == 1 ||
	    splitmix64(&L->split_rng) % L->cfg->split_every == 0))
		read_before(L, nsend, req.round);
	for (i = 0; i < nsend; i++) {
		c = &eng->c[eng->order[i]];
		req.pos = i;
		req.waker_cpu = sched_getcpu();
		req.send = now_ns();
		if (i == 0)
			first = req.send;
		n = write(c->wfd, &req, sizeof(req));
		if (n == sizeof(req)) {
			c->npending++;
			c->last_send = req.send;
			L->outstanding++;
			continue;
		}
		if (n == -1 && errno == EINTR) {
			i--;
			continue;
		}
		if (n == -1 && errno == EAGAIN) {
			res->nunsent++;
			continue;
		}
		if (n == -1 && errno == EPIPE) {
			client_died(eng, res, eng->order[i]);
			return -1;
		}
		fail(res, STOP_ERROR, "write to a client");
		return -1;
	}
	eng->sent[req.round % RING] = req.send;
	if (L->priming)
		return 0;
	res->nrounds++;
	/* The order check: the release's spread, the round announced. */
	if (res->order != NULL && first - res->start >= L->cfg->warmup)
		order_sent(res->order, req.round - PRIME_ROUNDS, nsend,
		    now_ns() - first, first - res->start);
	return 0;
}

/*
 * One epoll_wait of up to timeout ms, and every reply it finds.  A reply
 * that sat unread for more than STALL_NS while latt waited for it means
 * latt itself was stopped or starved: a stall.  Returns -1 when the run
 * must end.
 */
static int
collect(struct loop *L, int timeout)
{
	struct epoll_event ev[MAXEVENTS];
	struct reply rep[REPLY_BATCH];
	struct engine *eng = L->eng;
	struct result *res = L->res;
	int64_t t0 = now_coarse_ns(), now, first = INT64_MAX, from;
	unsigned idx;
	size_t i;
	ssize_t n;
	int k, j;

	k = epoll_wait(eng->epfd, ev, MAXEVENTS, timeout);
	if (k == -1) {
		if (errno == EINTR)
			return 0;
		fail(res, STOP_ERROR, "epoll_wait");
		return -1;
	}
	now = now_coarse_ns();
	if (timeout > 0 && k == 0 &&
	    now - (t0 + timeout * NSEC_PER_MSEC) > STALL_NS)
		feed_stall(res, t0 + timeout * NSEC_PER_MSEC,
		    now - (t0 + timeout * NSEC_PER_MSEC));
	for (j = 0; j < k; j++) {
		idx = ev[j].data.u32;
		if (!(ev[j].events & EPOLLIN)) {
			client_died(eng, res, idx);
			return -1;
		}
		while ((n = read(eng->c[idx].rfd, rep, sizeof(rep))) == -1 &&
		    errno == EINTR)
			;
		if (n <= 0 || n % sizeof(rep[0]) != 0) {
			client_died(eng, res, idx);
			return -1;
		}
		for (i = 0; i < (size_t)n / sizeof(rep[0]); i++) {
			if (rep[i].done < first)
				first = rep[i].done;
			if (take_reply(L, idx, &rep[i]) == -1)
				return -1;
		}
	}
	if (timeout > 0 && first != INT64_MAX) {
		from = first > t0 ? first : t0;
		if (now - from > STALL_NS)
			feed_stall(res, from, now - from);
	}
	return 0;
}

/*
 * One reply: checked against what was sent to that client, then a sample
 * (unless priming or in the --warmup).  Returns -1 when the run must end.
 */
static int
take_reply(struct loop *L, unsigned idx, const struct reply *rep)
{
	const struct config *cfg = L->cfg;
	struct result *res = L->res;
	struct client *c = &L->eng->c[idx];
	struct sample s;
	int split;

	if (c->frame)
		return take_frame(L, idx, rep);
	if (c->npending == 0 || rep->round <= c->last_round ||
	    rep->round > L->seq) {
		client_died(L->eng, res, idx);
		return -1;
	}
	c->npending--;
	c->last_round = rep->round;
	L->outstanding--;
	memset(&s, 0, sizeof(s));
	/* Migrated since its wake-up before (the priming round's too). */
	s.migrated = c->last_cpu >= 0 && rep->cpu >= 0 &&
	    rep->cpu != c->last_cpu;
	if (rep->cpu >= 0)
		c->last_cpu = rep->cpu;
	if (L->priming)
		return 0;
	s.when = rep->send - res->start;
	s.round = rep->round - PRIME_ROUNDS;
	s.client = idx;
	s.pos = rep->pos;
	s.cpu = rep->cpu;
	s.waker_cpu = rep->waker_cpu;
	s.place = topo_place(res->topo, s.waker_cpu, s.cpu);
	s.pid = c->pid;
	s.latency = rep->wake - rep->send;
	s.work_ns = rep->done - rep->wake;
	s.busy_ns = rep->busy;
	s.rq_wait = -1;
	split = c->sp.round == rep->round;
	if (split)
		c->sp.round = 0;
	if (s.when < cfg->warmup) {
		res->discarded++;
		return 0;
	}
	if (feed_suspended(res, rep->send, rep->wake))
		return 0;
	/* The split's round: held until its run delay is read after it. */
	if (split) {
		c->held = s;
		c->holding = 1;
		L->nheld++;
		return 0;
	}
	return keep_sample(L, idx, &s);
}

/* Every frame client's first frame starts FRAME_LEAD_NS from now. */
static int
start_frames(struct loop *L)
{
	struct engine *eng = L->eng;
	struct request req;
	unsigned i;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.send = now_ns() + FRAME_LEAD_NS;
	for (i = 0; i < eng->n; i++) {
		if (!eng->c[i].frame)
			continue;
		eng->c[i].next = req.send;
		while ((n = write(eng->c[i].wfd, &req, sizeof(req))) == -1 &&
		    errno == EINTR)
			;
		if (n == -1 && errno == EPIPE) {
			client_died(eng, L->res, i);
			return -1;
		}
		if (n != sizeof(req)) {
			fail(L->res, STOP_ERROR, "write to a client");
			return -1;
		}
	}
	return 0;
}

/*
 * A frame, checked (in order, done after it woke after its start), into
 * its class (feed.c says which frames count).
 */
static int
take_frame(struct loop *L, unsigned idx, const struct reply *rep)
{
	struct result *res = L->res;
	struct client *c = &L->eng->c[idx];

	if (rep->round != c->last_round + 1 || rep->wake < rep->send ||
	    rep->done < rep->wake) {
		client_died(L->eng, res, idx);
		return -1;
	}
	c->last_round = rep->round;
	c->next = rep->send + ((int64_t)rep->pos + 1) * config_frame(L->cfg,
	    idx);
	c->run = rep->run;
	feed_frame(res, L->cfg, idx, rep, L->eng->end);
	return 0;
}

/*
 * A sample into the result, the sink and --breaktrace's check.  After the
 * run was ended by the sink or a break (samples held for the split come
 * in then), only into the result.  Returns -1 when the run must end.
 */
static int
keep_sample(struct loop *L, unsigned idx, struct sample *s)
{
	struct result *res = L->res;
	struct brk b;

	feed_sample(res, L->cfg, idx, s);
	if (res->stop == STOP_SINK || res->stop == STOP_BREAK)
		return -1;
	if (L->cfg->explain > 0)
		explain_keep(L->cfg, L->inst, res, s);
	if (L->sink != NULL && feed_sink(res, L->sink, L->arg, s) == -1) {
		fail(res, STOP_SINK, "log");
		return -1;
	}
	memset(&b, 0, sizeof(b));
	b.client = idx;
	b.latency = s->latency;
	b.when = s->when;
	return check_break(L, res, &b) ? -1 : 0;
}

/*
 * The split's first reading, before a round's writes, of each of the
 * nsend clients (in the write order) about to be woken in round.  Only
 * the open loop can find a client with a request unanswered: its sample
 * of this round will be left out, as will one of an earlier round of the
 * split that it has not answered yet.
 */
static void
read_before(struct loop *L, unsigned nsend, uint64_t round)
{
	struct engine *eng = L->eng;
	struct client *c;
	unsigned i;

	L->res->split_rounds++;
	for (i = 0; i < nsend; i++) {
		c = &eng->c[eng->order[i]];
		if (c->sp.round != 0)
			L->res->split_left_out++;
		split_before(&c->sp, round, c->npending > 0);
	}
}

/*
 * The split's second reading, once the round's replies are in (closed
 * loop), or before the next round's writes (open loop), or at the end:
 * each held sample gets its runqueue wait, or none (left out: split.c
 * says when), and is kept.  Returns -1 when the run must end.
 */
static int
read_after(struct loop *L)
{
	struct engine *eng = L->eng;
	struct client *c;
	unsigned i;
	int r = 0;

	for (i = 0; L->nheld > 0 && i < eng->n; i++) {
		c = &eng->c[i];
		if (!c->holding)
			continue;
		c->holding = 0;
		L->nheld--;
		if (split_after(&c->sp, c->held.latency, &c->held.rq_wait) ==
		    -1)
			L->res->split_left_out++;
		if (keep_sample(L, i, &c->held) == -1)
			r = -1;
	}
	return r;
}

/*
 * Waits until every request sent has been answered, the tick running.
 * A signal or a failure ends the wait at once; the duration's end, the
 * workload's end and the sample count leave END_GRACE_NS for replies
 * already on their way.  What is still unanswered then is censored by
 * finish.  Returns 0 when every reply is in, -1 when the run must end.
 */
static int
wait_replies(struct loop *L)
{
	struct result *res = L->res;
	int64_t now, ms;
	int timeout;

	while (L->outstanding > 0) {
		check_flags(L->eng, res);
		now = now_coarse_ns();
		if (res->stop == STOP_NONE && now >= L->eng->end)
			res->stop = STOP_DURATION;
		switch (res->stop) {
		case STOP_NONE:
			break;
		case STOP_DURATION:
		case STOP_WORKLOAD:
		case STOP_SAMPLES:
			if (L->limit == INT64_MAX)
				L->limit = now + END_GRACE_NS;
			if (now >= L->limit)
				return -1;
			break;
		default:
			return -1;
		}
		timeout = TICK_MS;
		if (L->limit != INT64_MAX) {
			ms = (L->limit - now) / NSEC_PER_MSEC + 1;
			if (ms < timeout)
				timeout = (int)ms;
		}
		if (collect(L, timeout) == -1 || run_tick(L) == -1)
			return -1;
	}
	return 0;
}

/*
 * The end of the loop: replies already on their way are read (within the
 * grace, unless a signal or a failure ended the run), the samples held
 * for the split are read after and kept, and every request
 * still unanswered is a censored sample: counted, and the oldest one's age
 * (a lower bound of its latency) kept with its client.  The send time of
 * a client's oldest request is exact when only one is pending; with more
 * (open loop), it is the end of that round's writes, which keeps the age a
 * lower bound.
 */
static void
finish(struct loop *L)
{
	struct engine *eng = L->eng;
	struct result *res = L->res;
	struct client *c;
	uint64_t r;
	int64_t now, sent, age;
	unsigned i;

	if (L->outstanding > 0)
		wait_replies(L);
	else if (L->eng->nround < L->eng->n && !got_stop)
		collect(L, 0);		/* the frames done before the end */
	now = now_ns() < eng->end ? now_ns() : eng->end;
	for (i = 0; i < eng->n; i++)	/* and the deadlines passed since */
		if (eng->c[i].frame && eng->c[i].next > 0)
			feed_frames_end(res, L->cfg, i, eng->c[i].next, now,
			    eng->c[i].run);
	read_after(L);
	if (L->outstanding == 0)
		return;
	now = now_ns();
	for (i = 0; i < eng->n; i++) {
		c = &eng->c[i];
		if (c->npending == 0)
			continue;
		res->npending += c->npending;
		if (c->npending == 1)
			sent = c->last_send;
		else {
			r = c->last_round + 1;
			if (L->seq - r >= RING)
				r = L->seq - RING + 1;
			sent = eng->sent[r % RING];
		}
		age = now - sent;
		if (age > res->pending_age) {
			res->pending_age = age;
			res->pending_client = i;
		}
	}
}

/* The tick, at most once a second.  Returns -1 when it failed. */
static int
run_tick(struct loop *L)
{
	int64_t now, t0, t;
	int r;

	if (L->tick == NULL || (now = now_coarse_ns()) < L->next_tick)
		return 0;
	L->next_tick = now + NSEC_PER_SEC;
	/* A tick held up (the log pushed to a slow reader): a stall. */
	t0 = now_ns();
	r = L->tick(L->arg, L->res);
	if ((t = now_ns()) - t0 > STALL_NS)
		feed_stall(L->res, t0, t - t0);
	if (r == -1) {
		fail(L->res, STOP_SINK, "tick");
		return -1;
	}
	return 0;
}

/*
 * Hands a timer sample to the sink: client 0, the parent's pid and CPU,
 * when its deadline, round the round it precedes.  Returns -1 when the
 * sink failed (recorded in res).
 */
static int
timer_sample(struct result *res, const struct brk *b, sample_sink sink,
    void *sink_arg)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.timer = 1;
	s.when = b->when;
	s.round = res->nrounds + 1;
	s.cpu = sched_getcpu();
	s.pid = getpid();
	s.latency = b->latency;
	s.rq_wait = -1;
	if (feed_sink(res, sink, sink_arg, &s) == -1) {
		fail(res, STOP_SINK, "log");
		return -1;
	}
	return 0;
}

/*
 * With --breaktrace, a latency above the limit marks the trace, stops
 * tracing and ends the run.  Returns 1 when it did.
 */
static int
check_break(const struct loop *L, struct result *res, const struct brk *b)
{
	const struct config *cfg = L->cfg;

	if (cfg->breaktrace <= 0 || b->latency <= cfg->breaktrace)
		return 0;
	res->brk = *b;
	if (trace_break(L->trace, b) == -1)
		res->brk.err = errno;
	res->stop = STOP_BREAK;
	return 1;
}

/*
 * Ends every client: closing its request pipe makes its read() return 0;
 * one that left a request unanswered at the end gets SIGKILL at once, and
 * one that does not leave within a second gets it then.
 * Every client is reaped.  measure_stop(NULL, res) is safe.
 */
void
measure_stop(struct engine *eng, struct result *res)
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
		split_close(&eng->c[i].sp);
		/*
		 * One with a wake-up unanswered (stopped, say) is stuck; a
		 * frame client has nothing to finish.
		 */
		if ((eng->c[i].npending > 0 || eng->c[i].frame) &&
		    !eng->c[i].reaped)
			kill(eng->c[i].pid, SIGKILL);
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
		munmap(eng->sh, eng->shsize);
	}
	free(eng->c);
	free(eng->order);
	free(eng);
}
