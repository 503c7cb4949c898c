/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpshow.c: what a run recorded of its settings and its host, in words,
 * and where two sides differ, as latt compare's warnings say it: a
 * setting with its unit or as given ("1 ms", "0,1", "cpu:2 pipe:1",
 * "on", "not set"), built in pieces and cut with "..." when long; two
 * values that differ cut round where they part; and the host's state
 * (environment.host) flattened into lines of a name and its value when
 * read, every name whose value differs between two sides said in one
 * sentence; and a row's figures (its spread, change and interval) in
 * the words of every table of compare, printed or as JSON.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "json/jsonread.h"
#include "json/jsonw.h"
#include "lib/fmt.h"

#define CI_HI		1000	/* percent: beyond, "> +1000%" */
#define CI_LO		(-90)	/* percent: beyond, "< -90%" */

/* Settings compare already warns about (cmp_info_keys): said once. */
static const char *const said[] = { "cmdline", "preemption", "governor",
    "smt" };

#define TUNABLES	"sched_tunables."

void
cmp_show_put(struct cmp_shown *sh, const char *fmt, ...)
{
	size_t room = sizeof(sh->s) - sh->len, from = sh->len;
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
	for (; from < sh->len; from++)
		if ((unsigned char)sh->s[from] < 0x20 || sh->s[from] == 0x7f)
			sh->s[from] = '?';
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

char *
cmp_show_value(enum cmp_show how, const struct json *v)
{
	struct cmp_shown sh;
	char t[64], *s;

	sh.len = 0;
	sh.s[0] = '\0';
	if (v->type == JSON_NULL)
		cmp_show_put(&sh, "%s", how == SHOW_US || how == SHOW_KB ?
		    "off" : "not set");
	else if (v->type == JSON_NUMBER && how == SHOW_TIME)
		cmp_show_put(&sh, "%s", json_num(v) == 0 ? "0" : fmt_time(t,
		    sizeof(t), json_num(v), 0, "us"));
	else if (v->type == JSON_NUMBER && (how == SHOW_US ||
	    how == SHOW_KB))
		cmp_show_put(&sh, "%g %s", json_num(v), how == SHOW_US ? "us" :
		    "KiB");
	else if (v->type == JSON_TRUE || v->type == JSON_FALSE)
		cmp_show_put(&sh, "%s", how == SHOW_ONOFF ?
		    (v->type == JSON_TRUE ? "on" : "off") :
		    (v->type == JSON_TRUE ? "true" : "false"));
	else if (v->type == JSON_ARRAY && how != SHOW_TEXT)
		show_list(&sh, how, v);
	else if (v->type == JSON_STRING)
		cmp_show_put(&sh, strpbrk(v->str, " ,") != NULL ? "'%s'" : "%s",
		    v->str);
	else if ((s = json_text(v, 1)) != NULL) {
		cmp_show_put(&sh, "%s", s);
		free(s);
	}
	return strdup(sh.s);
}

/*
 * s from byte from (back to the start of its character), at most
 * CMP_SHOW_WIDTH bytes (not cutting one), "..." where cut.
 */
static void
clip(char *out, size_t len, const char *s, size_t from)
{
	size_t n;

	while (from > 0 && ((unsigned char)s[from] & 0xc0) == 0x80)
		from--;
	n = strlen(s + from);
	if (n > CMP_SHOW_WIDTH) {
		n = CMP_SHOW_WIDTH;
		while (n > 0 && ((unsigned char)s[from + n] & 0xc0) == 0x80)
			n--;
	}
	snprintf(out, len, "%s%.*s%s", from > 0 ? "..." : "", (int)n,
	    s + from, s[from + n] != '\0' ? "..." : "");
}

void
cmp_show_pair(const char *x, const char *y, char *bx, char *by, size_t len)
{
	size_t d = 0, from;

	if (strlen(x) <= CMP_SHOW_WIDTH && strlen(y) <= CMP_SHOW_WIDTH) {
		snprintf(bx, len, "%s", x);
		snprintf(by, len, "%s", y);
		return;
	}
	while (x[d] != '\0' && x[d] == y[d])
		d++;
	/* From the start of the word where they part, a little before. */
	from = d > CMP_SHOW_WIDTH / 4 ? d - CMP_SHOW_WIDTH / 4 : 0;
	while (from > 0 && x[from - 1] != ' ')
		from--;
	if (d - from > CMP_SHOW_WIDTH / 2)
		from = d - CMP_SHOW_WIDTH / 4;
	clip(bx, len, x, from);
	clip(by, len, y, from);
}

int
cmp_say(char ***w, size_t *n, const char *fmt, ...)
{
	char **nw, *s;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	if ((nw = realloc(*w, (*n + 1) * sizeof(*nw))) == NULL) {
		free(s);
		return -1;
	}
	*w = nw;
	nw[(*n)++] = s;
	return 0;
}

void
cmp_say_free(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

/* s, each tab or newline (which would split a line) a space. */
static void
put_clean(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, fp);
}

/* Each member of object o as "PREFIXNAME\tVALUE\n", objects within too. */
static int
flatten(FILE *fp, const char *prefix, const struct json *o)
{
	const struct json *v;
	char *t;
	size_t i;
	int r;

	for (i = 0; i < o->n; i++) {
		v = &o->items[2 * i + 1];
		if (v->type == JSON_OBJECT && v->n > 0) {
			if (asprintf(&t, "%s%s.", prefix, o->items[2 * i].str) <
			    0)
				return -1;
			r = flatten(fp, t, v);
			free(t);
			if (r == -1)
				return -1;
			continue;
		}
		if ((t = json_text(v, 1)) == NULL)
			return -1;
		put_clean(fp, prefix);
		put_clean(fp, o->items[2 * i].str);
		fputc('\t', fp);
		put_clean(fp, t);
		fputc('\n', fp);
		free(t);
	}
	return 0;
}

char *
cmp_host_flat(const struct json *v)
{
	char *buf = NULL;
	size_t len;
	FILE *fp;
	int r;

	if (v == NULL || v->type != JSON_OBJECT ||
	    (fp = open_memstream(&buf, &len)) == NULL)
		return NULL;
	r = flatten(fp, "", v);
	if (fclose(fp) == EOF || r == -1) {
		free(buf);
		return NULL;
	}
	return buf;
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

/* One sentence when the value of the name of line (len bytes) differs. */
static int
differ(const char *fa, const char *fb, const char *na, const char *nb,
    const char *line, size_t len, char ***w, size_t *n)
{
	char bx[CMP_SHOW_WIDTH + 8], by[CMP_SHOW_WIDTH + 8], *x, *y;
	const char *va, *vb;
	size_t la = 0, lb = 0, k;
	int r;

	for (k = 0; k < sizeof(said) / sizeof(said[0]); k++)
		if (strlen(said[k]) == len && strncmp(line, said[k], len) == 0)
			return 0;
	va = value_of(fa, line, len, &la);
	vb = value_of(fb, line, len, &lb);
	if (va != NULL && vb != NULL && la == lb && strncmp(va, vb, la) == 0)
		return 0;
	x = va == NULL ? strdup("not recorded") : la == 0 ? strdup("(empty)") :
	    strndup(va, la);
	y = vb == NULL ? strdup("not recorded") : lb == 0 ? strdup("(empty)") :
	    strndup(vb, lb);
	r = -1;
	if (x != NULL && y != NULL) {
		cmp_show_pair(x, y, bx, by, sizeof(bx));
		/* A tunable by its own name: "kernel.sched_rt_runtime_us". */
		k = strncmp(line, TUNABLES, strlen(TUNABLES)) == 0 ?
		    strlen(TUNABLES) : 0;
		r = cmp_say(w, n, "the host's %.*s differs: %s %s, %s %s.",
		    (int)(len - k), line + k, na, bx, nb, by);
	}
	free(x);
	free(y);
	return r;
}

int
cmp_host_warn(const struct cmp_side *a, const struct cmp_side *b, char ***w,
    size_t *n)
{
	const char *fa = NULL, *fb = NULL, *p;
	size_t k;

	for (k = 0; k < CMP_NINFO; k++)
		if (cmp_info_keys[k].show == SHOW_HOST) {
			fa = a->info != NULL ? a->info->text[k] : NULL;
			fb = b->info != NULL ? b->info->text[k] : NULL;
		}
	if (fa == NULL && fb == NULL)
		return 0;
	if (fa == NULL || fb == NULL)
		return cmp_say(w, n, "the host's state is recorded by %s "
		    "only (an older latt wrote the other's).", fa != NULL ?
		    a->name : b->name);
	/* A's names in their order, then those only B has. */
	for (p = fa; *p != '\0'; p += strcspn(p, "\n") + 1)
		if (differ(fa, fb, a->name, b->name, p, strcspn(p, "\t"), w,
		    n) == -1)
			return -1;
	for (p = fb; *p != '\0'; p += strcspn(p, "\n") + 1)
		if (value_of(fa, p, strcspn(p, "\t"), NULL) == NULL &&
		    differ(fa, fb, a->name, b->name, p, strcspn(p, "\t"), w,
		    n) == -1)
			return -1;
	return 0;
}

char *
cmp_spread(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "%s", "");
	else if (pct < 1)
		snprintf(buf, len, "<1%%");
	else if (pct > 999)
		snprintf(buf, len, ">999%%");
	else
		snprintf(buf, len, "%.0f%%", pct);
	return buf;
}

char *
cmp_pct(char *buf, size_t len, double x, double dec)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (fabs(x) >= 99999.5)
		snprintf(buf, len, "%s99999%%", x > 0 ? ">+" : "<-");
	else
		snprintf(buf, len, "%+.*f%%", fabs(x) < dec ? 1 : 0, x);
	return buf;
}

