/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpshow.c: a recorded setting of a run in words, as latt compare's
 * warnings say it: times with their unit, lists as given ("0,1", "cpu:2
 * pipe:1"), on/off, "not set"; built in pieces and cut with "..." when
 * long.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_int.h"
#include "compare/cmpshow.h"
#include "json/jsonread.h"

void
cmp_show_put(struct cmp_shown *sh, const char *fmt, ...)
{
	size_t room = sizeof(sh->s) - sh->len;
	va_list ap;
	int n;

	if (room <= 4)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sh->s + sh->len, room - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room - 3) {
		sh->len = sizeof(sh->s) - 4;
		memcpy(sh->s + sh->len, "...", 4);
		sh->len += 3;
	} else
		sh->len += (size_t)n;
}

/* A time in nanoseconds for a reader: "0", "500 us", "1 ms", "2.5 s". */
static void
show_time(char *buf, size_t len, double ns)
{
	static const struct {
		double		 div;
		const char	*unit;
	} u[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	size_t i = 0;

	if (ns == 0) {
		snprintf(buf, len, "0");
		return;
	}
	while (i < 3 && ns < u[i].div)
		i++;
	snprintf(buf, len, "%.4g %s", ns / u[i].div, u[i].unit);
}

/* A list as it is shown: "0,1", "make -j4", "cpu:2 pipe:1", "none". */
static void
show_list(struct cmp_shown *sh, enum cmp_show how, const struct json *v)
{
	const struct json *it, *kind, *procs;
	const char *sep;
	char *t;
	size_t i;

	if (v->n == 0)
		cmp_show_put(sh, "none");
	for (i = 0; i < v->n; i++) {
		it = json_at(v, i);
		sep = i == 0 ? "" : how == SHOW_LIST ? "," : " ";
		kind = json_get(it, "kind");
		procs = json_get(it, "procs");
		if (how == SHOW_LOADS && kind != NULL &&
		    kind->type == JSON_STRING && procs != NULL &&
		    procs->type == JSON_NUMBER)
			cmp_show_put(sh, "%s%s:%g", sep, kind->str,
			    json_num(procs));
		else if (it->type == JSON_STRING)
			cmp_show_put(sh, strpbrk(it->str, " ,") != NULL ||
			    *it->str == '\0' ? "%s'%s'" : "%s%s", sep, it->str);
		else if ((t = json_text(it, 1)) != NULL) {
			cmp_show_put(sh, "%s%s", sep, t);
			free(t);
		}
	}
}

/*
 * A setting as a reader wants it (cmp_info): "4", "1 ms", "cpu:2", "off",
 * 'make -j4', "not set" for null; control bytes become '?'.  NULL on
 * ENOMEM.
 */
char *
cmp_show_value(enum cmp_show how, const struct json *v)
{
	struct cmp_shown sh;
	char t[64], *s;
	size_t i;

	sh.len = 0;
	sh.s[0] = '\0';
	if (v->type == JSON_NULL)
		cmp_show_put(&sh, "%s", how == SHOW_US || how == SHOW_KB ? "off" :
		    "not set");
	else if (v->type == JSON_NUMBER && how == SHOW_TIME) {
		show_time(t, sizeof(t), json_num(v));
		cmp_show_put(&sh, "%s", t);
	} else if (v->type == JSON_NUMBER && (how == SHOW_US ||
	    how == SHOW_KB))
		cmp_show_put(&sh, "%g %s", json_num(v), how == SHOW_US ? "us" :
		    "KiB");
	else if (v->type == JSON_TRUE || v->type == JSON_FALSE)
		cmp_show_put(&sh, "%s", how == SHOW_ONOFF ? (v->type == JSON_TRUE ?
		    "on" : "off") : (v->type == JSON_TRUE ? "true" : "false"));
	else if (v->type == JSON_ARRAY && how != SHOW_TEXT)
		show_list(&sh, how, v);
	else if (v->type == JSON_STRING)
		cmp_show_put(&sh, strpbrk(v->str, " ,") != NULL ? "'%s'" : "%s",
		    v->str);
	else if ((s = json_text(v, 1)) != NULL) {
		cmp_show_put(&sh, "%s", s);
		free(s);
	}
	for (i = 0; i < sh.len; i++)
		if ((unsigned char)sh.s[i] < 0x20 || sh.s[i] == 0x7f)
			sh.s[i] = '?';
	return strdup(sh.s);
}
