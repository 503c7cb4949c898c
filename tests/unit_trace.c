/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for explain/tracedec.c, the decoder of --explain's trace, and
 * for what explain/autopsy.c makes of what it decodes.  The decoder is fed
 * what the kernel would give it: the events' format files (their text as
 * /sys/kernel/tracing/events/.../format gave it on a 6.18 x86-64 kernel,
 * sched_switch's long print fmt line shortened, since no one reads it;
 * written into a temporary directory for tdec_format to read) and raw
 * ring-buffer pages built here byte by byte, as events/header_page and
 * events/header_event describe them: a 64-bit stamp, a commit word, then
 * records each behind a 32-bit header (type_len 5 bits, delta 27).
 *
 * The stamps are small made-up nanoseconds; no test reads the clock.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/autopsy.h"
#include "explain/tracedec.h"
#include "result.h"
#include "tests/unit.h"

#define PAGE_SIZE	4096
#define HDR		16		/* a page's stamp and commit */

/* The events' ids, as the format files below give them. */
#define ID_SWITCH	372
#define ID_WAKEUP	374
#define ID_WAKING	375
#define ID_MIGRATE	371
#define ID_IRQ_ENTRY	225
#define ID_SYS_EXIT	442
#define ID_NONE		9999		/* an event latt does not read */

#define COMMON_FIELDS							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;" \
	"\tsigned:0;\n"							\
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define WAKE_FIELDS							\
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"	\
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"		\
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"		\
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"	\
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", "	\
	"REC->comm, REC->pid, REC->prio, REC->target_cpu\n"

