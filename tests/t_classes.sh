#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Client classes (-c N:ATTR=VALUE...): impossible classes are usage errors
# before any client is forked, refused ones name the cause, a slice class
# and a deadline class are set and read back, the per-class counts add up
# to Entries while the 2009 block keeps its shape, and nice -10 wakes
# faster than nice 19 under a cpu load.
. "$(dirname "$0")/lib.sh"

OUT=$TMP/out
ERR=$TMP/err

# --- impossible classes: one line, status 2, nothing run --------------------
# One case end to end; the others, and each one's message, are
# tests/unit_refuse.c's refuse_classes.
run_latt "$OUT" "$ERR" -c1:runtime=2ms:period=1ms touch "$TMP/ran"
[ "$rc" -eq 2 ] && [ ! -s "$OUT" ] && [ ! -e "$TMP/ran" ] &&
    [ "$(err_lines "$ERR")" -eq 1 ] || bad "rc $rc, $(short "$ERR")"
grep -q 'runtime (2000 us) is above the period (1000 us)' "$ERR" ||
    bad "the message does not say runtime above period: $(short "$ERR")"
verdict "usage error: a deadline runtime above its period is named"

# --- refused by the kernel or the limits: status 2 before any fork ------------
# The probe tries every class in a throw-away child; no client is forked
# and the workload never runs (it would create $TMP/ran).
# refused NAME PATTERN ARGS...: latt ARGS, or with PRE=(setpriv ...) in
# front of it.
PRE=()
refused() {
	local name=$1 pat=$2
	shift 2
	timeout -k 5 60 "${PRE[@]}" "$LATT" "$@" touch "$TMP/ran" >"$OUT" 2>"$ERR"
	rc=$?
	[ "$rc" -eq 2 ] || bad "exit $rc, want 2"
	[ ! -s "$OUT" ] || bad "something ran: $(short "$OUT")"
	[ ! -e "$TMP/ran" ] || bad "the workload ran"
	[ "$(err_lines "$ERR")" -eq 1 ] || bad "$(nlines "$ERR") lines on stderr"
	grep -q "$pat" "$ERR" || bad "stderr does not say '$pat': $(short "$ERR")"
	verdict "$name: $(short "$ERR")"
	rm -f "$TMP/ran"
	no_leftovers "$name"
}
refused "a slice below the kernel's minimum" "below the kernel's minimum" \
    -c1:slice=50us -c1
refused "a slice above the kernel's maximum" "above the kernel's maximum" \
    -c1:slice=200ms
ncpu=$(nproc)
refused "deadline admission control" "admission control" \
    -c$((ncpu + 1)):policy=deadline:runtime=990ms:period=1s
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice true 2>/dev/null &&
    [ "$(ulimit -r)" = 0 ]; then
	PRE=(setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice)
	refused "a refused real-time class names RLIMIT_RTPRIO" RLIMIT_RTPRIO \
	    -c1 -c1:policy=fifo:prio=50
	refused "a refused deadline class names CAP_SYS_NICE" CAP_SYS_NICE \
	    -c1:policy=deadline:runtime=100us:period=1ms
	PRE=()
else
	skip "refused real-time and deadline classes: needs setpriv, a droppable CAP_SYS_NICE and ulimit -r 0"
fi

# --- a slice class and a deadline class, set and read back --------------------
# The workload reads the clients' attributes back with chrt, apart from
# latt; latt's own read-back is in the summary and the JSON.  The clients
# have their attributes before the workload starts; the run ends when the
# workload does, half a second after its look (with -d 1 a loaded machine
# could end the run before the look was done).
if ! command -v chrt >/dev/null 2>&1; then
	skip "slice and deadline classes: chrt is not installed"
else
	look='for t in /proc/$PPID/task/*/children; do for c in $(cat $t); do [ $c = $$ ] || { printf "client %s " $c; grep -E "^(policy|se.slice) " /proc/$c/sched | tr -s " " | tr "\n" " "; chrt -p $c | grep -o "parameters: .*"; echo; }; done; done; sleep 0.5'
	run_latt "$OUT" "$ERR" -c1:slice=100us:name=fast \
	    -c1:policy=deadline:runtime=100us:deadline=1ms:period=2ms:name=dl \
	    -c1:name=plain -f1 -t3 --details --json="$TMP/r.json" sh -c "$look"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	grep -q '^client .*policy : 0 se.slice : 100000 ' "$OUT" ||
	    bad "no client with a 100 us slice in /proc: $(grep ^client "$OUT" | tr '\n' '|')"
	grep -q '^client .*policy : 6 .*parameters: 100000/1000000/2000000' "$OUT" ||
	    bad "no deadline client 100000/1000000/2000000: $(grep ^client "$OUT" | tr '\n' '|')"
	grep -qx $'\tkernel\t *fast: other, nice 0, slice 100 us' "$OUT" ||
	    bad "read back of fast: '$(grep $'^\tkernel\t *fast:' "$OUT")'"
	grep -qx $'\tkernel\t *dl: deadline, runtime 100 us, deadline 1 ms, period 2 ms' "$OUT" ||
	    bad "read back of dl: '$(grep $'^\tkernel\t *dl:' "$OUT")'"
	python3 - "$TMP/r.json" >"$TMP/py" 2>&1 <<'EOF' || bad "JSON: $(short "$TMP/py")"
