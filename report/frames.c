/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frames.c: the text of the frame classes (-cN:frame=PERIOD:busy=TIME),
 * one block a class after the details table: how many deadlines it met,
 * how many frames were done late or could not start, the share of the CPU
 * it asked for that it got, its longest stutter, and with --details the
 * percentiles of its wake-ups and frame times (and a stutter of none).  It reads a finished result (the counts
 * and series that feed.c filled) and never measures.
 *
 * Desired CPU is interbench's figure: the work done over the work asked
 * in the time the class ran.  Every frame that starts does its whole
 * fixed work (busy=), and each period asks for one frame's, so it is the
 * frames started over the periods passed (frames plus those not started).
 */
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "lib/fmt.h"
#include "report/facts.h"
#include "report/frames.h"
#include "result.h"
#include "stats.h"

static void	 print_series(FILE *, const char *, const struct stats *);

void
frames_print(FILE *fp, const struct config *cfg, const struct result *res)
{
	const struct client_class *cl;
	const struct frame_counts *fr;
	FILE *more = cfg->details ? fp : NULL;
	uint64_t all;
	unsigned i;
	char p[32], b[32], s[32];

	for (i = 0; res->classes != NULL && i < cfg->nclasses; i++) {
		cl = &cfg->classes[i];
		if (cl->frame == 0)
			continue;
		fr = &res->classes[i].fr;
		all = frame_deadlines(fr);
		fprintf(fp, "\nFrames of %s: every %s, busy %s, %u client%s\n",
		    cl->name, fmt_time(p, sizeof(p), (double)cl->frame, 0,
		    "us"), fmt_time(b, sizeof(b), (double)cl->busy, 0, "us"),
		    cl->n, cl->n == 1 ? "" : "s");
		if (all == 0) {
			facts_row(fp, "deadlines", "none: no frame ended in "
			    "the run");
			continue;
		}
		facts_row(fp, "deadlines", "%llu, %llu met (%.2f%%); missed "
		    "%llu late, %llu not started", (unsigned long long)all,
		    (unsigned long long)fr->met, 100.0 * (double)fr->met /
		    (double)all, (unsigned long long)fr->missed,
		    (unsigned long long)fr->not_started);
		facts_row(fp, "desired CPU", "%.1f%% (%llu frames done of "
		    "%llu asked)", 100.0 * (double)fr->frames / (double)all,
		    (unsigned long long)fr->frames, (unsigned long long)all);
		if (fr->longest == 0)
			facts_row(more, "stutter", "none: no deadline missed");
		else
			facts_row(fp, "stutter", "%llu deadline%s missed in a "
			    "row (%s), the longest", (unsigned long long)
			    fr->longest, fr->longest == 1 ? "" : "s",
			    fmt_time(s, sizeof(s), (double)fr->longest *
			    (double)cl->frame, 4, "us"));
		print_series(more, "wake-up", &res->classes[i].ser[
		    SER_FRAME_WAKE].st);
		print_series(more, "frame time", &res->classes[i].ser[
		    SER_FRAME_TIME].st);
	}
}

/*
 * A series in one line: p50, p99 and max, each "-" where the samples
 * cannot give it (as in the details table).
 */
static void
print_series(FILE *fp, const char *label, const struct stats *st)
{
	char a[32], b[32], c[32];

	facts_row(fp, label, "p50 %s  p99 %s  max %s",
	    fmt_time(a, sizeof(a), stats_shown(st, STAT_P50), 3, "us"),
	    fmt_time(b, sizeof(b), stats_shown(st, STAT_P99), 3, "us"),
	    fmt_time(c, sizeof(c), stats_shown(st, STAT_MAX), 3, "us"));
}