/* An end of an interval: "+5.6%", "-18%", "<-90%", ">+1000%". */
static char *
ci_end(char *buf, size_t len, double x)
{
	if (x > CI_HI)
		snprintf(buf, len, ">+%d%%", CI_HI);
	else if (x < CI_LO)
		snprintf(buf, len, "<%d%%", CI_LO);
	else
		cmp_pct(buf, len, x, 9.95);
	return buf;
}

/* The legend under the latency table: +- and the interval's test. */
void
cmp_legend(FILE *fp, int width, int paired)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "+-: how much the runs of a side differ "
	    "(their sd); %s holds the change with %g%% confidence.", paired ?
	    "paired: the interval, from neighbouring runs' differences (A B "
	    "A B ...)," : "unpaired: the interval", cmp_level * 100);
	fmt_wrap(fp, "", 4, width, buf);
}

/*
 * "warning: 3 more (--details): number of clients, loads differ; 2
 * others.": the settings among w that differ, named as their sentences
 * name them ("the loads differ: ..."), the rest counted; the line within
 * width, else only counted.
 */
void
cmp_more(FILE *fp, char *const *w, size_t n, int width)
{
	char names[160] = "", line[256];
	const char *s;
	size_t i, k, len = 0, named = 0;

	for (i = 0; i < n && len < sizeof(names); i++) {
		s = strncmp(w[i], "the ", 4) == 0 ? w[i] + 4 : w[i];
		k = strcspn(s, ":");
		if (k > 8 && strncmp(s + k - 8, " differs", 8) == 0)
			k -= 8;
		else if (k > 7 && strncmp(s + k - 7, " differ", 7) == 0)
			k -= 7;
		else
			continue;
		len += (size_t)snprintf(names + len, sizeof(names) - len,
		    "%s%.*s", named++ > 0 ? ", " : "", (int)k, s);
	}
	snprintf(line, sizeof(line), "warning: %zu more (--details): %s "
	    "differ%s", n, names, named == n ? "." : "; ");
	if (named < n)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
		    "%zu other%s.", n - named, n - named == 1 ? "" : "s");
	if (named == 0 || len >= sizeof(names) || strlen(line) > (size_t)width)
		snprintf(line, sizeof(line), "warning: and %zu more (--details "
		    "shows every warning).", n);
	fprintf(fp, "%s\n", line);
}

