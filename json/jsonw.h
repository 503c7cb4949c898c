/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonw.h: the one JSON writer of latt, used by the results file (json.c)
 * and latt compare's --json: strings always valid JSON and valid UTF-8
 * (control characters, quotes and backslashes escaped; every byte that is
 * not part of a well-formed UTF-8 sequence becomes U+FFFD), and numbers
 * that read back to exactly the value written.
 */
#ifndef JSONW_H
#define JSONW_H

#include <stdio.h>

void	 jw_string(FILE *, const char *);
void	 jw_str_or_null(FILE *, const char *);	/* NULL: null */
void	 jw_double(FILE *, double);		/* not finite: null */
void	 jw_int_or_null(FILE *, int present, long long);
/*
 * Starts a member of an object: "," unless *first (which it clears), then
 * sep (a newline and indent, or " "), then the key and ": ".
 */
void	 jw_key(FILE *, int *first, const char *sep, const char *key);

#endif /* JSONW_H */
