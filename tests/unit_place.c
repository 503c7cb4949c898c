/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for the placement rules: where a wake-up landed against its
 * waker (topo_place, record/topo.h) on a topology made up here, never
 * read from /sys, and how the samples' kinds go into a run's result
 * (feed_sample, measure/feed.h): every sample in one kind or unknown.
 *
 * The made-up machine, eleven CPUs:
 *	cores (SMT pairs)	0-1, 2-3, 4-5, 6-7; 8 undescribed; 9; 10
 *	last-level caches	0-3, 4-5, 6-7; 9 none; 10
 *	nodes			0-5 on 0, 6-7 on 1; 9 none; 10 none
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "measure/feed.h"
#include "record/topo.h"
#include "result.h"
#include "tests/unit.h"

#define NCPUS	11

static const int core[NCPUS] = { 0, 0, 2, 2, 4, 4, 6, 6, -1, 9, 10 };
static const int llc[NCPUS] = { 0, 0, 0, 0, 4, 4, 6, 6, -1, -1, 10 };
static const int node[NCPUS] = { 0, 0, 0, 0, 0, 0, 1, 1, -1, -1, -1 };

static void	 made_up(struct topo *, int *, int *, int *);
static int	 oracle(int, int);
static void	 test_each_kind(void);
static void	 test_unknown(void);
static void	 test_symmetric(void);
static void	 test_every_pair(void);
static void	 test_names(void);
static void	 test_feed_adds_up(void);

static const struct unit_test tests[] = {
	{ "place_each_kind",		test_each_kind },
	{ "place_unknown",		test_unknown },
	{ "place_symmetric",		test_symmetric },
	{ "place_every_pair_vs_sets",	test_every_pair },
	{ "place_names",		test_names },
	{ "feed_kinds_add_up",		test_feed_adds_up },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
}

/* The made-up machine into t, its arrays in c, l and n (NCPUS each). */
static void
made_up(struct topo *t, int *c, int *l, int *n)
{
	int i;

	memset(t, 0, sizeof(*t));
	memcpy(c, core, sizeof(core));
	memcpy(l, llc, sizeof(llc));
	memcpy(n, node, sizeof(node));
	t->ncpus = NCPUS;
	t->core = c;
	t->llc = l;
	t->node = n;
	for (i = 0; i < NCPUS; i++)
		t->ndescribed += c[i] >= 0;
	t->llc_from = "cache";
	t->node_from = "sysfs";
}

/*
 * The rule as the man page says it, from the tables above by another
 * road: the nearest level the two CPUs share, and unknown as soon as a
 * level to look at is missing on either side.
 */
static int
oracle(int a, int b)
{
	const int *lv[] = { core, llc, node };
	int i;

	if (a < 0 || b < 0 || a >= NCPUS || b >= NCPUS)
		return PLACE_UNKNOWN;
	if (a == b)
		return PLACE_SAME_CPU;
	for (i = 0; i < 3; i++) {
		if (lv[i][a] == -1 || lv[i][b] == -1)
			return PLACE_UNKNOWN;
		if (lv[i][a] == lv[i][b])
			return PLACE_SMT_SIBLING + i;
	}
	return PLACE_OTHER_NODE;
}

static void
test_each_kind(void)
{
	static const struct { int waker, wakee, want; } c[] = {
		{ 0, 0, PLACE_SAME_CPU }, { 7, 7, PLACE_SAME_CPU },
		{ 0, 1, PLACE_SMT_SIBLING }, { 6, 7, PLACE_SMT_SIBLING },
		{ 0, 2, PLACE_SAME_LLC }, { 3, 1, PLACE_SAME_LLC },
		{ 0, 4, PLACE_OTHER_LLC }, { 5, 2, PLACE_OTHER_LLC },
		{ 0, 6, PLACE_OTHER_NODE }, { 7, 4, PLACE_OTHER_NODE },
	};
	struct topo t;
	int cc[NCPUS], ll[NCPUS], nn[NCPUS];
	size_t i;
	int got;

	made_up(&t, cc, ll, nn);
	for (i = 0; i < NELEM(c); i++) {
		got = topo_place(&t, c[i].waker, c[i].wakee);
		CHECK(got == c[i].want, "waker %d, wakee %d: %s, want %s",
		    c[i].waker, c[i].wakee, topo_place_name(got),
		    topo_place_name(c[i].want));
	}
out:
	return;
}

