/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --explain: the autopsy of the K worst wake-ups, from latt's own tracefs
 * instance.
 *
 * Before the run, explain_open makes an instance (instances/latt-PID; the
 * global buffer and other tools' instances are never touched), sets its
 * clock to "mono" (so that trace times and latt's CLOCK_MONOTONIC stamps
 * are one clock), gives it a bounded buffer, reads the format file of
 * every event it needs (the field layouts are never guessed) and filters
 * the wake-up and migration events to latt's own processes.  A keeper
 * process (keeper.c) removes the instance when latt goes away, even when
 * latt is killed outright; meanwhile it drains every CPU's buffer and
 * keeps the pages around the K worst samples so far (their windows, which
 * explain_keep publishes in a shared page) and the last second, so that a
 * long run's early worst samples do not fall out of the ring buffer.
 * explain_start enables the events once the clients and the workload run;
 * the sink hands every sample to explain_keep, which keeps the K worst.
 * After the run, explain_read stops the instance, takes the keeper's
 * pages, and builds, for each kept sample, the timeline from the parent's
 * write to the client's wake-up and a one-line verdict (struct autopsy,
 * which report.c and json.c print).  explain_close removes the instance.
 *
 * Nothing here prints: failures come back as messages or in the autopsy.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "autopsy.h"
#include "common.h"
#include "config.h"
#include "trace.h"
#include "explain.h"
#include "keeper.h"
#include "result.h"

#define BUF_KB_MAX	8192		/* instance buffer, KiB a CPU */
#define BUF_KB_TOTAL	65536		/* and at most this over all CPUs */
#define BUF_KB_MIN	256
#define MAX_FIELDS	8
#define TL_MAX		96		/* timeline lines of one sample */
#define RAN_MAX		32		/* tasks listed for one sample */
#define IRQ_MAX		64		/* interrupts listed for one sample */
#define TICK_NEAR_NS	(30 * NSEC_PER_USEC)	/* a switch after a tick */
#define KEEPER_WAIT_NS	(2 * NSEC_PER_SEC)
#define LOOKBACK_NS	(200 * NSEC_PER_MSEC)	/* the keeper keeps before a
						   kept sample's send */
#define AFTER_NS	(5 * NSEC_PER_MSEC)	/* and after its wake-up */

/* prev_state of sched_switch, as its format file prints it. */
#define TS_INTERRUPTIBLE	0x01
#define TS_UNINTERRUPTIBLE	0x02
#define TS_STOPPED		0x04
#define TS_TRACED		0x08
#define TS_DEAD			0x10
#define TS_ZOMBIE		0x20
#define TS_PARKED		0x40
#define TS_IDLE			0x80
#define TS_PREEMPTED		0x100	/* TASK_REPORT_MAX: the "+" */

/*
 * common_flags: the context an event was recorded in (the kernel's
 * TRACE_FLAG_HARDIRQ, TRACE_FLAG_SOFTIRQ and TRACE_FLAG_NMI, which the
 * trace shows as its "h", "s" and "Z" context letters).
 */
#define CTX_INTERRUPT	(0x08 | 0x10 | 0x40)

/* The ring buffer's event header types (see events/header_event). */
#define RB_PADDING	29
#define RB_TIME_EXTEND	30
#define RB_TIME_STAMP	31
#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)

enum ev_kind {
	EV_WAKING,
	EV_WAKEUP,
	EV_SWITCH,
	EV_MIGRATE,
	EV_IRQ_ENTRY,
	EV_IRQ_EXIT,
	EV_SOFTIRQ_ENTRY,
	EV_SOFTIRQ_EXIT,
	EV_IPI_CPU,
	EV_IPI_MASK,
	EV_IDLE_NOIPI,
	EV_VEC_ENTRY,
	EV_VEC_EXIT,
	EV_SYSEXIT,
	EV_NKINDS
};

/* An event latt enables: where it lives and the fields it reads. */
struct evdef {
	const char	*sys;
	const char	*name;
	enum ev_kind	 kind;
	int		 required;	/* without it, --explain cannot run */
	int		 filtered;	/* 1: comm == latt's own; 2: and read() */
	int		 vec;		/* irq_vectors: which one */
	const char	*fields[MAX_FIELDS];
};

static const struct evdef evdefs[] = {
	{ "sched", "sched_waking", EV_WAKING, 1, 1, 0,
	    { "pid", "target_cpu", "comm" } },
	{ "sched", "sched_wakeup", EV_WAKEUP, 1, 0, 0,
	    { "pid", "target_cpu" } },
	{ "sched", "sched_switch", EV_SWITCH, 1, 0, 0,
	    { "prev_pid", "prev_prio", "next_pid", "next_prio", "prev_state",
	    "prev_comm", "next_comm" } },
	{ "sched", "sched_migrate_task", EV_MIGRATE, 1, 1, 0,
	    { "pid", "orig_cpu", "dest_cpu" } },
	{ "irq", "irq_handler_entry", EV_IRQ_ENTRY, 1, 0, 0,
	    { "irq", "name" } },
	{ "irq", "irq_handler_exit", EV_IRQ_EXIT, 1, 0, 0, { "irq" } },
	{ "irq", "softirq_entry", EV_SOFTIRQ_ENTRY, 1, 0, 0, { "vec" } },
	{ "irq", "softirq_exit", EV_SOFTIRQ_EXIT, 1, 0, 0, { "vec" } },
	{ "ipi", "ipi_send_cpu", EV_IPI_CPU, 0, 0, 0, { "cpu" } },
	{ "ipi", "ipi_send_cpumask", EV_IPI_MASK, 0, 0, 0, { "cpumask" } },
	{ "sched", "sched_wake_idle_without_ipi", EV_IDLE_NOIPI, 0, 0, 0,
	    { "cpu" } },
	{ "irq_vectors", "local_timer_entry", EV_VEC_ENTRY, 0, 0, 0,
	    { "vector" } },
	{ "irq_vectors", "local_timer_exit", EV_VEC_EXIT, 0, 0, 0,
	    { "vector" } },
	{ "irq_vectors", "reschedule_entry", EV_VEC_ENTRY, 0, 0, 1,
	    { "vector" } },
	{ "irq_vectors", "reschedule_exit", EV_VEC_EXIT, 0, 0, 1,
	    { "vector" } },
	{ "irq_vectors", "call_function_single_entry", EV_VEC_ENTRY, 0, 0, 2,
	    { "vector" } },
	{ "irq_vectors", "call_function_single_exit", EV_VEC_EXIT, 0, 0, 2,
	    { "vector" } },
	{ "irq_vectors", "call_function_entry", EV_VEC_ENTRY, 0, 0, 3,
	    { "vector" } },
	{ "irq_vectors", "call_function_exit", EV_VEC_EXIT, 0, 0, 3,
	    { "vector" } },
	{ "irq_vectors", "irq_work_entry", EV_VEC_ENTRY, 0, 0, 4,
	    { "vector" } },
	{ "irq_vectors", "irq_work_exit", EV_VEC_EXIT, 0, 0, 4,
	    { "vector" } },
	/* latt's own returns from read(): a task seen back in user space. */
	{ "raw_syscalls", "sys_exit", EV_SYSEXIT, 0, 2, 0, { "id" } },
};
#define NEVDEFS		(sizeof(evdefs) / sizeof(evdefs[0]))

static const char *const vec_names[] = { "local timer", "reschedule IPI",
    "function call IPI", "function call IPI", "irq work" };
