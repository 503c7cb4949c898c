/* SPDX-License-Identifier: GPL-2.0-only */
/* cmpshow.h: the API of cmpshow.c, a recorded setting in words. */
#ifndef CMPSHOW_H
#define CMPSHOW_H

#include <stddef.h>

#include "compare/cmp_int.h"
#include "json/jsonread.h"

/* A setting as it is shown, built in pieces; cut with "..." when long. */
struct cmp_shown {
	char	 s[JSON_TEXT_MAX];
	size_t	 len;
};

/* Appends to sh, printf-like, cut with "..." where sh is full. */
void	 cmp_show_put(struct cmp_shown *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * A recorded value v in words, as how says (a time, a list, on/off...);
 * control bytes become '?'.  NULL on ENOMEM.
 */
char	*cmp_show_value(enum cmp_show how, const struct json *v);

#endif /* CMPSHOW_H */
