/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the --split and --no-split options as options_parse
 * (cli/options.h) takes them: "all" or a number of rounds from 1 to
 * MAX_CLIENTS; anything else a usage error of one line naming split,
 * then the line pointing at --help, status 2 (t_split.sh keeps one bad
 * value through ./latt).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "config.h"
#include "tests/unit.h"

static void	 parse_in_child(void *);
static void	 test_good(void);
static void	 test_bad(void);

static const struct unit_test tests[] = {
	{ "split_good_values",	test_good },
	{ "split_bad_values",	test_bad },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
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
	static const struct { const char *arg; unsigned every; int no; } c[] = {
		{ "--split=all", 1, 0 }, { "--split=1", 1, 0 },
		{ "--split=8", 8, 0 }, { "--split=1000000", 1000000, 0 },
		{ "--no-split", 0, 1 },
	};
	char buf[32], *argv[5];
	struct config cfg;
	size_t i;
	int parsed = 0;

	for (i = 0; i < NELEM(c); i++) {
		snprintf(buf, sizeof(buf), "%s", c[i].arg);
		argv[0] = "latt";
		argv[1] = buf;
		argv[2] = "-d1";
		argv[3] = "true";
		argv[4] = NULL;
		optind = 0;
		options_parse(4, argv, &cfg);
		parsed = 1;
		CHECK(cfg.no_split == c[i].no && (c[i].no ||
		    cfg.split_every == c[i].every), "%s: no_split %d, "
		    "split_every %u; want %d, %u", c[i].arg, cfg.no_split,
		    cfg.split_every, c[i].no, c[i].every);
		config_free(&cfg);
		parsed = 0;
	}
out:
	if (parsed)
		config_free(&cfg);
}

/* The cases t_split.sh ran through ./latt, and the range's edges. */
static void
test_bad(void)
{
	static const char *const bad[] = {
		"--split=0", "--split=all8", "--split=", "--split=-1",
		"--split=1x", "--split=1000001", "--split=99999999999999999999",
		"--split=ALL",
	};
	char arg[64], err[1024], *nl;
	size_t i;
	int st;

	for (i = 0; i < NELEM(bad); i++) {
		snprintf(arg, sizeof(arg), "%s", bad[i]);
		st = unit_exits(parse_in_child, arg, err, sizeof(err));
		CHECK(st == 2, "%s: status %d, want 2 (%s)", bad[i], st, err);
		nl = strchr(err, '\n');
		CHECK(nl != NULL && strstr(err, "split") != NULL &&
		    strstr(err, "split") < nl, "%s: the first line does not "
		    "name split: %s", bad[i], err);
		CHECK(strcmp(nl + 1, "try 'latt --help'\n") == 0, "%s: not "
		    "one line then the help's: %s", bad[i], err);
	}
out:
	return;
}
