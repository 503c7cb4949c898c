/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise.c: what else ran on the machine during a run (noise.h).  The
 * foreign CPU time is the machine's busy time (/proc/stat's user, nice,
 * system) less that of latt's own tree.
 *
 * latt's tree is walked from latt down through each process's
 * task/PID/children (the main thread's: latt and the usual workloads fork
 * from it), and each process's CPU is utime + stime + cutime + cstime of
 * /proc/PID/stat: a child reaped inside the tree moves its time into its
 * parent's, so nothing is counted twice or lost.  latt's own is
 * getrusage's (itself and its reaped children), and a client's, which
 * forks nothing, its process CPU clock (clock_getcpuclockid): a system
 * call where /proc/PID/stat and its children file cost two reads of some
 * 50 us each on a 2-CPU VM.  At -c8 a sample then costs about 0.1 ms, a
 * tenth of what the walk cost; the next waits 50 times as long as the
 * last took, at least 100 ms, so that sampling keeps to 2% of the parent's
 * time.
 */
#include <sys/resource.h>
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "proc/proc.h"
#include "record/noise.h"

#define TREE_MAX	100000		/* processes walked, at most */
#define BUF		4096
#define STAT_BUF	(256 * 1024)	/* /proc/stat's intr line is long */

static void	 snap(const struct noise *, struct noise_snap *);
static int	 one_process(pid_t, uint64_t *, pid_t **, size_t *,
		    size_t *, int);
static int	 tree_cpu(const struct noise *, uint64_t *ns);
static int	 pid_cmp(const void *, const void *);
static int64_t	 tv_ns(const struct timeval *);
static double	 cur_mhz(void);
static double	 runnable(void);
static void	 add_point(struct noise *, const struct noise_snap *,
		    const struct noise_snap *, double);
static void	 halve(struct noise *);

void
noise_client(struct noise *n, pid_t pid)
{
	pid_t *p;
	size_t cap = n->nclients < 64 ? 64 : n->nclients * 2;

	/* Room for cap pids whenever the count reaches a power of two. */
	if (n->nclients == 0 || (n->nclients >= 64 &&
	    (n->nclients & (n->nclients - 1)) == 0)) {
		if ((p = realloc(n->clients, cap * sizeof(*p))) == NULL)
			return;		/* that client by /proc */
		n->clients = p;
	}
	n->clients[n->nclients++] = pid;
}

void
noise_begin(struct noise *n, int64_t now)
{
	pid_t *clients = n->clients;
	size_t nclients = n->nclients;

	n->clients = NULL;
	noise_free(n);
	memset(n, 0, sizeof(*n));
	n->clients = clients;
	n->nclients = nclients;
	if (nclients > 0)
		qsort(clients, nclients, sizeof(*clients), pid_cmp);
	snap(n, &n->begin);
	n->prev = n->begin;
	n->psi = n->begin.psi_ok;
	n->cpufreq = cur_mhz() > 0;
	n->interval = NOISE_NS;
	n->next = now + n->interval;
	n->begun = n->begin.ok;
}

void
noise_sample(struct noise *n, int64_t now)
{
	struct noise_snap s;
	int64_t cost;
	double m;

	if (!n->begun || now < n->next)
		return;
	snap(n, &s);
	if (!s.ok)
		return;
	m = runnable();
	if (m >= 0) {
		n->runnable_sum += m;
		n->nrunnable++;
	}
	add_point(n, &n->prev, &s, m);
	n->prev = s;
	cost = now_ns() - s.at;
	n->next = s.at + (cost * 50 > n->interval ? cost * 50 : n->interval);
}

/* A span's foreign CPU from two readings, % of all the CPUs' time. */
static double
foreign_of(const struct noise_snap *a, const struct noise_snap *b)
{
	double busy, own, hz = (double)sysconf(_SC_CLK_TCK);

	if (!a->own_ok || !b->own_ok || b->total <= a->total || hz <= 0)
		return -1;
	busy = (double)(b->busy - a->busy) * 1e9 / hz;
	own = b->own > a->own ? (double)(b->own - a->own) : 0;
	/* Per-task times are exact, /proc/stat's ticked: never below 0. */
	return busy > own ? 100 * (busy - own) / ((double)(b->total -
	    a->total) * 1e9 / hz) : 0;
}

