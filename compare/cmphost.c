/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmphost.c: the host's state of two sides of latt compare, set side by
 * side (cmphost.h): each side's environment.host flattened into lines of
 * a name and its value when read, and every name whose value differs
 * between the sides said in one sentence, as compare's other warnings
 * are.  It reads nothing and prints nothing itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_int.h"
#include "compare/cmphost.h"
#include "json/jsonread.h"

/* Settings compare already warns about (cmp_info_keys): said once. */
static const char *const said[] = { "cmdline", "preemption", "governor",
    "smt" };

#define TUNABLES	"sched_tunables."
#define WIDTH		32		/* bytes of a long value shown */

struct flat {
	char		*s;
	size_t		 len, cap;
};

static int	 put(struct flat *, const char *, size_t);
static int	 flatten(struct flat *, const char *prefix,
		    const struct json *);
static const char *value_of(const char *flat, const char *name, size_t len,
		    size_t *vlen);
static int	 add(char ***w, size_t *n, char *s);
static void	 cut(char *out, size_t len, const char *s, size_t from);
static int	 differ(const char *fa, const char *fb, const char *na,
		    const char *nb, const char *line, size_t len, char ***w,
		    size_t *n);

char *
cmp_host_flat(const struct json *v)
{
	struct flat f = { NULL, 0, 0 };

	if (v == NULL || v->type != JSON_OBJECT)
		return NULL;
	if (put(&f, "", 0) == -1 || flatten(&f, "", v) == -1) {
		free(f.s);
		return NULL;
	}
	return f.s;
}

int
cmp_host_diff(const char *fa, const char *fb, const char *na,
    const char *nb, char ***w, size_t *n)
{
	const char *p, *e;
	char *s;

	if (fa == NULL && fb == NULL)
		return 0;
	if (fa == NULL || fb == NULL) {
		if (asprintf(&s, "the host's state is recorded by %s only "
		    "(an older latt wrote the other's).", fa != NULL ? na :
		    nb) < 0)
			return -1;
		return add(w, n, s);
	}
	/* A's names in their order, then those only B has. */
	for (p = fa; *p != '\0'; p = e + 1) {
		e = strchr(p, '\n');
		if (differ(fa, fb, na, nb, p, strcspn(p, "\t"), w, n) == -1)
			return -1;
	}
	for (p = fb; *p != '\0'; p = e + 1) {
		e = strchr(p, '\n');
		if (value_of(fa, p, strcspn(p, "\t"), NULL) == NULL &&
		    differ(fa, fb, na, nb, p, strcspn(p, "\t"), w, n) == -1)
			return -1;
	}
	return 0;
}

int
cmp_host_warn(const struct cmp_side *a, const struct cmp_side *b, char ***w,
    size_t *n)
{
	size_t k;

	for (k = 0; k < CMP_NINFO; k++)
		if (cmp_info_keys[k].show == SHOW_HOST)
			break;
	if (k == CMP_NINFO)
		return 0;
	return cmp_host_diff(a->info != NULL ? a->info->text[k] : NULL,
	    b->info != NULL ? b->info->text[k] : NULL, a->name, b->name, w,
	    n);
}

/* Appends len bytes of s (and keeps the text terminated). */
static int
put(struct flat *f, const char *s, size_t len)
{
	char *ns;
	size_t cap;

	if (f->len + len + 1 > f->cap) {
		cap = f->cap > 0 ? f->cap : 1024;
		while (cap < f->len + len + 1)
			cap *= 2;
		if ((ns = realloc(f->s, cap)) == NULL)
			return -1;
		f->s = ns;
		f->cap = cap;
	}
	memcpy(f->s + f->len, s, len);
	f->len += len;
	f->s[f->len] = '\0';
	return 0;
}

