#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A knob left as latt found it, whatever happens (issue 35): a long value
# cut in the error line.  A test-made file stands for the knob; each case
# costs a second or less.
#
# Usage: LATT=./latt bash tests/t_knobfaults.sh
. "$(dirname "$0")/lib.sh"

K=$TMP/knob

# ---------------------------------------------------------------------------
# (13) A 5,000-byte value is cut in its line.
echo 7 >"$K"
run_latt "$TMP/l.out" "$TMP/l.err" -d1 --sweep="$K=1,$(head -c 5000 /dev/zero | tr '\0' a)"
[ "$rc" -eq 2 ] && [ "$(head -n 1 "$TMP/l.err" | wc -c)" -lt 200 ] ||
	bad "status $rc, a line of $(head -n 1 "$TMP/l.err" | wc -c) bytes"
verdict "knob: a long value cut in its line"
