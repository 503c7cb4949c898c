/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The keeper of --explain's tracefs instance: a small process
 * (latt-tracefs) that outlives anything latt can die of, so that the
 * instance is removed even after a SIGKILL, and that meanwhile drains
 * every CPU's raw buffer every DRAIN_MS, keeping only the pages the
 * autopsy can need: those of the windows explain_keep publishes (the K
 * worst samples so far) and the last HISTORY_NS, at most KEEP_MAX bytes.
 * A long busy run therefore keeps its early worst samples, which the ring
 * buffer alone would have overwritten.  On request it sends its pages back
 * to latt, which hands them to the decoder (keeper_fetch).  Nothing here
 * prints, and nothing here knows the events' layout: a page is its time
 * stamp and its bytes.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "explain/keeper.h"
#include "explain/tracedec.h"
#include "lib/common.h"
#include "proc/proc.h"

#define DRAIN_MS	100		/* how often it drains the buffers */
#define HISTORY_NS	(1 * NSEC_PER_SEC)	/* the last stretch it keeps */
#define KEEP_MAX	((size_t)64 << 20)	/* bytes of pages it holds */
#define REC_END		UINT32_MAX	/* the last record it sends */
#define REC_GAP		0x80000000u	/* pages before this one let go */
#define KEEPER_IDLE_MS	2000		/* latt waits this long for more */

/* The pages the keeper holds for one CPU, oldest first. */
struct kpage {
	int64_t		 ts;		/* the page's time stamp */
	uint32_t	 len;
	int		 gap;		/* pages before it were let go */
	unsigned char	*data;
};
struct kcpu {
	int		 fd;		/* its trace_pipe_raw */
	struct kpage	*p;
	size_t		 n, cap;
};

static void	 keeper_loop(const char *, struct kwin *);
static int	 full_read(int, void *, size_t);
static size_t	 keeper_page_size(const char *);

/*
 * The keeper is a child in a process group of its own, deaf to the
 * signals a terminal or a script sends.  It reaches the instance through
 * tracefs's instances directory held open (fd 5 in the keeper), never
 * through the mount's path: a tracefs unmounted (lazily) during the run
 * is still reached, and the instance still removed.
 */
pid_t
keeper_start(const char *name, int ifd, int *wfd, int *rfd, struct kwin *win)
{
	static const int deaf[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP,
	    SIGTTIN, SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2 };
	struct timespec ms = { 0, 20 * NSEC_PER_MSEC };
	struct sigaction sa;
	char on[PATH_MAX], dir[64];
	size_t i;
	pid_t pid;
	int p[2], q[2], fd, a, b, c, e;

	if (pipe2(p, O_CLOEXEC) == -1)
		return -1;
	if (pipe2(q, O_CLOEXEC) == -1 || (pid = proc_fork(q)) == -1) {
		e = errno;
		close(p[0]);
		close(p[1]);
		errno = e;
		return -1;
	}
	if (pid > 0) {
		/* Its own group from now on, not from when it first runs. */
		setpgid(pid, pid);
		close(p[0]);
		close(q[1]);
		*wfd = p[1];
		*rfd = q[0];
		return pid;
	}
	setpgid(0, 0);
	prctl(PR_SET_NAME, "latt-tracefs", 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	for (i = 0; i < sizeof(deaf) / sizeof(deaf[0]); i++)
		sigaction(deaf[i], &sa, NULL);
	/* Its pipe in on fd 3, the pages out on fd 4, tracefs on 5. */
	if ((a = fcntl(p[0], F_DUPFD, 10)) == -1 ||
	    (b = fcntl(q[1], F_DUPFD, 10)) == -1 ||
	    (c = fcntl(ifd, F_DUPFD, 10)) == -1 ||
	    dup2(a, 3) == -1 || dup2(b, 4) == -1 || dup2(c, 5) == -1)
		_exit(1);
	snprintf(dir, sizeof(dir), "/proc/self/fd/5/%s", name);
	/* Nor latt's output: a reader of it must see its end with latt's. */
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 5)
			close(fd);
	}
#ifdef SYS_close_range
	syscall(SYS_close_range, 6U, ~0U, 0);
#else
	for (fd = 6; fd < 1024; fd++)
		close(fd);
