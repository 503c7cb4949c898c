/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the json room: the writer (jsonw.c, json.c) read back by
 * the reader (jsonread.c) with the same figures, and every hostile shape
 * the reader and compare's file reader (cmpread.c) must refuse with one
 * line naming the place.  The shapes are those tests/fuzz_compare.c's
 * mutations reach (a flipped bit, a byte of punctuation put in, a range
 * deleted, duplicated or cut off, a digit changed), each pinned here as a
 * fixed case: an invalid byte, a broken token, a truncated text, a
 * duplicate key, a number out of range, a schema whose counts disagree.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "compare/cmp.h"
#include "compare/compare.h"
#include "json/json.h"
#include "json/jsonread.h"
#include "json/jsonw.h"
#include "result.h"
#include "stats.h"
#include "unit.h"

#define RT_N	2000	/* samples of the round trip's run */
#define FNAME	"bad.json"

/* A results file latt's own writer made (make_result), for the cases. */
static char	*good;
static size_t	 goodlen;
static struct stats good_lat;	/* its latency series, as it was added */

static void	 make_result(void);
static char	*replace(const char *s, const char *from, const char *to);
static int	 read_latency(const char *, struct cmp_run *, char *,
		    size_t);
static int	 side_refuses(const char *text, size_t len, char *err,
		    size_t errlen);
static int	 bits_equal(double x, double y);

static void	 t_values(void);
static void	 t_strings(void);
static void	 t_nonfinite(void);
static void	 t_result(void);
static void	 t_hostile(void);
static void	 t_accepts(void);
static void	 t_depth(void);
static void	 t_numbers(void);
static void	 t_position(void);
static void	 t_toolong(void);
static void	 t_dupkeys(void);
static void	 t_surrogate(void);
static void	 t_text(void);
static void	 t_schema(void);
static void	 t_blocks(void);
static void	 t_mutants(void);

static const struct unit_test tests[] = {
	{ "writer and reader: integers and doubles read back exact", t_values },
	{ "writer and reader: strings escaped, bad UTF-8 as U+FFFD", t_strings },
	{ "writer: NaN and infinities are null", t_nonfinite },
	{ "round trip: a run written by json.c reads back the same figures",
	    t_result },
	{ "reader: hostile shapes refused, line:column and why", t_hostile },
	{ "reader: valid shapes accepted", t_accepts },
	{ "reader: nesting up to JSON_MAX_DEPTH, not one more", t_depth },
	{ "reader: numbers exact within int64, doubles beyond", t_numbers },
	{ "reader: the place of a value (json_pos)", t_position },
	{ "reader: a text of JSON_MAX_LEN bytes refused unread", t_toolong },
	{ "reader: a duplicate key among 200000 named", t_dupkeys },
	{ "reader: a surrogate pair decoded to UTF-8", t_surrogate },
	{ "reader: json_text compact, cut with a hash when long", t_text },
	{ "compare's reader: foreign, wrong-schema and wrong-type files",
	    t_schema },
	{ "compare's reader: older files' blocks ignored; latt writes none",
	    t_blocks },
	{ "compare's reader: every mutant of a fixed seed, one line", t_mutants },
};

int
main(void)
{
	int rc;

	make_result();
	rc = unit_main(tests, NELEM(tests));
	free(good);
	stats_free(&good_lat);
	return rc;
}

/*
 * A run of RT_N latency samples (and a timer series), as latt keeps it
 * with --json, written by json_write_run and json_write into good; its
 * latency also into good_lat, for the figures to compare with.
 */
static void
make_result(void)
{
	char *argv[] = { "latt", "-c2", "-d1", "--json=/dev/null", NULL };
	struct config cfg;
	struct result res;
	FILE *fp;
	char *runs = NULL;
	size_t nruns = 0, i;
	uint64_t x = 88172645463325252ULL;
	int64_t v;

	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	options_parse(4, argv, &cfg);
	if (result_init(&res, &cfg, 0, 1) == -1 ||
	    stats_init(&good_lat, res.ser[SER_LATENCY].st.hist.sub_bits) == -1)
		exit(1);
	for (i = 0; i < RT_N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* 20 us to about 1 ms, skewed as latencies are. */
		v = 20000 + (int64_t)((x % 1000) * (x % 1000));
		series_add(&res.ser[SER_LATENCY], v, (uint32_t)(i % 2),
		    (int64_t)i * 1000000);
		stats_add(&good_lat, v, (uint32_t)(i % 2), (int64_t)i * 1000000);
		if (i % 2 == 0)
			series_add(&res.ser[SER_TIMER], v / 3, 0,
			    (int64_t)i * 1000000);
	}
	res.nrounds = RT_N / 2;
	res.stop = STOP_DURATION;
	res.start_wall = 1780000000000000000LL;
	res.end = 1000000000;
	fp = open_memstream(&runs, &nruns);
	if (fp == NULL || json_write_run(fp, &cfg, &res) == -1 ||
	    fclose(fp) != 0)
		exit(1);
	fp = open_memstream(&good, &goodlen);
	if (fp == NULL || json_write(fp, &cfg, &res, 1, runs) == -1 ||
	    fclose(fp) != 0)
		exit(1);
	free(runs);
	result_free(&res, &cfg, 1);
	config_free(&cfg);
}

/*
 * s with the first from replaced by to (a new string), or NULL: none.
 * In latt's file, the first one after "runs": compare reads the runs (a
 * schema 2 file's top-level totals are for other readers).
 */