/* The format files, as this machine's tracefs has them. */
static const struct fmtfile {
	const char	*sys, *name, *text;
} fmtfiles[] = {
	{ "sched", "sched_waking", "name: sched_waking\nID: 375\nformat:\n"
	    COMMON_FIELDS WAKE_FIELDS },
	{ "sched", "sched_wakeup", "name: sched_wakeup\nID: 374\nformat:\n"
	    COMMON_FIELDS WAKE_FIELDS },
	{ "sched", "sched_switch", "name: sched_switch\nID: 372\nformat:\n"
	    COMMON_FIELDS
	    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d "
	    "prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
	    "REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state "
	    "& 0xff) ? __print_flags(REC->prev_state & 0xff, \"|\", "
	    "{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }) : \"R\", "
	    "REC->prev_state & 0x100 ? \"+\" : \"\", REC->next_comm, "
	    "REC->next_pid, REC->next_prio\n" },
	{ "sched", "sched_migrate_task", "name: sched_migrate_task\n"
	    "ID: 371\nformat:\n" COMMON_FIELDS
	    "\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	    "\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	    "\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	    "\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", "
	    "__get_str(comm), REC->pid, REC->prio, REC->orig_cpu, "
	    "REC->dest_cpu\n" },
	{ "irq", "irq_handler_entry", "name: irq_handler_entry\nID: 225\n"
	    "format:\n" COMMON_FIELDS
	    "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	    "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	    "\nprint fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n" },
	{ "raw_syscalls", "sys_exit", "name: sys_exit\nID: 442\nformat:\n"
	    COMMON_FIELDS
	    "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	    "print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n" },
};

/* A ring-buffer page being built, and the stamp of its last record. */
struct page {
	unsigned char	 b[PAGE_SIZE];
	size_t		 len;
	int64_t		 ts;
};

static char	 fmtdir[64];	/* the format files' directory */

static int	 write_formats(void);
static void	 remove_formats(void);
static int	 load_formats(void);
static int	 def_index(const char *);
static void	 put(unsigned char *, uint64_t, int);
static void	 pg_start(struct page *, int64_t);
static void	 pg_raw(struct page *, uint32_t, uint32_t, const void *, size_t);
static void	 pg_rec(struct page *, int64_t, const unsigned char *, size_t);
static void	 rec_common(unsigned char *, unsigned, unsigned, int32_t);
static void	 ev_wake(struct page *, int64_t, unsigned, int32_t, int32_t,
		    const char *, int32_t);
static void	 ev_switch(struct page *, int64_t, int32_t, const char *,
		    int64_t, int32_t, const char *);
static void	 ev_sysexit(struct page *, int64_t, int32_t);
static void	 ev_none(struct page *, int64_t);
static int	 decode(struct tdec_trace *, unsigned, struct page *, unsigned);
static ssize_t	 find(const struct tdec_trace *, size_t, int, int32_t,
		    int32_t);
static struct autopsy *autopsy_of(struct result *, struct sample *,
		    const struct tdec_trace *, int32_t, int32_t, int64_t,
		    int64_t);

/*
 * Each format file read by tdec_format: latt's events with a file are
 * known, the others (no file here) are not, with ENOENT.  A file with a
 * field missing, or without an ID, is refused.
 */
static void
test_formats(void)
{
	char dir[128], path[160] = "";
	const struct tdec_def *d;
	FILE *fp = NULL;
	unsigned i;
	int have, rc, n = 0;

	for (i = 0; (d = tdec_def(i)) != NULL; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/%s", fmtdir, d->sys, d->name);
		have = access(dir, F_OK) == 0;
		errno = 0;
		rc = tdec_format(i, dir);
		CHECK(have ? rc == 0 : rc == -1 && errno == ENOENT,
		    "%s: tdec_format %d (errno %d), its file %s", d->name, rc,
		    errno, have ? "there" : "absent");
		CHECK(tdec_known(i) == have, "%s: tdec_known %d", d->name,
		    tdec_known(i));
		n += have;
	}
	CHECK(n == (int)NELEM(fmtfiles), "%d of %zu formats read", n,
	    NELEM(fmtfiles));

	/* sched_switch without its next_pid line: EINVAL, not known. */
	snprintf(dir, sizeof(dir), "%s/bad", fmtdir);
	snprintf(path, sizeof(path), "%s/format", dir);
	CHECK(mkdir(dir, 0700) == 0 || errno == EEXIST, "mkdir %s", dir);
	CHECK((fp = fopen(path, "w")) != NULL, "fopen %s", path);
	fputs("name: sched_switch\nID: 372\nformat:\n" COMMON_FIELDS
	    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n", fp);
	fclose(fp);
	fp = NULL;
	i = (unsigned)def_index("sched_switch");
	errno = 0;
	rc = tdec_format(i, dir);
	CHECK(rc == -1 && errno == EINVAL && !tdec_known(i),
	    "a field missing: tdec_format %d errno %d known %d", rc, errno,
	    tdec_known(i));

	/* No ID line: as no event at all. */
	CHECK((fp = fopen(path, "w")) != NULL, "fopen %s", path);
	fputs("name: sched_switch\nformat:\n" COMMON_FIELDS, fp);
	fclose(fp);
	fp = NULL;
	errno = 0;
	rc = tdec_format(i, dir);
	CHECK(rc == -1 && errno == ENOENT, "no ID: tdec_format %d errno %d",
	    rc, errno);
out:
	if (fp != NULL)
		fclose(fp);
	if (path[0] != '\0') {
		unlink(path);
		rmdir(dir);
	}
	if (load_formats() != 0)
		unit_fail("the formats could not be read again");
}

/*
 * An ordinary wake-up: CPU 0's task wakes pid 200 for CPU 1, where it
 * waits behind pid 300 until its switch in.  Every field comes back, in
 * time order, and the autopsy splits the latency at the events' stamps.
 */
static void
test_wakeup_switch(void)
{
	struct page pg[2];
	struct tdec_trace tr;
	struct result res;
	struct sample smp;
	struct autopsy *ap = NULL;
	const struct tdec_ev *w, *u, *s;
	ssize_t iw, iu, is;

	memset(&res, 0, sizeof(res));
	CHECK(tdec_init(&tr, 2) == 0, "tdec_init");
	pg_start(&pg[0], 1000);
	ev_wake(&pg[0], 1000, ID_WAKING, 50, 200, "client", 1);
	ev_wake(&pg[0], 1100, ID_WAKEUP, 50, 200, "client", 1);
	pg_start(&pg[1], 500);
	ev_switch(&pg[1], 500, 0, "swapper/1", 0, 300, "hog");
	ev_switch(&pg[1], 5100, 300, "hog", TS_PREEMPTED, 200, "client");
	CHECK(decode(&tr, 2, pg, 2) == 0, "decode");
	CHECK(tr.nev == 4, "%zu events, not 4", tr.nev);
	iw = find(&tr, 0, EV_WAKING, 200, -1);
	iu = find(&tr, 0, EV_WAKEUP, 200, -1);
	is = find(&tr, 0, EV_SWITCH, -1, 200);
	CHECK(iw >= 0 && iu > iw && is > iu, "order: waking %zd wakeup %zd "
	    "switch %zd", iw, iu, is);
	w = &tr.ev[iw];
	u = &tr.ev[iu];
	s = &tr.ev[is];
	CHECK(w->ts == 1000 && w->cpu == 0 && w->pid == 50 &&
	    w->wake.target_cpu == 1 && strcmp(tdec_str(&tr, w->wake.comm),
	    "client") == 0, "waking: ts %lld cpu %d pid %d target %d comm %s",
	    (long long)w->ts, w->cpu, w->pid, w->wake.target_cpu,
	    tdec_str(&tr, w->wake.comm));
	CHECK(s->ts == 5100 && s->cpu == 1 && s->sw.prev_pid == 300 &&
	    s->sw.prev_state == TS_PREEMPTED && s->sw.prev_prio == 120 &&
	    s->sw.next_prio == 120 && !s->inferred &&
	    strcmp(tdec_str(&tr, s->sw.prev_comm), "hog") == 0 &&
	    strcmp(tdec_str(&tr, s->sw.next_comm), "client") == 0,
	    "switch: ts %lld cpu %d prev %d state %lld %s next %s",
	    (long long)s->ts, s->cpu, s->sw.prev_pid,
	    (long long)s->sw.prev_state, tdec_str(&tr, s->sw.prev_comm),
	    tdec_str(&tr, s->sw.next_comm));
	CHECK(s->ts - u->ts == 4000, "wakeup to switch %lld ns, not 4000",
	    (long long)(s->ts - u->ts));
	CHECK(tdec_first_at(&tr, 1001) == (size_t)iu &&
	    tdec_first_at(&tr, 0) == 0 && tdec_first_at(&tr, 9999) == tr.nev,
	    "tdec_first_at");

	/* Sent at 900 by pid 50 (latt), stamped at 6000. */
	ap = autopsy_of(&res, &smp, &tr, 50, 200, 900, 6000);
	CHECK(ap != NULL && ap->n == 1, "autopsy_new");
	CHECK(ap->s[0].found && ap->s[0].complete, "found %d complete %d: "
	    "%s", ap->s[0].found, ap->s[0].complete, ap->s[0].lost_note);
	CHECK(ap->s[0].issue == 100 && ap->s[0].in_flight == 100 &&
	    ap->s[0].rq_wait == 4000 && ap->s[0].running == 900,
	    "split: issue %lld in flight %lld queued %lld running %lld",
	    (long long)ap->s[0].issue, (long long)ap->s[0].in_flight,
	    (long long)ap->s[0].rq_wait, (long long)ap->s[0].running);
	CHECK(ap->s[0].waker_cpu == 0 && ap->s[0].target_cpu == 1 &&
	    ap->s[0].run_cpu == 1 && ap->s[0].waker_pid == 50,
	    "waker cpu %d pid %d target %d ran on %d", ap->s[0].waker_cpu,
	    (int)ap->s[0].waker_pid, ap->s[0].target_cpu, ap->s[0].run_cpu);
	CHECK(ap->s[0].nran == 1 && ap->s[0].ran[0].pid == 300 &&
	    ap->s[0].ran[0].ns == 4100, "who ran: %u tasks, first pid %d "
	    "for %lld ns", ap->s[0].nran, ap->s[0].nran ?
	    (int)ap->s[0].ran[0].pid : -1, ap->s[0].nran ?
	    (long long)ap->s[0].ran[0].ns : -1LL);
out:
	autopsy_free(ap);
	tdec_free(&tr);
}

/*
 * The order fix: CPU 0 idle, the task woken for it by CPU 1's task at
 * 1000, then seen back from read() on CPU 0, the kernel not tracing the
 * switch out of idle.  The switch inferred on CPU 0 is stamped 1 ns after
 * the wake-up: at its very stamp it would sort before CPU 1's wake-up
 * (the lower CPU first), and the autopsy would take the task's running
 * for a wait in the runqueue.  The other way round (the wake-up on the
 * lower CPU) is held to the same.
 */
static void
test_inferred_after_wakeup(void)
{
	struct page pg[2];
	struct tdec_trace tr;
	struct result res;
	struct sample smp;
	struct autopsy *ap = NULL;
	const struct tdec_ev *s;
	ssize_t iu, is;
	int32_t waker, idle;

	memset(&res, 0, sizeof(res));
	memset(&tr, 0, sizeof(tr));
	for (waker = 1; waker >= 0; waker--) {
		idle = !waker;
		CHECK(tdec_init(&tr, 2) == 0, "tdec_init");
		pg_start(&pg[idle], 100);
		ev_switch(&pg[idle], 100, 40, "old", TS_INTERRUPTIBLE, 0,
		    "swapper");
		ev_sysexit(&pg[idle], 3000, 200);
		pg_start(&pg[waker], 1000);
		ev_wake(&pg[waker], 1000, ID_WAKEUP, 300, 200, "client", idle);
		CHECK(decode(&tr, 2, pg, 2) == 0, "decode");
		CHECK(tr.nev == 4, "waker CPU %d: %zu events, not 3 and the "
		    "inferred switch", waker, tr.nev);
		iu = find(&tr, 0, EV_WAKEUP, 200, -1);
		is = find(&tr, 0, EV_SWITCH, -1, 200);
		CHECK(iu >= 0 && is >= 0, "wakeup %zd, switch %zd", iu, is);
		s = &tr.ev[is];
		CHECK(s->inferred && s->cpu == idle && s->sw.prev_pid == 0 &&
		    strcmp(tdec_str(&tr, s->sw.prev_comm), idle ? "swapper/1" :
		    "swapper/0") == 0, "waker CPU %d: switch inferred %d cpu %d "
		    "prev %d %s", waker, s->inferred, s->cpu, s->sw.prev_pid,
		    tdec_str(&tr, s->sw.prev_comm));
		CHECK(s->ts == 1001, "waker CPU %d: the inferred switch at %lld, "
		    "not 1 ns after the wake-up's 1000", waker,
		    (long long)s->ts);
		CHECK(is > iu, "waker CPU %d: the inferred switch on CPU %d "
		    "sorts at %zd, before its wake-up at %zd", waker, idle,
		    is, iu);

		/* Sent at 900, stamped at 3500: queued 1 ns, running after. */
		ap = autopsy_of(&res, &smp, &tr, 300, 200, 900, 3500);
		CHECK(ap != NULL && ap->n == 1 && ap->s[0].found,
		    "autopsy_new");
		CHECK(ap->s[0].rq_wait == 1 && ap->s[0].running == 2499 &&
		    ap->s[0].run_cpu == idle, "waker CPU %d: queued %lld ns, "
		    "running %lld ns on CPU %d, not 1 and 2499 on %d", waker,
		    (long long)ap->s[0].rq_wait, (long long)ap->s[0].running,
		    ap->s[0].run_cpu, idle);
		autopsy_free(ap);
		ap = NULL;
		res.autopsy = NULL;
		tdec_free(&tr);
	}
out:
	autopsy_free(ap);
	tdec_free(&tr);
}

/*
 * The task's first sign on the idle CPU 1 at the very stamp of its
 * wake-up on CPU 0: the switch is inferred at that stamp (never after
 * the sign) and sorts before the event it was inferred from.  A CPU whose
 * task is unknown (no switch seen), or whose switch out of idle was
 * traced, gets none.
 */
static void
test_inferred_same_stamp(void)
{
	struct page pg[3];
	struct tdec_trace tr;
	ssize_t ix, is;
	size_t k, ninf = 0;

	CHECK(tdec_init(&tr, 3) == 0, "tdec_init");
	pg_start(&pg[1], 100);
	ev_switch(&pg[1], 100, 40, "old", TS_INTERRUPTIBLE, 0, "swapper/1");
	ev_sysexit(&pg[1], 2000, 200);
	pg_start(&pg[0], 2000);
	ev_wake(&pg[0], 2000, ID_WAKEUP, 300, 200, "client", 1);
	/* CPU 2: its task never known; then idle, then a traced switch. */
	pg_start(&pg[2], 150);
	ev_sysexit(&pg[2], 150, 77);
	ev_switch(&pg[2], 160, 77, "other", TS_INTERRUPTIBLE, 0, "swapper/2");
	ev_wake(&pg[2], 170, ID_WAKEUP, 0, 78, "third", 2);
	ev_switch(&pg[2], 180, 0, "swapper/2", 0, 78, "third");
	ev_sysexit(&pg[2], 190, 78);
	CHECK(decode(&tr, 3, pg, 3) == 0, "decode");
	for (k = 0; k < tr.nev; k++)
		ninf += tr.ev[k].inferred;
	CHECK(ninf == 1, "%zu switches inferred, not 1 (CPU 1's)", ninf);
	is = find(&tr, 0, EV_SWITCH, -1, 200);
	ix = find(&tr, 0, EV_SYSEXIT, -1, -1);
	while (ix >= 0 && tr.ev[ix].pid != 200)
		ix = find(&tr, (size_t)ix + 1, EV_SYSEXIT, -1, -1);
	CHECK(is >= 0 && ix >= 0, "switch %zd sys_exit %zd", is, ix);
	CHECK(tr.ev[is].inferred && tr.ev[is].ts == 2000 && tr.ev[is].cpu == 1,
	    "switch: inferred %d at %lld on CPU %d", tr.ev[is].inferred,
	    (long long)tr.ev[is].ts, tr.ev[is].cpu);
	CHECK(is < ix, "the inferred switch (%zd) after the sys_exit it was "
	    "inferred from (%zd)", is, ix);
	for (k = 1; k < tr.nev; k++)
		CHECK(tr.ev[k - 1].ts < tr.ev[k].ts || (tr.ev[k - 1].ts ==
		    tr.ev[k].ts && tr.ev[k - 1].cpu <= tr.ev[k].cpu),
		    "events %zu and %zu out of order", k - 1, k);
out:
	tdec_free(&tr);
}

/*
 * Records of events latt does not read (an unknown id, one given up with
 * tdec_ignore) are passed over, their deltas still counted; a record too
 * short for its fields, and one of under 8 bytes, do not break the page.
 */
static void
test_unknown_skipped(void)
{
	struct page pg;
	struct tdec_trace tr;
	unsigned char rec[16];
	int ix = def_index("sys_exit");

	memset(&tr, 0, sizeof(tr));
	CHECK(ix >= 0, "sys_exit not among latt's events");
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	pg_start(&pg, 1000);
	ev_none(&pg, 1000);
	ev_wake(&pg, 1010, ID_WAKEUP, 5, 6, "a", 0);
	ev_none(&pg, 1030);
	ev_sysexit(&pg, 1040, 6);
	/* A sched_wakeup of 16 bytes: no pid, no target_cpu in it. */
	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_WAKEUP, 0, 9);
	pg_rec(&pg, 1050, rec, 16);
	pg_raw(&pg, 1 | (10u << 5), 0, rec, 4);	/* 4 bytes: under 8 */
	pg.ts += 10;
	ev_none(&pg, 1070);
	ev_wake(&pg, 1100, ID_WAKEUP, 5, 7, "b", 0);
	tdec_ignore((unsigned)ix);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 3, "%zu events, not 3 (the ignored sys_exit and the "
	    "unknown ids passed over)", tr.nev);
	CHECK(tr.ev[0].ts == 1010 && tr.ev[0].wake.pid == 6 &&
	    tr.ev[1].ts == 1050 && tr.ev[1].pid == 9 &&
	    tr.ev[1].wake.pid == 0 && tr.ev[1].wake.target_cpu == 0 &&
	    tr.ev[2].ts == 1100 && tr.ev[2].wake.pid == 7 &&
	    tr.ev[2].pid == 5, "events: %lld pid %d, %lld pid %d, %lld pid %d",
	    (long long)tr.ev[0].ts, tr.ev[0].wake.pid, (long long)tr.ev[1].ts,
	    tr.ev[1].wake.pid, (long long)tr.ev[2].ts, tr.ev[2].wake.pid);
out:
	tdec_free(&tr);
	if (load_formats() != 0)
		unit_fail("the formats could not be read again");
}