#endif
	keeper_loop(dir, win);
	snprintf(on, sizeof(on), "%s/tracing_on", dir);
	for (i = 0; i < 100; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			_exit(0);
		if (errno != EBUSY)
			_exit(1);
		if ((fd = open(on, O_WRONLY)) != -1) {
			(void)write(fd, "0", 1);
			close(fd);
		}
		nanosleep(&ms, NULL);
	}
	_exit(1);
}

/*
 * Reads len bytes, waiting at most KEEPER_IDLE_MS for each piece of them
 * and no longer once got_stop is set; errno as keeper_fetch's.
 */
static int
full_read(int fd, void *buf, size_t len)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	char *p = buf;
	int64_t idle = now_ns() + KEEPER_IDLE_MS * NSEC_PER_MSEC;
	ssize_t n;
	int r;

	while (len > 0) {
		if (got_stop) {
			errno = EINTR;
			return -1;
		}
		r = poll(&pf, 1, 50);
		if (r == 0 || (r == -1 && errno == EINTR)) {
			if (now_ns() < idle)
				continue;
			errno = ETIMEDOUT;
			return -1;
		}
		if (r == -1)
			return -1;
		if ((n = read(fd, p, len)) <= 0) {
			if (n == -1 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n == 0)
				errno = EPIPE;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		idle = now_ns() + KEEPER_IDLE_MS * NSEC_PER_MSEC;
	}
	return 0;
}

