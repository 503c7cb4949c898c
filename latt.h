/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared types of latt: the run's settings (struct config), what a run
 * produced (struct result), and the interfaces between the rooms of the
 * house: options.c turns argv into a struct config, latt.c orchestrates,
 * measure.c owns the clients and the measurement loop, workload.c starts
 * and stops everything that runs beside the measurement, tune.c places and
 * prioritises latt's own processes,
 * trace.c talks to tracefs, explain.c reads latt's own trace instance
 * after the run (--explain), report.c prints finished results as text,
 * json.c writes them as JSON and plot.c draws them as SVG.
 */
#ifndef LATT_H
#define LATT_H

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define LATT_VERSION	"1.0"

/* Exit statuses, as documented in latt.1 and README.md. */
#define EXIT_OK		0
#define EXIT_RUNTIME	1	/* fork, pipe, a client died, a write failed */
#define EXIT_USAGE	2
#define EXIT_THRESHOLD	3	/* a --fail-above limit was exceeded */
#define EXIT_WORKLOAD	4	/* the workload failed; summary printed */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL

#define LOAD_MAX	16		/* --load options in one run */
#define LOAD_NMAX	1024		/* processes (pipe: pairs) of one load */
#define WORK_KB_MAX	1048576		/* -x: 1 GiB a client */

/* The built-in loads of --load; LOAD_NONE starts nothing. */
enum load_kind {
	LOAD_NONE,
	LOAD_CPU,
	LOAD_SYSCALL,
	LOAD_YIELD,
	LOAD_FORK,
	LOAD_PIPE,
	LOAD_MEM,
};

/* One --load=KIND:N as given. */
struct load_spec {
	enum load_kind	 kind;
	unsigned	 n;		/* processes; pipe: pairs */
};

/* One --fail-above limit: the run fails when the statistic is above it. */
struct limit {
	enum stat_kind	 stat;		/* stats.h */
	int		 timer;		/* 1: of the timer series */
	int64_t		 value;		/* ns */
};

#define MAX_LIMITS	16

#define CLASS_MAX	32		/* -c N:ATTR classes in one run */
#define CLASS_NAME_MAX	24		/* bytes of a class's name */

/*
 * How a client is to be scheduled: from its class (-c N:ATTR...), or from
 * --policy, --prio and --nice.  Set with sched_setattr(2) and read back
 * with sched_getattr(2) in tune.c.
 */
struct sched_req {
	int		 policy;	/* SCHED_*, or -1: inherited */
	int		 prio;		/* with SCHED_FIFO and SCHED_RR */
	int		 nice;
	int		 set_nice;	/* nice given */
	int64_t		 slice;		/* ns, a fair task's slice; 0: default */
	int64_t		 runtime;	/* SCHED_DEADLINE, ns */
	int64_t		 deadline;
	int64_t		 period;
};

/* What the kernel said a client's attributes were (sched_getattr). */
struct sched_got {
	int		 valid;		/* 0: not read back */
	int		 policy;
	int		 prio;
	int		 nice;
	uint64_t	 runtime;	/* a fair task's slice, or deadline's */
	uint64_t	 deadline;
	uint64_t	 period;
};

/*
 * A class of clients, one -c N:ATTR=VALUE:... each: clients first to
 * first + n - 1, every one set to the same attributes.  A run with one
 * plain -c has no classes at all (nclasses 0), exactly as in 2009.
 */
struct client_class {
	char		 name[CLASS_NAME_MAX + 1];
	const char	*spec;		/* the attributes as given, "" none */
	unsigned	 first;
	unsigned	 n;
	struct sched_req sched;		/* --policy/--prio/--nice, overridden */
	int		*cpus;		/* cpus=, or NULL: --cpus applies */
	unsigned	 ncpus;
};

/*
 * The scheduler in use, read before the run: what the fair class is,
 * sched_ext's state and scheduler, the preemption mode and the EEVDF
 * knobs that can be read.  Strings are malloc'd or NULL when unknown.
 */
