/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt: scheduler wake-up latency tester.
 *
 * A parent forks N clients, each blocked reading its own pipe.  While a
 * workload runs, the parent sleeps a random while, writes a CLOCK_MONOTONIC
 * stamp to every client, and each client replies with the moment it woke.
 * The differences are the wake-up latencies.  This file holds the usage,
 * the options and the orchestration of a run.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "latt.h"

#define MAX_CLIENTS	1000000
#define MAX_DELAY_MS	3600000		/* one hour */
#define SPARE_FDS	64		/* descriptors beyond two a client */

volatile sig_atomic_t got_stop;
volatile sig_atomic_t got_child;

static const char *progname = "latt";

static void	 help(void) __attribute__((noreturn));
static void	 usage_error(const char *, ...)
		    __attribute__((noreturn, format(printf, 1, 2)));
static void	 parse_args(int, char **, struct config *);
static void	 parse_load(const char *, struct config *);
static int	 loads_only_allowed(const struct config *);
static void	 setup_signals(void);
static void	 open_std_fds(void);
static int	 raise_nofile(unsigned);
static int	 verbose_sink(void *, const struct sample *);
static int	 report_failure(const struct result *);

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct result res;
	struct engine *eng;
	int status, stopsig;

	open_std_fds();
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return compare_main(argc - 1, argv + 1);
	parse_args(argc, argv, &cfg);
	setup_signals();
	if (raise_nofile(cfg.nclients) == -1)
		return EXIT_RUNTIME;
	/* Orphans of the workload come back to us, to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	memset(&res, 0, sizeof(res));
	if (stats_init(&res.lat, STATS_SUB_BITS) == -1 ||
	    stats_init(&res.work, STATS_SUB_BITS) == -1) {
		fprintf(stderr, "%s: stats_init: %s\n", progname,
		    strerror(errno));
		return EXIT_RUNTIME;
	}

	eng = clients_start(&cfg, &res);
	res.start = now_ns();
	if (res.stop == STOP_NONE) {
		if (workload_start(&cfg, &res.wl) == -1) {
			res.stop = STOP_ERROR;
			res.fail_what = "fork";
			res.fail_errno = errno;
		} else if (res.wl.reaped)
			res.stop = STOP_WORKLOAD;
	}
	if (res.stop == STOP_NONE)
		measure_run(&cfg, eng, &res, cfg.verbose ? verbose_sink : NULL,
		    stderr);
	res.end = now_ns();

	stopsig = res.stop == STOP_SIGNAL ? res.stop_signal : SIGTERM;
	workload_stop(&res.wl, stopsig);
	clients_stop(eng, &res);

	report_text(stdout, &cfg, &res);
	status = report_failure(&res);
	stats_free(&res.lat);
	stats_free(&res.work);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", progname, strerror(errno));
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	return status;
}

/*
 * Says on stderr, in one line, why the run failed, and returns the exit
 * status.  A runtime failure outranks a failed workload.
 */
static int
report_failure(const struct result *res)
{
	int st = res->dead_status;

	switch (res->stop) {
	case STOP_CLIENT:
		if (st == -1)
			fprintf(stderr, "%s: client %u (pid %d) hung up\n",
			    progname, res->dead_client, (int)res->dead_pid);
		else if (WIFSIGNALED(st))
			fprintf(stderr, "%s: client %u (pid %d) was killed by "
			    "signal %d (%s)\n", progname, res->dead_client,
			    (int)res->dead_pid, WTERMSIG(st),
			    strsignal(WTERMSIG(st)));
		else
			fprintf(stderr, "%s: client %u (pid %d) exited with "
			    "status %d\n", progname, res->dead_client,
			    (int)res->dead_pid, WEXITSTATUS(st));
		return EXIT_RUNTIME;
	case STOP_ERROR:
	case STOP_SINK:
		if (res->fail_errno == EAGAIN &&
		    strcmp(res->fail_what, "fork") == 0)
			fprintf(stderr, "%s: fork: %s (the process limit, "
			    "ulimit -u, is too low for the clients asked "
			    "for)\n", progname, strerror(res->fail_errno));
		else if (res->fail_errno == EMFILE || res->fail_errno == ENFILE)
			fprintf(stderr, "%s: %s: %s (raise the open files "
			    "limit, ulimit -n)\n", progname, res->fail_what,
			    strerror(res->fail_errno));
		else
			fprintf(stderr, "%s: %s: %s\n", progname,
			    res->fail_what, strerror(res->fail_errno));
		return EXIT_RUNTIME;
	default:
		break;
	}
	if (workload_failed(&res->wl)) {
		if (res->wl.exec_errno)
			fprintf(stderr, "%s: cannot run the workload: %s\n",
			    progname, strerror(res->wl.exec_errno));
		else if (WIFEXITED(res->wl.status))
			fprintf(stderr, "%s: the workload exited with status "
			    "%d\n", progname, WEXITSTATUS(res->wl.status));
		else
			fprintf(stderr, "%s: the workload was killed by signal "
			    "%d (%s)\n", progname, WTERMSIG(res->wl.status),
			    strsignal(WTERMSIG(res->wl.status)));
		return EXIT_WORKLOAD;
	}
	return EXIT_OK;
}

