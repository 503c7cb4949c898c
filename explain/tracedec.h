/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracedec.h: the API of tracedec.c, the decoder of --explain's trace:
 * the events latt enables, and the ring-buffer pages of latt's instance
 * turned into events in time order, each with the fields of its kind.
 */
#ifndef TRACEDEC_H
#define TRACEDEC_H

#include <stddef.h>
#include <stdint.h>

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

/* Two of the kernel's softirq vectors, the ones a tick runs. */
#define SOFTIRQ_TIMER	1
#define SOFTIRQ_HRTIMER	8

#define TDEC_STR_MAX	32	/* bytes kept of a comm or an IRQ's name */

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
	EV_SYSEXIT
};

/* The interrupt vectors latt traces (irq_vectors), as tdec_vector_name. */
enum ev_vector {
	VEC_LOCAL_TIMER,
	VEC_RESCHEDULE,
	VEC_CALL_FUNCTION_SINGLE,
	VEC_CALL_FUNCTION,
	VEC_IRQ_WORK
};

/* Which of latt's own events an event's filter is to keep. */
enum tdec_filter {
	FILTER_NONE,		/* every one */
	FILTER_COMM,		/* comm == latt's own */
	FILTER_COMM_READ,	/* and only read(2): without the filter,
				   the event is not to be enabled at all */
};

/* An event latt enables: where it lives in tracefs, and how to filter it. */
struct tdec_def {
	const char	*sys;
	const char	*name;
	int		 required;	/* without it, --explain cannot run */
	enum tdec_filter filter;
};

/*
 * One event read back from the trace, with the fields latt reads of its
 * kind; strings (comms, an IRQ's name) are interned: tdec_str gives them.
 */
struct tdec_ev {
	int64_t		 ts;		/* CLOCK_MONOTONIC ns */
	int32_t		 cpu;		/* the buffer it was in */
	int32_t		 pid;		/* common_pid: the task it ran in */
	uint8_t		 kind;		/* enum ev_kind */
	uint8_t		 flags;		/* common_flags */
	uint8_t		 inferred;	/* a switch out of idle, not traced */
	union {
		/* EV_WAKING, EV_WAKEUP. */
		struct {
			int32_t	 pid;
			int32_t	 target_cpu;
			uint32_t comm;		/* EV_WAKING only */
		} wake;
		/* EV_SWITCH. */
		struct {
			int32_t	 prev_pid;
			int32_t	 prev_prio;
			int32_t	 next_pid;
			int32_t	 next_prio;
			int64_t	 prev_state;	/* TS_* */
			uint32_t prev_comm;
			uint32_t next_comm;
		} sw;
		/* EV_MIGRATE. */
		struct {
			int32_t	 pid;
			int32_t	 orig_cpu;
			int32_t	 dest_cpu;
		} mig;
		/* EV_IRQ_*, EV_SOFTIRQ_*, EV_VEC_*: an entry or an exit. */
		struct {
			int32_t	 num;		/* the IRQ, the softirq vector
						   or the APIC vector */
			uint32_t name;		/* EV_IRQ_ENTRY: the handler */
			uint8_t	 vec;		/* EV_VEC_*: enum ev_vector */
		} intr;
		/*
		 * EV_IPI_CPU: the CPU sent an IPI; EV_IPI_MASK: the CPUs
		 * (the first 64, cpu -1); EV_IDLE_NOIPI: the idle CPU
		 * woken without one.
		 */
		struct {
			int32_t	 cpu;
			uint64_t mask;
		} ipi;
		/* EV_SYSEXIT: the system call's number. */
		int32_t		 sysno;
	};
};

/* A stretch of a CPU's events the read does not have. */
struct tdec_gap {
	int32_t		 cpu;
	int		 kernel;	/* lost by the ring buffer, not let
					   go by the keeper */
	int64_t		 from, to;
};

/* The interned strings of a read; tracedec.c's own. */
struct tdec_strtab {
	char		(*str)[TDEC_STR_MAX];	/* hcap / 2 of them */
	uint32_t	 n;
	uint32_t	*hash;		/* index + 1, 0: empty */
	uint32_t	 hcap;
};

/* One CPU's part of a read. */
struct tdec_cpu {
	int64_t		 oldest;	/* its oldest event (it matters when
					   the CPU lost some) */
	uint64_t	 lost;		/* its lost events */
	int64_t		 last;		/* its newest event so far */
	int		 seen;		/* a record of its read so far */
};

/* Every CPU's events of one read, and what the read lacks. */
struct tdec_trace {
	struct tdec_ev	*ev;		/* in time order after tdec_finish */
	size_t		 nev, cap;
	struct tdec_strtab strs;
	unsigned	 ncpus;
	struct tdec_cpu	*cpu;		/* ncpus of them */
	struct tdec_gap	*gaps;		/* stretches missing in the middle */
	size_t		 ngaps;
};

/*
 * The events latt enables, from 0 until tdec_def returns NULL.  Before an
 * event is read, tdec_format reads its layout from its directory in the
 * instance (EVDIR/format): 0, or -1 with errno set (ENOENT: no such
 * event; EINVAL: a field is not as expected).  An event without a layout,
 * or given up with tdec_ignore, is neither to be enabled nor read
 * (tdec_known is 0).
 */
const struct tdec_def *tdec_def(unsigned);
int	 tdec_format(unsigned, const char *evdir);
void	 tdec_ignore(unsigned);
int	 tdec_known(unsigned);

/*
 * A read: tdec_init for ncpus CPUs (0, or -1 with errno set), then every
 * page of each CPU in order with tdec_page (gap: pages before it were let
 * go; pg holds at least the page's 16-byte header), then tdec_finish,
 * which puts the events in time order and adds the switches out of idle
 * that the kernel did not trace.  tdec_free frees it, even after a failed
 * tdec_init.
 */
int	 tdec_init(struct tdec_trace *, unsigned ncpus);
void	 tdec_page(struct tdec_trace *, unsigned cpu, const unsigned char *pg,
	    size_t len, int gap);
void	 tdec_finish(struct tdec_trace *);
void	 tdec_free(struct tdec_trace *);

/* The first event at or after ts. */
size_t	 tdec_first_at(const struct tdec_trace *, int64_t ts);
/* An interned string; "" for 0 and for an index out of range. */
const char *tdec_str(const struct tdec_trace *, uint32_t);
/* What an interrupt is: an ev_vector's name, and a softirq's ("?"). */
const char *tdec_vector_name(unsigned);
const char *tdec_softirq_name(int32_t);

#endif /* TRACEDEC_H */
