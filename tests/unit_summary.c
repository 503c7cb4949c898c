/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the summary's notes and the closed loop's hidden time
 * (issue 36): a run made up here, with every note at once (few samples,
 * the clients unreachable, pending, not sent, a stall, a suspension, a
 * failed workload, a noisy machine), prints at most five notes within 22
 * lines, the fifth saying how many more --details shows; with --details
 * every note and fact, each value in column 26, every line within 80
 * columns.  feed_waited counts the wait past the next round's time, and
 * not the priming round's, a suspension's or latt's own stalls.
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "measure/feed.h"
#include "report/report.h"
#include "result.h"
#include "tests/unit.h"

#define MS	NSEC_PER_MSEC

static void	 test_notes(void);
static void	 test_waited(void);
static int	 summary(char **, size_t *, const struct config *,
		    const struct result *);
static unsigned	 count(const char *, const char *);

static const struct unit_test tests[] = {
	{ "summary_notes_at_most_five",	test_notes },
	{ "feed_waited_past_next_round",	test_waited },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
}

/*
 * The made-up run: 2 clients, 100 wake-ups in 2 s (0.1 s of it
 * suspended), the workload exited 3,
 * and every note's cause.  Without --details: the 2009 block, the
 * headline, the table, then notes: four and "more"; with it every note.
 */
