/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The --fail-above gate: every limit against a finished result (the run,
 * or the total of --repeat's runs), decided where the samples decide it
 * and "cannot tell" where they do not, said in a "gate:" line, and a
 * line a limit when there are several.  Like the reports, it reads
 * finished results and never measures.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "lib/common.h"
#include "lib/fmt.h"
#include "report/gate.h"
#include "result.h"

#define GATE_WIDTH	80	/* the gate's lines, a limit a line */

enum verdict { MET, EXCEEDED, CANNOT_TELL };

static int64_t	 parse_pct(char *);

/*
 * The samples of st above v, counted from the histogram: *lo surely above
 * (their bucket starts above v), *hi perhaps (their bucket ends above v).
 * The exact extremes settle what they can: none above a maximum at or
 * under v, at least the maximum above it, and never the minimum.
 */
static void
count_above(const struct stats *st, int64_t v, uint64_t *lo, uint64_t *hi)
{
	const struct hist *h = &st->hist;
	size_t i;

	*lo = *hi = 0;
	if (st->n == 0 || st->max <= v)
		return;
	if (st->min > v) {
		*lo = *hi = st->n;
		return;
	}
	/* Bucket nbuckets is the overflow, [2^HIST_MAX_BITS, INT64_MAX]. */
	for (i = 0; i <= h->nbuckets; i++) {
		uint64_t c = i < h->nbuckets ? h->counts[i] : h->overflow;

		if (c > 0 && hist_lower(h, i) > v)
			*lo += c;
		if (c > 0 && hist_upper(h, i) > v)
			*hi += c;
	}
	if (*lo == 0)
		*lo = 1;
	if (*hi > st->n - 1)
		*hi = st->n - 1;
}

/*
 * How many of n samples may lie above a value while the q quantile (the
 * sample of rank ceil(q * n), nudged as stats.c does) stays at or under
 * it: n - ceil(q * n).
 */
static uint64_t
allowed_above(double q, uint64_t n)
{
	double x = q * (double)n;

	x -= 1e-9 + fabs(x) * 4 * DBL_EPSILON;
	if (!(x > 1))
		return n > 0 ? n - 1 : 0;
	if (x >= (double)n)
		return 0;
	return n - (uint64_t)ceil(x);
}

/* "7 of 500 samples above", or "7-9 of ..." where a bucket straddles. */
static const char *
counts(char *buf, size_t len, uint64_t lo, uint64_t hi, uint64_t n)
{
	if (lo == hi)
		snprintf(buf, len, "%llu of %llu sample%s above",
		    (unsigned long long)lo, (unsigned long long)n,
		    n == 1 ? "" : "s");
	else
		snprintf(buf, len, "%llu-%llu of %llu samples above",
		    (unsigned long long)lo, (unsigned long long)hi,
		    (unsigned long long)n);
	return buf;
}

/*
 * inversions=N: exceeded when the order check counted more; cannot tell
 * when it checked no round (no two priorities, no complete round).
 */
static enum verdict
judge_order(const struct limit *l, const struct order *o, char *why,
    size_t len)
{
	int over;

	if (o == NULL || o->rounds == 0) {
		snprintf(why, len, "inversions against %lld: no round with "
		    "two priorities was checked", (long long)l->value);
		return CANNOT_TELL;
	}
	over = o->inversions > (uint64_t)l->value;
	snprintf(why, len, "inversions %llu %s %lld (in %llu of %llu rounds)",
	    (unsigned long long)o->inversions, over ? ">" : "<=",
	    (long long)l->value, (unsigned long long)o->bad_rounds,
	    (unsigned long long)o->rounds);
	return over ? EXCEEDED : MET;
}

/*
 * CLASS.missed=PCT: exceeded when more than PCT of the frame class's
 * deadlines were missed (done late or not started); an exact count over
 * the run, so met or exceeded as soon as there is one deadline.
 */
static enum verdict
judge_frames(const struct limit *l, const struct result *res, char *why,
    size_t len)
{
	const struct frame_counts *fr = &res->classes[l->cls].fr;
	double pct = frame_missed_pct(fr), lim = (double)l->value / 100;

	if (frame_deadlines(fr) == 0) {
		snprintf(why, len, "%s.missed against %g%%: no frame ended",
		    l->frames, lim);
		return CANNOT_TELL;
	}
	snprintf(why, len, "%s.missed %.2f%% %s %g%% (%llu of %llu deadlines: "
	    "%llu late, %llu not started)", l->frames, pct, pct <= lim ?
	    "<=" : ">", lim, (unsigned long long)(fr->missed +
	    fr->not_started), (unsigned long long)frame_deadlines(fr),
	    (unsigned long long)fr->missed,
	    (unsigned long long)fr->not_started);
	return pct <= lim ? MET : EXCEEDED;
}

/*
 * One --fail-above limit against the samples (a wake-up unanswered at the
 * end counts for the latency's max alone: the other statistics, as in
 * the summary, are of the samples).  A limit at or above the worst sample
 * is met: no statistic of the samples can be above their worst.  A
 * quantile q is exceeded when more than n - ceil(q * n) samples lie
 * surely above the limit, however few the samples; with the samples the
 * summary needs to show it (STATS_BEYOND beyond), the counts or, where a
 * bucket straddles the limit, its value decide; in between, it cannot be
 * told.  min, max and mean need one sample, stdev two.  The figure, its
 * limit and the counts go into why, whatever the verdict.
 */
static enum verdict
judge(const struct limit *l, const struct result *res, char *why,
    size_t len)
{
	const struct stats *st = &res->ser[l->timer ? SER_TIMER :
	    SER_LATENCY].st;
	uint64_t n = st->n, lo, hi, need;
	uint64_t pend = l->timer ? 0 : res->npending;
	double q = stats_kind_q(l->stat), v;
	int over, met;
	char name[40], a[32], b[32], c[32], d[64], e[96];

	snprintf(name, sizeof(name), "%s%s", l->timer ? "timer." : "",
	    stats_kind_name(l->stat));
	fmt_time(b, sizeof(b), (double)l->value, 0, "us");
	count_above(st, l->value, &lo, &hi);
	if (l->stat == STAT_MAX && pend > 0 && res->pending_age > l->value) {
		snprintf(why, len, "%s >=%s > %s (a wake-up unanswered at the "
		    "end)", name, fmt_time(a, sizeof(a), res->pending_age, 4,
		    "us"), b);
		return EXCEEDED;
	}
	if (n == 0) {
		snprintf(why, len, "%s against %s: no samples", name, b);
		return CANNOT_TELL;
	}
	fmt_time(c, sizeof(c), (double)st->max, 4, "us");
	if (l->stat == STAT_MAX && st->max <= l->value && pend > 0) {
		snprintf(why, len, "%s against %s: worst sample %s, but %llu "
		    "wake-up%s unanswered at the end", name, b, c,
		    (unsigned long long)pend, pend == 1 ? "" : "s");
		return CANNOT_TELL;
	}
	/* The counts: of the samples above, or of all for mean and sd. */
	if (q > 0)
		snprintf(e, sizeof(e), "%s, %llu allowed", counts(d, sizeof(d),
		    lo, hi, n), (unsigned long long)allowed_above(q, n));
	else if (l->stat == STAT_MIN || l->stat == STAT_MAX)
		counts(e, sizeof(e), lo, hi, n);
	else
		snprintf(e, sizeof(e), "%llu samples", (unsigned long long)n);
	v = stats_value(st, l->stat);
	need = q > 0 ? stats_need_q(q) : stats_need(l->stat);
	over = q > 0 && lo > allowed_above(q, n);
	if (st->max <= l->value && n < need) {
		snprintf(why, len, "%s <= %s: worst %s (%s)", name, b, c, e);
		return MET;
	}
	if (n < need && !over) {
		snprintf(why, len, "%s against %s: %s%sworst %s; %s needs %llu "
		    "samples", name, b, q > 0 ? e : "", q > 0 ? "; " : "", c,
		    stats_kind_name(l->stat), (unsigned long long)need);
		return CANNOT_TELL;
	}
	/*
	 * Met when the samples surely give the quantile at or under the
	 * limit; a bucket that straddles it leaves it to the summary's
	 * value, or to the counts ("~": the value above, the counts under).
	 */
	met = st->max <= l->value || (!over && (v <= (double)l->value ||
	    (q > 0 && hi <= allowed_above(q, n))));
	snprintf(why, len, "%s %s %s %s (%s)", name, fmt_time(a, sizeof(a), v,
	    4, "us"), !met ? ">" : v <= (double)l->value ? "<=" : "~", b, e);
	return met ? MET : EXCEEDED;
}

/*
 * A limit's KTAP name: latency_p99_le_5ms, timer_max_le_1.5ms,
 * inversions_le_0, video_missed_le_0.5pct (fmt_ktap drops the spaces).
 */
static void
limit_name(char *buf, size_t len, const struct limit *l)
{
	char t[32];

	if (l->frames != NULL)
		snprintf(buf, len, "%s_missed_le_%gpct", l->frames,
		    (double)l->value / 100);
	else if (l->order)
		snprintf(buf, len, "inversions_le_%lld", (long long)l->value);
	else
		snprintf(buf, len, "%s_%s_le_%s", l->timer ? "timer" :
		    "latency", stats_kind_name(l->stat), fmt_time(t, sizeof(t),
		    (double)l->value, 0, "us"));
}

int
gate_judge(FILE *fp, FILE *ktap, unsigned first, const struct config *cfg,
    const struct result *res)
{
	static const char *const word[] = { "met", "exceeded", "cannot tell" };
	enum verdict v[MAX_LIMITS], worst;
	char why[MAX_LIMITS][256], lead[32], name[64];
	const struct limit *l;
	unsigned i, n[3] = { 0, 0, 0 };

	if (cfg->nlimits == 0) {	/* no gate: the run, a KTAP test */
		snprintf(why[0], sizeof(why[0]), "%llu samples, worst %s",
		    (unsigned long long)res->ser[SER_LATENCY].st.n,
		    fmt_time(lead, sizeof(lead), res->ser[SER_LATENCY].st.n >
		    0 ? (double)res->ser[SER_LATENCY].st.max : NAN, 4, "us"));
		fmt_ktap(ktap, 1, res->ser[SER_LATENCY].st.n == 0, "latt_run",
		    why[0]);
		return EXIT_OK;
	}
	for (i = 0; i < cfg->nlimits; i++) {
		l = &cfg->limits[i];
		if (l->frames != NULL)
			v[i] = judge_frames(l, res, why[i], sizeof(why[i]));
		else if (l->order)
			v[i] = judge_order(l, res->order, why[i],
			    sizeof(why[i]));
		else
			v[i] = judge(l, res, why[i], sizeof(why[i]));
		n[v[i]]++;
		limit_name(name, sizeof(name), l);
		if (ktap != NULL)
			fmt_ktap(ktap, first + i + 1, v[i], name, why[i]);
	}
	worst = n[EXCEEDED] > 0 ? EXCEEDED : n[CANNOT_TELL] > 0 ? CANNOT_TELL :
	    MET;
	if (cfg->nlimits == 1) {
		snprintf(lead, sizeof(lead), "gate: %s: ", word[worst]);
		fmt_wrap(fp, lead, 4, GATE_WIDTH, why[0]);
	} else {
		fprintf(fp, "gate: %s (%u limits: %u exceeded, %u cannot tell, "
		    "%u met)\n", word[worst], cfg->nlimits, n[EXCEEDED],
		    n[CANNOT_TELL], n[MET]);
		for (i = 0; i < cfg->nlimits; i++) {
			snprintf(lead, sizeof(lead), "  %-13s", word[v[i]]);
			fmt_wrap(fp, lead, 15, GATE_WIDTH, why[i]);
		}
	}
	return worst == EXCEEDED ? EXIT_THRESHOLD : worst == CANNOT_TELL ?
	    EXIT_CANNOT_TELL : EXIT_OK;
}

void
gate_parse(struct config *cfg, char *arg)
{
	struct limit *l;
	char *tok, *save, *eq, name[32];
	int k, timer;

	if (*arg == '\0')
		usage_error("fail-above is empty");
	if (*arg == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,") != NULL)
		usage_error("fail-above has an empty item: %s", arg);
	for (tok = strtok_r(arg, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL)
			usage_error("fail-above: not STAT=TIME: %s", tok);
		*eq = '\0';
		if (cfg->nlimits == MAX_LIMITS)
			usage_error("fail-above: more than %d limits",
			    MAX_LIMITS);
		l = &cfg->limits[cfg->nlimits++];
		if (strlen(tok) > 7 && strcmp(tok + strlen(tok) - 7,
		    ".missed") == 0) {
			tok[strlen(tok) - 7] = '\0';
			l->frames = tok;
			l->value = parse_pct(eq + 1);
			continue;
		}
		if (strcmp(tok, "inversions") == 0) {
			l->order = 1;
			l->value = parse_num("fail-above inversions", eq + 1,
			    0, LLONG_MAX);
			continue;
		}
		timer = strncmp(tok, "timer.", 6) == 0;
		if ((k = stats_kind_find(tok + (timer ? 6 : 0))) == -1)
			usage_error("fail-above: unknown statistic: %s (one of "
			    "min, mean, stdev, p50, p90, p95, p99, p99.9, "
			    "p99.99, max, timer.STAT, inversions, or "
			    "CLASS.missed)", tok);
		snprintf(name, sizeof(name), "fail-above %s", tok);
		/* A bare number: a unit is asked for, as -d's is not. */
		if (eq[1] != '\0' && eq[1 + strspn(eq + 1, "0123456789.")] ==
		    '\0')
			usage_error("fail-above %s=%s needs a unit (ns, us, ms, "
			    "s, m, h): %sus or %sms?", tok, eq + 1, eq + 1,
			    eq + 1);
		l->stat = (enum stat_kind)k;
		l->timer = timer;
		l->value = parse_time(name, eq + 1, 0, 3600 * NSEC_PER_SEC,
		    NSEC_PER_USEC);
	}
}

void
gate_check(struct config *cfg)
{
	struct limit *l;
	unsigned i, k;

	for (i = 0; i < cfg->nlimits; i++) {
		l = &cfg->limits[i];
		if (l->frames == NULL)
			continue;
		for (k = 0; k < cfg->nclasses; k++)
			if (strcmp(cfg->classes[k].name, l->frames) == 0)
				break;
		if (k == cfg->nclasses || cfg->classes[k].frame == 0)
			usage_error("fail-above %s.missed: no frame class is "
			    "named %s", l->frames, l->frames);
		l->cls = k;
	}
}

/*
 * A share of deadlines, PCT%: a whole number or one with up to two
 * decimals, from 0 to 100, the % sign required; in 0.01% units.
 */
static int64_t
parse_pct(char *s)
{
	char *dot, frac[3] = "00";
	size_t len = strlen(s), nf;
	int64_t whole;

	if (len == 0 || s[len - 1] != '%')
		usage_error("fail-above missed: the limit needs a %% sign "
		    "(for example video.missed=1%%): %s", s);
	s[len - 1] = '\0';
	if ((dot = strchr(s, '.')) != NULL) {
		*dot++ = '\0';
		nf = strlen(dot);
		if (nf == 0 || nf > 2 || strspn(dot, "0123456789") != nf)
			usage_error("fail-above missed: at most two decimals: "
			    "%s.%s%%", s, dot);
		memcpy(frac, dot, nf);
	}
	whole = parse_num("fail-above missed", s, 0, 100);
	if (whole == 100 && strcmp(frac, "00") != 0)
		usage_error("fail-above missed is above 100%%");
	return whole * 100 + (frac[0] - '0') * 10 + (frac[1] - '0');
}
