/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fmt.h: the API of fmt.c, how latt writes numbers and sentences for
 * people.  Each writes into buf (len bytes) and returns it.
 */
#ifndef FMT_H
#define FMT_H

#include <stddef.h>
#include <stdio.h>

/*
 * A time as people write it, in the largest unit (ns, us, ms, s) that
 * keeps it at least 1: "1.5 ms", "200 us", "12.5 s", with at most digits
 * significant digits (0: exact, trailing zeros dropped); micro spells
 * microseconds ("us", or "\xc2\xb5s" in the plot); NAN is "-".
 */
char	*fmt_time(char *, size_t, double ns, int digits, const char *micro);
/*
 * Four significant figures ("0.9983", "12.34", "9876"); si: k, M, G, T
 * from 1000 on ("362.1M"); NAN is "-".
 */
char	*fmt_num(char *, size_t, double, int si);
/*
 * Microseconds without the unit, four figures ("9.876", "9876"); "1.235s"
 * from 1e6 us; 0 is "0", NAN "-".
 */
char	*fmt_us(char *, size_t, double ns);
/* At most n bytes of s, a control byte as \xNN: what a file or argv said. */
void	 fmt_put(FILE *, const char *s, size_t n);
/* lead, then text cut into lines of width columns, indented by indent. */
void	 fmt_wrap(FILE *, const char *lead, int indent, int width,
	    const char *text);
/*
 * Test n of a KTAP version 1 report (the kernel's test format): "# diag",
 * then "ok n NAME", "not ok n NAME" or "ok n NAME # SKIP cannot tell" for
 * verdict 0, 1 or 2 (met, exceeded, cannot tell: the gates' order); NAME
 * one word, its spaces dropped and any byte but a letter, a digit or
 * _.- made '_'.
 */
void	 fmt_ktap(FILE *, unsigned n, int verdict, const char *name,
	    const char *diag);

#endif /* FMT_H */
