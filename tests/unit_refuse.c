/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the refusals of the command line that the order, class,
 * frame, load and sweep scripts (tests/t_order.sh, t_classes.sh,
 * t_frames.sh, t_loads.sh, t_sweep.sh) made through ./latt, one process a
 * case: each argv is given to options_parse in a child (unit_exits),
 * which must exit 2 with exactly "latt: MESSAGE" and "try 'latt --help'"
 * on stderr.  Each script keeps one such case end to end (that nothing
 * is run and stdout stays empty).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "config.h"
#include "tests/unit.h"

#define MAXWORDS	40
#define ERRLEN		1024

/*
 * A refusal: the words after "latt" (split at blanks; <empty> is an empty
 * word), and its message (a message ending in "..." is the start of one
 * whose end is the machine's: the kernel's limits).  The workload "true"
 * follows the words.
 */
struct refusal {
	const char	*args;
	const char	*msg;
};

/* Seventeen loads: one more than --load may be given. */
#define SEVENTEEN_LOADS	"-l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 "	\
	"-l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 "	\
	"-l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1 -l cpu:1"

/* tests/t_order.sh */
static const struct refusal order_cases[] = {
{ "-c1:prio=80:busy=0",
	    "class busy is too small: 0 (at least 1ns)" },
{ "-c1:prio=80:busy=-1ms",
	    "class busy is not a number with an optional unit (ns, us, "
	    "ms, s, m, h): -1ms" },
{ "--busy=0",
	    "busy is too small: 0 (at least 1ns)" },
{ "--busy=-5ms",
	    "busy is not a number with an optional unit (ns, us, ms, "
	    "s, m, h): -5ms" },
{ "-c1:prio=80:busy=1x",
	    "class busy is not a number with an optional unit (ns, us, "
	    "ms, s, m, h): 1x" },
{ "--order-slack=100us",
	    "order-slack needs real-time clients (policy fifo or rr): "
	    "the order check is theirs" },
{ "-c1:nice=5:busy=1ms --order-slack=1ms",
	    "order-slack needs real-time clients (policy fifo or rr): "
	    "the order check is theirs" },
{ "--fail-above=inversions=0",
	    "fail-above inversions needs real-time clients (policy "
	    "fifo or rr)" },
{ "--policy=fifo --fail-above=inversions=-1",
	    "fail-above inversions is too small: -1 (at least 0)" },
{ "-c1:nice=5 -c1:nice=1 --fail-above=inversions=2",
	    "fail-above inversions needs real-time clients (policy "
	    "fifo or rr)" },
};

/* tests/t_classes.sh */
static const struct refusal classes_cases[] = {
{ "-c2:nice=99",
	    "class nice is too large: 99 (at most 19)" },
{ "-c2:policy=fast",
	    "class policy is not one of other, batch, idle, fifo, rr, "
	    "deadline: fast" },
{ "-c2:foo=1",
	    "clients: unknown attribute foo in -c 2:foo=1 (nice, "
	    "policy, prio, slice, runtime, deadline, period, busy, "
	    "frame, cpus, name)" },
{ "-c2:",
	    "clients: an empty attribute in -c 2:" },
{ "-c2::nice=1",
	    "clients: an empty attribute in -c 2::nice=1" },
{ "-c0:nice=1",
	    "clients is too small: 0 (at least 1)" },
{ "-c1:nice",
	    "clients: not ATTR=VALUE: nice in -c 1:nice (nice, policy, "
	    "prio, slice, runtime, deadline, period, busy, frame, "
	    "cpus, name)" },
{ "-c1:policy=other:prio=10",
	    "class c1: prio needs policy fifo or rr" },
{ "-c1:policy=rr:slice=100us",
	    "class c1: slice is for the fair policies (other, batch, "
	    "idle), not rr" },
{ "-c1:policy=deadline",
	    "class policy=deadline: policy deadline needs runtime=" },
{ "-c1:policy=deadline:runtime=100us",
	    "class c1: policy deadline needs deadline= or period=" },
{ "-c1:runtime=2ms:period=1ms",
	    "class c1: runtime (2000 us) is above the period (1000 us)" },
{ "-c1:runtime=1ms:deadline=1ms:period=500us",
	    "class c1: deadline (1000 us) is above the period (500 us)" },
{ "-c1:runtime=100us:period=10s",
	    "class c1: period 10000000 us is outside the kernel's range..." },
{ "-c1:runtime=500ns:period=1ms",
	    "class c1: runtime 500 ns is below the kernel's minimum of "
	    "1024 ns" },
{ "-c1:runtime=100us:period=1ms:nice=3",
	    "class c1: nice has no meaning under SCHED_DEADLINE" },
{ "-c1:runtime=100us:period=1ms:cpus=0",
	    "class c1: SCHED_DEADLINE clients cannot be pinned (cpus=, "
	    "--cpus): the kernel admits them only on every CPU of "
	    "their root domain" },
{ "-c1:cpus=9999",
	    "class cpus is too large: 9999 (at most 1023)" },
{ "-c1:name=a -c1:name=a",
	    "two classes are named a" },
{ "-c1:name=Max1",
	    "class name Max1: names may not contain Max (a word of the "
	    "2009 summary)" },
{ "-c1:name=timer",
	    "class name timer is taken by a block of the summary or a "
	    "series of the results" },
{ "-c1:name=a/b",
	    "class name must be 1 to 24 letters, digits or _.,+=-: a/b" },
{ "-c1:slice=0",
	    "class slice is too small: 0 (at least 1ns)" },
};

