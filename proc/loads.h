/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loads.h: the API of loads.c, the bodies of the built-in loads of --load
 * (what one load process does, forever, until it is stopped); their
 * names and units are config.c's.
 */
#ifndef LOADS_H
#define LOADS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/*
 * One counter slot per load process, a cache line each so that the
 * processes never share a line; the process stores its running count
 * every few thousand operations (relaxed), the parent reads it at the end.
 */
struct load_slot {
	uint64_t	 ops;
	char		 pad[56];
} __attribute__((aligned(64)));

/*
 * The mem load's buffer, per process: twice the largest cache of CPU 0 (the
 * last level), at least 32 MiB and at most 256 MiB; 32 MiB without the
 * cache sizes in sysfs (some virtual machines).
 */
size_t	 loads_mem_bytes(void);
/*
 * Runs one load process's body; never returns.  A pipe body uses two slots
 * (it forks its partner); membytes is for mem.  The caller has already set
 * the process group, the signals and the descriptors.
 */
void	 loads_body(enum load_kind, struct load_slot *, size_t membytes)
	    __attribute__((noreturn));

#endif /* LOADS_H */
