/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.c: turns latt's argv into a struct config.  The options are one
 * table, opts[]: for each its names, the kind of value it takes with the
 * bounds of that value, and where the value lands.  options_parse walks it
 * with getopt_long, then checks the combinations.  Every number from the
 * user goes through parse_num or parse_time (common.c); every bad value or
 * combination is a one-line usage error and exit status 2, before anything
 * runs.  --help is made from the table too: each row carries its task and
 * its help (help.c holds the prose round them).
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/cpulist.h"
#include "cli/help.h"
#include "cli/options.h"
#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "proc/tune.h"
#include "record/order.h"
#include "report/gate.h"
#include "sweep/sweep.h"

#define MAX_CLIENTS	1000000
#define MAX_DELAY_NS	(3600 * NSEC_PER_SEC)	/* one hour */
#define MAX_REPEAT	1000
#define DFLT_MIN_DELAY_NS	(100 * NSEC_PER_MSEC)	/* -f of 2009 */
#define DFLT_MAX_DELAY_NS	(500 * NSEC_PER_MSEC)	/* -t of 2009 */
#define CMD_MIN_DELAY_NS	(10 * NSEC_PER_MSEC)	/* -f with a command */
#define CMD_MAX_DELAY_NS	(90 * NSEC_PER_MSEC)	/* -t with a command */
#define CMD_CLIENTS	8	/* the clients those delays are for */
#define BARE_DURATION_NS	(10 * NSEC_PER_SEC)
#define BARE_CLIENTS	8
#define BARE_MIN_DELAY_NS	(1 * NSEC_PER_MSEC)
#define BARE_MAX_DELAY_NS	(3 * NSEC_PER_MSEC)
#define HOUR_NS		(3600 * NSEC_PER_SEC)
#define MAX_TIME_NS	(8760 * HOUR_NS)	/* a year */
#define CLASS_AUTONAME_MAX	16	/* a class named by its attributes */
#define DMA_LATENCY_MAX	2000000000	/* us: what the kernel's s32 holds */
#define SPLIT_EVERY	8	/* --split: 1 in this many rounds by default */
#define CLASS_ATTRS	"(nice, policy, prio, slice, runtime, deadline, " \
	"period, busy, frame, cpus, name)"
#define BUSY_MAX_NS	(10 * NSEC_PER_SEC)	/* busy=, --busy */
#define FRAME_MIN_NS	(100 * NSEC_PER_USEC)	/* frame= */
#define FRAME_MAX_NS	(1 * NSEC_PER_SEC)
#define HELP_COL	24	/* --help: where an option's text starts */
#define HELP_WIDTH	78
#define HELP_INDENT	12	/* the usage lines' */

/*
 * The -c options as given; classes when one has attributes or -c repeats.
 * A class's own prio= and nice= wait in its sched_req (prio 0, set_nice
 * 0: not given) until resolve_class.
 */
struct class_arg {
	const char	*arg;		/* N or N:ATTR=VALUE:... */
	int		 policy;	/* policy=, or -2: not given */
};

/*
 * What the option loop gathers: the settings, and the few values that are
 * settled only once every option is read.  cfg goes to the caller whole.
 */
struct parse {
	struct config	 cfg;
	struct class_arg cargs[CLASS_MAX];	/* the -c options, in order */
	unsigned	 nc;
	int64_t		 min;		/* -f, ns; -1: not given */
	int64_t		 max;		/* -t, ns; -1: not given */
	int		 prio;		/* --prio; -1: not given */
	int		 pprio;		/* --parent-prio; -1: not given */
	int		 json_bare;	/* --json without =FILE */
	int		 ktap_bare;	/* --ktap without =FILE */
	int		 explain_bare;	/* --explain without =K */
};

/* The kind of value an option takes, and so how the loop reads it. */
enum value {
	V_FLAG,		/* none: the int it lands in becomes 1 */
	V_NUM,		/* parse_num within [min, max] */
	V_TIME,		/* parse_time within [min, max]; a bare number: unit */
	V_FILE,		/* a file name, never empty */
	V_STR,		/* a string, as given */
	V_CALL,		/* a value, read by set */
	V_CALL_OPT,	/* set, with the value attached (--json=FILE) or NULL */
	V_CALL_NONE,	/* set, without a value */
};

/* The tasks --help lists the options by, in its order. */
enum group {
	G_RUN, G_CLIENTS, G_LOAD, G_OUT, G_GATE, G_EXPLAIN,
	G_END		/* after the prose of latt compare: -h, -V */
};

/*
 * One option: its long name, its short letters (at most two), its value
 * and the bounds of that value, and where the value lands: off and size
 * place an int, a 64-bit integer or a string in struct parse; set is
 * called for a value that needs more than that.  Then its --help: its
 * task, its value's name, and its text; a line of the text after a
 * newline is another form of the option, its head, a tab and its text.
 */
struct opt {
	const char	*name;
	char		 letters[3];
	enum value	 value;
	long long	 min;
	long long	 max;
	long long	 unit;		/* V_TIME: a bare number's, in ns */
	size_t		 off;
	size_t		 size;
	void		(*set)(struct parse *, const struct opt *, char *);
	enum group	 group;
	const char	*arg;
	const char	*help;
};
typedef void setter(struct parse *, const struct opt *, char *);

/* The columns of a row after its names, for each kind of value. */
#define AT(f)	offsetof(struct parse, f), sizeof(((struct parse *)0)->f)
#define AT_OFF(f)	offsetof(struct parse, f)
#define FLAG(f)			V_FLAG, 0, 0, 0, AT(f), NULL
#define NUM(min, max, f)	V_NUM, min, max, 0, AT(f), NULL
#define TIME(min, max, unit, f)	V_TIME, min, max, unit, AT(f), NULL
#define FILENAME(f)		V_FILE, 0, 0, 0, AT(f), NULL
#define STRING(f)		V_STR, 0, 0, 0, AT(f), NULL
#define CALL(v, min, max, fn)	v, min, max, 0, 0, 0, fn

/* getopt_long's val of a long option: OPT_BASE + its row, past any letter. */
#define OPT_BASE	256

static setter	 add_class, parse_load, set_cpus, parse_policy, set_nice,
		    set_explain, parse_limits, set_json, set_ktap, set_level,
		    set_split, set_sweep, show_about;
static void	 print_synopsis(void);
static void	 print_opt(const struct opt *);
static int	 takes(const struct opt *);
static void	 start_parse(struct parse *);
static void	 make_getopt(struct option *, char *);
static const struct opt *find_opt(int);
static void	 bad_option(const char *, const struct option *)
		    __attribute__((noreturn));
static void	 take(struct parse *, const struct opt *, char *);
static const char *file_name(const struct opt *, const char *);
static void	 settle_clients(struct parse *);
static void	 settle_delays(struct parse *, int);
static void	 check_outputs(const struct config *);
static void	 settle_sched(struct parse *);
static void	 check_run(const struct config *);
static void	 take_command(struct parse *, char **, int);
static int	 is_stdout(const char *);
static void	 bare_defaults(struct parse *);
static void	 parse_class(struct class_arg *, struct client_class *);
static void	 resolve_class(const struct config *, struct class_arg *,
		    struct client_class *);
