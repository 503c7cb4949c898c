/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise.h: the API of noise.c, what else ran on the machine during a run,
 * sampled by the parent between rounds (never while one is measured)
 * about every NOISE_NS: the runnable tasks, CPU pressure, the CPU time of
 * processes that are not latt's (latt's own tree: itself, its clients,
 * loads, workload and the workload's children), interrupts and softirqs
 * a second, and the CPU frequency where cpufreq reports it.  A run whose
 * foreign CPU use reaches NOISY_FOREIGN_PCT of the machine is noisy.
 */
#ifndef NOISE_H
#define NOISE_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#define NOISE_NS		100000000LL	/* 100 ms between samples */
#define NOISE_MAX_POINTS	4096		/* then pairs merge */
/*
 * Noisy: other processes used a tenth of all the CPUs' time (0.2 CPU of
 * 2): a single busy process on a 2-CPU machine passes it five times over,
 * a cron job's short burst does not.
 */
#define NOISY_FOREIGN_PCT	10.0

/* What the machine had counted at one moment (cumulative). */
struct noise_snap {
	int64_t		 at;		/* CLOCK_MONOTONIC ns */
	uint64_t	 busy;		/* /proc/stat cpu user+nice+system */
	uint64_t	 total;		/* every field: all CPUs' time */
	uint64_t	 intr, softirq;
	uint64_t	 own;		/* latt's tree's CPU, ns */
	uint64_t	 psi_some, psi_full;	/* us */
	int		 ok, own_ok, psi_ok;
};

/* One sample of the time series: the span since the one before. */
struct noise_point {
	double		 t;		/* s from the run's counts start */
	double		 foreign_pct;	/* of all the CPUs' time */
	double		 psi_some_pct;	/* -1: no pressure */
	double		 runnable;	/* procs_running at the sample */
	double		 irq_s, softirq_s;
	double		 mhz;		/* the CPUs' mean; -1: no cpufreq */
	double		 span;		/* s this point covers */
};

struct noise {
	int		 begun;
	int		 psi;		/* /proc/pressure/cpu read at start */
	int		 cpufreq;	/* scaling_cur_freq read at start */
	int64_t		 interval, next;
	struct noise_snap begin, prev;
	struct noise_point *pts;
	size_t		 npts;
	/* The run's figures, by noise_finish; -1 where unknown. */
	int		 valid;
	double		 elapsed;	/* s */
	double		 foreign_pct, foreign_cpus, own_cpus;
	double		 psi_some_pct, psi_full_pct;
	double		 runnable_mean, irq_s, softirq_s, mhz;
	double		 runnable_sum, mhz_sum;
	uint64_t	 nrunnable, nmhz;
	int		 noisy;
	char		 why[160];	/* "" when not noisy */
	pid_t		*clients;	/* latt's clients, sorted: their CPU */
	size_t		 nclients;	/* is their process clock's */
};

/*
 * A client of latt's, as it is forked (before noise_begin): a process
 * that forks nothing, whose CPU time a clock read gives without /proc.
 */
void	 noise_client(struct noise *, pid_t);
/* The first reading, after the priming round. */
void	 noise_begin(struct noise *, int64_t now);
/* A sample when one is due (between rounds; now: a coarse clock). */
void	 noise_sample(struct noise *, int64_t now);
/* The last reading, the run's figures and whether it was noisy. */
void	 noise_finish(struct noise *);
/* The figures of --repeat's runs together (series: the last run's). */
void	 noise_merge(struct noise *total, const struct noise *run);
void	 noise_free(struct noise *);

#endif /* NOISE_H */
