/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the parsers of the command line: parse_num and
 * parse_time (lib/common.c), CPU lists (cli/cpulist.c), the --fail-above
 * specs (report/gate.c), the --sweep specs (sweep/sweep.c), the classes'
 * attributes and the combinations of options (cli/options.c), and how a
 * usage error quotes a value.  A refusal ends the process: it runs in a
 * child (unit_exits), which must exit 2 with exactly the line
 * "latt: MESSAGE" and "try 'latt --help'" on stderr.  What is accepted is
 * parsed in a child too (a mistake there would end this program), which
 * says what it found wrong on stderr.
 */
#include <sys/types.h>

#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cpulist.h"
#include "cli/options.h"
#include "config.h"
#include "lib/common.h"
#include "report/gate.h"
#include "sweep/sweep.h"
#include "tests/unit.h"

#define MAXARGS		8	/* words of a case, after "latt" */
#define ERRLEN		4096
/* The fuzz's vectors: fewer sanitized, where a fork costs 20 times more. */
#ifdef __SANITIZE_ADDRESS__
#define FUZZ_RUNS	100
#else
#define FUZZ_RUNS	300
#endif
#define FUZZ_SEED	2009

/* argv after "latt", and the one line latt must refuse it with. */
struct refusal {
	const char	*argv[MAXARGS];
	const char	*msg;
};

/* What a child parses: argv after "latt", then look checks the config. */
struct parse_job {
	const char *const *argv;
	void		(*look)(const struct config *);
};

/* A number or a time for parse_num or parse_time (unit 0: a number). */
struct num_job {
	const char	*s;
	long long	 min;
	long long	 max;
	long long	 unit;
};

static const struct refusal numbers[] = {
	{ { "-c0", "true" }, "clients is too small: 0 (at least 1)" },
	{ { "-c", "-1", "true" }, "clients is too small: -1 (at least 1)" },
	{ { "-cabc", "true" }, "clients is not a number: abc" },
	{ { "-c", "99999999999", "true" },
	    "clients is too large: 99999999999 (at most 1000000)" },
	{ { "--clients=", "true" }, "clients is empty" },
	{ { "-f", "", "true" }, "min-delay is empty" },
	{ { "--seed= +5", "true" }, "seed is not a number:  +5" },
	{ { "-c", " 4", "true" }, "clients is not a number:  4" },
	{ { "-c", "4 ", "true" }, "clients is not a number: 4 " },
	{ { "-c", "+4", "true" }, "clients is not a number: +4" },
	{ { "--seed=-0", "true" }, "seed is too small: -0 (at least 0)" },
	{ { "--nice= -5", "true" }, "nice is not a number:  -5" },
	{ { "-c1:nice=+5", "true" }, "class nice is not a number: +5" },
	{ { "--nice=-5", "-c0", "true" },
	    "clients is too small: 0 (at least 1)" },
	{ { "-c1:nice=-5", "-c0", "true" },
	    "clients is too small: 0 (at least 1)" },
	{ { "-c2", "-f1", "-t5", "" }, "the workload command is empty" },
	{ { "--json=", "true" }, "json file name is empty" },
	{ { "--log=", "true" }, "log file name is empty" },
	{ { "--prio=100", "true" }, "prio is too large: 100 (at most 99)" },
	{ { "--load=cpu:0", "true" },
	    "load count is too small: 0 (at least 1)" },
	{ { "--repeat=0", "true" }, "repeat is too small: 0 (at least 1)" },
	{ { "--split=0", "true" }, "split is too small: 0 (at least 1)" },
	{ { "--dma-latency=-1", "true" },
	    "dma-latency is too small: -1 (at least 0)" },
};

static const struct refusal times[] = {
	{ { "-f", "10x", "true" },
	    "min-delay is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): 10x" },
	{ { "-f", "50", "-t", "10", "true" },
	    "min-delay (50 ms) is above max-delay (10 ms)" },
	{ { "-s", "50", "-S", "10", "true" },
	    "min-delay (50 ms) is above max-delay (10 ms)" },
	{ { "--min-delay=50", "--max-delay", "10", "true" },
	    "min-delay (50 ms) is above max-delay (10 ms)" },
	{ { "-d", "1.5 s", "true" },
	    "duration is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): 1.5 s" },
	{ { "-d", " 1", "true" },
	    "duration is not a number with an optional unit (ns, us, ms, s, "
	    "m, h):  1" },
	{ { "--warmup=+1", "true" },
	    "warmup is not a number with an optional unit (ns, us, ms, s, m, "
	    "h): +1" },
	{ { "-f", "1.5.0", "true" },
	    "min-delay is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): 1.5.0" },
	{ { "-t", "2x", "true" },
	    "max-delay is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): 2x" },
	{ { "-d", "1.0000000001", "true" },
	    "duration is finer than a nanosecond: 1.0000000001" },
	{ { "-f", "0.0000001", "true" },
	    "min-delay is finer than a nanosecond: 0.0000001" },
	{ { "--warmup=.s", "true" },
	    "warmup is not a number with an optional unit (ns, us, ms, s, m, "
	    "h): .s" },
	{ { "-d", ".", "true" },
	    "duration is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): ." },
	{ { "-f", "-1", "true" },
	    "min-delay is not a number with an optional unit (ns, us, ms, s, "
	    "m, h): -1" },
	{ { "-t", "3601s", "true" },
	    "max-delay is too large: 3601s (at most 1h)" },
};

