/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The autopsy of --explain: what latt's own tracefs instance recorded
 * around each of the K worst wake-ups, as autopsy.c makes it of the trace
 * that explain.c reads after the run.  The structures are finished
 * results: report.c prints them as text and json.c as JSON; neither looks
 * at tracefs.
 *
 * Times in an autopsy are nanoseconds from the sample's send stamp (the
 * parent's CLOCK_MONOTONIC stamp just before its write), since the
 * instance's trace_clock is "mono", the same clock.
 */
#ifndef AUTOPSY_H
#define AUTOPSY_H

#include <sys/types.h>

#include <stdint.h>

#include "result.h"

#define COMM_LEN	16		/* the kernel's TASK_COMM_LEN */

/* One task that had the CPU while the sample's task waited for it. */
struct ran_task {
	char		 comm[COMM_LEN];
	pid_t		 pid;		/* 0: the idle task */
	int		 prio;		/* the kernel's prio, as traced */
	char		 policy[40]; /* "SCHED_FIFO 50", "SCHED_OTHER nice 0" */
	int32_t		 cpu;
	int64_t		 ns;		/* its time within the wait */
	char		 left[40];	/* how it left the CPU */
};

/* One interrupt or softirq on a CPU that mattered, inside the window. */
struct irq_span {
	char		 kind[8];	/* "irq", "softirq", "vector" */
	int		 num;	/* IRQ, softirq vector, or APIC vector */
	char		 name[32];
	int32_t		 cpu;
	int64_t		 start;		/* ns from the send stamp */
	int64_t		 ns;
};

/* One line of an autopsy's timeline. */
struct tl_item {
	int64_t		 t;		/* ns from the send stamp */
	int32_t		 cpu;		/* -1: not tied to one */
	char		 kind[12];	/* send, waking, ipi, wakeup, migrate,
					   ran, irq, softirq, vector, switch,
					   preempted, blocked, stamp */
	char		 what[160];
};

/* The autopsy of one sample. */
struct autopsy_sample {
	struct sample	 s;		/* the sample as the sink saw it */
	int		 timer;	/* the timer sample --breaktrace caught */
	int		 broke;		/* the sample that stopped the trace */
	int64_t		 send;		/* CLOCK_MONOTONIC ns */
	int64_t		 wake;
	int		 found;		/* the trace has the task's wake-up */
	int		 complete;	/* no events lost around it */
	char		 lost_note[120];	/* why incomplete, or "" */
	char		 state[24];	/* the task's state at the send stamp */
	pid_t		 waker_pid;	/* 0: not found */
	int		 waker_irq;	/* woken from an interrupt over it */
	char		 waker_comm[COMM_LEN];
	int32_t		 waker_cpu;
	int32_t		 target_cpu;	/* where the wake-up sent it */
	int32_t		 run_cpu;	/* where it ran, -1: unknown */
	int		 idle_target;	/* the target CPU was idle */
	int		 ipi;		/* an IPI went to the target CPU */
	unsigned	 migrations;
	/* The split of the latency, ns; -1 where the trace cannot say. */
	int64_t		 issue;		/* send stamp to the wake-up issued */
	int64_t		 not_runnable;	/* stopped or asleep past the write */
	int64_t		 in_flight;	/* wake-up issued to enqueued */
	int64_t		 rq_wait;	/* runnable, not running */
	int64_t		 running;	/* switched in, until the stamp */
	struct ran_task	*ran;
	unsigned	 nran;
	struct irq_span	*irqs;
	unsigned	 nirqs;
	struct tl_item	*tl;
	unsigned	 ntl;
	char		 verdict[320];
};

/* The whole autopsy of a run. */
struct autopsy {
	char		*instance;	/* the instance's directory */
	unsigned	 buf_kb;	/* its buffer, KiB a CPU */
	unsigned	 ncpus;		/* CPU buffers read */
	uint64_t	 events;	/* events read */
	uint64_t	 lost;		/* overrun + dropped, all CPUs */
	int64_t		 covered_from;	/* ns since the run's start: the
					   oldest event every CPU still has */
	const char	*error;		/* reading failed: why, or NULL */
	int		 error_errno;	/* and its errno, or 0 */
	char		 errbuf[200];	/* error may point here */
	char		*mount_lost;	/* tracefs's mount point, when it was
					   unmounted during the run (the trace
					   was read all the same), or NULL */
	unsigned	 n;
	struct autopsy_sample *s;
};

struct tdec_trace;

/*
 * For explain.c, once the run is over: autopsy_new makes res->autopsy
 * with its subjects, the K worst samples and the one --breaktrace stopped
 * at (parent: latt's pid, the timer's task); NULL when memory ran out,
 * and ->error set when it has no room for its samples.  autopsy_analyse
 * then follows each of them through the decoded trace (tracedec.h).
 */
struct autopsy *autopsy_new(struct result *, const char *instance,
	    unsigned buf_kb, pid_t parent);
void	 autopsy_analyse(struct autopsy *, const struct tdec_trace *,
	    pid_t parent);

void	 autopsy_free(struct autopsy *);	/* NULL is safe */
/*
 * A time of an autopsy for a person, by fmt_time's rule with four
 * significant digits: "3.900 ms", "12.05 us", "850 ns", "-474.0 ms".
 */
const char *autopsy_dur(int64_t, char *, size_t);

#endif /* AUTOPSY_H */