/* "97.5% interval": the intervals' column, cmp_level's. */
const char *
cmp_interval_name(void)
{
	static char buf[24];

	snprintf(buf, sizeof(buf), "%g%% interval", cmp_level * 100);
	return buf;
}

char *
cmp_interval(char *buf, size_t len, double lo, double hi)
{
	char l[16], h[16];

	if (isnan(lo))
		snprintf(buf, len, "-");
	else if (lo > CI_HI || hi < CI_LO)
		snprintf(buf, len, "%s %+d%%", lo > CI_HI ? "above" : "below",
		    lo > CI_HI ? CI_HI : CI_LO);
	else
		snprintf(buf, len, "[%s, %s]", ci_end(l, sizeof(l), lo),
		    ci_end(h, sizeof(h), hi));
	return buf;
}

void
cmp_row_print(FILE *fp, int width, const char *label, const char *va,
    const char *vb, const struct cmp_row *rw, const char *word)
{
	char sa[16], sb[16], ch[16], ci[40];

	fprintf(fp, "%-*s%8s%6s%8s%6s%8s  %-16s %s\n", width, label, va,
	    cmp_spread(sa, sizeof(sa), expm1(rw->spread_a) * 100), vb,
	    cmp_spread(sb, sizeof(sb), expm1(rw->spread_b) * 100),
	    cmp_pct(ch, sizeof(ch), rw->change, 999.95),
	    cmp_interval(ci, sizeof(ci), rw->has_ci ? rw->lo : NAN, rw->hi),
	    word);
}

void
cmp_row_json(FILE *fp, int *first, const struct cmp_row *rw,
    const char *word)
{
	jw_key(fp, first, " ", "change_pct");
	jw_double(fp, rw->change);
	jw_key(fp, first, " ", "ci_pct");
	if (rw->has_ci) {
		fputc('[', fp);
		jw_double(fp, rw->lo);
		fputs(", ", fp);
		jw_double(fp, rw->hi);
	}
	fputs(rw->has_ci ? "]" : "null", fp);
	jw_key(fp, first, " ", "verdict");
	jw_string(fp, word);
	jw_key(fp, first, " ", "test");
	jw_string(fp, rw->paired ? "paired" : "unpaired");
	jw_key(fp, first, " ", "runs_needed");
	jw_int_or_null(fp, rw->need > 0, (long long)rw->need);
}