static const struct refusal cpulists[] = {
	{ { "--cpus=+1", "true" }, "cpus is not a number: +1" },
	{ { "--cpus=0,0", "true" },
	    "cpus: CPU 0 is given twice: 0,0 (each client is pinned to the "
	    "next CPU of the list)" },
	{ { "--cpus=0-1,1", "true" },
	    "cpus: CPU 1 is given twice: 0-1,1 (each client is pinned to the "
	    "next CPU of the list)" },
	{ { "-c1:cpus=0,0", "true" },
	    "class cpus: CPU 0 is given twice: 0,0 (each client is pinned to "
	    "the next CPU of the list)" },
	{ { "--load=cpu:2:x", "true" },
	    "load: not N or cpus=LIST: x in cpu:2:x" },
	{ { "--cpus=", "true" }, "cpus is empty" },
	{ { "--cpus=1,,2", "true" }, "cpus is not a CPU list: 1,,2" },
	{ { "--cpus=3-1", "true" }, "cpus: the range 3-1 is backwards: 3-1" },
	{ { "--cpus=1-0", "true" }, "cpus: the range 1-0 is backwards: 1-0" },
	{ { "--cpus=a", "true" }, "cpus is not a number: a" },
	{ { "-c1:bogus=1", "true" },
	    "clients: unknown attribute bogus in -c 1:bogus=1 (nice, policy, "
	    "prio, slice, runtime, deadline, period, busy, frame, cpus, "
	    "name)" },
	{ { "-c1:nice", "true" },
	    "clients: not ATTR=VALUE: nice in -c 1:nice (nice, policy, prio, "
	    "slice, runtime, deadline, period, busy, frame, cpus, name)" },
};

static const struct refusal classes[] = {
	{ { "-c1::nice=1", "true" },
	    "clients: an empty attribute in -c 1::nice=1" },
	{ { "-c1:policy=deadline", "true" },
	    "class policy=deadline: policy deadline needs runtime=" },
	{ { "-c1:policy=nosuch", "true" },
	    "class policy is not one of other, batch, idle, fifo, rr, "
	    "deadline: nosuch" },
	{ { "-c1:frame=1ms", "true" },
	    "class frame=1ms: frame= needs busy= (the work of each frame)" },
	{ { "-c1:slice=1ms:policy=fifo", "true" },
	    "class c1: slice is for the fair policies (other, batch, idle), "
	    "not fifo" },
	{ { "-c1:name=a", "-c1:name=a", "true" }, "two classes are named a" },
};

static const struct refusal gates[] = {
	{ { "--fail-above=", "true" }, "fail-above is empty" },
	{ { "--fail-above=p99=", "true" }, "fail-above p99 is empty" },
	{ { "--fail-above=p99", "true" }, "fail-above: not STAT=TIME: p99" },
	{ { "--fail-above=bogus=1ms", "true" },
	    "fail-above: unknown statistic: bogus (one of min, mean, stdev, "
	    "p50, p90, p95, p99, p99.9, p99.99, max, timer.STAT, inversions, "
	    "or CLASS.missed)" },
	{ { "--fail-above=p99=1ms,,max=2ms", "true" },
	    "fail-above has an empty item: p99=1ms,,max=2ms" },
	{ { "--fail-above=p99=1.5 ms", "true" },
	    "fail-above p99 is not a number with an optional unit (ns, us, "
	    "ms, s, m, h): 1.5 ms" },
	{ { "--fail-above=fast.missed=5%", "true" },
	    "fail-above fast.missed: no frame class is named fast" },
	{ { "--fail-above=inversions=-1", "true" },
	    "fail-above inversions is too small: -1 (at least 0)" },
	{ { "--fail-above=p99=5", "true" },
	    "fail-above p99=5 needs a unit (ns, us, ms, s, m, h): 5us or "
	    "5ms?" },
	{ { "--fail-above=max=1ms,timer.p99=2.5", "true" },
	    "fail-above timer.p99=2.5 needs a unit (ns, us, ms, s, m, h): "
	    "2.5us or 2.5ms?" },
};

static const struct refusal sweeps[] = {
	{ { "--sweep=bogus=1", "true" },
	    "sweep: unknown setting: bogus (clients, load, work, slice or "
	    "delay)" },
	{ { "--sweep=clients", "true" },
	    "sweep clients has no values: give clients=V1,V2,..." },
	{ { "--sweep=clients=", "true" },
	    "sweep clients has no values: give clients=V1,V2,..." },
	{ { "--sweep=clients=1,,2", "true" },
	    "sweep: an empty value in clients=1,,2" },
	{ { "--sweep=clients=1,1", "true" },
	    "sweep: clients 1 is given twice (as 1): clients=1,1" },
	{ { "--sweep=clients=0,1", "true" },
	    "sweep clients is too small: 0 (at least 1)" },
	{ { "--sweep=clients=1", "--sweep=work=1", "true" },
	    "sweep is given twice: work=1 (one setting a sweep)" },
	{ { "--sweep=load=1,2", "true" },
	    "sweep load needs exactly one --load=KIND (0 given)" },
	{ { "--sweep=clients=1,2", "--baseline=a.json", "true" },
	    "--sweep and --baseline: compare a sweep's values with latt "
	    "compare FILE@VALUE instead" },
	{ { "--sweep=delay=1,1ms", "true" },
	    "sweep: delay 1ms is given twice (as 1): delay=1,1ms" },
};