/* The size of one page of the buffers of the instance at dir. */
static size_t
keeper_page_size(const char *dir)
{
	char path[PATH_MAX];
	long long kb;

	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", dir);
	kb = file_ll(path);
	return kb > 0 && kb <= 1024 ? (size_t)kb * 1024 :
	    (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * The windows to keep, as explain_keep last wrote them; none when they
 * stay half-written (latt died in the middle of writing them).
 */
static unsigned
keeper_windows(const struct kwin *win, struct kspan *w)
{
	uint32_t s1, s2, n = 0;
	unsigned tries = 0;

	do {
		if (tries++ == 1000)
			return 0;
		if ((s1 = atomic_load(&win->seq)) & 1) {
			s2 = s1 + 1;
			continue;
		}
		n = win->n <= EXPLAIN_MAX + 1 ? win->n : 0;
		memcpy(w, win->w, n * sizeof(*w));
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load(&win->seq);
	} while (s1 != s2);
	return n;
}

/*
 * Lets go of the pages no window needs and older than horizon; the page
 * after one let go is marked, so that the reader knows of the hole.
 */
static void
keeper_prune(struct kcpu *kc, unsigned ncpu, const struct kspan *w,
    unsigned nw, int64_t horizon, size_t *bytes)
{
	struct kcpu *c;
	int64_t end;
	size_t i, j;
	unsigned k, cpu;
	int keep, dropped;

	for (cpu = 0; cpu < ncpu; cpu++) {
		c = &kc[cpu];
		dropped = 0;
		for (i = j = 0; i < c->n; i++) {
			end = i + 1 < c->n ? c->p[i + 1].ts : INT64_MAX;
			keep = end >= horizon;
			for (k = 0; !keep && k < nw; k++)
				keep = c->p[i].ts <= w[k].to &&
				    end >= w[k].from;
			if (!keep) {
				*bytes -= c->p[i].len;
				free(c->p[i].data);
				dropped = 1;
				continue;
			}
			c->p[j] = c->p[i];
			c->p[j++].gap |= dropped;
			dropped = 0;
		}
		c->n = j;
	}
}

/* Reads what each CPU's buffer has; -1 when memory ran out. */
static int
keeper_drain(struct kcpu *kc, unsigned ncpu, size_t page, size_t *bytes)
{
	struct kcpu *c;
	unsigned char *buf;
	unsigned cpu;
	ssize_t n;

	for (cpu = 0; cpu < ncpu; cpu++) {
		c = &kc[cpu];
		for (;;) {
			if ((buf = malloc(page)) == NULL)
				return -1;
			if ((n = read(c->fd, buf, page)) <= 0) {
				free(buf);
				break;
			}
			if (grow(&c->p, &c->cap, c->n, sizeof(*c->p),
			    64) == -1) {
				free(buf);
				return -1;
			}
			/* A page's time stamp: the first 8 bytes of it. */
			c->p[c->n].ts = 0;
			if (n >= 8)
				memcpy(&c->p[c->n].ts, buf, 8);
			c->p[c->n].len = (uint32_t)n;
			c->p[c->n].gap = 0;
			c->p[c->n].data = buf;
			c->n++;
			*bytes += (size_t)n;
		}
	}
	return 0;
}

/*
 * Sends every page held, oldest first a CPU: a record is its CPU (with
 * REC_GAP when pages before it were let go) and its length, then the page;
 * REC_END ends them.  Then holds nothing.
 */
static void
keeper_send(struct kcpu *kc, unsigned ncpu, size_t *bytes)
{
	uint32_t hdr[2];
	unsigned cpu;
	size_t i;
	int ok = 1;

	for (cpu = 0; cpu < ncpu; cpu++) {
		for (i = 0; i < kc[cpu].n; i++) {
			hdr[0] = cpu | (kc[cpu].p[i].gap ? REC_GAP : 0);
			hdr[1] = kc[cpu].p[i].len;
			if (ok && (full_write(4, hdr, sizeof(hdr)) == -1 ||
			    full_write(4, kc[cpu].p[i].data,
			    kc[cpu].p[i].len) == -1))
				ok = 0;
			free(kc[cpu].p[i].data);
		}
		kc[cpu].n = 0;
	}
	*bytes = 0;
	hdr[0] = REC_END;
	hdr[1] = 0;
	if (ok)
		(void)full_write(4, hdr, sizeof(hdr));
}

/*
 * The keeper's work until its pipe closes (less history when over
 * KEEP_MAX; on a 'D', drain and send); returns holding no descriptor of
 * tracefs.
 */
static void
keeper_loop(const char *dir, struct kwin *win)
{
	struct kspan w[EXPLAIN_MAX + 1];
	int64_t now, hist;
	char path[PATH_MAX], c;
	struct kcpu *kc = NULL, *nk;
	struct pollfd pf = { .fd = 3, .events = POLLIN };
	size_t page = keeper_page_size(dir), bytes = 0, i;
	unsigned ncpu = 0, nw, cpu;
	ssize_t n;
	int fd, r;

	for (;;) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw",
		    dir, ncpu);
		if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
			break;
		if ((nk = realloc(kc, (ncpu + 1) * sizeof(*kc))) == NULL) {
			close(fd);
			break;
		}
		kc = nk;
		memset(&kc[ncpu], 0, sizeof(kc[ncpu]));
		kc[ncpu++].fd = fd;
	}
	for (;;) {
		r = poll(&pf, 1, DRAIN_MS);
		if (r == -1 && errno != EINTR)
			break;
		if (r <= 0) {
			/* Out of memory: what it holds is pruned anyway. */
			(void)keeper_drain(kc, ncpu, page, &bytes);
			nw = keeper_windows(win, w);
			now = now_ns();
			for (hist = HISTORY_NS; ; hist /= 4) {
				keeper_prune(kc, ncpu, w, nw, now - hist,
				    &bytes);
				if (bytes <= KEEP_MAX || hist == 0)
					break;
			}
			continue;
		}
		while ((n = read(3, &c, 1)) == -1 && errno == EINTR)
			;
		if (n != 1)
			break;
		(void)keeper_drain(kc, ncpu, page, &bytes);
		keeper_send(kc, ncpu, &bytes);
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		close(kc[cpu].fd);
		for (i = 0; i < kc[cpu].n; i++)
			free(kc[cpu].p[i].data);
		free(kc[cpu].p);
	}
	free(kc);
}

int
keeper_fetch(const char *dir, int wfd, int rfd, struct tdec_trace *tr)
{
	size_t page = keeper_page_size(dir);
	unsigned char *buf;
	uint32_t hdr[2], cpu;
	int ret = -1;

	if ((buf = malloc(page)) == NULL || full_write(wfd, "D", 1) == -1) {
		free(buf);
		return -1;
	}
	while (full_read(rfd, hdr, sizeof(hdr)) == 0) {
		if (hdr[0] == REC_END) {
			ret = 0;
			break;
		}
		cpu = hdr[0] & ~REC_GAP;
		if (hdr[1] > page || hdr[1] < 16 || cpu >= tr->ncpus) {
			errno = EPROTO;
			break;
		}
		if (full_read(rfd, buf, hdr[1]) == -1)
			break;
		tdec_page(tr, cpu, buf, hdr[1], (hdr[0] & REC_GAP) != 0);
	}
	free(buf);
	return ret;
}
