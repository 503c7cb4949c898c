/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The strict JSON reader declared in jsonread.h: a recursive-descent
 * parser over a byte buffer, depth-limited, run twice: first to check the
 * text and count what it holds, then to fill one block of that size.
 * Library code: it never exits and never prints.
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonread.h"
#include "lib/common.h"

/*
 * Both passes run the same code.  The first (build == 0) only counts:
 * used the values, sused the string bytes, and counts[] the items of each
 * array or object in the order they open.  The second fills pool and
 * spool, which have exactly those sizes, taking each container's count
 * from counts[] to lay its items side by side.
 */
struct parser {
	const unsigned char	*base;	/* the text */
	const unsigned char	*p;	/* next byte */
	const unsigned char	*end;
	char			*err;
	size_t			 errlen;
	int			 failed;
	int			 build;
	struct json		*pool;
	size_t			 used;	/* values */
	size_t			 nvals;	/* the pool's size (pass 2) */
	char			*spool;
	size_t			 sused;	/* string bytes */
	size_t			 nbytes;	/* the spool's size (pass 2) */
	uint32_t		*counts;
	size_t			 ncont;
	size_t			 capcont;
	size_t			 icont;	/* next container (pass 2) */
};

/* json_text's output: at most JSON_TEXT_MAX bytes, and a hash of all. */
struct text {
	char	 s[JSON_TEXT_MAX + 8];
	size_t	 len;
	size_t	 total;
	uint64_t hash;
};

static int	 parse_value(struct parser *, int depth, struct json *out);
static int	 fail(struct parser *, const unsigned char *at, const char *,
		    ...) __attribute__((format(printf, 3, 4)));

/* The line and column (from 1) of at in the text that starts at base. */
static void
position(const unsigned char *base, const unsigned char *at, unsigned *line,
    unsigned *col)
{
	const unsigned char *p = base, *nl, *start = base;
	unsigned n = 1;

	while (p < at && (nl = memchr(p, '\n', (size_t)(at - p))) != NULL) {
		n++;
		start = nl + 1;
		p = nl + 1;
	}
	*line = n;
	*col = (unsigned)(at - start) + 1;
}

