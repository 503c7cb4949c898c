/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h: what was asked of a run, and nothing else: the settings that
 * options.c makes of argv, read by every room that takes part in a run.
 * No descriptor, pid, mapping or probe lives here; what a run holds while
 * it runs is in run.h, and what it produced in result.h.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define LOAD_MAX	16		/* --load options in one run */
#define LOAD_NMAX	1024	/* processes (pipe: pairs) of one load */
#define WORK_KB_MAX	1048576		/* -x: 1 GiB a client */

/* The built-in loads of --load; LOAD_NONE starts nothing. */
enum load_kind {
	LOAD_NONE,
	LOAD_CPU,
	LOAD_SYSCALL,
	LOAD_YIELD,
	LOAD_FORK,
	LOAD_PIPE,
	LOAD_MEM,
};

/* One --load=KIND[:N][:cpus=LIST] as given. */
struct load_spec {
	enum load_kind	 kind;
	unsigned	 n;		/* processes; pipe: pairs */
	int		*cpus;	/* cpus=: process i on cpus[i % ncpus] */
	unsigned	 ncpus;		/* 0: not pinned */
};

/* One --fail-above limit: the run fails when the statistic is above it. */
struct limit {
	enum stat_kind	 stat;		/* stats.h */
	int		 timer;		/* 1: of the timer series */
	int		 order;		/* 1: inversions of the order check
					   (order.h), value a count */
	const char	*frames;	/* CLASS.missed=PCT: a frame class's
					   name, value in 0.01% units; NULL:
					   none */
	unsigned	 cls;		/* with frames: its class */
	int64_t		 value;		/* ns */
};

#define MAX_LIMITS	16

/* --sweep=NAME=V1,V2,...: the setting varied, one whole measurement a
 * value.  A new kind is an entry here and in sweep.c's table. */
enum sweep_kind {
	SWEEP_NONE,		/* no --sweep */
	SWEEP_CLIENTS,		/* -c N */
	SWEEP_LOAD,		/* the N of the one --load */
	SWEEP_WORK,		/* -x KB */
	SWEEP_SLICE,		/* every client's EEVDF slice, ns */
	SWEEP_DELAY,		/* -f = -t, ns */
	SWEEP_KNOB,		/* a kernel knob's file, written before each
				   run (tune.c); values as text */
};

#define SWEEP_MAX	32		/* values of one --sweep */
#define SWEEP_TEXT	24		/* bytes of a value as given */
#define SWEEP_PATH	4096		/* bytes of a knob's file's path */

struct sweep_spec {
	enum sweep_kind	 kind;
	const char	*name;		/* as the reports spell it */
	unsigned	 n;
	int64_t		 v[SWEEP_MAX];	/* in the option's own unit, ns */
	char		 text[SWEEP_MAX][SWEEP_TEXT];	/* as given */
	char		 file[SWEEP_PATH];	/* SWEEP_KNOB: the file */
	int		 at;		/* a step's settings: the index of
					   its value; -1: not a step's */
};

#define CLASS_MAX	32		/* -c N:ATTR classes in one run */
#define CLASS_NAME_MAX	24		/* bytes of a class's name */
#define EXPLAIN_DEFAULT	3		/* --explain without =K */
#define EXPLAIN_MAX	100		/* --explain=K: the largest K */

/*
 * How a client is to be scheduled: from its class (-c N:ATTR...), or from
 * --policy, --prio and --nice.  Set with sched_setattr(2) and read back
 * with sched_getattr(2) in tune.c.
 */
struct sched_req {
	int		 policy;	/* SCHED_*, or -1: inherited */
	int		 prio;		/* with SCHED_FIFO and SCHED_RR */
	int		 nice;
	int		 set_nice;	/* nice given */
	int64_t		 slice;	/* ns, a fair task's slice; 0: default */
	int64_t		 runtime;	/* SCHED_DEADLINE, ns */
	int64_t		 deadline;
	int64_t		 period;
};

/*
 * A class of clients, one -c N:ATTR=VALUE:... each: clients first to
 * first + n - 1, every one set to the same attributes.  A run with one
 * plain -c has no classes at all (nclasses 0), exactly as in 2009.
 */
struct client_class {
	char		 name[CLASS_NAME_MAX + 1];
	const char	*spec;		/* the attributes as given, "" none */
	unsigned	 first;
	unsigned	 n;
	struct sched_req sched;		/* --policy/--prio/--nice, overridden */
	int		*cpus;		/* cpus=, or NULL: --cpus applies */
	unsigned	 ncpus;
	int64_t		 busy;	/* busy=, or --busy: ns; 0: no busy phase */
	int64_t		 frame;	/* frame=: a frame class's period, ns; 0:
				   a class woken in the rounds */
};

/*
 * The settings of a run, as config_parse left them; freed by config_free.
 */
