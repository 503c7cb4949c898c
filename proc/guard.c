/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ends everything latt started beside the measurement, however latt
 * ends: what systemd's KillMode=control-group does, without a cgroup.
 *
 * latt is a child subreaper: a process of the workload that left its
 * process group (setsid, setpgid) comes back to latt once its parent
 * dies.  At every end, after the workload's group, guard_sweep ends these
 * strays: SIGTERM (and SIGCONT), SIGKILL after a grace, and the same for
 * their own orphans as they come back, until none is left.
 *
 * When latt dies without ending them (kill -9, a fault of its own), its
 * children go to init, and the guardian ends them.  It is a small forked
 * process, latt-guard, in a process group of its own, deaf to what a
 * terminal or a script sends, holding nothing of latt's but a pipe.
 * latt tells it the process groups to end (the workload's, the loads')
 * and the pids to spare (--explain's keeper, which removes its instance);
 * every GUARD_POLL_MS it notes latt's descendants and their start times
 * (a walk of the children files down from latt).  When the pipe closes
 * without a GUARD_QUIT (latt died), it stops them, the groups and all
 * their descendants (walks of /proc until one finds nothing new, so that
 * nothing forks or leaves meanwhile), sends SIGTERM and SIGCONT, and
 * SIGKILL to what is left after GUARD_GRACE_NS: all within 2 s (a
 * process that ignores or blocks SIGTERM, latt's clients among them, gets
 * SIGKILL at once).  What it noted matters: a group that loses latt is
 * orphaned, and stopping it makes the kernel send it SIGHUP, which ends a
 * shell and sends its children to init before a walk can find them.
 * Only a process that left the groups in the last GUARD_POLL_MS before
 * latt died and lost its parent since escapes it.
 *
 * The guardian of an undo, latt-undo, is the same process without the
 * looks: at the pipe's end it puts back what latt changed outside itself.
 *
 * Why a process and not a cgroup: a cgroup needs a writable, delegated
 * hierarchy, which latt mostly runs without (and cgroup v1 has no
 * cgroup.kill), and one with a controller of its own would change how the
 * workload is scheduled beside the clients.  The guardian needs nothing,
 * and costs a read of one small /proc file a process every GUARD_POLL_MS.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "proc/guard.h"
#include "proc/proc.h"

#define GUARD_POLL_MS	100		/* how often it notes latt's children */
#define GUARD_GRACE_NS	(500 * NSEC_PER_MSEC)	/* SIGTERM to SIGKILL */
#define GUARD_WAIT_NS	(1 * NSEC_PER_SEC)	/* latt waits for it */
#define GUARD_MAX	64		/* groups and pids it is told of */
#define GUARD_QUIT	'Q'		/* latt ended them itself: just go */
#define WALKS		16		/* walks of /proc to find all */

/* What latt writes to the guardian: under PIPE_BUF, so never torn. */
struct gmsg {
	char		 what;		/* GUARD_GROUP, _SPARE or _QUIT */
	pid_t		 pid;
};

/* A process, by procfs's pid and start time (so that a reused pid is
   never taken for it), and by the guardian's own pid, for kill. */
struct gproc {
	pid_t		 pid;
	pid_t		 own;
	pid_t		 pgid;		/* procfs's */
	uint64_t	 start;
	unsigned	 nlook;		/* looks that read it */
};

/* What the guardian knows. */
struct gstate {
	pid_t		 latt;		/* procfs's pid of latt */
	pid_t		 lattpg;	/* and its group's: its clients' */
	pid_t		 self;		/* and of the guardian */
	pid_t		 group[GUARD_MAX];	/* its own pids */
	size_t		 ngroup;
	pid_t		 spare[GUARD_MAX];
	size_t		 nspare;
	struct gproc	*kid;		/* latt's descendants at the last
					   look, by pid */
	size_t		 nkid;
	struct gproc	*doom;		/* what it ends once latt is dead */
	size_t		 ndoom, capdoom;
};

static void	 guardian(int, pid_t, void (*)(void *), void *, int)
		    __attribute__((noreturn));
static void	 detach(int, const char *, int);
static void	 look(struct gstate *);
static int	 note(const struct gstate *, const pid_t *, size_t,
	    struct gproc **, size_t *, size_t *);
static void	 end_all(struct gstate *);
static void	 freeze(struct gstate *);
static size_t	 walk(struct gstate *);
static void	 doom_signal(const struct gstate *, int, int);
static int	 doom_alive(const struct gstate *);
static int	 doom_has(const struct gstate *, pid_t);
static int	 doom_add(struct gstate *, pid_t, const struct proc_stat *);
static int	 same(const struct gproc *, struct proc_stat *);
static int	 has(const pid_t *, size_t, pid_t);
static int	 by_pid(const void *, const void *);

/* g holds the guardian's pipe. */
int
guard_start_undo(struct guard *g, void (*undo)(void *), void *arg, int keep)
{
	pid_t pid, latt = proc_self();
	int p[2];

	g->pid = 0;
	g->fd = -1;
	if (pipe2(p, O_CLOEXEC) == -1 || (pid = proc_fork(p)) == -1)
		return -1;
	if (pid == 0) {
		close(p[1]);
		guardian(p[0], latt, undo, arg, keep);
	}
	/* Its own group from now on, as the keeper's. */
	setpgid(pid, pid);
	close(p[0]);
	g->pid = pid;
	g->fd = p[1];
	return 0;
}

void
guard_tell(const struct guard *g, char what, pid_t pid)
{
	struct gmsg m;

	if (g->fd < 0 || pid <= 0)
		return;
	memset(&m, 0, sizeof(m));
	m.what = what;
	m.pid = pid;
	/* A guardian that died costs the guard, not the run. */
	(void)full_write(g->fd, &m, sizeof(m));
}

void
guard_stop(struct guard *g)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	int64_t giveup = now_ns() + GUARD_WAIT_NS;
	pid_t r;
	int st;

	guard_tell(g, GUARD_QUIT, 1);
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
	if (g->pid <= 0)
		return;
	while ((r = waitpid(g->pid, &st, WNOHANG)) == 0 ||
	    (r == -1 && errno == EINTR)) {
		if (now_ns() > giveup) {
			kill(g->pid, SIGKILL);
			while (waitpid(g->pid, &st, 0) == -1 && errno == EINTR)
				;
			break;
		}
		nanosleep(&ms, NULL);
	}
	g->pid = 0;
}

