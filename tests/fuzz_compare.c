/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A bounded random-mutation fuzzer of the result-file reader (jsonread.c
 * and cmpread.c), built with ASan and UBSan by make check.  It mutates
 * valid files (flips bits, overwrites bytes with JSON punctuation,
 * deletes, duplicates and inserts ranges, truncates) with a fixed seed,
 * and checks that every mutant is either accepted or refused with one
 * line naming the file; now and then an accepted mutant is also compared
 * with itself (compare.c's table).  A sanitizer report or a bad message
 * fails the run.
 *
 * usage: fuzz_compare ITERATIONS SEED FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

#define FNAME	"mutant.json"

static uint64_t rng = 88172645463325252ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t
pick(size_t n)
{
	return n == 0 ? 0 : (size_t)(next() % n);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0) {
		perror(path);
		exit(1);
	}
	rewind(fp);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Applies one mutation to buf (of capacity cap) in place; returns len. */
static size_t
mutate(char *buf, size_t len, size_t cap)
{
	static const char punct[] = "{}[]\",:-+.eE0123456789\\u tnfl\n\x80\xff";
	size_t at = pick(len + 1), n, from;

	switch (pick(7)) {
	case 0:		/* flip a bit */
		if (len > 0)
			buf[pick(len)] ^= (char)(1u << pick(8));
		break;
	case 1:		/* overwrite with JSON punctuation */
		if (len > 0)
			buf[pick(len)] = punct[pick(sizeof(punct) - 1)];
		break;
	case 2:		/* delete a range */
		n = pick(16) + 1;
		if (at + n > len)
			n = len - at;
		memmove(buf + at, buf + at + n, len - at - n);
		len -= n;
		break;
	case 3:		/* insert a byte */
		if (len < cap) {
			memmove(buf + at + 1, buf + at, len - at);
			buf[at] = punct[pick(sizeof(punct) - 1)];
			len++;
		}
		break;
	case 4:		/* duplicate a range elsewhere */
		n = pick(64) + 1;
		from = pick(len);
		if (from + n > len)
			n = len - from;
		if (len + n <= cap) {
			memmove(buf + at + n, buf + at, len - at);
			memmove(buf + at, buf + (from < at ? from : from + n),
			    n);
			len += n;
		}
		break;
	case 5:		/* truncate */
		len = at;
		break;
	default:	/* change a digit, to reach the schema checks */
		for (n = 0; n < 64; n++) {
			from = pick(len);
			if (buf[from] >= '0' && buf[from] <= '9') {
				buf[from] = (char)('0' + pick(10));
				break;
			}
		}
		break;
	}
	return len;
}

int
main(int argc, char *argv[])
{
	struct cmp_side side;
	struct cmp_gate gate;
	FILE *devnull;
	char **seeds, *buf, err[512];
	size_t *lens, len, cap, nlines;
	long i, iters, accepted = 0, refused = 0;
	int nseeds, k, m, bad = 0;

	if (argc < 4) {
		fputs("usage: fuzz_compare ITERATIONS SEED FILE...\n", stderr);
		return 2;
	}
	iters = strtol(argv[1], NULL, 10);
	rng ^= strtoull(argv[2], NULL, 10) * 0x9e3779b97f4a7c15ULL;
	nseeds = argc - 3;
	seeds = calloc((size_t)nseeds, sizeof(*seeds));
	lens = calloc((size_t)nseeds, sizeof(*lens));
	for (k = 0; k < nseeds; k++)
		seeds[k] = slurp(argv[3 + k], &lens[k]);
	for (k = 0, cap = 0; k < nseeds; k++)
		if (lens[k] * 2 + 64 > cap)
			cap = lens[k] * 2 + 64;
	buf = malloc(cap);
	memset(&gate, 0, sizeof(gate));
	snprintf(gate.item[0].series, sizeof(gate.item[0].series), "latency");
	gate.item[0].stat = STAT_P99;
	gate.item[0].limit = 10;
	snprintf(gate.item[1].series, sizeof(gate.item[1].series), "timer");
	gate.item[1].stat = STAT_MAX;
	gate.item[1].limit = 10;
	gate.n = 2;
	if ((devnull = fopen("/dev/null", "w")) == NULL) {
		perror("/dev/null");
		return 1;
	}

	for (i = 0; i < iters; i++) {
		k = (int)pick((size_t)nseeds);
		len = lens[k];
		memcpy(buf, seeds[k], len);
		for (m = (int)pick(4); m >= 0; m--)
			len = mutate(buf, len, cap);
		cmp_side_init(&side, "A");
		if (cmp_side_add_buf(&side, FNAME, buf, len, err,
		    sizeof(err)) == 0) {
			/* Now and then, a report on what was accepted. */
			if (accepted++ % 25 == 0 &&
			    cmp_report(devnull, devnull, &side, &side,
			    &gate) == -1) {
				fprintf(stderr, "cmp_report failed\n");
				bad = 1;
			}
		} else {
			refused++;
			nlines = strchr(err, '\n') != NULL;
			if (strncmp(err, FNAME ":", strlen(FNAME) + 1) != 0 ||
			    nlines != 0 || strlen(err) < strlen(FNAME) + 4) {
				fprintf(stderr, "bad message for mutant %ld: "
				    "%s\n", i, err);
				bad = 1;
			}
		}
		cmp_side_free(&side);
	}
	printf("%ld mutants: %ld accepted, %ld refused\n", iters, accepted,
	    refused);
	for (k = 0; k < nseeds; k++)
		free(seeds[k]);
	free(seeds);
	free(lens);
	free(buf);
	fclose(devnull);
	return bad;
}
