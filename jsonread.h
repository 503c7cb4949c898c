/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small strict JSON reader (RFC 8259): parses a buffer into a tree of
 * values, or fails with a message naming the line and column of the first
 * fault.  It never exits and never prints.
 *
 * Strict means: one value and nothing but white space after it; no
 * comments, no trailing commas, no duplicate object keys, no NUL bytes and
 * no invalid UTF-8 anywhere, no lone surrogates in \u escapes, no \u0000,
 * numbers exactly by the JSON grammar and finite as doubles.  Nesting
 * deeper than JSON_MAX_DEPTH is refused, so the recursion is bounded.
 */
#ifndef JSONREAD_H
#define JSONREAD_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH	64

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type	 type;
	unsigned	 line;		/* where the value starts, from 1 */
	unsigned	 col;		/* in bytes, from 1 */
	double		 num;		/* JSON_NUMBER */
	int		 isint;		/* an integer lexeme that fits int64 */
	int64_t		 ival;		/* its value when isint */
	char		*str;		/* JSON_STRING, NUL-terminated UTF-8 */
	size_t		 n;		/* items of an array or object */
	struct json	**items;
	char		**keys;		/* JSON_OBJECT: the key of items[i] */
};

/*
 * Parses len bytes of buf.  Returns the tree, or NULL with a message such
 * as "3:14: expected ',' or '}'" written to err (at most errlen bytes,
 * always terminated).  Free the tree with json_free.
 */
struct json	*json_parse(const char *buf, size_t len, char *err,
		    size_t errlen);
void		 json_free(struct json *);	/* json_free(NULL) is safe */

/* The member of an object named key, or NULL (also when o is no object). */
const struct json *json_get(const struct json *o, const char *key);
/*
 * Writes v compactly (strings unquoted at the top level when bare is set)
 * into a new string; NULL on ENOMEM.
 */
char		*json_text(const struct json *v, int bare);
/* Length (1-4) of the well-formed UTF-8 sequence at s, or 0. */
size_t		 json_utf8_len(const unsigned char *s);

#endif /* JSONREAD_H */
