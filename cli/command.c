/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * command.c: the workload's command, checked before anything runs
 * (command.h).  The program it would run is found as execvp(3) finds an
 * argument vector's and as /bin/sh finds a plain command string's, so that
 * a command that cannot run is said at once, before a client is forked.
 * Only what is sure is judged: a command string with anything the shell
 * interprets (quotes, $, globs, redirections, separators, an assignment)
 * or one that starts with a builtin or a keyword is left to the shell.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "lib/common.h"

/* The bytes of a plain command string: words sh takes as they are. */
#define PLAIN_BYTES	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	"0123456789_./+,:@%- \t"
#define BLANKS		" \t"
#define DFLT_PATH	"/bin:/usr/bin"	/* execvp's, when PATH is unset */

static int	 command_check(char *const *, int, const char **, char *,
		    size_t);
static void	 cannot_run(char *const *, int, const char *, int,
		    int (*)(const char *)) __attribute__((noreturn));
static int	 find_program(const char *);
static int	 can_exec(const char *, int);
static int	 shell_word(const char *);

void
command_take(char *const *cmd, int ncmd, int bare,
    int (*is_option)(const char *))
{
	static const char *const opt[] = { "json", "ktap" };
	const char *prog, *dot;
	char word[256];
	int e, i;

	if (ncmd == 1 && cmd[0][0] == '\0')
		usage_error("the workload command is empty");
	/* "--json run.json", "--ktap out.ktap": the file would run. */
	for (i = 0; i < 2 && ncmd >= 1; i++)
		if ((bare & (i ? CMD_KTAP_BARE : CMD_JSON_BARE)) &&
		    (dot = strrchr(cmd[0], '.')) != NULL && dot != cmd[0] &&
		    strcmp(dot + 1, opt[i]) == 0 && find_program(cmd[0]) != 0)
			usage_error("--%s takes its file attached: --%s=%s "
			    "(as given, %s would run as the command)", opt[i],
			    opt[i], cmd[0], cmd[0]);
	/* "--explain 5": the same trap. */
	if ((bare & CMD_EXPLAIN_BARE) && ncmd >= 1 && *cmd[0] != '\0' &&
	    strspn(cmd[0], "0123456789") == strlen(cmd[0]) &&
	    find_program(cmd[0]) != 0)
		usage_error("--explain takes its count attached: --explain=%s "
		    "(as given, %s would run as the command)", cmd[0], cmd[0]);
	if ((e = command_check(cmd, ncmd, &prog, word, sizeof(word))) != 0)
		cannot_run(cmd, ncmd, prog, e, is_option);
}

/*
 * A command that cannot run ends latt at once, as a shell would end: one
 * line, status 127 (not found) or 126 (found, not executable).  Not
 * found, with one of latt's options after it ("latt -c2 'sleep 1' -d 3"),
 * it is a usage error that says where options go.
 */
static void
cannot_run(char *const *cmd, int ncmd, const char *prog, int e,
    int (*is_option)(const char *))
{
	char a[64];
	int k;

	for (k = 1; e == ENOENT && k < ncmd; k++)
		if (is_option(cmd[k]))
			usage_error("cannot run '%s': command not found "
			    "(options go before the command: %s came after "
			    "it)", prog, cmd[k]);
	lwarnx("cannot run '%s': %s", cut_value(a, sizeof(a), prog),
	    e == ENOENT ? "command not found" : strerror(e));
	exit(exit_status(e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC));
}

/*
 * The program the command would run, looked for: 0 when it can run, or
 * when only the shell can tell; else ENOENT or EACCES, and in *prog the
 * program looked for (a plain string's first word goes into buf).
 */
static int
command_check(char *const *cmd, int ncmd, const char **prog, char *buf,
    size_t len)
{
	const char *s;
	size_t n;

	if (ncmd <= 0)
		return 0;
	*prog = cmd[0];
	if (ncmd > 1)
		return find_program(cmd[0]);
	/* One word list of plain bytes: its first word is the program. */
	s = cmd[0];
	if (s[strspn(s, PLAIN_BYTES)] != '\0')
		return 0;
	s += strspn(s, BLANKS);
	n = strcspn(s, BLANKS);
	if (n == 0 || n >= len)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (shell_word(buf))
		return 0;
	*prog = buf;
	return find_program(buf);
}

/*
 * Where execvp would find name: a name with a slash is a path; any other
 * is looked for in each directory of $PATH (an empty one is the current
 * directory).  Returns 0 when an executable file is found, EACCES when
 * only files that cannot be executed (or directories) are, else ENOENT.
 * Out of memory, it cannot tell: 0.
 */
static int
find_program(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char *full;
	int e, found = ENOENT;

	if (*name == '\0')
		return ENOENT;
	if (strchr(name, '/') != NULL)
		return can_exec(name, 1);
	for (p = path != NULL ? path : DFLT_PATH;; p = colon + 1) {
		if ((colon = strchr(p, ':')) == NULL)
			colon = p + strlen(p);
		if (asprintf(&full, "%.*s/%s", colon == p ? 1 :
		    (int)(colon - p), colon == p ? "." : p, name) == -1)
			return 0;
		e = can_exec(full, 0);
		free(full);
		if (e == 0)
			return 0;
		if (e == EACCES)
			found = EACCES;
		if (*colon == '\0')
			break;
	}
	return found;
}

/*
 * 0: an executable file; EACCES: there but not executable (or, for a path
 * given, behind a directory that may not be searched); else ENOENT.  A
 * directory of $PATH that may not be searched holds nothing to run.
 */
static int
can_exec(const char *path, int given)
{
	struct stat sb;

	if (stat(path, &sb) == -1)
		return errno == EACCES && given ? EACCES : ENOENT;
	if (S_ISDIR(sb.st_mode) || access(path, X_OK) == -1)
		return EACCES;
	return 0;
}

/*
 * Whether word is one that sh runs itself, whatever $PATH holds: a
 * builtin of dash or bash, or a keyword.
 */
static int
shell_word(const char *word)
{
	static const char *const own[] = { ".", ":", "alias", "bg", "break",
	    "builtin", "case", "cd", "chdir", "command", "continue", "coproc",
	    "declare", "do", "done", "echo", "elif", "else", "esac", "eval",
	    "exec", "exit", "export", "false", "fc", "fg", "fi", "for",
	    "function", "getopts", "hash", "if", "in", "jobs", "kill", "let",
	    "local", "printf", "pwd", "read", "readonly", "return", "select",
	    "set", "shift", "test", "then", "time", "times", "trap", "true",
	    "type", "typeset", "ulimit", "umask", "unalias", "unset", "until",
	    "wait", "while" };
	size_t i;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(word, own[i]) == 0)
			return 1;
	return 0;
}
