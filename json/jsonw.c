/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonw.c: the one JSON writer (jsonw.h): members and items, strings and
 * numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "lib/common.h"

static FILE	*next(struct jw *, const char *);
static int	 open_in(struct jw *, const char *, struct jw *, const char *,
		    int, const char *);

/* Starts w's next member (or item): ",", the separator, the key. */
static FILE *
next(struct jw *w, const char *key)
{
	const char *sep = w->once != NULL ? w->once : w->sep;

	if (w->n > 0)
		fputc(',', w->fp);
	if (w->n++ > 0 || w->once != NULL || sep[0] == '\n')
		fputs(sep, w->fp);
	w->once = NULL;
	if (key != NULL) {
		jw_string(w->fp, key);
		fputs(": ", w->fp);
	}
	return w->fp;
}

void
jw_top(struct jw *w, FILE *fp, const char *sep)
{
	*w = (struct jw){ .fp = fp, .sep = sep };
}

/* Opens w in in (or writes null when not present); says which. */
static int
open_in(struct jw *in, const char *key, struct jw *w, const char *sep,
    int present, const char *brackets)
{
	if (!present) {
		jw_null(in, key);
		return 0;
	}
	fputc(brackets[0], next(in, key));
	*w = (struct jw){ .fp = in->fp, .sep = sep, .close = brackets[1] };
	return 1;
}

void
jw_object(struct jw *in, const char *key, struct jw *w, const char *sep)
{
	open_in(in, key, w, sep, 1, "{}");
}

void
jw_array(struct jw *in, const char *key, struct jw *w, const char *sep)
{
	open_in(in, key, w, sep, 1, "[]");
}

int
jw_object_if(struct jw *in, const char *key, struct jw *w, const char *sep,
    int present)
{
	return open_in(in, key, w, sep, present, "{}");
}

int
jw_array_if(struct jw *in, const char *key, struct jw *w, const char *sep,
    int present)
{
	return open_in(in, key, w, sep, present, "[]");
}

void
jw_end(struct jw *w, const char *sep)
{
	if (w->n > 0)
		fputs(sep, w->fp);
	fputc(w->close, w->fp);
}

void
jw_sep(struct jw *w, const char *sep)
{
	w->once = sep;
}

void
jw_null(struct jw *w, const char *key)
{
	fputs("null", next(w, key));
}

void
jw_bool(struct jw *w, const char *key, int v)
{
	fputs(v ? "true" : "false", next(w, key));
}

void
jw_int(struct jw *w, const char *key, long long v)
{
	fprintf(next(w, key), "%lld", v);
}

void
jw_uint(struct jw *w, const char *key, unsigned long long v)
{
	fprintf(next(w, key), "%llu", v);
}

void
jw_int_if(struct jw *w, const char *key, int present, long long v)
{
	jw_int_or_null(next(w, key), present, v);
}

void
jw_num(struct jw *w, const char *key, double v)
{
	jw_double(next(w, key), v);
}

void
jw_num_if(struct jw *w, const char *key, int present, double v)
{
	jw_double(next(w, key), present ? v : NAN);
}

void
jw_str(struct jw *w, const char *key, const char *s)
{
	jw_str_or_null(next(w, key), s);
}

void
jw_raw(struct jw *w, const char *key, const char *json, size_t len)
{
	fwrite(json, 1, len, next(w, key));
}

void
jw_key(FILE *fp, int *first, const char *sep, const char *key)
{
	if (!*first)
		fputc(',', fp);
	*first = 0;
	fputs(sep, fp);
	jw_string(fp, key);
	fputs(": ", fp);
}

void
jw_string(FILE *fp, const char *str)
{
	static const char from[] = "\"\\\n\t\r\b\f";
	static const char *const to[] = { "\\\"", "\\\\", "\\n", "\\t",
	    "\\r", "\\b", "\\f" };
	const unsigned char *s = (const unsigned char *)str;
	const char *e;
	size_t n;

	fputc('"', fp);
	while (*s != '\0') {
		if ((e = strchr(from, *s)) != NULL) {
			fputs(to[e - from], fp);
			s++;
		} else if (*s < 0x20 || *s == 0x7f)
			fprintf(fp, "\\u%04x", *s++);
		else if ((n = utf8_len(s, SIZE_MAX)) == 0) {
			fputs("\\ufffd", fp);
			s++;
		} else {
			fwrite(s, 1, n, fp);
			s += n;
		}
	}
	fputc('"', fp);
}

void
jw_str_or_null(FILE *fp, const char *s)
{
	if (s == NULL)
		fputs("null", fp);
	else
		jw_string(fp, s);
}

void
jw_int_or_null(FILE *fp, int present, long long v)
{
	if (present)
		fprintf(fp, "%lld", v);
	else
		fputs("null", fp);
}

/*
 * Writes a double in the shortest of %.15g, %.16g and %.17g that reads
 * back to the same value, so that a reader gets exactly what latt had.
 * Statistics are never NaN or infinite; if one were, it would be null.
 */
void
jw_double(FILE *fp, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	/* A whole number keeps a ".0" so that every reader sees a float. */
	if (strspn(buf, "-0123456789") == strlen(buf))
		strcat(buf, ".0");
	fputs(buf, fp);
}
