/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The decoder of --explain's trace: which events latt enables, their
 * layouts as each event's format file gives them (the field offsets are
 * never guessed), and the raw ring-buffer pages of latt's instance turned
 * into events, each with the fields of its kind by name.  A read keeps
 * what it could not have (events the ring buffer lost, pages latt's
 * keeper let go) and, since some kernels do not trace every switch out of
 * the idle task, adds those switches where the trace shows them.  What
 * the events say about a wake-up is autopsy.c's business; the instance
 * and the pages' way to latt are explain.c's and keeper.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/tracedec.h"
#include "lib/common.h"

#define MAX_FIELDS	8
#define PAGE_HDR	16		/* a page's time stamp and commit */

/* The ring buffer's event header types (see events/header_event). */
#define RB_PADDING	29
#define RB_TIME_EXTEND	30
#define RB_TIME_STAMP	31
#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)

/* A field latt reads, and where in struct tdec_ev it goes. */
struct fielddef {
	const char	*name;
	unsigned char	 off;
	unsigned char	 size;		/* 4 or 8 */
	unsigned char	 type;		/* FLD_* */
};
enum { FLD_INT, FLD_STR, FLD_MASK };
#define FLD(name, m, type)	{ name, offsetof(struct tdec_ev, m),	\
	    sizeof(((struct tdec_ev *)0)->m), type }
#define FI(name, m)	FLD(name, m, FLD_INT)
#define FS(name, m)	FLD(name, m, FLD_STR)

/* An event latt enables, and the fields it reads. */
struct evdef {
	struct tdec_def	 def;
	enum ev_kind	 kind;
	int		 vec;		/* irq_vectors: enum ev_vector */
	struct fielddef	 fields[MAX_FIELDS];
};

/* An event of one field, not filtered. */
#define ONE(sys, name, req, kind, field, m)				\
	{ { sys, name, req, FILTER_NONE }, kind, 0, { FI(field, m) } }

/* Both ends of one irq_vectors vector. */
#define VECTOR(name, vec)						\
	{ { "irq_vectors", name "_entry", 0, FILTER_NONE },		\
	    EV_VEC_ENTRY, vec, { FI("vector", intr.num) } },		\
	{ { "irq_vectors", name "_exit", 0, FILTER_NONE },		\
	    EV_VEC_EXIT, vec, { FI("vector", intr.num) } }