import json, sys
d = json.load(open(sys.argv[1]))
c = {k["name"]: k for k in d["classes"]}
assert list(c) == ["fast", "dl", "plain"], list(c)
assert c["fast"]["kernel"]["slice_ns"] == 100000, c["fast"]["kernel"]
assert c["fast"]["requested"]["slice_ns"] == 100000
k = c["dl"]["kernel"]
assert (k["policy"], k["runtime_ns"], k["deadline_ns"], k["period_ns"]) == \
    ("deadline", 100000, 1000000, 2000000), k
assert c["plain"]["kernel"]["policy"] == "other"
assert c["plain"]["kernel"]["slice_ns"] > 0
s = d["environment"]["scheduler_detail"]
assert s["fair"] in ("EEVDF", "CFS") and "sched_ext" in s, s
assert d["environment"]["scheduler"] in ("fair", "sched_ext: " + str(
    (s["sched_ext"] or {}).get("ops"))), d["environment"]["scheduler"]
assert sum(k["latency"]["samples"] for k in d["classes"]) == \
    d["latency"]["samples"]
EOF
	verdict "a slice class and a deadline class are accepted and read back (chrt, summary, JSON)"
	no_leftovers "slice and deadline classes"
fi

# --- the 2009 block keeps its shape; the classes add up to Entries -----------
shape() {	# the first six lines with the figures blanked
	head -n 6 "$1" | sed -E 's/ *[0-9]+/N/g'
}
run_latt "$OUT" "$ERR" -c2 -d 0.5 -f1 -t3 --load=none --details \
    --json="$TMP/plain.json"
[ "$rc" -eq 0 ] || bad "plain: exit $rc: $(short "$ERR")"
shape "$OUT" >"$TMP/shape.plain"
grep -q $'^\tclass\t' "$OUT" && bad "a plain -c2 run has a class"
expect_json "$TMP/plain.json" 'd["classes"] == []'
run_latt "$OUT" "$ERR" -c2:nice=5:name=a -c1:name=b -c3 -d 0.5 -f1 -t3 --load=none \
    --details --plot="$TMP/c.svg"
[ "$rc" -eq 0 ] || bad "classes: exit $rc: $(short "$ERR")"
# The plot: a percentile curve per class, each in its own colour, and the
# classes named in the legend.
python3 - "$TMP/c.svg" >"$TMP/py" 2>&1 <<'EOF2' || bad "plot: $(short "$TMP/py")"
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
paths = {p.getAttribute("id"): p for p in d.getElementsByTagName("path")}
cols = set()
for k in range(3):
    p = paths["class-%d-percentiles" % k]
    assert p.getAttribute("d").startswith("M"), k
    cols.add(p.getAttribute("stroke"))
assert len(cols) == 3, cols
names = [t.firstChild.data for t in d.getElementsByTagName("text")
         if t.getAttribute("class") == "class"]
assert names == ["class a", "class b", "class default"], names
EOF2
shape "$OUT" >"$TMP/shape.classes"
cmp -s "$TMP/shape.plain" "$TMP/shape.classes" ||
    bad "the 2009 block differs: $(tr '\n' '|' <"$TMP/shape.classes")"
n=$(entries "$OUT" 6)
sum=0
for c in a b default; do
	v=$(field "$OUT" "$c samples")
	[ -n "$v" ] || bad "no '$c samples' line"
	sum=$((sum + ${v:-0}))
done
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$sum" -eq "$n" ] ||
    bad "class samples add up to $sum, Entries is '$n'"
[ "$(grep -c $'^\tclass\t' "$OUT")" -eq 3 ] || bad "not three classes"
verdict "classes: the 2009 block keeps its shape, the class counts add up to Entries ($sum), a plot colour per class"

