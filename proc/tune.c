/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Placement and priority of latt's own processes: the timer slack, memory
 * locking, CPU pinning and scheduling attributes of the parent and the
 * clients, and a record of the scheduler they run under.
 *
 * Scheduling attributes (a class's, or --policy, --prio and --nice) are
 * set with the raw sched_setattr system call and read back with
 * sched_getattr.  They are tried in a throw-away child before the run, so
 * that a refusal (no privilege, an RLIMIT, no RT budget, deadline
 * admission control, a slice the kernel clamps or ignores) ends latt
 * before anything starts, with a message naming the cause.  The workload
 * is left as it was inherited: its timer slack is given back.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "lib/common.h"
#include "proc/proc.h"
#include "proc/tune.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

/* Stack touched with --mlock, within a quarter of its limit (prefault). */
#define PREFAULT_STACK	(128 * 1024)
#define CAP_SYS_NICE_BIT	23
#define PARENT_WHAT	\
	"sched_setscheduler (latt's own policy, see --parent-prio)"
#define DMA_PATH	"/dev/cpu_dma_latency"

/*
 * struct sched_attr of sched_setattr(2), SCHED_ATTR_SIZE_VER0 (48 bytes,
 * Linux 3.14): latt's own copy, since libc has no wrapper.  A fair task's
 * sched_runtime is its slice (EEVDF, Linux 6.12 and later).
 */
struct attr {
	uint32_t	 size;
	uint32_t	 sched_policy;
	uint64_t	 sched_flags;
	int32_t		 sched_nice;
	uint32_t	 sched_priority;
	uint64_t	 sched_runtime;
	uint64_t	 sched_deadline;
	uint64_t	 sched_period;
};

#define FLAG_RESET_ON_FORK	0x01
#define PROBE_MSG	512
#define DL_RETRY_NS	(1 * NSEC_PER_SEC)	/* a probe's bandwidth */

/* What the probe child says: 0, or an errno and a one-line message. */
struct probe_reply {
	int		 err;
	char		 msg[PROBE_MSG];
};

/* One probe thread: a class's attributes tried on itself. */
struct probe_task {
	const struct sched_req *req;
	const int	*cpus;		/* the CPU to pin to first, or NULL */
	int		 release;	/* read end: exit when it closes */
	sem_t		*done;
	int		 err;
	const char	*what;
	struct sched_got got;
	int		 cur_nice;	/* before the change */
	pthread_t	 thread;
};

static void	 prefault(void) __attribute__((noinline));
static void	 client_req(const struct config *, unsigned,
		    struct sched_req *);
static int	 wants_sched(const struct sched_req *);
static int	 apply_sched(const struct sched_req *, const char **,
		    struct sched_got *, int *);
static int	 got_differs(const struct sched_req *,
		    const struct sched_got *);
static int	 fair_policy(int);
static void	 fill_got(struct sched_got *, const struct attr *);
static long	 sys_sched_getattr(struct attr *);
static void	 probe(const struct config *, struct probe_reply *);
static void	*probe_thread(void *);
static void	 say_refused(char *, size_t, const struct sched_req *, unsigned,
		    const struct probe_task *);
static int	 has_cap_sys_nice(void);
static long long cgroup_rt_runtime(void);

int
tune_check(const struct config *cfg)
{
	struct probe_reply r;
	int fd[2], st;
	size_t got;
	ssize_t n;
	pid_t pid;
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		if (wants_sched(&cfg->classes[i].sched))
			break;
	if ((cfg->nclasses == 0 ? cfg->policy == -1 && !cfg->set_nice &&
	    cfg->slice == 0 :
	    i == cfg->nclasses) && cfg->parent_policy == -1)
		return 0;
	if (pipe2(fd, O_CLOEXEC) == -1) {
		lwarn("pipe");
		return -2;
	}
	if ((pid = proc_fork(fd)) == -1) {
		lwarn("fork of the scheduling probe");
		return -2;
	}
	if (pid == 0) {
		close(fd[0]);
		memset(&r, 0, sizeof(r));
		probe(cfg, &r);
		(void)!write(fd[1], &r, sizeof(r));
		_exit(0);
	}
	close(fd[1]);
	for (got = 0; got < sizeof(r); got += (size_t)n)
		if ((n = read(fd[0], (char *)&r + got, sizeof(r) - got)) <= 0 &&
		    !(n == -1 && errno == EINTR))
			break;
		else if (n == -1)
			n = 0;
	close(fd[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	if (got != sizeof(r)) {
		lwarnx("the scheduling probe died");
		return -2;
	}
	if (r.err == 0)
		return 0;
	r.msg[sizeof(r.msg) - 1] = '\0';
	lwarnx("%s", r.msg);
	return -1;
}

/*
 * In the probe child: one thread per class (per client of a deadline
 * class), each pinned like the class's first client, then set and read
 * back.  The threads of deadline classes hold their bandwidth until every
 * class is tried.  The first refusal is explained into r.
 */
static void
probe(const struct config *cfg, struct probe_reply *r)
{
	struct client_class one, *cl;
	struct probe_task *t, parent;
	struct sched_req preq;
	unsigned k, j, ncls, nt = 0, cap = 0;
	int rel[2];
	sem_t done;
	size_t off;

	memset(&one, 0, sizeof(one));
	if (cfg->nclasses == 0) {
		one.n = 1;
		client_req(cfg, 0, &one.sched);
		one.cpus = cfg->cpus;
		one.ncpus = cfg->ncpus;
	}
	ncls = cfg->nclasses == 0 ? 1 : cfg->nclasses;
	for (k = 0; k < ncls; k++) {
		cl = cfg->nclasses == 0 ? &one : &cfg->classes[k];
		if (wants_sched(&cl->sched))
			cap += cl->sched.policy == SCHED_DEADLINE ? cl->n : 1;
	}
	if (pipe(rel) == -1 || sem_init(&done, 0, 0) == -1 ||
	    (t = calloc(cap > 0 ? cap : 1, sizeof(*t))) == NULL) {
		r->err = errno;
		snprintf(r->msg, sizeof(r->msg), "scheduling probe: %s",
		    strerror(errno));
		return;
	}
	for (k = 0; k < ncls && r->err == 0; k++) {
		cl = cfg->nclasses == 0 ? &one : &cfg->classes[k];
		if (!wants_sched(&cl->sched))
			continue;
		for (j = 0; j < (cl->sched.policy == SCHED_DEADLINE ? cl->n :
		    1); j++) {
			t[nt].req = &cl->sched;
			t[nt].release = rel[0];
			t[nt].done = &done;
			t[nt].cpus = cl->ncpus > 0 ? cl->cpus : cfg->ncpus > 0 ?
			    &cfg->cpus[cl->first % cfg->ncpus] : NULL;
			if ((errno = pthread_create(&t[nt].thread, NULL,
			    probe_thread, &t[nt])) != 0) {
				r->err = errno;
				snprintf(r->msg, sizeof(r->msg), "scheduling "
				    "probe: pthread_create: %s",
				    strerror(errno));
				break;
			}
			while (sem_wait(&done) == -1 && errno == EINTR)
				;
			nt++;
			if (t[nt - 1].err == 0)
				continue;
			r->err = t[nt - 1].err;
			off = 0;
			if (cfg->nclasses > 0)
				off = (size_t)snprintf(r->msg, sizeof(r->msg),
				    "class %s (-c%u%s%s): ", cl->name, cl->n,
				    *cl->spec != '\0' ? ":" : "", cl->spec);
			if (off >= sizeof(r->msg))
				off = sizeof(r->msg) - 1;
			say_refused(r->msg + off, sizeof(r->msg) - off,
			    &cl->sched, j, &t[nt - 1]);
			break;
		}
	}
	/* latt's own policy (--parent-prio, or with real-time clients). */
	if (r->err == 0 && tune_sched_parent(cfg) == -1) {
		memset(&parent, 0, sizeof(parent));
		parent.err = r->err = errno;
		parent.what = PARENT_WHAT;
		memset(&preq, 0, sizeof(preq));
		preq.policy = cfg->parent_policy;
		preq.prio = cfg->parent_prio;
		say_refused(r->msg, sizeof(r->msg), &preq, 0, &parent);
	}
	close(rel[1]);
	for (j = 0; j < nt; j++)
		pthread_join(t[j].thread, NULL);
	free(t);
}

/* A probe thread: pin, set, read back, say so, and wait for the end. */
static void *
probe_thread(void *arg)
{
	struct probe_task *t = arg;
	cpu_set_t set;
	char c;

	errno = 0;
	t->cur_nice = getpriority(PRIO_PROCESS, 0);
	if (t->cpus != NULL) {
		CPU_ZERO(&set);
		CPU_SET(t->cpus[0], &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1) {
			t->err = errno;
			t->what = "sched_setaffinity";
		}
	}
	if (t->err == 0 && apply_sched(t->req, &t->what, &t->got, NULL) == -1)
		t->err = errno;
	sem_post(t->done);
	/* A deadline thread keeps its bandwidth until the probe ends. */
	while (read(t->release, &c, 1) == -1 && errno == EINTR)
		;
	return NULL;
}

int
tune_parent(const struct config *cfg, unsigned long *slack)
{
	/* What the workload is to get back: latt's own is 1 ns. */
	*slack = (unsigned long)prctl(PR_GET_TIMERSLACK, 0, 0,
	    0, 0);
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == -1)
		lwarnx("prctl PR_SET_TIMERSLACK: %s (sleeps may be rounded up)",
		    strerror(errno));
	if (!cfg->mlock)
		return 0;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
		lwarnx("mlockall: %s (%s)", strerror(errno),
		    errno == ENOMEM || errno == EPERM ? "RLIMIT_MEMLOCK, "
		    "ulimit -l, is too low, or CAP_IPC_LOCK is missing" :
		    "--mlock");
		return -1;
	}
	prefault();
	return 0;
}

int
tune_pin_parent(const struct config *cfg)
{
	cpu_set_t set;

	if (cfg->parent_cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cfg->parent_cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int
tune_sched_parent(const struct config *cfg)
{
	struct sched_param sp;

	if (cfg->parent_policy == -1)
		return 0;
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = cfg->parent_prio;
	return sched_setscheduler(0, cfg->parent_policy | SCHED_RESET_ON_FORK,
	    &sp);
}

int
tune_dma_open(const struct config *cfg)
{
	int32_t v = cfg->dma_latency;
	int fd;

	if (cfg->dma_latency < 0)
		return -2;
	if ((fd = open(DMA_PATH, O_WRONLY | O_CLOEXEC)) == -1) {
		lwarnx("%s: %s (--dma-latency%s)", DMA_PATH, strerror(errno),
		    errno == EACCES || errno == EPERM ?
		    " needs root" : "");
		return -1;
	}
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		lwarnx("%s: write: %s (--dma-latency)", DMA_PATH,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
tune_client(const struct config *cfg, unsigned idx, const char **what,
    struct sched_got *got)
{
	const struct client_class *cl = NULL;
	struct sched_req req;
	struct attr a;
	cpu_set_t set;
	int cpu = -1;

	if (cfg->mlock) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
			*what = "mlockall";
			return -1;
		}
		prefault();
	}
	if (cfg->nclasses > 0)
		cl = &cfg->classes[cfg->class_of[idx]];
	if (cl != NULL && cl->ncpus > 0)
		cpu = cl->cpus[(idx - cl->first) % cl->ncpus];
	else if (cfg->ncpus > 0)
		cpu = cfg->cpus[idx % cfg->ncpus];
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1) {
			*what = "sched_setaffinity";
			return -1;
		}
	}
	client_req(cfg, idx, &req);
	if (wants_sched(&req))
		return apply_sched(&req, what, got, &(int){ 1 });
	/* Nothing to set: what the client runs with is still worth saying. */
	if (sys_sched_getattr(&a) == 0)
		fill_got(got, &a);
	return 0;
}

/* The scheduling client idx asks for: its class's, or the options'. */
static void
client_req(const struct config *cfg, unsigned idx, struct sched_req *r)
{
	if (cfg->nclasses > 0) {
		*r = cfg->classes[cfg->class_of[idx]].sched;
		return;
	}
	memset(r, 0, sizeof(*r));
	r->policy = cfg->policy;
	r->prio = cfg->prio;
	r->nice = cfg->nice;
	r->set_nice = cfg->set_nice;
	r->slice = cfg->slice;
}

/* Whether a request changes anything at all. */
static int
wants_sched(const struct sched_req *r)
{
	return r->policy != -1 || r->set_nice || r->slice > 0;
}

/*
 * Touches the stack pages below the caller's, so that they are mapped (and
 * locked) before the loop runs: PREFAULT_STACK, or a quarter of the stack
 * limit when that is less; the rest is for the environment (the kernel
 * allows it a quarter) and the frames above (some 80 KiB in a client).
 * Its own frame, never a caller's: 128 KiB in every caller's frame, used
 * or not, crashed latt and its clients under ulimit -s 160 (SIGSEGV).
 */
static void
prefault(void)
{
	struct rlimit rl;
	size_t i, len = PREFAULT_STACK;

	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur / 4 < len)
		len = rl.rlim_cur / 4;
	if (len > 0) {
		char stack[len];
		volatile char *p = stack;

		for (i = 0; i < len; i += 1024)
			p[i] = 0;
	}
}

