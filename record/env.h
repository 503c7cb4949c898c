/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h: the API of env.c, what latt records of the machine and kernel a
 * run took place on: read when a run starts (and, for what can change
 * under it, again when it ends), kept in the result, and only printed by
 * the reports, which never read /proc or sysfs themselves.
 */
#ifndef ENV_H
#define ENV_H

#include <stdint.h>

/*
 * The scheduler in use, read before the run: what the fair class is,
 * sched_ext's state and scheduler, the preemption mode and the EEVDF
 * knobs that can be read.  Strings are malloc'd or NULL when unknown.
 */
struct sched_info {
	const char	*fair;		/* "EEVDF" (6.6 and later) or "CFS" */
	char		*ext_state;	/* /sys/kernel/sched_ext/state */
	char		*ext_ops;	/* /sys/kernel/sched_ext/root/ops */
	int		 ext_present;	/* /sys/kernel/sched_ext exists */
	char		*preemption;	/* "dynamic (full)", "full", "rt"... */
	int64_t		 base_slice;	/* ns; -1: unknown */
	int		 base_slice_debugfs;	/* from debugfs, not a probe */
	char		*features;	/* debugfs sched/features, or NULL */
	int		 autogroup;	/* sched_autogroup_enabled; -1 */
};

/*
 * What of the machine can change under a run and move its numbers (a
 * clocksource found unstable, a governor switched): read when a run starts
 * and again when it ends.  Strings are malloc'd, or NULL where there is
 * none (no cpufreq, no SMT control).
 */
struct machine {
	char		*clocksource;	/* current_clocksource */
	char		*governor; /* the CPUs' cpufreq governors, each once */
	char		*smt;		/* smt/control */
};

/* A setting of the host by its name ("kernel.sched_rt_runtime_us"). */
struct host_item {
	char		*name;
	char		*value;		/* its text, newlines made spaces */
};

/*
 * The host's state beyond the scheduler and the machine above, read once
 * when latt starts: transparent huge pages, cpuidle, SMT, the CPUs kept
 * from the scheduler, and every scheduler tunable that can be read
 * (/proc/sys/kernel/sched_* as "kernel.NAME", debugfs sched/ when it is
 * mounted, as "debugfs.NAME"), sorted by name.  Strings are malloc'd, or
 * NULL where there is none.
 */
struct host {
	char		*thp;		/* transparent_hugepage/enabled: the
					   word in brackets */
	char		*thp_defrag;
	char		*cpuidle_driver;
	char		*cpuidle_governor;
	char		*cpuidle_states; /* CPU 0's: "POLL:0us C1:2us" */
	char		*smt_active;	/* smt/active: "1" or "0" */
	char		*isolated;	/* cpu/isolated: "" is none */
	char		*nohz_full;	/* cpu/nohz_full */
	struct host_item *tun;
	size_t		 ntun;
};

/*
 * The rest of the environment, read once when latt starts.  Strings are
 * malloc'd, or NULL when unknown.
 */
struct environment {
	char		*kernel_release;	/* uname */
	char		*kernel_version;
	char		*arch;
	char		*hostname;
	long		 cpus_online;	/* -1: unknown */
	char		*cmdline;	/* /proc/cmdline */
	char		*cpu_model;	/* the first "model name" */
	char		*virtualization;	/* "none", "hypervisor", or
						   /sys/hypervisor/type */
	unsigned long	 timer_slack;	/* what the workload inherited */
	struct host	 host;
};

/* Each fills its struct; what cannot be read stays NULL (or -1). */
void	 env_read(struct environment *, unsigned long slack);
void	 env_free(struct environment *);
/*
 * The base slice is debugfs's, or else latt's own as sched_getattr
 * reports it (a fair task without a slice of its own has the base slice).
 */
void	 env_sched_read(struct sched_info *);
void	 env_sched_free(struct sched_info *);
void	 env_machine_read(struct machine *);
void	 env_machine_copy(struct machine *, const struct machine *);
void	 env_machine_free(struct machine *);
/*
 * The *i-th (from 0, advanced) setting that differs between a run's start
 * and its end: returns its name ("clocksource", "cpufreq governor", "smt")
 * and sets *was and *now ("none" for a setting that came or went), or
 * returns NULL when no further one differs.
 */
const char *env_machine_changed(const struct machine *, const struct machine *,
	    const char **was, const char **now, unsigned *i);

#endif /* ENV_H */