/*
 * A page cut short (its commit past what was read, a record across the
 * end, a page under its header) keeps the whole records before the cut;
 * a long record's length under 4 ends the page.
 */
static void
test_truncated(void)
{
	struct page pg;
	struct tdec_trace tr;
	size_t cut;

	memset(&tr, 0, sizeof(tr));
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	pg_start(&pg, 1000);
	ev_wake(&pg, 1000, ID_WAKEUP, 5, 6, "a", 0);
	cut = pg.len;
	ev_switch(&pg, 1200, 5, "a", TS_INTERRUPTIBLE, 6, "b");
	ev_wake(&pg, 1300, ID_WAKEUP, 5, 7, "c", 0);
	/* Read up to the middle of the switch; the commit says more. */
	tdec_page(&tr, 0, pg.b, cut + 20, 0);
	tdec_page(&tr, 0, pg.b, HDR - 1, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 1 && tr.ev[0].ts == 1000 && tr.ev[0].wake.pid == 6,
	    "a page cut in its second record: %zu events", tr.nev);
	tdec_free(&tr);

	/* The commit itself shorter than the page: what is past it unread. */
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	put(pg.b + 8, cut - HDR + 4, 8);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 1, "a short commit: %zu events, not 1", tr.nev);
	tdec_free(&tr);

	/* A long record (type_len 0) whose length word is under 4. */
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	pg_start(&pg, 1000);
	ev_wake(&pg, 1000, ID_WAKEUP, 5, 6, "a", 0);
	pg_raw(&pg, 0 | (5u << 5), 2, NULL, 0);
	ev_wake(&pg, 1300, ID_WAKEUP, 5, 7, "c", 0);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 1, "a long record of length 2: %zu events, not 1",
	    tr.nev);