/* Keeps the first fault's message, "LINE:COL: ..."; returns -1. */
static int
fail(struct parser *ps, const unsigned char *at, const char *fmt, ...)
{
	unsigned line, col;
	va_list ap;
	int n;

	if (ps->failed)
		return -1;
	ps->failed = 1;
	position(ps->base, at, &line, &col);
	n = snprintf(ps->err, ps->errlen, "%u:%u: ", line, col);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Names the byte at p for a message: "'x'", "byte 0x01" or "end of file". */
static const char *
describe(struct parser *ps, const unsigned char *p, char *tmp, size_t len)
{
	if (p >= ps->end)
		return "the end of the file";
	if (*p >= 0x21 && *p < 0x7f)
		snprintf(tmp, len, "'%c'", *p);
	else
		snprintf(tmp, len, "byte 0x%02x", *p);
	return tmp;
}

static int
unexpected(struct parser *ps, const char *wanted)
{
	char tmp[16];

	return fail(ps, ps->p, "expected %s, found %s", wanted,
	    describe(ps, ps->p, tmp, sizeof(tmp)));
}

static void
skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
	    *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* Adds n bytes to the string being read (pass 1: counts them). */
static void
emit(struct parser *ps, const void *data, size_t n)
{
	if (ps->build && ps->sused + n <= ps->nbytes)
		memcpy(ps->spool + ps->sused, data, n);
	ps->sused += n;
}

static void
put_utf8(struct parser *ps, uint32_t c)
{
	size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4, i;
	unsigned char out[4];

	/* Six bits a continuation byte, from the last; the rest lead. */
	for (i = n - 1; i > 0; i--, c >>= 6)
		out[i] = (unsigned char)(0x80 | (c & 0x3f));
	out[0] = (unsigned char)(n == 1 ? c : (0xff00u >> n & 0xff) | c);
	emit(ps, out, n);
}

/* Reads the four hex digits after "\u"; -1 when they are not there. */
static long
hex4(struct parser *ps)
{
	long v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		if (ps->p >= ps->end)
			return fail(ps, ps->p, "truncated \\u escape");
		if (!isxdigit(d = *ps->p))
			return fail(ps, ps->p, "bad hex digit in a \\u escape");
		v = v * 16 + (d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
		ps->p++;
	}
	return v;
}

/* The character of a \u escape at esc (ps->p after the "u"), or -1. */
static long
unicode_escape(struct parser *ps, const unsigned char *esc)
{
	long c, lo;

	if ((c = hex4(ps)) == -1)
		return -1;
	if (c >= 0xdc00 && c <= 0xdfff)
		return fail(ps, esc, "lone low surrogate in a \\u escape");
	if (c >= 0xd800 && c <= 0xdbff) {
		lo = -1;
		if (ps->end - ps->p >= 2 && ps->p[0] == '\\' &&
		    ps->p[1] == 'u') {
			ps->p += 2;
			if ((lo = hex4(ps)) == -1)
				return -1;
		}
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, esc, "high surrogate not followed by "
			    "a low one");
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (c == 0)
		return fail(ps, esc, "\\u0000 is not allowed");
	return c;
}

/*
 * Reads a string at ps->p (which is at the opening quote) into the string
 * pool, NUL-terminated; *out is where it starts (pass 2).  Returns 0, or
 * -1 after fail().
 */
static int
parse_string(struct parser *ps, char **out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const unsigned char *start, *esc;
	size_t n, first = ps->sused;
	const char *e;
	long c;

	ps->p++;
	for (;;) {
		start = ps->p;
		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		    *ps->p >= 0x20 && *ps->p < 0x80)
			ps->p++;
		emit(ps, start, (size_t)(ps->p - start));
		if (ps->p >= ps->end)
			return fail(ps, ps->p, "unterminated string");
		if (*ps->p == '"') {
			ps->p++;
			break;
		}
		if (*ps->p < 0x20)
			return fail(ps, ps->p, "control character 0x%02x in "
			    "a string", *ps->p);
		if (*ps->p >= 0x80) {
			n = utf8_len(ps->p, (size_t)(ps->end - ps->p));
			if (n == 0)
				return fail(ps, ps->p, "invalid UTF-8 in a "
				    "string");
			emit(ps, ps->p, n);
			ps->p += n;
			continue;
		}
		esc = ps->p++;
		if (ps->p >= ps->end)
			return fail(ps, ps->p, "unterminated string");
		if (*ps->p == 'u') {
			ps->p++;
			if ((c = unicode_escape(ps, esc)) == -1)
				return -1;
			put_utf8(ps, (uint32_t)c);
		} else if (*ps->p != '\0' &&
		    (e = strchr(from, *ps->p)) != NULL) {
			emit(ps, &to[e - from], 1);
			ps->p++;
		} else {
			return fail(ps, esc, "bad escape in a string");
		}
	}
	emit(ps, "", 1);
	if (ps->build) {
		if (ps->sused > ps->nbytes)
			return fail(ps, ps->p, "the second reading differs");
		*out = ps->spool + first;
	}
	return 0;
}

/* Moves past the next byte when it is one of set; says whether it did. */
static int
eat(struct parser *ps, const char *set)
{
	if (ps->p >= ps->end || *ps->p == '\0' || strchr(set, *ps->p) == NULL)
		return 0;
	ps->p++;
	return 1;
}