/* The option table's rules: names, values, and options together. */
static const struct refusal rules[] = {
	{ { "--bogus", "true" }, "unknown option: --bogus" },
	{ { "-z", "true" }, "unknown option: -z" },
	{ { "-c" }, "option -c needs a value" },
	{ { "--clients" }, "option --clients needs a value" },
	{ { "-c2", "-f" }, "option -f needs a value" },
	{ { "--verbose=1", "true" }, "option takes no value: --verbose=1" },
	{ { "-c2", "sleep 1", "-d", "3" },
	    "cannot run 'sleep 1': command not found (options go before the "
	    "command: -d came after it)" },
	{ { "sleep 1", "--dur=3" },
	    "cannot run 'sleep 1': command not found (options go before the "
	    "command: --dur=3 came after it)" },
	{ { "-c1", "--explain", "5" },
	    "--explain takes its count attached: --explain=5 (as given, 5 "
	    "would run as the command)" },
	{ { "--json", "run.json" },
	    "--json takes its file attached: --json=run.json (as given, "
	    "run.json would run as the command)" },
	{ { "--ktap", "out.ktap", "true" },
	    "--ktap takes its file attached: --ktap=out.ktap (as given, "
	    "out.ktap would run as the command)" },
	{ { "--json", "--histogram", "true" },
	    "--histogram prints to stdout, which --json takes: give "
	    "--json=FILE" },
	{ { "--json", "--per-client", "true" },
	    "--per-client prints to stdout, which --json takes: give "
	    "--json=FILE" },
	{ { "--log=-", "true" }, "log cannot be -: stdout takes the summary" },
	{ { "--plot=-", "true" },
	    "plot cannot be -: stdout takes the summary" },
	{ { "--plot" }, "option --plot needs a value" },
	{ { "--plot=x.png", "true" },
	    "--plot=x.png: the plot is SVG: give a name ending in .svg" },
	{ { "--duraton=5", "true" },
	    "unknown option: --duraton=5 (did you mean --duration?)" },
	{ { "--per-clinet", "true" },
	    "unknown option: --per-clinet (did you mean --per-client?)" },

	{ { "--fail-if-worse=p99=10%", "true" },
	    "--fail-if-worse=p99=10% needs --baseline=FILE" },
	{ { "--drop-noisy", "true" }, "--drop-noisy needs --baseline=FILE" },
	{ { "--confidence=50", "true" }, "--confidence=50: a percent from 80 "
	    "to 99.9 (the intervals' confidence, e.g. 99)" },
	{ { "--confidence=99", "true" }, "--confidence needs --baseline=FILE "
	    "or --sweep, whose comparison it sets" },
	{ { "--json", "--baseline=a.json", "true" },
	    "--baseline prints a table to stdout, which --json takes: give "
	    "--json=FILE" },
	{ { "--warmup=2", "-d", "1", "true" },
	    "warmup is not shorter than the duration" },
	{ { "--policy=batch", "--prio=5", "true" },
	    "prio 5 needs policy fifo or rr" },
	{ { "--policy=nosuch", "true" },
	    "policy is not one of other, batch, idle, fifo, rr: nosuch "
	    "(deadline is for a class: -c "
	    "N:policy=deadline:runtime=T:period=T)" },
	{ { "--load=nosuch", "true" },
	    "load has an unknown kind: nosuch (cpu, syscall, yield, fork, "
	    "pipe, mem or none)" },
	{ { "--load=none:2", "true" }, "load none takes no count: none:2" },
};

static void	 leave_now(int, void *);
static void	 parse_child(void *);
static void	 num_child(void *);
static int	 refused(const struct refusal *, size_t, char *, size_t);
static void	 say_args(char *, size_t, const char *const *);
static void	 wrong(const char *, ...) __attribute__((format(printf, 1, 2),
		    noreturn));
static int	 accepted(const char *const *, void (*)(const struct config *),
		    char *, size_t);

#define TABLE_TEST(fn, table)						\
static void								\
fn(void)								\
{									\
	char why[ERRLEN];						\
									\
	CHECK(refused(table, NELEM(table), why, sizeof(why)), "%s", why); \
out:									\
	return;								\
}
TABLE_TEST(refuse_numbers, numbers)
TABLE_TEST(refuse_times, times)
TABLE_TEST(refuse_cpulists, cpulists)
TABLE_TEST(refuse_classes, classes)
TABLE_TEST(refuse_gates, gates)
TABLE_TEST(refuse_sweeps, sweeps)
TABLE_TEST(refuse_rules, rules)

/* The words of a case, and the line it must be refused with. */
#define ARGS(...)	((const char *const []){ __VA_ARGS__, NULL })

/* A child's verdict on a config: it says what is wrong and exits 1. */
static void
wrong(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	_exit(1);
}

static void
look_clients8(const struct config *cfg)
{
	if (cfg->nclients != 8 || cfg->nclasses != 0)
		wrong("nclients %u, %u classes", cfg->nclients, cfg->nclasses);
}

/* -c8, -c 8, --clients=8 and --clients 8 are one option. */
static void
forms_of_a_value(void)
{
	const char *const *forms[] = {
		ARGS("-c8", "true"), ARGS("-c", "8", "true"),
		ARGS("--clients=8", "true"), ARGS("--clients", "8", "true"),
		ARGS("--cl", "8", "true"),
	};
	char why[ERRLEN];
	size_t i;

	for (i = 0; i < NELEM(forms); i++)
		CHECK(accepted(forms[i], look_clients8, why, sizeof(why)), "%s",
		    why);
out:
	return;
}

static void
look_600_700(const struct config *cfg)
{
	if (cfg->min_delay != 600 * NSEC_PER_MSEC ||
	    cfg->max_delay != 700 * NSEC_PER_MSEC)
		wrong("delays %lld..%lld ns", (long long)cfg->min_delay,
		    (long long)cfg->max_delay);
}

/* -s/-f and -S/-t, short or long, set the delays, a bare number in ms. */
static void
forms_of_the_delays(void)
{
	const char *const *forms[] = {
		ARGS("-s", "600", "-S", "700", "true"),
		ARGS("-f", "600", "-t", "700", "true"),
		ARGS("-f600", "-t0.7s", "true"),
		ARGS("--min-delay=600", "--max-delay=700", "true"),
		ARGS("--min-delay", "600", "--max-delay", "700", "true"),
	};
	char why[ERRLEN];
	size_t i;

	for (i = 0; i < NELEM(forms); i++)
		CHECK(accepted(forms[i], look_600_700, why, sizeof(why)), "%s",
		    why);
out:
	return;
}

/*
 * With a command: 10 to 90 ms up to -c8, growing with the clients up to
 * 2009's 100 to 500 ms; -f or -t given, the other is 2009's.  Bare: 1 to
 * 3 ms, 8 clients, 10 s.  Each case: argv, then min and max in ms.
 */
static long long want_min, want_max;

static void
look_delays(const struct config *cfg)
{
	if (cfg->min_delay != want_min || cfg->max_delay != want_max)
		wrong("delays %lld..%lld ns, want %lld..%lld",
		    (long long)cfg->min_delay, (long long)cfg->max_delay,
		    want_min, want_max);
}