static const struct evdef evdefs[] = {
	{ { "sched", "sched_waking", 1, FILTER_COMM }, EV_WAKING, 0,
	    { FI("pid", wake.pid), FI("target_cpu", wake.target_cpu),
	    FS("comm", wake.comm) } },
	{ { "sched", "sched_wakeup", 1, FILTER_NONE }, EV_WAKEUP, 0,
	    { FI("pid", wake.pid), FI("target_cpu", wake.target_cpu) } },
	{ { "sched", "sched_switch", 1, FILTER_NONE }, EV_SWITCH, 0,
	    { FI("prev_pid", sw.prev_pid), FI("prev_prio", sw.prev_prio),
	    FI("next_pid", sw.next_pid), FI("next_prio", sw.next_prio),
	    FI("prev_state", sw.prev_state), FS("prev_comm", sw.prev_comm),
	    FS("next_comm", sw.next_comm) } },
	{ { "sched", "sched_migrate_task", 1, FILTER_COMM }, EV_MIGRATE, 0,
	    { FI("pid", mig.pid), FI("orig_cpu", mig.orig_cpu),
	    FI("dest_cpu", mig.dest_cpu) } },
	{ { "irq", "irq_handler_entry", 1, FILTER_NONE }, EV_IRQ_ENTRY, 0,
	    { FI("irq", intr.num), FS("name", intr.name) } },
	ONE("irq", "irq_handler_exit", 1, EV_IRQ_EXIT, "irq", intr.num),
	ONE("irq", "softirq_entry", 1, EV_SOFTIRQ_ENTRY, "vec", intr.num),
	ONE("irq", "softirq_exit", 1, EV_SOFTIRQ_EXIT, "vec", intr.num),
	ONE("ipi", "ipi_send_cpu", 0, EV_IPI_CPU, "cpu", ipi.cpu),
	{ { "ipi", "ipi_send_cpumask", 0, FILTER_NONE }, EV_IPI_MASK, 0,
	    { FLD("cpumask", ipi.mask, FLD_MASK) } },
	ONE("sched", "sched_wake_idle_without_ipi", 0, EV_IDLE_NOIPI, "cpu",
	    ipi.cpu),
	VECTOR("local_timer", VEC_LOCAL_TIMER),
	VECTOR("reschedule", VEC_RESCHEDULE),
	VECTOR("call_function_single", VEC_CALL_FUNCTION_SINGLE),
	VECTOR("call_function", VEC_CALL_FUNCTION),
	VECTOR("irq_work", VEC_IRQ_WORK),
	/* latt's own returns from read(): a task seen back in user space. */
	{ { "raw_syscalls", "sys_exit", 0, FILTER_COMM_READ }, EV_SYSEXIT, 0,
	    { FI("id", sysno) } },
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

static struct evfmt	 fmts[NEVDEFS];

static void	 parse_page(struct tdec_trace *, unsigned,
		    const unsigned char *, size_t);
static int	 parse_event(struct tdec_trace *, unsigned, int64_t,
		    const unsigned char *, size_t);
static struct tdec_ev *new_event(struct tdec_trace *);
static int64_t	 field_int(const unsigned char *, size_t,
		    const struct field *);
static uint32_t	 field_str(struct tdec_trace *, const unsigned char *,
		    size_t, const struct field *);
static uint64_t	 field_mask(const unsigned char *, size_t,
		    const struct field *);
static uint64_t	 get(const unsigned char *, int);
static int	 cmp_ev(const void *, const void *);
static size_t	 infer_idle_exits(struct tdec_trace *);
static int	 add_inferred(struct tdec_trace *, int32_t, int32_t, int64_t);
static uint32_t	 intern(struct tdec_strtab *, const char *, size_t);
static uint32_t	 hash_str(const char *, size_t);

const struct tdec_def *
tdec_def(unsigned i)
{
	return i < NEVDEFS ? &evdefs[i].def : NULL;
}

int
tdec_format(unsigned i, const char *evdir)
{
	const struct evdef *d = &evdefs[i];
	struct evfmt *f = &fmts[i];
	char path[PATH_MAX + 16], line[512], decl[256], *name;
	FILE *fp;
	int k, off, size, sgn;

	memset(f, 0, sizeof(*f));
	f->pid_off = f->flags_off = -1;
	snprintf(path, sizeof(path), "%s/format", evdir);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "ID: %u", &f->id) == 1)
			continue;
		if (sscanf(line, " field:%255[^;]; offset:%d; size:%d; "
		    "signed:%d", decl, &off, &size, &sgn) != 4)
			continue;
		/* "TYPE NAME" or "TYPE NAME[N]": the name is the last word. */
		if ((name = strrchr(decl, ' ')) == NULL)
			continue;
		name[strcspn(name, "[")] = '\0';
		name++;
		if (strcmp(name, "common_pid") == 0 && size == 4) {
			f->pid_off = off;
			continue;
		}
		if (strcmp(name, "common_flags") == 0 && size == 1) {
			f->flags_off = off;
			continue;
		}
		for (k = 0; k < MAX_FIELDS && d->fields[k].name != NULL; k++) {
			if (strcmp(name, d->fields[k].name) != 0)
				continue;
			f->f[k].offset = off;
			f->f[k].size = size;
			f->f[k].is_signed = sgn;
			f->f[k].data_loc = strstr(decl, "__data_loc") != NULL;
			f->f[k].found = 1;
		}
	}
	fclose(fp);
	if (f->id == 0) {
		errno = ENOENT;
		return -1;
	}
	if (f->pid_off < 0 || f->flags_off < 0)
		goto bad;
	for (k = 0; k < MAX_FIELDS && d->fields[k].name != NULL; k++)
		if (!f->f[k].found || f->f[k].offset < 0 ||
		    (!f->f[k].data_loc && f->f[k].size > 8 &&
		    d->fields[k].type != FLD_STR))
			goto bad;
	return 0;
