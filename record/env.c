/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.c: what latt records of the machine and kernel a run took place on
 * (env.h): the kernel, the CPU, the scheduler in use and its knobs, and
 * what can change under a run (the clocksource, cpufreq governors, SMT).
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/common.h"
#include "proc/tune.h"
#include "record/env.h"

#define CPU_SYS		"/sys/devices/system/cpu/"
#define THP_SYS		"/sys/kernel/mm/transparent_hugepage/"
#define SCHED_DEBUGFS	"/sys/kernel/debug/sched/"
#define HOST_MAX_TUN	256		/* tunables kept, at most */
#define HOST_MAX_VALUE	1024	/* bytes of a tunable's value kept */

static char	*cpu_model(void);
static char	*virtualization(void);
static char	*preemption_model(const struct utsname *);
static char	*cpufreq_governors(void);
static void	 host_read(struct host *);
static void	 host_free(struct host *);
static char	*text_or_empty(const char *);
static char	*bracketed(const char *);
static char	*idle_states(void);
static void	 add_tunables(struct host *, const char *, const char *,
		    const char *);
static int	 by_name(const void *, const void *);

void
env_read(struct environment *e, unsigned long slack)
{
	struct utsname u;
	char host[256];

	memset(e, 0, sizeof(*e));
	if (uname(&u) == 0) {
		e->kernel_release = strdup(u.release);
		e->kernel_version = strdup(u.version);
		e->arch = strdup(u.machine);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		e->hostname = strdup(host);
	}
	e->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	if (e->cpus_online <= 0)
		e->cpus_online = -1;
	e->cmdline = file_text("/proc/cmdline");
	e->cpu_model = cpu_model();
	e->virtualization = virtualization();
	e->timer_slack = slack;
	host_read(&e->host);
}

void
env_free(struct environment *e)
{
	free(e->kernel_release);
	free(e->kernel_version);
	free(e->arch);
	free(e->hostname);
	free(e->cmdline);
	free(e->cpu_model);
	free(e->virtualization);
	host_free(&e->host);
	memset(e, 0, sizeof(*e));
}

/* The first "model name" of /proc/cpuinfo, or NULL. */
static char *
cpu_model(void)
{
	char *info, *p, *e;

	if ((info = file_text("/proc/cpuinfo")) == NULL)
		return NULL;
	p = strstr(info, "model name");
	if (p == NULL || (p = strchr(p, ':')) == NULL) {
		free(info);
		return NULL;
	}
	p += strspn(p + 1, " \t") + 1;
	if ((e = strchr(p, '\n')) != NULL)
		*e = '\0';
	p = strdup(p);
	free(info);
	return p;
}

/*
 * "hypervisor" when the CPU says it runs under one (the cpuinfo flag),
 * or the type of /sys/hypervisor; "none" otherwise.
 */
static char *
virtualization(void)
{
	char *s, *info;
	int found;

	if ((s = file_text("/sys/hypervisor/type")) != NULL)
		return s;
	if ((info = file_text("/proc/cpuinfo")) == NULL)
		return NULL;
	found = strstr(info, " hypervisor") != NULL;
	free(info);
	return strdup(found ? "hypervisor" : "none");
}

/*
 * The preemption model: debugfs's sched/preempt marks the dynamic model in
 * use with parentheses, as in "none voluntary (full) lazy"; without it the
 * kernel version string says PREEMPT_RT, PREEMPT_DYNAMIC or PREEMPT, and a
 * preempt= on the kernel's command line names a dynamic kernel's mode.
 */
static char *
preemption_model(const struct utsname *u)
{
	char *s, *open, *close, *out = NULL, *cmd, *p;
	const char *v;

	if ((s = file_text("/sys/kernel/debug/sched/preempt")) != NULL) {
		open = strchr(s, '(');
		close = open != NULL ? strchr(open, ')') : NULL;
		if (open != NULL && close != NULL) {
			*close = '\0';
			if (asprintf(&out, "dynamic (%s)", open + 1) == -1)
				out = NULL;
			free(s);
			return out;
		}
		free(s);
	}
	if (u == NULL)
		return NULL;
	if (strstr(u->version, "PREEMPT_RT") != NULL)
		return strdup("rt");
	if (strstr(u->version, "PREEMPT_DYNAMIC") != NULL) {
		cmd = file_text("/proc/cmdline");
		for (p = cmd; p != NULL && (p = strstr(p, "preempt=")) != NULL;
		    p += 8)
			if (p == cmd || p[-1] == ' ') {
				p[8 + strcspn(p + 8, " ")] = '\0';
				if (asprintf(&out, "dynamic (%s, from the "
				    "command line)", p + 8) == -1)
					out = NULL;
				break;
			}
		free(cmd);
		return out != NULL ? out : strdup("dynamic");
	}
	if (strstr(u->version, "PREEMPT_LAZY") != NULL)
		return strdup("lazy");
	for (v = u->version; (v = strstr(v, "PREEMPT")) != NULL; v += 7)
		if (v[7] == ' ' || v[7] == '\0')
			return strdup("full");
	return strdup("none or voluntary");
}