static char *
replace(const char *s, const char *from, const char *to)
{
	const char *runs = s == good ? strstr(s, "\"runs\": [") : NULL;
	const char *at = strstr(runs != NULL ? runs : s, from);
	size_t n;
	char *r;

	if (at == NULL)
		return NULL;
	n = strlen(s) - strlen(from) + strlen(to);
	if ((r = malloc(n + 1)) == NULL)
		return NULL;
	snprintf(r, n + 1, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return r;
}

/*
 * Whether compare's reader refuses text as FNAME with one line of the
 * form "bad.json:LINE:COL: why" (the message in err).
 */
static int
side_refuses(const char *text, size_t len, char *err, size_t errlen)
{
	struct cmp_side side;
	unsigned line, col;
	int n = 0, r;

	cmp_side_init(&side, "A");
	r = cmp_side_add_buf(&side, FNAME, text, len, err, errlen);
	cmp_side_free(&side);
	return r == -1 && strchr(err, '\n') == NULL &&
	    sscanf(err, FNAME ":%u:%u: %n", &line, &col, &n) == 2 && n > 0 &&
	    err[n] != '\0' && line >= 1 && col >= 1;
}

static int
bits_equal(double x, double y)
{
	return memcmp(&x, &y, sizeof(x)) == 0;
}

static void
t_values(void)
{
	static const long long ints[] = { 0, -1, 1, 9007199254740993LL,
	    INT64_MAX, INT64_MIN, 1000000000000LL };
	static const double nums[] = { 0.1, 1.0 / 3, -2.5e-7, 5e-324,
	    2.2250738585072014e-308, 1.7976931348623157e308, 123456789.125,
	    -0.0, 1e21, 4.35, 0.30000000000000004 };
	struct jw top, o, a, e;
	struct json *root = NULL;
	const struct json *v;
	char *buf = NULL, err[128];
	size_t len = 0, i;
	FILE *fp;

	CHECK((fp = open_memstream(&buf, &len)) != NULL, "open_memstream");
	jw_top(&top, fp, "");
	jw_object(&top, NULL, &o, "\n  ");
	jw_array(&o, "ints", &a, " ");
	for (i = 0; i < NELEM(ints); i++)
		jw_int(&a, NULL, ints[i]);
	jw_end(&a, "");
	jw_array(&o, "nums", &a, " ");
	for (i = 0; i < NELEM(nums); i++)
		jw_num(&a, NULL, nums[i]);
	jw_end(&a, "");
	jw_uint(&o, "u", 18446744073709551615ULL);
	jw_bool(&o, "t", 1);
	jw_bool(&o, "f", 0);
	jw_null(&o, "n");
	jw_int_if(&o, "absent", 0, 5);
	jw_num_if(&o, "present", 1, 2.5);
	jw_object(&o, "empty", &e, " ");
	jw_end(&e, " ");
	jw_array(&o, "none", &a, " ");
	jw_end(&a, " ");
	jw_end(&o, "\n");
	CHECK(fclose(fp) == 0, "fclose");
	root = json_parse(buf, len, err, sizeof(err));
	CHECK(root != NULL, "the writer's text refused: %s: %s", err, buf);
	v = json_get(root, "ints");
	CHECK(v != NULL && v->type == JSON_ARRAY && v->n == NELEM(ints),
	    "ints: %s", buf);
	for (i = 0; i < NELEM(ints); i++)
		CHECK(json_at(v, i)->type == JSON_NUMBER &&
		    json_at(v, i)->isint && json_at(v, i)->ival == ints[i],
		    "int %lld read back as %lld", ints[i],
		    (long long)json_at(v, i)->ival);
	v = json_get(root, "nums");
	CHECK(v != NULL && v->n == NELEM(nums), "nums: %s", buf);
	for (i = 0; i < NELEM(nums); i++)
		CHECK(bits_equal(json_num(json_at(v, i)), nums[i]) ||
		    (nums[i] == 0 && json_num(json_at(v, i)) == 0),
		    "double %.17g read back as %.17g", nums[i],
		    json_num(json_at(v, i)));
	/* Beyond int64: a double, near enough. */
	v = json_get(root, "u");
	CHECK(v != NULL && !v->isint && json_num(v) == 18446744073709551616.0,
	    "UINT64_MAX: %s", buf);
	CHECK(json_get(root, "t")->type == JSON_TRUE &&
	    json_get(root, "f")->type == JSON_FALSE &&
	    json_get(root, "n")->type == JSON_NULL, "true, false, null");
	CHECK(json_get(root, "absent")->type == JSON_NULL &&
	    json_num(json_get(root, "present")) == 2.5, "the _if forms");
	CHECK(json_get(root, "empty")->type == JSON_OBJECT &&
	    json_get(root, "empty")->n == 0 &&
	    json_get(root, "none")->type == JSON_ARRAY &&
	    json_get(root, "none")->n == 0, "empty object and array");
	CHECK(json_get(root, "nosuch") == NULL &&
	    json_get(json_get(root, "ints"), "t") == NULL, "json_get of none");
out:
	json_free(root);
	free(buf);
}

static void
t_strings(void)
{
	static const struct {
		const char	*in;
		const char	*back;
	} s[] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "q\"b\\s/", "q\"b\\s/" },
		{ "\n\r\t\b\f\x01\x1f\x7f", "\n\r\t\b\f\x01\x1f\x7f" },
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" },
		{ "a\xff" "b", "a\xef\xbf\xbd" "b" },
		{ "cut\xc3", "cut\xef\xbf\xbd" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong */
		{ "\xed\xa0\x80" "x", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		    "x" },	/* a surrogate in UTF-8 */
		{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		    "\xef\xbf\xbd" },	/* beyond U+10FFFF */
	};
	struct jw top, a;
	struct json *root = NULL;
	const struct json *v;
	char *buf = NULL, err[128];
	size_t len = 0, i, k;
	FILE *fp;

	CHECK((fp = open_memstream(&buf, &len)) != NULL, "open_memstream");
	jw_top(&top, fp, "");
	jw_array(&top, NULL, &a, " ");
	for (i = 0; i < NELEM(s); i++)
		jw_str(&a, NULL, s[i].in);
	jw_str(&a, NULL, NULL);
	jw_end(&a, "");
	fputc(' ', fp);
	CHECK(fclose(fp) == 0, "fclose");
	/* Every byte of the text is printable ASCII or valid UTF-8. */
	for (k = 0; k < len; k++)
		CHECK((unsigned char)buf[k] >= 0x20, "a control byte 0x%02x "
		    "at %zu: %s", (unsigned char)buf[k], k, buf);
	root = json_parse(buf, len, err, sizeof(err));
	CHECK(root != NULL, "refused: %s: %s", err, buf);
	CHECK(root->type == JSON_ARRAY && root->n == NELEM(s) + 1, "items");
	for (i = 0; i < NELEM(s); i++) {
		v = json_at(root, i);
		CHECK(v->type == JSON_STRING && strcmp(v->str, s[i].back) == 0,
		    "string %zu read back as \"%s\", want \"%s\" (text %s)",
		    i, v->str, s[i].back, buf);
	}
	CHECK(json_at(root, NELEM(s))->type == JSON_NULL, "NULL: null");
out:
	json_free(root);
	free(buf);
}