/* tests/t_frames.sh */
static const struct refusal frames_cases[] = {
{ "-c1:frame=0:busy=1ms",
	    "class frame is too small: 0 (at least 100us)" },
{ "-c1:frame=-5ms:busy=1ms",
	    "class frame is not a number with an optional unit (ns, "
	    "us, ms, s, m, h): -5ms" },
{ "-c1:frame=20ms",
	    "class frame=20ms: frame= needs busy= (the work of each "
	    "frame)" },
{ "-c1:frame=2s:busy=1ms",
	    "class frame is too large: 2s (at most 1s)" },
{ "-c1:frame=20ms:busy=4ms:policy=deadline:runtime=5ms:period=30ms",
	    "class c1: frame (20000 us) and the deadline period (30000 "
	    "us) differ: a frame's deadline is its period" },
{ "-c2 --fail-above=video.missed=1%",
	    "fail-above video.missed: no frame class is named video" },
{ "-c1:frame=20ms:busy=4ms:name=video --fail-above=video.missed=1",
	    "fail-above missed: the limit needs a % sign (for example "
	    "video.missed=1%): 1" },
{ "-c1:frame=20ms:busy=4ms:name=video --fail-above=video.missed=101%",
	    "fail-above missed is too large: 101 (at most 100)" },
{ "-c1 -c1:frame=20ms:busy=4ms:name=v --fail-above=default.missed=5%",
	    "fail-above default.missed: no frame class is named default" },
};

/* tests/t_loads.sh */
static const struct refusal loads_cases[] = {
{ "-l foo",
	    "load has an unknown kind: foo (cpu, syscall, yield, fork, "
	    "pipe, mem or none)" },
{ "-l cpu:0",
	    "load count is too small: 0 (at least 1)" },
{ "-l cpu:",
	    "load: an empty item in cpu:" },
{ "-l cpu:x",
	    "load count is not a number: x" },
{ "-l cpu:-1",
	    "load count is too small: -1 (at least 1)" },
{ "-l cpu:99999",
	    "load count is too large: 99999 (at most 1024)" },
{ "-l none:2",
	    "load none takes no count: none:2" },
{ "-l  <empty>",
	    "load has an unknown kind:  (cpu, syscall, yield, fork, "
	    "pipe, mem or none)" },
{ "-l :3",
	    "load has an unknown kind: :3 (cpu, syscall, yield, fork, "
	    "pipe, mem or none)" },
{ "-l cpu:2:3",
	    "load: not N or cpus=LIST: 3 in cpu:2:3" },
{ "-l CPU",
	    "load has an unknown kind: CPU (cpu, syscall, yield, fork, "
	    "pipe, mem or none)" },
{ "-x -1",
	    "work is too small: -1 (at least 0)" },
{ "-x abc",
	    "work is not a number: abc" },
{ "-x  <empty>",
	    "work is empty" },
{ "-x 1048577",
	    "work is too large: 1048577 (at most 1048576)" },
{ "-x 64k",
	    "work is not a number: 64k" },
{ SEVENTEEN_LOADS,
	    "too many loads: cpu:1 (at most 16 --load options)" },
};