/*
 * Unknown: a CPU unknown (-1) or out of range, no topology, a level
 * missing on one side; the same CPU is the same CPU whatever sysfs says
 * (8, undescribed; 10, of no node).
 */
static void
test_unknown(void)
{
	static const struct { int waker, wakee, want; } c[] = {
		{ -1, 0, PLACE_UNKNOWN }, { 0, -1, PLACE_UNKNOWN },
		{ -1, -1, PLACE_UNKNOWN }, { NCPUS, 0, PLACE_UNKNOWN },
		{ 0, NCPUS, PLACE_UNKNOWN }, { 1 << 20, 1 << 20, PLACE_UNKNOWN },
		{ 8, 0, PLACE_UNKNOWN }, { 0, 8, PLACE_UNKNOWN },
		{ 9, 0, PLACE_UNKNOWN }, { 10, 0, PLACE_UNKNOWN },
		{ 10, 9, PLACE_UNKNOWN },
		{ 8, 8, PLACE_SAME_CPU }, { 10, 10, PLACE_SAME_CPU },
	};
	struct topo t;
	int cc[NCPUS], ll[NCPUS], nn[NCPUS];
	size_t i;
	int got;

	CHECK(topo_place(NULL, 0, 0) == PLACE_UNKNOWN,
	    "no topology: %d", topo_place(NULL, 0, 0));
	made_up(&t, cc, ll, nn);
	for (i = 0; i < NELEM(c); i++) {
		got = topo_place(&t, c[i].waker, c[i].wakee);
		CHECK(got == c[i].want, "waker %d, wakee %d: %s, want %s",
		    c[i].waker, c[i].wakee, topo_place_name(got),
		    topo_place_name(c[i].want));
	}
	/* A topology of one CPU, none described: only the same CPU. */
	t.ncpus = 1;
	cc[0] = ll[0] = nn[0] = -1;
	CHECK(topo_place(&t, 0, 0) == PLACE_SAME_CPU, "one CPU: %d",
	    topo_place(&t, 0, 0));
	CHECK(topo_place(&t, 0, 1) == PLACE_UNKNOWN, "one CPU, CPU 1: %d",
	    topo_place(&t, 0, 1));
out:
	return;
}

/* Which CPU woke which does not change the kind. */
static void
test_symmetric(void)
{
	struct topo t;
	int cc[NCPUS], ll[NCPUS], nn[NCPUS], a, b;

	made_up(&t, cc, ll, nn);
	for (a = -1; a <= NCPUS; a++)
		for (b = -1; b <= NCPUS; b++)
			CHECK(topo_place(&t, a, b) == topo_place(&t, b, a),
			    "%d, %d: %s; %d, %d: %s", a, b,
			    topo_place_name(topo_place(&t, a, b)), b, a,
			    topo_place_name(topo_place(&t, b, a)));
out:
	return;
}

/* Every pair, -1 and one past the end included, against the oracle. */
static void
test_every_pair(void)
{
	struct topo t;
	int cc[NCPUS], ll[NCPUS], nn[NCPUS], a, b, seen[PLACE_N] = { 0 };
	int k;

	made_up(&t, cc, ll, nn);
	for (a = -1; a <= NCPUS; a++)
		for (b = -1; b <= NCPUS; b++) {
			k = topo_place(&t, a, b);
			CHECK(k == oracle(a, b), "waker %d, wakee %d: %s, "
			    "want %s", a, b, topo_place_name(k),
			    topo_place_name(oracle(a, b)));
			if (k >= 0)
				seen[k]++;
		}
	/* The made-up machine has every kind (or the test tests less). */
	for (k = 0; k < PLACE_N; k++)
		CHECK(seen[k] > 0, "no pair of kind %s", topo_place_name(k));
out:
	return;
}

