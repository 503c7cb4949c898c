/* SPDX-License-Identifier: GPL-2.0-only */
/* help.h: the text of latt --help (help.c). */
#ifndef LATT_HELP_H
#define LATT_HELP_H

extern const char help_synopsis[];	/* the usage lines */
extern const char help_text[];		/* the rest of --help */

#endif