static void
default_delays(void)
{
	const struct {
		const char *const *argv;
		long long	 min, max;
	} c[] = {
		{ ARGS("-c8", "sleep 3"), 10, 90 },
		{ ARGS("true"), 10, 90 },
		{ ARGS("-c8", "-f", "20", "sleep 5"), 20, 500 },
		{ ARGS("-c8", "-t", "200", "sleep 5"), 100, 200 },
		{ ARGS("-c16", "sleep 5"), 20, 180 },
		{ ARGS("-c40", "sleep 5"), 50, 450 },
		{ ARGS("-c48", "sleep 5"), 60, 500 },	/* 540 capped */
		{ ARGS("-c200", "sleep 5"), 100, 500 },
		{ ARGS("-c2", "-f", "1", "-t", "3", "sleep 5"), 1, 3 },
		{ ARGS("-f", "600", "true"), 600, 600 },
		{ ARGS("-c2"), 1, 3 },
		{ ARGS("-t", "0.5"), 0, 0 },	/* bare: 1 ms is above -t */
	};
	char why[ERRLEN];
	size_t i;

	for (i = 0; i < NELEM(c); i++) {
		want_min = c[i].min * NSEC_PER_MSEC;
		want_max = c[i].max * NSEC_PER_MSEC;
		if (c[i].max == 0)
			want_min = want_max = NSEC_PER_MSEC / 2;
		CHECK(accepted(c[i].argv, look_delays, why, sizeof(why)),
		    "%s", why);
	}
out:
	return;
}

static void
look_times(const struct config *cfg)
{
	if (cfg->min_delay != 200 * NSEC_PER_USEC ||
	    cfg->max_delay != NSEC_PER_MSEC ||
	    cfg->duration != 1500 * NSEC_PER_MSEC ||
	    cfg->warmup != 250 * NSEC_PER_MSEC || cfg->nlimits != 1 ||
	    cfg->limits[0].stat != STAT_P99 ||
	    cfg->limits[0].value != 1500 * NSEC_PER_MSEC)
		wrong("-f %lld -t %lld -d %lld --warmup %lld, %u limits",
		    (long long)cfg->min_delay, (long long)cfg->max_delay,
		    (long long)cfg->duration, (long long)cfg->warmup,
		    cfg->nlimits);
}

static void
look_nothing(const struct config *cfg)
{
	(void)cfg;
}

/* Decimals and units wherever a time is taken. */
static void
times_everywhere(void)
{
	const char *const *good[] = {
		ARGS("-d", "2.5s", "true"), ARGS("-d", "0.5m", "true"),
		ARGS("--warmup=0.5", "-d", "1", "true"),
		ARGS("-f", "0.5", "-t", "1.5", "true"),
		ARGS("--fail-above=p99=1.5ms,max=0.25s", "true"),
		ARGS("-f", "1.5ms", "-t", "2500us", "true"),
		ARGS("--busy=1.5ms", "true"),
		ARGS("--breaktrace=0.5ms", "true"),
		ARGS("--order-slack=250", "--policy=fifo", "true"),
	};
	char why[ERRLEN];
	size_t i;

	CHECK(accepted(ARGS("-q", "-c2", "-f", "200us", "-t", "1ms", "-d",
	    "1.5", "--warmup=0.25s", "--fail-above=p99=1.5s"), look_times,
	    why, sizeof(why)), "%s", why);
	for (i = 0; i < NELEM(good); i++)
		CHECK(accepted(good[i], look_nothing, why, sizeof(why)), "%s",
		    why);
out:
	return;
}

static void
look_nice(const struct config *cfg)
{
	if (cfg->nice != -5 || !cfg->set_nice)
		wrong("nice %d, set_nice %d", cfg->nice, cfg->set_nice);
}

static void
look_class_nice(const struct config *cfg)
{
	if (cfg->nclasses != 1 || cfg->classes[0].sched.nice != -5 ||
	    !cfg->classes[0].sched.set_nice)
		wrong("%u classes, nice %d", cfg->nclasses,
		    cfg->nclasses > 0 ? cfg->classes[0].sched.nice : 0);
}

static void
look_command(const struct config *cfg)
{
	if (cfg->ncmd != 1 || strcmp(cfg->cmd[0], "sleep 0.5") != 0)
		wrong("%d words, the first '%s'", cfg->ncmd,
		    cfg->ncmd > 0 ? cfg->cmd[0] : "");
}

static void
look_argv(const struct config *cfg)
{
	static const char *const want[] = { "sh", "-c", "x", "y", "-c", "3",
	    "-v" };
	int i;

	if (cfg->ncmd != (int)NELEM(want) || cfg->verbose)
		wrong("%d words, verbose %d", cfg->ncmd, cfg->verbose);
	for (i = 0; i < cfg->ncmd; i++)
		if (strcmp(cfg->cmd[i], want[i]) != 0)
			wrong("word %d is '%s'", i, cfg->cmd[i]);
}

/*
 * A minus where the minimum is negative (a nice); -- ends the options;
 * options after the command are the command's.
 */
static void
signs_and_the_command(void)
{
	char why[ERRLEN];

	CHECK(accepted(ARGS("--nice=-5", "true"), look_nice, why,
	    sizeof(why)), "--nice=-5: %s", why);
	CHECK(accepted(ARGS("-c1:nice=-5", "true"), look_class_nice, why,
	    sizeof(why)), "-c1:nice=-5: %s", why);
	CHECK(accepted(ARGS("-c2", "--", "sleep 0.5"), look_command, why,
	    sizeof(why)), "-- sleep 0.5: %s", why);
	CHECK(accepted(ARGS("-c2", "sh", "-c", "x", "y", "-c", "3", "-v"),
	    look_argv, why, sizeof(why)), "sh -c x y -c 3 -v: %s", why);
out:
	return;
}