struct sched_info {
	const char	*fair;		/* "EEVDF" (6.6 and later) or "CFS" */
	char		*ext_state;	/* /sys/kernel/sched_ext/state */
	char		*ext_ops;	/* /sys/kernel/sched_ext/root/ops */
	int		 ext_present;	/* /sys/kernel/sched_ext exists */
	char		*preemption;	/* "dynamic (full)", "full", "rt"... */
	int64_t		 base_slice;	/* ns; -1: unknown */
	int		 base_slice_debugfs;	/* from debugfs, not a probe */
	char		*features;	/* debugfs sched/features, or NULL */
	int		 autogroup;	/* sched_autogroup_enabled; -1 */
};

/*
 * What of the machine can change under a run and move its numbers (a
 * clocksource found unstable, a governor switched): read when a run starts
 * and again when it ends.  Strings are malloc'd, or NULL where there is
 * none (no cpufreq, no SMT control).
 */
struct machine {
	char		*clocksource;	/* current_clocksource */
	char		*governor;	/* the CPUs' cpufreq governors, each once */
	char		*smt;		/* smt/control */
};

/* tracefs, opened before the run by trace_open; fds are -1 when unused. */
struct trace {
	char		*dir;		/* the tracefs directory */
	int		 marker_fd;	/* trace_marker */
	int		 on_fd;		/* tracing_on */
};

/*
 * --explain: latt's own tracefs instance (explain.c), made before the run
 * and removed at its end; a keeper process removes it if latt dies.
 */
struct kwin;

struct tinst {
	char		*top;		/* the tracefs mount */
	char		*dir;		/* top/instances/latt-PID */
	int		 made;		/* dir exists and is ours to remove */
	pid_t		 keeper;	/* 0: none */
	int		 keeper_fd;	/* its pipe; closing it lets it go */
	int		 keeper_rfd;	/* the pages it kept come back here */
	struct kwin	*win;		/* shared with it: what to keep */
	unsigned	 buf_kb;	/* buffer_size_kb, a CPU */
};

struct config {
	unsigned	 nclients;
	int64_t		 min_delay;	/* ns, the parent's sleep between rounds */
	int64_t		 max_delay;	/* ns */
	int		 verbose;
	uint64_t	 seed;
	char		**cmd;		/* workload argv, NULL-terminated */
	int		 ncmd;		/* 1: run as /bin/sh -c cmd[0]; 0: none */
	struct load_spec load[LOAD_MAX];
	unsigned	 nload;
	int		 load_given;	/* any --load, even --load=none */
	int		 clients_given;	/* -c given */
	int		 bare;		/* no command: the defaults of a bare run */
	unsigned	 work_kb;	/* -x: work after each wake-up, 0: none */

	/* Run control. */
	int64_t		 duration;	/* ns; 0: until the workload ends */
	uint64_t	 samples;	/* stop after this many; 0: no limit */
	int64_t		 warmup;	/* ns; samples sent earlier are dropped */
	int		*cpus;		/* clients pinned round-robin; NULL: no */
	unsigned	 ncpus;
	int		 parent_cpu;	/* -1: not pinned */
	int		 policy;	/* SCHED_*, or -1: inherited */
	int		 prio;		/* with SCHED_FIFO and SCHED_RR */
	int		 nice;
	int		 set_nice;	/* --nice given */
	struct client_class *classes;	/* -c N:ATTR...; NULL: none */
	unsigned	 nclasses;
	unsigned char	*class_of;	/* each client's class, with classes */
	int		 mlock;
	int		 parent_policy;	/* latt's own SCHED_*, or -1: inherited */
	int		 parent_prio;	/* with a real-time parent_policy */
	int		 dma_latency;	/* --dma-latency, us; -1: not held */
	int		 open_loop;	/* --open-loop: rounds keep their times */
	unsigned long	 inherited_slack;	/* timer slack to give the workload */
	int64_t		 breaktrace;	/* ns; 0: off */
	struct trace	 trace;
	unsigned	 explain;	/* --explain=K: autopsies; 0: off */
	int		 schedstat;	/* clients read their schedstat */
	int		 no_split;	/* --no-split: they must not */
	struct tinst	 inst;
	struct limit	 limits[MAX_LIMITS];
	unsigned	 nlimits;
	unsigned	 repeat;	/* --repeat: runs back to back, >= 1 */

