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
#include <sys/ioctl.h>
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

#include "latt.h"

#define MAX_CLIENTS	1000000
#define MAX_DELAY_MS	3600000		/* one hour */
#define SPARE_FDS	64		/* descriptors beyond two a client */
#define PROGRESS_AFTER	(2 * NSEC_PER_SEC)	/* no progress line before */

enum {
	OPT_JSON = 256,
	OPT_LOG,
	OPT_PLOT,
	OPT_HISTOGRAM,
	OPT_PER_CLIENT,
};

/* What the sink and the tick need: the outputs that go along with a run. */
struct collector {
	const struct config	*cfg;
	struct result		*res;
	FILE			*log;
	int			 progress;	/* stderr is a tty, not -q */
	int			 shown;		/* a progress line is up */
};

volatile sig_atomic_t got_stop;
volatile sig_atomic_t got_child;

static const char *progname = "latt";

static void	 help(void) __attribute__((noreturn));
static void	 usage_error(const char *, ...)
		    __attribute__((noreturn, format(printf, 1, 2)));
static long long parse_num(const char *, const char *, long long, long long);
static void	 parse_args(int, char **, struct config *);
static void	 setup_signals(void);
static void	 open_std_fds(void);
static int	 raise_nofile(unsigned);
static int	 collect_sink(void *, const struct sample *);
static int	 collect_tick(void *, const struct result *);
static int	 report_failure(const struct config *, const struct result *);
static int	 setup_outputs(const struct config *, struct result *,
		    struct collector *);
static FILE	*open_output(const char *);
static int	 close_output(FILE *, const char *);
static int	 write_outputs(const struct config *, struct result *,
		    struct collector *);
static void	 free_result(const struct config *, struct result *);
static int	 terminal_width(void);

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct result res;
	struct collector col;
	struct engine *eng;
	int status, stopsig, wstatus;
	int need_sink;

	open_std_fds();
	parse_args(argc, argv, &cfg);
	setup_signals();
	if (raise_nofile(cfg.nclients) == -1)
		return EXIT_RUNTIME;
	/* Orphans of the workload come back to us, to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	memset(&res, 0, sizeof(res));
	if (setup_outputs(&cfg, &res, &col) == -1) {
		free_result(&cfg, &res);
		return EXIT_RUNTIME;
	}
	need_sink = cfg.verbose || col.log != NULL || res.clients != NULL ||
	    res.timeline != NULL;

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
		measure_run(&cfg, eng, &res, need_sink ? collect_sink : NULL,
		    col.log != NULL || col.progress ? collect_tick : NULL,
		    &col);
	res.end = now_ns();
	if (col.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}

	stopsig = res.stop == STOP_SIGNAL ? res.stop_signal : SIGTERM;
	workload_stop(&res.wl, stopsig);
	clients_stop(eng, &res);

	wstatus = write_outputs(&cfg, &res, &col);
	status = report_failure(&cfg, &res);
	if (wstatus != EXIT_OK && (status == EXIT_OK || status == EXIT_WORKLOAD))
		status = wstatus;
	free_result(&cfg, &res);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", progname, strerror(errno));
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	return status;
}

/*
 * Allocates what the asked-for outputs collect during the run and opens
 * the output files, so that a file that cannot be written fails before
 * anything starts.  Returns 0, or -1 after saying why.
 */
static int
setup_outputs(const struct config *cfg, struct result *res,
    struct collector *col)
{
	unsigned i;

