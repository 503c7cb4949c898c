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
 *
 * Memory: the text is read twice, first to check it and count its values
 * and string bytes, then to fill one block of exactly that size.  A value
 * takes 16 bytes, a string its bytes and a NUL more, so that the tree
 * never takes more than 8 bytes for each byte of the text (the worst is
 * [1,1,1,...]), and at most 8 more for each array or object while it is
 * read.
 * Texts of JSON_MAX_LEN bytes or more are refused.
 */
#ifndef JSONREAD_H
#define JSONREAD_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH	64
#define JSON_MAX_LEN	((size_t)1 << 28)	/* 256 MiB: offsets fit */

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/*
 * One value.  An array's items, and an object's members as key (a
 * JSON_STRING) and value in turn, lie side by side in items: use json_at
 * and json_get rather than items itself.
 */
struct json {
	uint32_t	 off:28;	/* where it starts in the text */
	uint32_t	 type:3;	/* enum json_type */
	uint32_t	 isint:1;	/* an integer lexeme that fits int64 */
	uint32_t	 n;		/* items of an array or object */
	union {
		double	 num;		/* JSON_NUMBER, !isint */
		int64_t	 ival;		/* JSON_NUMBER, isint */
		char	*str;		/* JSON_STRING, NUL-terminated UTF-8 */
		struct json *items;
	};
};

/*
 * Parses len bytes of buf.  Returns the tree, or NULL with a message such
 * as "3:14: expected ',' or '}'" written to err (at most errlen bytes,
 * always terminated).  Free the tree with json_free.
 */
struct json	*json_parse(const char *buf, size_t len, char *err,
		    size_t errlen);
/* Frees a tree that json_parse returned (its root only); NULL is safe. */
void		 json_free(struct json *);

/* The member of an object named key, or NULL (also when o is no object). */
const struct json *json_get(const struct json *o, const char *key);
/* Item i (< n) of an array. */
const struct json *json_at(const struct json *a, size_t i);
/* A number's value as a double, integer or not. */
double		 json_num(const struct json *v);
/* The line and column (from 1, in bytes) of v in buf, the parsed text. */
void		 json_pos(const char *buf, const struct json *v, unsigned *line,
		    unsigned *col);
/*
 * Writes v compactly (strings unquoted at the top level when bare is set)
 * into a new string; NULL on ENOMEM.  A text longer than JSON_TEXT_MAX
 * bytes is cut there, and ends with "..." and a hash of the whole, so
 * that two texts still compare equal only when they are.
 */
#define JSON_TEXT_MAX	4096
char		*json_text(const struct json *v, int bare);

#endif /* JSONREAD_H */
