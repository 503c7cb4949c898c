/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.h: what a run produced, and what the reports read: the
 * statistics of its series, the per-client and per-class figures, the
 * record of the scheduler and the machine, how the run ended, and what
 * the samples cannot show.  Written by the rooms that measure; read, once
 * the run is over, by report.c, json.c, plot.c and compare's writer.
 */
#ifndef RESULT_H
#define RESULT_H

#include <sys/types.h>

#include <stdint.h>

#include "config.h"
#include "proc/tune.h"
#include "proc/workload.h"
#include "record/counts.h"
#include "record/env.h"
#include "record/floor.h"
#include "record/noise.h"
#include "record/order.h"
#include "stats.h"

struct topo;

/* One wake-up, as the measurement loop hands it to a sample sink. */
struct sample {
	int64_t		when;		/* ns since the run started */
	uint64_t	round;
	uint32_t	client;
	uint32_t	pos;	/* its place in the round's write order */
	int32_t		cpu;		/* CPU the client woke on, or -1 */
	int32_t		waker_cpu;	/* the parent's as it wrote, or -1 */
	int		place;		/* cpu against waker_cpu: enum
					   place_kind (topo.h); not for a
					   timer sample */
	int		migrated;	/* 1: cpu is not the CPU of the
					   client's wake-up before */
	pid_t		pid;		/* the client's pid */
	int64_t		latency;	/* ns */
	int64_t		work_ns;	/* -x: time of the work after waking */
	int64_t		busy_ns;	/* its busy phase's real length, or
					   -1: none */
	int64_t		rq_wait;	/* ns runnable, not running, from the
					   client's schedstat; -1: unknown or
					   not a round of the split */
	int		timer;		/* 1: a timer sample (the parent's
					   sleep; client 0, when = deadline) */
};

enum stop_reason {
	STOP_NONE,
	STOP_WORKLOAD,		/* the workload exited */
	STOP_SIGNAL,		/* latt got SIGINT, SIGTERM or SIGHUP */
	STOP_CLIENT,		/* a client died */
	STOP_ERROR,		/* a system call failed */
	STOP_SINK,		/* a sample sink failed */
	STOP_DURATION,		/* --duration elapsed */
	STOP_SAMPLES,		/* --samples were taken */
	STOP_BREAK,		/* --breaktrace: a latency above the limit */
};

/* What --breaktrace caught, for the report. */
struct brk {
	int		 timer;		/* 1: the timer series, 0: a client */
	uint32_t	 client;
	int64_t		 latency;	/* ns */
	int64_t		 when;		/* ns since the run started */
	int		 err;		/* errno of writing tracefs, or 0 */
};

/* What one client saw, kept with --per-client and --json. */
struct client_stats {
	struct stats	 lat;		/* at CLIENT_SUB_BITS precision */
	int32_t		 last_cpu;	/* -1 before the first sample */
	uint64_t	 migrations; /* wake CPU differed from the last one */
};

/*
 * Per-client histograms are coarse to keep memory at 2.6 KiB a client:
 * a per-client percentile is within 1/2^(3+1) = 6.25% of the truth.
 */
#define CLIENT_SUB_BITS	3

/*
 * The series a run can take, each a statistic of its own over the run's
 * samples.  A new series is an entry here and in series_info (result.c):
 * making, resetting, merging and freeing results, the JSON, and latt
 * compare's rows walk the list.
 */
enum series_id {
	SER_LATENCY,		/* pipe wake-up latency */
	SER_TIMER,		/* the parent's timer latency: woke minus its
				   absolute deadline */
	SER_WORK,		/* -x: time of the work after waking */
	SER_RUNQUEUE,		/* runqueue wait of each wake-up (schedstat) */
	SER_WAKE_PATH,		/* the rest: latency minus runqueue wait */
	SER_BUSY,		/* busy=: the busy phase's real length */
	SER_FRAME_WAKE,		/* frame=: a frame's wake-up latency against
				   its start (frame classes only) */
	SER_FRAME_TIME,		/* frame=: a frame's time, start to the end
				   of its work */
	SER_PLACE_SAME_CPU,	/* the latency of each placement kind, in
				   the order of enum place_kind (topo.h) */
	SER_PLACE_SMT_SIBLING,
	SER_PLACE_SAME_LLC,
	SER_PLACE_OTHER_LLC,
	SER_PLACE_OTHER_NODE,
	SER_N
};
#define SER_PLACE(kind)	(SER_PLACE_SAME_CPU + (kind))

