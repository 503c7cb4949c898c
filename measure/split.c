/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runqueue-wait split of a wake-up, from the woken process's run
 * delay: the second field of /proc/PID/schedstat, the time it spent
 * runnable but not running, and the third, the times it got a CPU.  Read
 * once before the wake-up (the process blocked) and once after it has
 * answered, the growth of the delay is the wait on the runqueue between
 * being woken and running, provided it got a CPU exactly once in between:
 * a delay is added to the field only when the task is switched in, so a
 * process preempted after waking and switched in again has two waits in
 * the growth and no way to tell them apart.  Such a wake-up is left out.
 *
 * The reads are latt's, not the client's, so that nothing is read on a
 * wake-up's way; a pread of a held file costs about a fifth of an open.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "measure/split.h"

#define SCHEDSTAT_PATH	"/proc/%ld/schedstat"

static int	 read_schedstat(int, int64_t *, uint64_t *);

int
split_probe(void)
{
	struct split_proc sp;
	int64_t delay;
	uint64_t runs;
	int r;

	if (split_open(&sp, getpid()) == -1)
		return -1;
	r = read_schedstat(sp.fd, &delay, &runs);
	split_close(&sp);
	return r;
}

int
split_open(struct split_proc *sp, pid_t pid)
{
	char path[48];

	sp->round = 0;
	snprintf(path, sizeof(path), SCHEDSTAT_PATH, (long)pid);
	return (sp->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ? -1 : 0;
}

void
split_close(struct split_proc *sp)
{
	if (sp->fd != -1)
		close(sp->fd);
	sp->fd = -1;
}

void
split_before(struct split_proc *sp, uint64_t round, int busy)
{
	sp->round = round;
	if (busy || read_schedstat(sp->fd, &sp->delay0, &sp->runs0) == -1)
		sp->runs0 = UINT64_MAX;
}

int
split_after(struct split_proc *sp, int64_t latency, int64_t *rq_wait)
{
	int64_t delay;
	uint64_t runs;

	if (sp->runs0 == UINT64_MAX ||
	    read_schedstat(sp->fd, &delay, &runs) == -1 ||
	    runs - sp->runs0 != 1 || delay < sp->delay0)
		return -1;
	*rq_wait = delay - sp->delay0 < latency ? delay - sp->delay0 :
	    latency;
	return 0;
}

/*
 * Reads a schedstat file from its start ("cpu_ns delay_ns runs") into
 * *delay and *runs.  Returns 0, or -1 with errno set (EINVAL: not in the
 * expected shape).
 */
static int
read_schedstat(int fd, int64_t *delay, uint64_t *runs)
{
	char buf[96], *p, *end;
	unsigned long long v[3];
	ssize_t n;
	int i;

	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0) {
		if (n == 0)
			errno = EINVAL;
		return -1;
	}
	buf[n] = '\0';
	for (i = 0, p = buf; i < 3; i++, p = end) {
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (end == p || errno != 0) {
			errno = EINVAL;
			return -1;
		}
	}
	*delay = (int64_t)v[1];
	*runs = v[2];
	return 0;
}