static const char *const softirq_names[] = { "HI", "TIMER", "NET_TX",
    "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

/* A field as the event's format file describes it. */
struct field {
	int		 offset;
	int		 size;
	int		 is_signed;
	int		 data_loc;	/* __data_loc: u32 offset | len << 16 */
	int		 found;
};

/* An event as its format file describes it; id 0: not available. */
struct evfmt {
	unsigned	 id;
	int		 pid_off;	/* common_pid */
	int		 flags_off;	/* common_flags */
	struct field	 f[MAX_FIELDS];
};

/* One event read back from the trace, the fields it matters for. */
struct ev {
	int64_t		 ts;		/* CLOCK_MONOTONIC ns */
	int64_t		 state;		/* sched_switch prev_state; ipi mask */
	int32_t		 cpu;		/* the buffer it was in */
	int32_t		 pid;		/* common_pid: the task it ran in */
	int32_t		 a, b, c, d;	/* see parse_event */
	uint32_t	 s1, s2;	/* interned strings: comms, IRQ name */
	uint8_t		 kind;
	uint8_t		 vec;
	uint8_t		 flags;		/* common_flags */
	uint8_t		 inferred;	/* a switch out of idle, not traced */
};

/* A stretch of a CPU's events the read does not have. */
struct gap {
	int32_t		 cpu;
	int		 kernel;	/* lost by the ring buffer, not let go */
	int64_t		 from, to;
};

/* The interned strings of a read: comms and IRQ names. */
struct strtab {
	char		(*str)[COMM_LEN * 2];
	uint32_t	 n, cap;
	uint32_t	*hash;		/* index + 1, 0: empty */
	uint32_t	 hcap;
};

/* Everything explain_read works with. */
struct trace_read {
	struct ev	*ev;
	size_t		 nev, cap;
	struct strtab	 strs;
	int64_t		*oldest;	/* a CPU's oldest event, when it lost some */
	uint64_t	*lost;		/* a CPU's lost events */
	struct gap	*gaps;		/* stretches missing in the middle */
	size_t		 ngaps;
	unsigned	 ncpus;
	pid_t		 parent;
};

/* One stretch of the sampled task's life between its send and stamp. */
enum seg_kind { SEG_ISSUE, SEG_NOTRUN, SEG_FLIGHT, SEG_QUEUED, SEG_RUNNING };

struct seg {
	enum seg_kind	 kind;
	int32_t		 cpu;
	int64_t		 a, b;
	int64_t		 from_merge;	/* where a merged stretch began, or 0 */
};

static struct evfmt	 fmts[NEVDEFS];
static char		 own_comm[COMM_LEN];

static int	 write_file(const char *, const char *, const char *);
static int	 read_format(const char *, const struct evdef *,
		    struct evfmt *);
static int	 keeper_pages(const struct tinst *, size_t,
		    struct trace_read *);
static uint64_t	 get64(const unsigned char *);
static void	 read_lost(const char *, unsigned, struct trace_read *);
static void	 parse_page(const unsigned char *, size_t, unsigned,
		    struct trace_read *, int *);
static int	 parse_event(const unsigned char *, size_t, int64_t, unsigned,
		    struct trace_read *);
static int	 cmp_ev(const void *, const void *);
static size_t	 infer_idle_exits(struct trace_read *);
static void	 analyse(const struct trace_read *, struct autopsy_sample *);
static uint32_t	 intern(struct strtab *, const char *, size_t);
static const char *str_of(const struct trace_read *, uint32_t);

/*
 * Makes latt's instance and prepares it; the events stay off until
 * explain_start.  Returns 0, or -1 with a message in err (tracefs is
 * missing, or latt may not use it): the caller exits 2 before the run.
 */
int
explain_open(struct tinst *in, char *err, size_t errlen)
{
	char path[PATH_MAX], val[32], filt[96];
	unsigned i;
	long ncpu;
	FILE *fp;

	in->keeper = 0;
	in->keeper_fd = in->keeper_rfd = -1;
	in->win = NULL;
	if ((in->top = trace_find()) == NULL) {
		snprintf(err, errlen, "tracefs is not mounted (mount -t "
		    "tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	if (asprintf(&in->dir, "%s/instances/latt-%d", in->top,
	    (int)getpid()) == -1) {
		in->dir = NULL;
		snprintf(err, errlen, "%s", strerror(errno));
		explain_close(in);
		return -1;
	}
	if (mkdir(in->dir, 0750) == -1) {
		snprintf(err, errlen, "cannot make a tracefs instance %s: %s%s",
		    in->dir, strerror(errno), errno == EACCES ||
		    errno == EPERM ? " (tracing needs root or CAP_SYS_ADMIN)" :
		    "");
		explain_close(in);
		return -1;
	}
	in->made = 1;
	in->win = mmap(NULL, sizeof(*in->win), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (in->win == MAP_FAILED) {
		in->win = NULL;
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		goto fail;
	}
	if ((in->keeper = keeper_start(in->dir, &in->keeper_fd,
	    &in->keeper_rfd, in->win)) == -1) {
		in->keeper = 0;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto fail;
	}
	if ((fp = fopen("/proc/self/comm", "re")) != NULL) {
		if (fgets(own_comm, sizeof(own_comm), fp) != NULL)
			own_comm[strcspn(own_comm, "\n")] = '\0';
		fclose(fp);
	}
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1)
		ncpu = 1;
	in->buf_kb = BUF_KB_TOTAL / (unsigned)ncpu;
	if (in->buf_kb > BUF_KB_MAX)
		in->buf_kb = BUF_KB_MAX;
	if (in->buf_kb < BUF_KB_MIN)
		in->buf_kb = BUF_KB_MIN;
	snprintf(val, sizeof(val), "%u", in->buf_kb);
	if (write_file(in->dir, "tracing_on", "0") == -1 ||
	    write_file(in->dir, "buffer_size_kb", val) == -1) {
		snprintf(err, errlen, "%s: %s", in->dir, strerror(errno));
		goto fail;
	}
	if (write_file(in->dir, "trace_clock", "mono") == -1) {
		snprintf(err, errlen, "%s/trace_clock: the mono clock is not "
		    "available: %s", in->dir, strerror(errno));
		goto fail;
	}
	for (i = 0; i < NEVDEFS; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s", in->dir,
		    evdefs[i].sys, evdefs[i].name);
		if (read_format(path, &evdefs[i], &fmts[i]) == -1) {
			fmts[i].id = 0;
			if (!evdefs[i].required)
				continue;
			snprintf(err, errlen, "%s: %s", path, errno == ENOENT ?
			    "the kernel has no such event" :
			    "its format file is not as expected");
			goto fail;
		}
		/*
		 * Only latt's own wake-ups and migrations: a filter that
		 * the kernel refuses costs buffer space, not correctness.
		 */
		if (evdefs[i].filtered == 1 && own_comm[0] != '\0') {
			snprintf(val, sizeof(val), "comm == \"%s\"", own_comm);
			(void)write_file(path, "filter", val);
		}
		/* Unfiltered, every system call would flood the buffer. */
		if (evdefs[i].filtered == 2) {
			snprintf(filt, sizeof(filt), "id == %d && comm == "
			    "\"%s\"", (int)SYS_read, own_comm);
			if (own_comm[0] == '\0' ||
			    write_file(path, "filter", filt) == -1)
				fmts[i].id = 0;
		}
	}
	return 0;
fail:
	explain_close(in);
	return -1;
}

/* Enables the events and starts tracing.  Returns 0, or -1 with errno. */
int
explain_start(const struct tinst *in)
{
	char path[PATH_MAX];
	unsigned i;

	/* Empty, with its counts of lost events at 0 (a run of --repeat). */
	if (write_file(in->dir, "trace", "") == -1)
		return -1;
	for (i = 0; i < NEVDEFS; i++) {
		if (fmts[i].id == 0)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s", in->dir,
		    evdefs[i].sys, evdefs[i].name);
		if (write_file(path, "enable", "1") == -1 &&
		    evdefs[i].required)
			return -1;
	}
	return write_file(in->dir, "tracing_on", "1");
}

/*
 * From the sink: keeps the K worst samples, worst first, and the last
 * sample (the one --breaktrace may have stopped at).
 */
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

/*
 * After the run: stops tracing, reads every CPU's buffer and builds the
 * autopsy of each kept sample (and of the sample --breaktrace stopped
 * at, if it is not among them) into res->autopsy.  A failure to read is
 * recorded there, never fatal to the run's other reports.
 */
