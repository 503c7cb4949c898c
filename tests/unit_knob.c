/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for --sweep=FILE=V1,V2,... (a kernel knob) as options_parse
 * (cli/options.h) takes it: the file, its values as given, in order; and
 * each input it refuses before anything runs (no such file, a directory,
 * no value, one value, an empty value, a value twice) with status 2 and
 * one line saying which, then the line pointing at --help.  t_knob.sh
 * keeps what needs the real file system and a run: a file not writable,
 * a value the kernel refuses.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "config.h"
#include "tests/unit.h"

static char	 dir[64];	/* a directory of this test's own */
static char	 knob[96];	/* a file in it that stands for a knob */

static void	 parse_in_child(void *);
static int	 make_knob(void);
static void	 drop_knob(void);
static void	 test_good(void);
static void	 test_bad(void);

static const struct unit_test tests[] = {
	{ "knob_values_as_given",	test_good },
	{ "knob_bad_inputs",		test_bad },
};

int
main(void)
{
	int failed;

	if (make_knob() == -1) {
		printf("FAIL: knob_setup: no directory or file in /tmp\n");
		return 1;
	}
	failed = unit_main(tests, NELEM(tests));
	drop_knob();
	return failed;
}

/* The directory and its file, holding "0". */
static int
make_knob(void)
{
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/unit_knob.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(knob, sizeof(knob), "%s/knob", dir);
	if ((f = fopen(knob, "w")) == NULL)
		return -1;
	fputs("0\n", f);
	return fclose(f) == 0 ? 0 : -1;
}

static void
drop_knob(void)
{
	unlink(knob);
	rmdir(dir);
}

/* options_parse of "latt ARG -d1 true" (ARG: the void *). */
static void
parse_in_child(void *arg)
{
	char *argv[] = { "latt", arg, "-d1", "true", NULL };
	struct config cfg;

	optind = 0;
	options_parse(4, argv, &cfg);
}

static void
test_good(void)
{
	char arg[160], *argv[5];
	struct config cfg;
	int parsed = 0, saved, null;

	snprintf(arg, sizeof(arg), "--sweep=%s=4,0,16", knob);
	argv[0] = "latt";
	argv[1] = arg;
	argv[2] = "-d1";
	argv[3] = "true";
	argv[4] = NULL;
	/* Its warning (a file outside /proc/sys...) is t_knob.sh's. */
	fflush(stderr);
	saved = dup(2);
	if ((null = open("/dev/null", O_WRONLY)) != -1)
		dup2(null, 2);
	optind = 0;
	options_parse(4, argv, &cfg);
	parsed = 1;
	if (saved != -1) {
		dup2(saved, 2);
		close(saved);
	}
	if (null != -1)
		close(null);
	CHECK(cfg.sweep.kind == SWEEP_KNOB, "kind %d, want SWEEP_KNOB",
	    (int)cfg.sweep.kind);
	CHECK(strcmp(cfg.sweep.file, knob) == 0, "file %s, want %s",
	    cfg.sweep.file, knob);
	CHECK(cfg.sweep.n == 3 && strcmp(cfg.sweep.text[0], "4") == 0 &&
	    strcmp(cfg.sweep.text[1], "0") == 0 &&
	    strcmp(cfg.sweep.text[2], "16") == 0, "%u values: %s %s %s",
	    cfg.sweep.n, cfg.sweep.text[0], cfg.sweep.text[1],
	    cfg.sweep.text[2]);
out:
	if (parsed)
		config_free(&cfg);
}

/*
 * Each bad input and the one line it gets (about the knob's path, or the
 * directory's); the knob still holds "0" after them all.
 */
static void
test_bad(void)
{
	/* The argument: --sweep= path tail; the line: pre path post. */
	static const struct { const char *what, *tail, *pre, *post; } c[] = {
		{ "no such file", "/none=1,2", "latt: sweep: ",
		    "/none: No such file or directory" },
		{ "a directory", "=1,2", "latt: sweep: ",
		    " is a directory, not a knob's file" },
		{ "no values", "=", "latt: sweep ",
		    " has no values: give FILE=V1,V2,..." },
		{ "one value", "=1", "latt: sweep ",
		    " has one value: a knob needs two or more, to compare" },
		{ "empty value", "=1,,2", "latt: sweep: an empty value in ",
		    "=1,,2" },
		{ "twice", "=1,2,1", "latt: sweep: 1 is given twice: ",
		    "=1,2,1" },
	};
	char arg[256], want[512], err[1024], held[8] = "";
	const char *path;
	size_t i;
	FILE *f;
	int st;

	for (i = 0; i < NELEM(c); i++) {
		path = i == 0 || i == 1 ? dir : knob;
		snprintf(arg, sizeof(arg), "--sweep=%s%s", path, c[i].tail);
		snprintf(want, sizeof(want), "%s%s%s\ntry 'latt --help'\n",
		    c[i].pre, path, c[i].post);
		st = unit_exits(parse_in_child, arg, err, sizeof(err));
		CHECK(st == 2, "%s: status %d, want 2 (%s)", c[i].what, st,
		    err);
		CHECK(strcmp(err, want) == 0, "%s: stderr %s, want %s",
		    c[i].what, err, want);
	}
	CHECK((f = fopen(knob, "r")) != NULL, "the knob's file is gone");
	if (fgets(held, sizeof(held), f) == NULL)
		held[0] = '\0';
	fclose(f);
	CHECK(strcmp(held, "0\n") == 0, "the knob holds '%s', not '0'", held);
out:
	return;
}