static int
fair_policy(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_BATCH ||
	    policy == SCHED_IDLE;
}

static long
sys_sched_getattr(struct attr *a)
{
	memset(a, 0, sizeof(*a));
	return syscall(SYS_sched_getattr, 0, a, sizeof(*a), 0);
}

/*
 * Sets the calling thread's scheduling with sched_setattr: what the
 * request leaves out is kept from sched_getattr (the inherited policy, a
 * nice value, a slice), then reads it back into *got and checks that the
 * kernel kept what was asked (it clamps a slice silently, and kernels
 * before 6.12 ignore one).  retry_busy: a deadline client retries EBUSY
 * for up to DL_RETRY_NS while the probe's bandwidth is given back.
 * Returns 0, or -1 with errno set and *what naming the call.
 */
static int
apply_sched(const struct sched_req *r, const char **what,
    struct sched_got *got, int *retry_busy)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	struct attr a;
	int64_t giveup = 0;
	long k;

	if (sys_sched_getattr(&a) == -1) {
		*what = "sched_getattr";
		return -1;
	}
	a.sched_flags &= FLAG_RESET_ON_FORK;
	if (r->policy != -1) {
		a.sched_policy = (uint32_t)r->policy;
		a.sched_priority = r->policy == SCHED_FIFO ||
		    r->policy == SCHED_RR ? (uint32_t)r->prio : 0;
	}
	/* sched_runtime 0 keeps a fair task's slice as it is. */
	a.sched_runtime = a.sched_deadline = a.sched_period = 0;
	if (r->set_nice)
		a.sched_nice = r->nice;
	if (r->slice > 0)
		a.sched_runtime = (uint64_t)r->slice;
	if (r->policy == SCHED_DEADLINE) {
		a.sched_runtime = (uint64_t)r->runtime;
		a.sched_deadline = (uint64_t)r->deadline;
		a.sched_period = (uint64_t)r->period;
	}
	a.size = sizeof(a);
	while ((k = syscall(SYS_sched_setattr, 0, &a, 0)) == -1 &&
	    errno == EBUSY &&
	    retry_busy != NULL && r->policy == SCHED_DEADLINE) {
		if (giveup == 0)
			giveup = now_ns() + DL_RETRY_NS;
		else if (now_ns() > giveup)
			break;
		nanosleep(&ms, NULL);
	}
	if (k == -1) {
		*what = "sched_setattr";
		return -1;
	}
	/* A real-time policy keeps nice apart from sched_attr. */
	if (r->set_nice && !fair_policy((int)a.sched_policy) &&
	    a.sched_policy != SCHED_DEADLINE &&
	    setpriority(PRIO_PROCESS, 0, r->nice) == -1) {
		*what = "setpriority";
		return -1;
	}
	if (sys_sched_getattr(&a) == -1) {
		*what = "sched_getattr";
		return -1;
	}
	if (got != NULL) {
		fill_got(got, &a);
		if (got_differs(r, got)) {
			errno = EINVAL;
			*what = "sched_getattr (the kernel changed the "
			    "attributes set)";
			return -1;
		}
	}
	return 0;
}