void
noise_finish(struct noise *n)
{
	const struct noise_snap *b = &n->begin;
	struct noise_snap e;
	double secs, hz = (double)sysconf(_SC_CLK_TCK);

	n->valid = 0;
	if (!n->begun)
		return;
	snap(n, &e);
	/* No rate over less than 10 ms (a run that ended at once). */
	if (!e.ok || e.at - b->at < 10 * NSEC_PER_MSEC)
		return;
	if (e.at - n->prev.at > NOISE_NS / 2)
		add_point(n, &n->prev, &e, runnable());
	secs = (double)(e.at - b->at) / 1e9;
	n->valid = 1;
	n->elapsed = secs;
	n->foreign_pct = foreign_of(b, &e);
	n->foreign_cpus = n->foreign_pct < 0 ? -1 : n->foreign_pct / 100 *
	    (double)(e.total - b->total) / hz / secs;
	n->own_cpus = b->own_ok && e.own_ok ? (double)(e.own - b->own) /
	    1e9 / secs : -1;
	n->psi_some_pct = b->psi_ok && e.psi_ok ? (double)(e.psi_some -
	    b->psi_some) / 1e4 / secs : -1;
	n->psi_full_pct = b->psi_ok && e.psi_ok ? (double)(e.psi_full -
	    b->psi_full) / 1e4 / secs : -1;
	n->irq_s = (double)(e.intr - b->intr) / secs;
	n->softirq_s = (double)(e.softirq - b->softirq) / secs;
	n->runnable_mean = n->nrunnable > 0 ? n->runnable_sum /
	    (double)n->nrunnable : -1;
	n->mhz = n->nmhz > 0 ? n->mhz_sum / (double)n->nmhz : -1;
	n->noisy = n->foreign_pct >= NOISY_FOREIGN_PCT;
	n->why[0] = '\0';
	if (n->noisy)
		snprintf(n->why, sizeof(n->why), "other processes used %.0f%% "
		    "of the CPUs (%.2f CPUs), above %.0f%%", n->foreign_pct,
		    n->foreign_cpus, NOISY_FOREIGN_PCT);
}

void
noise_merge(struct noise *t, const struct noise *r)
{
	double w, sum;

	if (!r->valid)
		return;
	if (!t->valid) {
		*t = *r;
		t->pts = NULL;
		t->npts = 0;
		t->clients = NULL;
		t->nclients = 0;
		return;
	}
	sum = t->elapsed + r->elapsed;
	w = r->elapsed / sum;
#define MIX(f) (t->f = t->f < 0 || r->f < 0 ? -1 : t->f * (1 - w) + \
	    r->f * w)
	MIX(foreign_pct);
	MIX(foreign_cpus);
	MIX(own_cpus);
	MIX(psi_some_pct);
	MIX(psi_full_pct);
	MIX(irq_s);
	MIX(softirq_s);
#undef MIX
	t->runnable_sum += r->runnable_sum;
	t->nrunnable += r->nrunnable;
	t->runnable_mean = t->nrunnable > 0 ? t->runnable_sum /
	    (double)t->nrunnable : -1;
	t->mhz_sum += r->mhz_sum;
	t->nmhz += r->nmhz;
	t->mhz = t->nmhz > 0 ? t->mhz_sum / (double)t->nmhz : -1;
	t->elapsed = sum;
	if (r->noisy && !t->noisy)
		snprintf(t->why, sizeof(t->why), "%s", r->why);
	t->noisy = t->noisy || r->noisy;
}

void
noise_free(struct noise *n)
{
	free(n->pts);
	n->pts = NULL;
	n->npts = 0;
	free(n->clients);
	n->clients = NULL;
	n->nclients = 0;
}

