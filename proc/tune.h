/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tune.h: the API of tune.c, the placement and priority of latt's own
 * processes (the parent, the clients, the workload): the timer slack,
 * memory locking, CPU pinning and scheduling attributes, checked before
 * the run and read back after they are set; and the record of the
 * scheduler they run under.
 */
#ifndef TUNE_H
#define TUNE_H

#include <stdint.h>

#include "config.h"
#include "proc/guard.h"

struct run;

#define KNOB_TEXT	4096	/* bytes of a knob's content, at most */

/* --sweep=FILE=V1,V2,...: a kernel knob, as latt holds it. */
struct knob {
	const char	*file;		/* NULL: none */
	char		 orig[KNOB_TEXT];	/* its content before latt */
	size_t		 len;
	char		 back[KNOB_TEXT];	/* what writes that back: the
						   content, or its choice */
	int		 changed;	/* written since saved: to restore */
	struct guard	 guard;	/* restores it if latt is killed */
};

struct sched_got;

int	 tune_check(const struct config *);
int	 tune_parent(const struct config *, struct run *);
int	 tune_pin_parent(const struct config *);
int	 tune_sched_parent(const struct config *);
int	 tune_dma_open(const struct config *);	/* fd, -2: off, -1: failed */
int	 tune_client(const struct config *, unsigned, const char **,
	    struct sched_got *);
void	 tune_workload(unsigned long slack);
const char *tune_policy_name(int);
int64_t	 tune_own_slice(void);
void	 tune_knob_check(const char *file);	/* usage error */
int	 tune_knob_save(struct knob *, const struct sweep_spec *);
int	 tune_knob_set(struct knob *, const char *value);
int	 tune_knob_restore(struct knob *);

#endif /* TUNE_H */
