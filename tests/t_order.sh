#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The real-time order check (rt-migrate-test's question) and the busy
# phase: bad input is a usage error before anything runs; three FIFO
# classes with a 5 ms busy phase on 2 CPUs keep their order (the two
# higher start at once, the lowest waits about a busy phase, no
# inversion, a small release spread); a FIFO hog above the highest class
# on its CPU makes inversions about in proportion to its share, and the
# worst names the classes and CPUs; --fail-above=inversions=0 gates it;
# a run without real-time clients has "order": null and no order lines.
. "$(dirname "$0")/lib.sh"

OUT=$TMP/out
ERR=$TMP/err
J=$TMP/run.json

# --- bad input: one line, status 2, nothing run --------------------------------
# One case end to end; the others, and each one's message, are
# tests/unit_refuse.c's refuse_order_busy_slack_inversions.
for bad in "-c1:prio=80:busy=0"; do
	# shellcheck disable=SC2086
	run_latt "$OUT" "$ERR" $bad touch "$TMP/ran"
	if [ "$rc" -eq 2 ] && [ ! -s "$OUT" ] && [ ! -e "$TMP/ran" ] &&
	    [ "$(err_lines "$ERR")" -eq 1 ]; then
		pass "usage error: $bad: $(short "$ERR")"
	else
		fail "usage error: $bad: rc $rc, $(short "$ERR")"
	fi
	rm -f "$TMP/ran"
done

if ! two_cpus; then
	skip "order: the checks need two CPUs"
	exit 0
fi
RT=(-c1:prio=90:busy=5ms:name=hi -c1:prio=80:busy=5ms:name=mid
    -c1:prio=70:busy=5ms:name=lo)

# --- three FIFO classes, 5 ms busy phases, on 2 CPUs ------------------------------
# The two higher classes get a CPU each at once; the lowest waits for the
# first of them to finish its busy phase.  latt's parent is above them,
# so a round is released whole before any of them runs on its CPU.  A
# class run behind a lower one would wait a whole busy phase (5 ms); this
# shared VM's own hiccups reach 1-2 ms (a high class pinned beside the
# parent waits that long now and then), so the slack is half the phase.
# Other tests' real-time hogs (and RT throttling) can still hold a high
# class now and then: at most 2 inversions in some 80 rounds (a kernel
# that did not push the higher classes to a free CPU would invert in
# most rounds; the hog below makes 25%).
# Real-time tasks of others (other tests' hogs, their RT throttling) can
# hold a class for tens of ms: those seen while it runs are named, and the
# inversion checks left out (a skip) when there were any.
# A busy phase is turns calibrated at the start, and this shared VM's
# speed moves by up to 3x over tens of seconds (the quickest of 16 trials,
# taken every 100 ms for 20 s: 1.23 to 3.77 M turns a ms; a minute later
# 3.35 to 3.78), so a 5 ms phase can take under 2 ms: the phase is held
# to a quarter of its length, and the lowest class to half of the higher
# classes' own phases.
"$LATT" "${RT[@]}" --cpus="$c0,$c1" -f20 -t30 -d2 \
    --load=none --json="$J" --fail-above=inversions=2 --order-slack=2.5ms \
    --plot="$TMP/o.svg" --details >"$OUT" 2>"$ERR" &
lpid=$!
foreign=$(foreign_rt "$lpid")
wait "$lpid"
rc=$?
if [ -z "$foreign" ]; then
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	grep -q '^gate: met' "$ERR" || bad "no 'gate: met': $(short "$ERR")"
	grep -q '^order: [0-9]* rounds checked, [012] inversions\{0,1\} .*slack 2.5 ms$' \
	    "$OUT" || tbad "no order line with at most 2 inversions: $(grep -A4 '^order' "$OUT")"
	expect_json_timed "$J" \
	    "len(d['order']['worst']) == d['order']['inversions']" \
	    -- "d['order']['inversions'] <= 2" "d['order']['share'] <= 0.05"
else
	skip "three FIFO classes: the inversion count, with real-time tasks of others running: $foreign"