/*
 * A point for the span from a to b, with m runnable tasks at b (-1:
 * unknown); pairs merge when the series is full.
 */
static void
add_point(struct noise *n, const struct noise_snap *a,
    const struct noise_snap *b, double m)
{
	struct noise_point *p;
	double secs = (double)(b->at - a->at) / 1e9;

	if (secs <= 0)
		return;
	if (n->pts == NULL && (n->pts = calloc(NOISE_MAX_POINTS,
	    sizeof(*n->pts))) == NULL)
		return;
	if (n->npts == NOISE_MAX_POINTS)
		halve(n);
	p = &n->pts[n->npts++];
	p->t = (double)(b->at - n->begin.at) / 1e9;
	p->span = secs;
	p->foreign_pct = foreign_of(a, b);
	p->psi_some_pct = a->psi_ok && b->psi_ok ? (double)(b->psi_some -
	    a->psi_some) / 1e4 / secs : -1;
	p->runnable = m >= 0 ? m : -1;
	p->irq_s = (double)(b->intr - a->intr) / secs;
	p->softirq_s = (double)(b->softirq - a->softirq) / secs;
	p->mhz = n->cpufreq ? cur_mhz() : -1;
	if (p->mhz > 0) {
		n->mhz_sum += p->mhz;
		n->nmhz++;
	}
}

/* Each two neighbours into one, weighted by their spans. */
static void
halve(struct noise *n)
{
	struct noise_point *a, *b, *o;
	double w;
	size_t i;

	for (i = 0; i + 1 < n->npts; i += 2) {
		a = &n->pts[i];
		b = &n->pts[i + 1];
		o = &n->pts[i / 2];
		w = b->span / (a->span + b->span);
#define MIX(f) (o->f = a->f < 0 || b->f < 0 ? -1 : a->f * (1 - w) + b->f * w)
		MIX(foreign_pct);
		MIX(psi_some_pct);
		MIX(runnable);
		MIX(irq_s);
		MIX(softirq_s);
		MIX(mhz);
#undef MIX
		o->t = b->t;
		o->span = a->span + b->span;
	}
	n->npts /= 2;
	n->interval *= 2;
}

/* The machine's counters and latt's tree's CPU, now. */
static void
snap(const struct noise *n, struct noise_snap *s)
{
	static char *big;
	char buf[BUF], *p;
	unsigned long long v[8];
	int i;

	memset(s, 0, sizeof(*s));
	s->at = now_ns();
	if (big == NULL && (big = malloc(STAT_BUF)) == NULL)
		return;
	if (proc_read_keyed("/proc/stat", big, STAT_BUF) == 0 &&
	    sscanf(big + 1, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
	    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		s->busy = v[0] + v[1] + v[2];
		for (i = 0; i < 8; i++)
			s->total += v[i];
		/* "intr TOTAL ...", "softirq TOTAL ...": the sums. */
		if ((p = strstr(big, "\nintr ")) != NULL)
			s->intr = strtoull(p + 6, NULL, 10);
		if ((p = strstr(big, "\nsoftirq ")) != NULL)
			s->softirq = strtoull(p + 9, NULL, 10);
		s->ok = 1;
	}
	s->own_ok = tree_cpu(n, &s->own) == 0;
	if (proc_read_keyed("/proc/pressure/cpu", buf, sizeof(buf)) == 0 &&
	    (p = strstr(buf, "some ")) != NULL &&
	    (p = strstr(p, "total=")) != NULL) {
		s->psi_some = strtoull(p + 6, NULL, 10);
		if ((p = strstr(p, "full ")) != NULL &&
		    (p = strstr(p, "total=")) != NULL)
			s->psi_full = strtoull(p + 6, NULL, 10);
		s->psi_ok = 1;
	}
}

/*
 * The CPU of pid (utime + stime + cutime + cstime) added to *ns, and its
 * children's pids, read from its main thread's children file, appended to
 * the list; with stat 0, only the children (latt itself, counted by
 * getrusage).  Returns -1 when pid's stat is unreadable.
 */
static int
one_process(pid_t pid, uint64_t *ns, pid_t **list, size_t *n,
    size_t *cap, int stat)
{
	char path[64], buf[BUF], *p, *end;
	unsigned long long u, s, cu, cs;
	long hz = sysconf(_SC_CLK_TCK);
	long c;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (stat && (hz <= 0 || proc_read_keyed(path, buf, sizeof(buf)) ==
	    -1 || (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
	    "%llu %llu %llu %llu", &u, &s, &cu, &cs) != 4))
		return -1;
	if (stat)
		*ns += (u + s + cu + cs) * (NSEC_PER_SEC / (uint64_t)hz);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid,
	    (int)pid);
	if (proc_read_keyed(path, buf, sizeof(buf)) == -1)
		return 0;
	for (p = buf; *n < TREE_MAX; p = end) {
		c = strtol(p, &end, 10);
		if (end == p || grow(list, cap, *n, sizeof(**list), 64) == -1)
			break;
		(*list)[(*n)++] = (pid_t)c;
	}
	return 0;
}