static void
t_nonfinite(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int first = 1;

	CHECK((fp = open_memstream(&buf, &len)) != NULL, "open_memstream");
	fputc('{', fp);
	jw_key(fp, &first, "", "nan");
	jw_double(fp, NAN);
	jw_key(fp, &first, " ", "inf");
	jw_double(fp, INFINITY);
	jw_key(fp, &first, " ", "minf");
	jw_double(fp, -INFINITY);
	jw_key(fp, &first, " ", "i");
	jw_int_or_null(fp, 0, 7);
	jw_key(fp, &first, " ", "s");
	jw_str_or_null(fp, NULL);
	jw_key(fp, &first, " ", "x");
	jw_double(fp, 1.5);
	fputc('}', fp);
	CHECK(fclose(fp) == 0, "fclose");
	CHECK(strcmp(buf, "{\"nan\": null, \"inf\": null, \"minf\": null, "
	    "\"i\": null, \"s\": null, \"x\": 1.5}") == 0, "wrote %s", buf);
out:
	free(buf);
}

static void
t_result(void)
{
	static const struct {
		const char	*key;
		enum stat_kind	 k;
	} q[] = {
		{ "p50_ns", STAT_P50 }, { "p90_ns", STAT_P90 },
		{ "p95_ns", STAT_P95 }, { "p99_ns", STAT_P99 },
	};
	struct json *root = NULL;
	const struct json *runs, *lat, *top, *v;
	struct cmp_side side;
	struct cmp_series *ls = NULL;
	char err[256];
	size_t i;

	cmp_side_init(&side, "A");
	CHECK(good != NULL, "no results file written");
	root = json_parse(good, goodlen, err, sizeof(err));
	CHECK(root != NULL, "latt's own file refused: %s", err);
	CHECK(json_num(json_get(root, "schema_version")) == 2 &&
	    strcmp(json_get(root, "tool")->str, "latt") == 0, "the header");
	runs = json_get(root, "runs");
	CHECK(runs != NULL && runs->type == JSON_ARRAY && runs->n == 1,
	    "runs");
	lat = json_get(json_at(runs, 0), "latency");
	top = json_get(root, "latency");
	CHECK(lat != NULL && top != NULL, "no latency series");
	CHECK(json_num(json_get(lat, "samples")) == RT_N &&
	    json_num(json_get(top, "samples")) == RT_N, "samples");
	CHECK(json_num(json_get(lat, "min_ns")) == (double)good_lat.min &&
	    json_num(json_get(lat, "max_ns")) == (double)good_lat.max,
	    "min %g max %g, want %jd %jd", json_num(json_get(lat, "min_ns")),
	    json_num(json_get(lat, "max_ns")), (intmax_t)good_lat.min,
	    (intmax_t)good_lat.max);
	CHECK(bits_equal(json_num(json_get(lat, "mean_ns")),
	    stats_mean(&good_lat)) && bits_equal(json_num(json_get(lat,
	    "stdev_ns")), stats_stdev(&good_lat)), "mean %.17g sd %.17g, "
	    "want %.17g %.17g", json_num(json_get(lat, "mean_ns")),
	    json_num(json_get(lat, "stdev_ns")), stats_mean(&good_lat),
	    stats_stdev(&good_lat));
	for (i = 0; i < NELEM(q); i++) {
		v = json_get(lat, q[i].key);
		CHECK(v != NULL && json_num(v) == stats_value(&good_lat,
		    q[i].k), "%s %g, want %g", q[i].key, json_num(v),
		    stats_value(&good_lat, q[i].k));
	}
	/* p99.9 needs 10000 samples, p99.99 100000: null with 2000. */
	CHECK(json_get(lat, "p99_9_ns")->type == JSON_NULL &&
	    json_get(lat, "p99_99_ns")->type == JSON_NULL,
	    "p99.9 or p99.99 of %d samples is not null", RT_N);
	/* compare reads it back: one run, the same samples and figures. */
	CHECK(cmp_side_add_buf(&side, "good.json", good, goodlen, err,
	    sizeof(err)) == 0, "compare refused latt's file: %s", err);
	CHECK(side.nruns == 1 && side.nsamples == RT_N, "compare: %zu runs, "
	    "%ju samples", side.nruns, (uintmax_t)side.nsamples);
	for (i = 0; i < side.nseries; i++)
		if (strcmp(side.series[i].name, "latency") == 0)
			ls = &side.series[i];
	CHECK(ls != NULL && ls->nruns == 1, "compare: no latency series");
	CHECK(ls->runs[0].n == RT_N, "compare: %ju samples",
	    (uintmax_t)ls->runs[0].n);
	for (i = 0; i < NELEM(q); i++)
		CHECK(ls->runs[0].val[q[i].k] == stats_value(&good_lat, q[i].k),
		    "compare's %s %g, want %g", q[i].key,
		    ls->runs[0].val[q[i].k], stats_value(&good_lat, q[i].k));
	CHECK(fabs(ls->runs[0].val[STAT_MEAN] / stats_mean(&good_lat) - 1) <
	    1e-12, "compare's mean %.17g, want %.17g",
	    ls->runs[0].val[STAT_MEAN], stats_mean(&good_lat));
	CHECK(isnan(ls->runs[0].val[STAT_P999]) &&
	    isnan(ls->runs[0].val[STAT_P9999]), "compare's p99.9 is %g",
	    ls->runs[0].val[STAT_P999]);
out:
	cmp_side_free(&side);
	json_free(root);
}