out:
	tdec_free(&tr);
}

/*
 * The stamps: a time extend adds its 59 bits to the running stamp, an
 * absolute time stamp replaces it, a delta too long for 27 bits comes in
 * a time extend; padding with a length is passed over, and padding of
 * delta 0 ends the page.  Long records (type_len 0) are read.
 */
static void
test_stamps(void)
{
	struct page pg;
	struct tdec_trace tr;
	unsigned char rec[64];
	uint64_t ext = ((uint64_t)1 << 27) + 5;

	memset(&tr, 0, sizeof(tr));
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	pg_start(&pg, 1000);
	pg_raw(&pg, 30 | (uint32_t)((ext & ((1u << 27) - 1)) << 5),
	    (uint32_t)(ext >> 27), NULL, 0);
	pg.ts += (int64_t)ext;
	ev_wake(&pg, pg.ts + 3, ID_WAKEUP, 5, 1, "a", 0);
	pg_raw(&pg, 31 | (7u << 5), 0, NULL, 0);	/* absolute: 7 */
	pg.ts = 7;
	ev_wake(&pg, 9, ID_WAKEUP, 5, 2, "a", 0);
	/* Padding: its word counts itself and what follows it. */
	pg_raw(&pg, 29 | (1u << 5), 8, "pad-", 4);
	ev_wake(&pg, (int64_t)1 << 40, ID_WAKEUP, 5, 3, "a", 0);
	/* A long record: a length word, then the switch's 64 bytes. */
	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_SWITCH, 0, 0);
	put(rec + 56, 4, 4);			/* next_pid */
	pg_raw(&pg, 0 | (2u << 5), 64 + 4, rec, 64);
	pg.ts += 2;
	ev_wake(&pg, pg.ts + 1, ID_WAKEUP, 5, 8, "y", 0);
	pg_raw(&pg, 29, 0, NULL, 0);		/* the rest of the page */
	ev_wake(&pg, pg.ts + 1, ID_WAKEUP, 5, 9, "z", 0);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 5, "%zu events, not 5", tr.nev);
	CHECK(tr.ev[1].ts == 1000 + (int64_t)ext + 3 && tr.ev[1].wake.pid == 1,
	    "after a time extend: %lld", (long long)tr.ev[1].ts);
	CHECK(tr.ev[0].ts == 9 && tr.ev[0].wake.pid == 2,
	    "after an absolute stamp: %lld", (long long)tr.ev[0].ts);
	CHECK(tr.ev[2].ts == (int64_t)1 << 40 && tr.ev[2].wake.pid == 3,
	    "a long delta: %lld", (long long)tr.ev[2].ts);
	CHECK(tr.ev[3].kind == EV_SWITCH && tr.ev[3].sw.next_pid == 4 &&
	    tr.ev[3].ts == ((int64_t)1 << 40) + 2, "a long record: kind %d "
	    "next %d at %lld", tr.ev[3].kind, tr.ev[3].sw.next_pid,
	    (long long)tr.ev[3].ts);
	CHECK(tr.ev[4].wake.pid == 8 && tr.ev[4].ts == ((int64_t)1 << 40) + 3,
	    "the record after a long one: pid %d at %lld",
	    tr.ev[4].wake.pid, (long long)tr.ev[4].ts);
