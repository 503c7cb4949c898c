/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --explain's tracefs instance and its keeper, from before the run to its
 * end.  The instance (instances/latt-PID, PID latt's as tracefs knows it,
 * unique across PID namespaces; the global buffer and other tools'
 * instances are never touched) has the "mono" clock, so that trace times
 * and latt's CLOCK_MONOTONIC stamps are one clock, a bounded buffer, and
 * the wake-up and migration events filtered to latt's own processes.  Its
 * keeper (keeper.c) keeps the pages around the K worst samples so far,
 * whose windows explain_keep publishes in a shared page, and removes the
 * instance even when latt is killed outright.  After the run the pages go
 * through the decoder (tracedec.c) to autopsy.c.
 *
 * Every file of the instance is reached through tracefs's instances
 * directory, held open from the start (/proc/self/fd/N/latt-PID), so that
 * a tracefs unmounted during the run (lazily: the kernel keeps it while
 * it is open) still gives its trace and still loses the instance; the
 * autopsy says it went.  tracefs records the initial PID namespace's
 * pids: in another one, whose /proc is the host's, latt's children are
 * looked up in NSpid when the run starts; where /proc cannot tell, the
 * autopsy is refused before the run.  Waits for the keeper have
 * deadlines, and a keeper stopped or dead costs the autopsy, never the
 * run.  Nothing here prints.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "explain/autopsy.h"
#include "explain/explain.h"
#include "explain/keeper.h"
#include "explain/trace.h"
#include "explain/tracedec.h"
#include "lib/common.h"
#include "proc/proc.h"
#include "result.h"

#define BUF_KB_MAX	8192		/* instance buffer, KiB a CPU */
#define BUF_KB_TOTAL	65536		/* and at most this over all CPUs */
#define BUF_KB_MIN	256
#define KEEPER_WAIT_NS	(2 * NSEC_PER_SEC)
#define RMDIR_WAIT_NS	(1 * NSEC_PER_SEC)	/* EBUSY: its files closing */
#define LOOKBACK_NS	(200 * NSEC_PER_MSEC)	/* the keeper keeps before a
						   kept sample's send */
#define AFTER_NS	(5 * NSEC_PER_MSEC)	/* and after its wake-up */

static char		 own_comm[COMM_LEN];

static unsigned	 buffer_kb(void);
static int	 prepare_events(const struct tinst *, char *, size_t);
static void	 event_dir(const struct tinst *, const struct tdec_def *,
		    char *, size_t);
static int	 read_trace(const struct tinst *, int64_t, struct autopsy *,
		    struct tdec_trace *);
static int	 keeper_check(struct tinst *, const struct result *,
		    struct autopsy *);
