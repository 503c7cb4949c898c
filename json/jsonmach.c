/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonmach.c: the results file's records of the machine (jsonmach.h), for
 * json.c: the host's state read once a run (environment.host) and what
 * else ran during it (machine), written as docs/json-schema.md says.
 */
#include <stdio.h>

#include "json/jsonmach.h"
#include "json/jsonw.h"
#include "record/noise.h"

void
jsonmach_host(FILE *fp, const struct result *total)
{
	const struct host *h = &total->env.host;
	int first = 1, inner = 1;
	size_t i;

	fputc('{', fp);
	jw_key(fp, &first, "\n      ", "cmdline");
	jw_str_or_null(fp, total->env.cmdline);
	jw_key(fp, &first, "\n      ", "preemption");
	jw_str_or_null(fp, total->sched.preemption);
	jw_key(fp, &first, "\n      ", "thp");
	jw_str_or_null(fp, h->thp);
	jw_key(fp, &first, "\n      ", "thp_defrag");
	jw_str_or_null(fp, h->thp_defrag);
	jw_key(fp, &first, "\n      ", "governor");
	jw_str_or_null(fp, total->mach.governor);
	jw_key(fp, &first, "\n      ", "cpuidle");
	jw_str_or_null(fp, h->cpuidle_driver);
	jw_key(fp, &first, "\n      ", "cpuidle_governor");
	jw_str_or_null(fp, h->cpuidle_governor);
	jw_key(fp, &first, "\n      ", "cpuidle_states");
	jw_str_or_null(fp, h->cpuidle_states);
	jw_key(fp, &first, "\n      ", "smt");
	jw_str_or_null(fp, total->mach.smt);
	jw_key(fp, &first, "\n      ", "smt_active");
	jw_str_or_null(fp, h->smt_active);
	jw_key(fp, &first, "\n      ", "isolated");
	jw_str_or_null(fp, h->isolated);
	jw_key(fp, &first, "\n      ", "nohz_full");
	jw_str_or_null(fp, h->nohz_full);
	jw_key(fp, &first, "\n      ", "autogroup");
	jw_int_or_null(fp, total->sched.autogroup >= 0,
	    total->sched.autogroup);
	jw_key(fp, &first, "\n      ", "sched_tunables");
	fputc('{', fp);
	for (i = 0; i < h->ntun; i++) {
		jw_key(fp, &inner, "\n        ", h->tun[i].name);
		jw_string(fp, h->tun[i].value);
	}
	fputs(inner ? "}" : "\n      }", fp);
	fputs("\n    }", fp);
}

/* A figure of noise.h, null where unknown (below 0). */
static void
put_known_or_null(FILE *fp, double v)
{
	if (v < 0)
		fputs("null", fp);
	else
		jw_double(fp, v);
}

void
jsonmach_noise(FILE *fp, const struct noise *n, int series)
{
	const struct noise_point *p;
	int first = 1;
	size_t i;

	if (!n->valid) {
		fputs("null", fp);
		return;
	}
	fputc('{', fp);
	jw_key(fp, &first, "\n    ", "noisy");
	fputs(n->noisy ? "true" : "false", fp);
	jw_key(fp, &first, "\n    ", "why");
	jw_str_or_null(fp, n->noisy ? n->why : NULL);
	jw_key(fp, &first, "\n    ", "noisy_above_foreign_pct");
	jw_double(fp, NOISY_FOREIGN_PCT);
	jw_key(fp, &first, "\n    ", "foreign_cpu_pct");
	put_known_or_null(fp, n->foreign_pct);
	jw_key(fp, &first, "\n    ", "foreign_cpus");
	put_known_or_null(fp, n->foreign_cpus);
	jw_key(fp, &first, "\n    ", "own_cpus");
	put_known_or_null(fp, n->own_cpus);
	jw_key(fp, &first, "\n    ", "psi_cpu_some_pct");
	put_known_or_null(fp, n->psi_some_pct);
	jw_key(fp, &first, "\n    ", "psi_cpu_full_pct");
	put_known_or_null(fp, n->psi_full_pct);
	jw_key(fp, &first, "\n    ", "runnable_mean");
	put_known_or_null(fp, n->runnable_mean);
	jw_key(fp, &first, "\n    ", "irq_per_s");
	put_known_or_null(fp, n->irq_s);
	jw_key(fp, &first, "\n    ", "softirq_per_s");
	put_known_or_null(fp, n->softirq_s);
	jw_key(fp, &first, "\n    ", "cpu_mhz");
	put_known_or_null(fp, n->mhz);
	jw_key(fp, &first, "\n    ", "elapsed_s");
	jw_double(fp, n->elapsed);
	if (series) {
		jw_key(fp, &first, "\n    ", "series");
		fputc('[', fp);
		for (i = 0; i < n->npts; i++) {
			p = &n->pts[i];
			fputs(i > 0 ? ",\n      [" : "\n      [", fp);
			jw_double(fp, p->t);
			fputs(", ", fp);
			put_known_or_null(fp, p->foreign_pct);
			fputs(", ", fp);
			put_known_or_null(fp, p->psi_some_pct);
			fputs(", ", fp);
			put_known_or_null(fp, p->runnable);
			fputs(", ", fp);
			put_known_or_null(fp, p->irq_s);
			fputs(", ", fp);
			put_known_or_null(fp, p->softirq_s);
			fputs(", ", fp);
			put_known_or_null(fp, p->mhz);
			fputc(']', fp);
		}
		fputc(']', fp);
	}
	fputs("\n  }", fp);
}
