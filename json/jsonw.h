/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonw.h: the one JSON writer of latt, used by the results file (json/)
 * and latt compare's --json: strings always valid JSON and valid UTF-8
 * (control characters, quotes and backslashes escaped; every byte that is
 * not part of a well-formed UTF-8 sequence becomes U+FFFD), and numbers
 * that read back to exactly the value written.
 *
 * A struct jw is an object or array being written, or the top of a file
 * (jw_top).  Each value goes into it as the member named key, or as its
 * next item when key is NULL: after a "," (but the first) and the
 * writer's sep, " " within a line or a newline and an indent (which the
 * first member gets too).  jw_sep gives the next member another one; a
 * caller that sets w->sep changes it for all that follow: line breaks in
 * an object written on a few lines.
 */
#ifndef JSONW_H
#define JSONW_H

#include <stddef.h>
#include <stdio.h>

struct jw {
	FILE		*fp;
	const char	*sep;
	const char	*once;		/* jw_sep's, for the next member */
	unsigned	 n;		/* members or items so far */
	char		 close;		/* '}', ']', or 0 at the top */
};

void	 jw_top(struct jw *, FILE *, const char *sep);
/* Opens w as the member key of in (NULL: its next item). */
void	 jw_object(struct jw *in, const char *key, struct jw *w,
	    const char *sep);
void	 jw_array(struct jw *in, const char *key, struct jw *w,
	    const char *sep);
/* The same when present (and they return 1), else null (and 0). */
int	 jw_object_if(struct jw *in, const char *key, struct jw *w,
	    const char *sep, int present);
int	 jw_array_if(struct jw *in, const char *key, struct jw *w,
	    const char *sep, int present);
/* Closes w, after sep when it holds anything. */
void	 jw_end(struct jw *w, const char *sep);
void	 jw_sep(struct jw *, const char *sep);

void	 jw_null(struct jw *, const char *key);
void	 jw_bool(struct jw *, const char *key, int);
void	 jw_int(struct jw *, const char *key, long long);
void	 jw_uint(struct jw *, const char *key, unsigned long long);
void	 jw_num(struct jw *, const char *key, double);	/* not finite: null */
/* The value when present, else null. */
void	 jw_int_if(struct jw *, const char *key, int present, long long);
void	 jw_num_if(struct jw *, const char *key, int present, double);
void	 jw_str(struct jw *, const char *key, const char *);	/* NULL: null */
/* len bytes of JSON text written already (a run of json_write_run). */
void	 jw_raw(struct jw *, const char *key, const char *json, size_t len);

/*
 * The same values without a struct jw, for a caller that keeps its own
 * commas (compare's rows): jw_key starts a member, "," unless *first
 * (which it clears), then sep, the key and ": ".
 */
void	 jw_string(FILE *, const char *);
void	 jw_str_or_null(FILE *, const char *);	/* NULL: null */
void	 jw_double(FILE *, double);		/* not finite: null */
void	 jw_int_or_null(FILE *, int present, long long);
void	 jw_key(FILE *, int *first, const char *sep, const char *key);

#endif /* JSONW_H */