static void
test_notes(void)
{
	static char *argv[] = { "make -j4", NULL };
	static const char *const notes[] = { "few samples", "unreachable",
	    "pending", "not sent", "stalled", "suspended", "status",
	    "machine" };
	struct config cfg;
	struct result res;
	struct sample s;
	char *text = NULL, *line, *nl, *tab, label[32];
	size_t len, i;
	unsigned n, k;
	int inited = 0, col;

	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	cfg.nclients = 2;
	cfg.cmd = argv;
	cfg.ncmd = 1;
	cfg.seed = 42;
	cfg.dma_latency = -1;
	cfg.parent_policy = -1;
	CHECK(result_init(&res, &cfg, 0, 0) == 0, "result_init failed");
	inited = 1;
	for (i = 0; i < 100; i++) {
		memset(&s, 0, sizeof(s));
		s.round = i / 2 + 1;
		s.client = (uint32_t)(i % 2);
		s.when = (int64_t)i * 20 * MS;
		s.latency = 50000 + (int64_t)i * 1000;
		s.busy_ns = s.rq_wait = -1;
		s.place = -1;
		feed_sample(&res, &cfg, s.client, &s);
	}
	res.nrounds = 50;
	res.start = 1000 * MS;
	res.end = res.start + 2000 * MS;
	res.stop = STOP_WORKLOAD;
	res.suspended = 100 * MS;
	res.waited = 570 * MS;			/* 30% of the 1.9 s */
	res.npending = 1;
	res.pending_age = 300 * MS;
	res.nunsent = 3;
	res.nstalls = 1;
	res.stalls[0] = (struct stall){ 500 * MS, 60 * MS };
	res.stall_total = 60 * MS;
	res.nsuspend = 1;
	res.susp[0] = (struct suspension){ 800 * MS, 900 * MS, SIGTSTP };
	res.wl.pid = 4242;
	res.wl.reaped = 1;
	res.wl.status = 3 << 8;			/* exited 3 */
	res.wl.start = res.start;
	res.wl.end = res.end;
	res.noise.valid = 1;
	res.noise.noisy = 1;
	res.noise.foreign_pct = 61;
	res.noise.foreign_cpus = 1.22;
	res.noise.psi_some_pct = -1;

	CHECK(summary(&text, &len, &cfg, &res) == 0, "no summary");
	n = count(text, "\n");
	k = count(text, "\n\t");
	CHECK(n <= 22, "%u lines: %s", n, text);
	/* 3 lines of the 2009 block, then the notes. */
	CHECK(k == 3 + 5, "%u notes: %s", k - 3, text);
	CHECK(strstr(text, "\n\tmore\t         4 notes: --details shows "
	    "them\n") != NULL, "no 'more' note: %s", text);
	CHECK(strstr(text, "\tfew samples\t 100; - needs p99 1000, p99.9 "
	    "10000\n") != NULL, "few samples: %s", text);
	CHECK(strstr(text, "\tunreachable\t the clients, 30% of the time: "
	    "--open-loop samples it\n") != NULL, "unreachable: %s", text);
	CHECK(strstr(text, "\trounds\t") == NULL, "a fact: %s", text);
	free(text);
	text = NULL;

	cfg.details = 1;
	CHECK(summary(&text, &len, &cfg, &res) == 0, "no --details summary");
	for (i = 0; i < NELEM(notes); i++) {
		snprintf(label, sizeof(label), "\n\t%s\t", notes[i]);
		CHECK(strstr(text, label) != NULL, "--details: no %s: %s",
		    notes[i], text);
	}
	CHECK(strstr(text, "\tmore\t") == NULL, "--details: 'more'");
	CHECK(strstr(text, "\trounds\t         50\n") != NULL &&
	    strstr(text, "\tseed\t         42\n") != NULL, "--details: no "
	    "rounds or seed: %s", text);
	/* Every line within 80 columns, every value in column 26. */
	for (line = text; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		for (col = 0, i = 0; line + i < nl; i++)
			col = line[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
		CHECK(col <= 80, "%d columns: %.*s", col, (int)(nl - line),
		    line);
		if (line[0] != '\t' || strncmp(line, "\tMax\t", 5) == 0 ||
		    strncmp(line, "\tAvg\t", 5) == 0 ||
		    strncmp(line, "\tStdev\t", 7) == 0)
			continue;
		/* The second tab, after the label, and the spaces. */
		tab = strchr(line + 1, '\t');
		CHECK(tab != NULL && tab < nl, "no label: %.*s",
		    (int)(nl - line), line);
		col = ((8 + (int)(tab - line - 1)) / 8 + 1) * 8 +
		    (int)strspn(tab + 1, " ");
		CHECK(col == 25, "a value in column %d: %.*s", col + 1,
		    (int)(nl - line), line);
	}
out:
	free(text);
	if (inited)
		result_free(&res, &cfg, 1);
}

/*
 * The wait past the next round's time: counted from the first round on,
 * less latt's stalls since the last count, and none across a suspension.
 */
static void
test_waited(void)
{
	struct result res;

	memset(&res, 0, sizeof(res));
	/* The priming round (no round counted yet): nothing. */
	feed_waited(&res, 100 * MS, 120 * MS, 2 * MS);
	CHECK(res.waited == 0, "priming: %lld", (long long)res.waited);
	res.nrounds = 1;
	/* 20 ms waited, the next round due after 2: 18 hidden. */
	feed_waited(&res, 100 * MS, 120 * MS, 2 * MS);
	CHECK(res.waited == 18 * MS, "%lld", (long long)res.waited);
	/* A reply in time: nothing. */
	feed_waited(&res, 200 * MS, 201 * MS, 2 * MS);
	CHECK(res.waited == 18 * MS, "in time: %lld", (long long)res.waited);
	/* latt stalled 15 of the 20 ms: 3 hidden. */
	res.stall_total += 15 * MS;
	feed_waited(&res, 300 * MS, 320 * MS, 2 * MS);
	CHECK(res.waited == 21 * MS, "stall: %lld", (long long)res.waited);
	/* Suspended while the round waited: nothing. */
	res.susp_last_from = 405 * MS;
	res.susp_last_to = 415 * MS;
	feed_waited(&res, 400 * MS, 420 * MS, 2 * MS);
	CHECK(res.waited == 21 * MS, "suspended: %lld", (long long)res.waited);
out:
	return;
}

/* The summary of res, as report_text prints it, into a new string. */
static int
summary(char **text, size_t *len, const struct config *cfg,
    const struct result *res)
{
	struct run_brief b;
	FILE *fp;

	if ((fp = open_memstream(text, len)) == NULL)
		return -1;
	report_brief(&b, res);
	report_text(fp, cfg, res, &b, 1);
	return fclose(fp) == 0 ? 0 : -1;
}

/* How many times needle occurs in s. */
static unsigned
count(const char *s, const char *needle)
{
	unsigned n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s++;
	}
	return n;
}