static void	 name_classes(struct config *);
static void	 make_classes(struct config *, struct class_arg *, unsigned);
static int	 latt_option(const char *);
static unsigned	 load_default_n(void);

/*
 * latt's options, by task.  A long name may be shortened (--cl) while it
 * fits only one.  The bounds of a time are in ns, a bare number in its
 * unit; the long name is the one that error messages give.
 */
static const struct opt opts[] = {
	{ "duration", "d", TIME(1, MAX_TIME_NS, NSEC_PER_SEC, cfg.duration),
	    G_RUN, "TIME", "stop after TIME (30, 1.5, 2.5s, 5m; bare: "
	    "seconds), ending the workload (a normal end); time suspended does "
	    "not count" },
	{ "samples", "n", NUM(1, LLONG_MAX, cfg.samples), G_RUN, "N",
	    "stop after exactly N latencies" },
	{ "min-delay", "fs", TIME(0, MAX_DELAY_NS, NSEC_PER_MSEC, min),
	    G_RUN, "TIME", "shortest sleep between rounds (a bare number is "
	    "ms, 200us is shorter); -s too. Default with COMMAND: 10 ms, for "
	    "up to 8 clients (more: in proportion, at most 100 ms); 100 ms "
	    "with -t alone" },
	{ "max-delay", "tS", TIME(0, MAX_DELAY_NS, NSEC_PER_MSEC, max),
	    G_RUN, "TIME", "longest sleep between rounds; -S too. Default with "
	    "COMMAND: 90 ms for up to 8 clients (at most 500 ms); 500 ms with "
	    "-f alone" },
	{ "warmup", "", TIME(0, MAX_TIME_NS, NSEC_PER_SEC, cfg.warmup),
	    G_RUN, "TIME", "drop the latencies of the first TIME (seconds)" },
	{ "seed", "", NUM(0, LLONG_MAX, cfg.seed), G_RUN, "N",
	    "seed of the random sleeps (default: from the clock; always "
	    "printed)" },
	{ "repeat", "", NUM(1, MAX_REPEAT, cfg.repeat), G_RUN, "N",
	    "the whole run N times (all started afresh), one summary of all; "
	    "--json holds the N runs, which latt compare reads as N runs" },
	{ "sweep", "", CALL(V_CALL, 0, 0, set_sweep), G_RUN, "NAME=V1,V2,...",
	    "the whole run once per value (times --repeat) of clients, load "
	    "(the N of the one --load), work, slice (us) or delay (-f = -t, "
	    "ms): a table a value (p50 p90 p99, mean +-95% from 3 runs, "
	    "switches/s, runnable, the load's rate); --json groups the runs "
	    "(latt compare FILE@V); --plot draws the curve\n"
	    "      --sweep=/FILE=V1,V2,...\ta kernel knob (/proc/sys, /sys, "
	    "debugfs): each value written to FILE and read back before its "
	    "run, values interleaved run by run (V1 V2 V1 V2 ... with "
	    "--repeat), FILE's content written back at any end (kill -9: by a "
	    "guardian), one latt a knob, another writer's value in it at a "
	    "run's end ends the sweep (status 1) and is left; the table adds "
	    "the workload's wall "
	    "and CPU time, and two values end with their comparison (latt "
	    "compare --by-knob FILE.json)" },
	{ "open-loop", "", FLAG(cfg.open_loop), G_RUN, NULL,
	    "send each round on time, replies in or not, so a stall is sampled "
	    "in proportion to its length (default: 2009's closed loop)" },
	{ "split", "", CALL(V_CALL, 1, MAX_CLIENTS, set_split), G_RUN, "all|N",
	    "runqueue-wait split of every round, or 1 in N at random (default "
	    "8), read by latt off the wake-ups" },
	{ "no-split", "", FLAG(cfg.no_split), G_RUN, NULL,
	    "no runqueue-wait split (the last of the two counts)" },
	{ "dma-latency", "", NUM(0, DMA_LATENCY_MAX, cfg.dma_latency),
	    G_RUN, "US", "hold /dev/cpu_dma_latency at US for the run (root)" },
	{ "mlock", "m", FLAG(cfg.mlock), G_RUN, NULL,
	    "lock latt's and the clients' memory" },
	{ "clients", "c", CALL(V_CALL, 0, 0, add_class),
	    G_CLIENTS, "N[:ATTR=VALUE...]", "N client processes (default 1); "
	    "with attributes, a class of N clients, woken in the same rounds, "
	    "reported apart; repeatable. ATTR: nice, policy (other batch idle "
	    "fifo rr deadline), prio, slice (Linux 6.12+), runtime, deadline, "
	    "period (bare: us), busy, frame, cpus, name. Tried before the run: "
	    "a refusal is status 2 naming the cause\n"
	    "  -c N:frame=T:busy=W\ta frame class: each client wakes every T "
	    "on its own timer (not in the rounds), does W of work, and counts "
	    "the deadlines (the next start) met, missed and not started: the "
	    "Frames block" },
	{ "cpus", "", CALL(V_CALL, 0, 0, set_cpus), G_CLIENTS, "LIST",
	    "pin the clients round-robin over LIST in its order (0-3,8; 3,1 "
	    "puts client 0 on CPU 3); no CPU twice" },
	{ "parent-cpu", "", NUM(0, CPU_SETSIZE - 1, cfg.parent_cpu),
	    G_CLIENTS, "N", "pin latt itself to CPU N" },
	{ "policy", "", CALL(V_CALL, 0, 0, parse_policy), G_CLIENTS, "NAME",
	    "clients' policy: other, batch, idle, fifo, rr" },
	{ "prio", "", NUM(0, 99, prio), G_CLIENTS, "N",
	    "clients' real-time priority (alone: fifo)" },
	{ "nice", "", CALL(V_CALL, -20, 19, set_nice), G_CLIENTS, "N",
	    "clients' nice value" },
	{ "parent-prio", "", NUM(0, 99, pprio), G_CLIENTS, "N",
	    "latt's own policy: 0 SCHED_OTHER, 1-99 SCHED_FIFO N (default with "
	    "fifo/rr clients or classes: FIFO one below them, so a woken "
	    "client preempts the sender)" },
	{ "busy", "", TIME(1, BUSY_MAX_NS, NSEC_PER_USEC, cfg.busy),
	    G_CLIENTS, "TIME", "each client spins after waking for what takes "
	    "TIME (us) on an idle CPU: the busy series (class busy=); latt is "
	    "then FIFO above fifo/rr clients, a round released together" },
	{ "order-slack", "", TIME(0, HOUR_NS, NSEC_PER_USEC, cfg.order_slack),
	    G_CLIENTS, "TIME", "fifo/rr clients: one that starts TIME (default "
	    "500us) after a lower priority of its round, and after its own "
	    "wake-up, is an inversion" },
	{ "load", "l", CALL(V_CALL, 0, 0, parse_load),
	    G_LOAD, "KIND[:N][:cpus=LIST]", "a built-in load beside COMMAND, N "
	    "processes (default one per CPU), repeatable: cpu (a spin), "
	    "syscall, yield, fork (fork, exec, wait), pipe (N pairs passing a "
	    "token), mem (a buffer larger than the last-level cache) or none; "
	    "cpus=LIST pins them round-robin (-l yield:4:cpus=1: a run queue "
	    "of 4)" },
	{ "work", "x", NUM(0, WORK_KB_MAX, cfg.work_kb), G_LOAD, "KB",
	    "after each wake-up every client works over a KB buffer, timed in "
	    "a row of its own (default 0: off)" },
	{ "json", "", CALL(V_CALL_OPT, 0, 0, set_json), G_OUT, "FILE",
	    "write the results as JSON (docs/json-schema.md) to FILE "
	    "(attached: --json=FILE); to stdout, in place of the summary, with "
	    "no FILE or with - (the workload's stdout then goes to stderr)" },
	{ "log", "", FILENAME(cfg.log_path), G_OUT, "FILE",
	    "every sample as CSV: time_ns, round, client, cpu, latency_ns, pos "
	    "(in its round's random order), rq_wait_ns, series (wake, timer: "
	    "client -1), run, waker_cpu, place (same_cpu, smt_sibling, "
	    "same_llc, other_llc, other_node); in time order per run; a write "
	    "error ends the run" },
	{ "plot", "", FILENAME(cfg.plot_path), G_OUT, "FILE.svg",
	    "the run as SVG: latency by percentile (a curve a placement kind "
	    "when it woke in two), over time, its distribution, and what else "
	    "ran (others' CPU, pressure, runnable tasks, noisy or not) in a "
	    "strip (output files are checked before the run, written beside "
	    "and renamed into place; two outputs into one file are an error)" },
	{ "details", "", FLAG(cfg.details), G_OUT, NULL,
	    "every fact of the run after the summary: how it ran and ended, "
	    "on what, where it woke, latt's floor, the seed (always in --json)" },
	{ "histogram", "", FLAG(cfg.histogram), G_OUT, NULL,
	    "print a text histogram after the summary" },
	{ "per-client", "", FLAG(cfg.per_client), G_OUT, NULL,
	    "print a table per client after the summary: samples, mean, max, "
	    "p99 (within 6.25%), migrations" },
	{ "quiet", "q", FLAG(cfg.quiet), G_OUT, NULL,
	    "no progress line on stderr (drawn without COMMAND at a terminal, "
	    "past 2 s, without -v), nor a line as each --repeat run ends" },
	{ "verbose", "v", FLAG(cfg.verbose), G_OUT, NULL,
	    "print every latency on stderr as it is logged (a stderr that "
	    "cannot be written ends the run)" },
	{ "fail-above", "", CALL(V_CALL, 0, 0, parse_limits), G_GATE, "SPEC",
	    "limits, e.g. p99=500us,timer.max=5ms (min mean stdev p50 p90 p95 "
	    "p99 p99.9 p99.99 max, timer.STAT; inversions=N for the real-time "
	    "order check; CLASS.missed=PCT% for a frame class's deadlines; "
	    "each TIME with its unit: ns us ms s m h), of all --repeat runs "
	    "together: exit 3 when one is exceeded, 5 when too few samples "
	    "cannot tell; on stderr a line starts gate:, then with several "
	    "limits a line each" },
	{ "baseline", "", STRING(cfg.baseline), G_GATE, "A.json[,A2.json...]",
	    "after the summary, compare this run (or these runs) with saved "
	    "results, as latt compare would" },
	{ "fail-if-worse", "", STRING(cfg.fail_if_worse), G_GATE, "SPEC",
	    "with --baseline, e.g. p99=10%: exit 3 when a row's 97.5% interval "
	    "lies wholly above its limit, 5 when it holds it or the row has no "
	    "verdict (3 runs a side needed); one 'gate:' line on stderr" },
	{ "confidence", "", CALL(V_CALL, 0, 0, set_level), G_GATE, "PCT",
	    "with --baseline or a sweep, the intervals' confidence, 80 to "
	    "99.9 (default 97.5), as latt compare --confidence" },
	{ "drop-noisy", "", FLAG(cfg.drop_noisy), G_GATE, NULL,
	    "with --baseline, leave out the runs marked noisy, the file's and "
	    "this run's, as latt compare --drop-noisy does; without it they "
	    "are named" },
	{ "bisect", "", FLAG(cfg.bisect), G_GATE, NULL,
	    "exit statuses for git bisect run: 0 met, 1 exceeded; 125 (skip "
	    "the commit) when latt cannot tell or the workload failed or was "
	    "not found; 255 (abort) on a usage error or latt's own failure. "
	    "Needs a gate" },
	{ "ktap", "", CALL(V_CALL_OPT, 0, 0, set_ktap), G_GATE, "FILE",
	    "the gates as KTAP version 1 for kernel CI: a test a limit, ok "
	    "when met, not ok when exceeded, ok # SKIP when latt cannot tell "
	    "(without a gate one test, the run, ok with samples); to stdout "
	    "with no FILE or with - (the summary and the workload's stdout "
	    "then go to stderr), or into FILE (attached: --ktap=FILE)" },
	{ "explain", "", CALL(V_CALL_OPT, 1, EXPLAIN_MAX, set_explain),
	    G_EXPLAIN, "K", "after the summary, an autopsy of the K worst "
	    "wake-ups (default 3, at most 100) from latt's own tracefs "
	    "instance: who had the CPU, the IRQs, a verdict; needs tracefs "
	    "(root), else exit 2" },
	{ "breaktrace", "", TIME(1, HOUR_NS, NSEC_PER_USEC, cfg.breaktrace),
	    G_EXPLAIN, "US", "above US microseconds (or 1.5ms...), write a "
	    "marker to tracefs, stop tracing and end the run" },
	{ "help", "h", CALL(V_CALL_NONE, 0, 0, show_about), G_END, NULL,
	    "print this help and exit" },
	{ "version", "V", CALL(V_CALL_NONE, 0, 0, show_about), G_END, NULL,
	    "print the version and exit" },
};