/* The reader's refusals: text (len 0: strlen), and its message. */
static const struct {
	const char	*name;
	const char	*text;
	size_t		 len;
	const char	*msg;		/* the whole message, place and all */
} hostile[] = {
	{ "empty", "", 0, "1:1: expected a value, found the end of the file" },
	{ "white space only", " \n\t", 0,
	    "2:2: expected a value, found the end of the file" },
	{ "garbage", "hello\n", 0, "1:1: expected a value, found 'h'" },
	{ "truncated object", "{\"a\": [1, 2", 0,
	    "1:12: expected ',' or ']', found the end of the file" },
	{ "truncated in a key", "{\"ab", 0, "1:5: unterminated string" },
	{ "truncated after a key", "{\"a\"", 0,
	    "1:5: expected ':', found the end of the file" },
	{ "truncated literal", "[tru", 0, "1:2: expected a value, found 't'" },
	{ "misspelt literal", "[nul1]", 0, "1:2: expected a value, found 'n'" },
	{ "trailing comma in an object", "{\"a\": 1,}", 0,
	    "1:9: expected a key string, found '}'" },
	{ "trailing comma in an array", "[1,]", 0,
	    "1:4: expected a value, found ']'" },
	{ "missing comma", "[1 2]", 0, "1:4: expected ',' or ']', found '2'" },
	{ "missing colon", "{\"a\" 1}", 0, "1:6: expected ':', found '1'" },
	{ "a key that is no string", "{1: 2}", 0,
	    "1:2: expected a key string, found '1'" },
	{ "single quotes", "['a']", 0, "1:2: expected a value, found '''" },
	{ "a comment", "[1] // x", 0,
	    "1:5: unexpected '/' after the end of the value" },
	{ "duplicate key", "{\"a\": 1, \"a\": 2}", 0,
	    "1:10: duplicate key \"a\"" },
	{ "duplicate key, nested", "{\"o\": {\"x\": 1, \"y\": 2, \"x\": 3}}", 0,
	    "1:24: duplicate key \"x\"" },
	{ "leading zero", "[01]", 0, "1:3: leading zero in a number" },
	{ "bare minus", "[-]", 0, "1:3: expected a digit, found ']'" },
	{ "plus sign", "[+1]", 0, "1:2: expected a value, found '+'" },
	{ "point without digits", "[1.]", 0,
	    "1:4: expected a digit after '.', found ']'" },
	{ "point first", "[.5]", 0, "1:2: expected a value, found '.'" },
	{ "exponent without digits", "[1e]", 0,
	    "1:4: expected a digit in the exponent, found ']'" },
	{ "hexadecimal", "[0x10]", 0, "1:3: expected ',' or ']', found 'x'" },
	{ "number out of range", "[1e999]", 0, "1:2: number out of range" },
	{ "negative out of range", "[-1e309]", 0, "1:2: number out of range" },
	{ "NaN", "[NaN]", 0, "1:2: expected a value, found 'N'" },
	{ "Infinity", "[Infinity]", 0, "1:2: expected a value, found 'I'" },
	{ "-Infinity", "[-Infinity]", 0, "1:3: expected a digit, found 'I'" },
	{ "lone high surrogate", "[\"\\ud800x\"]", 0,
	    "1:3: high surrogate not followed by a low one" },
	{ "lone low surrogate", "[\"\\udc00\"]", 0,
	    "1:3: lone low surrogate in a \\u escape" },
	{ "bad escape", "[\"\\x\"]", 0, "1:3: bad escape in a string" },
	{ "NUL escape", "[\"\\u0000\"]", 0, "1:3: \\u0000 is not allowed" },
	{ "truncated \\u escape", "[\"\\u12", 0, "1:7: truncated \\u escape" },
	{ "bad hex digit", "[\"\\u12g4\"]", 0,
	    "1:7: bad hex digit in a \\u escape" },
	{ "raw control character", "[\"a\tb\"]", 0,
	    "1:4: control character 0x09 in a string" },
	{ "raw newline in a string", "[\"a\nb\"]", 0,
	    "1:4: control character 0x0a in a string" },
	{ "invalid UTF-8", "[\"\xc3\x28\"]", 0,
	    "1:3: invalid UTF-8 in a string" },
	{ "overlong UTF-8", "[\"\xc0\xaf\"]", 0,
	    "1:3: invalid UTF-8 in a string" },
	{ "a surrogate in UTF-8", "[\"\xed\xa0\x80\"]", 0,
	    "1:3: invalid UTF-8 in a string" },
	{ "beyond U+10FFFF", "[\"\xf4\x90\x80\x80\"]", 0,
	    "1:3: invalid UTF-8 in a string" },
	{ "UTF-8 cut at the end", "[\"\xe2\x82", 0,
	    "1:3: invalid UTF-8 in a string" },
	{ "a high bit flipped outside a string", "[1,\xb2]", 0,
	    "1:4: expected a value, found byte 0xb2" },
	{ "byte order mark", "\xef\xbb\xbf{}", 0,
	    "1:1: expected a value, found byte 0xef" },
	{ "two values", "{} {}", 0,
	    "1:4: unexpected '{' after the end of the value" },
	{ "NUL byte after", "{}\0", 3,
	    "1:3: unexpected byte 0x00 after the end of the value" },
	{ "NUL byte in a string", "[\"a\0b\"]", 7,
	    "1:4: control character 0x00 in a string" },
	{ "unterminated string", "[\"abc", 0, "1:6: unterminated string" },
};