/* One series of a run. */
struct series {
	int		 on;		/* this run takes it */
	struct stats	 st;
	struct timeline	*tl;		/* over time, for --plot, or NULL */
};

/* What each series is, for the rooms that walk the list. */
struct series_info {
	const char	*name;		/* its JSON key and compare's name */
	int		 client;	/* its samples are a client's (the JSON
					   names the worst one's client) */
	int		 frame;		/* a frame class's, written in its
					   "frames" (json.c) */
	int		 place;		/* a placement kind's, written in
					   "placement" (json.c) */
};

extern const struct series_info series_info[SER_N];

/*
 * The deadlines of a frame class (frame=), every one of its clients'
 * together.  A deadline is a frame's next start: it was met when the
 * frame's work was done by then; a frame done later missed it, and the
 * boundaries passed while it still worked are frames not started, misses
 * too.  A stutter is a run of deadlines missed in a row by one client.
 */
struct frame_counts {
	uint64_t	 frames;	/* started (and done) */
	uint64_t	 met;
	uint64_t	 missed;	/* done late */
	uint64_t	 not_started;
	uint64_t	 longest;	/* the longest stutter, deadlines */
};

/* What one class of clients saw, with classes. */
struct class_result {
	struct series	 ser[SER_N];	/* latency, the split and the busy
					   phase, as the run's, or a frame
					   class's two series */
	struct frame_counts fr;		/* a frame class's deadlines */
	struct sched_got got;		/* its first client's attributes */
};

/* The deadlines of fr: all of them, and the share missed (0 to 100). */
static inline uint64_t
frame_deadlines(const struct frame_counts *fr)
{
	return fr->frames + fr->not_started;
}

static inline double
frame_missed_pct(const struct frame_counts *fr)
{
	return frame_deadlines(fr) == 0 ? 0 : 100.0 * (double)(fr->missed +
	    fr->not_started) / (double)frame_deadlines(fr);
}

/* A stretch of the run during which latt was suspended (Ctrl-Z, fg). */
struct suspension {
	int64_t		 from;		/* ns since the run started */
	int64_t		 to;
	int		 sig;	/* what stopped it: SIGTSTP, SIGTTIN... */
};

#define SUSPEND_MAX	16		/* suspensions kept for the reports */
/* A time when latt itself could take no sample: stopped, or starved. */
struct stall {
	int64_t		 when;		/* ns since the run started */
	int64_t		 len;		/* ns */
};

#define STALLS_MAX	16		/* stalls kept; all are counted */

/*
 * One value of a --sweep, over its runs: the latency of all of them
 * together, each run's mean (for the interval over runs), what the kernel
 * counted, and each load's operations.
 */
struct sweep_point {
	const char	*value;		/* as given */
	unsigned	 nruns;
	struct stats	 lat;		/* its runs' wake-ups together */
	double		*means;		/* each run's mean latency, ns */
	double		 mean;		/* of the runs' means, ns */
	double		 half;		/* half width of its 95% interval (t
					   over the runs), -1: under 3 runs */
	double		*runpct;	/* each run's p50 and p99, ns, two a
					   run; -1: too few samples for it */
	double		 pct_f[2];	/* the p50's and p99's 95% interval
					   over the runs, as a factor: the
					   value's p50 / f to p50 * f (t over
					   the logarithms); -1: under 3 runs
					   with it */
	struct counts	 counts;	/* its runs' together */
	unsigned	 nload;
	enum load_kind	 load_kind[LOAD_MAX];
	uint64_t	 load_ops[LOAD_MAX];	/* its runs' together */
	int64_t		 load_ns[LOAD_MAX];	/* the time they ran */
	unsigned	 load_nproc[LOAD_MAX];	/* of the last run */
	size_t		 (*json)[2];	/* its runs in the runs' JSON
					   text: [from, to) a step, at most
					   --repeat of them */
	unsigned	 njson;
	unsigned	 wl_runs;	/* runs where the command exited 0
					   by itself: */
	int64_t		 wl_wall;	/* its wall time, all those runs */
	int64_t		 wl_cpu;	/* its CPU time */
};

