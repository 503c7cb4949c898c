/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fmt.c: how latt writes numbers and sentences for people (fmt.h): a
 * time with its unit, microseconds and plain numbers to four figures, a
 * rate with k, M, G or T, and a sentence cut into lines.  Every report
 * writes its figures with these, so that one figure reads the same in
 * the summary, the tables, compare and the plot.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"

char *
fmt_time(char *buf, size_t len, double ns, int digits, const char *micro)
{
	static const double scale[] = { 1, 1e3, 1e6, 1e9 };
	const char *unit[] = { "ns", micro, "ms", "s" };
	double v, a = fabs(ns);
	int u = 0, intdig, prec;

	if (isnan(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (u < 3 && a >= scale[u + 1] * (1 - 5e-10))
		u++;
	v = ns / scale[u];
	if (digits <= 0) {
		/* Exact: nanoseconds are the last digit. */
		snprintf(buf, len, "%.*f", u * 3, v);
		if (strchr(buf, '.') != NULL) {
			char *e = buf + strlen(buf) - 1;

			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
		}
	} else {
		intdig = fabs(v) < 1 ? 1 : (int)floor(log10(fabs(v))) + 1;
		prec = digits > intdig ? digits - intdig : 0;
		if (prec > u * 3)
			prec = u * 3;
		snprintf(buf, len, "%.*f", prec, v);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), " %s", unit[u]);
	return buf;
}

char *
fmt_num(char *buf, size_t len, double x, int si)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	double a;
	int k = 0;

	if (isnan(x)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (si && k < 4 && fabs(x) >= 999.95) {
		x /= 1000;
		k++;
	}
	a = fabs(x);
	snprintf(buf, len, "%.*f%s", a < 0.99995 ? 4 : a < 9.9995 ? 3 :
	    a < 99.995 ? 2 : a < 999.95 ? 1 : 0, x, pre[k]);
	return buf;
}

char *
fmt_us(char *buf, size_t len, double ns)
{
	double v = ns / 1e3;

	if (ns == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (fabs(v) >= 999999.5) {
		fmt_num(buf, len, v / 1e6, 0);
		if (strlen(buf) + 1 < len)
			strcat(buf, "s");
		return buf;
	}
	return fmt_num(buf, len, v, 0);
}

/*
 * Writes lead, then text cut at spaces into lines of at most width
 * columns, each further line indented by indent columns.  A space within
 * parentheses or brackets is a cut only when the line has no other, and
 * a task is never cut from its policy ("cc1[7764] (fair nice 0)"); one
 * after a comma or a semicolon is preferred when it fills at least half
 * the line.  A word longer than a line (a long path) stands alone.
 */
void
fmt_wrap(FILE *fp, const char *lead, int indent, int width,
    const char *text)
{
	size_t pos = 0, len = strlen(text), room, i, cut, comma, any;
	int col = (int)strlen(lead), depth;

	fputs(lead, fp);
	while (len - pos > (room = col < width ? (size_t)(width - col) : 0)) {
		cut = comma = any = 0;
		for (i = pos, depth = 0; i < len && i - pos <= room; i++)
			if (text[i] == '(' || text[i] == '[')
				depth++;
			else if ((text[i] == ')' || text[i] == ']') &&
			    depth > 0)
				depth--;
			else if (text[i] == ' ' && i > pos &&
			    !(text[i - 1] == ']' && text[i + 1] == '(')) {
				any = i;
				if (depth == 0)
					cut = i;
				if (depth == 0 && strchr(",;", text[i - 1]))
					comma = i;
			}
		if (comma > 0 && comma - pos >= room / 2)
			cut = comma;
		if (cut == 0)
			cut = any;
		if (cut == 0 && (cut = pos + strcspn(text + pos, " ")) == len)
			break;
		fmt_put(fp, text + pos, cut - pos);
		fprintf(fp, "\n%*s", indent, "");
		col = indent;
		for (pos = cut; text[pos] == ' '; pos++)
			;
	}
	fmt_put(fp, text + pos, len - pos);
	fputc('\n', fp);
}

void
fmt_put(FILE *fp, const char *s, size_t n)
{
	for (; n > 0 && *s != '\0'; s++, n--)
		fprintf(fp, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    "\\x%02x" : "%c", (unsigned char)*s);
}

void
fmt_ktap(FILE *fp, unsigned n, int verdict, const char *name,
    const char *diag)
{
	fprintf(fp, "# %s\n%s %u ", diag, verdict == 1 ? "not ok" : "ok", n);
	for (; *name != '\0'; name++)
		if (*name != ' ')
			fputc(isalnum((unsigned char)*name) ||
			    strchr("_.-", *name) ? *name : '_', fp);
	fputs(verdict == 2 ? " # SKIP cannot tell\n" : "\n", fp);
}
