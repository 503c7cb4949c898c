/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What /proc says of processes: a process's numbers in its PID
 * namespaces (the NSpid line of its status), its state, parent, group and
 * start time (its stat), its children, whether latt's pids are the ones
 * tracefs records, and which limit refused a fork; and the fork and the
 * detaching every helper process of latt's shares.  Nothing here prints
 * or exits; a file that cannot be read is an answer of its own.
 *
 * procfs numbers processes as the PID namespace it was mounted in sees
 * them, which need not be latt's own (a container that sees the host's
 * /proc): proc_own turns a procfs pid into one that kill(2) takes.
 */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/common.h"
#include "proc/proc.h"

/* The initial PID namespace (the kernel's PROC_PID_INIT_INO). */
#define PID_NS_INIT	"pid:[4026531836]"
#define PF_KTHREAD	0x00200000	/* a kernel thread */
#define NS_DEPTH_MAX	32		/* PID namespaces nest at most 32 */

static int	 add_pids(const char *, pid_t **, size_t *, size_t *);
static pid_t	*scan_children(pid_t, size_t *);
static int	 pids_cgroup(char *, size_t);
static FILE	*open_pid(pid_t, const char *);

int
proc_nspid(pid_t pid, pid_t *ids, int max)
{
	char line[512], *p, *end;
	long v;
	FILE *fp;
	int n = -1;

	if ((fp = open_pid(pid, "status")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		n = 0;
		for (p = line + 6; ; p = end) {
			errno = 0;
			v = strtol(p, &end, 10);
			if (end == p || errno != 0 || v <= 0)
				break;
			if (n < max)
				ids[n] = (pid_t)v;
			n++;
		}
		break;
	}
	fclose(fp);
	return n > 0 ? n : -1;
}

pid_t
proc_self(void)
{
	char buf[32];
	ssize_t n;

	if ((n = readlink("/proc/self", buf, sizeof(buf) - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

pid_t
proc_own(pid_t pid)
{
	/* Whether procfs is latt's own namespace's: so after a fork too. */
	static int same = -1;
	pid_t ids[NS_DEPTH_MAX], self;
	int n, depth;

	if (same == -1)
		same = (self = proc_self()) == getpid() || self <= 0;
	if (same)
		return pid;
	if ((depth = proc_nspid(0, ids, NS_DEPTH_MAX) - 1) < 0 ||
	    depth >= NS_DEPTH_MAX)
		return 0;
	if ((n = proc_nspid(pid, ids, NS_DEPTH_MAX)) <= depth)
		return 0;
	return ids[depth];
}

int
proc_stat(pid_t pid, struct proc_stat *st)
{
	char buf[1024], *p;
	unsigned long long start;
	ssize_t n;
	FILE *fp;
	int k;

	if ((fp = open_pid(pid, "stat")) == NULL)
		return -1;
	n = (ssize_t)fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The name may hold anything, parentheses too: the last one ends it. */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	k = sscanf(p + 1, " %c %d %d %*d %*d %*d %u %*u %*u %*u %*u %*u %*u "
	    "%*d %*d %*d %*d %*d %*d %llu", &st->state, &st->ppid, &st->pgid,
	    &st->flags, &start);
	if (k != 5)
		return -1;
	st->start = start;
	return 0;
}

int
proc_deaf(pid_t pid, int sig)
{
	char line[256];
	unsigned long long mask;
	int deaf = -1;
	FILE *fp;

	if ((fp = open_pid(pid, "status")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if ((sscanf(line, "SigIgn: %llx", &mask) == 1 ||
		    sscanf(line, "SigBlk: %llx", &mask) == 1)) {
			if (deaf == -1)
				deaf = 0;
			if (mask & (1ULL << (sig - 1)))
				deaf = 1;
		}
	fclose(fp);
	return deaf;
}

pid_t *
proc_children(pid_t pid, size_t *n)
{
	char path[64], file[400];
	struct dirent *de;
	pid_t *out = NULL;
	size_t cap = 0;
	DIR *d;
	int any = 0;

	*n = 0;
	if (pid == 0 && (pid = proc_self()) <= 0)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(file, sizeof(file), "%s/%s/children", path,
		    de->d_name);
		if (add_pids(file, &out, n, &cap) == 0)
			any = 1;
	}
	closedir(d);
	if (any)
		return out;
	free(out);
	return scan_children(pid, n);
}

/* The children of pid from every process's stat: the slow way. */
static pid_t *
scan_children(pid_t pid, size_t *n)
{
	struct proc_stat st;
	struct dirent *de;
	pid_t *out = NULL, p;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	if ((d = opendir("/proc")) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if ((p = (pid_t)strtol(de->d_name, NULL, 10)) <= 0 ||
		    proc_stat(p, &st) == -1 || st.ppid != pid)
			continue;
		if (grow(&out, &cap, *n, sizeof(*out), 64) == -1)
			break;
		out[(*n)++] = p;
	}
	closedir(d);
	return out;
}

/* Appends the pids listed in file.  Returns 0, or -1 when unreadable. */
static int
add_pids(const char *file, pid_t **out, size_t *n, size_t *cap)
{
	char *buf = NULL, *p, *end;
	size_t len = 0;
	FILE *fp;
	long v;

	if ((fp = fopen(file, "re")) == NULL)
		return -1;
	/* The whole file, of any length: no NUL ends it sooner. */
	if (getdelim(&buf, &len, '\0', fp) > 0)
		for (p = buf; ; p = end) {
			v = strtol(p, &end, 10);
			if (end == p || v <= 0 ||
			    grow(out, cap, *n, sizeof(**out), 64) == -1)
				break;
			(*out)[(*n)++] = (pid_t)v;
		}
	free(buf);
	fclose(fp);
	return 0;
}

enum proc_view
proc_host_view(pid_t *host, char *why, size_t len)
{
	pid_t ids[NS_DEPTH_MAX];
	struct proc_stat kt;
	char link[64];
	ssize_t n;
	int k;

	*host = getpid();
	if ((n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1)) ==
	    -1) {
		/* A kernel without PID namespaces has only the one. */
		if (errno == ENOENT && access("/proc/self/stat", F_OK) == 0)
			return PROC_VIEW_SAME;
		snprintf(why, len, "cannot tell whether latt runs in a PID "
		    "namespace: /proc/self/ns/pid: %s", strerror(errno));
		return PROC_VIEW_NONE;
	}
	link[n] = '\0';
	if (strcmp(link, PID_NS_INIT) == 0)
		return PROC_VIEW_SAME;
	/*
	 * Kernel threads belong to the initial namespace alone: procfs
	 * shows kthreadd as pid 2 only when it is the initial one's.
	 */
	k = proc_nspid(0, ids, NS_DEPTH_MAX);
	if (k >= 2 && proc_stat(2, &kt) == 0 && (kt.flags & PF_KTHREAD)) {
		*host = ids[0];
		return PROC_VIEW_NSPID;
	}
	snprintf(why, len, "latt runs in a PID namespace (%s) whose /proc "
	    "does not show the host's pids, which tracefs records: run it "
	    "in the host's PID namespace, or where /proc is the host's "
	    "(unshare -p without --mount-proc)", link);
	return PROC_VIEW_NONE;
}

const char *
proc_fork_why(int err, char *buf, size_t len)
{
	char tasks[64];
	struct rlimit rl;
	long long pidmax = file_ll("/proc/sys/kernel/pid_max");
	long long thrmax = file_ll("/proc/sys/kernel/threads-max");
	long long ntasks = -1;
	FILE *fp;

	if (err == ENOMEM) {
		snprintf(buf, len, "out of memory: a memory cgroup's limit "
		    "(memory.max), or the overcommit policy");
		return buf;
	}
	if (pids_cgroup(buf, len) == 0)
		return buf;
	if (getuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		snprintf(buf, len, "the process limit RLIMIT_NPROC, ulimit "
		    "-u, is %llu for this user",
		    (unsigned long long)rl.rlim_cur);
		return buf;
	}
	/* The tasks the kernel runs: the denominator of loadavg. */
	if ((fp = fopen("/proc/loadavg", "re")) != NULL) {
		if (fscanf(fp, "%*s %*s %*s %63s", tasks) == 1 &&
		    strchr(tasks, '/') != NULL)
			ntasks = strtoll(strchr(tasks, '/') + 1, NULL, 10);
		fclose(fp);
	}
	if (ntasks > 0 && ((thrmax > 0 && ntasks >= thrmax - 16) ||
	    (pidmax > 0 && ntasks >= pidmax - 300)))
		snprintf(buf, len, "the kernel's process table is full: "
		    "%lld tasks, kernel.threads-max %lld, kernel.pid_max "
		    "%lld", ntasks, thrmax, pidmax);
	else
		snprintf(buf, len, "no limit found at its maximum now: a "
		    "pids cgroup, RLIMIT_NPROC (ulimit -u) or the kernel's "
		    "pid_max");
	return buf;
}

/*
 * A pids cgroup of latt's (its own or an ancestor) at its pids.max: the
 * limit into buf.  Returns 0, or -1 when there is none.
 */
static int
pids_cgroup(char *buf, size_t len)
{
	char line[PATH_MAX], rel[PATH_MAX], mnt[PATH_MAX], root[PATH_MAX];
	char dir[PATH_MAX * 2 + 16], opts[512], type[64], *p, *slash;
	long long max, cur;
	int v2, found = 0;
	size_t n;
	FILE *fp;

	/* "N:pids:/path" (v1) or "0::/path" (v2), relative to its root. */
	if ((fp = fopen("/proc/self/cgroup", "re")) == NULL)
		return -1;
	/* A v1 pids hierarchy holds the controller; else v2 may. */
	while (found != 1 && fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((p = strchr(line, ':')) == NULL ||
		    (slash = strchr(p + 1, ':')) == NULL)
			continue;
		*slash = '\0';
		v2 = p[1] == '\0';
		if (v2 || strstr(p + 1, "pids") != NULL) {
			snprintf(rel, sizeof(rel), "%s", slash + 1);
			found = v2 ? 2 : 1;
		}
	}
	fclose(fp);
	if (!found || (fp = fopen("/proc/self/mountinfo", "re")) == NULL)
		return -1;
	/* Its mount: "... root mountpoint opts - type src sopts". */
	v2 = found == 2;
	found = 0;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
		    (p = strstr(line, " - ")) == NULL ||
		    sscanf(p + 3, "%63s %*s %511s", type, opts) != 2)
			continue;
		found = v2 ? strcmp(type, "cgroup2") == 0 :
		    strcmp(type, "cgroup") == 0 && strstr(opts, "pids") != NULL;
	}
	fclose(fp);
	if (!found)
		return -1;
	n = strlen(root);
	if (strcmp(root, "/") != 0 && strncmp(rel, root, n) == 0)
		memmove(rel, rel + n, strlen(rel + n) + 1);
	/* From latt's cgroup up to the hierarchy's top. */
	for (;;) {
		snprintf(dir, sizeof(dir), "%s%s/pids.max", mnt, rel);
		if ((fp = fopen(dir, "re")) != NULL) {
			if (fscanf(fp, "%lld", &max) != 1)
				max = -1;	/* "max" */
			fclose(fp);
			snprintf(dir, sizeof(dir), "%s%s/pids.current", mnt,
			    rel);
			if (max >= 0 && (fp = fopen(dir, "re")) != NULL) {
				if (fscanf(fp, "%lld", &cur) == 1 &&
				    cur >= max) {
					fclose(fp);
					snprintf(buf, len, "the pids cgroup "
					    "%s allows %lld processes "
					    "(pids.max) and has %lld",
					    rel[0] != '\0' ? rel : "/", max,
					    cur);
					return 0;
				}
				fclose(fp);
			}
		}
		if ((slash = strrchr(rel, '/')) == NULL || rel[0] == '\0')
			break;
		*slash = '\0';
	}
	return -1;
}

/* /proc/PID/FILE (0: latt itself) opened to read, or NULL. */
static FILE *
open_pid(pid_t pid, const char *file)
{
	char path[64];

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/%s", file);
	else
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	return fopen(path, "re");
}

pid_t
proc_fork(int p[2])
{
	pid_t pid;
	int e;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		e = errno;
		close(p[0]);
		close(p[1]);
		errno = e;
	}
	return pid;
}

void
proc_detach(const int *deaf, size_t ndeaf, unsigned lo)
{
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int sig, fd;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		sa.sa_handler = SIG_DFL;
		for (i = 0; i < ndeaf; i++)
			if (deaf[i] == sig)
				sa.sa_handler = SIG_IGN;
		sigaction(sig, &sa, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, ~0U, 0) == 0)
		return;
#endif
	for (fd = (int)lo; fd < 65536; fd++)
		close(fd);
}