static int
is_digit(const struct parser *ps)
{
	return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

/* Moves past the digits of a number's part; -1 when there is none. */
static int
digits(struct parser *ps, const char *what)
{
	if (!is_digit(ps))
		return unexpected(ps, what);
	while (is_digit(ps))
		ps->p++;
	return 0;
}

static int
parse_number(struct parser *ps, struct json *out)
{
	const unsigned char *start = ps->p;
	char tmp[64], *copy;
	int isint = 1, ret = 0;
	int64_t ival = 0;
	double num = 0;
	size_t len;

	eat(ps, "-");
	if (eat(ps, "0")) {
		if (is_digit(ps))
			return fail(ps, ps->p, "leading zero in a number");
	} else if (digits(ps, "a digit") == -1)
		return -1;
	if (eat(ps, ".")) {
		isint = 0;
		if (digits(ps, "a digit after '.'") == -1)
			return -1;
	}
	if (eat(ps, "eE")) {
		isint = 0;
		eat(ps, "+-");
		if (digits(ps, "a digit in the exponent") == -1)
			return -1;
	}
	len = (size_t)(ps->p - start);
	copy = len < sizeof(tmp) ? tmp : malloc(len + 1);
	if (copy == NULL)
		return fail(ps, start, "out of memory");
	memcpy(copy, start, len);
	copy[len] = '\0';
	/* An integer that fits int64 stays exact; any other is a double. */
	errno = 0;
	if (isint)
		ival = strtoll(copy, NULL, 10);
	if (!isint || errno != 0) {
		isint = 0;
		if (!isfinite(num = strtod(copy, NULL)))
			ret = fail(ps, start, "number out of range");
	}
	if (out != NULL) {
		out->isint = (uint32_t)isint;
		if (isint)
			out->ival = ival;
		else
			out->num = num;
	}
	if (copy != tmp)
		free(copy);
	return ret;
}

static int
literal(struct parser *ps, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(ps->end - ps->p) >= len && memcmp(ps->p, word, len) == 0) {
		ps->p += len;
		return 0;
	}
	return unexpected(ps, "a value");
}

/* Compares two members of an object by key, then by place. */
static int
cmp_member(const void *x, const void *y, void *arg)
{
	const struct json *items = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int c = strcmp(items[2 * a].str, items[2 * b].str);

	if (c != 0)
		return c;
	return (a > b) - (a < b);
}

/*
 * Refuses an object with a key given twice, naming the first repeat in
 * the text: the members are sorted by key (n log n, so that a hostile
 * file of many keys costs no more), and equal neighbours are repeats.
 */
static int
check_keys(struct parser *ps, const struct json *v)
{
	uint32_t *order, i, dup = UINT32_MAX;

	if (v->n < 2)
		return 0;
	if ((order = calloc(v->n, sizeof(*order))) == NULL)
		return fail(ps, ps->p, "out of memory");
	for (i = 0; i < v->n; i++)
		order[i] = i;
	qsort_r(order, v->n, sizeof(*order), cmp_member, v->items);
	for (i = 1; i < v->n; i++)
		if (strcmp(v->items[2 * order[i - 1]].str,
		    v->items[2 * order[i]].str) == 0 && order[i] < dup)
			dup = order[i];
	free(order);
	if (dup == UINT32_MAX)
		return 0;
	return fail(ps, ps->base + v->items[2 * dup].off,
	    "duplicate key \"%s\"", v->items[2 * dup].str);
}

/*
 * Pass 1: a new container's slot in counts[]; pass 2: its count, and its
 * items laid out in the pool.  Returns the slot, or -1 on ENOMEM.
 */
static ssize_t
open_container(struct parser *ps, int obj, struct json *out)
{
	uint32_t *nc;
	size_t ncap, k;

	if (!ps->build) {
		if (ps->ncont == ps->capcont) {
			ncap = ps->capcont ? ps->capcont * 2 : 64;
			if ((nc = realloc(ps->counts, ncap *
			    sizeof(*nc))) == NULL)
				return fail(ps, ps->p, "out of memory");
			ps->counts = nc;
			ps->capcont = ncap;
		}
		ps->counts[ps->ncont] = 0;
		return (ssize_t)ps->ncont++;
	}
	if (ps->icont >= ps->ncont)
		return fail(ps, ps->p, "the second reading differs");
	k = (size_t)ps->counts[ps->icont] * (obj ? 2 : 1);
	if (ps->used + k > ps->nvals)
		return fail(ps, ps->p, "the second reading differs");
	out->n = ps->counts[ps->icont];
	out->items = k > 0 ? ps->pool + ps->used : NULL;
	ps->used += k;
	return (ssize_t)ps->icont++;
}

/* One member's key and ':' of an object, into key (NULL in pass 1). */
static int
parse_key(struct parser *ps, struct json *key)
{
	char *s = NULL;

	skip_space(ps);
	if (ps->p >= ps->end || *ps->p != '"')
		return unexpected(ps, "a key string");
	if (key != NULL) {
		key->type = JSON_STRING;
		key->off = (uint32_t)(ps->p - ps->base);
	}
	if (parse_string(ps, &s) == -1)
		return -1;
	if (key != NULL)
		key->str = s;
	skip_space(ps);
	return eat(ps, ":") ? 0 : unexpected(ps, "':'");
}