static int
verbose_sink(void *arg, const struct sample *s)
{
	report_verbose(arg, s);
	return 0;
}

static void
on_stop(int sig)
{
	got_stop = sig;
}

static void
on_child(int sig)
{
	(void)sig;
	got_child = 1;
}

/*
 * latt never trusts the dispositions it inherits (a script's "cmd &" starts
 * it with SIGINT ignored): it sets every one it relies on.
 */
static void
setup_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A closed stdin, stdout or stderr would be reused by a pipe: fill them. */
static void
open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) != -1 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/*
 * Each client costs the parent two descriptors.  Raises the soft limit up
 * to the hard one when needed; fails, before anything starts, when even
 * that is too low.
 */
static int
raise_nofile(unsigned nclients)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)nclients * 2 + SPARE_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		fprintf(stderr, "%s: getrlimit: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		fprintf(stderr, "%s: %u clients need %llu open files, but the "
		    "hard limit is %llu: raise it (ulimit -Hn, or nofile in "
		    "limits.conf) or use fewer clients\n", progname, nclients,
		    (unsigned long long)need,
		    (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		fprintf(stderr, "%s: setrlimit: raising the open files limit "
		    "to %llu: %s\n", progname, (unsigned long long)need,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static const struct option longopts[] = {
	{ "clients",	required_argument,	NULL,	'c' },
	{ "min-delay",	required_argument,	NULL,	'f' },
	{ "max-delay",	required_argument,	NULL,	't' },
	{ "load",	required_argument,	NULL,	'l' },
	{ "work",	required_argument,	NULL,	'x' },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "help",	no_argument,		NULL,	'h' },
	{ "version",	no_argument,		NULL,	'V' },
	{ NULL,		0,			NULL,	0 }
};

static void
parse_args(int argc, char **argv, struct config *cfg)
{
	long long min = 100, max = 500;
	int ch;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nclients = 1;
	cfg->seed = (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32);

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:c:f:l:s:t:S:vx:hV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			cfg->nclients = parse_num("clients", optarg, 1,
			    MAX_CLIENTS);
			break;
		case 'f':
		case 's':
			min = parse_num("min-delay", optarg, 0, MAX_DELAY_MS);
			break;
		case 't':
		case 'S':
			max = parse_num("max-delay", optarg, 0, MAX_DELAY_MS);
			break;
		case 'l':
			parse_load(optarg, cfg);
			break;
		case 'v':
			cfg->verbose = 1;
			break;
		case 'x':
			cfg->work_kb = parse_num("work", optarg, 0,
			    WORK_KB_MAX);
			break;
		case 'h':
			help();
		case 'V':
			printf("latt %s\n", LATT_VERSION);
			exit(EXIT_OK);
		case ':':
			usage_error("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt != 0)
				usage_error("unknown option: -%c", optopt);
			usage_error("unknown option: %s", argv[optind - 1]);
		}
	}
	if (min > max)
		usage_error("min-delay (%lld ms) is above max-delay (%lld ms)",
		    min, max);
	cfg->min_delay = min * NSEC_PER_MSEC;
	cfg->max_delay = max * NSEC_PER_MSEC;

	if (optind >= argc) {
		if (loads_only_allowed(cfg))
			return;
		if (cfg->load_given)
			usage_error("--load without a command needs a command "
			    "to end the run (for example: latt -l cpu -c8 "
			    "sleep 10)");
		usage_error("no workload command given (for example: "
		    "latt -c8 'make -j4')");
	}
	cfg->cmd = argv + optind;
	cfg->ncmd = argc - optind;
	if (cfg->ncmd == 1 && cfg->cmd[0][0] == '\0')
		usage_error("the workload command is empty");
}

/*
 * Whether a run without a command may go ahead: it would measure beside
 * the --load loads only (cfg->cmd NULL, cfg->ncmd 0; workload.c, measure.c
 * and report.c all handle that run).  Nothing but a signal would end such
 * a run, so until a run can be given a duration it is refused, and a
 * command is required.  Once --duration exists, this is where to say yes:
 * return 1 when a duration is set, and make a run with neither a command
 * nor --load default to --load=cpu for 10 s (the bare `latt`).
 */
static int
loads_only_allowed(const struct config *cfg)
{
	(void)cfg;
	return 0;
}

/*
 * --load=KIND[:N]: N processes (pipe: pairs) of a built-in load, N the
 * online CPUs by default.  "none" starts nothing but counts as a --load
 * given.  The count goes through parse_num like every number.
 */
static void
parse_load(const char *arg, struct config *cfg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
	long ncpu;
	int kind;

	if ((kind = load_kind(arg, len)) == -1)
		usage_error("load has an unknown kind: %s (cpu, syscall, yield, "
		    "fork, pipe, mem or none)", arg);
	cfg->load_given = 1;
	if (kind == LOAD_NONE) {
		if (colon != NULL)
			usage_error("load none takes no count: %s", arg);
		return;
	}
	if (cfg->nload == LOAD_MAX)
		usage_error("too many loads: %s (at most %d --load options)",
		    arg, LOAD_MAX);
	cfg->load[cfg->nload].kind = kind;
	if (colon != NULL)
		cfg->load[cfg->nload].n = parse_num("load count", colon + 1, 1,
		    LOAD_NMAX);
	else {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		cfg->load[cfg->nload].n = ncpu < 1 ? 1 :
		    ncpu > LOAD_NMAX ? LOAD_NMAX : (unsigned)ncpu;
	}
	cfg->nload++;
}

/*
 * The one parser for every number from the user: the whole string must be a
 * decimal number within [min, max], else a usage error names the option.
 */
long long
parse_num(const char *name, const char *s, long long min, long long max)
{
	long long v;
	char *end;

	if (*s == '\0')
		usage_error("%s is empty", name);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		usage_error("%s is not a number: %s", name, s);
	if ((errno == ERANGE && v == LLONG_MAX) || v > max)
		usage_error("%s is too large: %s (at most %lld)", name, s, max);
	if (errno == ERANGE || v < min)
		usage_error("%s is too small: %s (at least %lld)", name, s, min);
	return v;
}

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

#define SYNOPSIS \
	"usage: latt [-hVv] [-c clients] [-f min-ms] [-t max-ms] " \
	"[-l kind[:n]] [-x kb]\n" \
	"            command [arg ...]\n" \
	"       latt compare [-h] [--fail-if-worse=SPEC] A.json[,A2.json...] " \
	"B.json[,...] [C.json ...]\n"

static void
help(void)
{
	fputs(SYNOPSIS, stdout);
	fputs(
"\n"
"Measures scheduler wake-up latency while COMMAND runs: latt forks CLIENTS\n"
"processes blocked on pipes, and after each random sleep writes a\n"
"CLOCK_MONOTONIC stamp to every one; each replies with the moment it woke.\n"
"A single COMMAND argument runs as /bin/sh -c COMMAND; several run as an\n"
"argument vector.\n"
"\n"
"  -c, --clients=N     client processes (default 1)\n"
"  -f, --min-delay=MS  shortest sleep between rounds, ms (default 100);\n"
"                      -s is the same\n"
"  -t, --max-delay=MS  longest sleep between rounds, ms (default 500);\n"
"                      -S is the same\n"
"  -l, --load=KIND[:N] run a built-in load beside COMMAND: N processes\n"
"                      (default: one per online CPU) in their own process\n"
"                      group; repeatable.  KIND is cpu (a spin), syscall\n"
"                      (getppid loop), yield (sched_yield loop), fork\n"
"                      (fork, exec /bin/true, wait), pipe (N pairs passing\n"
"                      a token), mem (streaming through a buffer larger\n"
"                      than the last-level cache) or none\n"
"  -x, --work=KB       after each wake-up, every client works over a KB\n"
"                      buffer (fill, then an LZ-like pass) and the time it\n"
"                      takes is reported in a second block (default 0: off)\n"
"  -v, --verbose       print every latency on stderr as it is logged\n"
"  -h, --help          print this help and exit\n"
"  -V, --version       print the version and exit\n"
"\n"
"latt compare A.json B.json compares saved results: mean and percentiles\n"
"with 95% confidence intervals of the change, and a verdict per row (real\n"
"difference, noise, too few samples); see latt compare --help.\n"
"\n"
"Exit status: 0 ran normally, 1 runtime failure, 2 usage, 3 a latency\n"
"threshold was exceeded (or latt compare's gate failed), 4 the workload\n"
"failed.\n"
"\n"
"Examples: latt -c8 'make -j4'\n"
"          latt -c2 -l cpu -l pipe:1 -x 256 sleep 10\n", stdout);
	exit(EXIT_OK);
}
