/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The strict JSON reader declared in jsonread.h: a recursive-descent
 * parser over a byte buffer, depth-limited, building a tree of values.
 * Library code: it never exits and never prints.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

struct parser {
	const unsigned char	*p;	/* next byte */
	const unsigned char	*end;
	const unsigned char	*line_start;
	unsigned		 line;
	char			*err;
	size_t			 errlen;
	int			 failed;
};

/* A growable byte buffer, for strings and for json_text. */
struct buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
	int	 oom;
};

static struct json	*parse_value(struct parser *, int depth);
static void	 fail(struct parser *, const unsigned char *at, const char *,
		    ...) __attribute__((format(printf, 3, 4)));
static void	 skip_space(struct parser *);
static int	 buf_add(struct buf *, const void *, size_t);

static void
fail(struct parser *ps, const unsigned char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = 1;
	n = snprintf(ps->err, ps->errlen, "%u:%u: ", ps->line,
	    (unsigned)(at - ps->line_start) + 1);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
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

static void
unexpected(struct parser *ps, const char *wanted)
{
	char tmp[16];

	fail(ps, ps->p, "expected %s, found %s", wanted,
	    describe(ps, ps->p, tmp, sizeof(tmp)));
}

static void
skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		switch (*ps->p) {
		case '\n':
			ps->line++;
			ps->line_start = ps->p + 1;
			/* FALLTHROUGH */
		case ' ':
		case '\t':
		case '\r':
			ps->p++;
			break;
		default:
			return;
		}
	}
}

static struct json *
new_value(struct parser *ps, enum json_type type)
{
	struct json *v = calloc(1, sizeof(*v));

	if (v == NULL) {
		fail(ps, ps->p, "out of memory");
		return NULL;
	}
	v->type = type;
	v->line = ps->line;
	v->col = (unsigned)(ps->p - ps->line_start) + 1;
	return v;
}

static int
buf_add(struct buf *b, const void *data, size_t len)
{
	size_t ncap;
	char *ns;

	if (b->oom)
		return -1;
	if (len + 1 > b->cap - b->len || b->s == NULL) {
		ncap = b->cap ? b->cap : 64;
		while (ncap - b->len < len + 1) {
			if (ncap > SIZE_MAX / 2) {
				b->oom = 1;
				return -1;
			}
			ncap *= 2;
		}
		ns = realloc(b->s, ncap);
		if (ns == NULL) {
			b->oom = 1;
			return -1;
		}
		b->s = ns;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, data, len);
	b->len += len;
	b->s[b->len] = '\0';
	return 0;
}

/*
 * Length of the valid UTF-8 sequence at p (1 to 4), or 0 when it is not
 * valid: overlong forms, surrogates and values past U+10FFFF are refused.
 */
