/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmphost.h: the API of cmphost.c, the host's state of two sides of latt
 * compare (environment.host of each side's first file) set side by side:
 * every setting that differs, one line each.
 */
#ifndef CMPHOST_H
#define CMPHOST_H

#include <stddef.h>

struct json;

/*
 * The host object v flattened into lines "NAME\tVALUE\n" in its order
 * (an object inside it: "sched_tunables.kernel.sched_rt_period_us"), the
 * form a side keeps; NULL on ENOMEM or when v is no object.
 */
char	*cmp_host_flat(const struct json *v);
/*
 * Appends to *w (of *n sentences) one sentence for every name whose value
 * differs between fa and fb (flattened texts, either NULL: not recorded)
 * of the sides named na and nb, names already warned about by compare
 * (cmdline, preemption, governor, smt) left out.  Returns 0, or -1 on
 * ENOMEM.
 */
int	 cmp_host_diff(const char *fa, const char *fb, const char *na,
	    const char *nb, char ***w, size_t *n);
/* cmp_host_diff of two sides' kept host states (cmp_int.h). */
struct cmp_side;
int	 cmp_host_warn(const struct cmp_side *a, const struct cmp_side *b,
	    char ***w, size_t *n);

#endif /* CMPHOST_H */