/* Each member of object o as "PREFIXNAME\tVALUE\n", objects within too. */
static int
flatten(struct flat *f, const char *prefix, const struct json *o)
{
	const struct json *v;
	char *name, *t, *c;
	size_t i;
	int r;

	for (i = 0; i < o->n; i++) {
		v = &o->items[2 * i + 1];
		if (asprintf(&name, "%s%s", prefix, o->items[2 * i].str) < 0)
			return -1;
		/* A name or value with a tab or newline would split. */
		for (c = name; *c != '\0'; c++)
			if (*c == '\t' || *c == '\n')
				*c = ' ';
		if (v->type == JSON_OBJECT && v->n > 0) {
			r = asprintf(&t, "%s.", name);
			free(name);
			if (r < 0)
				return -1;
			r = flatten(f, t, v);
			free(t);
			if (r == -1)
				return -1;
			continue;
		}
		if ((t = json_text(v, 1)) == NULL) {
			free(name);
			return -1;
		}
		for (c = t; *c != '\0'; c++)
			if (*c == '\t' || *c == '\n')
				*c = ' ';
		r = put(f, name, strlen(name)) == -1 || put(f, "\t", 1) == -1 ||
		    put(f, t, strlen(t)) == -1 || put(f, "\n", 1) == -1;
		free(name);
		free(t);
		if (r)
			return -1;
	}
	return 0;
}

/* The value of name (len bytes) in a flattened text, or NULL. */
static const char *
value_of(const char *flat, const char *name, size_t len, size_t *vlen)
{
	const char *p;

	for (p = flat; *p != '\0'; p += strcspn(p, "\n") + 1) {
		if (strncmp(p, name, len) == 0 && p[len] == '\t') {
			if (vlen != NULL)
				*vlen = strcspn(p + len + 1, "\n");
			return p + len + 1;
		}
		if (p[strcspn(p, "\n")] == '\0')
			break;
	}
	return NULL;
}

static int
add(char ***w, size_t *n, char *s)
{
	char **nw;

	if ((nw = realloc(*w, (*n + 1) * sizeof(*nw))) == NULL) {
		free(s);
		return -1;
	}
	*w = nw;
	nw[(*n)++] = s;
	return 0;
}

/* One sentence when the name of line (len bytes) differs. */
static int
differ(const char *fa, const char *fb, const char *na, const char *nb,
    const char *line, size_t len, char ***w, size_t *n)
{
	char bx[WIDTH + 8], by[WIDTH + 8], *x, *y, *s;
	const char *va, *vb;
	size_t la = 0, lb = 0, k, d;
	int r;

	for (k = 0; k < sizeof(said) / sizeof(said[0]); k++)
		if (strlen(said[k]) == len && strncmp(line, said[k], len) == 0)
			return 0;
	va = value_of(fa, line, len, &la);
	vb = value_of(fb, line, len, &lb);
	if (va != NULL && vb != NULL && la == lb &&
	    strncmp(va, vb, la) == 0)
		return 0;
	x = va != NULL ? strndup(va, la) : strdup("not recorded");
	y = vb != NULL ? strndup(vb, lb) : strdup("not recorded");
	if (x == NULL || y == NULL) {
		free(x);
		free(y);
		return -1;
	}
	/* Long values from a little before where they part. */
	for (d = 0; x[d] != '\0' && x[d] == y[d]; d++)
		;
	d = strlen(x) > WIDTH || strlen(y) > WIDTH ? (d > WIDTH / 4 ?
	    d - WIDTH / 4 : 0) : 0;
	cut(bx, sizeof(bx), x[0] != '\0' ? x : "(empty)", x[0] != '\0' ? d : 0);
	cut(by, sizeof(by), y[0] != '\0' ? y : "(empty)", y[0] != '\0' ? d : 0);
	/* A tunable by its own name: "kernel.sched_rt_runtime_us". */
	k = strncmp(line, TUNABLES, strlen(TUNABLES)) == 0 ? strlen(TUNABLES) :
	    0;
	r = asprintf(&s, "the host's %.*s differs: %s %s, %s %s.",
	    (int)(len - k), line + k, na, bx, nb, by);
	free(x);
	free(y);
	if (r < 0)
		return -1;
	return add(w, n, s);
}

/* s from byte from, at most WIDTH bytes, "..." where cut (not in UTF-8). */
static void
cut(char *out, size_t len, const char *s, size_t from)
{
	size_t n;

	while (from > 0 && ((unsigned char)s[from] & 0xc0) == 0x80)
		from--;
	n = strlen(s + from);
	if (n > WIDTH) {
		n = WIDTH;
		while (n > 0 && ((unsigned char)s[from + n] & 0xc0) == 0x80)
			n--;
	}
	snprintf(out, len, "%s%.*s%s", from > 0 ? "..." : "", (int)n,
	    s + from, s[from + n] != '\0' ? "..." : "");
}
