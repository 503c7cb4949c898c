/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Placement and priority of latt's own processes: the timer slack, memory
 * locking, CPU pinning and scheduling policy of the parent and the clients.
 *
 * A policy, priority or nice value is tried in a throw-away child before
 * the run, so that a refusal (no privilege, an RLIMIT, no RT budget) ends
 * latt before anything starts, with a message naming the limit.  The
 * workload is left as it was inherited: its timer slack is given back.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latt.h"

#define PREFAULT_STACK	(128 * 1024)
#define CAP_SYS_NICE_BIT	23
#define PARENT_WHAT	"sched_setscheduler (latt's own policy, see --parent-prio)"
#define DMA_PATH	"/dev/cpu_dma_latency"

static void	 prefault(volatile char *, size_t);
static int	 set_parent_sched(const struct config *);
static int	 apply_sched(const struct config *, const char **);
static void	 explain_refusal(const struct config *, const char *, int);
static int	 has_cap_sys_nice(void);
static long long read_ll(const char *);
static long long cgroup_rt_runtime(void);

/*
 * Tries the clients' policy, priority and nice value in a child, before
 * the run.  Returns 0, or -1 after saying on stderr which limit refused.
 */
int
tune_check(const struct config *cfg)
{
	struct { int err; const char *what; } r;
	const char *what;
	int fd[2], st;
	ssize_t n;
	pid_t pid;

	if (cfg->policy == -1 && !cfg->set_nice && cfg->parent_policy == -1)
		return 0;
	if (pipe2(fd, O_CLOEXEC) == -1) {
		fprintf(stderr, "latt: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		fprintf(stderr, "latt: fork: %s\n", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		r.err = 0;
		r.what = NULL;
		if (apply_sched(cfg, &what) == -1) {
			r.err = errno;
			r.what = what;
		} else if (set_parent_sched(cfg) == -1) {
			r.err = errno;
			r.what = PARENT_WHAT;
		}
		(void)!write(fd[1], &r, sizeof(r));
		_exit(0);
	}
	close(fd[1]);
	while ((n = read(fd[0], &r, sizeof(r))) == -1 && errno == EINTR)
		;
	close(fd[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	if (n != sizeof(r)) {
		fprintf(stderr, "latt: the scheduling probe died\n");
		return -1;
	}
	if (r.err == 0)
		return 0;
	explain_refusal(cfg, r.what, r.err);
	return -1;
}

/*
 * The parent, before the clients start: a timer slack of 1 ns, so that
 * SCHED_OTHER sleeps are not rounded up by the default 50 us (the clients
 * inherit it), and with --mlock all memory locked and the stack touched.
 * Returns 0, or -1 after saying why on stderr.
 */
int
tune_parent(const struct config *cfg)
{
	volatile char stack[PREFAULT_STACK];

	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == -1)
		fprintf(stderr, "latt: prctl PR_SET_TIMERSLACK: %s "
		    "(sleeps may be rounded up)\n", strerror(errno));
	if (!cfg->mlock)
		return 0;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
		fprintf(stderr, "latt: mlockall: %s (%s)\n", strerror(errno),
		    errno == ENOMEM || errno == EPERM ? "RLIMIT_MEMLOCK, "
		    "ulimit -l, is too low, or CAP_IPC_LOCK is missing" :
		    "--mlock");
		return -1;
	}
	prefault(stack, sizeof(stack));
	return 0;
}

/*
 * Pins the parent to --parent-cpu.  Called once the clients and the
 * workload have started, so that neither inherits the pin.
 */
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

/*
 * The parent's own policy (--parent-prio, or the default that goes with
 * real-time clients).  Called once the clients and the workload have
 * started, so that neither inherits it; SCHED_RESET_ON_FORK keeps it from
 * anything latt forks later.  Returns 0, or -1 with errno set.
 */
int
tune_sched_parent(const struct config *cfg)
{
	return set_parent_sched(cfg);
}

static int
set_parent_sched(const struct config *cfg)
{
	struct sched_param sp;

	if (cfg->parent_policy == -1)
		return 0;
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = cfg->parent_prio;
	return sched_setscheduler(0, cfg->parent_policy | SCHED_RESET_ON_FORK,
	    &sp);
}

/*
 * --dma-latency=US: opens /dev/cpu_dma_latency and writes US, which the
 * kernel's PM QoS holds for as long as the descriptor stays open (as
 * cyclictest does).  Returns the descriptor, -2 when not asked for, or -1
 * after saying why on stderr.
 */
int
tune_dma_open(const struct config *cfg)
{
	int32_t v = cfg->dma_latency;
	int fd;

	if (cfg->dma_latency < 0)
		return -2;
	if ((fd = open(DMA_PATH, O_WRONLY | O_CLOEXEC)) == -1) {
		fprintf(stderr, "latt: %s: %s (--dma-latency%s)\n", DMA_PATH,
		    strerror(errno), errno == EACCES || errno == EPERM ?
		    " needs root" : "");
		return -1;
	}
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		fprintf(stderr, "latt: %s: write: %s (--dma-latency)\n",
		    DMA_PATH, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * In client idx, before it says it is ready: memory lock, CPU, nice and
 * policy.  Returns 0, or -1 with errno set and *what naming the call.
 */
int
tune_client(const struct config *cfg, unsigned idx, const char **what)
{
	volatile char stack[PREFAULT_STACK];
	cpu_set_t set;

	if (cfg->mlock) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
			*what = "mlockall";
			return -1;
		}
		prefault(stack, sizeof(stack));
	}
	if (cfg->ncpus > 0) {
		CPU_ZERO(&set);
		CPU_SET(cfg->cpus[idx % cfg->ncpus], &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1) {
			*what = "sched_setaffinity";
			return -1;
		}
	}
	return apply_sched(cfg, what);
}

/* In the workload, before exec: the timer slack latt inherited. */
void
tune_workload(const struct config *cfg)
{
	prctl(PR_SET_TIMERSLACK, cfg->inherited_slack, 0, 0, 0);
}

/* Touches every page of a stack buffer, so that it is mapped (and locked). */
static void
prefault(volatile char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 1024)
		p[i] = 0;
}