	memset(col, 0, sizeof(*col));
	col->cfg = cfg;
	col->res = res;
	col->progress = !cfg->quiet && !cfg->verbose && isatty(STDERR_FILENO);
	if (stats_init(&res->lat, STATS_SUB_BITS) == -1) {
		fprintf(stderr, "%s: stats_init: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	if (cfg->per_client || cfg->json_path != NULL) {
		res->clients = calloc(cfg->nclients, sizeof(*res->clients));
		if (res->clients == NULL) {
			fprintf(stderr, "%s: calloc: per-client statistics of "
			    "%u clients: %s\n", progname, cfg->nclients,
			    strerror(errno));
			return -1;
		}
		for (i = 0; i < cfg->nclients; i++) {
			res->clients[i].last_cpu = -1;
			if (stats_init(&res->clients[i].lat,
			    CLIENT_SUB_BITS) == -1) {
				fprintf(stderr, "%s: stats_init: per-client "
				    "statistics of %u clients: %s\n",
				    progname, cfg->nclients, strerror(errno));
				return -1;
			}
		}
	}
	if (cfg->plot_path != NULL && (res->timeline = timeline_new()) == NULL) {
		fprintf(stderr, "%s: timeline_new: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	if (cfg->log_path != NULL) {
		if ((col->log = open_output(cfg->log_path)) == NULL)
			return -1;
		if (fputs("time_ns,round,client,cpu,latency_ns\n",
		    col->log) == EOF) {
			fprintf(stderr, "%s: %s: %s\n", progname,
			    cfg->log_path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Opens an output file, or stdout for "-"; NULL after saying why. */
static FILE *
open_output(const char *path)
{
	FILE *fp;

	if (strcmp(path, "-") == 0)
		return stdout;
	if ((fp = fopen(path, "we")) == NULL)
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
	return fp;
}

/* Flushes and closes an output file; -1 after saying why it failed. */
static int
close_output(FILE *fp, const char *path)
{
	int bad;

	if (fp == stdout)
		return 0;	/* main checks stdout, once, at the end */
	bad = fflush(fp) == EOF || ferror(fp);
	if (bad)
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    errno != 0 ? strerror(errno) : "write error");
	if (fclose(fp) == EOF && !bad) {
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
		bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * The reports, once the run is over: the text summary (unless the JSON
 * takes stdout), the per-client table, the histogram, the JSON and the
 * plot; then the log is closed.  Returns EXIT_OK or EXIT_RUNTIME.
 */
static int
write_outputs(const struct config *cfg, struct result *res,
    struct collector *col)
{
	int status = EXIT_OK;
	FILE *fp;

	if (cfg->json_path == NULL || strcmp(cfg->json_path, "-") != 0) {
		report_text(stdout, cfg, res);
		if (cfg->per_client)
			report_per_client(stdout, cfg, res);
		if (cfg->histogram)
			report_histogram(stdout, res, terminal_width());
	}
	/* stdout goes first, so that a failing file cannot hide the summary. */
	fflush(stdout);
	if (cfg->json_path != NULL) {
		errno = 0;
		if ((fp = open_output(cfg->json_path)) == NULL)
			status = EXIT_RUNTIME;
		else {
			json_write(fp, cfg, res);
			if (close_output(fp, cfg->json_path) == -1)
				status = EXIT_RUNTIME;
		}
	}
	if (cfg->plot_path != NULL) {
		errno = 0;
		if ((fp = open_output(cfg->plot_path)) == NULL)
			status = EXIT_RUNTIME;
		else {
			plot_write(fp, cfg, res);
			if (close_output(fp, cfg->plot_path) == -1)
				status = EXIT_RUNTIME;
		}
	}
	if (col->log != NULL) {
		/* A log that failed during the run has been reported. */
		errno = 0;
		if (res->stop != STOP_SINK &&
		    close_output(col->log, cfg->log_path) == -1)
			status = EXIT_RUNTIME;
		else if (res->stop == STOP_SINK && col->log != stdout)
			fclose(col->log);
		col->log = NULL;
	}
	return status;
}

static void
free_result(const struct config *cfg, struct result *res)
{
	unsigned i;

	stats_free(&res->lat);
	if (res->clients != NULL)
		for (i = 0; i < cfg->nclients; i++)
			stats_free(&res->clients[i].lat);
	free(res->clients);
	res->clients = NULL;
	timeline_free(res->timeline);
	res->timeline = NULL;
}

/* The width of the terminal on stdout, or 80 when it is not one. */
static int
terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

/*
 * Says on stderr, in one line, why the run failed, and returns the exit
 * status.  A runtime failure outranks a failed workload.
 */
static int
report_failure(const struct config *cfg, const struct result *res)
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
	case STOP_SINK:
		fprintf(stderr, "%s: cannot write the log %s: %s (the run "
		    "ended there)\n", progname, cfg->log_path != NULL ?
		    cfg->log_path : "?", strerror(res->fail_errno));
		return EXIT_RUNTIME;
	case STOP_ERROR:
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

/*
 * Sees every sample: the per-client statistics, the timeline of the plot,
 * the log and -v.  Returns -1 with errno set when the log fails.
 */
static int
collect_sink(void *arg, const struct sample *s)
{
	struct collector *col = arg;
	struct result *res = col->res;
	struct client_stats *cs;

	if (res->clients != NULL) {
		cs = &res->clients[s->client];
		if (cs->last_cpu != -1 && s->cpu != cs->last_cpu)
			cs->migrations++;
		cs->last_cpu = s->cpu;
		stats_add(&cs->lat, s->latency, s->client, s->when);
	}
	if (res->timeline != NULL)
		timeline_add(res->timeline, s->when, s->latency);
	if (col->cfg->verbose)
		report_verbose(stderr, s);
	if (col->log != NULL && fprintf(col->log, "%lld,%llu,%u,%d,%lld\n",
	    (long long)s->when, (unsigned long long)s->round, s->client,
	    (int)s->cpu, (long long)s->latency) < 0)
		return -1;
	return 0;
}

/*
 * Once a second: pushes the log to its file (so that a full disk shows
 * within a second) and redraws the progress line once the run is past
 * two seconds.
 */
static int
collect_tick(void *arg, const struct result *res)
{
	struct collector *col = arg;
	int64_t now = now_ns();

	if (col->log != NULL && (fflush(col->log) == EOF || ferror(col->log)))
		return -1;
	if (col->progress && now - res->start >= PROGRESS_AFTER) {
		report_progress(stderr, res, now);
		col->shown = 1;
	}
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
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "json",	optional_argument,	NULL,	OPT_JSON },
	{ "log",	required_argument,	NULL,	OPT_LOG },
	{ "plot",	required_argument,	NULL,	OPT_PLOT },
	{ "histogram",	no_argument,		NULL,	OPT_HISTOGRAM },
	{ "per-client",	no_argument,		NULL,	OPT_PER_CLIENT },
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
	while ((ch = getopt_long(argc, argv, "+:c:f:s:t:S:vqhV", longopts,
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
		case 'v':
			cfg->verbose = 1;
			break;
		case 'q':
			cfg->quiet = 1;
			break;
		case OPT_JSON:
			cfg->json_path = optarg != NULL ? optarg : "-";
			if (*cfg->json_path == '\0')
				usage_error("json file name is empty");
			break;
		case OPT_LOG:
			cfg->log_path = optarg;
			if (*optarg == '\0')
				usage_error("log file name is empty");
			break;
		case OPT_PLOT:
			cfg->plot_path = optarg;
			if (*optarg == '\0')
				usage_error("plot file name is empty");
			break;
		case OPT_HISTOGRAM:
			cfg->histogram = 1;
			break;
		case OPT_PER_CLIENT:
			cfg->per_client = 1;
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
	if (cfg->json_path != NULL && strcmp(cfg->json_path, "-") == 0 &&
	    (cfg->histogram || cfg->per_client))
		usage_error("%s prints to stdout, which --json takes: give "
		    "--json=FILE", cfg->histogram ? "--histogram" :
		    "--per-client");
	if (cfg->log_path != NULL && strcmp(cfg->log_path, "-") == 0)
		usage_error("log cannot be -: stdout takes the summary");
	if (cfg->plot_path != NULL && strcmp(cfg->plot_path, "-") == 0)
		usage_error("plot cannot be -: stdout takes the summary");
	cfg->min_delay = min * NSEC_PER_MSEC;
	cfg->max_delay = max * NSEC_PER_MSEC;

	if (optind >= argc)
		usage_error("no workload command given (for example: "
		    "latt -c8 'make -j4')");
	cfg->cmd = argv + optind;
	cfg->ncmd = argc - optind;
	if (cfg->ncmd == 1 && cfg->cmd[0][0] == '\0')
		usage_error("the workload command is empty");
}

/*
 * The one parser for every number from the user: the whole string must be a
 * decimal number within [min, max], else a usage error names the option.
 */
static long long
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
	"usage: latt [-hqVv] [-c clients] [-f min-ms] [-t max-ms] " \
	"[--json[=file]]\n" \
	"            [--log=file] [--plot=file.svg] [--histogram] " \
	"[--per-client]\n" \
	"            command [arg ...]\n"

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
"  -v, --verbose       print every latency on stderr as it is logged\n"
"  -q, --quiet         no progress line on stderr (shown only when stderr\n"
"                      is a terminal, the run is past 2 s and -v is off)\n"
"      --json[=FILE]   write the results as JSON (docs/json-schema.md) to\n"
"                      FILE; to stdout, in place of the summary, with no\n"
"                      FILE or with -\n"
"      --log=FILE      write every sample to FILE as CSV: time_ns, round,\n"
"                      client, cpu, latency_ns; a write error ends the run\n"
"      --plot=FILE     draw the distribution and latency over time as SVG\n"
"      --histogram     print a text histogram after the summary\n"
"      --per-client    print a table per client after the summary:\n"
"                      samples, mean, max, p99 (within 6.25%), migrations\n"
"  -h, --help          print this help and exit\n"
"  -V, --version       print the version and exit\n"
"\n"
"Exit status: 0 ran normally, 1 runtime failure, 2 usage, 3 a latency\n"
"threshold was exceeded, 4 the workload failed.\n"
"\n"
"Examples: latt -c8 'make -j4'\n"
"          latt -c8 --json=run.json --plot=run.svg --histogram 'make -j4'\n",
	    stdout);
	exit(EXIT_OK);
}