static void	 keeper_end(struct tinst *);
static void	 keeper_error(const struct tinst *, struct autopsy *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
static void	 map_children(struct tinst *);
static int	 mount_lost(const struct tinst *);
static pid_t	 host_pid(const struct tinst *, pid_t);
static void	 read_lost(const char *, unsigned, struct tdec_trace *);
static int	 write_file(const char *, const char *, const char *);

int
explain_open(struct tinst *in, char *err, size_t errlen)
{
	char val[32], inst[PATH_MAX], why[200];
	struct stat sb;
	enum proc_view view;
	char *comm;
	int e, ret = -1;

	memset(in, 0, sizeof(*in));
	in->keeper_fd = in->keeper_rfd = in->ifd = -1;
	if ((view = proc_host_view(&in->host, err, errlen)) == PROC_VIEW_NONE)
		return -1;
	in->nspid = view == PROC_VIEW_NSPID;
	if ((in->top = trace_find()) == NULL) {
		snprintf(err, errlen, "tracefs is not mounted (mount -t "
		    "tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	snprintf(in->name, sizeof(in->name), "latt-%d", (int)in->host);
	snprintf(inst, sizeof(inst), "%s/instances", in->top);
	if ((in->ifd = open(inst, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1 || fstat(in->ifd, &sb) == -1) {
		snprintf(err, errlen, "cannot make a tracefs instance in %s: "
		    "%s%s", inst, strerror(errno), errno == EACCES ||
		    errno == EPERM ? " (tracing needs root or CAP_SYS_ADMIN)" :
		    "");
		goto fail;
	}
	in->idev = sb.st_dev;
	in->iino = sb.st_ino;
	if (asprintf(&in->dir, "%s/%s", inst, in->name) == -1 ||
	    asprintf(&in->path, "/proc/self/fd/%d/%s", in->ifd,
	    in->name) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		ret = -2;
		goto fail;
	}
	if (mkdir(in->path, 0750) == -1) {
		snprintf(err, errlen, "cannot make a tracefs instance %s: %s%s",
		    in->dir, strerror(errno), errno == EACCES ||
		    errno == EPERM ? " (tracing needs root or CAP_SYS_ADMIN)" :
		    "");
		goto fail;
	}
	in->made = 1;
	in->win = mmap(NULL, sizeof(*in->win), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (in->win == MAP_FAILED) {
		in->win = NULL;
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		ret = -2;
		goto fail;
	}
	if ((in->keeper = keeper_start(in->name, in->ifd, &in->keeper_fd,
	    &in->keeper_rfd, in->win)) == -1) {
		e = errno;
		in->keeper = 0;
		snprintf(err, errlen, "fork of its keeper: %s (%s)",
		    strerror(e), proc_fork_why(e, why, sizeof(why)));
		ret = -2;
		goto fail;
	}
	if ((comm = file_text("/proc/self/comm")) != NULL) {
		snprintf(own_comm, sizeof(own_comm), "%s", comm);
		free(comm);
	}
	in->buf_kb = buffer_kb();
	snprintf(val, sizeof(val), "%u", in->buf_kb);
	if (write_file(in->path, "tracing_on", "0") == -1 ||
	    write_file(in->path, "buffer_size_kb", val) == -1) {
		snprintf(err, errlen, "%s: %s", in->dir, strerror(errno));
		goto fail;
	}
	if (write_file(in->path, "trace_clock", "mono") == -1) {
		snprintf(err, errlen, "%s/trace_clock: the mono clock is not "
		    "available: %s", in->dir, strerror(errno));
		goto fail;
	}
	if (prepare_events(in, err, errlen) == -1)
		goto fail;
	return 0;
fail:
	explain_close(in, NULL, 0);
	return ret;
}

int
explain_start(struct tinst *in)
{
	const struct tdec_def *d;
	char path[PATH_MAX];
	unsigned i;

	map_children(in);
	/* Empty, with its counts of lost events at 0 (a run of --repeat). */
	if (write_file(in->path, "trace", "") == -1)
		return -1;
	for (i = 0; (d = tdec_def(i)) != NULL; i++) {
		if (!tdec_known(i))
			continue;
		event_dir(in, d, path, sizeof(path));
		if (write_file(path, "enable", "1") == -1 && d->required)
			return -1;
	}
	return write_file(in->path, "tracing_on", "1");
}

void
explain_keep(const struct config *cfg, struct tinst *in, struct result *res,
    const struct sample *s)
{
	struct kwin *win;
	unsigned i;

	res->last = *s;
	res->have_last = 1;
	if (res->worst == NULL)
		return;
	if (res->nworst == cfg->explain &&
	    s->latency <= res->worst[res->nworst - 1].latency)
		return;
	i = res->nworst < cfg->explain ? res->nworst++ : res->nworst - 1;
	for (; i > 0 && res->worst[i - 1].latency < s->latency; i--)
		res->worst[i] = res->worst[i - 1];
	res->worst[i] = *s;
	/* The keeper keeps their pages from now on. */
	if ((win = in->win) == NULL)
		return;
	atomic_fetch_add(&win->seq, 1);
	atomic_thread_fence(memory_order_release);
	for (i = 0; i < res->nworst; i++) {
		win->w[i].from = res->start + res->worst[i].when - LOOKBACK_NS;
		win->w[i].to = res->start + res->worst[i].when +
		    res->worst[i].latency + AFTER_NS;
	}
	win->n = res->nworst;
	atomic_thread_fence(memory_order_release);
	atomic_fetch_add(&win->seq, 1);
}

void
explain_read(struct tinst *in, struct result *res)
{
	struct tdec_trace tr;
	struct autopsy *ap;
	unsigned i;
	int was;

	(void)write_file(in->path, "tracing_on", "0");
	if ((ap = autopsy_new(res, in->dir, in->buf_kb, in->host)) == NULL ||
	    ap->error != NULL)
		return;
	for (i = 0; i < ap->n; i++)
		ap->s[i].s.pid = in->nspid && (ap->s[i].s.timer ||
		    ap->s[i].s.pid == getpid()) ? in->host :
		    host_pid(in, ap->s[i].s.pid);
	if (mount_lost(in))
		ap->mount_lost = strdup(in->top);
	if (keeper_check(in, res, ap) == -1)
		return;
	/* Only a signal that comes during the wait ends it. */
	was = got_stop;
	got_stop = 0;
	if (read_trace(in, res->start, ap, &tr) == 0) {
		tdec_finish(&tr);
		autopsy_analyse(ap, &tr, in->host);
	}
	tdec_free(&tr);
	if (got_stop == 0)
		got_stop = was;
}

/* Tracing is stopped first, so that rmdir finds nothing busy. */
int
explain_close(struct tinst *in, char *err, size_t errlen)
{
	struct timespec ms = { 0, 5 * NSEC_PER_MSEC };
	int64_t giveup;
	int ret = 0, e;

	if (in->made && in->path != NULL)
		(void)write_file(in->path, "tracing_on", "0");
	if (in->keeper_fd != -1)
		close(in->keeper_fd);
	if (in->keeper_rfd != -1)
		close(in->keeper_rfd);
	keeper_end(in);
	if (in->made && in->path != NULL) {
		giveup = now_ns() + RMDIR_WAIT_NS;
		while (rmdir(in->path) == -1 && errno != ENOENT) {
			if (errno != EBUSY || now_ns() > giveup) {
				e = errno;
				ret = -1;
				if (err != NULL)
					snprintf(err, errlen, "the tracefs "
					    "instance %s stays behind (%s), "
					    "tracing: remove it with rmdir%s%s"
					    "%s", in->dir, strerror(e),
					    mount_lost(in) ? " once tracefs is "
					    "mounted again at " : "",
					    mount_lost(in) ? in->top : "",
					    mount_lost(in) ? "" : " (as root)");
				break;
			}
			nanosleep(&ms, NULL);
		}
		in->made = 0;
	}
	/* Descriptors 0 to 2 are never ours (latt.c fills them at start). */
	if (in->ifd > 2)
		close(in->ifd);
	if (in->win != NULL)
		munmap(in->win, sizeof(*in->win));
	free(in->map);
	free(in->path);
	free(in->dir);
	free(in->top);
	memset(in, 0, sizeof(*in));
	in->ifd = in->keeper_fd = in->keeper_rfd = -1;
	return ret;
}

/*
 * Lets the keeper go (its pipe is closed) and reaps it: it removes the
 * instance and exits; one that does not within KEEPER_WAIT_NS, or is
 * stopped, or when a signal that ends latt comes meanwhile, is killed.
 */
static void
keeper_end(struct tinst *in)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	struct proc_stat ps;
	int64_t giveup = now_ns() + KEEPER_WAIT_NS;
	int st, was = got_stop;
	pid_t r;

	if (in->keeper <= 0)
		return;
	while ((r = waitpid(in->keeper, &st, WNOHANG)) == 0 ||
	    (r == -1 && errno == EINTR)) {
		if (now_ns() > giveup || got_stop != was ||
		    (proc_stat(host_pid(in, in->keeper), &ps) == 0 &&
		    (ps.state == 'T' || ps.state == 't'))) {
			kill(in->keeper, SIGKILL);
			while (waitpid(in->keeper, &st, 0) == -1 &&
			    errno == EINTR)
				;
			break;
		}
		nanosleep(&ms, NULL);
	}
	in->keeper = 0;
}

/*
 * Whether the keeper can send the trace: one that died (reaped here, or
 * on SIGCHLD by workload.c, which kept its status) or is stopped costs
 * the autopsy, with why in ap.  Returns 0, or -1.
 */
static int
keeper_check(struct tinst *in, const struct result *res, struct autopsy *ap)
{
	struct proc_stat ps;
	char how[64] = "";
	int st = -1;
	pid_t r;

	if (in->keeper <= 0)
		return 0;
	while ((r = waitpid(in->keeper, &st, WNOHANG)) == -1 &&
	    errno == EINTR)
		;
	if (r == -1 && res->wl.keeper == in->keeper && res->wl.keeper_reaped)
		st = res->wl.keeper_status;
	if (r == in->keeper || r == -1) {
		if (st != -1 && WIFSIGNALED(st))
			snprintf(how, sizeof(how), ": killed by SIG%s",
			    sigabbrev_np(WTERMSIG(st)) != NULL ?
			    sigabbrev_np(WTERMSIG(st)) : "?");
		else if (st != -1 && WIFEXITED(st))
			snprintf(how, sizeof(how), ": exited with status %d",
			    WEXITSTATUS(st));
		keeper_error(in, ap, "died during the run%s", how);
		in->keeper = 0;
	} else if (proc_stat(host_pid(in, in->keeper), &ps) == 0 &&
	    (ps.state == 'T' || ps.state == 't'))
		keeper_error(in, ap, "is stopped: it kept no trace");
	else
		return 0;
	return -1;
}

/* Why the autopsy has no trace: what became of the keeper. */
static void
keeper_error(const struct tinst *in, struct autopsy *ap, const char *fmt,
    ...)
{
	va_list va;
	int n;

	n = snprintf(ap->errbuf, sizeof(ap->errbuf), "latt's keeper "
	    "(latt-tracefs, pid %d) ", (int)in->keeper);
	va_start(va, fmt);
	vsnprintf(ap->errbuf + n, sizeof(ap->errbuf) - (size_t)n, fmt, va);
	va_end(va);
	ap->error = ap->errbuf;
	ap->error_errno = 0;
}

/*
 * In a PID namespace whose /proc is the host's: latt's children (its
 * clients, among them) as latt numbers them and as tracefs does.
 */
static void
map_children(struct tinst *in)
{
	pid_t *kids, own;
	size_t n, i;

	free(in->map);
	in->map = NULL;
	in->nmap = 0;
	if (!in->nspid || (kids = proc_children(0, &n)) == NULL)
		return;
	if ((in->map = calloc(n, sizeof(*in->map))) != NULL)
		for (i = 0; i < n; i++)
			if ((own = proc_own(kids[i])) > 0) {
				in->map[in->nmap][0] = own;
				in->map[in->nmap++][1] = kids[i];
			}
	free(kids);
}

/*
 * One of latt's children as tracefs and procfs number it (0: unknown);
 * the same pid outside a PID namespace.
 */
static pid_t
host_pid(const struct tinst *in, pid_t own)
{
	size_t i;

	if (!in->nspid)
		return own;
	for (i = 0; i < in->nmap; i++)
		if (in->map[i][0] == own)
			return in->map[i][1];
	return 0;
}

/* Whether tracefs's instances directory is no longer where it was. */
static int
mount_lost(const struct tinst *in)
{
	char inst[PATH_MAX];
	struct stat sb;

	if (in->top == NULL || in->ifd < 0)
		return 0;
	snprintf(inst, sizeof(inst), "%s/instances", in->top);
	return stat(inst, &sb) == -1 || sb.st_dev != in->idev ||
	    sb.st_ino != in->iino;
}

/* The instance's buffer, KiB a CPU: BUF_KB_TOTAL shared, within bounds. */
static unsigned
buffer_kb(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	unsigned kb = BUF_KB_TOTAL / (unsigned)(ncpu < 1 ? 1 : ncpu);

	return kb > BUF_KB_MAX ? BUF_KB_MAX : kb < BUF_KB_MIN ? BUF_KB_MIN : kb;
}

/*
 * Has the decoder read the layout of every event latt enables, and
 * filters them to latt's own processes where the event says so.  Returns
 * 0, or -1 with a message in err when a required event is missing.
 */
static int
prepare_events(const struct tinst *in, char *err, size_t errlen)
{
	const struct tdec_def *d;
	char path[PATH_MAX], val[32], filt[96];
	unsigned i;

	for (i = 0; (d = tdec_def(i)) != NULL; i++) {
		event_dir(in, d, path, sizeof(path));
		if (tdec_format(i, path) == -1) {
			if (!d->required)
				continue;
			snprintf(err, errlen, "%s: %s", path, errno == ENOENT ?
			    "the kernel has no such event" :
			    "its format file is not as expected");
			return -1;
		}
		/*
		 * Only latt's own wake-ups and migrations: a filter that
		 * the kernel refuses costs buffer space, not correctness.
		 */
		if (d->filter == FILTER_COMM && own_comm[0] != '\0') {
			snprintf(val, sizeof(val), "comm == \"%s\"", own_comm);
			(void)write_file(path, "filter", val);
		}
		/* Unfiltered, every system call would flood the buffer. */
		if (d->filter == FILTER_COMM_READ) {
			snprintf(filt, sizeof(filt), "id == %d && comm == "
			    "\"%s\"", (int)SYS_read, own_comm);
			if (own_comm[0] == '\0' ||
			    write_file(path, "filter", filt) == -1)
				tdec_ignore(i);
		}
	}
	return 0;
}

/* An event's directory in the instance. */
static void
event_dir(const struct tinst *in, const struct tdec_def *d, char *path,
    size_t len)
{
	snprintf(path, len, "%s/events/%s/%s", in->path, d->sys, d->name);
}

/*
 * Every CPU's buffer, as the keeper kept it, into tr, and what each CPU
 * lost; the autopsy has the account of it.  Returns 0, or -1 with why in
 * ap->error.  tr is to be freed either way.
 */
static int
read_trace(const struct tinst *in, int64_t start, struct autopsy *ap,
    struct tdec_trace *tr)
{
	char path[PATH_MAX];
	struct stat sb;
	int64_t newest_oldest = INT64_MIN;
	unsigned cpu;

	for (cpu = 0; ; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", in->path,
		    cpu);
		if (stat(path, &sb) == -1)
			break;
	}
	ap->ncpus = cpu;
	if (tdec_init(tr, cpu) == -1) {
		ap->error = "calloc";
		ap->error_errno = ENOMEM;
		return -1;
	}
	if (keeper_fetch(in->path, in->keeper_fd, in->keeper_rfd, tr) == -1) {
		if (errno == ETIMEDOUT)
			keeper_error(in, ap, "sent nothing for 2 s");
		else if (errno == EPIPE)
			keeper_error(in, ap, "went away while sending the "
			    "trace");
		else if (errno == EINTR)
			ap->error = "a signal ended latt while its keeper "
			    "sent the trace";
		else {
			ap->error = "taking the trace from latt's keeper";
			ap->error_errno = errno;
		}
		return -1;
	}
	for (cpu = 0; cpu < tr->ncpus; cpu++) {
		read_lost(in->path, cpu, tr);
		ap->lost += tr->cpu[cpu].lost;
		if (tr->cpu[cpu].lost > 0 &&
		    tr->cpu[cpu].oldest > newest_oldest)
			newest_oldest = tr->cpu[cpu].oldest;
	}
	ap->events = tr->nev;
	ap->covered_from = newest_oldest == INT64_MIN ? 0 :
	    newest_oldest - start;
	return 0;
}

/*
 * Reads what one CPU's stats file says was lost (overwritten, or dropped
 * when full).
 */
static void
read_lost(const char *dir, unsigned cpu, struct tdec_trace *tr)
{
	char path[PATH_MAX], line[128];
	unsigned long long v;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", dir, cpu);
	if ((fp = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "overrun: %llu", &v) == 1 ||
		    sscanf(line, "dropped events: %llu", &v) == 1 ||
		    sscanf(line, "commit overrun: %llu", &v) == 1)
			tr->cpu[cpu].lost += v;
	fclose(fp);
}

/* Writes val into dir/file.  Returns 0, or -1 with errno set. */
static int
write_file(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1)
		return -1;
	n = write(fd, val, len);
	e = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n == -1 ? e : EIO;
		return -1;
	}
	return 0;
}