/* parse_num: digits only, within bounds, a minus only below zero. */
static void
plain_numbers(void)
{
	static const struct {
		const char	*s;
		long long	 min, max, want;
	} good[] = {
		{ "0", 0, 10, 0 }, { "42", 0, 100, 42 }, { "-5", -20, 19, -5 },
		{ "007", 0, 10, 7 },
		{ "9223372036854775807", 0, LLONG_MAX, LLONG_MAX },
		{ "-9223372036854775808", LLONG_MIN, 0, LLONG_MIN },
	};
	static const struct {
		const char	*s;
		long long	 min, max;
		const char	*msg;
	} bad[] = {
		{ " +5", 0, 10, "n is not a number:  +5" },
		{ " 4", 0, 10, "n is not a number:  4" },
		{ "4 ", 0, 10, "n is not a number: 4 " },
		{ "+4", 0, 10, "n is not a number: +4" },
		{ "\t5", 0, 10, "n is not a number: \\x095" },
		{ "", 0, 10, "n is empty" },
		{ "-", -5, 10, "n is not a number: -" },
		{ "0x10", 0, 100, "n is not a number: 0x10" },
		{ "1e3", 0, 10000, "n is not a number: 1e3" },
		{ "1.5", 0, 10, "n is not a number: 1.5" },
		{ "-0", 0, 10, "n is too small: -0 (at least 0)" },
		{ "-1", 0, 10, "n is too small: -1 (at least 0)" },
		{ "11", 0, 10, "n is too large: 11 (at most 10)" },
		{ "9223372036854775808", 0, LLONG_MAX,
		    "n is too large: 9223372036854775808 (at most "
		    "9223372036854775807)" },
		{ "-9223372036854775809", LLONG_MIN, 0,
		    "n is too small: -9223372036854775809 (at least "
		    "-9223372036854775808)" },
	};
	char err[ERRLEN], want[ERRLEN];
	struct num_job j;
	size_t i;
	int st;

	for (i = 0; i < NELEM(good); i++)
		CHECK(parse_num("n", good[i].s, good[i].min, good[i].max) ==
		    good[i].want, "parse_num(%s) is not %lld", good[i].s,
		    good[i].want);
	for (i = 0; i < NELEM(bad); i++) {
		j = (struct num_job){ bad[i].s, bad[i].min, bad[i].max, 0 };
		st = unit_exits(num_child, &j, err, sizeof(err));
		snprintf(want, sizeof(want), "latt: %s\ntry 'latt --help'\n",
		    bad[i].msg);
		CHECK(st == EXIT_USAGE && strcmp(err, want) == 0,
		    "parse_num('%s'): status %d, stderr '%s'", bad[i].s, st,
		    err);
	}
out:
	return;
}

/* parse_time: decimals and a unit, a whole number of ns, no blank. */
static void
scaled_times(void)
{
	static const struct {
		const char	*s;
		long long	 unit, want;
	} good[] = {
		{ "1.5s", NSEC_PER_MSEC, 1500 * NSEC_PER_MSEC },
		{ "1.5", NSEC_PER_SEC, 1500 * NSEC_PER_MSEC },
		{ "1.5", NSEC_PER_MSEC, 1500 * NSEC_PER_USEC },
		{ ".5", NSEC_PER_SEC, 500 * NSEC_PER_MSEC },
		{ "5.", NSEC_PER_SEC, 5 * NSEC_PER_SEC },
		{ "200us", NSEC_PER_MSEC, 200 * NSEC_PER_USEC },
		{ "2500us", NSEC_PER_MSEC, 2500 * NSEC_PER_USEC },
		{ "0.5m", NSEC_PER_SEC, 30 * NSEC_PER_SEC },
		{ "1h", NSEC_PER_SEC, 3600 * NSEC_PER_SEC },
		{ "7ns", NSEC_PER_SEC, 7 },
		{ "0.001us", NSEC_PER_SEC, 1 },
		{ "0", NSEC_PER_SEC, 0 },
		{ "1.000000001", NSEC_PER_SEC, NSEC_PER_SEC + 1 },
	};
	static const struct {
		const char	*s;
		long long	 unit;
		const char	*msg;
	} bad[] = {
#define NOTNUM	"t is not a number with an optional unit " \
	"(ns, us, ms, s, m, h): "
		{ "1.5 s", NSEC_PER_SEC, NOTNUM "1.5 s" },
		{ " 1", NSEC_PER_SEC, NOTNUM " 1" },
		{ "+1", NSEC_PER_SEC, NOTNUM "+1" },
		{ "-1", NSEC_PER_SEC, NOTNUM "-1" },
		{ "1.5.0", NSEC_PER_SEC, NOTNUM "1.5.0" },
		{ "2x", NSEC_PER_SEC, NOTNUM "2x" },
		{ "1S", NSEC_PER_SEC, NOTNUM "1S" },
		{ ".s", NSEC_PER_SEC, NOTNUM ".s" },
		{ ".", NSEC_PER_SEC, NOTNUM "." },
		{ "s", NSEC_PER_SEC, NOTNUM "s" },
		{ "", NSEC_PER_SEC, "t is empty" },
		{ "1.0000000001", NSEC_PER_SEC,
		    "t is finer than a nanosecond: 1.0000000001" },
		{ "0.0000001", NSEC_PER_MSEC,
		    "t is finer than a nanosecond: 0.0000001" },
		{ "1.5ns", NSEC_PER_SEC,
		    "t is finer than a nanosecond: 1.5ns" },
		{ "3601s", NSEC_PER_SEC, "t is too large: 3601s (at most 1h)" },
		{ "1.5h", NSEC_PER_SEC, "t is too large: 1.5h (at most 1h)" },
		{ "99999999999999999999", NSEC_PER_SEC,
		    "t is too large: 99999999999999999999 (at most 1h)" },
		{ "0.5ns", NSEC_PER_SEC,
		    "t is finer than a nanosecond: 0.5ns" },
#undef NOTNUM
	};
	char err[ERRLEN], want[ERRLEN];
	struct num_job j;
	long long v;
	size_t i;
	int st;

	for (i = 0; i < NELEM(good); i++) {
		v = parse_time("t", good[i].s, 0, 3600 * NSEC_PER_SEC,
		    good[i].unit);
		CHECK(v == good[i].want, "parse_time(%s) is %lld, not %lld",
		    good[i].s, v, good[i].want);
	}
	for (i = 0; i < NELEM(bad); i++) {
		j = (struct num_job){ bad[i].s, 0, 3600 * NSEC_PER_SEC,
		    bad[i].unit };
		st = unit_exits(num_child, &j, err, sizeof(err));
		snprintf(want, sizeof(want), "latt: %s\ntry 'latt --help'\n",
		    bad[i].msg);
		CHECK(st == EXIT_USAGE && strcmp(err, want) == 0,
		    "parse_time('%s'): status %d, stderr '%s'", bad[i].s, st,
		    err);
	}
	/* A minimum above zero, in its largest exact unit. */
	j = (struct num_job){ "1ms", NSEC_PER_SEC, 3600 * NSEC_PER_SEC,
	    NSEC_PER_SEC };
	st = unit_exits(num_child, &j, err, sizeof(err));
	CHECK(st == EXIT_USAGE && strcmp(err, "latt: t is too small: 1ms (at "
	    "least 1s)\ntry 'latt --help'\n") == 0,
	    "parse_time('1ms') at least 1 s: status %d, stderr '%s'", st, err);
out:
	return;
}