out:
	tdec_free(&tr);
}

/*
 * A field narrower than its place, signed: a 32-bit kernel's 4-byte
 * prev_state of -1 is -1, not 4294967295; the layout is the format
 * file's, whatever it is.
 */
static void
test_narrow_signed(void)
{
	char dir[128], path[160] = "";
	struct page pg;
	struct tdec_trace tr;
	unsigned char rec[60];
	FILE *fp = NULL;
	int i = def_index("sched_switch");

	memset(&tr, 0, sizeof(tr));
	snprintf(dir, sizeof(dir), "%s/narrow", fmtdir);
	CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
	snprintf(path, sizeof(path), "%s/format", dir);
	CHECK((fp = fopen(path, "w")) != NULL, "fopen %s", path);
	fputs("name: sched_switch\nID: 372\nformat:\n" COMMON_FIELDS
	    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	    "\tfield:long prev_state;\toffset:32;\tsize:4;\tsigned:1;\n"
	    "\tfield:char next_comm[16];\toffset:36;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t next_pid;\toffset:52;\tsize:4;\tsigned:1;\n"
	    "\tfield:int next_prio;\toffset:56;\tsize:4;\tsigned:1;\n", fp);
	fclose(fp);
	fp = NULL;
	CHECK(i >= 0 && tdec_format((unsigned)i, dir) == 0, "tdec_format");
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_SWITCH, 0, 7);
	put(rec + 24, 7, 4);
	put(rec + 32, 0xffffffffu, 4);
	memcpy(rec + 36, "next", 5);
	put(rec + 52, 8, 4);
	put(rec + 56, (uint32_t)-1, 4);
	pg_start(&pg, 10);
	pg_rec(&pg, 10, rec, sizeof(rec));
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 1 && tr.ev[0].sw.prev_state == -1 &&
	    tr.ev[0].sw.next_pid == 8 && tr.ev[0].sw.next_prio == -1 &&
	    strcmp(tdec_str(&tr, tr.ev[0].sw.next_comm), "next") == 0,
	    "%zu events; prev_state %lld next %d prio %d", tr.nev,
	    tr.nev ? (long long)tr.ev[0].sw.prev_state : 0LL,
	    tr.nev ? tr.ev[0].sw.next_pid : 0, tr.nev ?
	    tr.ev[0].sw.next_prio : 0);