	/* Outputs. */
	int		 quiet;		/* no progress line */
	int		 per_client;	/* the per-client table */
	int		 histogram;	/* the text histogram */
	const char	*json_path;	/* "-": stdout, in place of the text */
	const char	*log_path;	/* CSV of every sample */
	const char	*plot_path;	/* SVG */
	const char	*baseline;	/* --baseline: results to compare with */
	const char	*fail_if_worse;	/* --fail-if-worse SPEC */
};

/* One wake-up, as the measurement loop hands it to a sample sink. */
struct sample {
	int64_t		when;		/* ns since the run started */
	uint64_t	round;
	uint32_t	client;
	uint32_t	pos;		/* its place in the round's write order */
	int32_t		cpu;		/* CPU the client woke on, or -1 */
	pid_t		pid;		/* the client's pid */
	int64_t		latency;	/* ns */
	int64_t		work_ns;	/* -x: time of the work after waking */
	int64_t		rq_wait;	/* ns runnable, not running, from the
					   client's schedstat; -1: unknown */
	int		timer;		/* 1: a timer sample (the parent's
					   sleep; client 0, when = deadline) */
};

/*
 * A sink receives every sample as it is taken; it returns 0, or -1 with
 * errno set to end the run (a log file that cannot be written, say).
 */
typedef int (*sample_sink)(void *arg, const struct sample *);

/*
 * A tick is called by the measurement loop between rounds (and during long
 * sleeps), at most once a second, with the sink's argument.  It returns 0,
 * or -1 with errno set to end the run like a failed sink.
 */
struct result;
typedef int (*tick_hook)(void *arg, const struct result *);

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

/*
 * One counter slot per load process, a cache line each so that the
 * processes never share a line; the process stores its running count
 * every few thousand operations (relaxed), the parent reads it at the end.
 */
struct load_slot {
	uint64_t	 ops;
	char		 pad[56];
} __attribute__((aligned(64)));

/* One load as it ran. */
struct load_run {
	enum load_kind	 kind;
	unsigned	 n;		/* as given */
	unsigned	 nproc;		/* processes it runs (pipe: 2n) */
	unsigned	 nlost;		/* processes that ended before the run */
	pid_t		 pgid;		/* its process group, 0: not started */
	uint64_t	 ops;		/* operations completed */
	int64_t		 start;		/* CLOCK_MONOTONIC ns, all forked */
	int64_t		 end;		/* when it was stopped */
	struct load_slot *slot;		/* its first slot in the mapping */
};

struct workload {
	pid_t		 pid;		/* 0: none running */
	int		 tty;		/* the controlling terminal on stdin,
					   for job control; -1: none */
	int		 stopsig;	/* it was seen stopped by this, or 0 */
	int		 interrupted;	/* it died of the terminal's SIGINT or
					   SIGQUIT while it held the terminal */
	int		 status;	/* wait status once reaped */
	int		 reaped;
	int		 stopped_by_us;	/* we signalled it to end the run */
	int		 exec_errno;	/* exec failed in the child */
	int64_t		 start;		/* CLOCK_MONOTONIC ns */
	int64_t		 end;
	struct load_run	 load[LOAD_MAX];
	unsigned	 nload;
	struct load_slot *slots;	/* shared mapping of every load's slots */
	size_t		 nslots;
};

/* What one client saw, kept with --per-client and --json. */
struct client_stats {
	struct stats	 lat;		/* at CLIENT_SUB_BITS precision */
	int32_t		 last_cpu;	/* -1 before the first sample */
	uint64_t	 migrations;	/* wake CPU differed from the last one */
};

