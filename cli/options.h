/* SPDX-License-Identifier: GPL-2.0-only */
/* options.h: the API of options.c, which turns argv into a config. */
#ifndef OPTIONS_H
#define OPTIONS_H

#include "config.h"

/* argv into cfg; bad input exits 2 with one line.  */
void	 options_parse(int, char **, struct config *);

#endif /* OPTIONS_H */