static int
parse_container(struct parser *ps, int depth, struct json *out)
{
	int obj = *ps->p == '{';
	const char *close = obj ? "}" : "]";
	struct json *item = NULL;
	uint32_t n = 0;
	ssize_t slot;

	if (depth >= JSON_MAX_DEPTH)
		return fail(ps, ps->p, "nested deeper than %d levels",
		    JSON_MAX_DEPTH);
	if ((slot = open_container(ps, obj, out)) == -1)
		return -1;
	ps->p++;
	skip_space(ps);
	if (eat(ps, close))
		return 0;
	for (;;) {
		if (out != NULL && n >= out->n)
			return fail(ps, ps->p, "the second reading differs");
		if (out != NULL)
			item = &out->items[obj ? 2 * n : n];
		if (obj && parse_key(ps, item) == -1)
			return -1;
		if (parse_value(ps, depth + 1, item != NULL && obj ? item + 1 :
		    item) == -1)
			return -1;
		if (n == UINT32_MAX)
			return fail(ps, ps->p, "too many items");
		n++;
		skip_space(ps);
		if (eat(ps, close))
			break;
		if (!eat(ps, ","))
			return unexpected(ps, obj ? "',' or '}'" :
			    "',' or ']'");
	}
	if (out == NULL) {
		ps->counts[slot] = n;
		ps->used += (size_t)n * (obj ? 2 : 1);
		return 0;
	}
	if (n != out->n)
		return fail(ps, ps->p, "the second reading differs");
	return obj ? check_keys(ps, out) : 0;
}

/* One value at ps->p into out (pass 2; NULL in pass 1). */
static int
parse_value(struct parser *ps, int depth, struct json *out)
{
	static const char *const words[] = { [JSON_NULL] = "null",
	    [JSON_FALSE] = "false", [JSON_TRUE] = "true" };
	enum json_type type;
	int c;

	skip_space(ps);
	c = ps->p < ps->end ? *ps->p : '\0';
	if (c == '{' || c == '[')
		type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
	else if (c == '"')
		type = JSON_STRING;
	else if (c == 'n' || c == 'f' || c == 't')
		type = c == 'n' ? JSON_NULL : c == 'f' ? JSON_FALSE : JSON_TRUE;
	else if (c == '-' || (c >= '0' && c <= '9'))
		type = JSON_NUMBER;
	else
		return unexpected(ps, "a value");
	if (out != NULL) {
		out->off = (uint32_t)(ps->p - ps->base);
		out->type = type;
	}
	switch (type) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		return parse_container(ps, depth, out);
	case JSON_STRING:
		return parse_string(ps, out != NULL ? &out->str : NULL);
	case JSON_NUMBER:
		return parse_number(ps, out);
	default:
		return literal(ps, words[type]);
	}
}

/* One reading of the whole text; the root into out (pass 2). */
static int
parse_text(struct parser *ps, const char *buf, size_t len, struct json *out)
{
	char tmp[16];

	ps->p = ps->base = (const unsigned char *)buf;
	ps->end = ps->p + len;
	ps->used = 1;			/* the root */
	ps->sused = 0;
	ps->icont = 0;
	/* fail keeps the first message: this one only when there is none. */
	if (parse_value(ps, 0, out) == -1)
		return fail(ps, ps->p, "cannot parse");
	skip_space(ps);
	if (ps->p < ps->end)
		return fail(ps, ps->p, "unexpected %s after the end of the "
		    "value", describe(ps, ps->p, tmp, sizeof(tmp)));
	return 0;
}

