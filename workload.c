/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload: the one place where what runs beside the measurement is
 * started and stopped.
 *
 * The workload runs in its own process group, inside latt's session (a load
 * in another session lands in another autogroup and is scheduled very
 * differently).  latt is a child subreaper, so the workload's orphans come
 * back to it and the whole group can be signalled and reaped at the end.
 * Ending is SIGTERM (or the signal latt itself got), then SIGKILL after a
 * short grace: a workload cannot keep latt from ending.
 */
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "latt.h"

#define GRACE_NS	(1 * NSEC_PER_SEC)

static void	 run_workload(const struct config *, int) __attribute__((noreturn));
static int	 reap_group(struct workload *, int64_t);

/*
 * Forks and execs the workload, if there is one (with --duration there
 * need not be).  Returns 0, or -1 with errno set when nothing could be
 * started.  A workload that could not be executed is
 * reaped at once and its errno kept in wl->exec_errno.
 */
int
workload_start(const struct config *cfg, struct workload *wl)
{
	int ep[2], e, st;
	ssize_t n;
	pid_t pid;

	memset(wl, 0, sizeof(*wl));
	if (cfg->ncmd == 0)
		return 0;
	if (pipe2(ep, O_CLOEXEC) == -1)
		return -1;
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(ep[0]);
		run_workload(cfg, ep[1]);
	}
	/* Both sides set the group, so neither can race the other. */
	setpgid(pid, pid);
	close(ep[1]);
	wl->pid = pid;
	wl->start = now_ns();
	while ((n = read(ep[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(ep[0]);
	if (n == sizeof(e)) {
		wl->exec_errno = e;
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		wl->status = st;
		wl->reaped = 1;
		wl->end = now_ns();
	}
	return 0;
}

static void
run_workload(const struct config *cfg, int errfd)
{
	static const int deflt[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE,
	    SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU };
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int e;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(deflt) / sizeof(deflt[0]); i++)
		sigaction(deflt[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	tune_workload(cfg);
	if (cfg->ncmd == 1)
		execl("/bin/sh", "sh", "-c", cfg->cmd[0], (char *)NULL);
	else
		execvp(cfg->cmd[0], cfg->cmd);
	e = errno;
	(void)!write(errfd, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

/*
 * Reaps the workload if it has ended.  Returns 1 once it has been reaped
 * (or there is none), else 0.
 */
int
workload_poll(struct workload *wl)
{
	pid_t r;
	int st;

	if (wl->pid <= 0 || wl->reaped)
		return 1;
	while ((r = waitpid(wl->pid, &st, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r == wl->pid) {
		wl->status = st;
		wl->reaped = 1;
		wl->end = now_ns();
	} else if (r == -1) {
		/* Not our child any more: nothing left to wait for. */
		wl->reaped = 1;
		wl->end = now_ns();
	}
	return wl->reaped;
}

/*
 * Ends the workload and everything left in its process group: sig first
 * (the signal latt was given, or SIGTERM), then SIGTERM, then SIGKILL, a
 * grace apart.  Returns when the group is gone.
 */
void
workload_stop(struct workload *wl, int sig)
{
	if (wl->pid <= 0)
		return;
	if (!wl->reaped)
		wl->stopped_by_us = 1;
	else if (kill(-wl->pid, 0) == -1)
		return;
	if (sig <= 0)
		sig = SIGTERM;
	kill(-wl->pid, sig);
	kill(-wl->pid, SIGCONT);
	if (reap_group(wl, now_ns() + GRACE_NS))
		return;
	if (sig != SIGTERM) {
		kill(-wl->pid, SIGTERM);
		kill(-wl->pid, SIGCONT);
		if (reap_group(wl, now_ns() + GRACE_NS))
			return;
	}
	kill(-wl->pid, SIGKILL);
	reap_group(wl, now_ns() + 5 * GRACE_NS);
}

/*
 * Reaps members of the workload's group until none is left or the deadline
 * passes.  Returns 1 when the group is gone.
 */
static int
reap_group(struct workload *wl, int64_t deadline)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	pid_t r;
	int st;

	for (;;) {
		r = waitpid(-wl->pid, &st, WNOHANG);
		if (r > 0) {
			if (r == wl->pid && !wl->reaped) {
				wl->status = st;
				wl->reaped = 1;
				wl->end = now_ns();
			}
			continue;
		}
		if (r == -1 && errno == EINTR)
			continue;
		if (wl->reaped && kill(-wl->pid, 0) == -1 && errno == ESRCH)
			return 1;
		if (now_ns() > deadline)
			return 0;
		nanosleep(&ms, NULL);
	}
}

/* Whether the workload failed: it could not run, or ended badly unasked. */
int
workload_failed(const struct workload *wl)
{
	if (wl->pid <= 0)
		return 0;
	if (wl->exec_errno)
		return 1;
	if (wl->stopped_by_us || !wl->reaped)
		return 0;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status) != 0;
	return 1;
}

/*
 * The workload as a user would type it: a single argument as it is, an
 * argument vector with the words that need it single-quoted, none as "".  The caller
 * frees the string; NULL when memory ran out.
 */
char *
workload_describe(const struct config *cfg)
{
	size_t len = 1, i;
	char *buf, *p;
	const char *s;
	int quote;

	for (i = 0; i < (size_t)cfg->ncmd; i++)
		len += 3 + 4 * strlen(cfg->cmd[i]);
	if ((buf = p = malloc(len)) == NULL)
		return NULL;
	*buf = '\0';
	if (cfg->ncmd == 1) {
		strcpy(buf, cfg->cmd[0]);
		return buf;
	}
	for (i = 0; i < (size_t)cfg->ncmd; i++) {
		s = cfg->cmd[i];
		quote = *s == '\0' || s[strcspn(s, " \t\n\\'\"$`*?[]{}()<>|&;#~!")];
		if (i > 0)
			*p++ = ' ';
		if (quote)
			*p++ = '\'';
		for (; *s != '\0'; s++) {
			if (*s == '\'' && quote) {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else
				*p++ = *s;
		}
		if (quote)
			*p++ = '\'';
	}
	*p = '\0';
	return buf;
}
