/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonexpl.h: the API of jsonexpl.c, --explain's autopsy in the results
 * file.
 */
#ifndef JSONEXPL_H
#define JSONEXPL_H

#include "json/jsonw.h"
#include "result.h"

/* res->autopsy (not NULL) as the object of in's member key. */
void	 jsonexpl_write(struct jw *in, const char *key, const struct result *);

#endif /* JSONEXPL_H */