/* The kernel's attributes of the calling thread, as a struct sched_got. */
static void
fill_got(struct sched_got *got, const struct attr *a)
{
	got->valid = 1;
	got->policy = (int)a->sched_policy;
	got->prio = (int)a->sched_priority;
	got->nice = fair_policy((int)a->sched_policy) ? a->sched_nice :
	    getpriority(PRIO_PROCESS, 0);
	got->runtime = a->sched_runtime;
	got->deadline = a->sched_deadline;
	got->period = a->sched_period;
}

/* Whether the kernel's read-back differs from the request. */
static int
got_differs(const struct sched_req *r, const struct sched_got *g)
{
	if (r->policy != -1 && g->policy != r->policy)
		return 1;
	if ((r->policy == SCHED_FIFO || r->policy == SCHED_RR) &&
	    g->prio != r->prio)
		return 1;
	if (r->set_nice && g->nice != r->nice)
		return 1;
	if (r->slice > 0 && g->runtime != (uint64_t)r->slice)
		return 1;
	if (r->policy == SCHED_DEADLINE &&
	    (g->runtime != (uint64_t)r->runtime ||
	    g->deadline != (uint64_t)r->deadline ||
	    g->period != (uint64_t)r->period))
		return 1;
	return 0;
}

/*
 * Says in buf, in one line, what refused a request and why: the limit
 * (RLIMIT_RTPRIO, RLIMIT_NICE, CAP_SYS_NICE, RT throttling, a cgroup
 * without RT budget), deadline admission control, or a slice the kernel
 * clamped or ignored.  nth: which client of the class it was.
 */