bad:
	f->id = 0;
	errno = EINVAL;
	return -1;
}


void
tdec_ignore(unsigned i)
{
	fmts[i].id = 0;
}

int
tdec_known(unsigned i)
{
	return fmts[i].id != 0;
}

int
tdec_init(struct tdec_trace *tr, unsigned ncpus)
{
	unsigned cpu;

	memset(tr, 0, sizeof(*tr));
	tr->ncpus = ncpus;
	if ((tr->cpu = calloc(ncpus > 0 ? ncpus : 1, sizeof(*tr->cpu))) == NULL)
		return -1;
	for (cpu = 0; cpu < ncpus; cpu++)
		tr->cpu[cpu].last = INT64_MIN;
	return 0;
}

/*
 * A page after ones the keeper let go, or after events the ring buffer
 * lost, marks a gap from the CPU's last event read to the page.
 */
void
tdec_page(struct tdec_trace *tr, unsigned cpu, const unsigned char *pg,
    size_t len, int gap)
{
	struct tdec_cpu *c = &tr->cpu[cpu];
	struct tdec_gap *ng;
	size_t before = tr->nev;

	if ((gap || ((get(pg + 8, 8) & RB_MISSED_EVENTS) && c->seen)) &&
	    (ng = realloc(tr->gaps, (tr->ngaps + 1) * sizeof(*ng))) != NULL) {
		tr->gaps = ng;
		tr->gaps[tr->ngaps++] = (struct tdec_gap){ (int32_t)cpu, !gap,
		    c->last, (int64_t)get(pg, 8) };
	}
	parse_page(tr, cpu, pg, len);
	if (tr->nev > before)
		c->last = tr->ev[tr->nev - 1].ts;
}

/* A trace with no events has no array at all: qsort is not called. */
void
tdec_finish(struct tdec_trace *tr)
{
	if (tr->nev > 1)
		qsort(tr->ev, tr->nev, sizeof(*tr->ev), cmp_ev);
	if (infer_idle_exits(tr) > 0 && tr->nev > 1)
		qsort(tr->ev, tr->nev, sizeof(*tr->ev), cmp_ev);
}

void
tdec_free(struct tdec_trace *tr)
{
	free(tr->ev);
	free(tr->strs.str);
	free(tr->strs.hash);
	free(tr->cpu);
	free(tr->gaps);
	memset(tr, 0, sizeof(*tr));
}

size_t
tdec_first_at(const struct tdec_trace *tr, int64_t ts)
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

const char *
tdec_str(const struct tdec_trace *tr, uint32_t i)
{
	if (i == 0 || i >= tr->strs.n)
		return "";
	return tr->strs.str[i];
}

const char *
tdec_vector_name(unsigned vec)
{
	return vec_names[vec];
}

const char *
tdec_softirq_name(int32_t vec)
{
	return vec >= 0 && vec < (int)(sizeof(softirq_names) /
	    sizeof(softirq_names[0])) ? softirq_names[vec] : "?";
}

/*
 * One ring-buffer page: a 64-bit time stamp, a commit word (the length of
 * the data, and flags for events missed before the page), then events,
 * each a 32-bit header (type_len in its low 5 bits, a time delta in the
 * 27 above) as events/header_page and header_event describe.
 */
