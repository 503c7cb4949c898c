#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A knob left as latt found it, whatever happens (issue 35): the guardian
# armed before latt's first write of the file; one latt a knob (a second
# refuses at once, naming the first's pid); a plain file written back
# byte for byte; a guardian that dies ends the sweep with the knob
# restored; another writer's value found at a run's end ends the sweep,
# and is left in place unless it is one of latt's; a long value cut in
# the error line; a failed restore said once.  A test-made file stands for the knob (and sched_rr_timeslice_ms
# for the lock of a /proc/sys file); each case costs a second or less.
#
# Usage: LATT=./latt bash tests/t_knobfaults.sh
. "$(dirname "$0")/lib.sh"

K=$TMP/knob
LIMIT=2000
[ -n "${LATT_SANITIZED:-}" ] && LIMIT=4000

# until_back FILE TEXT: waits up to LIMIT ms for FILE to hold TEXT (holds);
# sets $ms.
until_back() {
	local t0
	t0=$(usecs)
	until holds "$1" "$2"; do
		[ $(($(usecs) - t0)) -gt $((LIMIT * 1000)) ] && break
		sleep 0.02
	done
	ms=$((($(usecs) - t0) / 1000))
	holds "$1" "$2"
}

# ---------------------------------------------------------------------------
# (4) kill -9 while latt tries the values, before the first run: strace
# sends latt SIGKILL at its second ftruncate of the file (the first
# value, written; the first is the content's test).  Its guardian, armed
# before the first write, puts the content back.
if ! strace -qq -o /dev/null -e trace=write true 2>/dev/null; then
	skip "knob: kill -9 while the values are tried: no strace (or no ptrace) here"
else
	echo 7 >"$K"
	# (The shell's "Killed" line of strace, which dies as latt did, is
	# dropped.)
	(strace -qq -o /dev/null -P "$K" -e trace=ftruncate \
	    -e inject=ftruncate:signal=SIGKILL:when=2 \
	    env --default-signal "$LATT" -q -c1 -d0.1 --sweep="$K=1,2" \
	    >"$TMP/t.out" 2>"$TMP/t.err"; exit $?) 2>/dev/null
	rc=$?
	[ "$rc" -eq 137 ] || bad "status $rc, not SIGKILL's 137: $(short "$TMP/t.err")"
	until_back "$K" 7 || bad "the file holds '$(cat "$K")' $ms ms after the kill, not its '7'"
	verdict "knob: kill -9 while the values are tried, the guardian restored the file in $ms ms"
fi

# ---------------------------------------------------------------------------
# (3) One latt a knob: a second latt on the file refuses at once (status
# 2, one line naming the first's pid) and writes nothing; the first goes
# on.  A lock of a /proc/sys file (flock(1) holds it) refuses the same.
echo 7 >"$K"
env --default-signal "$LATT" -q -c2 -f1 -t3 --sweep="$K=1,2" 'sleep 30' \
    >"$TMP/a.out" 2>"$TMP/a.err" &
pid=$!
until_holds "$K" 1 10000 || bad "the file never held 1"
timed_latt "$TMP/b.out" "$TMP/b.err" -q -c1 -d0.1 --sweep="$K=3,4"
[ "$rc" -eq 2 ] || bad "the second latt: status $rc, want 2: $(short "$TMP/b.err")"
# Its lines: the warning of a file outside /proc/sys, and the refusal.
[ "$(grep -vc 'outside /proc/sys' "$TMP/b.err")" -eq 1 ] &&
    grep -q "another latt (pid $pid): one latt a knob" "$TMP/b.err" ||
	bad "not one line naming pid $pid: $(short "$TMP/b.err")"
[ "$ms" -lt 5000 ] || bad "it took $ms ms to refuse"
[ "$(cat "$K")" = 1 ] || bad "the file holds '$(cat "$K")' beside the first latt, not its 1"
signal_run $pid INT 20
[ "$rc" -eq 0 ] || bad "the first latt: status $rc: $(short "$TMP/a.err")"
holds "$K" 7 || bad "the file holds '$(cat "$K")' at the end, not its '7'"
verdict "knob: a second latt on the knob refused at once (status 2, pid named), the first restored it"
rr=/proc/sys/kernel/sched_rr_timeslice_ms
was=$(cat $rr)
on_exit "echo $was >$rr"
flock -n -o "$rr" sleep 5 &
fpid=$!
sleep 0.2
run_latt "$TMP/r.out" "$TMP/r.err" -q -c1 -d0.1 --sweep="$rr=$((was / 2)),$was"
[ "$rc" -eq 2 ] && grep -q "another latt (pid $fpid)" "$TMP/r.err" ||
	bad "status $rc: $(short "$TMP/r.err")"
kill $(pgrep -P $fpid) $fpid 2>/dev/null
wait $fpid 2>/dev/null
[ "$(cat $rr)" = "$was" ] || bad "sched_rr_timeslice_ms holds $(cat $rr), not $was"
verdict "knob: a /proc/sys knob locked by another process, status 2 naming it"
no_leftovers "knob: one latt a knob"