static void
say_refused(char *buf, size_t len, const struct sched_req *r, unsigned nth,
    const struct probe_task *t)
{
	const struct sched_got *g = &t->got;
	struct rlimit rl;
	int rt = r->policy == SCHED_FIFO || r->policy == SCHED_RR;
	int e = t->err, cap = has_cap_sys_nice();
	long long rtr, rtp;
	long ncpu;

	if (t->what != NULL && strncmp(t->what, "sched_getattr (", 15) == 0) {
		if (r->slice > 0 && g->runtime == 0)
			snprintf(buf, len, "slice %.3f us: this kernel ignores "
			    "a fair task's slice (it reads back 0); custom "
			    "slices need Linux 6.12 or later",
			    (double)r->slice / NSEC_PER_USEC);
		else if (r->slice > 0 && g->runtime != (uint64_t)r->slice)
			snprintf(buf, len, "slice %.3f us is %s the kernel's "
			    "%s: it read back %.3f us",
			    (double)r->slice / NSEC_PER_USEC,
			    g->runtime > (uint64_t)r->slice ? "below" : "above",
			    g->runtime > (uint64_t)r->slice ? "minimum" :
			    "maximum", (double)g->runtime / NSEC_PER_USEC);
		else
			snprintf(buf, len, "the kernel did not keep the "
			    "attributes: it read back policy %s, priority %d, "
			    "nice %d, runtime %llu ns, deadline %llu ns, "
			    "period %llu ns", config_policy_name(g->policy),
			    g->prio, g->nice, (unsigned long long)g->runtime,
			    (unsigned long long)g->deadline,
			    (unsigned long long)g->period);
		return;
	}
	if (r->policy == SCHED_DEADLINE && e == EBUSY) {
		rtr = file_ll("/proc/sys/kernel/sched_rt_runtime_us");
		rtp = file_ll("/proc/sys/kernel/sched_rt_period_us");
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		snprintf(buf, len, "sched_setattr: %s: SCHED_DEADLINE "
		    "admission control refused client %u of the class: each "
		    "takes runtime/period = %.1f%% of a CPU, and deadline "
		    "tasks may take at most %.0f%% of each of %ld CPUs "
		    "(sched_rt_runtime_us/sched_rt_period_us), less what other "
		    "deadline tasks hold", strerror(e), nth + 1,
		    100.0 * (double)r->runtime / (double)r->period,
		    rtr < 0 ? 100.0 : rtp > 0 ? 100.0 * (double)rtr /
		    (double)rtp : 0.0, ncpu);
		return;
	}
	if (r->policy == SCHED_DEADLINE && e == EPERM && !cap) {
		snprintf(buf, len, "sched_setattr: %s (SCHED_DEADLINE needs "
		    "CAP_SYS_NICE, whatever the limits)", strerror(e));
		return;
	}
	if (e != EPERM && e != EACCES) {
		snprintf(buf, len, "%s: %s", t->what != NULL ? t->what : "?",
		    strerror(e));
		return;
	}
	if (rt && !cap) {
		getrlimit(RLIMIT_RTPRIO, &rl);
		if (rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < (rlim_t)r->prio) {
			snprintf(buf, len, "%s: %s (priority %d is above "
			    "RLIMIT_RTPRIO, %lld: raise it with ulimit -r or "
			    "rtprio in limits.conf, or run with CAP_SYS_NICE)",
			    t->what, strerror(e), r->prio,
			    (long long)rl.rlim_cur);
			return;
		}
	}
	if (r->set_nice && !cap && r->nice < t->cur_nice) {
		getrlimit(RLIMIT_NICE, &rl);
		snprintf(buf, len, "%s: %s (nice %d needs CAP_SYS_NICE or "
		    "RLIMIT_NICE of at least %d, ulimit -e; it is %lld)",
		    t->what, strerror(e), r->nice, 20 - r->nice,
		    rl.rlim_cur == RLIM_INFINITY ? -1LL :
		    (long long)rl.rlim_cur);
		return;
	}
	if (rt && file_ll("/proc/sys/kernel/sched_rt_runtime_us") == 0) {
		snprintf(buf, len, "%s: %s (RT throttling gives no RT time: "
		    "/proc/sys/kernel/sched_rt_runtime_us is 0)", t->what,
		    strerror(e));
		return;
	}
	if (rt && cgroup_rt_runtime() == 0) {
		snprintf(buf, len, "%s: %s (latt's cgroup has no RT budget: "
		    "its cpu.rt_runtime_us is 0)", t->what, strerror(e));
		return;
	}
	snprintf(buf, len, "%s: %s%s", t->what, strerror(e), cap ? "" :
	    " (needs CAP_SYS_NICE)");
}