void
guard_sweep(const pid_t *spare, size_t nspare, int64_t grace_ns)
{
	struct timespec ms = { 0, 2 * NSEC_PER_MSEC };
	int64_t kill_at = now_ns() + grace_ns;
	int64_t giveup = kill_at + 5 * NSEC_PER_SEC;
	pid_t *kid, *termed = NULL, own, self = getpgrp();
	size_t n, i, nterm = 0, cap = 0;
	unsigned left;
	int st;

	for (;;) {
		left = 0;
		kid = proc_children(0, &n);
		for (i = 0; i < n; i++) {
			if ((own = proc_own(kid[i])) <= 0 ||
			    has(spare, nspare, own) || getpgid(own) == self ||
			    waitpid(own, &st, WNOHANG) == own)
				continue;
			left++;
			if (now_ns() >= kill_at) {
				kill(own, SIGKILL);
				continue;
			}
			if (has(termed, nterm, own))
				continue;
			kill(own, SIGTERM);
			kill(own, SIGCONT);
			if (grow(&termed, &cap, nterm, sizeof(*termed),
			    16) == 0)
				termed[nterm++] = own;
		}
		free(kid);
		if (left == 0 || now_ns() > giveup)
			break;
		nanosleep(&ms, NULL);
	}
	free(termed);
}