# Two plain -c options are two classes; one plain -c is none.
run_latt "$OUT" "$ERR" -c1 -c2 -d 0.5 -f5 -t10 --load=none --details
grep -q $'^\tclass\t *default-2: ' "$OUT" && [ "$(entries "$OUT" 3)" -gt 0 ] ||
    bad "two plain -c: $(grep $'^\tclass' "$OUT" | tr '\n' '|') $(short "$ERR")"
verdict "-c1 -c2 are two classes of 3 clients in all"

# --- compare: rows per class ------------------------------------------------
# Three short runs with two classes, two against one: every class gets its
# rows under its name, and a gate can name a class.
run_latt "$OUT" "$ERR" -c1:name=fast:slice=100us -c1 -d 0.5 -f1 -t3 --load=none \
    --repeat=3 --json="$TMP/cmp.json"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
python3 - "$TMP/cmp.json" >"$TMP/py" 2>&1 <<'EOF2' || bad "JSON runs: $(short "$TMP/py")"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["runs"]) == 3
for r in d["runs"]:
    names = [c["name"] for c in r["classes"]]
    assert names == ["fast", "default"], names
    assert sum(c["latency"]["samples"] for c in r["classes"]) == \
        r["latency"]["samples"]
    assert all("blocks" not in c["latency"] for c in r["classes"])
EOF2
# Two sides of the three runs (A the first two, B the third): a run
# counts once.
python3 - "$TMP/cmp.json" "$TMP" >"$TMP/py" 2>&1 <<'EOF2' || bad "split: $(short "$TMP/py")"
import json, sys
d = json.load(open(sys.argv[1]))
for name, runs in (("cmpa", d["runs"][:2]), ("cmpb", d["runs"][2:])):
    e = dict(d, runs=runs, nruns=len(runs))
    json.dump(e, open("%s/%s.json" % (sys.argv[2], name), "w"))
EOF2
timeout 60 "$LATT" compare --all --fail-if-worse=fast.p50=5% "$TMP/cmpa.json" \
    "$TMP/cmpb.json" >"$OUT" 2>"$ERR"
rc=$?
# A gate on 2 runs against 1 cannot tell.
[ "$rc" -eq 5 ] || bad "compare exit $rc, want 5: $(short "$ERR")"
# has_row SERIES STAT [VALUE]: a row of STAT under SERIES' head (whose
# A matches VALUE).
has_row() {
	awk -v s="$1" -v r="$2" -v v="${3:-.}" '$1 == s && / A us / { on = 1; next }
	    on && (/^$/ || /^\+-/) { on = 0 }
	    on && $1 == r && $2 ~ v { found = 1 } END { exit !found }' "$OUT"
}
for r in "fast p50" "fast mean" "default mean" "default max" "timer p50"; do
	has_row $r '^[0-9]' || bad "no row '$r' with a value: $(short "$OUT")"
done
has_row fast p99 || bad "no row 'fast p99'"
grep -Eq '^gate: cannot tell: fast\.p50 \([AB] has [12] runs?, ' "$ERR" ||
    bad "the gate did not find the class: $(short "$ERR")"
verdict "compare: rows per class (fast p50, default max ...), a gate on fast.p50"

# --- nice -10 against nice 19 under a cpu load --------------------------------
# Measured here: the nice 19 class's median is 1.5 to 2.4 times the nice
# -10 class's (and its p90 up to 190 times).  Asserted: at least 1.2 times,
# in one of two runs (the machine is shared); when neither, a timing
# relation the judge decides from the last run's own record (the test's
# own: the load's spinner a CPU).
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "nice classes: timing relation, not under the sanitizer"
else
	for try in 1 2; do
		run_latt "$OUT" "$ERR" -c2:nice=-10:name=hi -c2:nice=19:name=lo \
		    --load=cpu -d 2 -f1 -t3 --json="$TMP/nice.json"
		hi=$(field "$OUT" "hi p50")
		lo=$(field "$OUT" "lo p50")
		[ "$rc" -eq 0 ] && [ -n "$hi" ] && [ -n "$lo" ] &&
		    awk -v h="$hi" -v l="$lo" 'BEGIN { exit !(l > 1.2 * h) }' &&
		    break
	done
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	[ -n "$hi" ] && [ -n "$lo" ] || tbad "no p50 of a class: '$hi', '$lo'"
	awk -v h="$hi" -v l="$lo" 'BEGIN { exit !(l > 1.2 * h) }' ||
	    tbad "nice 19 p50 $lo us is not above 1.2 x nice -10 p50 $hi us"
	verdict_timed "under --load=cpu, nice -10 p50 $hi us < nice 19 p50 $lo us (try $try)" \
	    "$TMP/nice.json" 80 "$(nproc)"
	no_leftovers "nice classes"
fi