/* A CPU list in the order given, ranges ascending; gaps found. */
static void
cpu_lists(void)
{
	static const int want1[] = { 0, 1, 2, 3, 8 }, want2[] = { 3, 1 };
	int *cpus = NULL;
	unsigned n = 0, i;

	cpulist_parse("cpus", "0-3,8", &cpus, &n);
	CHECK(n == NELEM(want1), "0-3,8: %u CPUs", n);
	for (i = 0; i < n; i++)
		CHECK(cpus[i] == want1[i], "0-3,8: CPU %u is %d", i, cpus[i]);
	cpulist_parse("cpus", "3,1", &cpus, &n);
	CHECK(n == 2 && cpus[0] == want2[0] && cpus[1] == want2[1],
	    "3,1: %u CPUs, %d first", n, cpus[0]);
	cpulist_parse("cpus", "5-5", &cpus, &n);
	CHECK(n == 1 && cpus[0] == 5, "5-5: %u CPUs", n);
	CHECK(cpulist_gap("1,,2", ',') && cpulist_gap(",1", ',') &&
	    cpulist_gap("1,", ',') && cpulist_gap("", ','),
	    "a gap is not found");
	CHECK(!cpulist_gap("1,2", ',') && !cpulist_gap("1", ',') &&
	    !cpulist_gap("1::2", ','), "a gap is found where there is none");
	CHECK(cpulist_gap("a::b", ':'), "a gap with ':' is not found");
out:
	free(cpus);
}

/* --fail-above's specs, as gate_parse cuts them. */
static void
gate_specs(void)
{
	struct config cfg;
	char arg[128];

	memset(&cfg, 0, sizeof(cfg));
	snprintf(arg, sizeof(arg), "p99=500us,timer.max=5ms");
	gate_parse(&cfg, arg);
	CHECK(cfg.nlimits == 2, "%u limits, want 2", cfg.nlimits);
	CHECK(cfg.limits[0].stat == STAT_P99 && !cfg.limits[0].timer &&
	    cfg.limits[0].value == 500 * NSEC_PER_USEC,
	    "p99=500us: stat %d, timer %d, %lld ns",
	    (int)cfg.limits[0].stat, cfg.limits[0].timer,
	    (long long)cfg.limits[0].value);
	CHECK(cfg.limits[1].stat == STAT_MAX && cfg.limits[1].timer &&
	    cfg.limits[1].value == 5 * NSEC_PER_MSEC,
	    "timer.max=5ms: stat %d, timer %d, %lld ns",
	    (int)cfg.limits[1].stat, cfg.limits[1].timer,
	    (long long)cfg.limits[1].value);
	snprintf(arg, sizeof(arg), "inversions=3,fast.missed=2.5%%");
	gate_parse(&cfg, arg);
	CHECK(cfg.nlimits == 4 && cfg.limits[2].order &&
	    cfg.limits[2].value == 3, "inversions=3: %u limits, order %d, %lld",
	    cfg.nlimits, cfg.limits[2].order, (long long)cfg.limits[2].value);
	CHECK(cfg.limits[3].frames != NULL &&
	    strcmp(cfg.limits[3].frames, "fast") == 0 &&
	    cfg.limits[3].value == 250, "fast.missed=2.5%%: class '%s', %lld",
	    cfg.limits[3].frames ? cfg.limits[3].frames : "(none)",
	    (long long)cfg.limits[3].value);
out:
	return;
}

/* --sweep's specs: the setting, its values in its unit, as given. */
static void
sweep_specs(void)
{
	struct config cfg;

	memset(&cfg, 0, sizeof(cfg));
	sweep_parse(&cfg, "clients=1,2,4");
	CHECK(cfg.sweep.kind == SWEEP_CLIENTS && cfg.sweep.n == 3 &&
	    cfg.sweep.v[0] == 1 && cfg.sweep.v[1] == 2 && cfg.sweep.v[2] == 4,
	    "clients=1,2,4: kind %d, %u values", (int)cfg.sweep.kind,
	    cfg.sweep.n);
	CHECK(strcmp(cfg.sweep.name, "clients") == 0 &&
	    strcmp(cfg.sweep.text[2], "4") == 0 && cfg.sweep.at == -1,
	    "clients=1,2,4: name %s, text '%s', at %d", cfg.sweep.name,
	    cfg.sweep.text[2], cfg.sweep.at);
	memset(&cfg, 0, sizeof(cfg));
	sweep_parse(&cfg, "delay=1,1.5ms,2000us");
	CHECK(cfg.sweep.kind == SWEEP_DELAY && cfg.sweep.n == 3 &&
	    cfg.sweep.v[0] == NSEC_PER_MSEC &&
	    cfg.sweep.v[1] == 1500 * NSEC_PER_USEC &&
	    cfg.sweep.v[2] == 2 * NSEC_PER_MSEC &&
	    strcmp(cfg.sweep.text[1], "1.5ms") == 0,
	    "delay=1,1.5ms,2000us (bare: ms): %u values", cfg.sweep.n);
	memset(&cfg, 0, sizeof(cfg));
	sweep_parse(&cfg, "slice=100,3ms");
	CHECK(cfg.sweep.kind == SWEEP_SLICE &&
	    cfg.sweep.v[0] == 100 * NSEC_PER_USEC &&
	    cfg.sweep.v[1] == 3 * NSEC_PER_MSEC, "slice=100,3ms (bare: us)");
	memset(&cfg, 0, sizeof(cfg));
	sweep_parse(&cfg, "work=0,64");
	CHECK(cfg.sweep.kind == SWEEP_WORK && cfg.sweep.v[0] == 0 &&
	    cfg.sweep.v[1] == 64, "work=0,64");
out:
	return;
}

/*
 * A usage error quotes a value by its first 60 bytes or so and "...",
 * cut between UTF-8 characters, control bytes escaped: one line.
 */