out:
	if (fp != NULL)
		fclose(fp);
	if (path[0] != '\0') {
		unlink(path);
		rmdir(dir);
	}
	tdec_free(&tr);
	if (load_formats() != 0)
		unit_fail("the formats could not be read again");
}

/*
 * What a read lacks: a page after pages let go (gap) or flagged with
 * missed events marks a stretch from the CPU's last event to the page; a
 * first page flagged so marks the CPU as having lost events, with its
 * oldest event kept.
 */
static void
test_gaps(void)
{
	struct page pg;
	struct tdec_trace tr;

	memset(&tr, 0, sizeof(tr));
	CHECK(tdec_init(&tr, 2) == 0, "tdec_init");
	pg_start(&pg, 1000);
	ev_wake(&pg, 1000, ID_WAKEUP, 5, 6, "a", 0);
	ev_wake(&pg, 1500, ID_WAKEUP, 5, 6, "a", 0);
	put(pg.b + 8, (pg.len - HDR) | (1UL << 31), 8);	/* missed */
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	CHECK(tr.ngaps == 0 && tr.cpu[0].lost == 1 && tr.cpu[0].oldest == 1000,
	    "a first page after losses: %zu gaps, lost %llu, oldest %lld",
	    tr.ngaps, (unsigned long long)tr.cpu[0].lost,
	    (long long)tr.cpu[0].oldest);
	pg_start(&pg, 3000);
	ev_wake(&pg, 3000, ID_WAKEUP, 5, 6, "a", 0);
	put(pg.b + 8, (pg.len - HDR) | (1UL << 31), 8);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	pg_start(&pg, 8000);
	ev_wake(&pg, 8000, ID_WAKEUP, 5, 6, "a", 1);
	tdec_page(&tr, 0, pg.b, pg.len, 1);
	tdec_page(&tr, 1, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.ngaps == 2, "%zu gaps, not 2", tr.ngaps);
	CHECK(tr.gaps[0].cpu == 0 && tr.gaps[0].kernel &&
	    tr.gaps[0].from == 1500 && tr.gaps[0].to == 3000,
	    "lost by the kernel: cpu %d kernel %d %lld to %lld",
	    tr.gaps[0].cpu, tr.gaps[0].kernel, (long long)tr.gaps[0].from,
	    (long long)tr.gaps[0].to);
	CHECK(tr.gaps[1].cpu == 0 && !tr.gaps[1].kernel &&
	    tr.gaps[1].from == 3000 && tr.gaps[1].to == 8000,
	    "let go: cpu %d kernel %d %lld to %lld", tr.gaps[1].cpu,
	    tr.gaps[1].kernel, (long long)tr.gaps[1].from,
	    (long long)tr.gaps[1].to);
	CHECK(tr.nev == 5 && tr.cpu[1].lost == 0 && tr.cpu[1].oldest == 8000,
	    "%zu events; CPU 1 lost %llu", tr.nev,
	    (unsigned long long)tr.cpu[1].lost);
out:
	tdec_free(&tr);
}

/*
 * The other field shapes: a __data_loc string (an IRQ's name), an
 * unsigned pid field read as signed -1, a migration's CPUs; strings
 * interned once; tdec_str of 0 and of an index past the table is "".
 */
static void
test_fields(void)
{
	struct page pg;
	struct tdec_trace tr;
	unsigned char rec[40];

	memset(&tr, 0, sizeof(tr));
	CHECK(tdec_init(&tr, 1) == 0, "tdec_init");
	pg_start(&pg, 10);
	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_IRQ_ENTRY, 0x08, 0);
	put(rec + 8, 24, 4);				/* irq */
	put(rec + 12, 16 | (5u << 16), 4);		/* name at 16, 5 */
	memcpy(rec + 16, "eth0", 5);
	pg_rec(&pg, 10, rec, 24);
	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_MIGRATE, 0, 3);
	put(rec + 8, 28 | (7u << 16), 4);
	put(rec + 12, 42, 4);
	put(rec + 20, 1, 4);
	put(rec + 24, 0, 4);
	memcpy(rec + 28, "client", 7);
	pg_rec(&pg, 20, rec, 36);
	ev_wake(&pg, 30, ID_WAKEUP, 5, 42, "client", -1);
	ev_wake(&pg, 40, ID_WAKEUP, 5, 43, "client", 0);
	tdec_page(&tr, 0, pg.b, pg.len, 0);
	tdec_finish(&tr);
	CHECK(tr.nev == 4, "%zu events, not 4", tr.nev);
	CHECK(tr.ev[0].kind == EV_IRQ_ENTRY && tr.ev[0].intr.num == 24 &&
	    strcmp(tdec_str(&tr, tr.ev[0].intr.name), "eth0") == 0 &&
	    (tr.ev[0].flags & CTX_INTERRUPT), "irq %d name '%s' flags %#x",
	    tr.ev[0].intr.num, tdec_str(&tr, tr.ev[0].intr.name),
	    tr.ev[0].flags);
	CHECK(tr.ev[1].kind == EV_MIGRATE && tr.ev[1].mig.pid == 42 &&
	    tr.ev[1].mig.orig_cpu == 1 && tr.ev[1].mig.dest_cpu == 0 &&
	    tr.ev[1].pid == 3, "migrate: pid %d %d -> %d", tr.ev[1].mig.pid,
	    tr.ev[1].mig.orig_cpu, tr.ev[1].mig.dest_cpu);
	CHECK(tr.ev[2].wake.target_cpu == -1, "target_cpu -1 read as %d",
	    tr.ev[2].wake.target_cpu);
	CHECK(tr.ev[2].wake.comm == 0 && tr.ev[3].wake.comm == 0,
	    "sched_wakeup's comm read (latt does not read it)");
	CHECK(strcmp(tdec_str(&tr, 0), "") == 0 &&
	    strcmp(tdec_str(&tr, 100000), "") == 0, "tdec_str out of range");
	CHECK(strcmp(tdec_softirq_name(SOFTIRQ_TIMER), "TIMER") == 0 &&
	    strcmp(tdec_softirq_name(SOFTIRQ_HRTIMER), "HRTIMER") == 0 &&
	    strcmp(tdec_softirq_name(10), "?") == 0 &&
	    strcmp(tdec_softirq_name(-1), "?") == 0, "softirq names");
