/* SPDX-License-Identifier: GPL-2.0-only */
/* help.h: the prose of latt --help (help.c), in the order printed. */
#ifndef LATT_HELP_H
#define LATT_HELP_H

extern const char help_usage[];		/* latt compare's usage lines */
extern const char help_intro[];
extern const char *const help_group[];	/* by options.c's enum group */
extern const char help_end[];

#endif