fi
grep -q '^  release spread: p50 ' "$OUT" || bad "no release spread line"
grep -q 'parent.*SCHED_FIFO 91' "$OUT" || bad "the parent is not FIFO 91"
# Timing relations: the judge (tests/judge.py) reads the run's own record
# when they fail.  Some 55 rounds in 2 s; 30 needed.
expect_json_timed "$J" "d['order']['slack_ns'] == 2500000" \
    "[c['name'] for c in d['classes']] == ['hi', 'mid', 'lo']" \
    "all(c['busy']['samples'] == c['latency']['samples'] for c in d['classes'])" \
    "d['order']['release_spread']['samples'] == d['run']['rounds']" \
    "d['runs'][0]['order']['rounds'] == d['order']['rounds']" \
    -- "d['order']['rounds'] >= 30" \
    "all(c['latency']['p50_ns'] < 1000000 for c in d['classes'][:2])" \
    "0.5 * min(c['busy']['p50_ns'] for c in d['classes'][:2]) < d['classes'][2]['latency']['p50_ns'] < 15000000" \
    "all(1250000 < c['busy']['min_ns'] for c in d['classes'][:2])" \
    "d['order']['release_spread']['p50_ns'] < 1000000" \
    "d['order']['release_spread']['max_ns'] < 5000000"
verdict_timed "three FIFO classes, busy 5 ms: $(grep -h '^order\|release' "$OUT" | tr '\n' ' ')" "$J" 90

# The plot: each class's samples as dots in its colour (one dot a sample),
# the highest priority drawn last (on top) and first in the legend.
python3 - "$TMP/o.svg" "$J" >"$TMP/plot.txt" 2>&1 <<'PY' ||
import json, re, sys
import xml.etree.ElementTree as E
ns = '{http://www.w3.org/2000/svg}'
t = E.parse(sys.argv[1])
d = json.load(open(sys.argv[2]))
dots = [p for p in t.iter(ns + 'path')
        if re.fullmatch(r'class-(hi|mid|lo)', p.get('id') or '')]
keys = [x.text for x in t.iter(ns + 'text')
        if (x.text or '').startswith('class ')]
print('dots drawn %s, legend %s' % ([p.get('id') for p in dots], keys))
if [p.get('id') for p in dots] != ['class-lo', 'class-mid', 'class-hi']:
    print('BAD the classes are not drawn lowest priority first')
if keys != ['class hi', 'class mid', 'class lo']:
    print('BAD the legend is not highest priority first')
for p, c in zip(dots, ['lo', 'mid', 'hi']):
    n = len(re.findall(r'[Mm]', p.get('d')))
    want = [k for k in d['classes'] if k['name'] == c][0]['latency']['samples']
    if not (0.5 * want <= n <= want):
        print('BAD class %s: %d dots for %d samples' % (c, n, want))
colours = {p.get('stroke') for p in dots}
if len(colours) != 3:
    print('BAD the classes share colours: %s' % colours)
PY
    echo "BAD the check failed: $(tail -n 1 "$TMP/plot.txt")" >>"$TMP/plot.txt"
verdict_from "plot: the 2007 figure" "$TMP/plot.txt"
no_leftovers "three FIFO classes"

# --- a known inversion: a FIFO hog above the highest class ----------------------
# hi is pinned to c1, where a hog at FIFO 95 spins 3 ms of every 10 ms; lo
# to c0 with latt's parent.  A round released while the hog spins lets lo
# start while hi waits for the rest of the hog's 3 ms: more than the
# 0.5 ms slack in some 25% of rounds (2.5 of every 10 ms).  A wait is the
# hog's 3 ms at most, and what a loaded host adds (up to 15 ms allowed).
if plain_only "known inversion and its compare (two runs of 3 x 0.8 s)"; then
	:
elif ! rt_room 3 10; then
	skip "known inversion: $rt_why"
elif ! start_hog "$c1" 3 10 30 95; then
	skip "known inversion: $hog_why"