static void
quoted_values(void)
{
	static char big[130001], utf[202];
	const char *argv[4] = { "-c", big, "true", NULL };
	struct parse_job j = { argv, NULL };
	char err[ERRLEN], want[256];
	size_t i;
	int st;

	memset(big, 'x', sizeof(big) - 1);
	st = unit_exits(parse_child, &j, err, sizeof(err));
	snprintf(want, sizeof(want), "latt: clients is not a number: "
	    "%.60s...\ntry 'latt --help'\n", big);
	CHECK(st == EXIT_USAGE && strcmp(err, want) == 0,
	    "a 130 KB value: status %d, %zu bytes: %.100s", st, strlen(err),
	    err);
	utf[0] = 'a';
	for (i = 0; i < 100; i++)
		memcpy(utf + 1 + 2 * i, "\303\251", 2);
	argv[1] = utf;
	st = unit_exits(parse_child, &j, err, sizeof(err));
	CHECK(st == EXIT_USAGE && strstr(err, "...\ntry") != NULL &&
	    strlen(err) < 160, "a long UTF-8 value: status %d, %s", st, err);
	for (i = 0; err[i] != '\0'; i += utf8_len((unsigned char *)err + i,
	    strlen(err + i)))
		CHECK(utf8_len((unsigned char *)err + i, strlen(err + i)) > 0,
		    "a long UTF-8 value is cut inside a character: %s", err);
	argv[1] = "a\nb\t\001";
	st = unit_exits(parse_child, &j, err, sizeof(err));
	CHECK(st == EXIT_USAGE && strcmp(err, "latt: clients is not a number: "
	    "a\\x0ab\\x09\\x01\ntry 'latt --help'\n") == 0,
	    "control bytes: status %d, %s", st, err);
out:
	return;
}

/*
 * A bounded fuzz of options_parse: argument vectors from a fixed seed,
 * of latt's option names and letters, numbers in and out of range and
 * junk bytes.  Each parse ends in its child with status 0 (taken), 2 (a
 * usage error: exactly one line, then the hint), or 126 or 127 (a command
 * that cannot run: one line); never a signal.
 */
static const char *const fz_with[] = {
	"-c", "-f", "-t", "-s", "-S", "-l", "-x", "-d", "-n", "--clients",
	"--min-delay", "--max-delay", "--load", "--work", "--duration",
	"--samples", "--cpus", "--policy", "--prio", "--nice", "--cl", "--min",
	"--max", "--warmup", "--seed", "--repeat", "--split", "--busy",
	"--fail-above", "--sweep", "--order-slack", "--parent-prio",
};
static const char *const fz_without[] = {
	"-v", "-h", "-V", "--verbose", "--help", "--version", "--", "-", "-vv",
	"-vh", "-q", "--no-split", "--open-loop", "--histogram", "--json",
};
static const char *const fz_wrong[] = {
	"-z", "--bogus", "---", "---c", "--=", "--c", "-=", "--verbose=1",
	"--help=x", "-c=3", "--json=", "--log=-",
};
static const char *const fz_nums[] = {
	"0", "1", "2", "3", "5", "8", "16", "-1", "-0", "+5", "05", " 5", "5 ",
	"\t5", "0x10", "1e3", "1.5", "nan", "inf", "1000001", "3600001",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809",
	"18446744073709551616", "99999999999999999999999999", "1s", "2ms", "",
	"cpu", "cpu:2", "fork:1", "none", "mem:1", "pipe:1", "syscall",
	"yield:1", "cpu:", ":", "cpu:0", "cpu:99999", "none:1", "0-1", "0,1",
	"fifo", "rr", "other", "p99=1ms", "p99=", "clients=1,2", "work=",
	"1:nice=5", "2:policy=fifo:prio=3", "1:bogus", "1::", "1.5 s",
};
static const char *const fz_junk[] = {
	"", " ", "\xff\xfe", "\xc3\xa9", "\n", "-\n", "=", "==", "%s%n%s", "%n",
	"'", "\"", "\\", "-c\n3", "--clients=\xff", "\xe2\x80\x94" "c",
};

static const char *
fz_pick(const char *const *list, size_t n, uint64_t *rng)
{
	return list[splitmix64(rng) % n];
}

/* One word or two, into a (which holds them), their bytes from pool. */
static int
fz_token(const char **a, char *pool, uint64_t *rng)
{
	unsigned k = (unsigned)(splitmix64(rng) % 100), i, n;
	const char *opt, *val;

	if (k < 35) {
		opt = fz_pick(fz_with, NELEM(fz_with), rng);
		val = fz_pick(fz_nums, NELEM(fz_nums), rng);
		if (splitmix64(rng) % 10 < 4) {
			a[0] = opt;
			a[1] = val;
			return 2;
		}
		snprintf(pool, 64, "%s%s%s", opt, opt[1] == '-' ? "=" : "",
		    val);
		a[0] = pool;
		return 1;
	}
	if (k < 55)
		a[0] = fz_pick(fz_without, NELEM(fz_without), rng);
	else if (k < 70)
		a[0] = fz_pick(fz_wrong, NELEM(fz_wrong), rng);
	else if (k < 85)
		a[0] = fz_pick(fz_nums, NELEM(fz_nums), rng);
	else if (k < 95)
		a[0] = fz_pick(fz_junk, NELEM(fz_junk), rng);
	else {
		n = 1 + (unsigned)(splitmix64(rng) % 8);
		for (i = 0; i < n; i++)
			pool[i] = (char)(1 + splitmix64(rng) % 255);
		pool[n] = '\0';
		a[0] = pool;
	}
	return 1;
}