static void
parse_page(struct tdec_trace *tr, unsigned cpu, const unsigned char *pg,
    size_t len)
{
	uint64_t commit, ext;
	int64_t ts;
	size_t off, end, dlen;
	uint32_t h, type, delta, word = 0;

	if (len < PAGE_HDR)
		return;
	ts = (int64_t)get(pg, 8);
	commit = get(pg + 8, 8);
	end = PAGE_HDR + (size_t)(commit & (RB_MISSED_STORED - 1));
	if (end > len)
		end = len;
	/* Events were lost before this page: what is older is not whole. */
	if ((commit & RB_MISSED_EVENTS) && tr->cpu[cpu].lost == 0)
		tr->cpu[cpu].lost = 1;
	for (off = PAGE_HDR; off + 4 <= end; ) {
		h = get(pg + off, 4);
		type = h & 0x1f;
		delta = h >> 5;
		/* Padding, time stamps and long events have a second word. */
		if (type == 0 || type >= RB_PADDING) {
			if (off + 8 > end)
				break;
			word = get(pg + off + 4, 4);
		}
		if (type == RB_PADDING) {
			if (delta == 0)
				break;		/* the rest of the page */
			off += 4 + word;
			continue;
		}
		if (type == RB_TIME_EXTEND || type == RB_TIME_STAMP) {
			ext = ((uint64_t)word << 27) | delta;
			ts = type == RB_TIME_STAMP ? (int64_t)ext :
			    ts + (int64_t)ext;
			off += 8;
			continue;
		}
		ts += delta;
		if (type == 0) {
			if (word < 4)
				break;
			dlen = word - 4;
			off += 8;
		} else {
			dlen = (size_t)type * 4;
			off += 4;
		}
		if (off + dlen > end)
			break;
		if (!tr->cpu[cpu].seen) {
			tr->cpu[cpu].oldest = ts;
			tr->cpu[cpu].seen = 1;
		}
		if (parse_event(tr, cpu, ts, pg + off, dlen) == -1)
			return;
		off += dlen;
	}
}

/*
 * One record of an event latt reads into a new event, each field by the
 * layout its format file gave into its place; a record of any other is
 * passed over.  Returns 0, or -1 when memory ran out.
 */
static int
parse_event(struct tdec_trace *tr, unsigned cpu, int64_t ts,
    const unsigned char *rec, size_t len)
{
	const struct evfmt *f = NULL;
	const struct fielddef *fd;
	struct tdec_ev *e;
	size_t i;
	uint64_t id;
	int64_t v;
	uint32_t v32;
	int k;

	if (len < 8)
		return 0;
	id = get(rec, 2);
	for (i = 0; i < NEVDEFS; i++)
		if (fmts[i].id == id && id != 0) {
			f = &fmts[i];
			break;
		}
	if (f == NULL)
		return 0;
	if ((e = new_event(tr)) == NULL)
		return -1;
	*e = (struct tdec_ev){ .ts = ts, .cpu = (int32_t)cpu,
	    .kind = (uint8_t)evdefs[i].kind };
	if ((size_t)f->pid_off + 4 <= len)
		memcpy(&e->pid, rec + f->pid_off, 4);
	if ((size_t)f->flags_off < len)
		e->flags = rec[f->flags_off];
	for (k = 0; k < MAX_FIELDS && evdefs[i].fields[k].name != NULL; k++) {
		fd = &evdefs[i].fields[k];
		if (fd->type == FLD_STR)
			v = field_str(tr, rec, len, &f->f[k]);
		else if (fd->type == FLD_MASK)
			v = (int64_t)field_mask(rec, len, &f->f[k]);
		else
			v = field_int(rec, len, &f->f[k]);
		v32 = (uint32_t)v;
		memcpy((char *)e + fd->off, fd->size == 8 ? (void *)&v :
		    (void *)&v32, fd->size);
	}
	if (e->kind == EV_VEC_ENTRY || e->kind == EV_VEC_EXIT)
		e->intr.vec = (uint8_t)evdefs[i].vec;
	else if (e->kind == EV_IPI_MASK)
		e->ipi.cpu = -1;	/* a mask, not one CPU */
	tr->nev++;
	return 0;
}