#define NOPTS	(sizeof(opts) / sizeof(opts[0]))

void
options_parse(int argc, char **argv, struct config *cfg)
{
	struct option lopts[NOPTS + 1];
	char sopts[3 + 3 * sizeof(opts[0].letters) * NOPTS];
	const struct opt *o;
	struct parse p;
	int ch;

	start_parse(&p);
	make_getopt(lopts, sopts);
	opterr = 0;
	/* --bisect first: its statuses hold for every error after it. */
	while ((ch = getopt_long(argc, argv, sopts, lopts, NULL)) != -1)
		if ((o = find_opt(ch)) != NULL && o->off == AT_OFF(cfg.bisect))
			exit_bisect();
	optind = 0;
	while ((ch = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		if (ch == ':')
			usage_error("option %s needs a value",
			    argv[optind - 1]);
		if ((o = find_opt(ch)) == NULL)
			bad_option(argv[optind - 1], lopts);
		take(&p, o, optarg);
	}
	/* The combinations, in the order in which their errors come. */
	settle_clients(&p);
	settle_delays(&p, optind >= argc);
	check_outputs(&p.cfg);
	settle_sched(&p);
	check_run(&p.cfg);
	sweep_check(&p.cfg);
	take_command(&p, argv + optind, argc - optind);
	order_check_config(&p.cfg);
	gate_check(&p.cfg);
	*cfg = p.cfg;
}

/* The settings before any option: those of a run given none. */
static void
start_parse(struct parse *p)
{
	memset(p, 0, sizeof(*p));
	p->cfg.nclients = 1;
	/* 63 bits, so that --seed takes back any seed latt prints. */
	p->cfg.seed = ((uint64_t)now_ns() ^ ((uint64_t)getpid() << 32)) &
	    INT64_MAX;
	p->cfg.parent_cpu = p->cfg.policy = p->cfg.parent_policy = -1;
	p->cfg.dma_latency = -1;
	p->cfg.order_slack = -1;
	p->cfg.repeat = 1;
	p->cfg.split_every = SPLIT_EVERY;
	p->min = p->max = -1;
	p->prio = p->pprio = -1;
}

/*
 * getopt_long's two tables, made from opts[]: "+" stops at the command,
 * ":" makes a missing value ':' rather than '?'.  lo holds NOPTS + 1
 * entries; s holds 3 bytes, and 3 more for each letter.
 */
static void
make_getopt(struct option *lo, char *s)
{
	const struct opt *o;
	size_t i, k;

	memset(lo, 0, (NOPTS + 1) * sizeof(*lo));
	*s++ = '+';
	*s++ = ':';
	for (i = 0; i < NOPTS; i++) {
		o = &opts[i];
		lo[i].name = o->name;
		lo[i].has_arg = takes(o);
		lo[i].val = OPT_BASE + (int)i;
		for (k = 0; k < sizeof(o->letters) && o->letters[k] != '\0';
		    k++) {
			*s++ = o->letters[k];
			if (lo[i].has_arg != no_argument)
				*s++ = ':';
			if (lo[i].has_arg == optional_argument)
				*s++ = ':';
		}
	}
	*s = '\0';
}

/* The row of what getopt_long returned, or NULL: an option it refused. */
static const struct opt *
find_opt(int ch)
{
	size_t i;

	if (ch >= OPT_BASE && ch < OPT_BASE + (int)NOPTS)
		return &opts[ch - OPT_BASE];
	for (i = 0; ch > 0 && ch < OPT_BASE && i < NOPTS; i++)
		if (memchr(opts[i].letters, ch, sizeof(opts[i].letters)) !=
		    NULL)
			return &opts[i];
	return NULL;
}

/*
 * An option getopt_long refused: a long option given a value it does not
 * take, or an unknown option.  arg is argv[optind - 1], as it always was
 * (after -zv, with -z unknown, it is the argument before -zv).
 */
static void
bad_option(const char *arg, const struct option *lo)
{
	const char *near;

	if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL &&
	    optopt != 0)
		usage_error("option takes no value: %s", arg);
	if (optopt != 0)
		usage_error("unknown option: -%c", optopt);
	if ((near = option_nearest(arg, lo)) != NULL)
		usage_error("unknown option: %s (did you mean --%s?)", arg,
		    near);
	usage_error("unknown option: %s", arg);
}