/*
 * Per-client histograms are coarse to keep memory at 2.6 KiB a client:
 * a per-client percentile is within 1/2^(3+1) = 6.25% of the truth.
 */
#define CLIENT_SUB_BITS	3

/* What one class of clients saw, with classes. */
struct class_result {
	struct stats	 lat;		/* at STATS_SUB_BITS precision */
	struct stats	 rq;		/* runqueue wait, as result's rq */
	struct stats	 path;		/* the rest: latency minus rq */
	struct blocks	*blocks;	/* its blocks of rounds, or NULL */
	struct sched_got got;		/* its first client's attributes */
};

/* A stretch of the run during which latt was suspended (Ctrl-Z, fg). */
struct suspension {
	int64_t		 from;		/* ns since the run started */
	int64_t		 to;
	int		 sig;		/* what stopped it: SIGTSTP, SIGTTIN... */
};

#define SUSPEND_MAX	16		/* suspensions kept for the reports */
/* A time when latt itself could take no sample: stopped, or starved. */
struct stall {
	int64_t		 when;		/* ns since the run started */
	int64_t		 len;		/* ns */
};

#define STALLS_MAX	16		/* stalls kept; all are counted */

struct result {
	struct stats	 lat;		/* pipe wake-up latency */
	struct stats	 work;		/* -x: time of the work after waking */
	struct stats	 timer;		/* the parent's timer latency: woke
					   minus its absolute deadline */
	struct stats	 rq;		/* runqueue wait of each wake-up */
	struct stats	 path;		/* the rest: latency minus rq */
	uint64_t	 discarded;	/* samples dropped in the --warmup */
	struct client_stats *clients;	/* nclients of them, or NULL */
	struct class_result *classes;	/* cfg->nclasses of them, or NULL */
	struct sched_info sched;	/* the scheduler in use */
	struct machine	 mach;		/* the machine when the run started */
	struct machine	 mach_end;	/* and when it ended */
	struct timeline	*timeline;	/* latency over time for --plot, or NULL */
	struct blocks	*lat_blocks;	/* per-block histograms for latt
					   compare (--json, --baseline), or NULL */
	struct blocks	*timer_blocks;
	struct blocks	*rq_blocks;	/* the same, for the schedstat split */
	struct blocks	*path_blocks;
	struct timeline	*timer_timeline;	/* the timer's, for --plot */
	int64_t		 start_wall;	/* CLOCK_REALTIME ns at the start */
	int64_t		 suspended;	/* ns suspended in all, not measured */
	unsigned	 nsuspend;	/* times suspended */
	struct suspension susp[SUSPEND_MAX];	/* the first SUSPEND_MAX */
	int64_t		 susp_last_from;	/* the last one, CLOCK_MONOTONIC */
	int64_t		 susp_last_to;
	uint64_t	 susp_dropped;	/* wake-ups in flight across one */
	int		 wl_stopsig;	/* the workload was stopped by this
					   signal from outside latt, or 0 */
	int64_t		 wl_stop_at;	/* when, ns since the run started */
	uint64_t	 nrounds;
	int64_t		 start;		/* CLOCK_MONOTONIC ns of the run's start */
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

	/* --explain: the K worst samples, worst first, and the last one. */
	struct sample	*worst;
	unsigned	 nworst;
	struct sample	 last;
	int		 have_last;
	struct autopsy	*autopsy;	/* read after the run, or NULL */
};

/* Flags set by latt.c's signal handlers, read by the loops. */
extern volatile sig_atomic_t got_stop;		/* signal number, or 0 */
extern volatile sig_atomic_t got_child;
extern volatile sig_atomic_t got_tstp;		/* SIGTSTP: suspend the run */

int64_t	 now_ns(void);
/* options.c: argv into a struct config; bad input exits 2 with one line. */
void	 config_parse(int, char **, struct config *);
long long parse_num(const char *name, const char *s, long long min,
	    long long max);
