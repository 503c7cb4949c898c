/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The floor of a pipe wake-up sample: what any tool of latt's shape pays
 * for one sample before it measures anything.  A parent forks N clients
 * one at a time, each blocked in read() on its own pipe; the parent
 * sleeps a random while (uniform in [min, max] ms) and writes one request
 * to every client.  No stamp, no reply, no statistics: each client only
 * wakes, reads and blocks again.  Prints the CPU time of the parent and its clients (user
 * plus system) per request, and the context switches per request.
 *
 * bench/vs-2009.py runs it beside latt and the 2009 latt, so that a ratio
 * target can be read against the part of a sample no design can remove.
 *
 * usage: floor CLIENTS SECONDS MIN_MS MAX_MS
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double
seconds(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int
main(int argc, char *argv[])
{
	struct rusage self, kids;
	struct timespec now, start, nap;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	long nclients, secs, lo, hi, ms, i, j, sent = 0;
	char buf[48] = { 0 };
	int (*fds)[2], ready[2];
	pid_t pid;

	if (argc != 5)
		errx(2, "usage: floor CLIENTS SECONDS MIN_MS MAX_MS");
	nclients = strtol(argv[1], NULL, 10);
	secs = strtol(argv[2], NULL, 10);
	lo = strtol(argv[3], NULL, 10);
	hi = strtol(argv[4], NULL, 10);
	if (nclients < 1 || secs < 1 || lo < 0 || hi < lo)
		errx(2, "floor: bad arguments");
	if ((fds = calloc(nclients, sizeof(*fds))) == NULL)
		err(1, "calloc");
	if (pipe(ready) == -1)
		err(1, "pipe");
	/*
	 * One client at a time, each forked once the last is up, as latt
	 * does: forks overlapping the clients' start-up cost more CPU.
	 */
	for (i = 0; i < nclients; i++) {
		if (pipe(fds[i]) == -1)
			err(1, "pipe");
		if ((pid = fork()) == -1)
			err(1, "fork");
		if (pid == 0) {
			/* Only its own read end: EOF when the parent ends. */
			for (j = 0; j <= i; j++)
				close(fds[j][1]);
			close(ready[0]);
			if (write(ready[1], buf, 1) != 1)
				_exit(1);
			close(ready[1]);
			while (read(fds[i][0], buf, sizeof(buf)) > 0)
				;
			_exit(0);
		}
		close(fds[i][0]);
		if (read(ready[0], buf, 1) != 1)
			errx(1, "floor: a client did not start");
	}
	close(ready[0]);
	close(ready[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= secs)
			break;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ms = lo + (long)(x % (uint64_t)(hi - lo + 1));
		nap.tv_sec = ms / 1000;
		nap.tv_nsec = ms % 1000 * 1000000L;
		nanosleep(&nap, NULL);
		for (i = 0; i < nclients; i++)
			if (write(fds[i][1], buf, sizeof(buf)) == sizeof(buf))
				sent++;
	}
	for (i = 0; i < nclients; i++)
		close(fds[i][1]);
	while (wait(NULL) > 0)
		;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	if (sent == 0)
		errx(1, "floor: nothing sent");
	printf("requests %ld\n", sent);
	printf("cpu_per_request_us %.3f\n",
	    (seconds(self.ru_utime) + seconds(self.ru_stime) +
	    seconds(kids.ru_utime) + seconds(kids.ru_stime)) / sent * 1e6);
	printf("switches_per_request %.3f\n",
	    (double)(self.ru_nvcsw + self.ru_nivcsw + kids.ru_nvcsw +
	    kids.ru_nivcsw) / sent);
	free(fds);
	return 0;
}
