/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.h: the API of knob.c, a kernel knob swept (--sweep=FILE=V1,...):
 * checked, saved, tried, written and read back, and restored however
 * latt ends.
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
	char		 orig[KNOB_TEXT];	/* its content before latt */
	size_t		 len;
	char		 back[KNOB_TEXT];	/* what writes that back: the
						   content, or its choice */
	int		 changed;	/* written since saved: to restore */
	struct guard	 guard;	/* restores it if latt is killed */
};

void	 knob_check(const char *file);	/* a usage error when unfit */
int	 knob_save(struct knob *, const struct sweep_spec *);
int	 knob_set(struct knob *, const char *value);
int	 knob_restore(struct knob *);

#endif /* KNOB_H */