/* One option: its value read as its row says, and put where it lands. */
static void
take(struct parse *p, const struct opt *o, char *arg)
{
	char *at = (char *)p + o->off;
	long long v;

	switch (o->value) {
	case V_FLAG:
		*(int *)at = 1;
		return;
	case V_NUM:
		v = parse_num(o->name, arg, o->min, o->max);
		break;
	case V_TIME:
		v = parse_time(o->name, arg, o->min, o->max, o->unit);
		break;
	case V_FILE:
		*(const char **)at = file_name(o, arg);
		return;
	case V_STR:
		*(const char **)at = arg;
		return;
	default:
		o->set(p, o, arg);
		return;
	}
	/* Signed or not, an int or a 64-bit integer holds it: see opts[]. */
	if (o->size == sizeof(int64_t))
		*(int64_t *)at = v;
	else
		*(int *)at = (int)v;
}

/* A file name, which may not be empty. */
static const char *
file_name(const struct opt *o, const char *arg)
{
	if (*arg == '\0')
		usage_error("%s file name is empty", o->name);
	return arg;
}

/* -c: kept as given until every option is read (settle_clients). */
static void
add_class(struct parse *p, const struct opt *o, char *arg)
{
	(void)o;
	if (p->nc == CLASS_MAX)
		usage_error("too many -c options: %s (at most %d classes)",
		    arg, CLASS_MAX);
	p->cargs[p->nc++].arg = arg;
	p->cfg.clients_given = 1;
}

static void
set_cpus(struct parse *p, const struct opt *o, char *arg)
{
	cpulist_parse(o->name, arg, &p->cfg.cpus, &p->cfg.ncpus);
}

static void
set_nice(struct parse *p, const struct opt *o, char *arg)
{
	p->cfg.nice = (int)parse_num(o->name, arg, o->min, o->max);
	p->cfg.set_nice = 1;
}

/* --explain alone is --explain=EXPLAIN_DEFAULT. */
static void
set_explain(struct parse *p, const struct opt *o, char *arg)
{
	p->explain_bare = arg == NULL;
	p->cfg.explain = arg == NULL ? EXPLAIN_DEFAULT :
	    (unsigned)parse_num(o->name, arg, o->min, o->max);
}

/* --json alone, or --json=-, is stdout. */
static void
set_json(struct parse *p, const struct opt *o, char *arg)
{
	p->json_bare = arg == NULL;
	p->cfg.json_path = arg != NULL ? file_name(o, arg) : "-";
}

/* --ktap alone, or --ktap=-, is stdout. */
static void
set_ktap(struct parse *p, const struct opt *o, char *arg)
{
	p->ktap_bare = arg == NULL;
	p->cfg.ktap_path = arg != NULL ? file_name(o, arg) : "-";
}

/* --confidence=PCT: lib's parse_level. */
static void
set_level(struct parse *p, const struct opt *o, char *arg)
{
	(void)o;
	p->cfg.confidence = parse_level(arg);
}

/* --split=all is every round, N 1 in N; after --no-split, it counts. */
static void
set_split(struct parse *p, const struct opt *o, char *arg)
{
	p->cfg.no_split = 0;
	p->cfg.split_every = strcmp(arg, "all") == 0 ? 1 :
	    (unsigned)parse_num(o->name, arg, o->min, o->max);
}

/* --sweep=NAME=V1,V2,...: read in sweep.c, beside the sweep it makes. */
static void
set_sweep(struct parse *p, const struct opt *o, char *arg)
{
	(void)o;
	sweep_parse(&p->cfg, arg);
}

/* -h and -V. */
static void
show_about(struct parse *p, const struct opt *o, char *arg)
{
	enum group g;

	(void)p;
	(void)arg;
	if (*o->letters == 'V') {
		printf("latt %s\n", LATT_VERSION);
		exit(EXIT_OK);
	}
	print_synopsis();
	fputs(help_intro, stdout);
	for (g = 0; g <= G_END; g++) {
		fputs(help_group[g], stdout);
		for (o = opts; o < opts + NOPTS; o++)
			if (o->group == g)
				print_opt(o);
	}
	fputs(help_end, stdout);
	exit(EXIT_OK);
}

/*
 * The usage lines: the flags with a letter, then the other options by
 * task (fmt_wrap cuts the lines between brackets).
 */