static void
parser_fuzz(void)
{
	static char pool[8][64];
	const char *a[24];
	struct parse_job j = { a, NULL };
	char err[ERRLEN], args[ERRLEN], *nl;
	uint64_t rng = FUZZ_SEED;
	int run, n, t, st, ntok;

	for (run = 0; run < FUZZ_RUNS; run++) {
		n = 0;
		if (splitmix64(&rng) % 10 < 8) {
			a[n++] = "-f0";
			a[n++] = "-t1";
		}
		ntok = (int)(splitmix64(&rng) % 7);
		for (t = 0; t < ntok; t++)
			n += fz_token(a + n, pool[t], &rng);
		a[n++] = splitmix64(&rng) % 10 < 9 ? "true" : "-d1";
		a[n] = NULL;
		st = unit_exits(parse_child, &j, err, sizeof(err));
		args[0] = '\0';
		say_args(args, sizeof(args), a);
		nl = strchr(err, '\n');
		CHECK(st == 0 || st == EXIT_USAGE || st == EXIT_NOEXEC ||
		    st == EXIT_NOTFOUND, "latt%s: status %d: %s", args, st,
		    err);
		if (st == EXIT_USAGE)
			CHECK(strncmp(err, "latt: ", 6) == 0 && nl != NULL &&
			    strcmp(nl, "\ntry 'latt --help'\n") == 0,
			    "latt%s: a usage error is not one line: %s", args,
			    err);
		else if (st != 0)
			CHECK(strncmp(err, "latt: ", 6) == 0 && nl != NULL &&
			    nl[1] == '\0', "latt%s: status %d is not one line: "
			    "%s", args, st, err);
		else
			CHECK(err[0] == '\0', "latt%s: taken, but stderr: %s",
			    args, err);
	}
out:
	return;
}

/*
 * A child's exit, at once: what it said is flushed, and the leak check
 * of the sanitized build (0.2 s an exit) is skipped, since a usage
 * error leaves the parser's allocations to the exit on purpose.
 * Registered last, it runs before the sanitizer's own handler.
 */
static void
leave_now(int status, void *arg)
{
	(void)arg;
	fflush(stderr);
	_exit(status);
}

/*
 * In a child: options_parse of "latt" and job->argv, stdout (--help)
 * thrown away; then job->look, which says what is wrong and exits 1.
 */
static void
parse_child(void *arg)
{
	const struct parse_job *job = arg;
	char *argv[MAXARGS * 4];
	struct config cfg;
	int n = 0;

	if (freopen("/dev/null", "w", stdout) == NULL ||
	    on_exit(leave_now, NULL) != 0)
		_exit(125);
	/* Writable, as latt's own argv is (gate_parse cuts its value). */
	argv[n++] = "latt";
	for (; job->argv[n - 1] != NULL && n < (int)NELEM(argv) - 1; n++)
		if ((argv[n] = strdup(job->argv[n - 1])) == NULL)
			_exit(125);
	argv[n] = NULL;
	optind = 0;
	options_parse(n, argv, &cfg);
	if (job->look != NULL)
		job->look(&cfg);
	_exit(0);
}

/* In a child: parse_num, or parse_time with a unit. */
static void
num_child(void *arg)
{
	const struct num_job *j = arg;

	if (on_exit(leave_now, NULL) != 0)
		_exit(125);
	if (j->unit == 0)
		parse_num("n", j->s, j->min, j->max);
	else
		parse_time("t", j->s, j->min, j->max, j->unit);
	_exit(0);
}

/* Whether every case of t is refused with its line; else why says. */
static int
refused(const struct refusal *t, size_t n, char *why, size_t len)
{
	struct parse_job j = { NULL, NULL };
	char err[ERRLEN], want[ERRLEN], args[ERRLEN];
	size_t i;
	int st;

	for (i = 0; i < n; i++) {
		j.argv = t[i].argv;
		st = unit_exits(parse_child, &j, err, sizeof(err));
		snprintf(want, sizeof(want), "latt: %s\ntry 'latt --help'\n",
		    t[i].msg);
		if (st != EXIT_USAGE || strcmp(err, want) != 0) {
			args[0] = '\0';
			say_args(args, sizeof(args), t[i].argv);
			snprintf(why, len, "latt%.1000s: status %d, stderr "
			    "'%.1000s', want 'latt: %s'", args, st, err,
			    t[i].msg);
			return 0;
		}
	}
	return 1;
}

/* Whether argv is taken and look finds the config right; else why. */
static int
accepted(const char *const *argv, void (*look)(const struct config *),
    char *why, size_t len)
{
	struct parse_job j = { argv, look };
	char err[ERRLEN], args[ERRLEN];
	int st;

	st = unit_exits(parse_child, &j, err, sizeof(err));
	if (st == 0 && err[0] == '\0')
		return 1;
	args[0] = '\0';
	say_args(args, sizeof(args), argv);
	snprintf(why, len, "latt%.1000s: status %d: %.1000s", args, st, err);
	return 0;
}

/* The words of argv, each quoted, appended to buf. */
static void
say_args(char *buf, size_t len, const char *const *argv)
{
	size_t at = strlen(buf);

	for (; *argv != NULL && at < len; argv++) {
		snprintf(buf + at, len - at, " '%s'", *argv);
		at += strlen(buf + at);
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		{ "parse_num: digits only (' +5', ' 4', '+4', '-0' refused)",
		    plain_numbers },
		{ "parse_time: decimals and units ('1.5 s' refused)",
		    scaled_times },
		{ "cpulist: the order given, ranges, gaps", cpu_lists },
		{ "gate_parse: STAT=TIME, timer., inversions, CLASS.missed",
		    gate_specs },
		{ "sweep_parse: the setting and its values in its unit",
		    sweep_specs },
		{ "options: -c8, -c 8, --clients=8, --clients 8",
		    forms_of_a_value },
		{ "options: -s/-f, -S/-t, long and short, set the delays",
		    forms_of_the_delays },
		{ "options: the default delays with and without a command",
		    default_delays },
		{ "options: decimals and units wherever a time is taken",
		    times_everywhere },
		{ "options: a negative nice, --, options after the command",
		    signs_and_the_command },
		{ "usage: numbers refused, one line each", refuse_numbers },
		{ "usage: times refused, one line each", refuse_times },
		{ "usage: CPU lists refused, one line each", refuse_cpulists },
		{ "usage: class attributes refused, one line each",
		    refuse_classes },
		{ "usage: --fail-above specs refused, one line each",
		    refuse_gates },
		{ "usage: --sweep specs refused, one line each",
		    refuse_sweeps },
		{ "usage: options that conflict or need another, one line each",
		    refuse_rules },
		{ "usage: a value quoted by 60 bytes, UTF-8 whole, escaped",
		    quoted_values },
		{ "fuzz of options_parse: status 0, 2, 126 or 127, one line",
		    parser_fuzz },
	};

	return unit_main(tests, NELEM(tests));
}