static size_t
utf8_len(const unsigned char *p, const unsigned char *end)
{
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

static void
put_utf8(struct buf *b, uint32_t c)
{
	unsigned char out[4];
	size_t n;

	if (c < 0x80) {
		out[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		out[0] = (unsigned char)(0xc0 | (c >> 6));
		out[1] = (unsigned char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		out[0] = (unsigned char)(0xe0 | (c >> 12));
		out[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (unsigned char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		out[0] = (unsigned char)(0xf0 | (c >> 18));
		out[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
		out[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		out[3] = (unsigned char)(0x80 | (c & 0x3f));
		n = 4;
	}
	buf_add(b, out, n);
}

/* Reads the four hex digits after "\u"; -1 when they are not there. */
static long
hex4(struct parser *ps)
{
	long v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		if (ps->p >= ps->end) {
			fail(ps, ps->p, "truncated \\u escape");
			return -1;
		}
		d = *ps->p;
		if (d >= '0' && d <= '9')
			d -= '0';
		else if (d >= 'a' && d <= 'f')
			d -= 'a' - 10;
		else if (d >= 'A' && d <= 'F')
			d -= 'A' - 10;
		else {
			fail(ps, ps->p, "bad hex digit in a \\u escape");
			return -1;
		}
		v = v * 16 + d;
		ps->p++;
	}
	return v;
}

/*
 * Parses a string at ps->p (which is at the opening quote) into a new
 * NUL-terminated buffer; NULL on failure.
 */
static char *
parse_string(struct parser *ps)
{
	struct buf b = { NULL, 0, 0, 0 };
	const unsigned char *start, *esc;
	long c, lo;
	size_t n;
	char ch;

	ps->p++;
	buf_add(&b, "", 0);
	for (;;) {
		start = ps->p;
		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		    *ps->p >= 0x20 && *ps->p < 0x80)
			ps->p++;
		buf_add(&b, start, (size_t)(ps->p - start));
		if (ps->p >= ps->end) {
			fail(ps, ps->p, "unterminated string");
			goto bad;
		}
		if (*ps->p == '"') {
			ps->p++;
			break;
		}
		if (*ps->p < 0x20) {
			fail(ps, ps->p, "control character 0x%02x in a string",
			    *ps->p);
			goto bad;
		}
		if (*ps->p >= 0x80) {
			n = utf8_len(ps->p, ps->end);
			if (n == 0) {
				fail(ps, ps->p, "invalid UTF-8 in a string");
				goto bad;
			}
			buf_add(&b, ps->p, n);
			ps->p += n;
			continue;
		}
		esc = ps->p++;
		if (ps->p >= ps->end) {
			fail(ps, ps->p, "unterminated string");
			goto bad;
		}
		switch (*ps->p++) {
		case '"': ch = '"'; break;
		case '\\': ch = '\\'; break;
		case '/': ch = '/'; break;
		case 'b': ch = '\b'; break;
		case 'f': ch = '\f'; break;
		case 'n': ch = '\n'; break;
		case 'r': ch = '\r'; break;
		case 't': ch = '\t'; break;
		case 'u':
			if ((c = hex4(ps)) == -1)
				goto bad;
			if (c >= 0xdc00 && c <= 0xdfff) {
				fail(ps, esc, "lone low surrogate in a "
				    "\\u escape");
				goto bad;
			}
			if (c >= 0xd800 && c <= 0xdbff) {
				if (ps->end - ps->p < 2 || ps->p[0] != '\\' ||
				    ps->p[1] != 'u') {
					fail(ps, esc, "high surrogate not "
					    "followed by a low one");
					goto bad;
				}
				ps->p += 2;
				if ((lo = hex4(ps)) == -1)
					goto bad;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, esc, "high surrogate not "
					    "followed by a low one");
					goto bad;
				}
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
			}
			if (c == 0) {
				fail(ps, esc, "\\u0000 is not allowed");
				goto bad;
			}
			put_utf8(&b, (uint32_t)c);
			continue;
		default:
			fail(ps, esc, "bad escape in a string");
			goto bad;
		}
		buf_add(&b, &ch, 1);
	}
	if (b.oom) {
		fail(ps, ps->p, "out of memory");
		goto bad;
	}
	return b.s;
bad:
	free(b.s);
	return NULL;
}

static int
is_digit(const struct parser *ps)
{
	return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

static struct json *
parse_number(struct parser *ps)
{
	const unsigned char *start = ps->p;
	struct json *v;
	char tmp[64], *copy, *endp;
	size_t len;
	int isint = 1;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (!is_digit(ps)) {
		unexpected(ps, "a digit");
		return NULL;
	}
	if (*ps->p == '0') {
		ps->p++;
		if (is_digit(ps)) {
			fail(ps, ps->p, "leading zero in a number");
			return NULL;
		}
	} else {
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		isint = 0;
		ps->p++;
		if (!is_digit(ps)) {
			unexpected(ps, "a digit after '.'");
			return NULL;
		}
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		isint = 0;
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!is_digit(ps)) {
			unexpected(ps, "a digit in the exponent");
			return NULL;
		}
		while (is_digit(ps))
			ps->p++;
	}

	len = (size_t)(ps->p - start);
	copy = len < sizeof(tmp) ? tmp : malloc(len + 1);
	if (copy == NULL) {
		fail(ps, start, "out of memory");
		return NULL;
	}
	memcpy(copy, start, len);
	copy[len] = '\0';
	{
		const unsigned char *save = ps->p;

		ps->p = start;
		v = new_value(ps, JSON_NUMBER);
		ps->p = save;
	}
	if (v != NULL) {
		errno = 0;
		v->num = strtod(copy, &endp);
		if (!isfinite(v->num)) {
			fail(ps, start, "number out of range");
			free(v);
			v = NULL;
		} else if (isint) {
			errno = 0;
			v->ival = strtoll(copy, &endp, 10);
			v->isint = errno == 0 && *endp == '\0';
		}
	}
	if (copy != tmp)
		free(copy);
	return v;
}

static int
literal(struct parser *ps, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(ps->end - ps->p) >= len && memcmp(ps->p, word, len) == 0) {
		ps->p += len;
		return 0;
	}
	unexpected(ps, "a value");
	return -1;
}

/* Appends item (and key) to the container v; -1 on ENOMEM. */
static int
append(struct parser *ps, struct json *v, struct json *item, char *key,
    size_t *cap)
{
	struct json **ni;
	char **nk;
	size_t ncap;

	if (v->n == *cap) {
		ncap = *cap ? *cap * 2 : 8;
		ni = realloc(v->items, ncap * sizeof(*ni));
		if (ni == NULL)
			goto oom;
		v->items = ni;
		if (v->type == JSON_OBJECT) {
			nk = realloc(v->keys, ncap * sizeof(*nk));
			if (nk == NULL)
				goto oom;
			v->keys = nk;
		}
		*cap = ncap;
	}
	v->items[v->n] = item;
	if (v->type == JSON_OBJECT)
		v->keys[v->n] = key;
	v->n++;
	return 0;
oom:
	fail(ps, ps->p, "out of memory");
	return -1;
}

/* Where each key of an object stood, for the duplicate check. */
struct keypos {
	const char	*key;
	unsigned	 line;
	unsigned	 col;
	size_t		 order;
};

static int
grow_keys(struct parser *ps, struct keypos **kp, size_t *kcap)
{
	struct keypos *nk;
	size_t ncap = *kcap ? *kcap * 2 : 8;

	if ((nk = realloc(*kp, ncap * sizeof(*nk))) == NULL) {
		fail(ps, ps->p, "out of memory");
		return -1;
	}
	*kp = nk;
	*kcap = ncap;
	return 0;
}

static int
cmp_keypos(const void *x, const void *y)
{
	const struct keypos *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	if (c != 0)
		return c;
	return (a->order > b->order) - (a->order < b->order);
}

/*
 * Refuses an object with a key given twice, naming the first repeat in
 * the text: the keys are sorted (n log n, so that a hostile file of many
 * keys costs no more), and equal neighbours are repeats.
 */
static int
check_keys(struct parser *ps, const struct json *v, struct keypos *kp)
{
	const struct keypos *dup = NULL;
	size_t i;
	int n;

	if (v->n < 2)
		return 0;
	for (i = 0; i < v->n; i++)
		kp[i].key = v->keys[i];
	qsort(kp, v->n, sizeof(*kp), cmp_keypos);
	for (i = 1; i < v->n; i++)
		if (strcmp(kp[i - 1].key, kp[i].key) == 0 &&
		    (dup == NULL || kp[i].order < dup->order))
			dup = &kp[i];
	if (dup == NULL)
		return 0;
	if (!ps->failed) {
		ps->failed = 1;
		n = snprintf(ps->err, ps->errlen, "%u:%u: duplicate key \"",
		    dup->line, dup->col);
		if (n >= 0 && (size_t)n < ps->errlen)
			snprintf(ps->err + n, ps->errlen - (size_t)n, "%s\"",
			    dup->key);
	}
	return -1;
}

static struct json *
parse_container(struct parser *ps, int depth)
{
	struct json *v, *item;
	const unsigned char *keyat;
	char *key;
	struct keypos *kp = NULL;
	size_t cap = 0, kcap = 0;
	int obj = *ps->p == '{';
	char close = obj ? '}' : ']';

	if (depth >= JSON_MAX_DEPTH) {
		fail(ps, ps->p, "nested deeper than %d levels", JSON_MAX_DEPTH);
		return NULL;
	}
	if ((v = new_value(ps, obj ? JSON_OBJECT : JSON_ARRAY)) == NULL)
		return NULL;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		key = NULL;
		if (obj) {
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != '"') {
				unexpected(ps, "a key string");
				goto bad;
			}
			keyat = ps->p;
			if ((key = parse_string(ps)) == NULL)
				goto bad;
			if (v->n == kcap && grow_keys(ps, &kp, &kcap) == -1) {
				free(key);
				goto bad;
			}
			kp[v->n].line = ps->line;
			kp[v->n].col = (unsigned)(keyat - ps->line_start) + 1;
			kp[v->n].order = v->n;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				unexpected(ps, "':'");
				goto bad;
			}
			ps->p++;
		}
		if ((item = parse_value(ps, depth + 1)) == NULL) {
			free(key);
			goto bad;
		}
		if (append(ps, v, item, key, &cap) == -1) {
			free(key);
			json_free(item);
			goto bad;
		}
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			if (obj && check_keys(ps, v, kp) == -1)
				goto bad;
			free(kp);
			return v;
		}
		unexpected(ps, obj ? "',' or '}'" : "',' or ']'");
		goto bad;
	}