static void
print_synopsis(void)
{
	char s[2048], flags[16];
	const struct opt *o;
	size_t n, k = 0;
	int c;

	for (c = 'a'; c <= 'z'; c++)
		for (o = opts; o < opts + NOPTS; o++)
			if (takes(o) == no_argument &&
			    tolower((unsigned char)*o->letters) == c)
				flags[k++] = *o->letters;
	n = (size_t)snprintf(s, sizeof(s), "[-%.*s]", (int)k, flags);
	for (o = opts; o < opts + NOPTS && n < sizeof(s); o++)
		if (*o->letters == '\0' || takes(o) != no_argument)
			n += (size_t)snprintf(s + n, sizeof(s) - n,
			    *o->letters != '\0' ? " [-%.1s %s]" :
			    takes(o) == no_argument ? " [--%s]%.0s" :
			    takes(o) == optional_argument ? " [--%s[=%s]]" :
			    " [--%s=%s]", *o->letters != '\0' ? o->letters :
			    o->name, o->arg);
	if (n < sizeof(s))
		snprintf(s + n, sizeof(s) - n, " [command [arg ...]]");
	fmt_wrap(stdout, "usage: latt ", HELP_INDENT, HELP_WIDTH, s);
	fputs(help_usage, stdout);
}

/*
 * An option's entries in --help, its own and its other forms: a head,
 * then the text wrapped from column HELP_COL (after a head that reaches
 * the column, from the next line).
 */
static void
print_opt(const struct opt *o)
{
	char head[64], lead[sizeof(head)], text[1024];
	const char *t, *end;
	int n = takes(o);

	snprintf(head, sizeof(head), "%s%.1s%s--%s%s%s%s", *o->letters ?
	    "  -" : "      ", o->letters, *o->letters ? ", " : "", o->name,
	    n == optional_argument ? "[=" : n ? "=" : "", n ? o->arg : "",
	    n == optional_argument ? "]" : "");
	for (t = o->help; t != NULL; t = *end != '\0' ? end + 1 : NULL) {
		end = t + strcspn(t, "\n");
		if (t != o->help) {	/* another form: its head, a tab */
			n = (int)strcspn(t, "\t");
			snprintf(head, sizeof(head), "%.*s", n, t);
			t += n + (t[n] == '\t');
		}
		if (strlen(head) >= HELP_COL)
			printf("%s\n", head);
		snprintf(lead, sizeof(lead), "%-*s", HELP_COL,
		    strlen(head) < HELP_COL ? head : "");
		snprintf(text, sizeof(text), "%.*s", (int)(end - t), t);
		fmt_wrap(stdout, lead, HELP_COL, HELP_WIDTH, text);
	}
}

/* getopt_long's has_arg of an option. */
static int
takes(const struct opt *o)
{
	return o->value == V_FLAG || o->value == V_CALL_NONE ? no_argument :
	    o->value == V_CALL_OPT ? optional_argument : required_argument;
}

/* -c: one plain -c N is a count, as in 2009; anything else classes. */
static void
settle_clients(struct parse *p)
{
	if (p->nc == 1 && strchr(p->cargs[0].arg, ':') == NULL)
		p->cfg.nclients = parse_num("clients", p->cargs[0].arg, 1,
		    MAX_CLIENTS);
	else if (p->nc > 0)
		make_classes(&p->cfg, p->cargs, p->nc);
}

/*
 * -f and -t, once it is known whether a command was given (bare: none).
 * With a command and neither of them: 10 to 90 ms, which at -c8 take
 * about 160 samples a second (4,800 in 30 s: a p99) for about 1% of a
 * CPU; with more clients both grow in proportion, so that latt's share
 * stays the same, up to the 2009 delays.  Either one given: the 2009
 * default (100 or 500 ms) for the other, as ever.
 */
static void
settle_delays(struct parse *p, int bare)
{
	int64_t n = p->cfg.nclients > CMD_CLIENTS ? p->cfg.nclients :
	    CMD_CLIENTS;
	char a[32], b[32];

	if (bare)
		bare_defaults(p);
	else if (p->min == -1 && p->max == -1) {
		p->min = CMD_MIN_DELAY_NS * n / CMD_CLIENTS;
		p->max = CMD_MAX_DELAY_NS * n / CMD_CLIENTS;
		if (p->min > DFLT_MIN_DELAY_NS)
			p->min = DFLT_MIN_DELAY_NS;
		if (p->max > DFLT_MAX_DELAY_NS)
			p->max = DFLT_MAX_DELAY_NS;
	}
	if (p->min == -1)
		p->min = DFLT_MIN_DELAY_NS;
	if (p->max == -1)
		p->max = p->min > DFLT_MAX_DELAY_NS ? p->min :
		    DFLT_MAX_DELAY_NS;
	if (p->min > p->max)
		usage_error("min-delay (%s) is above max-delay (%s)",
		    fmt_time(a, sizeof(a), p->min, 0, "us"),
		    fmt_time(b, sizeof(b), p->max, 0, "us"));
	p->cfg.min_delay = p->min;
	p->cfg.max_delay = p->max;
}

/*
 * Outputs that would share stdout, or take it from the summary, or share
 * a file (links followed).
 */
static void
check_outputs(const struct config *cfg)
{
	static const char *const opt[4] = { "json", "log", "plot", "ktap" };
	const char *path[4] = { is_stdout(cfg->json_path) ? NULL :
	    cfg->json_path, cfg->log_path, cfg->plot_path,
	    is_stdout(cfg->ktap_path) ? NULL : cfg->ktap_path };
	struct stat sb;
	size_t n;
	int i, j;

	if (is_stdout(cfg->json_path) && (cfg->histogram || cfg->per_client))
		usage_error("%s prints to stdout, which --json takes: give "
		    "--json=FILE", cfg->histogram ? "--histogram" :
		    "--per-client");
	if (is_stdout(cfg->json_path) && is_stdout(cfg->ktap_path))
		usage_error("--json and --ktap both to stdout: give one a file "
		    "(--ktap=FILE)");
	if (cfg->baseline != NULL && is_stdout(cfg->json_path))
		usage_error("--baseline prints a table to stdout, which --json "
		    "takes: give --json=FILE");
	if (cfg->fail_if_worse != NULL && cfg->baseline == NULL)
		usage_error("--fail-if-worse=%s needs --baseline=FILE",
		    cfg->fail_if_worse);
	if (cfg->drop_noisy && cfg->baseline == NULL)
		usage_error("--drop-noisy needs --baseline=FILE");
	if (cfg->confidence > 0 && cfg->baseline == NULL &&
	    cfg->sweep.kind == SWEEP_NONE)
		usage_error("--confidence needs --baseline=FILE or --sweep, "
		    "whose comparison it sets");
	if (is_stdout(cfg->log_path))
		usage_error("log cannot be -: stdout takes the summary");
	if (is_stdout(cfg->plot_path))
		usage_error("plot cannot be -: stdout takes the summary");
	/* A plot is SVG: x.png would hold one (a device takes it as is). */
	if (cfg->plot_path != NULL && ((n = strlen(cfg->plot_path)) < 4 ||
	    strcasecmp(cfg->plot_path + n - 4, ".svg") != 0) &&
	    (stat(cfg->plot_path, &sb) == -1 || S_ISREG(sb.st_mode)))
		usage_error("--plot=%s: the plot is SVG: give a name ending in "
		    ".svg", cfg->plot_path);
	if (cfg->bisect && cfg->nlimits == 0 && cfg->fail_if_worse == NULL)
		usage_error("--bisect needs a gate: --fail-above=SPEC, or "
		    "--fail-if-worse=SPEC with --baseline");
	/* Two reports into one file: one would replace the other. */
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			if (path[i] != NULL && path[j] != NULL &&
			    same_file(path[i], path[j]))
				usage_error("--%s=%s and --%s=%s are the same "
				    "file: give each report its own", opt[i],
				    path[i], opt[j], path[j]);
}