/* Room for one more event at the end of tr->ev; NULL: out of memory. */
static struct tdec_ev *
new_event(struct tdec_trace *tr)
{
	if (grow(&tr->ev, &tr->cap, tr->nev, sizeof(*tr->ev), 65536) == -1)
		return NULL;
	return &tr->ev[tr->nev];
}

/*
 * A numeric field of a record, by the layout its format file gave: 1, 2,
 * 4 or 8 bytes, the signed ones extended (an 8-byte one is taken as it
 * is); 0 when the record is too short for it.
 */
static int64_t
field_int(const unsigned char *rec, size_t len, const struct field *f)
{
	uint64_t u;
	int bits = f->size * 8;

	if ((size_t)f->offset + (size_t)f->size > len || f->size <= 0 ||
	    f->size > 8 || (f->size & (f->size - 1)) != 0)
		return 0;
	u = get(rec + f->offset, f->size);
	if (f->is_signed && bits < 64 && (u >> (bits - 1)) != 0)
		u |= ~(uint64_t)0 << bits;
	return (int64_t)u;
}

/*
 * A string field (a char array or a __data_loc string) of a record,
 * interned; 0 (the empty string) when the record is too short for it.
 */
static uint32_t
field_str(struct tdec_trace *tr, const unsigned char *rec, size_t len,
    const struct field *f)
{
	const char *s;
	uint32_t loc;
	size_t off, n;

	if (f->data_loc) {
		if ((size_t)f->offset + 4 > len)
			return intern(&tr->strs, "", 0);
		loc = get(rec + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
	} else {
		off = (size_t)f->offset;
		n = (size_t)f->size;
	}
	if (off + n > len)
		return intern(&tr->strs, "", 0);
	s = (const char *)rec + off;
	return intern(&tr->strs, s, strnlen(s, n));
}

/* A cpumask (a __data_loc bitmap of longs): its first 64 CPUs. */
static uint64_t
field_mask(const unsigned char *rec, size_t len, const struct field *f)
{
	uint32_t loc;
	size_t off, nb;

	if ((size_t)f->offset + 4 > len)
		return 0;
	loc = get(rec + f->offset, 4);
	off = loc & 0xffff;
	nb = loc >> 16;
	if (nb >= 8 && off + 8 <= len)
		return get(rec + off, 8);
	if (nb >= 4 && off + 4 <= len)
		return get(rec + off, 4);
	return 0;
}

/* A host-endian integer of n (1, 2, 4 or 8) bytes at p. */
static uint64_t
get(const unsigned char *p, int n)
{
	union {
		uint8_t	 b;
		uint16_t h;
		uint32_t w;
		uint64_t d;
	} v;

	memcpy(&v, p, (size_t)n);
	return n == 8 ? v.d : n == 4 ? v.w : n == 2 ? v.h : v.b;
}

static int
cmp_ev(const void *pa, const void *pb)
{
	const struct tdec_ev *a = pa, *b = pb;

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

/*
 * Some kernels do not trace every switch out of the idle task (the one
 * this was written on traced none on its second CPU).  An idle CPU that
 * then shows a task running has switched to it: 1 ns after the first
 * wake-up that made that task runnable there when it is known, else at
 * the first sign of the task (an event in its context that is not an
 * interrupt, or its own switch out).  Such switches are added, marked as
 * inferred.  Returns how many.
 */
static size_t
infer_idle_exits(struct tdec_trace *tr)
{
	struct {
		int32_t	 cur;		/* the task on the CPU, -1: unknown */
		int32_t	 pend;		/* woken to run there, while idle */
		int64_t	 pend_ts;
	} *st;
	struct tdec_ev *e;
	int32_t c, who, to;
	int64_t ts;
	size_t i, n = tr->nev, added = 0;
	unsigned k;

	if ((st = calloc(tr->ncpus + 1, sizeof(*st))) == NULL)
		return 0;
	for (k = 0; k < tr->ncpus; k++)
		st[k].cur = -1;
	for (i = 0; i < n; i++) {
		e = &tr->ev[i];
		if (e->kind == EV_WAKEUP && (to = e->wake.target_cpu) >= 0 &&
		    (unsigned)to < tr->ncpus && st[to].cur == 0 &&
		    st[to].pend == 0) {
			st[to].pend = e->wake.pid;
			st[to].pend_ts = e->ts;
		}
		if (e->cpu < 0 || (unsigned)e->cpu >= tr->ncpus)
			continue;
		c = e->cpu;
		who = -1;
		if (e->kind == EV_SWITCH) {
			if (st[c].cur == 0 && e->sw.prev_pid != 0)
				who = e->sw.prev_pid;
		} else if (st[c].cur == 0 && e->pid != 0 &&
		    !(e->flags & CTX_INTERRUPT))
			who = e->pid;
		if (who > 0) {
			/*
			 * Just after the wake-up: at its very stamp, a lower
			 * CPU's switch sorts before the wake-up another CPU
			 * traced, and the task would be enqueued again once
			 * it ran, its running taken for a wait.
			 */
			ts = st[c].pend == who && st[c].pend_ts < e->ts ?
			    st[c].pend_ts + 1 : e->ts;
			if (add_inferred(tr, c, who, ts) == -1)
				break;
			added++;
			e = &tr->ev[i];
			st[c].cur = who;
		}
		if (e->kind == EV_SWITCH) {
			st[c].cur = e->sw.next_pid;
			st[c].pend = 0;
		}
	}
	free(st);
	return added;
}

/* Appends a switch out of idle to pid on cpu at ts, marked as inferred. */
static int
add_inferred(struct tdec_trace *tr, int32_t cpu, int32_t pid, int64_t ts)
{
	struct tdec_ev *e;
	char name[24];
	uint32_t comm;

	snprintf(name, sizeof(name), "swapper/%d", (int)cpu);
	comm = intern(&tr->strs, name, strlen(name));
	if ((e = new_event(tr)) == NULL)
		return -1;
	*e = (struct tdec_ev){ .ts = ts, .cpu = cpu, .kind = EV_SWITCH,
	    .inferred = 1, .sw = { .prev_prio = 120, .next_pid = pid,
	    .next_prio = -1, .prev_comm = comm } };
	tr->nev++;
	return 0;
}

/* Interns a string of n bytes; returns its index (0: the empty one). */
static uint32_t
intern(struct tdec_strtab *t, const char *s, size_t n)
{
	char key[TDEC_STR_MAX], (*ns)[TDEC_STR_MAX];
	uint32_t i, k, ncap, *nh;

	if (n >= sizeof(key))
		n = sizeof(key) - 1;
	if (n == 0)
		return 0;
	memcpy(key, s, n);
	key[n] = '\0';
	/* The table at most half full; room for as many strings. */
	if (t->n + 1 >= t->hcap / 2) {
		ncap = t->hcap == 0 ? 1024 : t->hcap * 2;
		if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
			return 0;
		if ((ns = realloc(t->str, ncap / 2 * sizeof(*ns))) == NULL) {
			free(nh);
			return 0;
		}
		t->str = ns;
		if (t->n == 0)
			t->str[t->n++][0] = '\0';	/* index 0: "" */
		for (i = 1; i < t->n; i++) {
			for (k = hash_str(t->str[i], strlen(t->str[i])) &
			    (ncap - 1); nh[k] != 0; k = (k + 1) & (ncap - 1))
				;
			nh[k] = i + 1;
		}
		free(t->hash);
		t->hash = nh;
		t->hcap = ncap;
	}
	for (k = hash_str(key, n) & (t->hcap - 1); t->hash[k] != 0;
	    k = (k + 1) & (t->hcap - 1))
		if (strcmp(t->str[t->hash[k] - 1], key) == 0)
			return t->hash[k] - 1;
	memcpy(t->str[t->n], key, n + 1);
	t->hash[k] = t->n + 1;
	return t->n++;
}

/* FNV-1a of n bytes. */
static uint32_t
hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619U;
	return h;
}
