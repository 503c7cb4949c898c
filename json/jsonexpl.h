/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonexpl.h: the API of jsonexpl.c, --explain's autopsy in the results
 * file.
 */
#ifndef JSONEXPL_H
#define JSONEXPL_H

#include <stdio.h>

#include "result.h"

/* res->autopsy (not NULL) as the object of "explain". */
void	 jsonexpl_write(FILE *, const struct result *);

#endif /* JSONEXPL_H */