/*
 * A guardian's life: its pipe on fd 3 (and keep on 4), nothing else of
 * latt's; a look at latt's children every GUARD_POLL_MS (an undo's looks
 * at nothing); what latt tells it kept; and at the pipe's end without
 * GUARD_QUIT, the end of everything, or undo(arg).
 */
static void
guardian(int in, pid_t latt, void (*undo)(void *), void *arg, int keep)
{
	struct gstate gs;
	struct proc_stat lst;
	struct pollfd pf;
	struct gmsg m;
	ssize_t n;

	detach(in, undo != NULL ? "latt-undo" : "latt-guard", keep);
	memset(&gs, 0, sizeof(gs));
	gs.latt = latt;
	gs.self = proc_self();
	if (proc_stat(latt, &lst) == 0)
		gs.lattpg = lst.pgid;
	for (;;) {
		pf.fd = 3;
		pf.events = POLLIN;
		pf.revents = 0;
		if (poll(&pf, 1, undo != NULL ? -1 : GUARD_POLL_MS) > 0) {
			while ((n = read(3, &m, sizeof(m))) == -1 &&
			    errno == EINTR)
				;
			if (n == (ssize_t)sizeof(m) && m.what == GUARD_QUIT)
				_exit(0);
			if (n != (ssize_t)sizeof(m))
				break;
			if (m.what == GUARD_GROUP && gs.ngroup < GUARD_MAX)
				gs.group[gs.ngroup++] = m.pid;
			else if (m.what == GUARD_SPARE &&
			    gs.nspare < GUARD_MAX)
				gs.spare[gs.nspare++] = m.pid;
		}
		if (undo == NULL)
			look(&gs);
	}
	if (undo != NULL)
		undo(arg);
	else {
		/* latt's last children, while /proc still has it. */
		look(&gs);
		end_all(&gs);
	}
	_exit(0);
}

/*
 * A guardian's start: a process group of its own, its name, ahead of a
 * fair workload for a CPU (nice -10, where allowed, so that its look
 * every GUARD_POLL_MS is not held up by the load it guards: a late look
 * misses a process that escaped meanwhile), deaf to what a terminal or a
 * script sends, its pipe on fd 3, keep (when >= 0) on 4, and nothing else
 * of latt's.
 */
static void
detach(int in, const char *name, int keep)
{
	static const int deaf[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP,
	    SIGTTIN, SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	    SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR };

	setpgid(0, 0);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	(void)setpriority(PRIO_PROCESS, 0, -10);
	/* keep first out of the way of 3 and 4, then in its place. */
	if ((keep >= 0 && (keep = fcntl(keep, F_DUPFD, 5)) == -1) ||
	    dup2(in, 3) == -1 || (keep >= 0 && dup2(keep, 4) == -1))
		_exit(1);
	proc_detach(deaf, sizeof(deaf) / sizeof(deaf[0]), keep >= 0 ? 5 : 4);
}

/*
 * Notes latt's descendants (its clients aside), each with its start time,
 * by pid: one that leaves the groups and loses its parent before the end
 * (the orphans of a shell that a SIGHUP ends) is still known to be latt's.
 */
static void
look(struct gstate *gs)
{
	struct gproc *nk = NULL;
	pid_t *kid, parent = gs->latt;
	size_t n, m = 0, cap = 0, at = 0;

	/* latt is gone: what it had is what counts. */
	if ((kid = proc_children(gs->latt, &n)) == NULL)
		return;
	for (;;) {
		if (note(gs, kid, n, &nk, &m, &cap) == -1) {
			free(kid);
			free(nk);
			return;
		}
		free(kid);
		/* Breadth first, below all but the clients. */
		while (at < m && nk[at].pgid == gs->lattpg)
			at++;
		if (at == m)
			break;
		parent = nk[at++].pid;
		kid = proc_children(parent, &n);
	}
	qsort(nk, m, sizeof(*nk), by_pid);
	free(gs->kid);
	gs->kid = nk;
	gs->nkid = m;
}