void
env_sched_read(struct sched_info *si)
{
	struct utsname u, *up = NULL;
	struct stat sb;
	char *s;
	int major = 0, minor = 0;

	memset(si, 0, sizeof(*si));
	si->base_slice = -1;
	si->autogroup = -1;
	if (uname(&u) == 0) {
		up = &u;
		if (sscanf(u.release, "%d.%d", &major, &minor) == 2)
			si->fair = major > 6 || (major == 6 && minor >= 6) ?
			    "EEVDF" : "CFS";
	}
	si->ext_present = stat("/sys/kernel/sched_ext", &sb) == 0;
	if (si->ext_present) {
		si->ext_state = file_text("/sys/kernel/sched_ext/state");
		si->ext_ops = file_text("/sys/kernel/sched_ext/root/ops");
	}
	si->preemption = preemption_model(up);
	if ((s = file_text("/sys/kernel/debug/sched/base_slice_ns")) != NULL) {
		si->base_slice = strtoll(s, NULL, 10);
		si->base_slice_debugfs = 1;
		free(s);
	} else
		si->base_slice = tune_own_slice();
	si->features = file_text("/sys/kernel/debug/sched/features");
	si->autogroup =
	    (int)file_ll("/proc/sys/kernel/sched_autogroup_enabled");
}

void
env_sched_free(struct sched_info *si)
{
	free(si->ext_state);
	free(si->ext_ops);
	free(si->preemption);
	free(si->features);
	si->ext_state = si->ext_ops = si->preemption = si->features = NULL;
}

/*
 * The cpufreq governors of the CPUs, each once in the order first seen
 * ("performance" or "schedutil,performance"); NULL without cpufreq.
 */
static char *
cpufreq_governors(void)
{
	char path[96], *g, *out = NULL, *n;
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < ncpu && cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/"
		    "cpufreq/scaling_governor", cpu);
		if ((g = file_text(path)) == NULL)
			continue;
		if (out == NULL)
			out = g;
		else {
			if (strstr(out, g) == NULL &&
			    asprintf(&n, "%s,%s", out, g) != -1) {
				free(out);
				out = n;
			}
			free(g);
		}
	}
	return out;
}

void
env_machine_read(struct machine *m)
{
	m->clocksource = file_text("/sys/devices/system/clocksource/"
	    "clocksource0/current_clocksource");
	m->governor = cpufreq_governors();
	m->smt = file_text("/sys/devices/system/cpu/smt/control");
}

void
env_machine_copy(struct machine *to, const struct machine *from)
{
	to->clocksource = from->clocksource != NULL ?
	    strdup(from->clocksource) : NULL;
	to->governor = from->governor != NULL ? strdup(from->governor) : NULL;
	to->smt = from->smt != NULL ? strdup(from->smt) : NULL;
}

void
env_machine_free(struct machine *m)
{
	free(m->clocksource);
	free(m->governor);
	free(m->smt);
	m->clocksource = m->governor = m->smt = NULL;
}

const char *
env_machine_changed(const struct machine *a, const struct machine *b,
    const char **was, const char **now, unsigned *i)
{
	const char *names[] = { "clocksource", "cpufreq governor", "smt" };
	const char *va[] = { a->clocksource, a->governor, a->smt };
	const char *vb[] = { b->clocksource, b->governor, b->smt };

	for (; *i < 3; (*i)++) {
		if (va[*i] == NULL && vb[*i] == NULL)
			continue;
		if (va[*i] != NULL && vb[*i] != NULL &&
		    strcmp(va[*i], vb[*i]) == 0)
			continue;
		*was = va[*i] != NULL ? va[*i] : "none";
		*now = vb[*i] != NULL ? vb[*i] : "none";
		return names[(*i)++];
	}
	return NULL;
}

/* A file's text, "" when it exists empty, NULL when it cannot be read. */
static char *
text_or_empty(const char *path)
{
	char *s;

	if (access(path, R_OK) == -1)
		return NULL;
	return (s = file_text(path)) != NULL ? s : strdup("");
}