static int
apply_sched(const struct config *cfg, const char **what)
{
	struct sched_param sp;

	if (cfg->set_nice && setpriority(PRIO_PROCESS, 0, cfg->nice) == -1) {
		*what = "setpriority";
		return -1;
	}
	if (cfg->policy == -1)
		return 0;
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = cfg->prio;
	if (sched_setscheduler(0, cfg->policy, &sp) == -1) {
		*what = "sched_setscheduler";
		return -1;
	}
	return 0;
}

/* Says on stderr, in one line, which limit refused the settings. */
static void
explain_refusal(const struct config *cfg, const char *what, int e)
{
	struct rlimit rl;
	long long v;
	int rt = cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR;
	int prio = cfg->prio;

	if (what != NULL && strcmp(what, PARENT_WHAT) == 0) {
		rt = cfg->parent_policy == SCHED_FIFO;
		prio = cfg->parent_prio;
	}

	if (what == NULL)
		what = "?";
	fprintf(stderr, "latt: %s: %s", what, strerror(e));
	if (e != EPERM && e != EACCES) {
		fputc('\n', stderr);
		return;
	}
	if (strcmp(what, "setpriority") == 0) {
		getrlimit(RLIMIT_NICE, &rl);
		fprintf(stderr, " (nice %d needs CAP_SYS_NICE or RLIMIT_NICE "
		    "of at least %d, ulimit -e; it is %lld)\n", cfg->nice,
		    20 - cfg->nice, rl.rlim_cur == RLIM_INFINITY ? -1LL :
		    (long long)rl.rlim_cur);
		return;
	}
	if (rt && !has_cap_sys_nice()) {
		getrlimit(RLIMIT_RTPRIO, &rl);
		if (rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < (rlim_t)prio) {
			fprintf(stderr, " (priority %d is above RLIMIT_RTPRIO, "
			    "%lld: raise it with ulimit -r or rtprio in "
			    "limits.conf, or run with CAP_SYS_NICE)\n",
			    prio, (long long)rl.rlim_cur);
			return;
		}
	}
	if (rt && (v = read_ll("/proc/sys/kernel/sched_rt_runtime_us")) == 0) {
		fprintf(stderr, " (RT throttling gives no RT time: "
		    "/proc/sys/kernel/sched_rt_runtime_us is 0)\n");
		return;
	}
	if (rt && cgroup_rt_runtime() == 0) {
		fprintf(stderr, " (latt's cgroup has no RT budget: its "
		    "cpu.rt_runtime_us is 0)\n");
		return;
	}
	if (!has_cap_sys_nice()) {
		fprintf(stderr, " (needs CAP_SYS_NICE)\n");
		return;
	}
	fputc('\n', stderr);
}

/* Whether CAP_SYS_NICE is in the effective set (/proc/self/status). */
static int
has_cap_sys_nice(void)
{
	char line[256];
	unsigned long long caps;
	FILE *fp;
	int yes = 0;

	if ((fp = fopen("/proc/self/status", "re")) == NULL)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			yes = (caps >> CAP_SYS_NICE_BIT) & 1;
			break;
		}
	fclose(fp);
	return yes;
}

/* The number a one-number file holds, or -1. */
static long long
read_ll(const char *path)
{
	long long v;
	FILE *fp;
	int k;

	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	k = fscanf(fp, "%lld", &v);
	fclose(fp);
	return k == 1 ? v : -1;
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
			if ((v = read_ll(path)) != -1)
				break;
		}
	}
	fclose(fp);
	return v;
}