/*
 * latt's tree's CPU time in ns: latt and every process below it.  A
 * process that ended between the two reads of the walk is skipped (its
 * parent's cutime has it once reaped).  Returns -1 when latt's own cannot
 * be read.
 */
static int
tree_cpu(const struct noise *no, uint64_t *ns)
{
	pid_t *list = NULL, self = proc_self();
	struct rusage me, kids;
	struct timespec ts;
	size_t n = 0, cap = 0, i;
	clockid_t cid;

	*ns = 0;
	if (getrusage(RUSAGE_SELF, &me) == -1 ||
	    getrusage(RUSAGE_CHILDREN, &kids) == -1)
		return -1;
	*ns = (uint64_t)(tv_ns(&me.ru_utime) + tv_ns(&me.ru_stime) +
	    tv_ns(&kids.ru_utime) + tv_ns(&kids.ru_stime));
	/* In a PID namespace /proc may be another's: latt by its pid there. */
	if (one_process(self, ns, &list, &n, &cap, 0) == -1) {
		free(list);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/*
		 * A client forks nothing: its clock has all of its time (by
		 * latt's pid for it: not when /proc is another namespace's).
		 */
		if (self == getpid() && bsearch(&list[i], no->clients,
		    no->nclients, sizeof(list[i]), pid_cmp) != NULL &&
		    clock_getcpuclockid(list[i], &cid) == 0 &&
		    clock_gettime(cid, &ts) == 0) {
			*ns += (uint64_t)ts.tv_sec * NSEC_PER_SEC +
			    (uint64_t)ts.tv_nsec;
			continue;
		}
		(void)one_process(list[i], ns, &list, &n, &cap, 1);
	}
	free(list);
	return 0;
}

static int
pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The CPUs' mean scaling_cur_freq in MHz, or -1 without cpufreq. */
static double
cur_mhz(void)
{
	char path[96], buf[64];
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_CONF), got = 0;
	double sum = 0;

	for (cpu = 0; cpu < ncpu && cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/"
		    "cpufreq/scaling_cur_freq", cpu);
		if (proc_read_keyed(path, buf, sizeof(buf)) == 0) {
			sum += strtod(buf, NULL) / 1000;
			got++;
		}
	}
	return got > 0 ? sum / (double)got : -1;
}

/* procs_running (/proc/loadavg's R of R/T, latt included), or -1. */
static double
runnable(void)
{
	char buf[128], *p;

	if (proc_read_keyed("/proc/loadavg", buf, sizeof(buf)) == -1 ||
	    (p = strchr(buf, '/')) == NULL)
		return -1;
	while (p > buf && p[-1] != ' ')
		p--;
	return strtod(p, NULL);
}

static int64_t
tv_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * NSEC_PER_SEC + (int64_t)tv->tv_usec *
	    1000;
}
