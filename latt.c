/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latt: scheduler wake-up latency tester.
 *
 * A parent forks N clients, each blocked reading its own pipe.  While a
 * workload runs, the parent sleeps a random while, writes a CLOCK_MONOTONIC
 * stamp to every client, and each client replies with the moment it woke.
 * The differences are the wake-up latencies.  This file tells the story
 * of a run, start to end; options.c turns argv into its struct config.
 */
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "explain.h"
#include "latt.h"

#define SPARE_FDS	64		/* descriptors beyond two a client */
#define PROGRESS_AFTER	(2 * NSEC_PER_SEC)	/* no progress line before */

/* What the sink and the tick need: the outputs that go along with a run. */
struct collector {
	const struct config	*cfg;
	struct result		*res;
	FILE			*log;
	int			 json_fd;	/* --json=FILE, opened early */
	int			 plot_fd;	/* --plot=FILE */
	int			 progress;	/* stderr is a tty, not -q */
	int			 shown;		/* a progress line is up */
};

/* The runs written so far, as JSON (json_write_run). */
struct runs {
	FILE			*fp;		/* open_memstream, or NULL */
	char			*buf;
	size_t			 len;
	unsigned		 n;
};

volatile sig_atomic_t got_stop;
volatile sig_atomic_t got_child;
volatile sig_atomic_t got_tstp;

static const char *progname = "latt";

static void	 setup_signals(void);
static void	 open_std_fds(void);
static int	 raise_nofile(unsigned);
static int	 collect_sink(void *, const struct sample *);
static int	 collect_tick(void *, const struct result *);
static int	 report_failure(const struct config *, const struct result *);
static int	 setup_outputs(const struct config *, struct result *,
		    struct collector *);
static FILE	*open_output(const char *);
static int	 claim_output(const char *);
static FILE	*open_report(const char *, int *);
static int	 close_output(FILE *, const char *);
static int	 write_json(const char *, int *, const struct config *,
		    const struct result *, const struct runs *);
static int	 write_plot(const char *, int *, const struct config *,
		    const struct result *);
static void	 print_summary(const struct config *, const struct result *);
static int	 write_outputs(const struct config *, struct result *,
		    struct collector *, const struct runs *);
static void	 measure_once(const struct config *, struct result *,
		    struct collector *);
static int	 run_may_repeat(const struct result *);
static void	 reset_result(const struct config *, struct result *);
static int	 setup_total(const struct config *, struct result *);
static int	 classes_init(const struct config *, struct result *, int);
static void	 merge_result(const struct config *, struct result *,
		    const struct result *);
static int	 runs_open(const struct config *, struct runs *);
static int	 runs_add(struct runs *, const struct config *,
		    const struct result *);
static void	 runs_close(struct runs *);
static void	 free_result(const struct config *, struct result *);
static void	 free_config(struct config *);
static int	 compare_baseline(const struct config *, const struct result *,
		    const struct runs *, struct cmp_side *,
		    const struct cmp_gate *);