struct json *
json_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct parser ps;
	struct json *root = NULL;

	memset(&ps, 0, sizeof(ps));
	ps.err = err;
	ps.errlen = errlen;
	if (errlen > 0)
		err[0] = '\0';
	if (len >= JSON_MAX_LEN) {
		snprintf(err, errlen, "1:1: larger than %zu MiB",
		    JSON_MAX_LEN >> 20);
		return NULL;
	}
	if (parse_text(&ps, buf, len, NULL) == -1)
		goto out;
	ps.nvals = ps.used;
	ps.nbytes = ps.sused;
	root = calloc(1, ps.nvals * sizeof(*root) + ps.nbytes);
	if (root == NULL) {
		fail(&ps, ps.base, "out of memory");
		goto out;
	}
	ps.pool = root;
	ps.spool = (char *)(root + ps.nvals);
	ps.build = 1;
	if (parse_text(&ps, buf, len, root) == -1) {
		free(root);
		root = NULL;
	}
out:
	free(ps.counts);
	return root;
}

void
json_free(struct json *root)
{
	free(root);
}

const struct json *
json_get(const struct json *o, const char *key)
{
	size_t i;

	if (o == NULL || o->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (strcmp(o->items[2 * i].str, key) == 0)
			return &o->items[2 * i + 1];
	return NULL;
}

const struct json *
json_at(const struct json *a, size_t i)
{
	return &a->items[i];
}

double
json_num(const struct json *v)
{
	return v->isint ? (double)v->ival : v->num;
}

void
json_pos(const char *buf, const struct json *v, unsigned *line,
    unsigned *col)
{
	const unsigned char *base = (const unsigned char *)buf;

	position(base, base + v->off, line, col);
}

/* Adds n bytes to t: the first JSON_TEXT_MAX and a few kept, all hashed. */
static void
text_add(struct text *t, const char *data, size_t n)
{
	size_t i, room = sizeof(t->s) - 1 - t->len;

	for (i = 0; i < n; i++) {	/* FNV-1a */
		t->hash ^= (unsigned char)data[i];
		t->hash *= 0x100000001b3ULL;
	}
	memcpy(t->s + t->len, data, n < room ? n : room);
	t->len += n < room ? n : room;
	t->total += n;
}

static void
text_string(struct text *t, const char *s)
{
	char tmp[8];

	text_add(t, "\"", 1);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			text_add(t, "\\", 1);
			text_add(t, s, 1);
		} else if ((unsigned char)*s < 0x20) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", *s);
			text_add(t, tmp, 6);
		} else
			text_add(t, s, 1);
	}
	text_add(t, "\"", 1);
}

static void
text_value(struct text *t, const struct json *v)
{
	char tmp[40];
	size_t i;
	int obj;

	switch (v->type) {
	case JSON_NULL:
		text_add(t, "null", 4);
		break;
	case JSON_FALSE:
		text_add(t, "false", 5);
		break;
	case JSON_TRUE:
		text_add(t, "true", 4);
		break;
	case JSON_NUMBER:
		if (v->isint)
			snprintf(tmp, sizeof(tmp), "%lld", (long long)v->ival);
		else
			snprintf(tmp, sizeof(tmp), "%.17g", v->num);
		text_add(t, tmp, strlen(tmp));
		break;
	case JSON_STRING:
		text_string(t, v->str);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		obj = v->type == JSON_OBJECT;
		text_add(t, obj ? "{" : "[", 1);
		for (i = 0; i < v->n; i++) {
			if (i > 0)
				text_add(t, ", ", 2);
			if (obj) {
				text_string(t, v->items[2 * i].str);
				text_add(t, ": ", 2);
			}
			text_value(t, &v->items[obj ? 2 * i + 1 : i]);
		}
		text_add(t, obj ? "}" : "]", 1);
		break;
	}
}

char *
json_text(const struct json *v, int bare)
{
	struct text *t;
	char *s;
	size_t len;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->hash = 0xcbf29ce484222325ULL;
	if (bare && v->type == JSON_STRING)
		text_add(t, v->str, strlen(v->str));
	else
		text_value(t, v);
	len = t->len;
	if (t->total > JSON_TEXT_MAX) {
		/* Cut before a UTF-8 sequence, never inside one. */
		len = JSON_TEXT_MAX;
		while (len > 0 && ((unsigned char)t->s[len] & 0xc0) == 0x80)
			len--;
	}
	if (t->total <= JSON_TEXT_MAX)
		s = strndup(t->s, len);
	else if (asprintf(&s, "%.*s...#%016llx", (int)len, t->s,
	    (unsigned long long)t->hash) < 0)
		s = NULL;
	free(t);
	return s;
}