void
explain_read(const struct tinst *in, struct result *res)
{
	struct trace_read tr;
	struct autopsy *ap;
	struct autopsy_sample *as;
	char path[PATH_MAX];
	struct stat sb;
	size_t page;
	unsigned i, n, cpu;
	int64_t newest_oldest = INT64_MIN;
	int have_brk;

	if ((ap = calloc(1, sizeof(*ap))) == NULL)
		return;
	res->autopsy = ap;
	ap->instance = strdup(in->dir);
	ap->buf_kb = in->buf_kb;
	memset(&tr, 0, sizeof(tr));
	tr.parent = getpid();
	(void)write_file(in->dir, "tracing_on", "0");

	/* The subjects: the K worst, then the breaktrace sample. */
	have_brk = res->stop == STOP_BREAK && (res->brk.timer ||
	    res->have_last);
	n = res->nworst + (have_brk ? 1 : 0);
	if ((ap->s = calloc(n > 0 ? n : 1, sizeof(*ap->s))) == NULL) {
		ap->error = "calloc";
		ap->error_errno = ENOMEM;
		return;
	}
	for (i = 0; i < res->nworst; i++) {
		as = &ap->s[ap->n++];
		as->s = res->worst[i];
	}
	if (have_brk) {
		for (i = 0; !res->brk.timer && i < ap->n; i++)
			if (ap->s[i].s.client == res->last.client &&
			    ap->s[i].s.round == res->last.round &&
			    ap->s[i].s.latency == res->last.latency)
				break;
		if (i < ap->n)
			ap->s[i].broke = 1;
		else {
			as = &ap->s[ap->n++];
			as->broke = 1;
			if (res->brk.timer) {
				as->timer = 1;
				as->s.when = res->brk.when;
				as->s.latency = res->brk.latency;
				as->s.pid = getpid();
				as->s.cpu = -1;
				as->s.rq_wait = -1;
			} else
				as->s = res->last;
		}
	}
	for (i = 0; i < ap->n; i++) {
		ap->s[i].send = res->start + ap->s[i].s.when;
		ap->s[i].wake = ap->s[i].send + ap->s[i].s.latency;
	}

	/* Every CPU's buffer, and what each lost. */
	page = trace_page_size(in->dir);
	for (cpu = 0; ; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", in->dir, cpu);
		if (stat(path, &sb) == -1)
			break;
	}
	tr.ncpus = cpu;
	ap->ncpus = cpu;
	tr.oldest = calloc(cpu > 0 ? cpu : 1, sizeof(*tr.oldest));
	tr.lost = calloc(cpu > 0 ? cpu : 1, sizeof(*tr.lost));
	if (tr.oldest == NULL || tr.lost == NULL) {
		ap->error = "calloc";
		ap->error_errno = ENOMEM;
		goto out;
	}
	/* The pages the keeper kept, and what each CPU lost. */
	if (keeper_pages(in, page, &tr) == -1) {
		ap->error = "taking the trace from latt's keeper";
		ap->error_errno = errno;
		goto out;
	}
	for (cpu = 0; cpu < tr.ncpus; cpu++) {
		read_lost(in->dir, cpu, &tr);
		ap->lost += tr.lost[cpu];
		if (tr.lost[cpu] > 0 && tr.oldest[cpu] > newest_oldest)
			newest_oldest = tr.oldest[cpu];
	}
	ap->events = tr.nev;
	ap->covered_from = newest_oldest == INT64_MIN ? 0 :
	    newest_oldest - res->start;
	qsort(tr.ev, tr.nev, sizeof(*tr.ev), cmp_ev);
	if (infer_idle_exits(&tr) > 0)
		qsort(tr.ev, tr.nev, sizeof(*tr.ev), cmp_ev);
	for (i = 0; i < ap->n; i++)
		analyse(&tr, &ap->s[i]);
out:
	free(tr.ev);
	free(tr.strs.str);
	free(tr.strs.hash);
	free(tr.oldest);
	free(tr.lost);
	free(tr.gaps);
}

/* Records a stretch of a CPU's events the read does not have. */
static void
add_gap(struct trace_read *tr, int32_t cpu, int kernel, int64_t from,
    int64_t to)
{
	struct gap *ng;

	if ((ng = realloc(tr->gaps, (tr->ngaps + 1) * sizeof(*ng))) == NULL)
		return;
	tr->gaps = ng;
	tr->gaps[tr->ngaps].cpu = cpu;
	tr->gaps[tr->ngaps].kernel = kernel;
	tr->gaps[tr->ngaps].from = from;
	tr->gaps[tr->ngaps].to = to;
	tr->ngaps++;
}

/*
 * Asks the keeper for the pages it kept and parses them, CPU by CPU; a
 * page after ones it let go, or after events the ring buffer lost, marks
 * a gap from the CPU's last event read to the page.  Returns 0, or -1
 * with errno set.
 */
static int
keeper_pages(const struct tinst *in, size_t page, struct trace_read *tr)
{
	int64_t *last;
	unsigned char *buf;
	uint32_t cpu, len;
	size_t before;
	int *first, gap, r, ret = -1;

	last = calloc(tr->ncpus > 0 ? tr->ncpus : 1, sizeof(*last));
	first = calloc(tr->ncpus > 0 ? tr->ncpus : 1, sizeof(*first));
	buf = malloc(page);
	if (last == NULL || first == NULL || buf == NULL)
		goto out;
	for (cpu = 0; cpu < tr->ncpus; cpu++) {
		last[cpu] = INT64_MIN;
		first[cpu] = 1;
	}
	if (keeper_ask(in->keeper_fd) == -1)
		goto out;
	while ((r = keeper_record(in->keeper_rfd, page, buf, &cpu, &gap,
	    &len)) == 1) {
		if (cpu >= tr->ncpus) {
			errno = EPROTO;
			goto out;
		}
		if (gap || ((get64(buf + 8) & RB_MISSED_EVENTS) && !first[cpu]))
			add_gap(tr, (int32_t)cpu, !gap, last[cpu],
			    (int64_t)get64(buf));
		before = tr->nev;
		parse_page(buf, len, cpu, tr, &first[cpu]);
		if (tr->nev > before)
			last[cpu] = tr->ev[tr->nev - 1].ts;
	}
	ret = r == 0 ? 0 : -1;
out:
	free(last);
	free(first);
	free(buf);
	return ret;
}

/*
 * Removes the instance (tracing is stopped first, so that rmdir finds
 * nothing busy), then lets the keeper go and reaps it.  Safe to call
 * twice, and on a config that never opened one.
 */
void
explain_close(struct tinst *in)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	int64_t giveup;
	int i, st;
	pid_t r;

	/* The keeper lets go of its descriptors and removes it too. */
	if (in->made && in->dir != NULL)
		(void)write_file(in->dir, "tracing_on", "0");
	if (in->keeper_fd != -1)
		close(in->keeper_fd);
	in->keeper_fd = -1;
	if (in->made && in->dir != NULL) {
		for (i = 0; i < 100; i++) {
			if (rmdir(in->dir) == 0 || errno == ENOENT)
				break;
			if (errno != EBUSY)
				break;
			nanosleep(&ms, NULL);
		}
		in->made = 0;
	}
	if (in->keeper_rfd != -1)
		close(in->keeper_rfd);
	in->keeper_rfd = -1;
	if (in->keeper > 0) {
		giveup = now_ns() + KEEPER_WAIT_NS;
		while ((r = waitpid(in->keeper, &st, WNOHANG)) == 0 ||
		    (r == -1 && errno == EINTR)) {
			if (now_ns() > giveup) {
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
	if (in->win != NULL)
		munmap(in->win, sizeof(*in->win));
	in->win = NULL;
	free(in->dir);
	in->dir = NULL;
	free(in->top);
	in->top = NULL;
}

void
explain_free(struct result *res)
{
	struct autopsy *ap = res->autopsy;
	unsigned i;

	if (ap == NULL)
		return;
	for (i = 0; i < ap->n; i++) {
		free(ap->s[i].ran);
		free(ap->s[i].irqs);
		free(ap->s[i].tl);
	}
	free(ap->s);
	free(ap->instance);
	free(ap);
	res->autopsy = NULL;
}

/* A duration for a person: "3.9 ms", "12 us", "850 ns". */
const char *
explain_dur(int64_t ns, char *buf, size_t len)
{
	if (ns >= 10 * NSEC_PER_MSEC)
		snprintf(buf, len, "%.1f ms", (double)ns / NSEC_PER_MSEC);
	else if (ns >= NSEC_PER_MSEC)
		snprintf(buf, len, "%.2f ms", (double)ns / NSEC_PER_MSEC);
	else if (ns >= 10 * NSEC_PER_USEC)
		snprintf(buf, len, "%.0f us", (double)ns / NSEC_PER_USEC);
	else if (ns >= NSEC_PER_USEC)
		snprintf(buf, len, "%.1f us", (double)ns / NSEC_PER_USEC);
	else
		snprintf(buf, len, "%lld ns", (long long)ns);
	return buf;
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

/*
 * Reads an event's format file: its ID and the offset, size and
 * signedness of each field latt reads.  Returns 0, or -1 with errno set
 * (ENOENT: no such event; EINVAL: a field is missing).
 */
static int
read_format(const char *dir, const struct evdef *d, struct evfmt *f)
{
	char path[PATH_MAX + 16], line[512], name[128];
	char *p, *semi;
	FILE *fp;
	int k, off, size, sgn;

	memset(f, 0, sizeof(*f));
	f->pid_off = f->flags_off = -1;
	snprintf(path, sizeof(path), "%s/format", dir);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "ID: %u", &f->id) == 1)
			continue;
		if ((p = strstr(line, "field:")) == NULL)
			continue;
		p += 6;
		if ((semi = strchr(p, ';')) == NULL)
			continue;
		*semi = '\0';
		if (sscanf(semi + 1, " offset:%d; size:%d; signed:%d", &off,
		    &size, &sgn) != 3)
			continue;
		/* "TYPE NAME" or "TYPE NAME[N]": the name is the last word. */
		if ((p = strrchr(p, ' ')) == NULL)
			continue;
		snprintf(name, sizeof(name), "%s", p + 1);
		name[strcspn(name, "[")] = '\0';
		if (strcmp(name, "common_pid") == 0 && size == 4) {
			f->pid_off = off;
			continue;
		}
		if (strcmp(name, "common_flags") == 0 && size == 1) {
			f->flags_off = off;
			continue;
		}
		for (k = 0; k < MAX_FIELDS && d->fields[k] != NULL; k++) {
			if (strcmp(name, d->fields[k]) != 0)
				continue;
			f->f[k].offset = off;
			f->f[k].size = size;
			f->f[k].is_signed = sgn;
			f->f[k].data_loc = strstr(line, "__data_loc") != NULL;
			f->f[k].found = 1;
		}
	}
	fclose(fp);
	if (f->id == 0) {
		errno = ENOENT;
		return -1;
	}
	if (f->pid_off < 0 || f->flags_off < 0) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < MAX_FIELDS && d->fields[k] != NULL; k++)
		if (!f->f[k].found || f->f[k].offset < 0 ||
		    (!f->f[k].data_loc && f->f[k].size > 8 &&
		    strstr(d->fields[k], "comm") == NULL)) {
			errno = EINVAL;
			return -1;
		}
	return 0;
}