/* tests/t_sweep.sh */
static const struct refusal sweep_cases[] = {
{ "-d1 --sweep=foo=1,2",
	    "sweep: unknown setting: foo (clients, load, work, slice "
	    "or delay)" },
{ "-d1 --sweep=clients=",
	    "sweep clients has no values: give clients=V1,V2,..." },
{ "-d1 --sweep=clients=1,,2",
	    "sweep: an empty value in clients=1,,2" },
{ "-d1 --sweep=clients=1,2,1",
	    "sweep: clients 1 is given twice (as 1): clients=1,2,1" },
{ "-d1 --sweep=delay=1,1000us",
	    "sweep: delay 1000us is given twice (as 1): delay=1,1000us" },
{ "-d1 --sweep=clients=0",
	    "sweep clients is too small: 0 (at least 1)" },
{ "-d1 --sweep=load=1,5000 -l yield",
	    "sweep load is too large: 5000 (at most 1024)" },
{ "-d1 --sweep=load=1,2",
	    "sweep load needs exactly one --load=KIND (0 given)" },
{ "-d1 --sweep=load=1,2 -l yield -l cpu",
	    "sweep load needs exactly one --load=KIND (2 given)" },
{ "-d1 --sweep=clients=1,2 --baseline=/nonexistent/r.json",
	    "--sweep and --baseline: compare a sweep's values with "
	    "latt compare FILE@VALUE instead" },
{ "-d1 --sweep=clients=1,2 --sweep=work=1,2",
	    "sweep is given twice: work=1,2 (one setting a sweep)" },
{ "-d1 --sweep=clients=1,2 -c1:nice=1 -c1",
	    "sweep clients needs a plain -c N, not classes" },
{ "-d1 -l yield:2:cpus=1-0",
	    "load cpus: the range 1-0 is backwards: 1-0" },
{ "-d1 -l yield:2:prio=3",
	    "load: not N or cpus=LIST: prio=3 in yield:2:prio=3" },
};

static void	 parse_words(void *);
static void	 refuse_all(const struct refusal *, size_t);
static int	 said_as(const char *, const char *);

static void
test_order(void)
{
	refuse_all(order_cases, NELEM(order_cases));
}

static void
test_classes(void)
{
	refuse_all(classes_cases, NELEM(classes_cases));
}

static void
test_frames(void)
{
	refuse_all(frames_cases, NELEM(frames_cases));
}

static void
test_loads(void)
{
	refuse_all(loads_cases, NELEM(loads_cases));
}

static void
test_sweep(void)
{
	refuse_all(sweep_cases, NELEM(sweep_cases));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		{ "refuse_order_busy_slack_inversions", test_order },
		{ "refuse_classes", test_classes },
		{ "refuse_frames", test_frames },
		{ "refuse_loads_and_work", test_loads },
		{ "refuse_sweep", test_sweep },
	};

	return unit_main(tests, NELEM(tests));
}

/* In the child: the case's words (and "true") to options_parse. */
static void
parse_words(void *arg)
{
	const struct refusal *r = arg;
	static char *argv[MAXWORDS + 3];
	static struct config cfg;
	char *w, *s;
	int argc = 0;

	if ((s = strdup(r->args)) == NULL)
		_exit(99);
	argv[argc++] = "latt";
	for (w = strtok(s, " "); w != NULL && argc <= MAXWORDS;
	    w = strtok(NULL, " "))
		argv[argc++] = strcmp(w, "<empty>") == 0 ? "" : w;
	argv[argc++] = "true";
	argv[argc] = NULL;
	options_parse(argc, argv, &cfg);
}

/*
 * Every case refused: status 2 and exactly its two lines.  Each case that
 * is not is named in the failure (the first three, and how many).
 */
static void
refuse_all(const struct refusal *t, size_t n)
{
	char err[ERRLEN], said[600] = "";
	size_t i, nbad = 0, len;
	int st;

	for (i = 0; i < n; i++) {
		st = unit_exits(parse_words, (void *)&t[i], err, sizeof(err));
		if (st == 2 && said_as(err, t[i].msg))
			continue;
		if (nbad++ < 3) {
			len = strlen(said);
			err[strcspn(err, "\n")] = '\0';
			snprintf(said + len, sizeof(said) - len, "%s'%.60s': "
			    "status %d, '%.100s'", len > 0 ? "; " : "", t[i].args,
			    st, err);
		}
	}
	CHECK(nbad == 0, "%zu of %zu not refused as they should be: %s",
	    nbad, n, said);
out:
	;
}

/* Whether err is exactly "latt: MSG" (MSG...: its start) and the hint. */
static int
said_as(const char *err, const char *msg)
{
	static const char hint[] = "try 'latt --help'\n";
	const char *nl = strchr(err, '\n');
	size_t n = strlen(msg);

	if (strncmp(err, "latt: ", 6) != 0 || nl == NULL ||
	    strcmp(nl + 1, hint) != 0)
		return 0;
	err += 6;
	if (n > 3 && strcmp(msg + n - 3, "...") == 0)
		return strncmp(err, msg, n - 3) == 0;
	return (size_t)(nl - err) == n && strncmp(err, msg, n) == 0;
}