/* The word in brackets of "always [madvise] never", or the text. */
static char *
bracketed(const char *path)
{
	char *s, *open, *close;

	if ((s = file_text(path)) == NULL)
		return NULL;
	if ((open = strchr(s, '[')) == NULL ||
	    (close = strchr(open, ']')) == NULL)
		return s;
	*close = '\0';
	memmove(s, open + 1, (size_t)(close - open));
	return s;
}

/* CPU 0's idle states with their exit latencies: "POLL:0us C1:2us". */
static char *
idle_states(void)
{
	char path[128], *name, *lat, *out = NULL, *n;
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), CPU_SYS "cpu0/cpuidle/state%d/"
		    "name", i);
		if ((name = file_text(path)) == NULL)
			break;
		snprintf(path, sizeof(path), CPU_SYS "cpu0/cpuidle/state%d/"
		    "latency", i);
		lat = file_text(path);
		if (asprintf(&n, "%s%s%s:%sus", out != NULL ? out : "",
		    out != NULL ? " " : "", name, lat != NULL ? lat : "?") ==
		    -1)
			n = NULL;
		free(name);
		free(lat);
		free(out);
		if ((out = n) == NULL)
			break;
	}
	return out;
}

/* Adds the one-line regular files of dir as "prefix.NAME" tunables. */
static void
add_tunables(struct host *h, const char *dir, const char *match,
    const char *prefix)
{
	char path[512], *v, *p;
	struct host_item *t;
	struct dirent *d;
	struct stat sb;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL && h->ntun < HOST_MAX_TUN) {
		if (d->d_name[0] == '.' || strncmp(d->d_name, match,
		    strlen(match)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s%s", dir, d->d_name);
		/* debugfs sched/debug is a whole report, not a knob. */
		if (stat(path, &sb) == -1 || !S_ISREG(sb.st_mode) ||
		    strcmp(d->d_name, "debug") == 0 ||
		    (v = text_or_empty(path)) == NULL)
			continue;
		if (strlen(v) > HOST_MAX_VALUE)
			v[HOST_MAX_VALUE] = '\0';
		for (p = v; *p != '\0'; p++)
			if (*p == '\n' || *p == '\t')
				*p = ' ';
		t = realloc(h->tun, (h->ntun + 1) * sizeof(*t));
		if (t == NULL) {
			free(v);
			break;
		}
		h->tun = t;
		t[h->ntun].value = v;
		if (asprintf(&t[h->ntun].name, "%s.%s", prefix, d->d_name) ==
		    -1) {
			free(v);
			break;
		}
		h->ntun++;
	}
	closedir(dp);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct host_item *)a)->name,
	    ((const struct host_item *)b)->name);
}

/*
 * The host's state (struct host); debugfs is read where it is mounted
 * and never mounted.
 */
static void
host_read(struct host *h)
{
	memset(h, 0, sizeof(*h));
	h->thp = bracketed(THP_SYS "enabled");
	h->thp_defrag = bracketed(THP_SYS "defrag");
	h->cpuidle_driver = file_text(CPU_SYS "cpuidle/current_driver");
	h->cpuidle_governor = file_text(CPU_SYS "cpuidle/current_governor");
	if (h->cpuidle_governor == NULL)
		h->cpuidle_governor = file_text(CPU_SYS
		    "cpuidle/current_governor_ro");
	h->cpuidle_states = idle_states();
	h->smt_active = file_text(CPU_SYS "smt/active");
	h->isolated = text_or_empty(CPU_SYS "isolated");
	h->nohz_full = text_or_empty(CPU_SYS "nohz_full");
	add_tunables(h, "/proc/sys/kernel/", "sched_", "kernel");
	add_tunables(h, SCHED_DEBUGFS, "", "debugfs");
	if (h->ntun > 1)
		qsort(h->tun, h->ntun, sizeof(*h->tun), by_name);
}

static void
host_free(struct host *h)
{
	size_t i;

	free(h->thp);
	free(h->thp_defrag);
	free(h->cpuidle_driver);
	free(h->cpuidle_governor);
	free(h->cpuidle_states);
	free(h->smt_active);
	free(h->isolated);
	free(h->nohz_full);
	for (i = 0; i < h->ntun; i++) {
		free(h->tun[i].name);
		free(h->tun[i].value);
	}
	free(h->tun);
	memset(h, 0, sizeof(*h));
}