out:
	tdec_free(&tr);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		{ "trace_formats", test_formats },
		{ "trace_wakeup_switch_latency", test_wakeup_switch },
		{ "trace_inferred_after_wakeup", test_inferred_after_wakeup },
		{ "trace_inferred_same_stamp", test_inferred_same_stamp },
		{ "trace_unknown_ids_skipped", test_unknown_skipped },
		{ "trace_truncated_page", test_truncated },
		{ "trace_stamps", test_stamps },
		{ "trace_narrow_signed", test_narrow_signed },
		{ "trace_gaps", test_gaps },
		{ "trace_fields", test_fields },
	};
	int rc;

	if (write_formats() != 0 || load_formats() != 0) {
		printf("FAIL: trace_setup: the format files in %s: %s\n",
		    fmtdir, strerror(errno));
		remove_formats();
		return 1;
	}
	rc = unit_main(tests, NELEM(tests));
	remove_formats();
	return rc;
}

/* The format files under a new temporary directory. */
static int
write_formats(void)
{
	char path[192];
	const char *tmp = getenv("TMPDIR");
	size_t i;
	FILE *fp;
	int ok;

	snprintf(fmtdir, sizeof(fmtdir), "%s/unit_trace.XXXXXX",
	    tmp != NULL && *tmp != '\0' && strlen(tmp) < 40 ? tmp : "/tmp");
	if (mkdtemp(fmtdir) == NULL)
		return -1;
	for (i = 0; i < NELEM(fmtfiles); i++) {
		snprintf(path, sizeof(path), "%s/%s", fmtdir, fmtfiles[i].sys);
		if (mkdir(path, 0700) == -1 && errno != EEXIST)
			return -1;
		snprintf(path, sizeof(path), "%s/%s/%s", fmtdir,
		    fmtfiles[i].sys, fmtfiles[i].name);
		if (mkdir(path, 0700) == -1)
			return -1;
		strcat(path, "/format");
		if ((fp = fopen(path, "w")) == NULL)
			return -1;
		ok = fputs(fmtfiles[i].text, fp) >= 0;
		if (fclose(fp) != 0 || !ok)
			return -1;
	}
	return 0;
}

static void
remove_formats(void)
{
	char path[192];
	size_t i;

	for (i = 0; i < NELEM(fmtfiles); i++) {
		snprintf(path, sizeof(path), "%s/%s/%s/format", fmtdir,
		    fmtfiles[i].sys, fmtfiles[i].name);
		unlink(path);
		*strrchr(path, '/') = '\0';
		rmdir(path);
		*strrchr(path, '/') = '\0';
		rmdir(path);
	}
	rmdir(fmtdir);
}

/* Every event of latt's read, or given up: 0, or -1 when one failed. */
static int
load_formats(void)
{
	const struct tdec_def *d;
	char dir[160];
	unsigned i;

	for (i = 0; (d = tdec_def(i)) != NULL; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/%s", fmtdir, d->sys, d->name);
		if (tdec_format(i, dir) == 0)
			continue;
		if (errno != ENOENT)
			return -1;
		tdec_ignore(i);
	}
	return 0;
}

/* The index of latt's event of that name, or -1. */
static int
def_index(const char *name)
{
	const struct tdec_def *d;
	unsigned i;

	for (i = 0; (d = tdec_def(i)) != NULL; i++)
		if (strcmp(d->name, name) == 0)
			return (int)i;
	return -1;
}

/* A host-endian integer of n bytes at p, as the kernel writes them. */
static void
put(unsigned char *p, uint64_t v, int n)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	memcpy(p, n == 8 ? (void *)&v : n == 4 ? (void *)&w : n == 2 ?
	    (void *)&h : (void *)&b, (size_t)n);
}

static void
pg_start(struct page *p, int64_t ts)
{
	memset(p->b, 0, sizeof(p->b));
	put(p->b, (uint64_t)ts, 8);
	p->len = HDR;
	p->ts = ts;
}