void	 usage_error(const char *, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));

/* measure.c */
struct engine;
struct engine	*clients_start(const struct config *, struct result *);
int	 measure_run(const struct config *, struct engine *, struct result *,
	    sample_sink, tick_hook, void *sink_arg);
void	 clients_stop(struct engine *, struct result *);
void	 clients_signal(struct engine *, int sig);

/* workload.c */
int	 workload_start(const struct config *, struct workload *);
int	 workload_poll(struct workload *);
int	 workload_reap(struct workload *);
void	 workload_stop(struct workload *, int sig);
int	 job_stop_signal(struct workload *);
void	 job_suspend(struct workload *, int sig);
int	 workload_failed(const struct workload *);
char	*workload_describe(const struct config *);

/* loads.c */
int	 load_kind(const char *name, size_t len);
const char *load_name(enum load_kind);
const char *load_unit(enum load_kind);
unsigned load_nproc(enum load_kind, unsigned n);
size_t	 load_mem_bytes(void);
void	 load_body(enum load_kind, struct load_slot *, size_t membytes)
	    __attribute__((noreturn));
/* tune.c */
int	 tune_check(const struct config *);
int	 tune_parent(const struct config *);
int	 tune_pin_parent(const struct config *);
int	 tune_sched_parent(const struct config *);
int	 tune_dma_open(const struct config *);	/* fd, -2: off, -1: failed */
int	 tune_client(const struct config *, unsigned, const char **,
	    struct sched_got *);
void	 tune_workload(const struct config *);
const char *tune_policy_name(int);
void	 sched_info_read(struct sched_info *);
void	 sched_info_free(struct sched_info *);
void	 machine_read(struct machine *);
void	 machine_copy(struct machine *, const struct machine *);
void	 machine_free(struct machine *);
const char *machine_changed(const struct machine *, const struct machine *,
	    const char **, const char **, unsigned *);

/*
 * tune.c, for every room: a small /proc or sysfs file read whole (trailing
 * newlines, spaces and NULs cut; NULL when unreadable or empty) or as one
 * number (-1 when unreadable).
 */
char	*file_text(const char *path);
long long file_ll(const char *path);

/* trace.c */
char	*trace_find(void);
int	 trace_open(struct trace *, const char **);
int	 trace_is_on(const struct trace *);
int	 trace_break(const struct trace *, const struct brk *);
void	 trace_close(struct trace *);

/* measure.c: whether a client can read its own run delay. */
int	 schedstat_probe(void);

/* report.c */
#define PCT_BEYOND	10	/* samples beyond a percentile shown */
#define FEW_SAMPLES	1000	/* fewer: the summary says so */
uint64_t report_pct_need(double q);	/* samples a quantile needs */
void	 report_text(FILE *, const struct config *, const struct result *);
int	 report_verbose(FILE *, const struct sample *);	/* < 0: failed */
unsigned report_limits(FILE *, const struct config *, const struct result *);
void	 report_per_client(FILE *, const struct config *, const struct result *);
void	 report_histogram(FILE *, const struct result *, int width);
void	 report_progress(FILE *, const struct config *, const struct result *,
	    int64_t now, int width);
char	*fmt_time(char *, size_t, double ns, int digits, const char *micro);

/*
 * json.c: json_write_run writes one run as an object of the "runs" array;
 * json_write writes the whole file: the runs' totals at the top level and
 * runs (json_write_run's objects, joined by commas) as the array.  Both
 * return 0, or -1 with errno set when fp failed.
 */
int	 json_write_run(FILE *, const struct config *, const struct result *);
int	 json_write(FILE *, const struct config *, const struct result *total,
	    unsigned nruns, const char *runs);

/* plot.c: returns 0, or -1 with errno set when fp failed. */
int	 plot_write(FILE *, const struct config *, const struct result *);

#endif /* LATT_H */
