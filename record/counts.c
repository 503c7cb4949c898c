/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.c: what the kernel counted during a run (counts.h), read from
 * procfs at the run's two ends, never in the measured path.  The 1998
 * argument over sched_yield timings was settled by "eat /proc/stat before
 * and after": these are those numbers.
 */
#include <sys/types.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/common.h"
#include "record/counts.h"

#define TASK_BUF	4096		/* /proc/PID/status is ~1.4 KiB */

static int	 field_u64(const char *buf, const char *key, uint64_t *v);

void
counts_system(struct kcount *k)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long long v;
	int got = 0;
	FILE *fp;

	memset(k, 0, sizeof(*k));
	k->at = now_ns();
	if ((fp = fopen("/proc/stat", "re")) == NULL)
		return;
	while (got < 2 && getline(&line, &cap, fp) != -1) {
		/* "intr TOTAL per-irq...": the first number is the sum. */
		if (sscanf(line, "ctxt %llu", &v) == 1) {
			k->ctxt = v;
			got++;
		} else if (sscanf(line, "intr %llu", &v) == 1) {
			k->intr = v;
			got++;
		}
	}
	free(line);
	fclose(fp);
	k->sys_ok = got == 2;
}

int
counts_task(struct kcount *k, pid_t pid)
{
	char path[64], buf[TASK_BUF];
	uint64_t vol, invol, migr;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (proc_read_keyed(path, buf, sizeof(buf)) == -1 ||
	    field_u64(buf, "\nvoluntary_ctxt_switches:", &vol) == -1 ||
	    field_u64(buf, "\nnonvoluntary_ctxt_switches:", &invol) == -1)
		return -1;
	k->vol += vol;
	k->invol += invol;
	k->ntask++;
	/* /proc/PID/sched exists with CONFIG_SCHED_DEBUG only. */
	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	if (proc_read_keyed(path, buf, sizeof(buf)) == 0 &&
	    field_u64(buf, "\nse.nr_migrations", &migr) == 0) {
		k->migr += migr;
		k->nmigr++;
	}
	return 0;
}

void
counts_finish(struct counts *c, const struct kcount *end, unsigned ntasks)
{
	const struct kcount *b = &c->begin;

	c->valid = b->sys_ok && end->sys_ok && end->ctxt >= b->ctxt &&
	    end->intr >= b->intr;
	if (!c->valid)
		return;
	c->elapsed = end->at - b->at;
	c->ctxt = end->ctxt - b->ctxt;
	c->intr = end->intr - b->intr;
	c->clients_ok = b->ntask == ntasks && end->ntask == ntasks &&
	    end->vol >= b->vol && end->invol >= b->invol;
	c->vol = c->clients_ok ? end->vol - b->vol : 0;
	c->invol = c->clients_ok ? end->invol - b->invol : 0;
	c->migr_ok = c->clients_ok && b->nmigr == ntasks &&
	    end->nmigr == ntasks && end->migr >= b->migr;
	c->migr = c->migr_ok ? end->migr - b->migr : 0;
}

int
counts_runnable_open(void)
{
	return open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
}

/* "0.52 0.58 0.59 3/123 4567": the 3, which counts the reader itself. */
void
counts_runnable(int fd, struct counts *c, int64_t now)
{
	char buf[128], *p;
	ssize_t n;
	unsigned long v;

	if (fd < 0 || now < c->next_runnable)
		return;
	c->next_runnable = now + RUNNABLE_NS;
	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return;
	buf[n] = '\0';
	if ((p = strchr(buf, '/')) == NULL)
		return;
	while (p > buf && p[-1] != ' ')
		p--;
	v = strtoul(p, NULL, 10);
	c->runnable_sum += v;
	c->nrunnable++;
}

void
counts_merge(struct counts *t, const struct counts *r)
{
	if (!r->valid)
		return;
	t->clients_ok = (t->valid ? t->clients_ok : 1) && r->clients_ok;
	t->migr_ok = (t->valid ? t->migr_ok : 1) && r->migr_ok;
	t->valid = 1;
	t->elapsed += r->elapsed;
	t->ctxt += r->ctxt;
	t->intr += r->intr;
	t->vol += r->vol;
	t->invol += r->invol;
	t->migr += r->migr;
	t->runnable_sum += r->runnable_sum;
	t->nrunnable += r->nrunnable;
}

/* The number after key (and any spaces, colons), or -1. */
static int
field_u64(const char *buf, const char *key, uint64_t *v)
{
	const char *p = strstr(buf, key);
	char *end;

	if (p == NULL)
		return -1;
	p += strlen(key);
	p += strspn(p, " \t:");
	*v = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}