bad:
	free(kp);
	json_free(v);
	return NULL;
}

static struct json *
parse_value(struct parser *ps, int depth)
{
	struct json *v;
	char *s;

	skip_space(ps);
	if (ps->p >= ps->end) {
		unexpected(ps, "a value");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, depth);
	case '"':
		if ((v = new_value(ps, JSON_STRING)) == NULL)
			return NULL;
		if ((s = parse_string(ps)) == NULL) {
			free(v);
			return NULL;
		}
		v->str = s;
		return v;
	case 'n':
	case 't':
	case 'f':
		v = new_value(ps, *ps->p == 'n' ? JSON_NULL :
		    *ps->p == 't' ? JSON_TRUE : JSON_FALSE);
		if (v == NULL)
			return NULL;
		if (literal(ps, v->type == JSON_NULL ? "null" :
		    v->type == JSON_TRUE ? "true" : "false") == -1) {
			free(v);
			return NULL;
		}
		return v;
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps);
		unexpected(ps, "a value");
		return NULL;
	}
}

struct json *
json_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct parser ps;
	struct json *v;
	char tmp[16];

	memset(&ps, 0, sizeof(ps));
	ps.p = (const unsigned char *)buf;
	ps.end = ps.p + len;
	ps.line_start = ps.p;
	ps.line = 1;
	ps.err = err;
	ps.errlen = errlen;
	if (errlen > 0)
		err[0] = '\0';
	v = parse_value(&ps, 0);
	if (v == NULL) {
		if (!ps.failed)
			fail(&ps, ps.p, "cannot parse");
		return NULL;
	}
	skip_space(&ps);
	if (ps.p < ps.end) {
		fail(&ps, ps.p, "unexpected %s after the end of the value",
		    describe(&ps, ps.p, tmp, sizeof(tmp)));
		json_free(v);
		return NULL;
	}
	return v;
}