/*
 * Reads what one CPU's stats file says was lost (overwritten, or dropped
 * when full).
 */
static void
read_lost(const char *dir, unsigned cpu, struct trace_read *tr)
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
			tr->lost[cpu] += v;
	fclose(fp);
}

static uint32_t
get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * One ring-buffer page: a 64-bit time stamp, a commit word (the length of
 * the data, and flags for events missed before the page), then events,
 * each a 32-bit header (type_len in its low 5 bits, a time delta in the
 * 27 above) as events/header_page and header_event describe.
 */
static void
parse_page(const unsigned char *pg, size_t len, unsigned cpu,
    struct trace_read *tr, int *first)
{
	const size_t hdr = 16;
	uint64_t commit;
	int64_t ts;
	size_t off, end, dlen;
	uint32_t h, type, delta;

	if (len < hdr)
		return;
	ts = (int64_t)get64(pg);
	commit = get64(pg + 8);
	end = hdr + (size_t)(commit & (RB_MISSED_STORED - 1));
	if (end > len)
		end = len;
	/* Events were lost before this page: what is older is not whole. */
	if ((commit & RB_MISSED_EVENTS) && tr->lost[cpu] == 0)
		tr->lost[cpu] = 1;
	for (off = hdr; off + 4 <= end; ) {
		h = get32(pg + off);
		type = h & 0x1f;
		delta = h >> 5;
		if (type == RB_PADDING) {
			if (delta == 0)
				break;		/* the rest of the page */
			if (off + 8 > end)
				break;
			off += 4 + get32(pg + off + 4);
			continue;
		}
		if (type == RB_TIME_EXTEND || type == RB_TIME_STAMP) {
			uint64_t ext;

			if (off + 8 > end)
				break;
			ext = ((uint64_t)get32(pg + off + 4) << 27) | delta;
			if (type == RB_TIME_EXTEND)
				ts += (int64_t)ext;
			else
				ts = (int64_t)ext;
			off += 8;
			continue;
		}
		ts += delta;
		if (type == 0) {
			if (off + 8 > end)
				break;
			dlen = get32(pg + off + 4);
			if (dlen < 4)
				break;
			dlen -= 4;
			off += 8;
		} else {
			dlen = (size_t)type * 4;
			off += 4;
		}
		if (off + dlen > end)
			break;
		if (*first) {
			tr->oldest[cpu] = ts;
			*first = 0;
		}
		if (parse_event(pg + off, dlen, ts, cpu, tr) == -1)
			return;
		off += dlen;
	}
}

/* A numeric field of a record, by the layout its format file gave. */
static int64_t
field_int(const unsigned char *rec, size_t len, const struct field *f)
{
	int64_t v = 0;

	if ((size_t)f->offset + (size_t)f->size > len)
		return 0;
	switch (f->size) {
	case 1:
		v = f->is_signed ? (int8_t)rec[f->offset] : rec[f->offset];
		break;
	case 2: {
		uint16_t u;

		memcpy(&u, rec + f->offset, 2);
		v = f->is_signed ? (int64_t)(int16_t)u : (int64_t)u;
		break;
	}
	case 4: {
		uint32_t u;

		memcpy(&u, rec + f->offset, 4);
		v = f->is_signed ? (int64_t)(int32_t)u : (int64_t)u;
		break;
	}
	case 8:
		v = (int64_t)get64(rec + f->offset);
		break;
	}
	return v;
}

/* A string field (a char array or a __data_loc string) of a record. */
static size_t
field_str(const unsigned char *rec, size_t len, const struct field *f,
    const char **s)
{
	uint32_t loc;
	size_t off, n;

	*s = "";
	if (f->data_loc) {
		if ((size_t)f->offset + 4 > len)
			return 0;
		loc = get32(rec + f->offset);
		off = loc & 0xffff;
		n = loc >> 16;
	} else {
		off = (size_t)f->offset;
		n = (size_t)f->size;
	}
	if (off + n > len)
		return 0;
	*s = (const char *)rec + off;
	return strnlen(*s, n);
}

/*
 * One record into struct ev.  a, b, c, d: waking and wakeup: pid,
 * target_cpu; switch: prev_pid, prev_prio, next_pid, next_prio (comms in
 * s1, s2; prev_state in state); migrate: pid, orig_cpu, dest_cpu; irq:
 * the number (name in s1); softirq: the vector; ipi: the target CPU (a
 * mask in state); a vector: its vector number.
 */
static int
parse_event(const unsigned char *rec, size_t len, int64_t ts, unsigned cpu,
    struct trace_read *tr)
{
	const struct evfmt *f = NULL;
	struct ev *e, *nev;
	const char *s;
	size_t i, n, ncap;
	uint16_t id;

	if (len < 8)
		return 0;
	memcpy(&id, rec, 2);
	for (i = 0; i < NEVDEFS; i++)
		if (fmts[i].id == id && id != 0) {
			f = &fmts[i];
			break;
		}
	if (f == NULL)
		return 0;
	if (tr->nev == tr->cap) {
		ncap = tr->cap == 0 ? 65536 : tr->cap * 2;
		if ((nev = realloc(tr->ev, ncap * sizeof(*nev))) == NULL)
			return -1;
		tr->ev = nev;
		tr->cap = ncap;
	}
	e = &tr->ev[tr->nev];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->cpu = (int32_t)cpu;
	e->kind = (uint8_t)evdefs[i].kind;
	e->vec = (uint8_t)evdefs[i].vec;
	if ((size_t)f->pid_off + 4 <= len)
		memcpy(&e->pid, rec + f->pid_off, 4);
	if ((size_t)f->flags_off < len)
		e->flags = rec[f->flags_off];
	switch (evdefs[i].kind) {
	case EV_WAKING:
	case EV_WAKEUP:
		e->a = (int32_t)field_int(rec, len, &f->f[0]);
		e->b = (int32_t)field_int(rec, len, &f->f[1]);
		if (evdefs[i].kind == EV_WAKING) {
			n = field_str(rec, len, &f->f[2], &s);
			e->s1 = intern(&tr->strs, s, n);
		}
		break;
	case EV_SWITCH:
		e->a = (int32_t)field_int(rec, len, &f->f[0]);
		e->b = (int32_t)field_int(rec, len, &f->f[1]);
		e->c = (int32_t)field_int(rec, len, &f->f[2]);
		e->d = (int32_t)field_int(rec, len, &f->f[3]);
		e->state = field_int(rec, len, &f->f[4]);
		n = field_str(rec, len, &f->f[5], &s);
		e->s1 = intern(&tr->strs, s, n);
		n = field_str(rec, len, &f->f[6], &s);
		e->s2 = intern(&tr->strs, s, n);
		break;
	case EV_MIGRATE:
		e->a = (int32_t)field_int(rec, len, &f->f[0]);
		e->b = (int32_t)field_int(rec, len, &f->f[1]);
		e->c = (int32_t)field_int(rec, len, &f->f[2]);
		break;
	case EV_IRQ_ENTRY:
		e->a = (int32_t)field_int(rec, len, &f->f[0]);
		n = field_str(rec, len, &f->f[1], &s);
		e->s1 = intern(&tr->strs, s, n);
		break;
	case EV_IPI_MASK: {
		uint32_t loc;
		size_t off, nb;

		/* A cpumask: a bitmap of longs; the first 64 CPUs kept. */
		e->a = -1;
		if ((size_t)f->f[0].offset + 4 > len)
			break;
		loc = get32(rec + f->f[0].offset);
		off = loc & 0xffff;
		nb = loc >> 16;
		if (nb >= 8 && off + 8 <= len)
			e->state = (int64_t)get64(rec + off);
		else if (nb >= 4 && off + 4 <= len)
			e->state = get32(rec + off);
		break;
	}
	default:
		e->a = (int32_t)field_int(rec, len, &f->f[0]);
		break;
	}
	tr->nev++;
	return 0;
}