static void
t_hostile(void)
{
	struct json *root = NULL;
	char err[256];
	size_t i, len;

	for (i = 0; i < NELEM(hostile); i++) {
		len = hostile[i].len ? hostile[i].len : strlen(hostile[i].text);
		root = json_parse(hostile[i].text, len, err, sizeof(err));
		CHECK(root == NULL, "%s: accepted", hostile[i].name);
		CHECK(strcmp(err, hostile[i].msg) == 0,
		    "%s: \"%s\", want \"%s\"", hostile[i].name, err,
		    hostile[i].msg);
	}
	/* A message cut to its buffer stays terminated. */
	root = json_parse("[01]", 4, err, 6);
	CHECK(root == NULL && strcmp(err, "1:3: ") == 0, "cut to 6: \"%s\"",
	    err);
out:
	json_free(root);
}

static void
t_accepts(void)
{
	static const char *const ok[] = {
		"{}", "[]", " \t\r\n[ ] ", "0", "-0", "-0.0e+0", "1E-2",
		"\"\"", "null", "true", "false", "\"\\u00e9\\/\\b\\f\\n\\r\\t\"",
		"{\"a\": {\"a\": 1}}", "[[[[]]]]", "{\"\": 1, \"A\": 2, \"a\": 3}",
		"1.7976931348623157e308", "4.9e-324", "1e-400",
	};
	struct json *root = NULL;
	char err[256];
	size_t i;

	for (i = 0; i < NELEM(ok); i++) {
		root = json_parse(ok[i], strlen(ok[i]), err, sizeof(err));
		CHECK(root != NULL, "%s refused: %s", ok[i], err);
		json_free(root);
		root = NULL;
	}
out:
	json_free(root);
}

static void
t_depth(void)
{
	struct json *root = NULL;
	char *buf = NULL, err[256], want[64];
	size_t n;

	CHECK((buf = malloc(100001)) != NULL, "malloc");
	n = JSON_MAX_DEPTH;
	memset(buf, '[', n);
	memset(buf + n, ']', n);
	root = json_parse(buf, 2 * n, err, sizeof(err));
	CHECK(root != NULL, "%zu levels refused: %s", n, err);
	json_free(root);
	n = JSON_MAX_DEPTH + 1;
	memset(buf, '[', n);
	memset(buf + n, ']', n);
	root = json_parse(buf, 2 * n, err, sizeof(err));
	snprintf(want, sizeof(want), "1:%d: nested deeper than %d levels",
	    JSON_MAX_DEPTH + 1, JSON_MAX_DEPTH);
	CHECK(root == NULL && strcmp(err, want) == 0, "%zu levels: %s", n,
	    root != NULL ? "accepted" : err);
	/* 100000 brackets, unclosed: refused at the same depth. */
	memset(buf, '[', 100000);
	root = json_parse(buf, 100000, err, sizeof(err));
	CHECK(root == NULL && strcmp(err, want) == 0, "100000 '[': %s",
	    root != NULL ? "accepted" : err);
	memset(buf, '{', 1);
	for (n = 1; n + 5 < 100000; n += 5)
		memcpy(buf + n, "\"a\":{", 5);
	root = json_parse(buf, n, err, sizeof(err));
	CHECK(root == NULL && strstr(err, "nested deeper than") != NULL,
	    "deep objects: %s", root != NULL ? "accepted" : err);
out:
	json_free(root);
	free(buf);
}

static void
t_numbers(void)
{
	static const struct {
		const char	*text;
		int		 isint;
		double		 num;
	} c[] = {
		{ "9223372036854775807", 1, 9223372036854775807.0 },
		{ "-9223372036854775808", 1, -9223372036854775808.0 },
		{ "9223372036854775808", 0, 9223372036854775808.0 },
		{ "-9223372036854775809", 0, -9223372036854775808.0 },
		{ "123456789012345678901234567890", 0, 1.2345678901234568e29 },
		{ "1e2", 0, 100 },
		{ "1.0", 0, 1 },
		{ "-0", 1, 0 },
		{ "1e-400", 0, 0 },
	};
	struct json *root = NULL;
	char err[256], big[400];
	size_t i;

	for (i = 0; i < NELEM(c); i++) {
		root = json_parse(c[i].text, strlen(c[i].text), err,
		    sizeof(err));
		CHECK(root != NULL && root->type == JSON_NUMBER, "%s: %s",
		    c[i].text, err);
		CHECK((int)root->isint == c[i].isint && json_num(root) ==
		    c[i].num, "%s: isint %d, %.17g", c[i].text,
		    (int)root->isint, json_num(root));
		json_free(root);
		root = NULL;
	}
	root = json_parse("9223372036854775807", 19, err, sizeof(err));
	CHECK(root != NULL && root->ival == INT64_MAX, "INT64_MAX not exact");
	json_free(root);
	root = NULL;
	/* A lexeme longer than the reader's stack copy, 400 digits. */
	memset(big, '9', sizeof(big));
	root = json_parse(big, 308, err, sizeof(err));
	CHECK(root != NULL && !root->isint && json_num(root) > 9e307,
	    "308 nines: %s", root != NULL ? "not a big double" : err);
	json_free(root);
	root = json_parse(big, sizeof(big), err, sizeof(err));
	CHECK(root == NULL && strcmp(err, "1:1: number out of range") == 0,
	    "400 nines: %s", root != NULL ? "accepted" : err);
out:
	json_free(root);
}