# ---------------------------------------------------------------------------
# (2) A plain file is written back byte for byte: two lines, one with a
# choice-like mark; a line of choices (a kernel file's rules are not a
# plain file's); an escape byte, which the summary's line shows escaped.
printf 'x = (1)\nkeep this line\n' >"$K.1"
printf 'always [madvise] never\n' >"$K.2"
printf '1\033[31m\n' >"$K.3"
for f in "$K.1" "$K.2" "$K.3"; do
	cp "$f" "$f.was"
	run_latt "$TMP/p.out" "$TMP/p.err" -q -c1 -d0.1 --sweep="$f=a,b" \
	    --json="$TMP/p.json"
	[ "$rc" -eq 0 ] || bad "$(basename "$f"): status $rc: $(short "$TMP/p.err")"
	cmp -s "$f" "$f.was" || bad "$(basename "$f") holds '$(tr '\n' '|' <"$f")', not '$(tr '\n' '|' <"$f.was")'"
done
expect_json "$TMP/p.json" '[r["knob"]["value"] for r in d["runs"]] == ["a", "b"]'
grep -qx "knob $K.3 restored: it holds 1\\\\x1b\[31m again, as before latt" \
    "$TMP/p.out" || bad "the escape byte's line: $(grep '^knob.*restored' "$TMP/p.out" | od -c | head -3 | tr '\n' ' ')"
verdict "knob: plain files restored byte for byte (two lines, a marked choice, an escape byte shown escaped)"

# ---------------------------------------------------------------------------
# (6) The guardian killed during the first run: the run ends at once, the
# file is restored, one line says so, status 1.
echo 7 >"$K"
env --default-signal "$LATT" -q -c2 -f1 -t3 --sweep="$K=1,2" 'sleep 30' \
    >"$TMP/g.out" 2>"$TMP/g.err" &
pid=$!
until_holds "$K" 1 10000 || bad "the file never held 1"
wait_started $pid || bad "the run did not start"
undo=$(pgrep -P $pid -x latt-undo)
T0=$(usecs)
[ -n "$undo" ] && kill -9 $undo || bad "no latt-undo child of latt"
wait_gone $pid 10
[ "$rc" -eq 1 ] || bad "status $rc, want 1: $(short "$TMP/g.err")"
holds "$K" 7 || bad "the file holds '$(cat "$K")', not its '7'"
grep -q "knob guardian (latt-undo) is gone: $K restored, the sweep ends" "$TMP/g.err" ||
	bad "no line: $(short "$TMP/g.err")"
verdict "knob: its guardian killed, latt restored the file and ended in $ms ms, status 1"
no_leftovers "knob: guardian killed"

# ---------------------------------------------------------------------------
# (7) Another writer changes the knob during run 1 (the workload itself
# writes it): the run is marked in the JSON and its line, the sweep ends
# with status 1 naming the run, its value and the value found.  A value
# latt never wrote is left; one of latt's values is put back to 7.
for other in 150 200; do
	echo 7 >"$K"
	run_latt "$TMP/w.out" "$TMP/w.err" -c1 -d5 --repeat=2 \
	    --sweep="$K=50,200" --json="$TMP/w.json" \
	    "echo $other >'$K'; sleep 0.1"
	[ "$rc" -eq 1 ] || bad "$other: status $rc, want 1: $(short "$TMP/w.err")"
	grep -q "sweep: $K was changed during run 1 (value 50): it holds $other; the sweep ends" \
	    "$TMP/w.err" || bad "$other: no line naming the run: $(short "$TMP/w.err")"
	grep -q "^run 1 of 4: .*; knob changed to $other\$" "$TMP/w.err" ||
		bad "$other: run 1's line is not marked: $(short "$TMP/w.err")"
	expect_json "$TMP/w.json" "[r['run'].get('knob_changed_to') for r in d['runs']] == ['$other']"
	if [ "$other" = 150 ]; then
		holds "$K" 150 || bad "the other writer's 150 became '$(cat "$K")'"
		grep -q "sweep: $K holds 150, not a value latt wrote: left as another writer set it" \
		    "$TMP/w.err" || bad "150 left without a word: $(short "$TMP/w.err")"
		grep -q "knob $K left at another writer's value (before latt: 7)" "$TMP/w.out" ||
			bad "the summary does not say 150 was left: $(short "$TMP/w.out")"
	else
		holds "$K" 7 || bad "latt's 200 was not put back to 7: '$(cat "$K")'"
	fi
done
verdict "knob: another writer's value ends the sweep, marked; left unless latt's"
no_leftovers "knob: another writer"

# ---------------------------------------------------------------------------
# (13) A 5,000-byte value is cut in its line; a restore that fails (the
# file removed during the run) is said once.
echo 7 >"$K"
run_latt "$TMP/l.out" "$TMP/l.err" -d1 --sweep="$K=1,$(head -c 5000 /dev/zero | tr '\0' a)"
[ "$rc" -eq 2 ] && [ "$(head -n 1 "$TMP/l.err" | wc -c)" -lt 200 ] ||
	bad "status $rc, a line of $(head -n 1 "$TMP/l.err" | wc -c) bytes"
env --default-signal "$LATT" -q -c2 -f1 -t3 -d0.5 --sweep="$K=1,2" \
    >"$TMP/u.out" 2>"$TMP/u.err" &
pid=$!
until_holds "$K" 1 10000 || bad "the file never held 1"
rm -f "$K"
T0=$(usecs)
wait_gone $pid 10
[ "$rc" -eq 1 ] || bad "status $rc, want 1: $(short "$TMP/u.err")"
[ "$(grep -c 'could not be restored' "$TMP/u.err")" -eq 1 ] &&
    [ "$(grep -vc '^latt: ' "$TMP/u.err")" -eq 0 ] ||
	bad "'could not be restored' $(grep -c 'could not be restored' "$TMP/u.err") times, or a line cut: $(short "$TMP/u.err")"
verdict "knob: a long value cut in its line; a failed restore said once"
no_leftovers "knob: small defects"
