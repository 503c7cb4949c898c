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
#include <sched.h>
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
#define BARE_DURATION_NS	(10 * NSEC_PER_SEC)
#define BARE_CLIENTS	8
#define BARE_MIN_DELAY_MS	1
#define BARE_MAX_DELAY_MS	3
#define SPARE_FDS	64		/* descriptors beyond two a client */
#define HOUR_NS		(3600 * NSEC_PER_SEC)
#define MAX_TIME_NS	(8760 * HOUR_NS)	/* a year */

/* A unit suffix of a number, and what it multiplies by. */
struct unit {
	const char	*suffix;
	long long	 scale;
};

/* Times: a bare number is in the caller's default unit. */
static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC }, { "h", HOUR_NS },
	{ NULL, 0 }
};

static const struct {
	const char	*name;
	enum stat_kind	 stat;
} statnames[] = {
	{ "min", STAT_MIN }, { "p50", STAT_P50 }, { "p90", STAT_P90 },
	{ "p99", STAT_P99 }, { "p99.9", STAT_P999 }, { "p99.99", STAT_P9999 },
	{ "max", STAT_MAX }, { "worst", STAT_MAX }, { "mean", STAT_MEAN },
	{ "stdev", STAT_STDEV }, { "sd", STAT_STDEV },
};

#define PROGRESS_AFTER	(2 * NSEC_PER_SEC)	/* no progress line before */

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
static long long parse_scaled(const char *, const char *, long long,
		    long long, const struct unit *, long long);
static const char *show_limit(long long, const struct unit *);
static void	 parse_cpus(const char *, struct config *);
static void	 parse_policy(const char *, struct config *);
static void	 parse_limits(char *, struct config *);
static void	 check_cpu(const char *, int);
static void	 check_tracefs(struct config *);
static void	 parse_args(int, char **, struct config *);
static void	 parse_load(const char *, struct config *);
static void	 bare_defaults(struct config *, long long *, long long *);
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
static int	 write_file(const char *, int (*)(FILE *, const struct config *,
		    const struct result *), const struct config *,
		    const struct result *);
static int	 write_outputs(const struct config *, struct result *,
		    struct collector *);
static void	 free_result(const struct config *, struct result *);
static int	 compare_baseline(const struct config *, const struct result *,
		    struct cmp_side *, const struct cmp_gate *);