static void
t_position(void)
{
	static const char text[] = "{\n  \"a\": 1,\n\t\"b\": [true,\n  null]\n}";
	struct json *root = NULL;
	const struct json *b;
	unsigned line, col;
	char err[128];

	root = json_parse(text, strlen(text), err, sizeof(err));
	CHECK(root != NULL, "refused: %s", err);
	json_pos(text, json_get(root, "a"), &line, &col);
	CHECK(line == 2 && col == 8, "\"a\" at %u:%u, want 2:8", line, col);
	b = json_get(root, "b");
	json_pos(text, json_at(b, 1), &line, &col);
	CHECK(line == 4 && col == 3, "b[1] at %u:%u, want 4:3", line, col);
	json_pos(text, root, &line, &col);
	CHECK(line == 1 && col == 1, "the root at %u:%u", line, col);
out:
	json_free(root);
}

static void
t_toolong(void)
{
	char err[128], one = '[';
	struct json *root;

	/* The length alone refuses it: the one byte is never read past. */
	root = json_parse(&one, JSON_MAX_LEN, err, sizeof(err));
	CHECK(root == NULL && strcmp(err, "1:1: larger than 256 MiB") == 0,
	    "%s", root != NULL ? "accepted" : err);
out:
	json_free(root);
}

static void
t_dupkeys(void)
{
	struct json *root = NULL;
	FILE *fp = NULL;
	char *buf = NULL, err[256];
	size_t len = 0, i;
	unsigned line, col;

	CHECK((fp = open_memstream(&buf, &len)) != NULL, "open_memstream");
	fputc('{', fp);
	for (i = 0; i < 200000; i++)
		fprintf(fp, "\"k%zu\": 1,", i);
	fputs(" \"k7\": 2}\n", fp);
	CHECK(fclose(fp) == 0, "fclose");
	root = json_parse(buf, len, err, sizeof(err));
	CHECK(root == NULL, "accepted");
	CHECK(sscanf(err, "%u:%u:", &line, &col) == 2 && line == 1 &&
	    col == len - 8 && strstr(err, ": duplicate key \"k7\"") != NULL,
	    "%s (want 1:%zu)", err, len - 8);
	/* And through compare: one line naming the file. */
	CHECK(side_refuses(buf, len, err, sizeof(err)) &&
	    strstr(err, "duplicate key \"k7\"") != NULL, "compare: %s", err);
out:
	json_free(root);
	free(buf);
}

static void
t_surrogate(void)
{
	static const char text0[] = "[\"v\\ud83d\\ude00m\", \"\\u00e9\\u20ac\"]";
	struct json *root = NULL;
	struct cmp_side a, b;
	char err[256], *copy = NULL, *text = NULL, *out = NULL;
	size_t len = 0;
	FILE *fp;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	root = json_parse(text0, strlen(text0), err, sizeof(err));
	CHECK(root != NULL, "refused: %s", err);
	CHECK(strcmp(json_at(root, 0)->str, "v\xf0\x9f\x98\x80m") == 0,
	    "decoded as \"%s\"", json_at(root, 0)->str);
	CHECK(strcmp(json_at(root, 1)->str, "\xc3\xa9\xe2\x82\xac") == 0,
	    "decoded as \"%s\"", json_at(root, 1)->str);
	/* Through compare: the host's name in a warning, decoded. */
	CHECK((copy = strdup(good)) != NULL, "strdup");
	CHECK((text = replace(copy, "\"hostname\": null",
	    "\"hostname\": \"v\\ud83d\\ude00m\"")) != NULL, "no hostname");
	cmp_side_init(&a, "A");
	cmp_side_init(&b, "B");
	CHECK(cmp_side_add_buf(&a, "a.json", good, goodlen, err,
	    sizeof(err)) == 0 && cmp_side_add_buf(&b, "x.json", text,
	    strlen(text), err, sizeof(err)) == 0, "refused: %s", err);
	CHECK((fp = open_memstream(&out, &len)) != NULL, "open_memstream");
	cmp_report(fp, fp, &a, &b, NULL);
	fclose(fp);
	CHECK(strstr(out, "\nwarning: the host differs: A not set, B "
	    "v\xf0\x9f\x98\x80m.\n") != NULL, "no warning of the host: %s",
	    out);
out:
	cmp_side_free(&a);
	cmp_side_free(&b);
	free(out);
	free(text);
	free(copy);
	json_free(root);
}

