/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the closed loop's hidden time (issue 36): feed_waited
 * counts the wait past the next round's time, and not the priming
 * round's, a suspension's or latt's own stalls.
 */
#include <stdint.h>
#include <string.h>

#include "lib/common.h"
#include "measure/feed.h"
#include "result.h"
#include "tests/unit.h"

#define MS	NSEC_PER_MSEC

static void	 test_waited(void);

static const struct unit_test tests[] = {
	{ "feed_waited_past_next_round",	test_waited },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
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