else
	PINNED=(-c1:prio=90:busy=1ms:cpus="$c1":name=hi
	    -c1:prio=70:busy=1ms:cpus="$c0":name=lo --parent-cpu="$c0"
	    -f20 -t30 -d0.8 --repeat=3 --load=none)
	run_latt "$OUT" "$ERR" "${PINNED[@]}" --json="$J" \
	    --fail-above=inversions=0 --details
	stop_hog
	[ "$rc" -eq 3 ] || bad "exit $rc, want 3 (the gate): $(short "$ERR")"
	grep -q '^gate: exceeded: inversions [0-9]* > 0' "$ERR" ||
	    bad "no 'gate: exceeded: inversions': $(short "$ERR")"
	grep -q "^  round [0-9]* at [0-9.]* s: hi (client 0, CPU $c1) waited" \
	    "$OUT" || bad "the summary's worst does not name hi on CPU $c1"
	grep -q "after lo (client 1, CPU $c0) had started" "$OUT" ||
	    bad "the summary's worst does not name lo on CPU $c0"
	# Some 95 rounds in 3 x 0.8 s, 60 needed; the hog is the test's own.
	expect_json_timed "$J" "d['order']['slack_ns'] == 500000" \
	    "d['order']['inversions'] == d['order']['rounds_with_inversions']" \
	    "len(d['order']['worst']) == 5" \
	    "all(w['waiter'] == {'client': 0, 'class': 'hi', 'cpu': $c1} for w in d['order']['worst'])" \
	    "all(w['ran'] == {'client': 1, 'class': 'lo', 'cpu': $c0} for w in d['order']['worst'])" \
	    "all(500000 < w['held_ns'] <= w['waited_ns'] for w in d['order']['worst'])" \
	    "d['order']['worst'][0]['held_ns'] >= d['order']['worst'][-1]['held_ns']" \
	    -- "d['order']['rounds'] >= 60" \
	    "0.08 < d['order']['share'] < 0.5" \
	    "all(w['waited_ns'] < 15000000 for w in d['order']['worst'])"
	verdict_timed "hog at FIFO 95 on hi's CPU, 30%: $(grep -h '^order' "$OUT")" "$J" 40 1
	no_leftovers "known inversion"

	# latt compare: the same classes without the hog are better.
	cp "$J" "$TMP/hog.json"
	run_latt "$OUT" "$ERR" "${PINNED[@]}" --json="$TMP/quiet.json"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	timeout 60 "$LATT" compare "$TMP/quiet.json" "$TMP/hog.json" \
	    --json="$TMP/cmp.json" >"$OUT" 2>"$ERR"
	[ "$?" -eq 0 ] || bad "compare exited $?: $(short "$ERR")"
	grep -q '^inversions  *[0-9.]*% of [0-9]* *[0-9.]*% of [0-9]* *+[0-9.]* pt .*worse$' \
	    "$OUT" || tbad "no 'inversions ... worse' row: $(grep -A1 '^order' "$OUT" | tr '\n' '|')"
	# Worse holds when the run without the hog was left its CPUs (a
	# crowded machine's own real-time tasks invert its rounds too).
	expect_json_timed "$TMP/cmp.json" \
	    "d['comparisons'][0]['order']['b_rounds_with_inversions'] > 5" -- \
	    "d['comparisons'][0]['order']['verdict'] == 'worse'" \
	    "d['comparisons'][0]['order']['lo'] > 0"
	verdict_timed "compare: $(grep '^inversions' "$OUT")" "$TMP/quiet.json" 40

fi

# --- without real-time clients: no order ----------------------------------------
run_latt "$OUT" "$ERR" -c2 -f1 -t2 -d0.3 --load=none --json="$J"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
! grep -q '^order\|release spread' "$OUT" || bad "an order line without fifo"
expect_json "$J" "d['order'] is None" "d['runs'][0]['order'] is None" \
    "'busy' not in d and 'busy' not in d['runs'][0]"
verdict "no real-time clients: order null, no order lines"

# --- one priority: nothing to compare, and the gate cannot tell -----------------
run_latt "$OUT" "$ERR" -c2 --policy=fifo --prio=60 -f1 -t2 -d0.5 \
    --load=none --json="$J" --fail-above=inversions=0
[ "$rc" -eq 5 ] || bad "exit $rc, want 5 (cannot tell): $(short "$ERR")"
grep -q 'no round with two priorities' "$OUT" || bad "no 'no round' line"
expect_json "$J" "d['order']['rounds'] == 0" \
    "d['order']['single_priority_rounds'] > 100"
verdict "one priority: $(grep -h '^order' "$OUT")"

# --- a busy phase longer than the shortest delay: a warning, the run goes on --
run_latt "$OUT" "$ERR" -c1:prio=80:busy=3ms -c1:prio=60 -f1 -t2 -d0.5 \
    --load=none --json="$J"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$(nlines "$ERR")" -eq 1 ] || bad "$(nlines "$ERR") lines on stderr"
grep -q 'busy phase of 3 ms is longer than the shortest delay' "$ERR" ||
    bad "no warning: $(short "$ERR")"
expect_json "$J" "d['latency']['samples'] > 50" \
    "d['classes'][0]['busy']['samples'] > 25" "'busy' not in d['classes'][1]"
verdict "busy 3 ms against -f1: $(short "$ERR")"
no_leftovers "order"
