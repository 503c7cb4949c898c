/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outputs.c: where a run's reports go (outputs.h).  Every file is claimed
 * before anything starts, so that a bad path costs nothing; the sink and
 * the tick feed the log, -v and the progress line while the run goes on;
 * and once the runs are over the summary, the results file, the plot and
 * the comparison with --baseline are written from the finished results.
 * A report into a regular file goes into an unnamed temporary file in its
 * directory, synced, named and renamed over it once whole: a failure (a
 * full disk, no memory) leaves the old file as it was, a crash leaves no
 * temporary file, and two runs writing one file leave one whole report.
 * Nothing here measures.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "compare/compare.h"
#include "config.h"
#include "json/json.h"
#include "lib/common.h"
#include "plot/plot.h"
#include "record/topo.h"
#include "report/outputs.h"
#include "report/report.h"
#include "result.h"

#define PROGRESS_AFTER	(2 * NSEC_PER_SEC)	/* no progress line before */
#define FIFO_POLL_NS	(50 * NSEC_PER_MSEC)	/* looks for a FIFO's reader */
#define LOG_HEADER	"time_ns,round,client,cpu,latency_ns,pos,rq_wait_ns," \
	"series,run,waker_cpu,place\n"
#define LOG_REORDER_NS	NSEC_PER_SEC	/* open loop: a late reply's wait */

static int	 file_claim(struct report_file *, const char *, const char *);
static FILE	*file_stream(struct report_file *, const char *);
static int	 file_finish(struct report_file *, FILE *);
static void	 file_drop(struct report_file *);
static int	 fifo_open(const struct report_file *, const char *);
static int	 write_json(struct report_file *, const struct config *,
		    const struct result *, const struct runs *);
static int	 write_plot(struct report_file *, const struct config *,
		    const struct result *);
static int	 log_add(struct outputs *, const struct sample *);
static int	 log_flush(struct outputs *, int64_t);
static int	 log_row(FILE *, const struct sample *, unsigned);
static void	 print_tables(const struct config *, const struct result *);
static int	 terminal_width(int);
static int	 terminal_elsewhere(pid_t);
static char	*json_in_memory(struct outputs *, const struct result *,
		    size_t *, const char *);

int
outputs_want_samples(const struct outputs *col)
{
	return col->cfg->verbose || col->log != NULL;
}

int
outputs_want_ticks(const struct outputs *col)
{
	return col->log != NULL || col->progress;
}

