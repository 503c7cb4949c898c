/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.h: the API of counts.c, what the kernel counted during a run:
 * the machine's context switches and interrupts (/proc/stat ctxt, intr),
 * the clients' voluntary and involuntary switches and migrations
 * (/proc/PID/status, /proc/PID/sched), and the mean number of runnable
 * tasks (procs_running, sampled between rounds).  So that two runs can be
 * shown to have seen the same number of events.
 */
#ifndef COUNTS_H
#define COUNTS_H

#include <sys/types.h>

#include <stdint.h>

/* What the kernel had counted at one moment. */
struct kcount {
	int64_t		 at;		/* CLOCK_MONOTONIC ns of the read */
	uint64_t	 ctxt;		/* /proc/stat: switches since boot */
	uint64_t	 intr;		/* /proc/stat: interrupts since boot */
	int		 sys_ok;	/* both read */
	uint64_t	 vol;		/* the clients' voluntary switches */
	uint64_t	 invol;		/* and involuntary ones */
	uint64_t	 migr;		/* and migrations (se.nr_migrations) */
	unsigned	 ntask;		/* clients whose status was read */
	unsigned	 nmigr;		/* clients whose sched was read */
};

/*
 * A run's counts, from just after the priming round to the end of the
 * loop: differences of two struct kcount, and the runnable samples.
 */
struct counts {
	int		 valid;		/* both ends read: the rest means it */
	int64_t		 elapsed;	/* ns between the two reads */
	uint64_t	 ctxt;		/* the machine's context switches */
	uint64_t	 intr;		/* the machine's interrupts */
	int		 clients_ok;	/* every client read at both ends */
	uint64_t	 vol;		/* the clients', all together */
	uint64_t	 invol;
	int		 migr_ok;	/* /proc/PID/sched was read for all */
	uint64_t	 migr;
	uint64_t	 runnable_sum;	/* of the procs_running samples */
	uint64_t	 nrunnable;	/* samples; 0: none taken */
	int64_t		 next_runnable;	/* CLOCK_MONOTONIC ns: no sample
					   before */
	struct kcount	 begin;		/* the first read, until the end */
};

/* A count per second of the counts' own span, or -1: unknown. */
static inline double
counts_rate(const struct counts *c, uint64_t n)
{
	/* Over less than 10 ms (a run with no round) no rate. */
	return c->valid && c->elapsed >= 10000000 ? (double)n * 1e9 /
	    (double)c->elapsed : -1;
}

/* The mean of the procs_running samples, or -1: none taken. */
static inline double
counts_runnable_mean(const struct counts *c)
{
	return c->nrunnable > 0 ? (double)c->runnable_sum /
	    (double)c->nrunnable : -1;
}

/* /proc/stat's ctxt and intr into k, with the time. */
void	 counts_system(struct kcount *k);
/* One client's switches and migrations added to k; -1: not read. */
int	 counts_task(struct kcount *k, pid_t pid);
/* The run's counts from its two ends. */
void	 counts_finish(struct counts *, const struct kcount *end,
	    unsigned ntasks);
/*
 * procs_running, from /proc/loadavg (its fourth field, R/T), between
 * rounds and never while one is measured, at most every RUNNABLE_NS (now:
 * a coarse clock is enough): fd is from counts_runnable_open (-1: none,
 * nothing done).  One pread of about 2 us, no stdio.
 */
#define RUNNABLE_NS	10000000LL	/* 10 ms */
int	 counts_runnable_open(void);
void	 counts_runnable(int fd, struct counts *, int64_t now);
/* Adds run's counts into total (--repeat's, a sweep point's). */
void	 counts_merge(struct counts *total, const struct counts *run);

#endif /* COUNTS_H */