struct sweep_result {
	const char	*name;		/* the setting swept */
	const char	*file;	/* a knob's file, or NULL */
	unsigned	 n;
	struct sweep_point *pt;
};

struct result {
	struct series	 ser[SER_N];	/* what the run measured */
	uint64_t	 discarded;	/* samples dropped in the --warmup */
	struct client_stats *clients;	/* nclients of them, or NULL */
	struct class_result *classes;	/* cfg->nclasses of them, or NULL */
	struct environment env;		/* the machine and kernel */
	struct sched_info sched;	/* the scheduler in use */
	struct machine	 mach;		/* the machine when the run started */
	struct machine	 mach_end;	/* and when it ended */
	int64_t		 start_wall;	/* CLOCK_REALTIME ns at the start */
	int64_t		 suspended;	/* ns suspended in all, not measured */
	unsigned	 nsuspend;	/* times suspended */
	struct suspension susp[SUSPEND_MAX];	/* the first SUSPEND_MAX */
	int64_t		 susp_last_from; /* the last one, CLOCK_MONOTONIC */
	int64_t		 susp_last_to;
	uint64_t	 susp_dropped;	/* wake-ups in flight across one */
	int		 wl_stopsig;	/* the workload was stopped by this
					   signal from outside latt, or 0 */
	int64_t		 wl_stop_at;	/* when, ns since the run started */
	uint64_t	 nrounds;
	uint64_t	 split_rounds;	/* rounds drawn for the split */
	uint64_t	 split_left_out;	/* their samples without one: the
					   client ran twice between reads */
	int64_t		 start;	/* CLOCK_MONOTONIC ns of the run's start */
	int64_t		 end;
	enum stop_reason stop;
	int		 stop_signal;	/* with STOP_SIGNAL */
	const char	*fail_what;	/* with STOP_ERROR or STOP_SINK */
	int		 fail_errno;
	unsigned	 dead_client;	/* with STOP_CLIENT */
	pid_t		 dead_pid;
	int		 dead_status;	/* wait status, or -1 if not reaped */
	struct workload	 wl;
	struct brk	 brk;		/* with STOP_BREAK */
	struct counts	 counts;	/* what the kernel counted */
	struct noise	 noise;		/* what else ran (noise.h) */
	struct own_floor	 floor;		/* latt's own floor, at start-up */
	const struct topo *topo;	/* the CPU topology (topo.h), read
					   once: the samples' placement */
	uint64_t	 place_unknown;	/* samples of no placement kind */
	uint64_t	 migrated;	/* samples that woke on another CPU
					   than the client's wake-up before */
	const struct sweep_result *sweep;	/* --sweep's points, or NULL */
	char		 knob_moved[64];	/* what a swept knob held at the
					   run's end, another writer's ("":
					   the run's value) */

	/* Honesty: what the samples above cannot show. */
	uint64_t	 npending;	/* wake-ups unanswered at the end */
	int64_t		 pending_age;	/* ns, the oldest one's age: a lower
					   bound of its latency */
	uint32_t	 pending_client;	/* whose it was */
	uint64_t	 nunsent;	/* open loop: requests that did not
					   fit a stalled client's pipe */
	struct stall	 stalls[STALLS_MAX];	/* the first ones */
	uint64_t	 nstalls;	/* all of them */
	int64_t		 stall_total;	/* ns */
	int64_t		 waited;	/* closed loop: ns its rounds waited on
					   replies past the next one's time */
	int64_t		 waited_stalls;	/* stall_total as last counted */

	/* --explain: the K worst samples, worst first, and the last one. */
	struct sample	*worst;
	unsigned	 nworst;
	struct sample	 last;
	int		 have_last;
	struct autopsy	*autopsy;	/* read after the run, or NULL */
	struct order	*order;		/* the real-time order check
					   (order.h), or NULL: none */
};

/* A value into a series: its statistics. */
static inline void
series_add(struct series *s, int64_t v, uint32_t tag, int64_t when)
{
	stats_add(&s->st, v, tag, when);
}

int	 result_init(struct result *, const struct config *, int split,
	    int keep);
void	 result_reset(struct result *, const struct config *);
void	 result_merge(struct result *total, const struct result *,
	    const struct config *);
void	 result_free(struct result *, const struct config *, int owned);
/* Whether the workload failed: it could not run, or ended badly unasked. */
int	 result_workload_failed(const struct workload *);

#endif /* RESULT_H */
