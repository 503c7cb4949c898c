/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonmach.c: the results file's records of the machine (jsonmach.h), for
 * json.c: the host's state read once a run (environment.host) and what
 * else ran during it (machine), written as docs/json-schema.md says.
 */
#include <stddef.h>

#include "json/jsonmach.h"
#include "json/jsonw.h"
#include "record/noise.h"
#include "result.h"

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

void
jsonmach_host(struct jw *in, const char *key, const struct result *total)
{
	static const char *const keys[] = { "cmdline", "preemption", "thp",
	    "thp_defrag", "governor", "cpuidle", "cpuidle_governor",
	    "cpuidle_states", "smt", "smt_active", "isolated", "nohz_full" };
	const struct host *h = &total->env.host;
	const char *const val[NITEMS(keys)] = { total->env.cmdline,
	    total->sched.preemption, h->thp, h->thp_defrag,
	    total->mach.governor, h->cpuidle_driver, h->cpuidle_governor,
	    h->cpuidle_states, total->mach.smt, h->smt_active, h->isolated,
	    h->nohz_full };
	struct jw o, t;
	size_t i;

	jw_object(in, key, &o, "\n      ");
	for (i = 0; i < NITEMS(keys); i++)
		jw_str(&o, keys[i], val[i]);
	jw_int_if(&o, "autogroup", total->sched.autogroup >= 0,
	    total->sched.autogroup);
	jw_object(&o, "sched_tunables", &t, "\n        ");
	for (i = 0; i < h->ntun; i++)
		jw_str(&t, h->tun[i].name, h->tun[i].value);
	jw_end(&t, "\n      ");
	jw_end(&o, "\n    ");
}

/* The figures of noise.h are null where unknown (below 0). */
void
jsonmach_noise(struct jw *in, const char *key, const struct noise *n,
    int series)
{
	static const char *const keys[] = { "foreign_cpu_pct",
	    "foreign_cpus", "own_cpus", "psi_cpu_some_pct", "psi_cpu_full_pct",
	    "runnable_mean", "irq_per_s", "softirq_per_s", "cpu_mhz" };
	const double v[NITEMS(keys)] = { n->foreign_pct, n->foreign_cpus,
	    n->own_cpus, n->psi_some_pct, n->psi_full_pct, n->runnable_mean,
	    n->irq_s, n->softirq_s, n->mhz };
	struct jw o, a, pt;
	size_t i, j;

	if (!jw_object_if(in, key, &o, "\n    ", n->valid))
		return;
	jw_bool(&o, "noisy", n->noisy);
	jw_str(&o, "why", n->noisy ? n->why : NULL);
	jw_num(&o, "noisy_above_foreign_pct", NOISY_FOREIGN_PCT);
	for (i = 0; i < NITEMS(keys); i++)
		jw_num_if(&o, keys[i], v[i] >= 0, v[i]);
	jw_num(&o, "elapsed_s", n->elapsed);
	if (series) {
		jw_array(&o, "series", &a, "\n      ");
		for (i = 0; i < n->npts; i++) {
			const struct noise_point *p = &n->pts[i];
			const double f[] = { p->foreign_pct, p->psi_some_pct,
			    p->runnable, p->irq_s, p->softirq_s, p->mhz };

			jw_array(&a, NULL, &pt, " ");
			jw_num(&pt, NULL, p->t);
			for (j = 0; j < NITEMS(f); j++)
				jw_num_if(&pt, NULL, f[j] >= 0, f[j]);
			jw_end(&pt, "");
		}
		jw_end(&a, "");
	}
	jw_end(&o, "\n  ");
}