/* Appends the n processes of kid to *nk, as known before or read now. */
static int
note(const struct gstate *gs, const pid_t *kid, size_t n,
    struct gproc **nk, size_t *m, size_t *cap)
{
	struct gproc *old, key, *g;
	struct proc_stat st;
	size_t i;

	for (i = 0; i < n; i++) {
		if (kid[i] == gs->self)
			continue;
		if (grow(nk, cap, *m, sizeof(**nk), 64) == -1)
			return -1;
		key.pid = kid[i];
		/*
		 * Known, it is not read again; but a process seen in latt's
		 * group (a client, or the workload before its setpgid) is
		 * read twice, the clients aside only then, and a group that
		 * latt named (the workload's, a load's) until it is seen in
		 * its own: seen in latt's on two looks, the workload was
		 * taken for a client, and what it forked went unnoted (a
		 * setsid escapee outlived a kill -9 of latt, 1 run in 8).
		 */
		old = gs->kid == NULL ? NULL : bsearch(&key, gs->kid,
		    gs->nkid, sizeof(*gs->kid), by_pid);
		if (old != NULL && (old->pgid != gs->lattpg ||
		    (old->nlook >= 2 && !has(gs->group, gs->ngroup,
		    old->own))))
			(*nk)[(*m)++] = *old;
		else if (proc_stat(kid[i], &st) == 0) {
			g = &(*nk)[(*m)++];
			g->pid = kid[i];
			g->own = proc_own(kid[i]);
			g->pgid = st.pgid;
			g->start = st.start;
			g->nlook = old != NULL && old->start == st.start ?
			    old->nlook + 1 : 1;
		}
	}
	return 0;
}

/*
 * latt died: everything it started is stopped, found, ended with
 * SIGTERM, and killed after GUARD_GRACE_NS.  latt's clients, in its own
 * group, get SIGKILL at once: they ignore SIGTERM, and have nothing to
 * clean up.
 */
static void
end_all(struct gstate *gs)
{
	struct timespec ms = { 0, 5 * NSEC_PER_MSEC };
	int64_t until;
	size_t i;

	freeze(gs);
	doom_signal(gs, SIGKILL, 1);
	doom_signal(gs, SIGTERM, 0);
	for (i = 0; i < gs->ngroup; i++)
		kill(-gs->group[i], SIGTERM);
	doom_signal(gs, SIGCONT, 0);
	for (i = 0; i < gs->ngroup; i++)
		kill(-gs->group[i], SIGCONT);
	until = now_ns() + GUARD_GRACE_NS;
	while (now_ns() < until && doom_alive(gs))
		nanosleep(&ms, NULL);
	/* What they forked meanwhile is found before its parent dies. */
	freeze(gs);
	for (i = 0; i < gs->ngroup; i++)
		kill(-gs->group[i], SIGKILL);
	doom_signal(gs, SIGKILL, 0);
}

/*
 * Stops the groups and every doomed process, and walks /proc again, until
 * a walk finds nothing new: then none of them can fork, and every child
 * is found while its parent still lives (an orphan's parent is init, and
 * nothing would tie it to latt any more).
 */
static void
freeze(struct gstate *gs)
{
	struct timespec ms = { 0, 2 * NSEC_PER_MSEC };
	size_t i;
	int w;

	for (w = 0; w < WALKS; w++) {
		for (i = 0; i < gs->ngroup; i++)
			kill(-gs->group[i], SIGSTOP);
		doom_signal(gs, SIGSTOP, 0);
		/* A stop still pending forbids a fork; let it land. */
		nanosleep(&ms, NULL);
		if (walk(gs) == 0)
			break;
	}
}

/*
 * One walk of /proc: latt's children as last seen (still the same
 * processes), the members of the groups, and every descendant of those,
 * the spared and the guardian aside, into gs->doom.  Returns how many it
 * added.
 */