static int
cmp_ev(const void *pa, const void *pb)
{
	const struct ev *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	/* An inferred switch comes before the event it was inferred from. */
	if (a->inferred != b->inferred)
		return a->inferred ? -1 : 1;
	/* One CPU's events at one stamp keep their order: by address. */
	return a < b ? -1 : a > b;
}

/* Appends a switch out of idle to pid on cpu at ts, marked as inferred. */
static int
add_inferred(struct trace_read *tr, int32_t cpu, pid_t pid, int64_t ts)
{
	struct ev sw, *nev;
	char name[24];
	size_t ncap;

	memset(&sw, 0, sizeof(sw));
	sw.ts = ts;
	sw.cpu = cpu;
	sw.kind = EV_SWITCH;
	sw.inferred = 1;
	sw.b = 120;
	sw.c = pid;
	sw.d = -1;
	snprintf(name, sizeof(name), "swapper/%d", (int)cpu);
	sw.s1 = intern(&tr->strs, name, strlen(name));
	if (tr->nev == tr->cap) {
		ncap = tr->cap * 2;
		if ((nev = realloc(tr->ev, ncap * sizeof(*nev))) == NULL)
			return -1;
		tr->ev = nev;
		tr->cap = ncap;
	}
	tr->ev[tr->nev++] = sw;
	return 0;
}

/*
 * Some kernels do not trace every switch out of the idle task (the one
 * this was written on traced none on its second CPU).  An idle CPU that then shows a task
 * running has switched to it: at the first wake-up that made that task
 * runnable there when it is known, else at the first sign of the task
 * (an event in its context that is not an interrupt, or its own switch
 * out).  Such switches are added, marked as inferred.  Returns how many.
 */
static size_t
infer_idle_exits(struct trace_read *tr)
{
	struct ev *e;
	int32_t *cur, *pend, c;
	int64_t *pend_ts, ts;
	size_t i, n = tr->nev, added = 0;
	pid_t who;
	unsigned k;

	cur = calloc(tr->ncpus + 1, sizeof(*cur));
	pend = calloc(tr->ncpus + 1, sizeof(*pend));
	pend_ts = calloc(tr->ncpus + 1, sizeof(*pend_ts));
	if (cur == NULL || pend == NULL || pend_ts == NULL)
		goto out;
	for (k = 0; k < tr->ncpus; k++)
		cur[k] = -1;
	for (i = 0; i < n; i++) {
		e = &tr->ev[i];
		if (e->kind == EV_WAKEUP && e->b >= 0 &&
		    (unsigned)e->b < tr->ncpus && cur[e->b] == 0 &&
		    pend[e->b] == 0) {
			pend[e->b] = e->a;
			pend_ts[e->b] = e->ts;
		}
		if (e->cpu < 0 || (unsigned)e->cpu >= tr->ncpus)
			continue;
		c = e->cpu;
		who = -1;
		if (e->kind == EV_SWITCH) {
			if (cur[c] == 0 && e->a != 0)
				who = e->a;
		} else if (cur[c] == 0 && e->pid != 0 &&
		    !(e->flags & CTX_INTERRUPT))
			who = e->pid;
		if (who > 0) {
			ts = pend[c] == who ? pend_ts[c] : e->ts;
			if (add_inferred(tr, c, who, ts) == -1)
				break;
			added++;
			e = &tr->ev[i];
			cur[c] = who;
		}
		if (e->kind == EV_SWITCH) {
			cur[c] = e->c;
			pend[c] = 0;
		}
	}
out:
	free(cur);
	free(pend);
	free(pend_ts);
	return added;
}

/* Interns a string of n bytes; returns its index (0: the empty one). */
static uint32_t
intern(struct strtab *t, const char *s, size_t n)
{
	uint32_t h = 2166136261U, i, k;
	char key[COMM_LEN * 2];

	if (n >= sizeof(key))
		n = sizeof(key) - 1;
	memcpy(key, s, n);
	key[n] = '\0';
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)key[i]) * 16777619U;
	if (t->n + 1 >= t->hcap / 2) {
		uint32_t ncap = t->hcap == 0 ? 1024 : t->hcap * 2, *nh;

		if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
			return 0;
		for (i = 1; i < t->n; i++) {
			uint32_t hh = 2166136261U;
			const char *q;

			for (q = t->str[i]; *q != '\0'; q++)
				hh = (hh ^ (unsigned char)*q) * 16777619U;
			for (k = hh & (ncap - 1); nh[k] != 0;
			    k = (k + 1) & (ncap - 1))
				;
			nh[k] = i + 1;
		}
		free(t->hash);
		t->hash = nh;
		t->hcap = ncap;
	}
	for (k = h & (t->hcap - 1); t->hash[k] != 0;
	    k = (k + 1) & (t->hcap - 1))
		if (strcmp(t->str[t->hash[k] - 1], key) == 0)
			return t->hash[k] - 1;
	if (t->n == 0)
		t->n = 1;	/* index 0 is the empty string */
	if (t->n >= t->cap) {
		uint32_t ncap = t->cap == 0 ? 256 : t->cap * 2;
		char (*ns)[COMM_LEN * 2];

		if ((ns = realloc(t->str, ncap * sizeof(*ns))) == NULL)
			return 0;
		t->str = ns;
		t->cap = ncap;
		if (t->n == 1)
			t->str[0][0] = '\0';
	}
	memcpy(t->str[t->n], key, n + 1);
	t->hash[k] = t->n + 1;
	return t->n++;
}

static const char *
str_of(const struct trace_read *tr, uint32_t i)
{
	if (i == 0 || i >= tr->strs.n)
		return "";
	return tr->strs.str[i];
}

/* ---- the analysis of one sample ---------------------------------------- */