static int
is_stdout(const char *path)
{
	return path != NULL && strcmp(path, "-") == 0;
}

/* The clients' policy and priority, their classes', and latt's own. */
static void
settle_sched(struct parse *p)
{
	struct config *cfg = &p->cfg;
	unsigned i;
	int rtmin, top;

	/* --prio alone means SCHED_FIFO; fifo and rr alone mean prio 1. */
	if (cfg->policy == -1 && p->prio != -1)
		cfg->policy = SCHED_FIFO;
	if (cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR)
		cfg->prio = p->prio == -1 ? 1 : p->prio;
	else if (p->prio > 0)
		usage_error("prio %d needs policy fifo or rr", p->prio);
	if (cfg->policy != -1 && (cfg->prio <
	    sched_get_priority_min(cfg->policy) ||
	    cfg->prio > sched_get_priority_max(cfg->policy)))
		usage_error("prio %d is out of range for the policy (%d-%d)",
		    cfg->prio, sched_get_priority_min(cfg->policy),
		    sched_get_priority_max(cfg->policy));
	/*
	 * rtmin: the clients' lowest priority, which is 0 unless every one
	 * of them is fifo or rr (a prio is 0 under any other policy).
	 */
	rtmin = cfg->nclasses == 0 ? cfg->prio : 99;
	for (i = 0; i < cfg->nclasses; i++) {
		resolve_class(cfg, &p->cargs[i], &cfg->classes[i]);
		if (cfg->classes[i].sched.prio < rtmin)
			rtmin = cfg->classes[i].sched.prio;
	}
	/*
	 * latt's own policy.  --parent-prio=0 is SCHED_OTHER, N > 0
	 * SCHED_FIFO at N.  By default a parent of real-time clients is
	 * SCHED_FIFO one below them (at 1 when they are at 1): a woken
	 * client preempts the sender at once, so that its latency is the
	 * kernel's wake-up, never the rest of latt's round, and the sleeps
	 * of the timer series are real-time too.  With classes, only when
	 * every class is real-time (one below the lowest): a real-time
	 * sender would hold off the fair classes' wake-ups until the end
	 * of its round and so favour the real-time ones.
	 */
	if (p->pprio == 0) {
		cfg->parent_policy = SCHED_OTHER;
		cfg->parent_prio = 0;
	} else if (p->pprio > 0) {
		cfg->parent_policy = SCHED_FIFO;
		cfg->parent_prio = p->pprio;
	} else if ((top = order_top(cfg)) > 0 && config_any_busy(cfg)) {
		/* Busy real-time clients: released together (order.c). */
		cfg->parent_policy = SCHED_FIFO;
		cfg->parent_prio = top < 99 ? top + 1 : 99;
	} else if (rtmin > 0) {
		cfg->parent_policy = SCHED_FIFO;
		cfg->parent_prio = rtmin > 1 ? rtmin - 1 : 1;
	}
}


/* The run's length and the CPUs named. */
static void
check_run(const struct config *cfg)
{
	unsigned i;

	if (cfg->duration > 0 && cfg->warmup >= cfg->duration)
		usage_error("warmup is not shorter than the duration");
	cpulist_check("cpus", cfg->cpus, cfg->ncpus);
	cpulist_check("parent-cpu", &cfg->parent_cpu, cfg->parent_cpu >= 0);
	for (i = 0; i < cfg->nload; i++)
		cpulist_check("load cpus", cfg->load[i].cpus,
		    cfg->load[i].ncpus);
}

/* The workload: what is left of argv after the options. */
static void
take_command(struct parse *p, char **cmd, int ncmd)
{
	int k;

	p->cfg.cmd = cmd;
	p->cfg.ncmd = ncmd;
	/*
	 * Said if the workload fails: options go before the command.  A
	 * bare -c or -n is too common a word of commands (sh -c) to say so.
	 */
	for (k = 1; k < ncmd && p->cfg.misplaced == NULL; k++)
		if (latt_option(cmd[k]) && (cmd[k][1] == '-' || cmd[k][2]))
			p->cfg.misplaced = cmd[k];
	command_take(cmd, ncmd, (p->json_bare ? CMD_JSON_BARE : 0) |
	    (p->explain_bare ? CMD_EXPLAIN_BARE : 0) |
	    (p->ktap_bare ? CMD_KTAP_BARE : 0), latt_option);
}

/* Whether word is one of latt's options: -d, -c8, --dur=3 (a prefix). */
static int
latt_option(const char *w)
{
	size_t i, len;

	if (w[0] != '-' || w[1] == '\0' || strcmp(w, "--") == 0)
		return 0;
	if (w[1] != '-')
		return find_opt((unsigned char)w[1]) != NULL;
	len = strcspn(w + 2, "=");
	for (i = 0; len > 0 && i < NOPTS; i++)
		if (strncmp(opts[i].name, w + 2, len) == 0)
			return 1;
	return 0;
}

/*
 * A run with no command does something useful: it measures beside the
 * loads of --load, or a cpu spin on every CPU when none is given
 * (--load=none: an idle machine), for 10 s unless --duration says
 * otherwise, and with clients and delays chosen to gather well over
 * 10,000 samples in that time (so that its p99.9 means something).  What
 * the user gave is kept; the summary says what ran.
 */
static void
bare_defaults(struct parse *p)
{
	struct config *cfg = &p->cfg;

	cfg->bare = 1;
	if (cfg->duration == 0)
		cfg->duration = BARE_DURATION_NS;
	if (!cfg->load_given) {
		cfg->load[0].kind = LOAD_CPU;
		cfg->load[0].n = load_default_n();
		cfg->nload = 1;
	}
	if (!cfg->clients_given)
		cfg->nclients = BARE_CLIENTS;
	if (p->min == -1)
		p->min = p->max != -1 && p->max < BARE_MIN_DELAY_NS ? p->max :
		    BARE_MIN_DELAY_NS;
	if (p->max == -1)
		p->max = p->min > BARE_MAX_DELAY_NS ? p->min :
		    BARE_MAX_DELAY_NS;
}

/*
 * Several -c options, or one with attributes: each is a class of clients,
 * numbered in the order given (the first class's clients come first).
 */
static void
make_classes(struct config *cfg, struct class_arg *ca, unsigned nc)
{
	struct client_class *cl;
	unsigned long long total = 0;
	unsigned i, j;

	if ((cfg->classes = calloc(nc, sizeof(*cfg->classes))) == NULL)
		usage_error("classes: %s", strerror(errno));
	cfg->nclasses = nc;
	for (i = 0; i < nc; i++) {
		cl = &cfg->classes[i];
		parse_class(&ca[i], cl);
		cl->first = (unsigned)total;
		total += cl->n;
		if (total > MAX_CLIENTS)
			usage_error("clients is too large: %llu in all classes "
			    "(at most %d)", total, MAX_CLIENTS);
	}
	cfg->nclients = (unsigned)total;
	if ((cfg->class_of = malloc(cfg->nclients)) == NULL)
		usage_error("classes: %s", strerror(errno));
	for (i = 0; i < nc; i++)
		for (j = 0; j < cfg->classes[i].n; j++)
			cfg->class_of[cfg->classes[i].first + j] =
			    (unsigned char)i;
	name_classes(cfg);
}