/* A header word, a second word (unless type_len 1..28), n bytes. */
static void
pg_raw(struct page *p, uint32_t h, uint32_t word, const void *data, size_t n)
{
	uint32_t type = h & 0x1f;

	put(p->b + p->len, h, 4);
	p->len += 4;
	if (type == 0 || type >= 29) {
		put(p->b + p->len, word, 4);
		p->len += 4;
	}
	if (n > 0)
		memcpy(p->b + p->len, data, n);
	p->len += n;
	put(p->b + 8, p->len - HDR, 8);		/* the commit */
}

/* A record of n bytes (a multiple of 4, at most 112) stamped ts. */
static void
pg_rec(struct page *p, int64_t ts, const unsigned char *rec, size_t n)
{
	uint64_t d = (uint64_t)(ts - p->ts);

	if (d >= (1u << 27)) {
		pg_raw(p, 30 | (uint32_t)((d & ((1u << 27) - 1)) << 5),
		    (uint32_t)(d >> 27), NULL, 0);
		d = 0;
	}
	pg_raw(p, (uint32_t)(n / 4) | (uint32_t)(d << 5), 0, rec, n);
	p->ts = ts;
}

static void
rec_common(unsigned char *rec, unsigned id, unsigned flags, int32_t pid)
{
	put(rec, id, 2);
	rec[2] = (unsigned char)flags;
	rec[3] = 0;
	put(rec + 4, (uint32_t)pid, 4);
}

/* A sched_waking or sched_wakeup in task cur's context. */
static void
ev_wake(struct page *p, int64_t ts, unsigned id, int32_t cur, int32_t pid,
    const char *comm, int32_t target)
{
	unsigned char rec[36];

	memset(rec, 0, sizeof(rec));
	rec_common(rec, id, 0, cur);
	strncpy((char *)rec + 8, comm, 15);
	put(rec + 24, (uint32_t)pid, 4);
	put(rec + 28, 120, 4);
	put(rec + 32, (uint32_t)target, 4);
	pg_rec(p, ts, rec, sizeof(rec));
}

static void
ev_switch(struct page *p, int64_t ts, int32_t prev, const char *prev_comm,
    int64_t state, int32_t next, const char *next_comm)
{
	unsigned char rec[64];

	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_SWITCH, 0, prev);
	strncpy((char *)rec + 8, prev_comm, 15);
	put(rec + 24, (uint32_t)prev, 4);
	put(rec + 28, 120, 4);
	put(rec + 32, (uint64_t)state, 8);
	strncpy((char *)rec + 40, next_comm, 15);
	put(rec + 56, (uint32_t)next, 4);
	put(rec + 60, 120, 4);
	pg_rec(p, ts, rec, sizeof(rec));
}

/* A return from read() in task pid's context. */
static void
ev_sysexit(struct page *p, int64_t ts, int32_t pid)
{
	unsigned char rec[24];

	memset(rec, 0, sizeof(rec));
	rec_common(rec, ID_SYS_EXIT, 0, pid);
	put(rec + 8, 0, 8);
	pg_rec(p, ts, rec, sizeof(rec));
}

static void
ev_none(struct page *p, int64_t ts)
{
	unsigned char rec[20];

	memset(rec, 0xab, sizeof(rec));
	rec_common(rec, ID_NONE, 0, 1);
	pg_rec(p, ts, rec, sizeof(rec));
}

/* A read of one page a CPU, tr made by the caller: 0, or -1. */
static int
decode(struct tdec_trace *tr, unsigned ncpus, struct page *pg, unsigned n)
{
	unsigned c;

	if (n != ncpus)
		return -1;
	for (c = 0; c < n; c++)
		tdec_page(tr, c, pg[c].b, pg[c].len, 0);
	tdec_finish(tr);
	return 0;
}

/*
 * The index of the first event from k of that kind whose task (wake.pid
 * for a wake-up, prev_pid for a switch or -1) and next_pid (or -1) match;
 * -1 when none does.
 */
static ssize_t
find(const struct tdec_trace *tr, size_t k, int kind, int32_t pid,
    int32_t next)
{
	const struct tdec_ev *e;

	for (; k < tr->nev; k++) {
		e = &tr->ev[k];
		if (e->kind != kind)
			continue;
		if (kind == EV_SWITCH) {
			if ((pid < 0 || e->sw.prev_pid == pid) &&
			    (next < 0 || e->sw.next_pid == next))
				return (ssize_t)k;
		} else if (kind == EV_WAKEUP || kind == EV_WAKING) {
			if (pid < 0 || e->wake.pid == pid)
				return (ssize_t)k;
		} else
			return (ssize_t)k;
	}
	return -1;
}

/*
 * The autopsy of one sample of task pid, sent by parent at send and
 * stamped at stamp (the run starting at 0), made of res and followed
 * through tr.
 */
static struct autopsy *
autopsy_of(struct result *res, struct sample *smp,
    const struct tdec_trace *tr, int32_t parent, int32_t pid, int64_t send,
    int64_t stamp)
{
	struct autopsy *ap;

	memset(smp, 0, sizeof(*smp));
	smp->when = send;
	smp->pid = pid;
	smp->latency = stamp - send;
	smp->cpu = -1;
	smp->waker_cpu = -1;
	smp->rq_wait = -1;
	res->start = 0;
	res->worst = smp;
	res->nworst = 1;
	if ((ap = autopsy_new(res, "unit", 0, parent)) == NULL)
		return NULL;
	if (ap->error != NULL) {
		autopsy_free(ap);
		return NULL;
	}
	autopsy_analyse(ap, tr, parent);
	return ap;
}
