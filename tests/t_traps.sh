#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# No silent traps (issue 36), end to end: a report file that cannot be
# written is named by its option; a workload that fails with one of
# latt's options among its words gets one line that options go before
# the command (not for sh -c); latt compare's unknown option suggests
# the nearest.  The parser's refusals (--plot=x.png, a bare number in
# --fail-above, --duraton=5) are tests/unit_cli.c's; the gate's lines
# within 80 columns, t_runcontrol.sh's.
. "$(dirname "$0")/lib.sh"

for o in json=/proc/x.json log=/proc/x.csv plot=/proc/x.svg; do
	run_latt "$TMP/out" "$TMP/err" -q -c1 "--$o" "touch $TMP/ran"
	[ "$rc" -eq 1 ] && [ ! -e "$TMP/ran" ] && [ ! -s "$TMP/out" ] &&
	    [ "$(cat "$TMP/err")" = "latt: --$o: No such file or directory" ] ||
	    bad "--$o: rc $rc: $(short "$TMP/err")"
done
run_latt "$TMP/out" "$TMP/err" -q -c1 -n 3 -f 0 -t 1 --plot=/dev/null sleep 30
[ "$rc" -eq 0 ] || bad "--plot=/dev/null (a device, no .svg): rc $rc: $(short "$TMP/err")"
verdict "traps: a report file that cannot be written is named by its option; a device takes the plot"

run_latt "$TMP/out" "$TMP/err" -q -f 5s -t 5s sleep 2 -c4
[ "$rc" -eq 4 ] &&
    grep -qx "latt: options go before the command: -c4 went to the workload" "$TMP/err" ||
    bad "sleep 2 -c4: rc $rc: $(short "$TMP/err")"
run_latt "$TMP/out" "$TMP/err" -q -f 5s -t 5s sh -c 'exit 3'
[ "$rc" -eq 4 ] && ! grep -q "options go before" "$TMP/err" ||
    bad "sh -c 'exit 3': rc $rc: $(short "$TMP/err")"
run_latt "$TMP/out" "$TMP/err" -q -n 3 -f 0 -t 1 sh -c 'sleep 30' -c4
[ "$rc" -eq 0 ] && ! grep -q "options go before" "$TMP/err" ||
    bad "a workload that did not fail: rc $rc: $(short "$TMP/err")"
verdict "traps: a failed workload with -c4 among its words: one line, options go before the command"

run_latt "$TMP/out" "$TMP/err" compare --drop-noisey a.json b.json
[ "$rc" -eq 2 ] && grep -q "^latt: compare: unknown option: --drop-noisey (did you mean --drop-noisy?)$" "$TMP/err" ||
    bad "rc $rc: $(short "$TMP/err")"
verdict "traps: latt compare's unknown option suggests the nearest"
no_leftovers "traps"
