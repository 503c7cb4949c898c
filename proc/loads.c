/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bodies of the built-in loads of --load: what one load process does,
 * forever, until latt kills it.  Starting, stopping and reaping them is
 * workload.c's job; this file only knows the loops, their names, and what
 * one operation of each is.
 *
 * Every body counts its operations in its own cache-line slot of a shared
 * mapping, with a relaxed store every few hundred or thousand operations,
 * so that counting costs the loop next to nothing and a slot is never
 * shared between two CPUs.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "proc/loads.h"

#define MEM_MIN		(32UL << 20)	/* mem: at least 32 MiB a process */
#define MEM_MAX		(256UL << 20)	/* and at most 256 MiB */
#define CACHE_DIR	"/sys/devices/system/cpu/cpu0/cache"
#define LINE		64		/* bytes the mem load touches once */

/*
 * The body of the cpu, syscall and yield loads: batches of n operations
 * op, the count published after each batch.
 */
#define SPIN(slot, n, op) do {						\
	uint64_t ops = 0;						\
	unsigned k;							\
									\
	for (;;) {							\
		for (k = 0; k < (n); k++)				\
			op;						\
		ops += (n);						\
		publish((slot), ops);					\
	}								\
} while (0)

static void	 publish(struct load_slot *, uint64_t);
static void	 spin_fork(struct load_slot *) __attribute__((noreturn));
static void	 spin_pipe(struct load_slot *) __attribute__((noreturn));
static void	 spin_mem(struct load_slot *, size_t) __attribute__((noreturn));
static size_t	 parse_size(const char *);

size_t
loads_mem_bytes(void)
{
	char path[300], *text;
	struct dirent *de;
	size_t largest = 0, sz;
	DIR *d;

	if ((d = opendir(CACHE_DIR)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "index", 5) != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s/size", CACHE_DIR,
			    de->d_name);
			if ((text = file_text(path)) != NULL &&
			    (sz = parse_size(text)) > largest)
				largest = sz;
			free(text);
		}
		closedir(d);
	}
	if (largest > MEM_MAX / 2)
		return MEM_MAX;
	return 2 * largest > MEM_MIN ? 2 * largest : MEM_MIN;
}

/* A sysfs cache size, "32K" or "16M" or "1024": bytes, or 0. */
static size_t
parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno != 0 || v > (1ULL << 40))
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

void
loads_body(enum load_kind kind, struct load_slot *slot, size_t membytes)
{
	volatile uint64_t hog = 0;

	switch (kind) {
	case LOAD_CPU:
		/* The hog: increments of a volatile, nothing else. */
		SPIN(slot, 4096, hog++);
	case LOAD_SYSCALL:
		/* Kernel entry and exit; syscall() so libc cannot cache. */
		SPIN(slot, 256, syscall(SYS_getppid));
	case LOAD_YIELD:
		SPIN(slot, 64, sched_yield());
	case LOAD_FORK:
		spin_fork(slot);
	case LOAD_PIPE:
		spin_pipe(slot);
	case LOAD_MEM:
		spin_mem(slot, membytes);
	default:
		_exit(1);
	}
}

static void
publish(struct load_slot *slot, uint64_t ops)
{
	__atomic_store_n(&slot->ops, ops, __ATOMIC_RELAXED);
}

/*
 * A make -j worker: fork a child that execs /bin/true and wait for it, one
 * child at a time, so N workers never hold more than N children.  A fork
 * that fails (process limit) waits a millisecond and tries again.
 */
static void
spin_fork(struct load_slot *slot)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	uint64_t ops = 0;
	pid_t pid;
	int st;

	for (;;) {
		if ((pid = fork()) == -1) {
			nanosleep(&ms, NULL);
			continue;
		}
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		publish(slot, ++ops);
	}
}

/*
 * A pair passing one byte back and forth through two pipes: every pass is
 * a wake-up of a blocked reader.  This process forks its partner (which
 * uses slot[1]); each counts the bytes it received.  A partner that dies
 * ends the other one too (EOF, or SIGPIPE).
 */
static void
spin_pipe(struct load_slot *slot)
{
	int ping[2], pong[2], in, out, i;
	uint64_t ops = 0;
	char c = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(ping) == -1 || pipe(pong) == -1)
		_exit(1);
	if ((pid = fork()) == -1)
		_exit(1);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ping[1]);
		close(pong[0]);
		in = ping[0];
		out = pong[1];
		slot++;
	} else {
		close(ping[0]);
		close(pong[1]);
		in = pong[0];
		out = ping[1];
		if (write(out, &c, 1) != 1)
			_exit(1);
	}
	for (;;) {
		for (i = 0; i < 256; i++) {
			while ((n = read(in, &c, 1)) == -1 && errno == EINTR)
				;
			if (n != 1)
				_exit(1);
			if (full_write(out, &c, 1) == -1)
				_exit(1);
		}
		ops += 256;
		publish(slot, ops);
	}
}

/*
 * Streams through a private buffer larger than the last-level cache,
 * reading and writing one word of every 64-byte line, so that each pass
 * evicts the cache and pulls the whole buffer through memory.
 */
static void
spin_mem(struct load_slot *slot, size_t bytes)
{
	volatile uint64_t *buf;
	size_t nlines = bytes / LINE, i, j;
	uint64_t ops = 0;

	buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		_exit(1);
	for (;;) {
		for (i = 0; i < nlines; i += 4096) {
			for (j = i; j < nlines && j < i + 4096; j++)
				buf[j * (LINE / sizeof(uint64_t))]++;
			ops += j - i;
			publish(slot, ops);
		}
	}
}