static void
t_text(void)
{
	static const char text[] = "{ \"a\" : [ 1 , 2.5 , \"x\\ty\" ] , "
	    "\"b\" : null }";
	struct json *root = NULL, *r2 = NULL;
	char *t = NULL, *t2 = NULL, *big = NULL, err[128];
	size_t i, n = 3 * JSON_TEXT_MAX;

	root = json_parse(text, strlen(text), err, sizeof(err));
	CHECK(root != NULL, "refused: %s", err);
	t = json_text(root, 0);
	CHECK(t != NULL && strcmp(t, "{\"a\": [1, 2.5, \"x\\u0009y\"], "
	    "\"b\": null}") == 0, "json_text: %s", t);
	free(t);
	t = json_text(json_at(json_get(root, "a"), 2), 1);
	CHECK(t != NULL && strcmp(t, "x\ty") == 0, "bare: \"%s\"", t);
	free(t);
	t = NULL;
	json_free(root);
	root = NULL;
	/* Two long texts that differ past the cut still differ. */
	CHECK((big = malloc(n + 3)) != NULL, "malloc");
	big[0] = '"';
	for (i = 1; i <= n; i++)
		big[i] = 'a';
	big[n + 1] = '"';
	root = json_parse(big, n + 2, err, sizeof(err));
	big[n] = 'b';
	r2 = json_parse(big, n + 2, err, sizeof(err));
	CHECK(root != NULL && r2 != NULL, "long strings refused: %s", err);
	t = json_text(root, 0);
	t2 = json_text(r2, 0);
	CHECK(t != NULL && t2 != NULL && strlen(t) <= JSON_TEXT_MAX + 32 &&
	    strstr(t, "...") != NULL, "not cut: %zu bytes", t ? strlen(t) : 0);
	CHECK(strcmp(t, t2) != 0, "texts that differ past the cut are equal");
out:
	free(t);
	free(t2);
	free(big);
	json_free(root);
	json_free(r2);
}

/*
 * Compare's reader on shapes that are JSON but not latt's file: each
 * case is a text, or a change to good (from, to), and the message's end.
 */
static const struct {
	const char	*name;
	const char	*text;
	const char	*from, *to;
	const char	*msg;		/* within the message */
} schema[] = {
	{ "foreign JSON", "{\"foo\": 1}\n", NULL, NULL,
	    FNAME ":1:1: not a latt results file: no \"tool\": \"latt\"" },
	{ "not an object", "[1, 2]", NULL, NULL,
	    FNAME ":1:1: not a latt results file: the top level is not an "
	    "object" },
	{ "schema_version 3", "{\"tool\": \"latt\", \"schema_version\": 3}",
	    NULL, NULL, FNAME ":1:36: schema_version is another, this latt reads "
	    "versions 1 and 2" },
	{ "no schema_version", "{\"tool\": \"latt\"}", NULL, NULL,
	    FNAME ":1:1: \"schema_version\" is missing" },
	{ "schema 2 without runs", "{\"tool\": \"latt\", \"schema_version\": 2}",
	    NULL, NULL, FNAME ":1:1: \"runs\" is missing" },
	{ "schema 2, no run", "{\"tool\": \"latt\", \"schema_version\": 2, "
	    "\"runs\": []}", NULL, NULL,
	    FNAME ":1:47: \"runs\" is not an array of one run or more" },
	{ "schema 1 without latency", "{\"tool\": \"latt\", "
	    "\"schema_version\": 1}", NULL, NULL,
	    FNAME ":1:1: \"latency\" is missing" },
	{ "a run without latency", "{\"tool\": \"latt\", \"schema_version\": 2, "
	    "\"runs\": [{}]}", NULL, NULL,
	    FNAME ":1:48: \"latency\" is missing" },
	{ "a run that is no object", "{\"tool\": \"latt\", \"schema_version\": 2,"
	    " \"runs\": [1]}", NULL, NULL,
	    FNAME ":1:48: a run is not an object" },
	{ "a series that is no object, on line 5",
	    "{\n  \"tool\": \"latt\",\n  \"schema_version\": 2,\n  \"runs\": "
	    "[\n    {\"latency\": 5}\n  ]\n}\n", NULL, NULL,
	    FNAME ":5:17: \"latency\" is not an object" },
	{ "samples that do not add up", NULL, "\"samples\": 2000",
	    "\"samples\": 2001", ": the histogram's counts and overflow add up "
	    "to 2000, but \"samples\" is 2001" },
	{ "a bucket that is no bucket", NULL, "\"buckets\": [",
	    "\"buckets\": [[3, 4, 1], ", ": bucket [3, 4] is not a bucket of a "
	    "sub_bits 9 histogram" },
	{ "a series of the wrong type", NULL, "\"timer\": {",
	    "\"timer\": [], \"x\": {", ": \"timer\" is not an object" },
	{ "samples a string", NULL, "\"samples\": 2000",
	    "\"samples\": \"2000\"", ": \"samples\" is not a non-negative "
	    "integer" },
	{ "samples negative", NULL, "\"samples\": 2000", "\"samples\": -2000",
	    ": \"samples\" is not a non-negative integer" },
	{ "samples a fraction", NULL, "\"samples\": 2000",
	    "\"samples\": 2000.5", ": \"samples\" is not a non-negative "
	    "integer" },
	{ "a truncated file", NULL, NULL, NULL,
	    ": expected a value, found the end of the file" },
};

static void
t_schema(void)
{
	char err[512], *text = NULL;
	size_t i, len;

	for (i = 0; i < NELEM(schema); i++) {
		if (schema[i].text != NULL)
			text = strdup(schema[i].text);
		else if (schema[i].from != NULL)
			text = replace(good, schema[i].from, schema[i].to);
		else if ((text = strdup(good)) != NULL)
			/* Cut after a key's colon past the middle: a value due. */
			strstr(text + goodlen / 2, ": ")[2] = '\0';
		CHECK(text != NULL, "%s: no such text in latt's file",
		    schema[i].name);
		len = strlen(text);
		CHECK(side_refuses(text, len, err, sizeof(err)),
		    "%s: not refused in one line with its place: %s",
		    schema[i].name, err);
		CHECK(strstr(err, schema[i].msg) != NULL,
		    "%s: \"%s\", want \"%s\"", schema[i].name, err,
		    schema[i].msg);
		free(text);
		text = NULL;
	}
out:
	free(text);
}