static size_t
walk(struct gstate *gs)
{
	struct {
		pid_t		 pid;
		struct proc_stat st;
	} *all = NULL;
	struct proc_stat ks;
	struct dirent *de;
	size_t n = 0, cap = 0, i, before = gs->ndoom, grown;
	pid_t p;
	DIR *d;

	for (i = 0; i < gs->nkid; i++) {
		if (has(gs->spare, gs->nspare, gs->kid[i].own) ||
		    doom_has(gs, gs->kid[i].pid))
			continue;
		ks.pgid = gs->kid[i].pgid;
		ks.start = gs->kid[i].start;
		doom_add(gs, gs->kid[i].pid, &ks);
	}
	if ((d = opendir("/proc")) == NULL)
		return gs->ndoom - before;
	while ((de = readdir(d)) != NULL) {
		if ((p = (pid_t)strtol(de->d_name, NULL, 10)) <= 0 ||
		    p == gs->self)
			continue;
		if (grow(&all, &cap, n, sizeof(*all), 256) == -1)
			break;
		if (proc_stat(p, &all[n].st) == 0)
			all[n++].pid = p;
	}
	closedir(d);
	/* Group members, then descendants, until nothing more is added. */
	do {
		grown = gs->ndoom;
		for (i = 0; i < n; i++) {
			if (doom_has(gs, all[i].pid) ||
			    all[i].st.state == 'Z' ||
			    has(gs->spare, gs->nspare, proc_own(all[i].pid)))
				continue;
			if (doom_has(gs, all[i].st.ppid) || has(gs->group,
			    gs->ngroup, proc_own(all[i].st.pgid)))
				doom_add(gs, all[i].pid, &all[i].st);
		}
	} while (gs->ndoom > grown);
	free(all);
	return gs->ndoom - before;
}

/*
 * Sends sig to every doomed process that is still the one it was; with
 * clients, to latt's clients alone (its own group's), else to the others.
 * SIGTERM goes as SIGKILL to one that ignores or blocks it.
 */
static void
doom_signal(const struct gstate *gs, int sig, int clients)
{
	struct proc_stat st;
	size_t i;

	for (i = 0; i < gs->ndoom; i++) {
		if ((gs->doom[i].pgid == gs->lattpg) != clients ||
		    !same(&gs->doom[i], &st) || gs->doom[i].own <= 0)
			continue;
		/* One deaf to SIGTERM is not waited for. */
		if (sig == SIGTERM && proc_deaf(gs->doom[i].pid, sig) == 1)
			kill(gs->doom[i].own, SIGKILL);
		else
			kill(gs->doom[i].own, sig);
	}
}

/* Whether any doomed process is still alive (a zombie is not). */
static int
doom_alive(const struct gstate *gs)
{
	struct proc_stat st;
	size_t i;

	for (i = 0; i < gs->ndoom; i++)
		if (same(&gs->doom[i], &st) && st.state != 'Z')
			return 1;
	return 0;
}

static int
doom_has(const struct gstate *gs, pid_t pid)
{
	size_t i;

	for (i = 0; i < gs->ndoom; i++)
		if (gs->doom[i].pid == pid)
			return 1;
	return 0;
}

static int
doom_add(struct gstate *gs, pid_t pid, const struct proc_stat *st)
{
	if (grow(&gs->doom, &gs->capdoom, gs->ndoom, sizeof(*gs->doom),
	    64) == -1)
		return -1;
	gs->doom[gs->ndoom].pid = pid;
	gs->doom[gs->ndoom].own = proc_own(pid);
	gs->doom[gs->ndoom].pgid = st->pgid;
	gs->doom[gs->ndoom++].start = st->start;
	return 0;
}

/* Whether p is still the process it was (its pid not reused); *st is it. */
static int
same(const struct gproc *p, struct proc_stat *st)
{
	return proc_stat(p->pid, st) == 0 && st->start == p->start;
}

static int
has(const pid_t *v, size_t n, pid_t p)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return 1;
	return 0;
}

static int
by_pid(const void *a, const void *b)
{
	const struct gproc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}
