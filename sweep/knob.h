/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.h: the API of knob.c, a kernel knob swept (--sweep=FILE=V1,...):
 * checked, locked, saved, guarded, tried, written and read back, and
 * restored however latt ends.
 */
#ifndef KNOB_H
#define KNOB_H

#include <stddef.h>

#include "config.h"
#include "proc/guard.h"

#define KNOB_TEXT	4096	/* bytes of a knob's content, at most */

/* --sweep=FILE=V1,V2,...: a kernel knob, as latt holds it. */
struct knob {
	const char	*file;		/* NULL: none */
	const struct sweep_spec *sw;	/* its values */
	int		 lockfd;	/* flock'ed: one latt a knob */
	char		 orig[KNOB_TEXT];	/* its content before latt */
	size_t		 len;
	char		 back[KNOB_TEXT];	/* what writes that back: the
						   content, or its choice */
	int		 changed;	/* 1: latt's value in it, to restore;
					   3: left to another writer's */
	const char	*now;		/* the value latt wrote last */
	struct guard	 guard;	/* restores it if latt is killed */
};

void	 knob_check(const char *file);	/* a usage error when unfit */
/* 0, -1 (a usage error: said) or -2 (a runtime failure: said). */
int	 knob_save(struct knob *, const struct sweep_spec *);
int	 knob_set(struct knob *, const char *value);
/*
 * Whether the knob still holds the value latt wrote for this run; when
 * another writer changed it, 0 and what it holds (cut) in found.
 */
int	 knob_held(const struct knob *, char *found, size_t len);
/* Whether its guardian lives; gone, the knob is restored (said): 0. */
int	 knob_guarded(struct knob *);
int	 knob_restore(struct knob *);

#endif /* KNOB_H */