/*
 * The latency of text's one run as compare reads it into *r: 0 ("read"
 * in err), or -1 with the message in err.
 */
static int
read_latency(const char *text, struct cmp_run *r, char *err, size_t errlen)
{
	struct cmp_side side;
	size_t i;
	int ret = -1;

	cmp_side_init(&side, "A");
	if (cmp_side_add_buf(&side, FNAME, text, strlen(text), err,
	    errlen) == 0)
		snprintf(err, errlen, "read, but not one run with a latency");
	for (i = 0; side.nruns == 1 && i < side.nseries; i++)
		if (strcmp(side.series[i].name, "latency") == 0 &&
		    side.series[i].nruns == 1) {
			*r = side.series[i].runs[0];
			snprintf(err, errlen, "read");
			ret = 0;
		}
	cmp_side_free(&side);
	return ret;
}

/*
 * compare ignores a series' "blocks", which latt's older files carry in
 * runs[] and latt no longer writes: good with blocks put into its run's
 * latency, ones that add up or not, renamed or of another type, reads as
 * good does.
 */
static void
t_blocks(void)
{
	static const char *const blocks[] = {
		"\"blocks\": {\"sub_bits\": 4, \"rounds_per_block\": 1, "
		    "\"list\": [{\"samples\": 2, \"min_ns\": 1, \"max_ns\": 2, "
		    "\"buckets\": [1, 1, 2, 1]}]}, ",
		"\"blocks\": {\"sub_bits\": 4, \"rounds_per_block\": 1, "
		    "\"list\": [{\"samples\": 99999, \"min_ns\": 1, "
		    "\"max_ns\": 2, \"buckets\": [1, 1, 2]}]}, ",
		"\"blocks\": {\"sub_bits\": 4, \"rounds_per_block\": 3, "
		    "\"list\": [{\"samples\": 2, \"min_ns\": 1, \"max_ns\": 2, "
		    "\"buckets\": [99999, 1, 1, 1]}, {}]}, ",
		"\"blocks_\": {\"sub_bits\": 4, \"list\": []}, ",
		"\"blocks\": 7, ",
	};
	struct cmp_run want, got;
	char err[512], *text = NULL, to[512];
	size_t i;

	CHECK(strstr(good, "\"blocks\"") == NULL, "latt writes blocks");
	CHECK(read_latency(good, &want, err, sizeof(err)) == 0 &&
	    want.n == RT_N, "good: %s", err);
	for (i = 0; i < NELEM(blocks); i++) {
		snprintf(to, sizeof(to), "\"latency\": {%s", blocks[i]);
		CHECK((text = replace(good, "\"latency\": {", to)) != NULL,
		    "no latency in runs[]");
		CHECK(strstr(text, blocks[i]) != NULL &&
		    read_latency(text, &got, err, sizeof(err)) == 0 &&
		    memcmp(&got, &want, sizeof(got)) == 0,
		    "%s: %s, want good's latency", blocks[i], err);
		free(text);
		text = NULL;
	}
out:
	free(text);
}

/*
 * fuzz_compare's mutations, a fixed seed: each mutant of latt's file is
 * accepted, or refused in one line naming the file and the place.  The
 * refusals must reach both the reader's faults and the schema's.
 */
static uint64_t rng = 88172645463325252ULL;

static size_t
pick(size_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n == 0 ? 0 : (size_t)(rng % n);
}

static void
t_mutants(void)
{
	static const char punct[] = "{}[]\",:-+.eE0123456789\\u tnfl\n\x80\xff";
	struct cmp_side side;
	char *buf = NULL, err[512];
	size_t len, at, n, i, refused = 0, accepted = 0, schema_faults = 0;
	int r;

	CHECK((buf = malloc(goodlen + 64)) != NULL, "malloc");
	for (i = 0; i < 150; i++) {
		memcpy(buf, good, goodlen);
		len = goodlen;
		at = pick(len);
		switch (i % 5) {
		case 0:
			buf[at] ^= (char)(1u << pick(8));
			break;
		case 1:
			buf[at] = punct[pick(sizeof(punct) - 1)];
			break;
		case 2:
			n = pick(16) + 1;
			if (at + n > len)
				n = len - at;
			memmove(buf + at, buf + at + n, len - at - n);
			len -= n;
			break;
		case 3:
			len = at;
			break;
		default:
			for (n = 0; n < 64; n++, at = pick(len))
				if (buf[at] >= '1' && buf[at] <= '9') {
					buf[at] = (char)('0' + pick(10));
					break;
				}
			break;
		}
		cmp_side_init(&side, "A");
		r = cmp_side_add_buf(&side, FNAME, buf, len, err, sizeof(err));
		cmp_side_free(&side);
		if (r == 0) {
			accepted++;
			continue;
		}
		refused++;
		CHECK(side_refuses(buf, len, err, sizeof(err)),
		    "mutant %zu: \"%s\"", i, err);
		/* A fault of the schema, not of the JSON. */
		schema_faults += strstr(err, "expected") == NULL &&
		    strstr(err, "UTF-8") == NULL &&
		    strstr(err, "unterminated") == NULL;
	}
	CHECK(refused > 50 && accepted > 10 && schema_faults > 5,
	    "%zu refused, %zu accepted, %zu of the schema: the mutations "
	    "reach too little", refused, accepted, schema_faults);
out:
	free(buf);
}