void
outputs_progress_off(struct outputs *col)
{
	if (!col->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	col->shown = 0;
}

int
outputs_add_run(struct outputs *col, const struct result *res)
{
	struct runs *runs = &col->runs;
	const struct config *cfg = col->cfg;

	/* The log's last rows; a log that failed in the run was said. */
	if (col->log != NULL && !col->log_failed && res->stop != STOP_SINK &&
	    log_flush(col, INT64_MAX) == -1) {
		lwarnx("--log=%s: %s", cfg->log_path,
		    strerror(errno != 0 ? errno : EIO));
		col->log_failed = 1;
		return -1;
	}
	col->nrows = 0;
	col->nrun++;
	if (runs->fp == NULL || runs->err != 0)
		return runs->fp == NULL ? 0 : -1;
	if (runs->n++ > 0)
		fputc(',', runs->fp);
	/* Its error (no memory) sticks: no part is written, said here. */
	if (json_write_run(runs->fp, cfg, res) == -1 || fflush(runs->fp)) {
		runs->err = ENOMEM;
		lwarnc(runs->err, "%s: not written: the runs kept in memory",
		    cfg->json_path != NULL ? cfg->json_path : "comparison");
		return -1;
	}
	return 0;
}

void
outputs_close(struct outputs *col)
{
	if (col->runs.fp != NULL)
		fclose(col->runs.fp);
	if (col->log != NULL)
		fclose(col->log);
	free(col->runs.m.buf);
	free(col->rows);
	file_drop(&col->logf);
	file_drop(&col->json);
	file_drop(&col->plot);
	file_drop(&col->ktapf);
	memset(col, 0, sizeof(*col));
	col->logf.fd = col->json.fd = col->plot.fd = col->ktapf.fd = -1;
}

int
outputs_open(struct outputs *col, const struct config *cfg,
    struct result *res)
{
	memset(col, 0, sizeof(*col));
	col->logf.fd = col->json.fd = col->plot.fd = col->ktapf.fd = -1;
	col->cfg = cfg;
	col->res = res;
	/*
	 * The progress line only where nothing else writes: a command
	 * shares latt's stderr, and a line of its own would run on after
	 * the progress line ("workload runningcc -pthread ...").
	 */
	col->progress = !cfg->quiet && !cfg->verbose && cfg->ncmd == 0 &&
	    isatty(STDERR_FILENO);
	/* The runs' JSON, kept in memory (some tens of KiB a run). */
	if ((cfg->json_path != NULL || cfg->baseline != NULL ||
	    (cfg->sweep.kind == SWEEP_KNOB && cfg->sweep.n == 2)) &&
	    (col->runs.fp = mem_open(&col->runs.m)) == NULL) {
		lwarn("the runs kept in memory");
		return -1;
	}
	if (cfg->json_path != NULL && strcmp(cfg->json_path, "-") != 0 &&
	    file_claim(&col->json, "json", cfg->json_path) == -1)
		return -1;
	if (cfg->plot_path != NULL &&
	    file_claim(&col->plot, "plot", cfg->plot_path) == -1)
		return -1;
	if (cfg->ktap_path != NULL && strcmp(cfg->ktap_path, "-") != 0 &&
	    file_claim(&col->ktapf, "ktap", cfg->ktap_path) == -1)
		return -1;
	/* --ktap to stdout keeps its descriptor; all else goes to stderr. */
	if (cfg->ktap_path != NULL && strcmp(cfg->ktap_path, "-") == 0) {
		col->ktapf.opt = "ktap";
		col->ktapf.path = "-";
		if (fflush(stdout) == EOF || (col->ktapf.fd = fcntl(
		    STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) == -1 ||
		    dup2(STDERR_FILENO, STDOUT_FILENO) == -1) {
			lwarn("--ktap");
			return -1;
		}
	}
	if (cfg->log_path != NULL) {
		if (file_claim(&col->logf, "log", cfg->log_path) == -1 ||
		    (col->log = file_stream(&col->logf, "the log")) == NULL)
			return -1;
		if (fputs(LOG_HEADER, col->log) == EOF) {
			lwarn("--log=%s", cfg->log_path);
			return -1;
		}
	}
	return 0;
}

/*
 * Claims a report file before the run.  A FIFO is only checked (it is
 * opened when written, so that it cannot hold up the start); a device, or
 * a path under /dev or /proc (/dev/stdout), is opened as it is, without
 * truncating it; a regular file, or one still to be made, gets its
 * temporary file beside the file it names once links are followed, with
 * that file's mode and owner.  Returns 0, or -1 after saying why.
 */
static int
file_claim(struct report_file *rf, const char *opt, const char *path)
{
	struct stat sb;
	int have;

	memset(rf, 0, sizeof(*rf));
	rf->fd = -1;
	rf->opt = opt;
	rf->path = path;
	have = stat(path, &sb) == 0;
	if (have && S_ISFIFO(sb.st_mode)) {
		rf->fifo = 1;
		if (access(path, W_OK) == 0)
			return 0;
	} else if ((have && !S_ISREG(sb.st_mode)) ||
	    strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) {
		if ((rf->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC,
		    0666)) >= 0)
			return 0;
	} else if ((rf->target = path_target(path)) != NULL &&
	    (!have || access(rf->target, W_OK) == 0)) {
		rf->existed = have;
		if ((rf->fd = tmp_open(rf->target, &rf->tmp, &rf->anon)) >= 0) {
			if (have) {
				(void)!fchmod(rf->fd, sb.st_mode & 07777);
				(void)!fchown(rf->fd, sb.st_uid, sb.st_gid);
			}
			return 0;
		}
	}
	lwarn("--%s=%s", opt, path);
	return -1;
}

/*
 * The stream a claimed report is written through: a FIFO is opened now
 * (once it has a reader), a regular file written as it is truncated.
 * what names the report for the FIFO's messages.  NULL after saying why,
 * the report dropped.
 */
static FILE *
file_stream(struct report_file *rf, const char *what)
{
	struct stat sb;
	FILE *fp;

	errno = 0;
	if (rf->fifo && (rf->fd = fifo_open(rf, what)) == -1) {
		file_drop(rf);
		return NULL;
	}
	if ((rf->tmp == NULL && fstat(rf->fd, &sb) == 0 &&
	    S_ISREG(sb.st_mode) && ftruncate(rf->fd, 0) == -1) ||
	    (fp = fdopen(rf->fd, "w")) == NULL) {
		lwarn("--%s=%s", rf->opt, rf->path);
		file_drop(rf);
		return NULL;
	}
	rf->fd = -1;
	errno = 0;
	return fp;
}

/*
 * Opens a FIFO for writing once a reader has it open, saying so when none
 * has yet.  A signal that ends latt (SIGINT, SIGTERM, SIGHUP) ends the
 * wait, with a sentence; one that ended the run before does not.
 * Returns the descriptor, or -1 after saying why.
 */
static int
fifo_open(const struct report_file *rf, const char *what)
{
	const char *path = rf->path;
	struct timespec nap = { 0, FIFO_POLL_NS };
	const char *sig;
	int fd, said = 0;

	got_stop = 0;
	while ((fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		if (errno != ENXIO && errno != EINTR) {
			lwarn("--%s=%s", rf->opt, path);
			return -1;
		}
		if (got_stop) {
			sig = sigabbrev_np(got_stop);
			lwarnx("--%s=%s: no reader opened the FIFO before SIG%s: "
			    "%s not written", rf->opt, path, sig != NULL ? sig :
			    "?", what);
			return -1;
		}
		if (!said)
			lwarnx("waiting for a reader of the FIFO %s (%s)",
			    path, what);
		said = 1;
		nanosleep(&nap, NULL);
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == -1) {
		lwarn("--%s=%s", rf->opt, path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Flushes and closes a report; a temporary file is put in place of the
 * file it replaces (tmp_commit).  Returns 0, or -1 after saying why, the
 * temporary file removed and the old file left as it was.
 */
static int
file_finish(struct report_file *rf, FILE *fp)
{
	int e = 0;

	errno = 0;
	if (rf->tmp != NULL ? tmp_commit(fp, rf->tmp, rf->anon,
	    rf->target) == -1 : (fflush(fp) == EOF || ferror(fp)) |
	    (fclose(fp) == EOF))
		e = errno != 0 ? errno : EIO;
	if (e != 0)
		lwarnx("--%s=%s: %s%s", rf->opt, rf->path, strerror(e),
		    rf->tmp == NULL ? "" : rf->existed ?
		    " (the file is left as it was)" : " (nothing written)");
	file_drop(rf);
	return e != 0 ? -1 : 0;
}

/* Forgets a report: its descriptor closed, its temporary file removed. */
static void
file_drop(struct report_file *rf)
{
	if (rf->fd >= 0)
		close(rf->fd);
	rf->fd = -1;
	if (rf->tmp != NULL)	/* named, renamed, or no such file */
		unlink(rf->tmp);
	free(rf->tmp);
	free(rf->target);
	rf->tmp = rf->target = NULL;
}

/* Writes the results file: the totals and the runs; -1 after saying why. */
static int
write_json(struct report_file *rf, const struct config *cfg,
    const struct result *total, const struct runs *runs)
{
	FILE *fp = stdout;	/* "-": main checks stdout, once, at the end */

	if (runs->err != 0)	/* said when a run's JSON failed */
		return -1;
	if (strcmp(cfg->json_path, "-") != 0 &&
	    (fp = file_stream(rf, "the results")) == NULL)
		return -1;
	json_write(fp, cfg, total, runs->n, runs->m.buf);
	return fp == stdout ? 0 : file_finish(rf, fp);
}

/* Writes the SVG plot of the last run; -1 after saying why. */
static int
write_plot(struct report_file *rf, const struct config *cfg,
    const struct result *res)
{
	FILE *fp;

	if ((fp = file_stream(rf, "the plot")) == NULL)
		return -1;
	plot_write(fp, cfg, res);
	return file_finish(rf, fp);
}

/* The per-client table and the histogram, as asked, of res on stdout. */
static void
print_tables(const struct config *cfg, const struct result *res)
{
	if (cfg->per_client)
		report_per_client(stdout, cfg, res);
	if (cfg->histogram)
		report_histogram(stdout, res, terminal_width(STDOUT_FILENO));
}

void
outputs_summary(const struct config *cfg, const struct result *res,
    const struct run_brief *runs, unsigned nruns)
{
	if (cfg->json_path == NULL || strcmp(cfg->json_path, "-") != 0) {
		report_text(stdout, cfg, res, runs, nruns);
		if (cfg->repeat == 1)
			print_tables(cfg, res);
		if (res->autopsy != NULL)
			report_explain(stdout, res);
	}
	fflush(stdout);
}

int
outputs_write(struct outputs *col, struct result *res)
{
	const struct config *cfg = col->cfg;
	const struct runs *runs = &col->runs;
	int status = EXIT_OK;

	if (cfg->repeat > 1 && (cfg->json_path == NULL ||
	    strcmp(cfg->json_path, "-") != 0))
		print_tables(cfg, res);
	/* stdout goes first, so that a failing file cannot hide the summary. */
	fflush(stdout);
	if (cfg->json_path != NULL &&
	    write_json(&col->json, cfg, res, runs) == -1)
		status = EXIT_RUNTIME;
	if (cfg->plot_path != NULL && col->res->ser[SER_LATENCY].tl != NULL &&
	    write_plot(&col->plot, cfg, col->res) == -1)
		status = EXIT_RUNTIME;
	if (col->log != NULL) {
		/* A log that failed has been reported. */
		if (col->res->stop == STOP_SINK || col->log_failed) {
			fclose(col->log);
			file_drop(&col->logf);
		} else if (file_finish(&col->logf, col->log) == -1)
			status = EXIT_RUNTIME;
		col->log = NULL;
	}
	return status;
}

FILE *
outputs_ktap(struct outputs *col, unsigned plan)
{
	struct report_file *rf = &col->ktapf;
	FILE *fp;

	if (col->cfg->ktap_path == NULL)
		return NULL;
	if (strcmp(rf->path, "-") != 0)
		fp = file_stream(rf, "the KTAP report");
	else if ((fp = fdopen(rf->fd, "w")) != NULL)
		rf->fd = -1;
	else
		lwarn("--ktap");
	if (fp != NULL)
		fprintf(fp, "KTAP version 1\n1..%u\n", plan);
	return fp;
}

int
outputs_ktap_end(struct outputs *col, FILE *fp, int whole)
{
	if (whole)
		return file_finish(&col->ktapf, fp);
	fclose(fp);
	file_drop(&col->ktapf);
	return -1;
}

int
outputs_baseline(struct outputs *col, const struct result *total,
    struct cmp_side *base, const struct cmp_gate *gate)
{
	const struct config *cfg = col->cfg;
	const char *these = col->runs.n > 1 ? "these runs" : "this run";
	struct cmp_side run;
	char err[512], *buf = NULL;
	size_t len = 0;
	int r = -1;

	if ((buf = json_in_memory(col, total, &len, "baseline")) == NULL)
		return -1;
	cmp_side_init(&run, "B");
	run.drop_noisy = cfg->drop_noisy;	/* as latt compare's */
	run.label = strdup(these);
	if (cmp_side_add_buf(&run, these, buf, len, err, sizeof(err)) == -1)
		lwarnx("baseline: %s", err);
	else {
		printf("\nAgainst the baseline (latt compare %s <%s>):\n",
		    cfg->baseline, these);
		if ((r = cmp_report(stdout, stderr, base, &run, gate)) == -1)
			lwarnc(ENOMEM, "baseline");
	}
	cmp_side_free(&run);
	free(buf);
	return r;
}

/*
 * The JSON of the runs so far and their total, written into memory, for
 * a comparison read as latt compare reads a file; its length in *len.
 * NULL after saying why (what names the comparison).
 */
static char *
json_in_memory(struct outputs *col, const struct result *total, size_t *len,
    const char *what)
{
	const struct runs *runs = &col->runs;
	struct mem m;
	FILE *fp;

	if (runs->err != 0)	/* said when a run's JSON failed */
		return NULL;
	if ((fp = mem_open(&m)) == NULL || (json_write(fp, col->cfg, total,
	    runs->n, runs->m.buf) == -1) | (fclose(fp) == EOF)) {
		lwarn("%s", what);
		free(m.buf);
		return NULL;
	}
	*len = m.len;
	return m.buf;
}

int
outputs_knob_compare(struct outputs *col, const struct result *total)
{
	const struct config *cfg = col->cfg;
	struct cmp_side side[2];
	char err[512], *buf = NULL;
	size_t len = 0, i;
	int r = -1;

	if ((buf = json_in_memory(col, total, &len, "knob: comparison")) ==
	    NULL)
		return -1;
	for (i = 0; i < 2; i++) {
		cmp_side_init(&side[i], i == 0 ? "A" : "B");
		if (asprintf(&side[i].label, "value %s",
		    cfg->sweep.text[i]) < 0)
			side[i].label = NULL;
	}
	if (cmp_side_add_point(&side[0], "these runs", cfg->sweep.text[0],
	    buf, len, err, sizeof(err)) == -1 ||
	    cmp_side_add_point(&side[1], "these runs", cfg->sweep.text[1],
	    buf, len, err, sizeof(err)) == -1)
		lwarnx("knob: %s", err);
	else {
		printf("\nValue %s against %s (latt compare --by-knob "
		    "<these runs>):\n", cfg->sweep.text[1], cfg->sweep.text[0]);
		if ((r = cmp_report(stdout, stderr, &side[0], &side[1],
		    NULL)) == -1)
			lwarnc(ENOMEM, "knob: comparison");
	}
	cmp_side_free(&side[0]);
	cmp_side_free(&side[1]);
	free(buf);
	return r == -1 ? -1 : 0;
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

int
outputs_sink(void *arg, const struct sample *s)
{
	struct outputs *col = arg;

	/* -v to a stderr that cannot be written ends the run like a log. */
	if (!s->timer && col->cfg->verbose && report_verbose(stderr, s) < 0)
		return -1;
	return col->log != NULL ? log_add(col, s) : 0;
}

/*
 * A row of the log, kept until every row before it in time has come: the
 * sink sees a round's replies as they are read, not in the order they
 * were sent.  A timer sample (its deadline comes before its round's
 * sends) writes what came before it: in the closed loop every earlier
 * round is whole by then, so the buffer holds one round; in the open loop
 * a reply may come rounds late, and rows wait LOG_REORDER_NS (a reply
 * later still is written when it comes).  Returns -1 when the log fails.
 */
static int
log_add(struct outputs *col, const struct sample *s)
{
	struct sample *v;
	size_t lo = 0, hi = col->nrows, mid;

	if (col->nrows == col->maxrows) {
		col->maxrows = col->maxrows > 0 ? 2 * col->maxrows : 64;
		if ((v = realloc(col->rows, col->maxrows *
		    sizeof(*v))) == NULL)
			return -1;
		col->rows = v;
	}
	/* After the rows of its time or earlier: nearly always the last. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (col->rows[mid].when <= s->when)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&col->rows[lo + 1], &col->rows[lo], (col->nrows - lo) *
	    sizeof(*s));
	col->rows[lo] = *s;
	col->nrows++;
	if (!s->timer)
		return 0;
	return log_flush(col, col->cfg->open_loop ? s->when - LOG_REORDER_NS :
	    s->when);
}

/* Writes the rows from before the time until (ns); -1 when the log fails. */
static int
log_flush(struct outputs *col, int64_t until)
{
	size_t n;

	errno = 0;
	for (n = 0; n < col->nrows && col->rows[n].when < until; n++)
		if (log_row(col->log, &col->rows[n], col->nrun + 1) < 0)
			return -1;
	memmove(col->rows, col->rows + n, (col->nrows - n) *
	    sizeof(*col->rows));
	col->nrows -= n;
	return 0;
}

/*
 * One row: time_ns, round, client, cpu, latency_ns, pos, rq_wait_ns,
 * series, run.  A timer row keeps every column's place: client and pos
 * -1, rq_wait_ns empty.  Returns what fprintf does.
 */
static int
log_row(FILE *fp, const struct sample *s, unsigned run)
{
	char rq[24] = "";

	if (s->timer)
		return fprintf(fp, "%lld,%llu,-1,%d,%lld,-1,,timer,%u,-1,\n",
		    (long long)s->when, (unsigned long long)s->round,
		    (int)s->cpu, (long long)s->latency, run);
	/* An unknown runqueue wait is an empty field, never a made-up 0. */
	if (s->rq_wait >= 0)
		snprintf(rq, sizeof(rq), "%lld", (long long)s->rq_wait);
	return fprintf(fp, "%lld,%llu,%u,%d,%lld,%u,%s,wake,%u,%d,%s\n",
	    (long long)s->when, (unsigned long long)s->round, s->client,
	    (int)s->cpu, (long long)s->latency, s->pos, rq, run,
	    (int)s->waker_cpu, topo_place_name(s->place));
}

int
outputs_tick(void *arg, const struct result *res)
{
	struct outputs *col = arg;
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
