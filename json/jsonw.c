/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonw.c: the one JSON writer (jsonw.h): strings, numbers and members.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "lib/common.h"

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

/* Writes s as a JSON string; see jsonw.h for what is escaped. */
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