/*
 * One class: N[:ATTR=VALUE]..., the attributes nice, policy, prio, slice,
 * runtime, deadline, period (times: a bare number is microseconds), cpus
 * and name.  What an attribute does not say comes from --policy, --prio,
 * --nice and --cpus (resolve_class, after every option is read).
 */
static void
parse_class(struct class_arg *ca, struct client_class *cl)
{
	struct sched_req *r = &cl->sched;
	char *buf, *tok, *save, *eq;
	size_t len = strcspn(ca->arg, ":");

	ca->policy = -2;
	if ((buf = strdup(ca->arg)) == NULL)
		usage_error("clients: %s", strerror(errno));
	cl->spec = ca->arg[len] == ':' ? ca->arg + len + 1 : "";
	if (ca->arg[len] == ':' && cpulist_gap(cl->spec, ':'))
		usage_error("clients: an empty attribute in -c %s", ca->arg);
	buf[len] = '\0';
	cl->n = parse_num("clients", buf, 1, MAX_CLIENTS);
	for (tok = strtok_r(buf + len + (*cl->spec != '\0'), ":", &save);
	    tok != NULL; tok = strtok_r(NULL, ":", &save)) {
		if ((eq = strchr(tok, '=')) == NULL)
			usage_error("clients: not ATTR=VALUE: %s in -c %s "
			    CLASS_ATTRS, tok, ca->arg);
		*eq++ = '\0';
		if (strcmp(tok, "nice") == 0) {
			r->nice = parse_num("class nice", eq, -20, 19);
			r->set_nice = 1;
		} else if (strcmp(tok, "policy") == 0) {
			if ((ca->policy = config_policy_find(eq)) == -1)
				usage_error("class policy is not one of other, "
				    "batch, idle, fifo, rr, deadline: %s", eq);
		} else if (strcmp(tok, "prio") == 0)
			r->prio = parse_num("class prio", eq, 1, 99);
		else if (strcmp(tok, "slice") == 0)
			r->slice = parse_time("class slice", eq, 1,
			    NSEC_PER_SEC, NSEC_PER_USEC);
		else if (strcmp(tok, "runtime") == 0)
			r->runtime = parse_time("class runtime", eq, 1,
			    HOUR_NS, NSEC_PER_USEC);
		else if (strcmp(tok, "deadline") == 0)
			r->deadline = parse_time("class deadline", eq, 1,
			    HOUR_NS, NSEC_PER_USEC);
		else if (strcmp(tok, "period") == 0)
			r->period = parse_time("class period", eq, 1,
			    HOUR_NS, NSEC_PER_USEC);
		else if (strcmp(tok, "busy") == 0)
			cl->busy = parse_time("class busy", eq, 1, BUSY_MAX_NS,
			    NSEC_PER_USEC);
		else if (strcmp(tok, "frame") == 0)
			cl->frame = parse_time("class frame", eq, FRAME_MIN_NS,
			    FRAME_MAX_NS, NSEC_PER_USEC);
		else if (strcmp(tok, "cpus") == 0)
			cpulist_parse("class cpus", eq, &cl->cpus, &cl->ncpus);
		else if (strcmp(tok, "name") == 0) {
			if (*eq == '\0' || strlen(eq) > CLASS_NAME_MAX ||
			    strspn(eq, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
			    "NOPQRSTUVWXYZ0123456789_.,+=-") != strlen(eq))
				usage_error("class name must be 1 to %d "
				    "letters, digits or _.,+=-: %s",
				    CLASS_NAME_MAX, eq);
			strcpy(cl->name, eq);
		} else
			usage_error("clients: unknown attribute %s in -c %s "
			    CLASS_ATTRS, tok, ca->arg);
	}
	free(buf);
}

/*
 * A class's scheduling, once --policy, --prio and --nice are known: its
 * own attributes win, the rest is inherited from those options.  Every
 * combination the kernel could never take is a usage error here; what
 * depends on the kernel and on limits is tried by tune_check.
 */
static void
resolve_class(const struct config *cfg, struct class_arg *ca,
    struct client_class *cl)
{
	struct sched_req *r = &cl->sched;
	long long lo, hi;
	const char *nm = cl->name;
	/* The deadline attributes as given (each is 1 ns or more). */
	int dl = r->runtime > 0 || r->deadline > 0 || r->period > 0;
	const char *limit = r->deadline > 0 ? "deadline" : "period";
	int prio = r->prio, nice = r->set_nice;	/* the class's own */

	cpulist_check("class cpus", cl->cpus, cl->ncpus);
	if (cl->busy == 0)
		cl->busy = cfg->busy;
	if (cl->frame > 0 && cl->busy == 0)
		usage_error("class %s: frame= needs busy= (the work of each "
		    "frame)", nm);
	r->policy = cfg->policy;
	if (!nice) {
		r->nice = cfg->nice;
		r->set_nice = cfg->set_nice;
	}
	if (ca->policy != -2)
		r->policy = ca->policy;
	else if (dl)
		r->policy = SCHED_DEADLINE;
	else if (prio > 0 && r->policy != SCHED_FIFO &&
	    r->policy != SCHED_RR)
		r->policy = SCHED_FIFO;		/* prio= alone: fifo */
	if (r->policy == SCHED_FIFO || r->policy == SCHED_RR)
		r->prio = prio > 0 ? prio :
		    cfg->policy == r->policy ? cfg->prio : 1;
	else if (prio > 0)
		usage_error("class %s: prio needs policy fifo or rr", nm);
	else
		r->prio = 0;
	if (r->slice > 0 && r->policy != -1 && r->policy != SCHED_OTHER &&
	    r->policy != SCHED_BATCH && r->policy != SCHED_IDLE)
		usage_error("class %s: slice is for the fair policies (other, "
		    "batch, idle), not %s", nm, config_policy_name(r->policy));
	if (r->policy != SCHED_DEADLINE) {
		if (dl)
			usage_error("class %s: runtime, deadline and period "
			    "are for policy deadline", nm);
		return;
	}
	if (nice)
		usage_error("class %s: nice has no meaning under "
		    "SCHED_DEADLINE", nm);
	r->set_nice = 0;
	if (r->slice > 0)
		usage_error("class %s: slice is for the fair policies; "
		    "SCHED_DEADLINE takes runtime", nm);
	if (r->runtime == 0)
		usage_error("class %s: policy deadline needs runtime=", nm);
	if (r->deadline == 0 && r->period == 0 && cl->frame > 0)
		r->period = cl->frame;	/* frame= is the period */
	if (r->deadline == 0 && r->period == 0)
		usage_error("class %s: policy deadline needs deadline= or "
		    "period=", nm);
	if (r->deadline == 0)
		r->deadline = r->period;
	if (r->period == 0)
		r->period = r->deadline;
	if (r->runtime < 1024)
		usage_error("class %s: runtime %lld ns is below the kernel's "
		    "minimum of 1024 ns", nm, (long long)r->runtime);
	if (r->runtime > r->deadline)
		usage_error("class %s: runtime (%lld us) is above the %s "
		    "(%lld us)", nm, (long long)(r->runtime / NSEC_PER_USEC),
		    limit, (long long)(r->deadline / NSEC_PER_USEC));
	if (r->deadline > r->period)
		usage_error("class %s: deadline (%lld us) is above the period "
		    "(%lld us)", nm, (long long)(r->deadline / NSEC_PER_USEC),
		    (long long)(r->period / NSEC_PER_USEC));
	if (cl->frame > 0 && r->period != cl->frame)
		usage_error("class %s: frame (%lld us) and the deadline period "
		    "(%lld us) differ: a frame's deadline is its period", nm,
		    (long long)(cl->frame / NSEC_PER_USEC),
		    (long long)(r->period / NSEC_PER_USEC));
	lo = file_ll("/proc/sys/kernel/sched_deadline_period_min_us");
	hi = file_ll("/proc/sys/kernel/sched_deadline_period_max_us");
	if ((lo > 0 && r->period < lo * NSEC_PER_USEC) ||
	    (hi > 0 && r->period > hi * NSEC_PER_USEC))
		usage_error("class %s: period %lld us is outside the kernel's "
		    "range, sched_deadline_period_min_us to _max_us "
		    "(%lld-%lld us)", nm,
		    (long long)(r->period / NSEC_PER_USEC), lo, hi);
	if (cl->ncpus > 0 || cfg->ncpus > 0)
		usage_error("class %s: SCHED_DEADLINE clients cannot be pinned "
		    "(cpus=, --cpus): the kernel admits them only on every "
		    "CPU of their root domain", nm);
}