/* The first event at or after ts. */
static size_t
first_at(const struct trace_read *tr, int64_t ts)
{
	size_t lo = 0, hi = tr->nev, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tr->ev[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The scheduling class and priority of a task, from the prio the
 * trace recorded; the policy's name is asked of the task itself when it
 * still runs under the same name, and left generic when it does not.
 */
static void
describe_policy(pid_t pid, int prio, const char *comm, char *buf,
    size_t len)
{
	char path[64], now[COMM_LEN + 2] = "";
	const char *name = NULL;
	FILE *fp;
	int pol = -1;

	if (pid == 0) {
		snprintf(buf, len, "idle");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((fp = fopen(path, "re")) != NULL) {
		if (fgets(now, sizeof(now), fp) != NULL)
			now[strcspn(now, "\n")] = '\0';
		fclose(fp);
		if (strcmp(now, comm) == 0)
			pol = sched_getscheduler(pid);
	}
	if (prio < 0) {
		snprintf(buf, len, "SCHED_DEADLINE");
		return;
	}
	if (prio < 100) {
		name = pol == SCHED_FIFO ? "SCHED_FIFO" : pol == SCHED_RR ?
		    "SCHED_RR" : "real-time";
		snprintf(buf, len, "%s %d", name, 99 - prio);
		return;
	}
	name = pol == SCHED_OTHER ? "SCHED_OTHER" : pol == SCHED_BATCH ?
	    "SCHED_BATCH" : pol == SCHED_IDLE ? "SCHED_IDLE" : "fair";
	snprintf(buf, len, "%s nice %d", name, prio - 120);
}

/* How a task left the CPU, from sched_switch's prev_state. */
static const char *
how_left(int64_t st)
{
	if (st & TS_PREEMPTED)
		return "preempted";
	if (st & TS_INTERRUPTIBLE)
		return "blocked";
	if (st & TS_UNINTERRUPTIBLE)
		return "blocked (D)";
	if (st & (TS_STOPPED | TS_TRACED))
		return "stopped";
	if (st & (TS_DEAD | TS_ZOMBIE))
		return "exited";
	if (st & TS_PARKED)
		return "parked";
	if (st & TS_IDLE)
		return "blocked (idle)";
	/*
	 * TASK_RUNNING without the "+": preempted on its way back to user
	 * space (the kernel marks only in-kernel preemption), or a yield.
	 */
	return "preempted";
}

/* The task's state, from how it last left a CPU. */
static const char *
state_name(int64_t st)
{
	if (st & (TS_STOPPED | TS_TRACED))
		return "stopped";
	if (st & (TS_INTERRUPTIBLE | TS_UNINTERRUPTIBLE | TS_IDLE))
		return "asleep";
	if (st & (TS_DEAD | TS_ZOMBIE))
		return "exited";
	return "runnable";
}

/* Adds a timeline line, in time order (lines come nearly sorted). */
static void
add_tl(struct autopsy_sample *as, int64_t t, int32_t cpu, const char *kind,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
add_tl(struct autopsy_sample *as, int64_t t, int32_t cpu, const char *kind,
    const char *fmt, ...)
{
	struct tl_item *it;
	va_list ap;
	unsigned i;

	if (as->tl == NULL &&
	    (as->tl = calloc(TL_MAX, sizeof(*as->tl))) == NULL)
		return;
	if (as->ntl == TL_MAX)
		return;
	for (i = as->ntl; i > 0 && as->tl[i - 1].t > t; i--)
		as->tl[i] = as->tl[i - 1];
	it = &as->tl[i];
	it->t = t;
	it->cpu = cpu;
	snprintf(it->kind, sizeof(it->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(it->what, sizeof(it->what), fmt, ap);
	va_end(ap);
	as->ntl++;
}

/* Adds time to the task that ran on a CPU while the sample waited. */
/*
 * in: the switch that gave it the CPU (NULL: before the trace); out: the
 * one that took it away, whose name is the newer (an exec renames).
 */
static struct ran_task *
add_ran(struct autopsy_sample *as, const struct trace_read *tr,
    const struct ev *in, const struct ev *out, int32_t cpu, int64_t ns)
{
	struct ran_task *r;
	pid_t pid = in != NULL ? in->c : -1;
	unsigned i;

	for (i = 0; i < as->nran; i++)
		if (as->ran[i].pid == pid && as->ran[i].cpu == cpu) {
			as->ran[i].ns += ns;
			return &as->ran[i];
		}
	if (as->ran == NULL &&
	    (as->ran = calloc(RAN_MAX, sizeof(*as->ran))) == NULL)
		return NULL;
	if (as->nran == RAN_MAX)
		return NULL;
	r = &as->ran[as->nran++];
	r->pid = pid;
	r->cpu = cpu;
	r->ns = ns;
	if (in == NULL) {
		snprintf(r->comm, sizeof(r->comm), "?");
		snprintf(r->policy, sizeof(r->policy), "before the trace");
		r->prio = -1;
	} else {
		snprintf(r->comm, sizeof(r->comm), "%s", str_of(tr,
		    out != NULL ? out->s1 : in->s2));
		r->prio = out != NULL ? out->b : in->d;
		if (out == NULL && in->inferred)
			snprintf(r->policy, sizeof(r->policy), "priority not "
			    "traced");
		else
			describe_policy(pid, r->prio, r->comm, r->policy,
			    sizeof(r->policy));
	}
	return r;
}

static void
add_irq(struct autopsy_sample *as, const char *kind, int num,
    const char *name, int32_t cpu, int64_t start, int64_t ns)
{
	struct irq_span *q;

	if (as->irqs == NULL &&
	    (as->irqs = calloc(IRQ_MAX, sizeof(*as->irqs))) == NULL)
		return;
	if (as->nirqs == IRQ_MAX)
		return;
	q = &as->irqs[as->nirqs++];
	snprintf(q->kind, sizeof(q->kind), "%s", kind);
	q->num = num;
	snprintf(q->name, sizeof(q->name), "%.31s", name);
	q->cpu = cpu;
	q->start = start;
	q->ns = ns;
}

/*
 * The interrupts, softirqs and interrupt vectors that ran on cpu within
 * [a, b] (absolute ns): each entry is paired with its exit.
 */
static void
irqs_on(const struct trace_read *tr, struct autopsy_sample *as, int32_t cpu,
    int64_t a, int64_t b)
{
	const struct ev *e, *x;
	const char *kind, *name;
	char nbuf[40];
	size_t i, j;
	int64_t end;
	int exit_kind;

	for (i = first_at(tr, a); i < tr->nev && tr->ev[i].ts <= b; i++) {
		e = &tr->ev[i];
		if (e->cpu != cpu)
			continue;
		switch (e->kind) {
		case EV_IRQ_ENTRY:
			exit_kind = EV_IRQ_EXIT;
			kind = "irq";
			snprintf(nbuf, sizeof(nbuf), "%s", str_of(tr, e->s1));
			break;
		case EV_SOFTIRQ_ENTRY:
			exit_kind = EV_SOFTIRQ_EXIT;
			kind = "softirq";
			snprintf(nbuf, sizeof(nbuf), "%s", e->a >= 0 && e->a <
			    (int)(sizeof(softirq_names) /
			    sizeof(softirq_names[0])) ? softirq_names[e->a] :
			    "?");
			break;
		case EV_VEC_ENTRY:
			exit_kind = EV_VEC_EXIT;
			kind = "vector";
			snprintf(nbuf, sizeof(nbuf), "%s", vec_names[e->vec]);
			break;
		default:
			continue;
		}
		name = nbuf;
		end = -1;
		for (j = i + 1; j < tr->nev; j++) {
			x = &tr->ev[j];
			if (x->cpu != cpu)
				continue;
			if (x->kind == exit_kind && x->a == e->a &&
			    (x->kind != EV_VEC_EXIT || x->vec == e->vec)) {
				end = x->ts;
				break;
			}
			if (x->ts > b + 10 * NSEC_PER_MSEC)
				break;
		}
		if (end == -1)
			continue;
		add_irq(as, kind, e->a, name, cpu, e->ts - as->send,
		    end - e->ts);
		if (e->kind == EV_IRQ_ENTRY)
			add_tl(as, e->ts - as->send, cpu, kind, "IRQ %d (%s) "
			    "for %.3f us", e->a, name, (double)(end - e->ts) /
			    NSEC_PER_USEC);
		else if (e->kind == EV_SOFTIRQ_ENTRY)
			add_tl(as, e->ts - as->send, cpu, kind, "softirq %s "
			    "for %.3f us", name, (double)(end - e->ts) /
			    NSEC_PER_USEC);
		else
			add_tl(as, e->ts - as->send, cpu, kind, "%s interrupt "
			    "for %.3f us", name, (double)(end - e->ts) /
			    NSEC_PER_USEC);
	}
}

/*
 * The switch on cpu that was in force at ts: the last sched_switch
 * there before it, or NULL when the trace does not reach back so far.
 */
static const struct ev *
current_on(const struct trace_read *tr, int32_t cpu, int64_t ts)
{
	size_t i = first_at(tr, ts);

	while (i-- > 0)
		if (tr->ev[i].cpu == cpu && tr->ev[i].kind == EV_SWITCH)
			return &tr->ev[i];
	return NULL;
}

/*
 * Whether cpu took a timer interrupt shortly before ts: a switch that
 * follows one was made at the tick.
 */
static int
after_tick(const struct trace_read *tr, int32_t cpu, int64_t ts)
{
	size_t i = first_at(tr, ts);
	const struct ev *e;

	while (i-- > 0) {
		e = &tr->ev[i];
		if (ts - e->ts > TICK_NEAR_NS)
			return 0;
		if (e->cpu != cpu)
			continue;
		if ((e->kind == EV_VEC_EXIT && e->vec == 0) ||
		    (e->kind == EV_SOFTIRQ_EXIT && (e->a == 1 || e->a == 8)))
			return 1;
	}
	return 0;
}

/*
 * Who had cpu during [a, b] while the sample's task waited for it: the
 * task current at a, then each one switched in before b, with its share
 * of the stretch and how it left.
 */
static void
who_ran(const struct trace_read *tr, struct autopsy_sample *as, int32_t cpu,
    int64_t a, int64_t b)
{
	const struct ev *cur = current_on(tr, cpu, a), *e;
	struct ran_task *r;
	int64_t from = a;
	size_t i;

	for (i = first_at(tr, a); i < tr->nev && tr->ev[i].ts <= b; i++) {
		e = &tr->ev[i];
		if (e->cpu != cpu || e->kind != EV_SWITCH)
			continue;
		if ((cur == NULL || cur->c != as->s.pid) && e->ts > from) {
			r = add_ran(as, tr, cur, e, cpu, e->ts - from);
			if (r != NULL) {
				snprintf(r->left, sizeof(r->left), "%s%s",
				    how_left(e->state),
				    strcmp(how_left(e->state), "preempted") ==
				    0 && after_tick(tr, cpu, e->ts) ?
				    " at a tick" : "");
				add_tl(as, from - as->send, cpu, "ran",
				    "%s[%d] (%s) ran %.3f us, then %s",
				    r->comm, (int)r->pid, r->policy,
				    (double)(e->ts - from) / NSEC_PER_USEC,
				    r->left);
			}
		}
		cur = e;
		from = e->ts;
	}
	if ((cur == NULL || cur->c != as->s.pid) && b > from) {
		r = add_ran(as, tr, cur, NULL, cpu, b - from);
		if (r != NULL) {
			snprintf(r->left, sizeof(r->left), "still running");
			add_tl(as, from - as->send, cpu, "ran", "%s[%d] (%s) "
			    "ran %.3f us", r->comm, (int)r->pid, r->policy,
			    (double)(b - from) / NSEC_PER_USEC);
		}
	}
}

static int
cmp_ran(const void *pa, const void *pb)
{
	const struct ran_task *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->pid - b->pid;
}

/* The one-line verdict: the largest part of the latency, and the IRQs. */
static void
verdict(struct autopsy_sample *as)
{
	char d1[32], d2[32], part[160];
	const struct irq_span *big = NULL;
	int64_t best = -1;
	unsigned i, shown;
	size_t len;
	int which = -1;
	const int64_t parts[] = { as->issue, as->not_runnable, as->in_flight,
	    as->rq_wait, as->running };

	for (i = 0; i < 5; i++)
		if (parts[i] > best) {
			best = parts[i];
			which = (int)i;
		}
	as->verdict[0] = '\0';
	if (!as->complete)
		snprintf(as->verdict, sizeof(as->verdict), "incomplete (%s): ",
		    as->lost_note);
	len = strlen(as->verdict);
	switch (which) {
	case 0:
		snprintf(part, sizeof(part), "%s %s", explain_dur(as->issue, d1,
		    sizeof(d1)), as->timer ? "before the timer's interrupt "
		    "woke the parent" : "in the parent's write before the "
		    "wake-up was issued");
		break;
	case 1:
		snprintf(part, sizeof(part), "not runnable for %s: %s until "
		    "%s[%d] woke it%s", explain_dur(as->not_runnable, d1,
		    sizeof(d1)), as->state, as->waker_comm,
		    (int)as->waker_pid, strcmp(as->state, "stopped") == 0 ?
		    " (SIGCONT)" : "");
		break;
	case 2:
		snprintf(part, sizeof(part), "wake-up in flight %s to CPU %d%s",
		    explain_dur(as->in_flight, d1, sizeof(d1)),
		    (int)as->target_cpu, as->idle_target ?
		    " (idle, woken" : "");
		if (as->idle_target)
			strncat(part, as->ipi ? " by an IPI)" : " without an "
			    "IPI)", sizeof(part) - strlen(part) - 1);
		break;
	case 3:
		snprintf(part, sizeof(part), "runqueue wait %s",
		    explain_dur(as->rq_wait, d1, sizeof(d1)));
		for (i = 0, shown = 0; i < as->nran && shown < 2; i++) {
			if (as->ran[i].pid == 0 || as->ran[i].pid == -1)
				continue;
			snprintf(part + strlen(part), sizeof(part) -
			    strlen(part), "%s %s[%d] (%s)", shown == 0 ?
			    " behind" : ",", as->ran[i].comm,
			    (int)as->ran[i].pid, as->ran[i].policy);
			shown++;
		}
		if (shown == 0)
			strncat(part, " with no other task on the CPU",
			    sizeof(part) - strlen(part) - 1);
		break;
	default:
		snprintf(part, sizeof(part), "%s from the switch-in to the "
		    "stamp", explain_dur(as->running, d1, sizeof(d1)));
		break;
	}
	snprintf(as->verdict + len, sizeof(as->verdict) - len, "%s", part);
	for (i = 0; i < as->nirqs; i++)
		if (big == NULL || as->irqs[i].ns > big->ns)
			big = &as->irqs[i];
	if (big != NULL && big->ns >= NSEC_PER_USEC) {
		len = strlen(as->verdict);
		if (strcmp(big->kind, "irq") == 0)
			snprintf(as->verdict + len, sizeof(as->verdict) - len,
			    ", then %s in IRQ %d (%s)", explain_dur(big->ns,
			    d2, sizeof(d2)), big->num, big->name);
		else if (strcmp(big->kind, "softirq") == 0)
			snprintf(as->verdict + len, sizeof(as->verdict) - len,
			    ", then %s in softirq %s", explain_dur(big->ns,
			    d2, sizeof(d2)), big->name);
		else
			snprintf(as->verdict + len, sizeof(as->verdict) - len,
			    ", then %s in the %s interrupt",
			    explain_dur(big->ns, d2, sizeof(d2)), big->name);
	}
}

/*
 * Follows the sampled task from the send stamp to its own stamp: its
 * state at the send, the wake-up (who issued it, from which CPU, to
 * which), the IPI or migration, the time it waited runnable and who had
 * the CPU meanwhile, the switch in; and the interrupts on the CPUs that
 * mattered.  The stretches add up to the latency.
 */
static void
analyse(const struct trace_read *tr, struct autopsy_sample *as)
{
	struct seg segs[64];
	const struct ev *e, *prev = NULL;
	const char *st;
	pid_t pid = as->s.pid;
	enum seg_kind cur;
	unsigned nseg = 0, i, c;
	int32_t cpu = -1;
	int64_t from, sum[5] = { 0, 0, 0, 0, 0 };
	size_t k;
	int seen = 0;

	as->waker_cpu = as->target_cpu = as->run_cpu = -1;
	as->issue = as->not_runnable = as->in_flight = as->rq_wait =
	    as->running = -1;
	as->complete = 1;
	snprintf(as->state, sizeof(as->state), "unknown");
	for (c = 0; c < tr->ncpus; c++)
		if (tr->lost[c] > 0 && tr->oldest[c] > as->send) {
			as->complete = 0;
			snprintf(as->lost_note, sizeof(as->lost_note), "CPU %u "
			    "lost %llu events to a full buffer, and kept none "
			    "from before this sample", c,
			    (unsigned long long)tr->lost[c]);
			break;
		}
	for (k = 0; as->complete && k < tr->ngaps; k++)
		if (tr->gaps[k].to >= as->send && tr->gaps[k].from <= as->wake) {
			as->complete = 0;
			snprintf(as->lost_note, sizeof(as->lost_note), "CPU %d "
			    "%s during this sample", (int)tr->gaps[k].cpu,
			    tr->gaps[k].kernel ? "lost events to a full buffer" :
			    "has a stretch latt's keeper let go (its memory "
			    "bound)");
		}

	/* The task's state at the send stamp: how it last left a CPU. */
	for (k = first_at(tr, as->send); k-- > 0; ) {
		e = &tr->ev[k];
		if (e->kind != EV_SWITCH)
			continue;
		if (e->a == pid) {
			prev = e;
			break;
		}
		if (e->c == pid) {
			prev = e;
			break;
		}
	}
	if (prev == NULL)
		cur = SEG_ISSUE;
	else if (prev->c == pid) {
		snprintf(as->state, sizeof(as->state), "running");
		cur = SEG_RUNNING;
		cpu = prev->cpu;
	} else {
		st = state_name(prev->state);
		snprintf(as->state, sizeof(as->state), "%s", st);
		cpu = prev->cpu;
		if (strcmp(st, "stopped") == 0)
			cur = SEG_NOTRUN;
		else if (strcmp(st, "runnable") == 0)
			cur = SEG_QUEUED;
		else
			cur = SEG_ISSUE;
	}
	add_tl(as, 0, -1, "send", "%s: the parent stamps and writes; the "
	    "%s is %s", as->timer ? "the timer's deadline" : "send stamp",
	    as->timer ? "parent" : "client", as->state);
	if (prev != NULL && prev->c != pid)
		add_tl(as, prev->ts - as->send, prev->cpu, "blocked",
		    "%s[%d] left CPU %d: %s", str_of(tr, prev->s1), (int)pid,
		    (int)prev->cpu, how_left(prev->state));

	from = as->send;
	for (k = first_at(tr, as->send); k < tr->nev &&
	    tr->ev[k].ts <= as->wake; k++) {
		e = &tr->ev[k];
		switch (e->kind) {
		case EV_WAKING:
			if (e->a != pid)
				continue;
			seen = 1;
			/* The wait so far was the write, or a stop. */
			if (nseg < 64)
				segs[nseg++] = (struct seg){ cur, cpu, from,
				    e->ts, 0 };
			as->waker_cpu = e->cpu;
			as->target_cpu = e->b;
			/*
			 * The waker is the task the event ran in, or an
			 * interrupt that came in while it ran.
			 */
			{
				const struct ev *w = current_on(tr, e->cpu,
				    e->ts);

				as->waker_pid = e->pid;
				as->waker_irq = (e->flags & CTX_INTERRUPT) != 0;
				snprintf(as->waker_comm,
				    sizeof(as->waker_comm), "%s", w != NULL &&
				    w->c == e->pid ? str_of(tr, w->s2) :
				    e->pid == 0 ? "idle" : "?");
			}
			{
				const struct ev *t = current_on(tr, e->b,
				    e->ts);

				as->idle_target = t != NULL && t->c == 0;
				add_tl(as, e->ts - as->send, e->cpu, "waking",
				    "woken %s %s[%d] on CPU %d, for CPU %d "
				    "(%s)", as->waker_irq ? "from an interrupt "
				    "over" : "by", as->waker_comm,
				    (int)as->waker_pid, (int)e->cpu,
				    (int)e->b, t == NULL ? "its task "
				    "unknown" : t->c == 0 ? "idle" :
				    str_of(tr, t->s2));
			}
			if (!as->timer && as->waker_pid != tr->parent &&
			    nseg > 0 && segs[nseg - 1].kind == SEG_ISSUE)
				segs[nseg - 1].kind = SEG_NOTRUN;
			cur = SEG_FLIGHT;
			cpu = e->b;
			from = e->ts;
			break;
		case EV_WAKEUP:
			if (e->a != pid)
				continue;
			seen = 1;
			if (nseg < 64)
				segs[nseg++] = (struct seg){ cur, cpu, from,
				    e->ts, 0 };
			add_tl(as, e->ts - as->send, e->b, "wakeup",
			    "runnable on CPU %d", (int)e->b);
			cur = SEG_QUEUED;
			cpu = e->b;
			from = e->ts;
			break;
		case EV_MIGRATE:
			if (e->a != pid)
				continue;
			as->migrations++;
			if (nseg < 64)
				segs[nseg++] = (struct seg){ cur, cpu, from,
				    e->ts, 0 };
			add_tl(as, e->ts - as->send, e->cpu, "migrate",
			    "moved from CPU %d to CPU %d", (int)e->b,
			    (int)e->c);
			cpu = e->c;
			from = e->ts;
			break;
		case EV_IPI_CPU:
		case EV_IPI_MASK:
			if (as->target_cpu < 0 || cur != SEG_FLIGHT ||
			    (e->kind == EV_IPI_CPU ? e->a != as->target_cpu :
			    as->target_cpu >= 64 || !(e->state &
			    (1LL << as->target_cpu))))
				continue;
			as->ipi = 1;
			add_tl(as, e->ts - as->send, e->cpu, "ipi",
			    "IPI from CPU %d to CPU %d", (int)e->cpu,
			    (int)as->target_cpu);
			break;
		case EV_IDLE_NOIPI:
			if (cur != SEG_FLIGHT || e->a != as->target_cpu)
				continue;
			add_tl(as, e->ts - as->send, e->cpu, "ipi",
			    "CPU %d polls in idle: woken without an IPI",
			    (int)e->a);
			break;
		case EV_SWITCH:
			if (e->c == pid) {
				seen = 1;
				if (nseg < 64)
					segs[nseg++] = (struct seg){ cur, cpu,
					    from, e->ts, 0 };
				if (e->inferred)
					add_tl(as, e->ts - as->send, e->cpu,
					    "switch", "running on CPU %d (seen "
					    "back from read(); the kernel did "
					    "not trace its switch out of idle)",
					    (int)e->cpu);
				else
					add_tl(as, e->ts - as->send, e->cpu,
					    "switch", "switched in on CPU %d "
					    "(%s[%d] left it: %s)", (int)e->cpu,
					    str_of(tr, e->s1), (int)e->a,
					    how_left(e->state));
				cur = SEG_RUNNING;
				cpu = e->cpu;
				as->run_cpu = e->cpu;
				from = e->ts;
			} else if (e->a == pid) {
				if (nseg < 64)
					segs[nseg++] = (struct seg){ cur, cpu,
					    from, e->ts, 0 };
				add_tl(as, e->ts - as->send, e->cpu,
				    (e->state & TS_PREEMPTED) ? "preempted" :
				    "blocked", "left CPU %d: %s (for %s[%d])",
				    (int)e->cpu, how_left(e->state),
				    str_of(tr, e->s2), (int)e->c);
				st = state_name(e->state);
				cur = strcmp(st, "runnable") == 0 ?
				    SEG_QUEUED : SEG_NOTRUN;
				if (cur == SEG_NOTRUN)
					snprintf(as->state, sizeof(as->state),
					    "%s", st);
				from = e->ts;
			}
			break;
		default:
			break;
		}
	}
	if (nseg < 64)
		segs[nseg++] = (struct seg){ cur, cpu, from, as->wake, 0 };
	add_tl(as, as->s.latency, as->run_cpu >= 0 ? as->run_cpu : as->s.cpu,
	    "stamp", "the %s stamps its wake-up: latency %.3f us",
	    as->timer ? "parent" : "client", (double)as->s.latency /
	    NSEC_PER_USEC);
	as->found = seen;
	if (!seen) {
		as->complete = 0;
		if (as->lost_note[0] == '\0')
			snprintf(as->lost_note, sizeof(as->lost_note), "the "
			    "trace has no wake-up of pid %d in the window",
			    (int)pid);
		snprintf(as->verdict, sizeof(as->verdict), "no verdict: %s",
		    as->lost_note);
		return;
	}

	for (i = 0; i < nseg; i++) {
		if (segs[i].b <= segs[i].a)
			continue;
		sum[segs[i].kind] += segs[i].b - segs[i].a;
		switch (segs[i].kind) {
		case SEG_ISSUE:
			if (as->waker_cpu >= 0)
				irqs_on(tr, as, as->waker_cpu, segs[i].a,
				    segs[i].b);
			break;
		case SEG_FLIGHT:
		case SEG_QUEUED:
			/* In flight then queued on one CPU: one stretch. */
			if (i + 1 < nseg && segs[i + 1].cpu == segs[i].cpu &&
			    (segs[i + 1].kind == SEG_FLIGHT ||
			    segs[i + 1].kind == SEG_QUEUED) &&
			    segs[i + 1].a == segs[i].b) {
				segs[i + 1].from_merge = segs[i].from_merge ?
				    segs[i].from_merge : segs[i].a;
				break;
			}
			if (segs[i].cpu >= 0) {
				from = segs[i].from_merge ? segs[i].from_merge :
				    segs[i].a;
				who_ran(tr, as, segs[i].cpu, from, segs[i].b);
				irqs_on(tr, as, segs[i].cpu, from, segs[i].b);
			}
			break;
		case SEG_RUNNING:
			if (segs[i].cpu >= 0)
				irqs_on(tr, as, segs[i].cpu, segs[i].a,
				    segs[i].b);
			break;
		default:
			break;
		}
	}
	as->issue = sum[SEG_ISSUE];
	as->not_runnable = sum[SEG_NOTRUN];
	as->in_flight = sum[SEG_FLIGHT];
	as->rq_wait = sum[SEG_QUEUED];
	as->running = sum[SEG_RUNNING];
	if (as->ran != NULL)
		qsort(as->ran, as->nran, sizeof(*as->ran), cmp_ran);
	verdict(as);
}