/* Whether CAP_SYS_NICE is in the effective set (/proc/self/status). */
static int
has_cap_sys_nice(void)
{
	char buf[4096], *p;

	if (proc_read_keyed("/proc/self/status", buf, sizeof(buf)) == -1)
		return geteuid() == 0;
	if ((p = strstr(buf, "\nCapEff:")) == NULL)
		return 0;
	return (strtoull(p + 8, NULL, 16) >> CAP_SYS_NICE_BIT) & 1;
}

/*
 * cpu.rt_runtime_us of latt's cgroup under the cgroup v1 cpu controller
 * (RT group scheduling), or -1 when there is none.
 */
static long long
cgroup_rt_runtime(void)
{
	static const char *const roots[] = { "/sys/fs/cgroup/cpu,cpuacct",
	    "/sys/fs/cgroup/cpu" };
	char line[1024], path[1300], *p;
	long long v = -1;
	size_t i;
	FILE *fp;

	if ((fp = fopen("/proc/self/cgroup", "re")) == NULL)
		return -1;
	while (v == -1 && fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((p = strchr(line, ':')) == NULL)
			continue;
		p++;
		if (strncmp(p, "cpu,cpuacct:", 12) != 0 &&
		    strncmp(p, "cpuacct,cpu:", 12) != 0 &&
		    strncmp(p, "cpu:", 4) != 0)
			continue;
		p = strchr(p, ':') + 1;
		for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
			snprintf(path, sizeof(path), "%s%s/cpu.rt_runtime_us",
			    roots[i], p);
			if ((v = file_ll(path)) != -1)
				break;
		}
	}
	fclose(fp);
	return v;
}

int64_t
tune_own_slice(void)
{
	struct attr a;

	if (sys_sched_getattr(&a) == 0 && fair_policy((int)a.sched_policy) &&
	    a.sched_runtime > 0)
		return (int64_t)a.sched_runtime;
	return -1;
}