static int	 terminal_width(int);
static int	 terminal_elsewhere(pid_t);
static void	 report_break(const struct config *, const struct brk *);
static int64_t	 wall_ns(void);

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct result res, total;
	struct collector col;
	struct cmp_side base;
	struct cmp_gate gate;
	struct runs runs;
	char err[PATH_MAX + 256];
	unsigned i;
	int status = EXIT_OK, wstatus, dmafd;

	open_std_fds();
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return compare_main(argc - 1, argv + 1);
	config_parse(argc, argv, &cfg);
	/* A baseline that cannot be read fails now, before anything runs. */
	if (cfg.baseline != NULL) {
		cmp_side_init(&base, "A");
		cmp_side_load(&base, cfg.baseline);
		if (cfg.fail_if_worse != NULL)
			cmp_gate_parse(&gate, cfg.fail_if_worse);
	}
	/*
	 * --explain: latt's own tracefs instance, made now so that a
	 * missing tracefs or right is a usage error before anything runs.
	 */
	if (cfg.explain > 0 && explain_open(&cfg, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: explain: %s\n", progname, err);
		free(cfg.cpus);
		trace_close(&cfg.trace);
		return EXIT_USAGE;
	}
	/*
	 * No schedstat: one line, and the run goes on without the split.
	 * --no-split asks for none (bench/split-cost.py's peer, too).
	 */
	cfg.schedstat = !cfg.no_split && schedstat_probe() == 0;
	if (!cfg.no_split && !cfg.schedstat)
		fprintf(stderr, "%s: /proc/thread-self/schedstat cannot be read "
		    "(%s): no runqueue-wait split in this run\n", progname,
		    strerror(errno));
	setup_signals();
	/* A class's refused attributes are bad input: status 2. */
	if (tune_check(&cfg) == -1) {
		free_config(&cfg);
		return cfg.nclasses > 0 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	if (raise_nofile(cfg.nclients) == -1 || tune_parent(&cfg) == -1 ||
	    (dmafd = tune_dma_open(&cfg)) == -1) {
		free_config(&cfg);
		return EXIT_RUNTIME;
	}
	/* Orphans of the workload come back to us, to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	memset(&res, 0, sizeof(res));
	sched_info_read(&res.sched);
	res.wl.tty = -1;
	memset(&total, 0, sizeof(total));
	memset(&runs, 0, sizeof(runs));
	if (setup_outputs(&cfg, &res, &col) == -1 ||
	    (cfg.repeat > 1 && setup_total(&cfg, &total) == -1) ||
	    runs_open(&cfg, &runs) == -1) {
		total.clients = NULL;
		memset(&total.sched, 0, sizeof(total.sched));
		free_result(&cfg, &res);
		free_result(&cfg, &total);
		free_config(&cfg);
		return EXIT_RUNTIME;
	}

	/*
	 * --repeat: the whole measurement N times back to back, clients,
	 * workload and loads started afresh each time; a run that fails or
	 * is interrupted ends the series.
	 */
	for (i = 0; i < cfg.repeat; i++) {
		if (i > 0)
			reset_result(&cfg, &res);
		if (cfg.repeat > 1 && !(cfg.json_path != NULL &&
		    strcmp(cfg.json_path, "-") == 0))
			printf("%s--- run %u of %u\n", i > 0 ? "\n" : "", i + 1,
			    cfg.repeat);
		measure_once(&cfg, &res, &col);
		print_summary(&cfg, &res);
		status = report_failure(&cfg, &res);
		if (res.stop == STOP_BREAK)
			report_break(&cfg, &res.brk);
		if (runs_add(&runs, &cfg, &res) == -1 && status == EXIT_OK)
			status = EXIT_RUNTIME;
		if (cfg.repeat > 1)
			merge_result(&cfg, &total, &res);
		if (status != EXIT_OK || !run_may_repeat(&res))
			break;
	}

	/* The DMA latency is held for the whole series of runs. */
	if (dmafd >= 0)
		close(dmafd);
	/* The JSON's top level has the last run's autopsy. */
	if (cfg.repeat > 1)
		total.autopsy = res.autopsy;
	wstatus = write_outputs(&cfg, cfg.repeat > 1 ? &total : &res, &col,
	    &runs);
	if (wstatus != EXIT_OK && (status == EXIT_OK || status == EXIT_WORKLOAD))
		status = wstatus;
	if (cfg.baseline != NULL) {
		if (compare_baseline(&cfg, cfg.repeat > 1 ? &total : &res,
		    &runs, &base,
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
	if (cfg.nlimits > 0 && report_limits(stderr, &cfg, cfg.repeat > 1 ?
	    &total : &res) > 0 && status == EXIT_OK)
		status = EXIT_THRESHOLD;
	runs_close(&runs);
	total.clients = NULL;		/* res's, shared */
	memset(&total.sched, 0, sizeof(total.sched));
	total.autopsy = NULL;
	free_result(&cfg, &res);
	free_result(&cfg, &total);
	free_config(&cfg);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", progname, strerror(errno));
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	return status;
}

/*
 * One measurement: the clients, the workload and loads, the loop, and
 * everything stopped again.  Why it ended is in res->stop.
 */
static void
measure_once(const struct config *cfg, struct result *res,
    struct collector *col)
{
	struct engine *eng;
	int need_sink, stopsig;

	need_sink = cfg->verbose || col->log != NULL || res->clients != NULL ||
	    res->timeline != NULL || cfg->explain > 0;
	machine_read(&res->mach);
	eng = clients_start(cfg, res);
	res->start = now_ns();
	res->start_wall = wall_ns();
	if (res->stop == STOP_NONE) {
		if (workload_start(cfg, &res->wl) == -1) {
			res->stop = STOP_ERROR;
			res->fail_what = "fork";
			res->fail_errno = errno;
		} else if (res->wl.reaped)
			res->stop = STOP_WORKLOAD;
	}
	if (res->stop == STOP_NONE && tune_pin_parent(cfg) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "sched_setaffinity (parent-cpu)";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE && tune_sched_parent(cfg) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "sched_setscheduler (latt's own policy)";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE && cfg->explain > 0 &&
	    explain_start(cfg) == -1) {
		res->stop = STOP_ERROR;
		res->fail_what = "explain: enabling the trace events";
		res->fail_errno = errno;
	}
	if (res->stop == STOP_NONE)
		measure_run(cfg, eng, res, need_sink ? collect_sink : NULL,
		    col->log != NULL || col->progress ? collect_tick : NULL,
		    col);
	res->end = now_ns();
	machine_read(&res->mach_end);
	if (col->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		col->shown = 0;
	}
	stopsig = res->stop == STOP_SIGNAL ? res->stop_signal : SIGTERM;
	workload_stop(&res->wl, stopsig);
	clients_stop(eng, res);
	/* The autopsy reads the trace once everything has stopped. */
	if (cfg->explain > 0)
		explain_read(cfg, res);
}

/* Whether another run may follow this one: it ended as runs end. */
static int
run_may_repeat(const struct result *res)
{
	return res->stop == STOP_DURATION || res->stop == STOP_SAMPLES ||
	    (res->stop == STOP_WORKLOAD && !workload_failed(&res->wl));
}

/*
 * Empties a run's result for the next run; the per-client table goes on,
 * and so does the record of the scheduler.
 */
static void
reset_result(const struct config *cfg, struct result *res)
{
	struct result keep = *res;
	unsigned i;

	for (i = 0; keep.classes != NULL && i < cfg->nclasses; i++) {
		stats_reset(&keep.classes[i].lat);
		stats_reset(&keep.classes[i].rq);
		stats_reset(&keep.classes[i].path);
		if (keep.classes[i].blocks != NULL)
			blocks_reset(keep.classes[i].blocks);
		memset(&keep.classes[i].got, 0, sizeof(keep.classes[i].got));
	}

	stats_reset(&keep.lat);
	stats_reset(&keep.work);
	stats_reset(&keep.timer);
	stats_reset(&keep.rq);
	stats_reset(&keep.path);
	explain_free(&keep);		/* the last run's autopsy, printed */
	machine_free(&keep.mach);	/* read afresh by each run */
	machine_free(&keep.mach_end);
	if (keep.lat_blocks != NULL)
		blocks_reset(keep.lat_blocks);
	if (keep.timer_blocks != NULL)
		blocks_reset(keep.timer_blocks);
	if (keep.rq_blocks != NULL)
		blocks_reset(keep.rq_blocks);
	if (keep.path_blocks != NULL)
		blocks_reset(keep.path_blocks);
	if (keep.timeline != NULL) {
		timeline_free(keep.timeline);
		if ((keep.timeline = timeline_new()) != NULL &&
		    timeline_keep_quantiles(keep.timeline) == -1) {
			timeline_free(keep.timeline);
			keep.timeline = NULL;
		}
	}
	if (keep.timer_timeline != NULL) {
		timeline_free(keep.timer_timeline);
		keep.timer_timeline = timeline_new();
	}
	memset(res, 0, sizeof(*res));
	res->lat = keep.lat;
	res->work = keep.work;
	res->timer = keep.timer;
	res->rq = keep.rq;
	res->path = keep.path;
	res->worst = keep.worst;
	res->lat_blocks = keep.lat_blocks;
	res->timer_blocks = keep.timer_blocks;
	res->rq_blocks = keep.rq_blocks;
	res->path_blocks = keep.path_blocks;
	res->timeline = keep.timeline;
	res->timer_timeline = keep.timer_timeline;
	res->clients = keep.clients;
	res->classes = keep.classes;
	res->sched = keep.sched;
	res->wl.tty = -1;
}

/*
 * The totals of --repeat: statistics of their own (the classes' too);
 * -1 after saying why.
 */
static int
setup_total(const struct config *cfg, struct result *total)
{
	if (stats_init(&total->lat, STATS_SUB_BITS) == -1 ||
	    stats_init(&total->work, STATS_SUB_BITS) == -1 ||
	    stats_init(&total->timer, STATS_SUB_BITS) == -1 ||
	    stats_init(&total->rq, STATS_SUB_BITS) == -1 ||
	    stats_init(&total->path, STATS_SUB_BITS) == -1) {
		fprintf(stderr, "%s: stats_init: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	return classes_init(cfg, total, 0);
}

/*
 * The statistics of every class, and with blocks their blocks of rounds
 * (for the results file and --baseline); -1 after saying why.
 */
static int
classes_init(const struct config *cfg, struct result *res, int blocks)
{
	struct class_result *c;
	unsigned i;

	if (cfg->nclasses == 0)
		return 0;
	if ((res->classes = calloc(cfg->nclasses, sizeof(*c))) == NULL) {
		fprintf(stderr, "%s: calloc: classes: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	for (i = 0; i < cfg->nclasses; i++) {
		c = &res->classes[i];
		if (stats_init(&c->lat, STATS_SUB_BITS) == -1 ||
		    stats_init(&c->rq, STATS_SUB_BITS) == -1 ||
		    stats_init(&c->path, STATS_SUB_BITS) == -1 || (blocks &&
		    ((c->blocks = calloc(1, sizeof(*c->blocks))) == NULL ||
		    blocks_init(c->blocks) == -1))) {
			fprintf(stderr, "%s: classes: %s\n", progname,
			    strerror(ENOMEM));
			return -1;
		}
	}
	return 0;
}

/*
 * Adds a finished run to the totals: the statistics, rounds, time,
 * wake-ups left pending and stalls (the first STALLS_MAX of all runs, each
 * timed within its own run); what ended the last run, its workload and
 * loads stand for all.
 */
static void
merge_result(const struct config *cfg, struct result *total,
    const struct result *res)
{
	uint64_t i;

	for (i = 0; total->classes != NULL && i < cfg->nclasses; i++) {
		stats_merge(&total->classes[i].lat, &res->classes[i].lat);
		stats_merge(&total->classes[i].rq, &res->classes[i].rq);
		stats_merge(&total->classes[i].path, &res->classes[i].path);
		total->classes[i].got = res->classes[i].got;
	}
	total->sched = res->sched;	/* res's, shared */
	/* The series: the machine at the first run's start, the last's end. */
	if (total->mach.clocksource == NULL && total->mach.governor == NULL &&
	    total->mach.smt == NULL)
		machine_copy(&total->mach, &res->mach);
	machine_free(&total->mach_end);
	machine_copy(&total->mach_end, &res->mach_end);
	stats_merge(&total->lat, &res->lat);
	stats_merge(&total->work, &res->work);
	stats_merge(&total->timer, &res->timer);
	stats_merge(&total->rq, &res->rq);
	stats_merge(&total->path, &res->path);
	total->clients = res->clients;
	total->nrounds += res->nrounds;
	total->discarded += res->discarded;
	if (total->start == 0) {
		total->start = res->start;
		total->end = res->end;
	} else
		total->end += res->end - res->start;	/* the runs' time */
	total->stop = res->stop;
	total->wl = res->wl;
	if (res->npending > 0 && (total->npending == 0 ||
	    res->pending_age > total->pending_age)) {
		total->pending_age = res->pending_age;
		total->pending_client = res->pending_client;
	}
	total->npending += res->npending;
	total->nunsent += res->nunsent;
	for (i = 0; i < res->nstalls && i < STALLS_MAX &&
	    total->nstalls + i < STALLS_MAX; i++)
		total->stalls[total->nstalls + i] = res->stalls[i];
	total->nstalls += res->nstalls;
	total->stall_total += res->stall_total;
	for (i = 0; i < res->nsuspend && i < SUSPEND_MAX &&
	    total->nsuspend + i < SUSPEND_MAX; i++)
		total->susp[total->nsuspend + i] = res->susp[i];
	total->nsuspend += res->nsuspend;
	total->suspended += res->suspended;
	total->susp_dropped += res->susp_dropped;
	if (total->start_wall == 0)
		total->start_wall = res->start_wall;
	total->wl_stopsig = res->wl_stopsig;
	total->wl_stop_at = res->wl_stop_at;
}

/*
 * The runs as JSON objects, for the results file and --baseline: kept in
 * memory (a few tens of KiB a run) until the end.
 */
static int
runs_open(const struct config *cfg, struct runs *runs)
{
	if (cfg->json_path == NULL && cfg->baseline == NULL)
		return 0;
	if ((runs->fp = open_memstream(&runs->buf, &runs->len)) == NULL) {
		fprintf(stderr, "%s: open_memstream: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
runs_add(struct runs *runs, const struct config *cfg,
    const struct result *res)
{
	if (runs->fp == NULL)
		return 0;
	if (runs->n > 0)
		fputc(',', runs->fp);
	runs->n++;
	if (json_write_run(runs->fp, cfg, res) == -1 ||
	    fflush(runs->fp) == EOF) {
		fprintf(stderr, "%s: results in memory: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
runs_close(struct runs *runs)
{
	if (runs->fp != NULL)
		fclose(runs->fp);
	free(runs->buf);
	memset(runs, 0, sizeof(*runs));
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
	col->json_fd = col->plot_fd = -1;
	col->cfg = cfg;
	col->res = res;
	col->progress = !cfg->quiet && !cfg->verbose && isatty(STDERR_FILENO);
	if (stats_init(&res->lat, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->work, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->timer, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->rq, STATS_SUB_BITS) == -1 ||
	    stats_init(&res->path, STATS_SUB_BITS) == -1) {
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
	if (classes_init(cfg, res, cfg->json_path != NULL ||
	    cfg->baseline != NULL) == -1)
		return -1;
	if (cfg->explain > 0 &&
	    (res->worst = calloc(cfg->explain, sizeof(*res->worst))) == NULL) {
		fprintf(stderr, "%s: calloc: %s\n", progname, strerror(errno));
		return -1;
	}
	if (cfg->json_path != NULL || cfg->baseline != NULL) {
		if ((res->lat_blocks = calloc(1, sizeof(struct blocks))) == NULL ||
		    (res->timer_blocks = calloc(1, sizeof(struct blocks))) ==
		    NULL || blocks_init(res->lat_blocks) == -1 ||
		    blocks_init(res->timer_blocks) == -1 ||
		    (cfg->schedstat && ((res->rq_blocks = calloc(1,
		    sizeof(struct blocks))) == NULL || (res->path_blocks =
		    calloc(1, sizeof(struct blocks))) == NULL ||
		    blocks_init(res->rq_blocks) == -1 ||
		    blocks_init(res->path_blocks) == -1))) {
			fprintf(stderr, "%s: blocks_init: %s\n", progname,
			    strerror(ENOMEM));
			return -1;
		}
	}
	if (cfg->plot_path != NULL && ((res->timeline = timeline_new()) ==
	    NULL || timeline_keep_quantiles(res->timeline) == -1 ||
	    (res->timer_timeline = timeline_new()) == NULL)) {
		fprintf(stderr, "%s: timeline_new: %s\n", progname,
		    strerror(errno));
		return -1;
	}
	/*
	 * Every output file is opened now, so that a bad path fails before
	 * a client is forked; the reports are written into them at the end.
	 */
	if (cfg->json_path != NULL && strcmp(cfg->json_path, "-") != 0 &&
	    (col->json_fd = claim_output(cfg->json_path)) == -1)
		return -1;
	if (cfg->plot_path != NULL &&
	    (col->plot_fd = claim_output(cfg->plot_path)) == -1)
		return -1;
	if (cfg->log_path != NULL) {
		if ((col->log = open_output(cfg->log_path)) == NULL)
			return -1;
		if (fputs("time_ns,round,client,cpu,latency_ns,pos,rq_wait_ns\n",
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

/*
 * Opens a report file before the run without truncating it, so that an
 * earlier report is only replaced once the new one is written.  Returns
 * the descriptor, or -1 after saying why.
 */
static int
claim_output(const char *path)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666)) == -1)
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
	return fd;
}

/*
 * The stream of a report file at the end: through the descriptor opened
 * before the run (a regular file is truncated first), or stdout for "-".
 * Returns NULL after saying why.
 */
static FILE *
open_report(const char *path, int *fd)
{
	struct stat sb;
	FILE *fp;

	errno = 0;
	if (*fd == -1)
		return open_output(path);
	if (fstat(*fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    ftruncate(*fd, 0) == -1) {
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
		close(*fd);
		*fd = -1;
		return NULL;
	}
	if ((fp = fdopen(*fd, "w")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
		close(*fd);
	}
	*fd = -1;
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

/* Writes the results file: the totals and the runs; -1 after saying why. */
static int
write_json(const char *path, int *fd, const struct config *cfg,
    const struct result *total, const struct runs *runs)
{
	FILE *fp;

	if ((fp = open_report(path, fd)) == NULL)
		return -1;
	json_write(fp, cfg, total, runs->n, runs->buf != NULL ? runs->buf : "");
	return close_output(fp, path);
}

/* Writes the SVG plot of the last run; -1 after saying why. */
static int
write_plot(const char *path, int *fd, const struct config *cfg,
    const struct result *res)
{
	FILE *fp;

	if ((fp = open_report(path, fd)) == NULL)
		return -1;
	plot_write(fp, cfg, res);
	return close_output(fp, path);
}

/* A run's text summary, unless the JSON takes stdout. */
static void
print_summary(const struct config *cfg, const struct result *res)
{
	if (cfg->json_path == NULL || strcmp(cfg->json_path, "-") != 0) {
		report_text(stdout, cfg, res);
		if (cfg->per_client && cfg->repeat == 1)
			report_per_client(stdout, cfg, res);
		if (cfg->histogram && cfg->repeat == 1)
			report_histogram(stdout, res,
			    terminal_width(STDOUT_FILENO));
		if (res->autopsy != NULL)
			report_explain(stdout, res);
	}
	fflush(stdout);
}

/*
 * The reports, once the runs are over: with --repeat, the per-client table
 * and the histogram of all runs; the JSON and the plot; then the log is
 * closed.  res is the run, or the totals of all runs.  Returns EXIT_OK or
 * EXIT_RUNTIME.
 */
static int
write_outputs(const struct config *cfg, struct result *res,
    struct collector *col, const struct runs *runs)
{
	int status = EXIT_OK;

	if (cfg->repeat > 1 && (cfg->json_path == NULL ||
	    strcmp(cfg->json_path, "-") != 0)) {
		if (cfg->per_client)
			report_per_client(stdout, cfg, res);
		if (cfg->histogram)
			report_histogram(stdout, res,
			    terminal_width(STDOUT_FILENO));
	}
	/* stdout goes first, so that a failing file cannot hide the summary. */
	fflush(stdout);
	if (cfg->json_path != NULL &&
	    write_json(cfg->json_path, &col->json_fd, cfg, res, runs) == -1)
		status = EXIT_RUNTIME;
	if (cfg->plot_path != NULL && col->res->timeline != NULL &&
	    write_plot(cfg->plot_path, &col->plot_fd, cfg, col->res) == -1)
		status = EXIT_RUNTIME;
	if (col->log != NULL) {
		/* A log that failed during the run has been reported. */
		errno = 0;
		if (col->res->stop != STOP_SINK &&
		    close_output(col->log, cfg->log_path) == -1)
			status = EXIT_RUNTIME;
		else if (col->res->stop == STOP_SINK && col->log != stdout)
			fclose(col->log);
		col->log = NULL;
	}
	return status;
}

/*
 * --baseline: this run (or these runs), written as JSON into memory and
 * read back as side B, against the baseline's side A, after the summary.
 * The comparison reads the finished results exactly as latt compare would
 * read the file.  Returns 1 when --fail-if-worse finds the runs worse, 0,
 * or -1 after saying why it could not compare.
 */
static int
compare_baseline(const struct config *cfg, const struct result *total,
    const struct runs *runs, struct cmp_side *base,
    const struct cmp_gate *gate)
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
	json_write(mem, cfg, total, runs->n, runs->buf != NULL ? runs->buf :
	    "");
	if (fclose(mem) == EOF) {
		fprintf(stderr, "%s: baseline: %s\n", progname,
		    strerror(errno));
		free(buf);
		return -1;
	}
	cmp_side_init(&run, "B");
	run.label = strdup(runs->n > 1 ? "these runs" : "this run");
	if (cmp_side_add_buf(&run, "this run", buf, len, err,
	    sizeof(err)) == -1)
		fprintf(stderr, "%s: baseline: %s\n", progname, err);
	else {
		printf("\nAgainst the baseline (latt compare %s <%s>):\n",
		    cfg->baseline, runs->n > 1 ? "these runs" : "this run");
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
	stats_free(&res->rq);
	stats_free(&res->path);
	if (res->clients != NULL)
		for (i = 0; i < cfg->nclients; i++)
			stats_free(&res->clients[i].lat);
	free(res->clients);
	res->clients = NULL;
	if (res->classes != NULL)
		for (i = 0; i < cfg->nclasses; i++) {
			stats_free(&res->classes[i].lat);
			stats_free(&res->classes[i].rq);
			stats_free(&res->classes[i].path);
			blocks_free(res->classes[i].blocks);
			free(res->classes[i].blocks);
		}
	free(res->classes);
	res->classes = NULL;
	sched_info_free(&res->sched);
	machine_free(&res->mach);
	machine_free(&res->mach_end);
	timeline_free(res->timeline);
	res->timeline = NULL;
	explain_free(res);
	timeline_free(res->timer_timeline);
	res->timer_timeline = NULL;
	blocks_free(res->lat_blocks);
	blocks_free(res->timer_blocks);
	blocks_free(res->rq_blocks);
	blocks_free(res->path_blocks);
	free(res->lat_blocks);
	free(res->timer_blocks);
	free(res->rq_blocks);
	free(res->path_blocks);
	res->lat_blocks = res->timer_blocks = NULL;
	res->rq_blocks = res->path_blocks = NULL;
	free(res->worst);
	res->worst = NULL;
}

/* What config_parse allocated, tracefs, and --explain's instance. */
static void
free_config(struct config *cfg)
{
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		free(cfg->classes[i].cpus);
	free(cfg->classes);
	free(cfg->class_of);
	free(cfg->cpus);
	trace_close(&cfg->trace);
	explain_close(cfg);
}

/* The width of the terminal on fd, or 80 when it is not one. */
static int
terminal_width(int fd)
{
	struct winsize ws;

	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/*
 * Whether latt runs in the background of the terminal on stderr (bg, or
 * "latt ... &"): the terminal is another job's then, and the progress line
 * stays off it.  The workload's group holding it counts as latt's.
 */
static int
terminal_elsewhere(pid_t workload)
{
	pid_t fg = tcgetpgrp(STDERR_FILENO);

	return fg > 0 && fg != getpgrp() && fg != workload;
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
	if (res->wl_stopsig != 0) {
		fprintf(stderr, "%s: the workload was stopped by SIG%s from "
		    "outside latt, %.3f s into the run: the run ended there\n",
		    progname, sigabbrev_np(res->wl_stopsig) != NULL ?
		    sigabbrev_np(res->wl_stopsig) : "?",
		    (double)res->wl_stop_at / NSEC_PER_SEC);
		return EXIT_WORKLOAD;
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
	char who[32], late[32];

	if (b->timer)
		snprintf(who, sizeof(who), "the timer");
	else
		snprintf(who, sizeof(who), "client %u", b->client);
	fmt_time(late, sizeof(late), (double)b->latency, 0, "us");
	/* The kernel's answer to a marker while its ring buffer is off. */
	if (b->err == EBADF)
		fprintf(stderr, "%s: breaktrace: %s woke %s late, %.6f s "
		    "into the run; tracing was off (%s/tracing_on 0): no "
		    "marker recorded\n", progname, who, late,
		    (double)b->when / NSEC_PER_SEC, cfg->trace.dir);
	else if (b->err != 0)
		fprintf(stderr, "%s: breaktrace: %s woke %s late, %.6f s "
		    "into the run; writing %s failed: %s\n", progname, who,
		    late, (double)b->when / NSEC_PER_SEC, cfg->trace.dir,
		    strerror(b->err));
	else
		fprintf(stderr, "%s: breaktrace: %s woke %s late, %.6f s "
		    "into the run; tracing stopped, marker in %s/trace\n",
		    progname, who, late, (double)b->when / NSEC_PER_SEC,
		    cfg->trace.dir);
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

	/* A timer sample: the plot's timer series and a log row, client -1. */
	if (s->timer) {
		if (res->timer_timeline != NULL)
			timeline_add(res->timer_timeline, s->when, s->latency);
		if (col->log != NULL && fprintf(col->log,
		    "%lld,%llu,-1,%d,%lld,-1,\n", (long long)s->when,
		    (unsigned long long)s->round, (int)s->cpu,
		    (long long)s->latency) < 0)
			return -1;
		return 0;
	}
	if (res->clients != NULL) {
		cs = &res->clients[s->client];
		if (cs->last_cpu != -1 && s->cpu != cs->last_cpu)
			cs->migrations++;
		cs->last_cpu = s->cpu;
		stats_add(&cs->lat, s->latency, s->client, s->when);
	}
	if (res->timeline != NULL)
		timeline_add(res->timeline, s->when, s->latency);
	if (col->cfg->explain > 0)
		explain_keep(col->cfg, res, s);
	/* -v to a stderr that cannot be written ends the run like a log. */
	if (col->cfg->verbose && report_verbose(stderr, s) < 0)
		return -1;
	if (col->log == NULL)
		return 0;
	if (fprintf(col->log, "%lld,%llu,%u,%d,%lld,%u,", (long long)s->when,
	    (unsigned long long)s->round, s->client, (int)s->cpu,
	    (long long)s->latency, s->pos) < 0)
		return -1;
	/* An unknown runqueue wait is an empty field, never a made-up 0. */
	if ((s->rq_wait >= 0 ? fprintf(col->log, "%lld\n",
	    (long long)s->rq_wait) : fputs("\n", col->log)) < 0)
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
	if (col->progress && now - res->start >= PROGRESS_AFTER &&
	    !terminal_elsewhere(res->wl.pid)) {
		report_progress(stderr, col->cfg, res, now,
		    terminal_width(STDERR_FILENO));
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
on_tstp(int sig)
{
	got_tstp = sig;
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
	/* Ctrl-Z suspends the whole run, between rounds (job_suspend). */
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, NULL);
	/* A stopped workload is noticed: no SA_NOCLDSTOP. */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/*
	 * latt hands the terminal to the workload and takes it back
	 * (tcsetpgrp), and writes its progress and summary wherever the
	 * terminal is: a SIGTTOU must never stop it.
	 */
	sigaction(SIGTTOU, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The wall clock, for the reports' date only (never for measuring). */
static int64_t
wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
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