static int	 terminal_width(void);
static void	 report_break(const struct config *, const struct brk *);

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct result res;
	struct collector col;
	struct cmp_side base;
	struct cmp_gate gate;
	struct engine *eng;
	int status, stopsig, wstatus;
	int need_sink;

	open_std_fds();
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return compare_main(argc - 1, argv + 1);
	parse_args(argc, argv, &cfg);
	/* A baseline that cannot be read fails now, before anything runs. */
	if (cfg.baseline != NULL) {
		cmp_side_init(&base, "A");
		cmp_side_load(&base, cfg.baseline);
		if (cfg.fail_if_worse != NULL)
			cmp_gate_parse(&gate, cfg.fail_if_worse);
	}
	setup_signals();
	if (raise_nofile(cfg.nclients) == -1 || tune_check(&cfg) == -1 ||
	    tune_parent(&cfg) == -1) {
		free(cfg.cpus);
		trace_close(&cfg.trace);
		return EXIT_RUNTIME;
	}
	/* Orphans of the workload come back to us, to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	memset(&res, 0, sizeof(res));
	if (setup_outputs(&cfg, &res, &col) == -1) {
		free_result(&cfg, &res);
		free(cfg.cpus);
		trace_close(&cfg.trace);
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
	if (res.stop == STOP_NONE && tune_pin_parent(&cfg) == -1) {
		res.stop = STOP_ERROR;
		res.fail_what = "sched_setaffinity (parent-cpu)";
		res.fail_errno = errno;
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
	if (res.stop == STOP_BREAK)
		report_break(&cfg, &res.brk);
	if (wstatus != EXIT_OK && (status == EXIT_OK || status == EXIT_WORKLOAD))
		status = wstatus;
	if (cfg.baseline != NULL) {
		if (compare_baseline(&cfg, &res, &base,
		    cfg.fail_if_worse != NULL ? &gate : NULL) == 1 &&
		    status == EXIT_OK)
			status = EXIT_THRESHOLD;
		cmp_side_free(&base);
	}
	/*
	 * The verdicts come after the summary, also on a terminal.  A
	 * runtime failure (1) and a failed workload (4) outrank 3.
	 */
	fflush(stdout);
	if (cfg.nlimits > 0 && report_limits(stderr, &cfg, &res) > 0 &&
	    status == EXIT_OK)
		status = EXIT_THRESHOLD;
	free_result(&cfg, &res);
	free(cfg.cpus);
	trace_close(&cfg.trace);
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
	if (stats_init(&res->lat, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->work, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->timer, STATS_SUB_BITS) == -1) {
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

/* Writes one report into the file at path; -1 after saying why it failed. */
static int
write_file(const char *path, int (*writer)(FILE *, const struct config *,
    const struct result *), const struct config *cfg, const struct result *res)
{
	FILE *fp;

	errno = 0;
	if ((fp = open_output(path)) == NULL)
		return -1;
	writer(fp, cfg, res);
	return close_output(fp, path);
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

	if (cfg->json_path == NULL || strcmp(cfg->json_path, "-") != 0) {
		report_text(stdout, cfg, res);
		if (cfg->per_client)
			report_per_client(stdout, cfg, res);
		if (cfg->histogram)
			report_histogram(stdout, res, terminal_width());
	}
	/* stdout goes first, so that a failing file cannot hide the summary. */
	fflush(stdout);
	if (cfg->json_path != NULL &&
	    write_file(cfg->json_path, json_write, cfg, res) == -1)
		status = EXIT_RUNTIME;
	if (cfg->plot_path != NULL &&
	    write_file(cfg->plot_path, plot_write, cfg, res) == -1)
		status = EXIT_RUNTIME;
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

/*
 * --baseline: this run, written as JSON into memory and read back as side
 * B, against the baseline's side A, after the summary.  The comparison
 * reads the finished results exactly as latt compare would read the file.
 * Returns 1 when --fail-if-worse finds this run worse, 0, or -1 after
 * saying why it could not compare.
 */
static int
compare_baseline(const struct config *cfg, const struct result *res,
    struct cmp_side *base, const struct cmp_gate *gate)
{
	struct cmp_side run;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int r = -1;

	if ((mem = open_memstream(&buf, &len)) == NULL) {
		fprintf(stderr, "%s: open_memstream: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	json_write(mem, cfg, res);
	if (fclose(mem) == EOF) {
		fprintf(stderr, "%s: baseline: %s\n", progname,
		    strerror(errno));
		free(buf);
		return -1;
	}
	cmp_side_init(&run, "B");
	if (cmp_side_add_buf(&run, "this run", buf, len, err,
	    sizeof(err)) == -1)
		fprintf(stderr, "%s: baseline: %s\n", progname, err);
	else {
		printf("\nAgainst the baseline (latt compare %s <this run>):\n",
		    cfg->baseline);
		if ((r = cmp_report(stdout, base, &run, gate)) == -1)
			fprintf(stderr, "%s: baseline: %s\n", progname,
			    strerror(ENOMEM));
	}
	cmp_side_free(&run);
	free(buf);
	return r;
}

static void
free_result(const struct config *cfg, struct result *res)
{
	unsigned i;

	stats_free(&res->lat);
	stats_free(&res->work);
	stats_free(&res->timer);
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
	case STOP_ERROR:
		if (res->dead_pid == 0)
			break;
		/* A client could not take its CPU, policy or memory lock. */
		fprintf(stderr, "%s: client %u (pid %d): %s: %s\n", progname,
		    res->dead_client, (int)res->dead_pid, res->fail_what,
		    strerror(res->fail_errno));
		return EXIT_RUNTIME;
	default:
		break;
	}
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
		if (cfg->log_path != NULL)
			fprintf(stderr, "%s: cannot write the log %s: %s (the "
			    "run ended there)\n", progname, cfg->log_path,
			    strerror(res->fail_errno));
		else
			fprintf(stderr, "%s: cannot write -v lines to stderr: "
			    "%s (the run ended there)\n", progname,
			    strerror(res->fail_errno));
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

/* Says on stderr that --breaktrace ended the run, and where to look. */
static void
report_break(const struct config *cfg, const struct brk *b)
{
	char who[32];

	if (b->timer)
		snprintf(who, sizeof(who), "the timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	if (b->err != 0)
		fprintf(stderr, "%s: breaktrace: %s woke %.3f usec late, %.6f s "
		    "into the run; writing %s failed: %s\n", progname, who,
		    (double)b->latency / NSEC_PER_USEC,
		    (double)b->when / NSEC_PER_SEC, cfg->trace.dir,
		    strerror(b->err));
	else
		fprintf(stderr, "%s: breaktrace: %s woke %.3f usec late, %.6f s "
		    "into the run; tracing stopped, marker in %s/trace\n",
		    progname, who, (double)b->latency / NSEC_PER_USEC,
		    (double)b->when / NSEC_PER_SEC, cfg->trace.dir);
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
	/* -v to a stderr that cannot be written ends the run like a log. */
	if (col->cfg->verbose && report_verbose(stderr, s) < 0)
		return -1;
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

enum {
	OPT_JSON = 256,
	OPT_LOG,
	OPT_PLOT,
	OPT_HISTOGRAM,
	OPT_PER_CLIENT,
	OPT_WARMUP,
	OPT_SEED,
	OPT_CPUS,
	OPT_PARENT_CPU,
	OPT_POLICY,
	OPT_PRIO,
	OPT_NICE,
	OPT_BREAKTRACE,
	OPT_FAIL_ABOVE,
	OPT_BASELINE,
	OPT_FAIL_IF_WORSE,
};

static const struct option longopts[] = {
	{ "clients",	required_argument,	NULL,	'c' },
	{ "min-delay",	required_argument,	NULL,	'f' },
	{ "max-delay",	required_argument,	NULL,	't' },
	{ "load",	required_argument,	NULL,	'l' },
	{ "work",	required_argument,	NULL,	'x' },
	{ "duration",	required_argument,	NULL,	'd' },
	{ "samples",	required_argument,	NULL,	'n' },
	{ "warmup",	required_argument,	NULL,	OPT_WARMUP },
	{ "seed",	required_argument,	NULL,	OPT_SEED },
	{ "cpus",	required_argument,	NULL,	OPT_CPUS },
	{ "parent-cpu",	required_argument,	NULL,	OPT_PARENT_CPU },
	{ "policy",	required_argument,	NULL,	OPT_POLICY },
	{ "prio",	required_argument,	NULL,	OPT_PRIO },
	{ "nice",	required_argument,	NULL,	OPT_NICE },
	{ "mlock",	no_argument,		NULL,	'm' },
	{ "breaktrace",	required_argument,	NULL,	OPT_BREAKTRACE },
	{ "fail-above",	required_argument,	NULL,	OPT_FAIL_ABOVE },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "json",	optional_argument,	NULL,	OPT_JSON },
	{ "log",	required_argument,	NULL,	OPT_LOG },
	{ "plot",	required_argument,	NULL,	OPT_PLOT },
	{ "histogram",	no_argument,		NULL,	OPT_HISTOGRAM },
	{ "per-client",	no_argument,		NULL,	OPT_PER_CLIENT },
	{ "baseline",	required_argument,	NULL,	OPT_BASELINE },
	{ "fail-if-worse", required_argument,	NULL,	OPT_FAIL_IF_WORSE },
	{ "help",	no_argument,		NULL,	'h' },
	{ "version",	no_argument,		NULL,	'V' },
	{ NULL,		0,			NULL,	0 }
};

static void
parse_args(int argc, char **argv, struct config *cfg)
{
	long long min = -1, max = -1, prio = -1;
	int ch;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nclients = 1;
	/* 63 bits, so that --seed takes back any seed latt prints. */
	cfg->seed = ((uint64_t)now_ns() ^ ((uint64_t)getpid() << 32)) &
	    INT64_MAX;
	cfg->parent_cpu = -1;
	cfg->policy = -1;
	cfg->trace.marker_fd = cfg->trace.on_fd = -1;
	cfg->inherited_slack = (unsigned long)prctl(PR_GET_TIMERSLACK, 0, 0,
	    0, 0);

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:c:d:f:l:mn:qs:t:S:vx:hV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			cfg->nclients = parse_num("clients", optarg, 1,
			    MAX_CLIENTS);
			cfg->clients_given = 1;
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
		case 'd':
			cfg->duration = parse_scaled("duration", optarg, 1,
			    MAX_TIME_NS, time_units, NSEC_PER_SEC);
			break;
		case 'n':
			cfg->samples = parse_num("samples", optarg, 1,
			    LLONG_MAX);
			break;
		case OPT_WARMUP:
			cfg->warmup = parse_scaled("warmup", optarg, 0,
			    MAX_TIME_NS, time_units, NSEC_PER_SEC);
			break;
		case OPT_SEED:
			cfg->seed = parse_num("seed", optarg, 0, LLONG_MAX);
			break;
		case OPT_CPUS:
			parse_cpus(optarg, cfg);
			break;
		case OPT_PARENT_CPU:
			cfg->parent_cpu = parse_num("parent-cpu", optarg, 0,
			    CPU_SETSIZE - 1);
			break;
		case OPT_POLICY:
			parse_policy(optarg, cfg);
			break;
		case OPT_PRIO:
			prio = parse_num("prio", optarg, 0, 99);
			break;
		case OPT_NICE:
			cfg->nice = parse_num("nice", optarg, -20, 19);
			cfg->set_nice = 1;
			break;
		case 'm':
			cfg->mlock = 1;
			break;
		case OPT_BREAKTRACE:
			cfg->breaktrace = parse_scaled("breaktrace", optarg, 1,
			    HOUR_NS, time_units, NSEC_PER_USEC);
			break;
		case OPT_FAIL_ABOVE:
			parse_limits(optarg, cfg);
			break;
		case 'v':
			cfg->verbose = 1;
			break;
		case 'x':
			cfg->work_kb = parse_num("work", optarg, 0,
			    WORK_KB_MAX);
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
		case OPT_BASELINE:
			cfg->baseline = optarg;
			break;
		case OPT_FAIL_IF_WORSE:
			cfg->fail_if_worse = optarg;
			break;
		case 'h':
			help();
		case 'V':
			printf("latt %s\n", LATT_VERSION);
			exit(EXIT_OK);
		case ':':
			usage_error("option %s needs a value", argv[optind - 1]);
		default:
			/* A long option given a value it does not take. */
			if (strncmp(argv[optind - 1], "--", 2) == 0 &&
			    strchr(argv[optind - 1], '=') != NULL &&
			    optopt != 0)
				usage_error("option takes no value: %s",
				    argv[optind - 1]);
			if (optopt != 0)
				usage_error("unknown option: -%c", optopt);
			usage_error("unknown option: %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		bare_defaults(cfg, &min, &max);
	if (min == -1)
		min = 100;
	if (max == -1)
		max = min > 500 ? min : 500;
	if (min > max)
		usage_error("min-delay (%lld ms) is above max-delay (%lld ms)",
		    min, max);
	if (cfg->json_path != NULL && strcmp(cfg->json_path, "-") == 0 &&
	    (cfg->histogram || cfg->per_client))
		usage_error("%s prints to stdout, which --json takes: give "
		    "--json=FILE", cfg->histogram ? "--histogram" :
		    "--per-client");
	if (cfg->baseline != NULL && cfg->json_path != NULL &&
	    strcmp(cfg->json_path, "-") == 0)
		usage_error("--baseline prints a table to stdout, which --json "
		    "takes: give --json=FILE");
	if (cfg->fail_if_worse != NULL && cfg->baseline == NULL)
		usage_error("--fail-if-worse=%s needs --baseline=FILE",
		    cfg->fail_if_worse);
	if (cfg->log_path != NULL && strcmp(cfg->log_path, "-") == 0)
		usage_error("log cannot be -: stdout takes the summary");
	if (cfg->plot_path != NULL && strcmp(cfg->plot_path, "-") == 0)
		usage_error("plot cannot be -: stdout takes the summary");
	cfg->min_delay = min * NSEC_PER_MSEC;
	cfg->max_delay = max * NSEC_PER_MSEC;

	/* --prio alone means SCHED_FIFO; fifo and rr alone mean prio 1. */
	if (cfg->policy == -1 && prio != -1)
		cfg->policy = SCHED_FIFO;
	if (cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR)
		cfg->prio = prio == -1 ? 1 : (int)prio;
	else if (prio > 0)
		usage_error("prio %lld needs policy fifo or rr", prio);
	if (cfg->policy != -1 && (cfg->prio <
	    sched_get_priority_min(cfg->policy) ||
	    cfg->prio > sched_get_priority_max(cfg->policy)))
		usage_error("prio %d is out of range for the policy (%d-%d)",
		    cfg->prio, sched_get_priority_min(cfg->policy),
		    sched_get_priority_max(cfg->policy));
	if (cfg->duration > 0 && cfg->warmup >= cfg->duration)
		usage_error("warmup is not shorter than the duration");
	for (ch = 0; ch < (int)cfg->ncpus; ch++)
		check_cpu("cpus", cfg->cpus[ch]);
	if (cfg->parent_cpu >= 0)
		check_cpu("parent-cpu", cfg->parent_cpu);

	cfg->cmd = argv + optind;
	cfg->ncmd = argc - optind;
	if (cfg->ncmd == 1 && cfg->cmd[0][0] == '\0')
		usage_error("the workload command is empty");
	if (cfg->breaktrace > 0)
		check_tracefs(cfg);
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
bare_defaults(struct config *cfg, long long *min, long long *max)
{
	long ncpu;

	cfg->bare = 1;
	if (cfg->duration == 0)
		cfg->duration = BARE_DURATION_NS;
	if (!cfg->load_given) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		cfg->load[0].kind = LOAD_CPU;
		cfg->load[0].n = ncpu < 1 ? 1 : ncpu > LOAD_NMAX ? LOAD_NMAX :
		    (unsigned)ncpu;
		cfg->nload = 1;
	}
	if (!cfg->clients_given)
		cfg->nclients = BARE_CLIENTS;
	if (*min == -1)
		*min = *max != -1 && *max < BARE_MIN_DELAY_MS ? *max :
		    BARE_MIN_DELAY_MS;
	if (*max == -1)
		*max = *min > BARE_MAX_DELAY_MS ? *min : BARE_MAX_DELAY_MS;
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
 * --cpus: a list such as 0-3,8.  Clients are pinned round-robin over its
 * CPUs in ascending order.
 */
static void
parse_cpus(const char *arg, struct config *cfg)
{
	char *list, *tok, *save, *dash;
	long long lo, hi, c;
	cpu_set_t set;
	unsigned n;

	if (*arg == '\0')
		usage_error("cpus is empty");
	if ((list = strdup(arg)) == NULL)
		usage_error("cpus: %s", strerror(errno));
	CPU_ZERO(&set);
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((dash = strchr(tok, '-')) != NULL)
			*dash = '\0';
		lo = parse_num("cpus", tok, 0, CPU_SETSIZE - 1);
		hi = dash != NULL ? parse_num("cpus", dash + 1, 0,
		    CPU_SETSIZE - 1) : lo;
		if (lo > hi)
			usage_error("cpus: the range %lld-%lld is backwards: "
			    "%s", lo, hi, arg);
		for (c = lo; c <= hi; c++)
			CPU_SET(c, &set);
	}
	free(list);
	if (CPU_COUNT(&set) == 0 || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,") != NULL || *arg == ',')
		usage_error("cpus is not a CPU list: %s", arg);
	free(cfg->cpus);
	if ((cfg->cpus = calloc(CPU_COUNT(&set), sizeof(int))) == NULL)
		usage_error("cpus: %s", strerror(errno));
	for (c = 0, n = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cfg->cpus[n++] = (int)c;
	cfg->ncpus = n;
}

/* A CPU must be online and in latt's own affinity mask (its cpuset). */
static void
check_cpu(const char *name, int cpu)
{
	char path[64];
	cpu_set_t allowed;
	FILE *fp;
	int c;

	/* cpu0 often has no online file: a CPU without one is online. */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
	    cpu);
	if ((fp = fopen(path, "re")) != NULL) {
		c = fgetc(fp);
		fclose(fp);
	} else {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d",
		    cpu);
		c = access(path, F_OK) == 0 ? '1' : '0';
	}
	if (c != '1')
		usage_error("%s: CPU %d is not online (see "
		    "/sys/devices/system/cpu/online)", name, cpu);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
	    !CPU_ISSET(cpu, &allowed))
		usage_error("%s: CPU %d is not among the CPUs latt may use "
		    "(its affinity or cpuset)", name, cpu);
}

static void
parse_policy(const char *arg, struct config *cfg)
{
	static const struct {
		const char	*name;
		int		 policy;
	} pol[] = {
		{ "other", SCHED_OTHER }, { "batch", SCHED_BATCH },
		{ "idle", SCHED_IDLE }, { "fifo", SCHED_FIFO },
		{ "rr", SCHED_RR },
	};
	size_t i;

	for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++)
		if (strcmp(arg, pol[i].name) == 0) {
			cfg->policy = pol[i].policy;
			return;
		}
	usage_error("policy is not one of other, batch, idle, fifo, rr: %s",
	    arg);
}

/*
 * --fail-above: STAT=TIME[,STAT=TIME...], a bare TIME in microseconds.
 * Several --fail-above options add up.
 */
static void
parse_limits(char *arg, struct config *cfg)
{
	char *tok, *save, *eq, name[32];
	size_t i;

	if (*arg == '\0')
		usage_error("fail-above is empty");
	if (arg[strlen(arg) - 1] == ',' || *arg == ',' ||
	    strstr(arg, ",,") != NULL)
		usage_error("fail-above has an empty item: %s", arg);
	for (tok = strtok_r(arg, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL)
			usage_error("fail-above: not STAT=TIME: %s", tok);
		*eq = '\0';
		for (i = 0; i < sizeof(statnames) / sizeof(statnames[0]); i++)
			if (strcmp(tok, statnames[i].name) == 0)
				break;
		if (i == sizeof(statnames) / sizeof(statnames[0]))
			usage_error("fail-above: unknown statistic: %s (one of "
			    "min, p50, p90, p99, p99.9, p99.99, max, mean, "
			    "stdev)", tok);
		if (cfg->nlimits == MAX_LIMITS)
			usage_error("fail-above: more than %d limits",
			    MAX_LIMITS);
		snprintf(name, sizeof(name), "fail-above %s", tok);
		cfg->limits[cfg->nlimits].stat = statnames[i].stat;
		cfg->limits[cfg->nlimits].value = parse_scaled(name, eq + 1, 0,
		    HOUR_NS, time_units, NSEC_PER_USEC);
		cfg->nlimits++;
	}
}

/*
 * --breaktrace needs tracefs: found and opened now, so that its absence
 * is a usage error before anything starts.
 */
static void
check_tracefs(struct config *cfg)
{
	const char *file = NULL;

	if (trace_open(&cfg->trace, &file) == -1) {
		if (cfg->trace.dir == NULL)
			usage_error("breaktrace: tracefs is not mounted (mount "
			    "-t tracefs nodev /sys/kernel/tracing)");
		usage_error("breaktrace: %s/%s: %s", cfg->trace.dir, file,
		    strerror(errno));
	}
	if (trace_is_on(&cfg->trace) == 0)
		fprintf(stderr, "%s: breaktrace: %s/tracing_on is 0: nothing "
		    "is being traced, and the marker will not be recorded\n",
		    progname, cfg->trace.dir);
}

/*
 * The one parser for every number from the user: the whole string must be
 * a decimal number within [min, max], else a usage error names the option.
 */
long long
parse_num(const char *name, const char *s, long long min, long long max)
{
	return parse_scaled(name, s, min, max, NULL, 1);
}

/*
 * The same with an optional unit suffix from units (a bare number is in
 * dflt); the result, in the smallest unit, is checked against [min, max]
 * without overflowing.
 */
static long long
parse_scaled(const char *name, const char *s, long long min, long long max,
    const struct unit *units, long long dflt)
{
	const struct unit *u;
	long long v, scale = dflt;
	char *end;

	if (*s == '\0')
		usage_error("%s is empty", name);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s)
		usage_error("%s is not a number: %s", name, s);
	if (*end != '\0') {
		for (u = units; u != NULL && u->suffix != NULL; u++)
			if (strcmp(end, u->suffix) == 0)
				break;
		if (u == NULL || u->suffix == NULL)
			usage_error("%s is not a number%s: %s", name,
			    units != NULL ? " with a unit (ns, us, ms, s, m, h)"
			    : "", s);
		scale = u->scale;
	}
	if (errno == ERANGE || v > max / scale || v < LLONG_MIN / scale ||
	    v * scale > max)
		usage_error("%s is too large: %s (at most %s)", name, s,
		    show_limit(max, units));
	if (v * scale < min)
		usage_error("%s is too small: %s (at least %s)", name, s,
		    show_limit(min, units));
	return v * scale;
}

/* A limit of parse_scaled in the largest unit that states it exactly. */
static const char *
show_limit(long long v, const struct unit *units)
{
	static char buf[48];
	const struct unit *u, *best = NULL;

	for (u = units; u != NULL && u->suffix != NULL; u++)
		if (v % u->scale == 0)
			best = u;
	if (best == NULL || v == 0)
		snprintf(buf, sizeof(buf), "%lld", v);
	else
		snprintf(buf, sizeof(buf), "%lld%s", v / best->scale,
		    best->suffix);
	return buf;
}

static void
usage_error(const char *fmt, ...)
{
	va_list ap;
	char *msg, *p;

	/*
	 * The message quotes what the user typed: control bytes (a newline
	 * in a value, say) are escaped, so that it stays one line.
	 */
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	fprintf(stderr, "%s: ", progname);
	for (p = msg; p != NULL && *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, stderr);
	}
	if (msg == NULL)
		fputs("usage error", stderr);
	fputc('\n', stderr);
	free(msg);
	exit(EXIT_USAGE);
}

#define SYNOPSIS \
	"usage: latt [-hmqVv] [-c clients] [-f min-ms] [-t max-ms] [-d time]\n" \
	"            [-n samples] [-l kind[:n]] [-x kb] [--warmup=time] [--seed=n]\n" \
	"            [--cpus=list] [--parent-cpu=n] [--policy=name] [--prio=n]\n" \
	"            [--nice=n] [--breaktrace=us] [--fail-above=spec]\n" \
	"            [--json[=file]] [--log=file] [--plot=file.svg] [--histogram]\n" \
	"            [--per-client] [--baseline=file] [--fail-if-worse=spec]\n" \
	"            [command [arg ...]]\n" \
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
"How late each of the parent's sleeps woke is a second series, the timer\n"
"latency.  A single COMMAND argument runs as /bin/sh -c COMMAND; several\n"
"run as an argument vector.  Without COMMAND, latt runs 10 s (or\n"
"--duration) beside the --load loads, or a cpu spin on every CPU, with 8\n"
"clients and 1-3 ms delays where not given: plain 'latt' is a useful run.\n"
"\n"
"  -c, --clients=N       client processes (default 1)\n"
"  -f, --min-delay=MS    shortest sleep between rounds, ms (default 100);\n"
"                        -s is the same\n"
"  -t, --max-delay=MS    longest sleep between rounds, ms (default 500);\n"
"                        -S is the same\n"
"  -d, --duration=TIME   stop measuring after TIME (30, 30s, 5m, 2h, 500ms;\n"
"                        a bare number is seconds); the workload is then\n"
"                        stopped, which is a normal end\n"
"  -n, --samples=N       stop after exactly N latencies\n"
"      --warmup=TIME     drop the latencies of the first TIME\n"
"      --seed=N          seed of the random sleeps (default: from the clock;\n"
"                        always printed)\n"
"      --cpus=LIST       pin the clients round-robin over LIST (0-3,8)\n"
"      --parent-cpu=N    pin latt itself to CPU N\n"
"      --policy=NAME     clients' policy: other, batch, idle, fifo, rr\n"
"      --prio=N          clients' real-time priority (alone: fifo)\n"
"      --nice=N          clients' nice value\n"
"  -m, --mlock           lock latt's and the clients' memory\n"
"      --breaktrace=US   above US microseconds (or 2ms...), write a marker\n"
"                        to tracefs, stop tracing and end the run\n"
"      --fail-above=SPEC exit 3 when a statistic is above its limit, e.g.\n"
"                        p99=500us,max=5ms (min p50 p90 p99 p99.9 p99.99\n"
"                        max mean stdev; a bare number is microseconds)\n"
"  -l, --load=KIND[:N]   run a built-in load beside COMMAND: N processes\n"
"                        (default: one per online CPU) in their own process\n"
"                        group; repeatable.  KIND is cpu (a spin), syscall\n"
"                        (getppid loop), yield (sched_yield loop), fork\n"
"                        (fork, exec /bin/true, wait), pipe (N pairs passing\n"
"                        a token), mem (streaming through a buffer larger\n"
"                        than the last-level cache) or none\n"
"  -x, --work=KB         after each wake-up, every client works over a KB\n"
"                        buffer (fill, then an LZ-like pass) and the time it\n"
"                        takes is reported in a second block (default 0: off)\n"
"  -q, --quiet           no progress line on stderr (shown only when stderr\n"
"                        is a terminal, the run is past 2 s and -v is off)\n"
"      --json[=FILE]     write the results as JSON (docs/json-schema.md) to\n"
"                        FILE; to stdout, in place of the summary, with no\n"
"                        FILE or with -\n"
"      --log=FILE        write every sample to FILE as CSV: time_ns, round,\n"
"                        client, cpu, latency_ns; a write error ends the run\n"
"      --plot=FILE       draw the distribution and latency over time as SVG\n"
"      --histogram       print a text histogram after the summary\n"
"      --per-client      print a table per client after the summary:\n"
"                        samples, mean, max, p99 (within 6.25%), migrations\n"
"      --baseline=A.json[,A2.json...]\n"
"                        after the summary, compare this run with saved\n"
"                        results, as latt compare A.json <this run> would\n"
"      --fail-if-worse=SPEC  with --baseline: exit 3 when this run is worse\n"
"                        beyond a limit, e.g. p99=10%,max=50%\n"
"  -v, --verbose         print every latency on stderr as it is logged (a\n"
"                        stderr that cannot be written ends the run)\n"
"  -h, --help            print this help and exit\n"
"  -V, --version         print the version and exit\n"
"\n"
"latt compare A.json B.json compares saved results: mean and percentiles\n"
"with 95% confidence intervals of the change, and a verdict per row (real\n"
"difference, noise, too few samples); see latt compare --help.\n"
"\n"
"Exit status: 0 ran normally, 1 runtime failure, 2 usage, 3 a latency\n"
"threshold was exceeded (or latt compare's gate failed), 4 the workload\n"
"failed (1 and 4 outrank 3).\n"
"\n"
"Examples: latt -c8 'make -j4'\n"
"          latt -c2 -l cpu -l pipe:1 -x 256 sleep 10\n"
"          latt -c2 --cpus=1 --policy=fifo --prio=80 -m -d 5m \\\n"
"              --fail-above=p99=100us,max=1ms\n"
"          latt -c8 --json=run.json --plot=run.svg --histogram 'make -j4'\n",
	    stdout);
	exit(EXIT_OK);
}