struct config {
	unsigned	 nclients;
	int64_t		 min_delay; /* ns, the parent's sleep between rounds */
	int64_t		 max_delay;	/* ns */
	int		 verbose;
	uint64_t	 seed;
	char		**cmd;		/* workload argv, NULL-terminated */
	int		 ncmd;	/* 1: run as /bin/sh -c cmd[0]; 0: none */
	const char	*misplaced;	/* a word of cmd that is one of latt's
					   options, or NULL */
	struct load_spec load[LOAD_MAX];
	unsigned	 nload;
	int		 load_given;	/* any --load, even --load=none */
	int		 clients_given;	/* -c given */
	int		 bare;	/* no command: the defaults of a bare run */
	unsigned	 work_kb; /* -x: work after each wake-up, 0: none */

	/* Run control. */
	int64_t		 duration;	/* ns; 0: until the workload ends */
	uint64_t	 samples;	/* stop after this many; 0: no limit */
	int64_t		 warmup; /* ns; samples sent earlier are dropped */
	int		*cpus;	/* clients pinned round-robin; NULL: no */
	unsigned	 ncpus;
	int		 parent_cpu;	/* -1: not pinned */
	int		 policy;	/* SCHED_*, or -1: inherited */
	int		 prio;		/* with SCHED_FIFO and SCHED_RR */
	int		 nice;
	int		 set_nice;	/* --nice given */
	struct client_class *classes;	/* -c N:ATTR...; NULL: none */
	unsigned	 nclasses;
	unsigned char	*class_of;	/* each client's class, with classes */
	int		 mlock;
	int		 parent_policy;	/* latt's own SCHED_*, or -1:
					   inherited */
	int		 parent_prio;	/* with a real-time parent_policy */
	int		 dma_latency;	/* --dma-latency, us; -1: not held */
	int		 open_loop; /* --open-loop: rounds keep their times */
	int64_t		 breaktrace;	/* ns; 0: off */
	unsigned	 explain;	/* --explain=K: autopsies; 0: off */
	int		 no_split;	/* --no-split: they must not */
	unsigned	 split_every;	/* --split: the parent reads the
					   clients' schedstat around 1 in
					   this many rounds (1: every) */
	int64_t		 busy;		/* --busy: ns; 0: no busy phase */
	int64_t		 order_slack;	/* --order-slack: ns; -1: not given */
	struct limit	 limits[MAX_LIMITS];
	unsigned	 nlimits;
	unsigned	 repeat;	/* --repeat: runs back to back, >= 1 */
	struct sweep_spec sweep;	/* --sweep; kind SWEEP_NONE: none */
	int64_t		 slice;	/* ns, every client's slice without
				   classes (a slice sweep); 0: none */

	/* Outputs. */
	int		 quiet;		/* no progress line */
	int		 per_client;	/* the per-client table */
	int		 histogram;	/* the text histogram */
	int		 details;	/* the summary's facts, all of them */
	const char	*json_path;	/* "-": stdout, in place of the text */
	const char	*ktap_path;	/* --ktap; "-": stdout */
	const char	*log_path;	/* CSV of every sample */
	const char	*plot_path;	/* SVG */
	int		 bisect;	/* --bisect: git bisect's statuses */
	const char	*baseline; /* --baseline: results to compare with */
	const char	*fail_if_worse;	/* --fail-if-worse SPEC */
	int		 drop_noisy;	/* --drop-noisy: with --baseline */
	double		 confidence;	/* --confidence: its level, or 0 */
};

/* The busy phase of client idx (busy= of its class, or --busy), ns. */
static inline int64_t
config_busy(const struct config *cfg, unsigned idx)
{
	return cfg->nclasses > 0 ? cfg->classes[cfg->class_of[idx]].busy :
	    cfg->busy;
}

/*
 * The frame period of client idx (frame= of its class), ns; 0: the
 * client is woken in the shared rounds.  A frame client runs on its own
 * timer (client.c) and is never in a round.
 */
static inline int64_t
config_frame(const struct config *cfg, unsigned idx)
{
	return cfg->nclasses > 0 ? cfg->classes[cfg->class_of[idx]].frame : 0;
}

/* Whether some client has a busy phase (frame classes' included). */
static inline int
config_any_busy(const struct config *cfg)
{
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		if (cfg->classes[i].busy > 0)
			return 1;
	return cfg->busy > 0;
}

/* Whether some client woken in the rounds has a busy phase. */
static inline int
config_round_busy(const struct config *cfg)
{
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		if (cfg->classes[i].busy > 0 && cfg->classes[i].frame == 0)
			return 1;
	return cfg->nclasses == 0 && cfg->busy > 0;
}

/*
 * The words of the settings (config.c): a load kind by the len bytes of
 * its name (-1: none), its name, what one of its operations is, and how
 * many processes --load=KIND:n runs (a pipe pair is two); a policy by its
 * name (-1: none) and its name as --policy and policy= spell it ("?");
 * the workload's command as a user would type it, the words that need it
 * single-quoted ("" for none; to free; NULL when memory ran out).
 */
int	 config_load_find(const char *name, size_t len);
const char *config_load_name(enum load_kind);
const char *config_load_unit(enum load_kind);
unsigned config_load_nproc(enum load_kind, unsigned n);
int	 config_policy_find(const char *name);
const char *config_policy_name(int policy);
char	*config_command(const struct config *);
void	 config_free(struct config *);

#endif /* CONFIG_H */