void
json_free(struct json *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->n; i++) {
		json_free(v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct json *
json_get(const struct json *o, const char *key)
{
	size_t i;

	if (o == NULL || o->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return o->items[i];
	return NULL;
}

static void
text_string(struct buf *b, const char *s)
{
	char tmp[8];

	buf_add(b, "\"", 1);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			buf_add(b, "\\", 1);
			buf_add(b, s, 1);
		} else if ((unsigned char)*s < 0x20) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", *s);
			buf_add(b, tmp, 6);
		} else
			buf_add(b, s, 1);
	}
	buf_add(b, "\"", 1);
}

static void
text_value(struct buf *b, const struct json *v)
{
	char tmp[40];
	size_t i;

	switch (v->type) {
	case JSON_NULL:
		buf_add(b, "null", 4);
		break;
	case JSON_FALSE:
		buf_add(b, "false", 5);
		break;
	case JSON_TRUE:
		buf_add(b, "true", 4);
		break;
	case JSON_NUMBER:
		if (v->isint)
			snprintf(tmp, sizeof(tmp), "%lld", (long long)v->ival);
		else
			snprintf(tmp, sizeof(tmp), "%.17g", v->num);
		buf_add(b, tmp, strlen(tmp));
		break;
	case JSON_STRING:
		text_string(b, v->str);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		buf_add(b, v->type == JSON_ARRAY ? "[" : "{", 1);
		for (i = 0; i < v->n; i++) {
			if (i > 0)
				buf_add(b, ", ", 2);
			if (v->type == JSON_OBJECT) {
				text_string(b, v->keys[i]);
				buf_add(b, ": ", 2);
			}
			text_value(b, v->items[i]);
		}
		buf_add(b, v->type == JSON_ARRAY ? "]" : "}", 1);
		break;
	}
}

char *
json_text(const struct json *v, int bare)
{
	struct buf b = { NULL, 0, 0, 0 };

	buf_add(&b, "", 0);
	if (bare && v->type == JSON_STRING)
		buf_add(&b, v->str, strlen(v->str));
	else
		text_value(&b, v);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/*
 * Returns the length of the well-formed UTF-8 sequence at s (1 to 4), or 0
 * when s does not start one: a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, or a code point above U+10FFFF.
 */
size_t
json_utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}