/*
 * A class without name= is named by its attributes ("slice=100us") when
 * they are short, by its number ("c3") when not, and "default" without
 * any; names must differ, since the reports label a
 * class's lines and JSON with its name, and none may clash with a label of
 * the summary.
 */
static void
name_classes(struct config *cfg)
{
	static const char *const banned[] = { "Entries", "Max", "Avg",
	    "Stdev" };
	static const char *const taken[] = { "timer", "work", "latency",
	    "runqueue", "wake", "wake_path", "split", "rq" };
	struct client_class *cl;
	char *p, *q;
	unsigned i, j, k;

	for (i = 0; i < cfg->nclasses; i++) {
		cl = &cfg->classes[i];
		if (cl->name[0] != '\0')
			continue;
		if (*cl->spec == '\0') {
			strcpy(cl->name, "default");
			continue;
		}
		/* Short attributes name their class; longer ones a number. */
		if (strlen(cl->spec) <= CLASS_AUTONAME_MAX)
			snprintf(cl->name, sizeof(cl->name), "%s", cl->spec);
		else
			snprintf(cl->name, sizeof(cl->name), "c%u", i + 1);
	}
	for (i = 0; i < cfg->nclasses; i++) {
		cl = &cfg->classes[i];
		for (k = 0; k < sizeof(banned) / sizeof(banned[0]); k++)
			if (strstr(cl->name, banned[k]) != NULL)
				usage_error("class name %s: names may not "
				    "contain %s (a word of the 2009 summary)",
				    cl->name, banned[k]);
		for (k = 0; k < sizeof(taken) / sizeof(taken[0]); k++)
			if (strcmp(cl->name, taken[k]) == 0)
				usage_error("class name %s is taken by a block "
				    "of the summary or a series of the results",
				    cl->name);
		for (j = 0; j < i; j++) {
			if (strcmp(cl->name, cfg->classes[j].name) != 0)
				continue;
			if (strstr(cl->spec, "name=") != NULL)
				usage_error("two classes are named %s",
				    cl->name);
			/* Same attributes twice: number the later ones. */
			p = cl->name + strlen(cl->name);
			q = cl->name + CLASS_NAME_MAX - 4;
			snprintf(p < q ? p : q, 5, "-%u", i + 1);
			j = (unsigned)-1;	/* check the new name again */
		}
	}
}

/*
 * --load=KIND[:N][:cpus=LIST]: N processes (pipe: pairs) of a built-in
 * load, N the online CPUs by default, pinned round-robin over LIST (the
 * class attribute's syntax: a run queue built on one CPU).  "none" starts
 * nothing but counts as a --load given.  The count goes through parse_num
 * like every number.
 */
static void
parse_load(struct parse *p, const struct opt *o, char *arg)
{
	struct config *cfg = &p->cfg;
	struct load_spec *ls = &cfg->load[cfg->nload];
	const char *colon = strchr(arg, ':');
	size_t len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
	char *buf, *tok, *save;
	int kind;

	(void)o;
	if ((kind = config_load_find(arg, len)) == -1)
		usage_error("load has an unknown kind: %s (cpu, syscall, "
		    "yield, fork, pipe, mem or none)", arg);
	cfg->load_given = 1;
	if (kind == LOAD_NONE) {
		if (colon != NULL)
			usage_error("load none takes no count: %s", arg);
		return;
	}
	if (cfg->nload == LOAD_MAX)
		usage_error("too many loads: %s (at most %d --load options)",
		    arg, LOAD_MAX);
	if (colon != NULL && cpulist_gap(colon + 1, ':'))
		usage_error("load: an empty item in %s", arg);
	ls->kind = kind;
	if ((buf = strdup(colon != NULL ? colon + 1 : "")) == NULL)
		usage_error("load: %s", strerror(errno));
	for (tok = strtok_r(buf, ":", &save); tok != NULL;
	    tok = strtok_r(NULL, ":", &save)) {
		if (strncmp(tok, "cpus=", 5) == 0)
			cpulist_parse("load cpus", tok + 5, &ls->cpus,
			    &ls->ncpus);
		else if (ls->n == 0 && ls->ncpus == 0 &&
		    strchr(tok, '=') == NULL)
			ls->n = (unsigned)parse_num("load count", tok, 1,
			    LOAD_NMAX);
		else
			usage_error("load: not N or cpus=LIST: %s in %s", tok,
			    arg);
	}
	free(buf);
	if (ls->n == 0)
		ls->n = load_default_n();
	cfg->nload++;
}

/* A load's count when none is given: the CPUs online, within LOAD_NMAX. */
static unsigned
load_default_n(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return ncpu < 1 ? 1 : ncpu > LOAD_NMAX ? LOAD_NMAX : (unsigned)ncpu;
}

static void
parse_policy(struct parse *p, const struct opt *o, char *arg)
{
	(void)o;
	p->cfg.policy = config_policy_find(arg);
	if (p->cfg.policy == -1 || p->cfg.policy == SCHED_DEADLINE)
		usage_error("policy is not one of other, batch, idle, fifo, "
		    "rr: %s (deadline is for a class: -c N:policy=deadline:"
		    "runtime=T:period=T)", arg);
}

/* --fail-above=SPEC: gate.c reads it; several add up. */
static void
parse_limits(struct parse *p, const struct opt *o, char *arg)
{
	(void)o;
	gate_parse(&p->cfg, arg);
}
