/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * help.c: the prose of latt --help (help.h), which options.c puts round
 * the help of its table of options.
 */
#include "cli/help.h"

/* The usage lines after latt's own, which options.c makes. */
const char help_usage[] =
"       latt compare [-h] [--all] [--confidence=PCT] [--details]\n"
"            [--drop-noisy] [--json[=FILE]]\n"
"            [--fail-if-worse=SPEC [--bisect] [--ktap[=FILE]]]\n"
"            A.json[,A2.json...] B.json[,...] [C.json ...]\n"
"       latt compare --by-knob [options] FILE.json\n";

/* What latt does, after the usage lines. */
const char help_intro[] =
"\n"
"Measures scheduler wake-up latency while COMMAND runs: latt forks CLIENTS\n"
"processes blocked on pipes, and after each random sleep writes a\n"
"CLOCK_MONOTONIC stamp to every one; each replies with the moment it woke.\n"
"How late each of the parent's sleeps woke is a second series, the timer\n"
"latency.  A single COMMAND argument runs as /bin/sh -c COMMAND; several\n"
"run as an argument vector; options go before COMMAND.  Without COMMAND,\n"
"latt runs 10 s (or --duration) beside the --load loads, or a cpu spin on\n"
"every CPU, with 8 clients and 1-3 ms delays where not given: plain 'latt'\n"
"is a useful run.\n";

/*
 * The title of each task of the options (options.c's enum group); the
 * last is latt compare's, before -h and -V.
 */
const char *const help_group[] = {
	"\nThe run:\n", "\nClients and classes:\n", "\nWorkload and loads:\n",
	"\nOutputs (the summary goes to stdout):\n", "\nGates (for CI):\n",
	"\nExplain a spike:\n",
"\n"
"Compare:\n"
"  latt compare A.json B.json compares saved results run by run: mean and\n"
"  percentiles with 97.5% intervals of the change, and a verdict per row\n"
"  (worse, better, noise, or cannot tell with the reason: a verdict needs 3\n"
"  runs a side), then the kernel's counts (higher, lower or noise); a\n"
"  warning for each setting or host state (THP, cpuidle, sched_* tunables,\n"
"  isolated CPUs...) that differs, and for each noisy run (--drop-noisy\n"
"  leaves them out); see latt compare --help.\n"
"\n"
};

/* After -h and -V: how latt behaves, the exit statuses, examples. */
const char help_end[] =
"\n"
"Each round wakes the clients in a random order from the seed, after an\n"
"unmeasured priming round.  A percentile with fewer than 10 samples beyond\n"
"it is shown as -.  A wake-up unanswered at the end (a stopped client) is\n"
"reported as pending, its age a lower bound of the worst.  Between rounds,\n"
"every 100 ms, latt samples what else ran: a run where processes not latt's\n"
"used 10% of the CPUs or more is marked noisy.  The summary ends with at\n"
"most five notes of what makes its figures doubtful (noisy, few samples,\n"
"clients unreachable, a stall, a failed workload); --details adds every\n"
"fact, and \"Where it woke\": the samples by the client's CPU against the\n"
"parent's as it wrote (same CPU, SMT sibling, same LLC, other LLC, other\n"
"node; from sysfs), each kind's share, p50 and p99, and the migrated.\n"
"\n"
"At a terminal latt is a well-mannered job: the workload gets the terminal,\n"
"Ctrl-C ends the run, Ctrl-Z suspends all of it and fg resumes it.  Nothing\n"
"it started outlives it (setsid escapees; latt-guard ends all if latt is\n"
"killed).  A slow --log reader is a stall; loads that could not all start are\n"
"counted (cpu: 1 of 2 processes) and the limit that refused is named.\n"
"\n"
"Exit status: 0 ran normally, 1 runtime failure, 2 usage (one line, then\n"
"\"try 'latt --help'\"; nothing ran), 3 a latency threshold was exceeded\n"
"(or latt compare's gate failed), 4 the workload failed or was stopped from\n"
"elsewhere, 5 a gate could not tell (--fail-above: too few samples to\n"
"decide a limit; --fail-if-worse: a row's interval holds the limit); 1 and\n"
"4 outrank 3, which outranks 5; 126 the command cannot be executed, 127 it\n"
"is not found (both: one line, before anything runs, no summary); 128+N\n"
"the run ended at signal N, other than SIGINT, SIGTERM or SIGHUP.  With\n"
"--bisect, for git bisect run: 0 met, 1 exceeded, 125 for 4, 5, 126 and\n"
"127 (skip the commit), 255 for the rest (abort the bisect).\n"
"\n"
"Examples: latt -c8 'make -j4'\n"
"          latt -c4:slice=100us:name=interactive -c4 -f1 -t3 'make -j4'\n"
"          latt -c2:nice=-10 -c2:nice=19 -c1:runtime=100us:period=1ms -d 30\n"
"          latt -c2 -l cpu -l pipe:1 -x 256 sleep 10\n"
"          latt -c2 --cpus=1 --policy=fifo --prio=80 -m -d 5m \\\n"
"              --fail-above=p99=100us,max=1ms\n"
"          latt -c8 --json=run.json --plot=run.svg --histogram 'make -j4'\n"
"          latt -c4 -d10 --repeat=5 --json=$(uname -r).json\n";