/* The names of the JSON, the log and compare; "unknown" out of range. */
static void
test_names(void)
{
	static const char *const want[PLACE_N] = {
		"same_cpu", "smt_sibling", "same_llc", "other_llc",
		"other_node"
	};
	int k;

	for (k = 0; k < PLACE_N; k++)
		CHECK(strcmp(topo_place_name(k), want[k]) == 0,
		    "kind %d: %s, want %s", k, topo_place_name(k), want[k]);
	CHECK(strcmp(topo_place_name(PLACE_UNKNOWN), "unknown") == 0 &&
	    strcmp(topo_place_name(PLACE_N), "unknown") == 0 &&
	    strcmp(topo_place_name(-7), "unknown") == 0,
	    "out of range: %s, %s, %s", topo_place_name(PLACE_UNKNOWN),
	    topo_place_name(PLACE_N), topo_place_name(-7));
out:
	return;
}

/*
 * Samples of every waker and wakee of the made-up machine into a result,
 * as the loop feeds them: each kind's series holds the samples of that
 * kind, the unknown are counted, the kinds and the unknown add up to the
 * latency's samples (what the JSON's placement says), and the
 * migrations are the samples marked so.
 */
static void
test_feed_adds_up(void)
{
	struct config cfg;
	struct result res;
	struct sample s;
	struct topo t;
	int cc[NCPUS], ll[NCPUS], nn[NCPUS], a, b, k, inited = 0;
	uint64_t want[PLACE_N] = { 0 }, unknown = 0, moved = 0, n = 0, sum;

	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	cfg.nclients = 2;
	made_up(&t, cc, ll, nn);
	res.topo = &t;
	CHECK(result_init(&res, &cfg, 0, 0) == 0, "result_init failed");
	inited = 1;
	for (a = -1; a <= NCPUS; a++)
		for (b = -1; b <= NCPUS; b++) {
			memset(&s, 0, sizeof(s));
			s.round = ++n;
			s.client = (uint32_t)(n % 2);
			s.when = (int64_t)n * 1000;
			s.waker_cpu = a;
			s.cpu = b;
			s.place = topo_place(&t, a, b);
			s.migrated = (n % 3) == 0;
			s.latency = 10000 + (int64_t)n;
			s.busy_ns = s.rq_wait = -1;
			feed_sample(&res, &cfg, s.client, &s);
			if (s.place >= 0)
				want[s.place]++;
			else
				unknown++;
			moved += (uint64_t)s.migrated;
		}
	sum = res.place_unknown;
	for (k = 0; k < PLACE_N; k++) {
		CHECK(res.ser[SER_PLACE(k)].st.n == want[k], "%s: %llu "
		    "samples, want %llu", topo_place_name(k),
		    (unsigned long long)res.ser[SER_PLACE(k)].st.n,
		    (unsigned long long)want[k]);
		sum += res.ser[SER_PLACE(k)].st.n;
	}
	CHECK(res.place_unknown == unknown, "unknown %llu, want %llu",
	    (unsigned long long)res.place_unknown,
	    (unsigned long long)unknown);
	CHECK(sum == n && res.ser[SER_LATENCY].st.n == n, "kinds and "
	    "unknown %llu, latency samples %llu, fed %llu",
	    (unsigned long long)sum,
	    (unsigned long long)res.ser[SER_LATENCY].st.n,
	    (unsigned long long)n);
	CHECK(res.migrated == moved, "migrated %llu, want %llu",
	    (unsigned long long)res.migrated, (unsigned long long)moved);
out:
	if (inited)
		result_free(&res, &cfg, 1);
}
