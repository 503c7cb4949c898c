#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# latt compare: run-level verdicts (worse or better, noise, cannot tell
# with the reason), the calibration over synthetic runs
# (tests/calib_compare.c), the table for a reader (72 columns, latency
# rows unless --all, spreads, bounded intervals, warnings in sentences),
# the gate's rule (met, exceeded: 3, cannot tell: 5, one gate: line),
# --json, options anywhere, a run counted once, files without commas,
# zeros, schema 1 files, bounded memory, strict refusal of malformed,
# truncated and foreign files (one end-to-end: the shapes are
# tests/unit_json.c's), and real runs.  The statistics on fixed inputs,
# the gate's rule and line, the table's figures and --fail-if-worse's
# parser are tests/unit_compare.c's.  The result files come from
# tests/mkresult.py (a known model, fixed seeds: every interval below is
# the same on every run), not from latt's own writer, except for the real
# runs at the end.
. "$(dirname "$0")/lib.sh"

python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/a.json --n 4000 --seeds 1,2,3,4,5 --timer
$TMP/a2.json --n 4000 --seeds 11,12,13,14,15 --timer
$TMP/b.json --n 4000 --seeds 21,22,23,24,25 --timer --scale 1.2 --set 'environment.kernel_release="6.18.44"'
$TMP/a1.json --n 4000 --seeds 31 --timer
$TMP/esc.json --n 4000 --seeds 33 --set 'environment.kernel_release="6.1\\u001b[31m"'
$TMP/c1.json --n 4000 --seeds 32 --timer --scale 1.5
$TMP/v1.json --schema 1 --sub-bits 7 --seeds 1 --timer
$TMP/v1b.json --schema 1 --sub-bits 7 --seeds 2 --timer
$TMP/v1c.json --schema 1 --sub-bits 7 --seeds 3 --timer
$TMP/f1.json --n 240 --seeds 7 --timer --clients 4 --sub-bits 7
$TMP/f2.json --schema 1 --n 50 --sub-bits 3 --seeds 9
$TMP/z1.json --n 2000 --seeds 51,52,53,54 --median 1.2 --sigma 1 --run-sd 0.4
$TMP/z2.json --n 2000 --seeds 61,62,63,64 --median 1.2 --sigma 1 --run-sd 0.4
$TMP/z3.json --n 2000 --seeds 81,82,83 --median 0.3 --sigma 0.5
$TMP/z4.json --n 2000 --seeds 91,92,93 --median 0.3 --sigma 0.5
$TMP/s1.json --n 4000 --seeds 71
$TMP/s2.json --n 4000 --seeds 72
$TMP/s3.json --n 4000 --seeds 73
$TMP/s4.json --n 4000 --seeds 74 --scale 1.2
$TMP/s5.json --n 4000 --seeds 75 --scale 1.2
$TMP/s6.json --n 4000 --seeds 76 --scale 1.2
$TMP/small.json --n 100 --seeds 31 --timer
$TMP/ka.json --n 2000 --seeds 101,102,103
$TMP/kb.json --n 2000 --seeds 104,105,106
$TMP/k1a.json --n 2000 --seeds 107
$TMP/k1b.json --n 2000 --seeds 108
$TMP/fast.json --median 100 --sigma 0.1 --seeds 1,2,3 --n 2000
EOF

# The table's columns (print_row in compare.c): the row's label is the
# first word, the change ends at column 42, the interval is columns 45-60
# and the verdict starts at column 62.
# row FILE LABEL: the row of LABEL in the first table of FILE.
row() { awk -v l="$2" '$1 == l && !seen[l]++' "$1" | head -n 1; }
verdict_of() { row "$1" "$2" | cut -c62-; }
interval_of() { row "$1" "$2" | cut -c45-60 | sed 's/ *$//'; }
# section FILE NAME: the rows under the head of series NAME.
section() {
	awk -v s="$2" '$1 == s && / A us / { on = 1; next }
	    on && (/^$/ || / A us / || /^\+-/) { on = 0 } on' "$1"
}
# unwrap FILE: continuation lines (four spaces) joined to their line.
unwrap() {
	awk '/^    [^ ]/ { sub(/^    /, " "); printf "%s", $0; next }
	    NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$1"
}
# wide FILE: the lines beyond 72 columns, but for the files of the sides.
wide() { awk 'length > 72 && !/^[A-Z]: /' "$1"; }

# --- The calibration ------------------------------------------------------
cal=build/calib_compare
[ -n "${LATT_SANITIZED:-}" ] && cal=build/san/calib_compare
if [ ! -x "$cal" ]; then
	skip "calibration: $cal not built (make check builds it)"
else
	"$cal" >"$TMP/cal.out" 2>&1; crc=$?
	check "calibration: the program ran (rc $crc)" [ "$crc" -eq 0 ]
	awk '/^row /' "$TMP/cal.out" >"$TMP/cal.rows"
	check "calibration: seven rows" [ "$(wc -l <"$TMP/cal.rows")" -eq 7 ]
	# At 97.5% a row is called different in 2.5% of A against A, by
	# design; 300 comparisons hold that within 5% (2.8 sd).
	bad=$(awk '$4 > 0.05 || $6 > 0.05' "$TMP/cal.rows")
	check "calibration: A vs A called real in at most 5% per row (97.5%), 3 and 5 runs a side ($(awk '{printf "%s %s/%s ", $2, $4, $6}' "$TMP/cal.rows"))" \
	    [ -z "$bad" ]
	bad=$(awk '($2 == "mean" || $2 == "p50" || $2 == "p90" || $2 == "p95") && $8 < 0.90' "$TMP/cal.rows")
	check "calibration: a 20% shift found in at least 90% with 5 runs a side, mean to p95 ($(awk '{printf "%s %s ", $2, $8}' "$TMP/cal.rows"))" \
	    [ -z "$bad" ]
fi

# --- Verdicts and the table ---------------------------------------------------
# Three files of five runs each, without commas: three sides.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/a2.json" \
	"$TMP/b.json"
check "compare: three files of 5 runs are three sides, exit 0 (rc $rc)" \
	[ "$rc" -eq 0 ]
check "compare: nothing on stderr" [ ! -s "$TMP/err" ]
check "compare: one table per later side" \
	[ "$(grep -c '^A: ' "$TMP/out")" -eq 2 ]
check "compare: the runs of one file count (5 runs)" \
	grep -q '^A: .*a.json (5 runs, 20000 samples)' "$TMP/out"
ok=1
for l in mean p50 p90 p95 p99 max; do
	v=$(verdict_of "$TMP/out" "$l")
	case $v in noise|"cannot tell") ;; *) ok=0; echo "  $l: $v" ;; esac
done
check "compare: the same model, other runs: noise or cannot tell, never worse or better (mean..p99, max)" [ $ok -eq 1 ]
check "compare: a row too wide to call noise says how many runs would tell" \
	grep -Eq '^more runs: to resolve 10% ' "$TMP/out"

awk '/^C: /{c=1} c' "$TMP/out" >"$TMP/outc"
ok=1
for l in mean p50 p90 p95 p99; do
	r=$(row "$TMP/outc" "$l")
	ch=$(cut -c35-42 <<<"$r" | tr -d ' %+')
	lo=$(interval_of "$TMP/outc" "$l" | sed -E 's/^\[([-+0-9.]+)%, .*/\1/')
	hi=$(interval_of "$TMP/outc" "$l" | sed -E 's/.*, ([-+0-9.]+)%\]$/\1/')
	if [ "$(verdict_of "$TMP/outc" "$l")" != worse ] ||
	    ! awk -v c="$ch" -v lo="$lo" -v hi="$hi" 'BEGIN {
		exit !(c > 10 && c < 30 && lo <= 20 && hi >= 20 && lo > 0) }'; then
		ok=0
		echo "  $r"
	fi
done
check "compare: +20% is worse (a real difference), 20% within the interval" [ $ok -eq 1 ]
check "compare: the spread of the runs beside each value (mean: A 5%, C 6%)" \
	grep -Eq '^mean +23\.13 +5% +27\.49 +6% ' "$TMP/outc"
check "compare: latency rows only by default (no timer rows)" \
	sh -c "! grep -q '^timer ' '$TMP/out'"
check "compare: kernels shown" grep -q '^kernel C: 6.18.44 ' "$TMP/outc"
"$LATT" compare "$TMP/esc.json" "$TMP/a1.json" >"$TMP/esc.out" 2>&1
check "compare: a control byte of a file's kernel is shown escaped" \
	grep -qx 'kernel A: 6.1\\x1b\[31m #1 SMP' "$TMP/esc.out"
check "compare: a kernel difference warns in a sentence" \
	grep -qx 'warning: the kernel release differs: A 6.1.0-test, C 6.18.44.' \
	"$TMP/outc"
check "compare: the same settings give no warning" \
	sh -c "! awk '/^C: /{exit} 1' '$TMP/out' | grep -q '^warning:'"
check "compare: the default table fits 72 columns ($(wide "$TMP/out" | head -n 1))" \
	[ -z "$(wide "$TMP/out")" ]

run_latt "$TMP/out" "$TMP/err" compare --all "$TMP/a.json" "$TMP/b.json"
section "$TMP/out" timer >"$TMP/timer"
check "--all: the timer's rows under their head (mean..max: $(awk '{printf "%s ", $1}' "$TMP/timer"))" \
	[ "$(awk '{printf "%s ", $1}' "$TMP/timer")" = "mean p50 p90 p95 p99 p99.9 max " ]
check "--all: the timer's p50 is worse (+31%)" \
	grep -Eq '^p50 +9\.251 .* \+30\.6% .* worse$' "$TMP/timer"
check "--all: the rows without a verdict say why below the table" \
	grep -qx 'cannot tell: timer p99: a run of A has 500 samples, p99 needs 1000.' \
	"$TMP/out"
check "--all: fits 72 columns too ($(wide "$TMP/out" | head -n 1))" \
	[ -z "$(wide "$TMP/out")" ]

# Too little evidence is said plainly, and a gate cannot tell on it.
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=p99=10%,mean=10% \
	"$TMP/a1.json" "$TMP/c1.json"
check "one run a side: a gate cannot tell, exit 5 (rc $rc)" [ "$rc" -eq 5 ]
check "one run a side: every row cannot tell" awk '
	/^(mean|p50|p90|p95|p99|p99\.9|max) / { n++
	    if (substr($0, 62) != "cannot tell") bad++ }
	END { exit !(n == 7 && bad == 0) }' "$TMP/out"
check "one run a side: one sentence gives the reason for all rows" \
	grep -qx 'cannot tell: mean, p50, p90, p95, p99, p99.9, max: A has 1 run, a verdict needs 3 a side.' \
	<(unwrap "$TMP/out")
check "one run a side: the gate line says why it cannot tell ($(short "$TMP/err"))" \
	grep -qx 'gate: cannot tell (2 limits: 0 exceeded, 2 cannot tell, 0 met)|  cannot tell  mean (A has 1 run, a verdict needs 3 a side)|  cannot tell  p99 (A has 1 run, a verdict needs 3 a side)|' \
	<(tr '\n' '|' <"$TMP/err")
check "one run a side: a warning names the runs needed" \
	grep -q '^warning: A has 1 run: verdicts need 3 a side' "$TMP/out"
check "one run a side: the table with its reasons fits 72 columns" \
	[ -z "$(wide "$TMP/out")" ]
# Few samples (p99 cannot tell, naming what it needs; p50 still has a
# verdict): tests/unit_compare.c.
run_latt "$TMP/out" "$TMP/err" compare \
	"$TMP/v1.json,$TMP/v1b.json,$TMP/v1c.json" "$TMP/a.json"
check "schema 1 files are read (rc $rc)" [ "$rc" -eq 0 ]
ci=$(interval_of "$TMP/out" mean)
check "schema 1 files: judged by their runs, no blocks needed (mean $ci)" \
	sh -c "[ '$ci' != - ] && ! grep -q blocks '$TMP/out'"

# --- Zeros ----------------------------------------------------------------------
# p50 is 0 in one run of A (a runqueue wait's often is): 0 stays 0, and
# the row has no ratio to test (latt 1.0 took it as 1 ns and gave it an
# interval).
run_latt "$TMP/out" "$TMP/err" compare "$TMP/z1.json" "$TMP/z2.json" \
	--fail-if-worse=p50=10%
check "zero: p50 shown as 0 on both sides, no change, no interval ($(row "$TMP/out" p50))" \
	grep -Eq '^p50 +0 +0 +- +- +cannot tell$' "$TMP/out"
check "zero: the reason names the runs" \
	grep -qx "cannot tell: p50: p50 is 0 in 1 of A's 4 runs: no ratio to 0." \
	"$TMP/out"
check "zero: a gate on it cannot tell (rc $rc)" [ "$rc" -eq 5 ]
run_latt "$TMP/out" "$TMP/err" compare "$TMP/z3.json" "$TMP/z4.json"
check "zero: 0 in every run of both sides is noise, no change ($(row "$TMP/out" p50))" \
	grep -Eq '^p50 +0 +0 +\+0\.0% +\[\+0\.0%, \+0\.0%\] +noise$' "$TMP/out"

# --- The gate: decided from the row's interval ---------------------------------
# a against b (+20%): p50's interval is [+8.4%, +29%] (97.5%), p99.9's is
# none.
# The regex matches stderr's lines joined by '|': a gate line, then with
# several limits a line for each limit not met; every line in 80 columns.
gate_case() {	# name rc 'gate lines regex' compare-args...
	local name=$1 want=$2 re=$3
	shift 3
	run_latt "$TMP/out" "$TMP/err" compare "$@"
	[ "$rc" -eq "$want" ] || bad "exit $rc, want $want"
	awk 'length > 80 { n++ } END { exit n > 0 }' "$TMP/err" ||
	    bad "a line over 80 columns: $(short "$TMP/err")"
	tr '\n' '|' <"$TMP/err" | sed 's/|$//' | grep -Eqx -- "$re" ||
	    bad "gate lines: $(short "$TMP/err")"
	grep -q '^gate' "$TMP/out" && bad "a gate line on stdout"
	verdict "gate: $name"
}
A=$TMP/a.json B=$TMP/b.json
gate_case "p50=5% below the interval [+8.4%, +29%]: exceeded, 3" 3 \
	'gate: exceeded: p50 \+18\.4% > 5% \(interval \[\+8\.4%, \+29%\]\)' \
	"$A" "$B" --fail-if-worse=p50=5%
gate_case "p50=40%,mean=40% above the intervals: met, 0" 0 \
	'gate: met \(2 limits\)' "$A" "$B" --fail-if-worse=p50=40%,mean=40%
gate_case "p50=20% inside the interval: cannot tell, 5" 5 \
	'gate: cannot tell: p50 \(interval \[\+8\.4%, \+29%\] holds 20%\)' \
	"$A" --fail-if-worse=p50=20% "$B"
gate_case "exceeded outranks cannot tell (p50=5%, p99.9=1%): 3" 3 \
	'gate: exceeded \(2 limits: 1 exceeded, 1 cannot tell, 0 met\)\|  exceeded     p50 [^|]*\|  cannot tell  p99\.9 [^|]*' \
	"$A" "$B" --fail-if-worse=p50=5%,p99.9=1%
gate_case "timer.p90=10% below [+18%, +42%]: exceeded, 3" 3 \
	'gate: exceeded: timer\.p90 \+29\.[0-9]% > 10% .*' \
	--fail-if-worse=timer.p90=10% "$A" "$B"
check "gate: a row it names is in the table without --all" \
	grep -q '^p90 ' <(section "$TMP/out" timer)
gate_case "the same model, 15%-20% limits: met, 0" 0 \
	'gate: met \(3 limits\)' "$A" "$TMP/a2.json" \
	--fail-if-worse=mean=15%,p50=15%,p99=20%
gate_case "noise cannot meet a 1% limit: cannot tell, 5" 5 \
	'gate: cannot tell \(2 limits: 0 exceeded, 2 cannot tell, 0 met\)\|  cannot tell  mean \(interval [^|]* holds 1%\)\|  cannot tell  p50 [^|]*' \
	"$A" "$TMP/a2.json" --fail-if-worse=mean=1%,p50=1%
gate_case "a series one side lacks: cannot tell, 5" 5 \
	'gate: cannot tell: timer\.p99 \(no timer series in every run of A and B\)' \
	--fail-if-worse=timer.p99=5% "$A" "$TMP/f2.json"
gate_case "two later sides: each named" 3 \
	'gate: exceeded \(2 limits on 2 sides: 1 exceeded, 1 cannot tell, 0 met\)\|  exceeded     C p50 [^|]*\|  cannot tell  [^|]*' \
	"$A" "$TMP/a2.json" "$B" --fail-if-worse=p50=5%
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=min=50%,stdev=50% \
	"$A" "$TMP/a2.json"
check "gate: min and stdev add their rows" \
	sh -c "grep -q '^min ' '$TMP/out' && grep -q '^stdev ' '$TMP/out'"
run_latt "$TMP/out" "$TMP/err" compare "$A" "$B"
check "no gate: no gate line, exit 0 (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q gate '$TMP/err' '$TMP/out'"

# --- --json: every row, as data --------------------------------------------------
run_latt "$TMP/out" "$TMP/err" compare "$A" "$B" --json \
	--fail-if-worse=p50=5%,p99.9=1%
check "--json: exits 3 like the text (rc $rc)" [ "$rc" -eq 3 ]
check "--json: the gate lines on stderr too" grep -q '^  exceeded     p50' "$TMP/err"
run_latt "$TMP/txt" "$TMP/err" compare "$A" "$B" --all \
	--fail-if-worse=p50=5%,p99.9=1%
cat >"$TMP/j.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
c = d["comparisons"][0]
rows = c["rows"]
assert d["compare_version"] == 3 and d["sides"][0]["runs"] == 5
assert d["gate"] == "exceeded" and d["gate_failed"] is True, d["gate"]
assert c["gate_failed"] is True
assert [r["row"] for r in rows][:7] == ["mean", "p50", "p90", "p95", "p99",
                                        "p99.9", "max"], rows
assert sum(r["series"] == "timer" for r in rows) == 7, "the timer rows"
sect = None
stats = ("mean", "p50", "p90", "p95", "p99", "p99.9", "max")
for l in text:
    if " A us " in l:
        sect = l.split()[0]
    elif sect and l[:6].strip() in stats:
        r = [x for x in rows if x["series"] == sect and
             x["stat"] == l[:6].strip()][0]
        assert l[61:] == r["verdict"], (r, l)
        if r["change_pct"] is not None:
            assert l[34:42].strip() == "%+.1f%%" % r["change_pct"], (r, l)
p50 = [r for r in rows if r["row"] == "p50"][0]
assert p50["gate"] == "exceeded" and p50["limit_pct"] == 5
assert p50["verdict"] == "worse"
p999 = [r for r in rows if r["row"] == "p99.9"][0]
assert p999["gate"] == "cannot tell" and p999["verdict"] == "cannot tell"
# One vocabulary: the JSON's words are the table's, the answer too.
assert {r["verdict"] for r in rows} <= {"worse", "better", "noise",
                                        "cannot tell"}, rows
line = [l for l in text if l.startswith("verdict: ")][0]
assert line.startswith("verdict: %s (%s" % (c["verdict"],
                                            c["verdict_rows"][0])), line
assert p50["a_spread_pct"] > 0
PY
if python3 "$TMP/j.py" "$TMP/out" "$TMP/txt" >"$TMP/j.err" 2>&1; then
	pass "--json: every row (timer too), verdicts (the table's words), changes and the gate agree with the text"
else
	fail "--json: $(tail -n 3 "$TMP/j.err" | tr '\n' ' ')"
fi
# --json=FILE after the files: the file, and the table on stdout.
run_latt "$TMP/out" "$TMP/err" compare "$A" "$B" --json="$TMP/cmp.json"
why=
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/err")"
grep -q '^p50 ' "$TMP/out" || bad "no table on stdout"
w=$(pycheck "$TMP/cmp.json" 'len(d["comparisons"][0]["rows"]) == 14')
[ -z "$w" ] || bad "$w"
ls -A "$TMP" | grep -q 'cmp.json.tmp-' && bad "a temporary file left"
verdict "--json=FILE after the files: FILE holds the JSON, the table on stdout"
run_latt "$TMP/out" "$TMP/err" compare "$A" "$B" --json="$TMP/no/such/x.json"
check "--json=FILE that cannot be written: exit 1, one line naming it (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'no/such/x.json' '$TMP/err'"

# --- Warnings in sentences -------------------------------------------------------
# Every recorded setting: a difference warns, one sentence naming it.
cat >"$TMP/set.py" <<'PY'
import json, sys
tmp = sys.argv[1]
d = json.load(open(tmp + "/small.json"))
changes = {
    "parameters": {"clients": 4, "min_delay_ns": 1, "max_delay_ns": 2,
        "loop": "open", "policy": "fifo", "priority": 50, "nice": -5,
        "cpus": [1], "parent_cpu": 0, "parent_policy": "fifo",
        "parent_prio": 60, "mlock": True, "dma_latency_us": 0,
        "work_kb": 64, "loads": [{"kind": "cpu", "procs": 2}],
        "command": "make", "argv": ["make"], "duration_ns": 5,
        "samples_limit": 7, "warmup_ns": 9},
    "environment": {"timer_slack_ns": 1, "kernel_release": "7.0",
        "cmdline": "quiet", "preemption": "full",
        "scheduler": "sched_ext: scx_rusty", "cpufreq_governor": "powersave",
        "smt": "off", "cpu_model": "Other CPU", "cpus_online": 64,
        "virtualization": "kvm", "machine": "aarch64", "hostname": "other",
        "clocksource": "hpet", "latt_version": "9.9"},
}
keys = []
for obj, kv in changes.items():
    for k, v in kv.items():
        e = json.loads(json.dumps(d))
        e.setdefault(obj, {})[k] = v
        # Another run (a start of its own), the same settings but one.
        e["runs"][0]["run"]["started_at_ns"] += 1
        json.dump(e, open("%s/set-%s.json" % (tmp, k), "w"))
        keys.append(k)
open(tmp + "/keys", "w").write("\n".join(keys) + "\n")
PY
python3 "$TMP/set.py" "$TMP"
# Sanitized, every fourth setting and the two read below: the same reader
# and printer, ten times slower than plain (the plain pass checks all).
want=30
if [ -n "${LATT_SANITIZED:-}" ]; then
	awk 'NR % 4 == 1 || $0 == "loads" || $0 == "min_delay_ns"' \
	    "$TMP/keys" >"$TMP/keys4" && mv "$TMP/keys4" "$TMP/keys"
	want=10
fi
# The comparisons read files and print: they run side by side, two at a
# time (this machine's CPUs), and are checked in order after.  The files
# are of 100 samples: the settings, not the statistics, are read here.
# The key's place is {}: xargs -I puts it for every instance of the string
# in every argument, $TMP's random name too (a K there, one run in ten,
# sent every comparison to a file that does not exist).
xargs -P 2 -I {} sh -c '"$1" compare --details "$2/small.json" "$2/set-{}.json" \
    >"$2/set-{}.out" 2>&1' sh "$LATT" "$TMP" <"$TMP/keys"
# Checked in one python3 run (a few processes a setting cost seconds).
cat >"$TMP/setck.py" <<'PY'
import re, sys
tmp, want = sys.argv[1], int(sys.argv[2])
keys = open(tmp + "/keys").read().split()
seen, bad = set(), []
for k in keys:
    lines = []      # the output, continuation lines (4 spaces) joined
    for l in open("%s/set-%s.out" % (tmp, k)).read().split("\n"):
        if re.match(r"    \S", l) and lines:
            lines[-1] += " " + l[4:]
        else:
            lines.append(l)
    w = [l for l in lines if re.match(r"warning: .* differs*: A ", l)]
    if len(w) != 1 or not w[0].endswith(".") or \
            re.search(r'[][{}"]', w[0]) or \
            w[0].startswith("warning: %s differ" % k) or w[0] in seen:
        bad.append("%s: %s" % (k, "|".join(l for l in lines
                                           if l.startswith("warning"))))
    seen.update(w)
print("%d settings" % len(keys))
if len(keys) < want:
    print("BAD only %d settings, want %d" % (len(keys), want))
for b in bad:
    print("BAD " + b)
PY
python3 "$TMP/setck.py" "$TMP" "$want" >"$TMP/setck.out" 2>&1
verdict_from "settings: each recorded setting warns alone, in a sentence of its own (no JSON, no key names)" \
	"$TMP/setck.out"
check "settings: the loads in words" \
	grep -qx 'warning: the loads differ: A none, B cpu:2.' "$TMP/set-loads.out"
check "settings: times with their unit" grep -qx \
	'warning: the shortest sleep between rounds (-f) differs: A 100 ms, B 1 ns.' \
	<(unwrap "$TMP/set-min_delay_ns.out")

# The settings as latt itself writes them, and compare's warning for each
# one that differs between two real runs.
run_latt "$TMP/o1.out" "$TMP/o1.err" -q -c2 -f1 -t2 -n 40 --cpus=0,1 \
	--parent-cpu=1 --policy=batch --nice=3 --open-loop --warmup=10ms -x 4 \
	--load=yield:1 --json="$TMP/o1.json" 'sleep 5'
run_latt "$TMP/o2.out" "$TMP/o2.err" -q -c3 -f1 -t3 -n 60 --load=none \
	--json="$TMP/o2.json" 'sleep 6'
cat >"$TMP/rt.py" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["parameters"]
want = {"clients": 2, "min_delay_ns": 1000000, "max_delay_ns": 2000000,
        "cpus": [0, 1], "parent_cpu": 1, "policy": "batch", "nice": 3,
        "priority": None, "loop": "open", "warmup_ns": 10000000,
        "work_kb": 4, "loads": [{"kind": "yield", "procs": 1}],
        "command": "sleep 5", "samples_limit": 40, "mlock": False,
        "dma_latency_us": None, "repeat": 1}
bad = {k: (p.get(k), v) for k, v in want.items() if p.get(k) != v}
assert not bad, bad
PY
if python3 "$TMP/rt.py" "$TMP/o1.json" 2>"$TMP/py.err"; then
	pass "settings: latt writes what it was given (policy, nice, CPUs, loop, ...)"
else
	fail "settings: $(tail -n 1 "$TMP/py.err")"
fi
run_latt "$TMP/out" "$TMP/err" compare --details "$TMP/o1.json" "$TMP/o2.json"
unwrap "$TMP/out" >"$TMP/outw"
ok=1
while IFS= read -r w; do
	[ "$(grep -cxF "warning: $w" "$TMP/outw")" -eq 1 ] ||
		{ ok=0; echo "  no warning: $w"; }
done <<'EOF'
the number of clients differs: A 2, B 3.
the longest sleep between rounds (-t) differs: A 2 ms, B 3 ms.
the loop (--open-loop) differs: A open, B closed.
the clients' policy differs: A batch, B not set.
the clients' nice value differs: A 3, B not set.
the clients' CPUs differ: A 0,1, B not set.
latt's own CPU differs: A 1, B not set.
the clients' work (-x) differs: A 4 KiB, B off.
the loads differ: A yield:1, B none.
the command differs: A 'sleep 5', B 'sleep 6'.
the command's words differ: A 'sleep 5', B 'sleep 6'.
the sample limit (-n) differs: A 40, B 60.
the warm-up differs: A 10 ms, B 0.
EOF
check "settings: two real runs that differ warn once for each setting, in words" [ $ok -eq 1 ]

# --- A run counts once ------------------------------------------------------------
# usage_case NAME REGEX ARGS...: exit 2, one line on stderr matching REGEX,
# nothing on stdout.
usage_case() {
	local name=$1 re=$2
	shift 2
	run_latt "$TMP/out" "$TMP/err" "$@"
	if [ "$rc" -eq 2 ] && [ "$(err_lines "$TMP/err")" -eq 1 ] &&
	    [ ! -s "$TMP/out" ] && grep -Eq "^latt: .*$re" "$TMP/err"; then
		pass "$name"
	else
		fail "$name: rc $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}
A1=$TMP/a1.json C1=$TMP/c1.json
usage_case "once: a1,a1,a1 against c1,c1,c1 (one run named three times)" \
	"a1.json is given twice in side A: each run counts once" \
	compare "$A1,$A1,$A1" "$C1,$C1,$C1" --fail-if-worse=p50=1%
usage_case "once: one file under two names" \
	"a1.json is given twice in side A, also as .*a1.json" \
	compare "$A1,$TMP/../$(basename "$TMP")/a1.json" "$C1"
cp "$A" "$TMP/acopy.json"
usage_case "once: a copy of a file in the same side (the same host and start)" \
	"acopy.json \(run 1\) holds the run of .*a.json \(run 1\) again \(host vm, started 2026-.*\) in side A" \
	compare "$A,$TMP/acopy.json" "$B"
usage_case "once: one file on both sides" "a.json is in both sides A and B" \
	compare "$A" "$A"
run_latt "$TMP/out" "$TMP/err" compare "$A" "$TMP/acopy.json"
check "once: runs two sides share in other files: a warning (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q \"^warning: 5 of B's runs are runs of A too\" '$TMP/out'"
run_latt "$TMP/r0.out" "$TMP/r0.err" -c2 -d 1 --baseline="$A1,$A1" true
check "once: --baseline with a file twice: usage error before the run (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && [ ! -s '$TMP/r0.out' ] && grep -q 'given twice' '$TMP/r0.err'"

# --- Files without commas ------------------------------------------------------
usage_case "commas: six files of one run each are a usage error showing the comma form" \
	"6 files without commas would be 6 sides, one run each; join the files of a side with commas: latt compare $TMP/s1.json,$TMP/s2.json,$TMP/s3.json $TMP/s4.json,$TMP/s5.json,$TMP/s6.json\$" \
	compare "$TMP/s1.json" "$TMP/s2.json" "$TMP/s3.json" "$TMP/s4.json" \
	"$TMP/s5.json" "$TMP/s6.json"
usage_case "commas: three files, one of one run" \
	"3 files without commas would be 3 sides, B of one run" \
	compare "$A" "$TMP/s2.json" "$B"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/s1.json" "$TMP/s4.json"
check "commas: two files of one run each are two sides (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^A: .*s1.json (1 run' '$TMP/out' && grep -q '^B: .*s4.json (1 run' '$TMP/out'"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/s1.json,$TMP/s2.json,$TMP/s3.json" \
	"$TMP/s4.json,$TMP/s5.json,$TMP/s6.json"
check "commas: the comma form, three runs a side (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^B: .*s6.json (3 runs' '$TMP/out'"

# --- Files that are not regular (issue 35) ---------------------------------------
# A FIFO with no writer: one line and status 2 at once (compare blocked in
# open(2) for good), --by-knob's too; a pipe with its writer, <(...), is
# read as written, a writer half a second late too.
mkfifo "$TMP/nowriter.json"
for args in "$TMP/nowriter.json $B" "--by-knob $TMP/nowriter.json"; do
	# shellcheck disable=SC2086
	timeout -k 1 5 "$LATT" compare $args >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(err_lines "$TMP/err")" -eq 1 ] &&
	    grep -Eq "nowriter.json(: a FIFO with no writer|:1:1: |: Resource)" \
	    "$TMP/err" || bad "$args: rc $rc, stderr: $(short "$TMP/err")"
done

run_latt "$TMP/out" "$TMP/err" compare <(sleep 0.5; cat "$A") "$B"
[ "$rc" -eq 0 ] && grep -q '^p50 ' "$TMP/out" ||
	bad "<(sleep 0.5; cat a.json): rc $rc, $(short "$TMP/err")"
verdict "a FIFO with no writer: one line, status 2, at once; a pipe is read"

# --by-knob: a value's escape sequences and newlines are shown escaped,
# never sent to the terminal as they are.
python3 - "$TMP/ka.json" "$TMP/kb.json" "$TMP/knobesc.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
vals = ["\x1b[31mred", "two\nlines"]
for d, v in zip((a, b), vals):
    for r in d["runs"]:
        r["knob"] = {"file": "/k", "value": v}
a["sweep"] = {"points": [{"value": v, "runs": d["runs"]}
                         for d, v in zip((a, b), vals)]}
a["runs"] = a["runs"] + b["runs"]
json.dump(a, open(sys.argv[3], "w"))
PY
run_latt "$TMP/out" "$TMP/err" compare --by-knob "$TMP/knobesc.json"
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
grep -q $'\x1b' "$TMP/out" "$TMP/err" && bad "an escape sequence on the terminal"
grep -q '^A: .*knobesc.json@\\x1b\[31mred (3 runs' "$TMP/out" &&
	grep -q '^B: .*knobesc.json@two\\x0alines (3 runs' "$TMP/out" ||
	bad "sides: $(grep '^[AB]: ' "$TMP/out" | tr '\n' '|')"
verdict "--by-knob: a value's control bytes shown escaped"

# --- Usage errors -----------------------------------------------------------------
# One bad gate spec end to end; the others (no %, unknown statistic, not
# a number, negative, an empty part, empty, an unknown timer statistic)
# are tests/unit_compare.c's, with their messages.
usage_case "gate spec: twice, naming the part" "p99=2%: p99 is given twice" \
	compare --fail-if-worse=p99=1%,p99=2% "$A1" "$C1"
# compare's other usage errors (one side, unknown options, --all=x,
# --json=, an empty file name): tests/unit_compare.c, through compare_main.
usage_case "compare: missing file" "nonexistent.json" \
	compare "$A1" "$TMP/nonexistent.json"
run_latt "$TMP/out" "$TMP/err" compare --help
check "compare: --help exits 0 with the usage" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: latt compare' '$TMP/out'"

# A duplicate key among 200000: tests/unit_json.c (the reader, and
# compare's reader naming the file).

# --- Bounded memory -----------------------------------------------------------------
# A memory cgroup of 512 MiB (v2, or the v1 memory controller): a 100 MB
# hostile file is refused before it is read, and one of 12 MiB (6 million
# values, the worst a byte can cost) after at most 10 times its size: the
# cost is linear in the size, so that the largest file compare reads
# (32 MiB) fits in 512 MiB (a file of 31 MiB took 281 MiB, 9 times).
mem_cgroup() {
	local base
	if [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
	    grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		base=/sys/fs/cgroup
		echo +memory >"$base/cgroup.subtree_control" 2>/dev/null
	elif [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ]; then
		base=/sys/fs/cgroup/memory
	else
		return 1
	fi
	MCG=$base/latt-test-$$
	mkdir "$MCG" 2>/dev/null || return 1
	on_exit 'rmdir "$MCG" 2>/dev/null'
	if [ -e "$MCG/memory.max" ]; then
		echo $((512 << 20)) >"$MCG/memory.max" &&
		    echo 0 >"$MCG/memory.swap.max" 2>/dev/null
	else
		echo $((512 << 20)) >"$MCG/memory.limit_in_bytes" &&
		    { echo $((512 << 20)) >"$MCG/memory.memsw.limit_in_bytes"; } 2>/dev/null
	fi || return 1
	return 0
}
# in_mcg FILE: compare FILE against a1.json inside the cgroup; $rc, and
# $peak, compare's largest resident size in KiB.
in_mcg() {
	env --default-signal sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
	    sh "$MCG" python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
	    "$LATT" compare "$1" "$A1" >"$TMP/mcg" 2>"$TMP/err"
	read -r rc peak <"$TMP/mcg"
}
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "memory: the sanitizers change what memory a run takes"
elif [ "$(id -u)" -ne 0 ]; then
	skip "memory: not root, no memory cgroup can be made"
elif ! mem_cgroup; then
	skip "memory: no writable cgroup v2 with the memory controller, nor v1 memory hierarchy"
else
	# hostile FILE BYTES: a results file whose runs are [1,1,1,...].
	hostile() {
		{ printf '{"tool": "latt", "schema_version": 2, "runs": ['
		  yes 1, | tr -d '\n' | head -c $(($2 - 50))
		  printf '1]}'; } >"$1"
	}
	hostile "$TMP/huge.json" 100000000
	in_mcg "$TMP/huge.json"
	why=
	[ "${rc:-x}" = 2 ] || bad "exit ${rc:-?} (137: killed), want 2"
	[ "$(err_lines "$TMP/err")" -eq 1 ] || bad "stderr: $(short "$TMP/err")"
	grep -q "huge.json: [0-9]* bytes, above compare's limit of 32 MiB" \
	    "$TMP/err" || bad "message: $(short "$TMP/err")"
	verdict "memory: a 100 MB hostile file under a 512 MiB cgroup: one line, exit 2 (peak ${peak:-?} KiB)"
	rm -f "$TMP/huge.json"
	hostile "$TMP/big.json" $((12 << 20))
	in_mcg "$TMP/big.json"
	why=
	[ "${rc:-x}" = 2 ] || bad "exit ${rc:-?} (137: killed), want 2"
	grep -q "big.json:1:[0-9]*: a run is not an object" "$TMP/err" ||
	    bad "message: $(short "$TMP/err")"
	[ "${peak:-999999999}" -le $((12 * 1024 * 10)) ] ||
	    bad "peak ${peak:-?} KiB, more than 10 times the file"
	verdict "memory: 6 million values in 12 MiB under a 512 MiB cgroup: refused at ${peak:-?} KiB (at most 10 times the file)"
	rm -f "$TMP/big.json"
fi

# --- Malformed, truncated and foreign files: exit 2, one line naming the
# file and the place.  One end to end, a file cut in the middle; every
# other shape (empty, garbage, trailing comma, duplicate key, leading zero,
# bare minus, out of range, lone surrogates, bad escapes, \u0000, control
# characters, invalid UTF-8, byte order mark, two values, NUL, deep
# nesting, foreign JSON, wrong types and schema versions, counts that
# disagree, a surrogate pair decoded; older files' blocks, even wrong ones,
# ignored) is tests/unit_json.c's, on a file latt's own writer made.
size=$(wc -c <"$A1")
head -c $((size / 2)) "$A1" >"$TMP/bad.json"
run_latt "$TMP/out" "$TMP/err" compare "$A1" "$TMP/bad.json"
if [ "$rc" -eq 2 ] && [ "$(err_lines "$TMP/err")" -eq 1 ] &&
    [ ! -s "$TMP/out" ] &&
    grep -Eq "^latt: $TMP/bad.json:[0-9]+:[0-9]+: " "$TMP/err"; then
	pass "bad file: truncated in the middle"
else
	fail "bad file: truncated in the middle: rc $rc, stderr: $(head -c 300 "$TMP/err")"
fi

# The mutation fuzzer (sanitized), once per make check.
if [ -n "${LATT_SANITIZED:-}" ]; then
	:
elif [ ! -x build/san/fuzz_compare ]; then
	skip "fuzz: build/san/fuzz_compare not built (make check builds it)"
else
	if build/san/fuzz_compare 3000 1 "$TMP/f1.json" "$TMP/f2.json" \
	    >"$TMP/fuzz.out" 2>&1; then
		pass "fuzz: 3000 mutants, no crash ($(tail -n 1 "$TMP/fuzz.out"))"
	else
		fail "fuzz: $(tail -n 5 "$TMP/fuzz.out" | tr '\n' ' ')"
	fi
fi

# --baseline: a run compared, after its summary, with saved results.
run_latt "$TMP/r1.out" "$TMP/r1.err" -q -c2 -f1 -t3 --json="$TMP/r1.json" 'sleep 0.3'
run_latt "$TMP/r2.out" "$TMP/r2.err" -q -c2 -f1 -t3 --baseline="$TMP/r1.json" 'sleep 0.3'
if [ "$rc" -eq 0 ] && grep -q '^Entries: ' "$TMP/r2.out" &&
    grep -q '^Against the baseline' "$TMP/r2.out" &&
    grep -Eq '^p50 +[0-9.]+ +[0-9.]+ ' "$TMP/r2.out" && [ ! -s "$TMP/r2.err" ]; then
	pass "--baseline: the table follows the summary, no gate line without a gate"
else
	fail "--baseline: rc $rc: $(tail -n 5 "$TMP/r2.out" | tr '\n' '|') $(cat "$TMP/r2.err")"
fi
run_latt "$TMP/r3.out" "$TMP/r3.err" -q -c4 -f1 -t3 -d 300ms --load=none \
    --repeat=3 --baseline="$TMP/fast.json" --fail-if-worse=p50=10%
check "--baseline --repeat=3 --fail-if-worse: runs far slower than their baseline exit 3 (rc $rc)" \
	[ "$rc" -eq 3 ]
check "--baseline: the gate's line, last on stderr ($(short "$TMP/r3.err"))" \
	sh -c "tail -n 1 '$TMP/r3.err' | grep -q '^gate: exceeded: p50 +[0-9.]*% > 10% (interval .*)\$'"
check "--repeat=3: one summary of the three runs" [ "$(grep -c '^Entries: ' "$TMP/r3.out")" -eq 1 ]
check "--baseline: B is the three runs" grep -q '^B: these runs (3 runs' "$TMP/r3.out"
run_latt "$TMP/r6.out" "$TMP/r6.err" -q -c2 -f1 -t3 -d 300ms --load=none \
    --baseline="$TMP/fast.json" --fail-if-worse=p50=10%
check "--baseline of one run with a gate: cannot tell, exit 5 (rc $rc: $(short "$TMP/r6.err"))" \
	sh -c "[ $rc -eq 5 ] && grep -q '^gate: cannot tell: p50 (B has 1 run' '$TMP/r6.err'"
run_latt "$TMP/r4.out" "$TMP/r4.err" --baseline="$TMP/nonexistent.json" 'sleep 5'
if [ "$rc" -eq 2 ] && [ ! -s "$TMP/r4.out" ] && [ "$(err_lines "$TMP/r4.err")" -eq 1 ]; then
	pass "--baseline: an unreadable file fails before the run"
else
	fail "--baseline unreadable: rc $rc, $(cat "$TMP/r4.err")"
fi
run_latt "$TMP/r5.out" "$TMP/r5.err" --fail-if-worse=p99=10% true
check "--fail-if-worse without --baseline is a usage error (rc $rc)" [ "$rc" -eq 2 ]

# --repeat writes every run into one file, which compare reads as runs.
run_latt "$TMP/rep.out" "$TMP/rep.err" -q -c2 -f1 -t3 -d300ms --load=none \
	--repeat=3 --json="$TMP/rep.json"
w=$(pycheck --with 'r = d["runs"]' "$TMP/rep.json" \
    'd["nruns"] == 3 and len(r) == 3 and d["parameters"]["repeat"] == 3' \
    'sum(x["latency"]["samples"] for x in r) == d["latency"]["samples"]' \
    'sum(x["run"]["rounds"] for x in r) == d["run"]["rounds"]' \
    'max(x["latency"]["max_ns"] for x in r) == d["latency"]["max_ns"]' \
    'len(set(x["run"]["started_at_ns"] for x in r)) == 3' \
    'all("blocks" not in x["latency"] for x in r)')
if [ "$rc" -ne 0 ]; then
	fail "--repeat=3: rc $rc: $(head -c 200 "$TMP/rep.err")"
elif [ -n "$w" ]; then
	fail "--repeat=3: the file: $w"
else
	pass "--repeat=3: three runs in one file, each its own start, the top level their total"
fi
run_latt "$TMP/out" "$TMP/err" compare "$TMP/rep.json" "$TMP/fast.json"
check "--repeat=3: compare reads three runs" \
	grep -q '^A: .*rep.json (3 runs' "$TMP/out"

usage_case "--repeat=0 is a usage error" "" --repeat=0 true
usage_case "--repeat=1001 is a usage error" "" --repeat=1001 true
usage_case "--repeat=x is a usage error" "" --repeat=x true

# Real runs.  Two short runs with the same settings, one run a side: a
# gate cannot tell, whatever the noise.
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "real runs: timing comparisons skip under the sanitizers"
else
	for i in 1 2; do
		run_latt "$TMP/s$i.out" "$TMP/s$i.err" -q -c4 -f1 -t3 \
			-d 300ms --load=none --json="$TMP/real$i.json"
	done
	run_latt "$TMP/out" "$TMP/err" compare "$TMP/real1.json" \
		"$TMP/real2.json" --fail-if-worse=p99=10%
	check "real runs, one a side, p99=10% gate: cannot tell, exit 5 (rc $rc)" \
		[ "$rc" -eq 5 ]
	# A SCHED_FIFO hog (HOG_PRIO) on the clients' CPU, busy 4 ms in
	# every 5: called worse at the median.  The clients run SCHED_FIFO at
	# CLIENT_PRIO, below the hog and above anything else of the machine,
	# so that only the hog can make B worse than A; the parent stays on
	# CPU 0, so that it stamps on time.  hog_side NAME: one side's runs.
	hog_side() {
		run_latt "$TMP/$1.out" "$TMP/$1.err" -q -c4 --cpus=1 \
			--parent-cpu=0 --prio=$CLIENT_PRIO -f1 -t3 -d 600ms \
			--warmup=400ms --load=none --repeat=3 --json="$TMP/$1.json"
	}
	# calm NAME: whether the runs of a side agree within 2x at the median.
	calm() {
		python3 -c 'import json, sys
p = [r["latency"]["p50_ns"] for r in json.load(open(sys.argv[1]))["runs"]]
sys.exit(0 if max(p) <= 2 * min(p) else 1)' "$TMP/$1.json"
	}
	if [ "$(nproc)" -lt 2 ]; then
		skip "real runs: a SCHED_FIFO hog needs 2 CPUs"
	else
		# Other jobs of this shared machine can take CPU 1 during A's
		# runs, which is the hog's effect without the hog (one run's
		# median 20 times the others' was seen): when A's runs disagree
		# by more than 2x at the median, A is measured again, once.
		hog_side h0
		calm h0 || hog_side h0
		if ! start_hog 1 4 5 60 $HOG_PRIO; then
			skip "real runs: $hog_why"
		else
			hog_side h1
			stop_hog
			run_latt "$TMP/out" "$TMP/err" compare "$TMP/h0.json" \
				"$TMP/h1.json" --fail-if-worse=p50=10%
			# A timing relation: the judge reads A's runs (the
			# hog's absence is what a crowded machine fills in).
			[ "$rc" -eq 3 ] || tbad "exit $rc, not 3 (worse)"
			verdict_timed "real runs: a SCHED_FIFO hog on the clients' CPU is called worse (rc $rc: $(row "$TMP/out" p50) $(grep '^cannot tell' "$TMP/out" | tr '\n' ' ') $(short "$TMP/err"))" \
				"$TMP/h0.json" 20
		fi
	fi
fi


# --- the counts' rows: known counts put into synthetic runs.  3 runs a
# side: switches doubled (higher), interrupts alike (noise), the clients'
# voluntary switches 1 a wake-up on both (noise), involuntary halved
# (lower), migrations null on B (no row); 1 run a side: information.
python3 - "$TMP" <<'EOF'
import json, sys
sw = {"ka": [1000, 1010, 990], "kb": [2000, 2020, 1980],
      "k1a": [1000], "k1b": [3000]}
intr = {"ka": [500, 505, 495], "kb": [500, 490, 510]}
for f in sw:
    d = json.load(open("%s/%s.json" % (sys.argv[1], f)))
    for i, r in enumerate(d["runs"]):
        n = r["latency"]["samples"]
        r["counts"] = {"switches_per_s": sw[f][i],
            "interrupts_per_s": intr.get(f, [400])[i],
            "clients_voluntary": n, "clients_involuntary":
            n // 10 if f != "kb" else n // 20,
            "clients_migrations": None if f == "kb" else 0,
            "runnable_mean": [1.0, 1.2, 0.8][i]}
    json.dump(d, open("%s/%s.json" % (sys.argv[1], f), "w"))
EOF
run_latt "$TMP/kc.out" "$TMP/kc.err" compare "$TMP/ka.json" "$TMP/kb.json" \
    --json="$TMP/kc.json"
[ "$rc" -eq 0 ] || bad "status $rc: $(short "$TMP/kc.err")"
kv() { awk -v r="$1" '$1 == r { print $2, $4, $NF; exit }' "$TMP/kc.out"; }
[ "$(kv switch/s)" = "1.000k 2.000k higher" ] || bad "switch/s: $(kv switch/s)"
[ "$(kv intr/s)" = "500.0 500.0 noise" ] || bad "intr/s: $(kv intr/s)"
[ "$(kv vol/wake)" = "1.000 1.000 noise" ] || bad "vol: $(kv vol/wake)"
case $(kv invol/wake) in
0.09*\ 0.04*\ lower|0.1000\ 0.0500\ lower) ;;
*) bad "invol: $(kv invol/wake)" ;;
esac
[ -z "$(kv migr/wake)" ] || bad "migrations without B's: $(kv migr/wake)"
[ "$(kv runnable)" = "1.000 1.000 tell" ] ||
	bad "runnable (+-75%): $(kv runnable)"
expect_json --with 'c = {r["name"]: r for r in d["comparisons"][0]["counts"]}' \
    "$TMP/kc.json" \
    'c["switches_per_s"]["verdict"] == "higher" and 80 < c["switches_per_s"]["change"] < 120' \
    'c["switches_per_s"]["lo"] > 0 and c["interrupts_per_s"]["lo"] < 0 < c["interrupts_per_s"]["hi"]' \
    'c["clients_involuntary_per_sample"]["verdict"] == "lower"' \
    '"clients_migrations_per_sample" not in c and c["switches_per_s"]["a_runs"] == 3'
run_latt "$TMP/k1.out" "$TMP/k1.err" compare "$TMP/k1a.json" \
    "$TMP/k1b.json"
awk '$1 == "switch/s" && $2 == "1.000k" && $3 == "3.000k" &&
    $4 == "+200%" && $5 == "-" && $6 == "info" { ok = 1 }
    END { exit !ok }' "$TMP/k1.out" || bad "one run a side: $(grep switch/s "$TMP/k1.out")"
run_latt "$TMP/k0.out" "$TMP/k0.err" compare "$TMP/a1.json" "$TMP/c1.json" \
    --json="$TMP/k0.json"
! grep -q '^counts' "$TMP/k0.out" || bad "counts rows without counts"
expect_json "$TMP/k0.json" 'd["comparisons"][0]["counts"] is None'
[ -z "$(wide "$TMP/kc.out")$(wide "$TMP/k1.out")" ] ||
	bad "wider than 72: $(wide "$TMP/kc.out" | head -n 1)"
verdict "counts rows: higher, lower, noise with 3 runs a side, info with 1, none without counts"

# --- The answer first; warnings in 3 lines; an emptied side; a --log CSV ---
# 3 runs a side, every one noisy, and 3 settings that differ: 9
# warnings, each in full with --details (the JSON has them all), in 3
# lines without, the verdict within the first 8 lines.
python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/na.json --n 4000 --seeds 1,2,3 --noisy 10
$TMP/nb.json --n 4000 --seeds 4,5,6 --noisy 40 --scale 1.3 --set 'environment.kernel_release="6.18.44"' --set parameters.clients=4 --set 'parameters.loads=[{"kind": "cpu", "procs": 2}]'
EOF
run_latt "$TMP/n.out" "$TMP/n.err" compare "$TMP/na.json" "$TMP/nb.json" \
    --json="$TMP/n.json"
[ "$rc" -eq 0 ] || bad "status $rc: $(short "$TMP/n.err")"
head -n 8 "$TMP/n.out" | grep -qx 'verdict: worse (mean, p50, p90, p95, p99)' ||
	bad "no answer in the first 8 lines: $(head -n 8 "$TMP/n.out" | tr '\n' '|')"
nw=$(awk '/^warning: /{ on = 1 } /^$/{ on = 0 } on' "$TMP/n.out" | wc -l)
[ "$nw" -le 3 ] || bad "$nw lines of warnings"
unwrap "$TMP/n.out" | grep -qx "warning: 3 of A's 3 runs and 3 of B's 3 runs were noisy (others took 11-46%); --drop-noisy leaves them out." ||
	bad "no one line of the noisy runs: $(grep -A1 noisy "$TMP/n.out" | tr '\n' '|')"
grep -qx 'warning: 3 more (--details): number of clients, loads, kernel release differ\.' \
    "$TMP/n.out" || bad "no line naming the warnings left out"
run_latt "$TMP/nd.out" "$TMP/nd.err" compare "$TMP/na.json" "$TMP/nb.json" \
    --details
jw=$(pycheck "$TMP/n.json" 'len(d["comparisons"][0]["warnings"]) == 9')
[ -z "$jw" ] || bad "the JSON's warnings: $jw"
[ "$(grep -c '^warning: ' "$TMP/nd.out")" -eq 9 ] ||
	bad "--details: $(grep -c '^warning: ' "$TMP/nd.out") warnings, not 9"
unwrap "$TMP/nd.out" | grep -qx "warning: B: $TMP/nb.json, run 3 was noisy (other processes used 46% of the CPUs, above 10%): kept; --drop-noisy leaves it out." ||
	bad "--details: no line of B's run 3"
verdict "the answer first (verdict: within 8 lines), warnings in 3 lines ($(wc -l <"$TMP/n.out") lines in all), each with --details ($(wc -l <"$TMP/nd.out"))"
run_latt "$TMP/ne.out" "$TMP/ne.err" compare "$TMP/na.json" "$TMP/nb.json" \
    --drop-noisy
check "--drop-noisy leaving a side no run: cannot tell in one line, exit 5 (rc $rc)" \
	sh -c "[ $rc -eq 5 ] && [ \"\$(cat '$TMP/ne.out')\" = 'verdict: cannot tell: --drop-noisy left A no run (3 noisy)' ]"
printf 'time_ns,round,client,cpu,latency_ns,pos\n1000,1,0,0,5000,0\n' \
    >"$TMP/run.csv"
run_latt "$TMP/cs.out" "$TMP/cs.err" compare "$TMP/run.csv" "$TMP/a.json"
check "a --log CSV given to compare: named so, with the option that writes results (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'run.csv: latt.s --log CSV (a line a sample), not its results: compare reads what --json=FILE writes\$' '$TMP/cs.err'"

# --- One rule: the same samples in two tables, one verdict; paired runs ---
# A class holding every client's samples (the latency's) gets the
# latency's verdicts and intervals, row by row.  Runs of A and B that
# alternate in time (seeds 201 203 ... against 202 204 ...: A B A B ...)
# are paired, the legend and the JSON say so; apart, unpaired.
python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/qa.json --n 4000 --seeds 201,203,205,207,209 --class rr
$TMP/qb.json --n 4000 --seeds 202,204,206,208,210 --class rr --scale 1.6
$TMP/qc.json --n 4000 --seeds 211,212,213,214,215 --class rr --scale 1.25
EOF
run_latt "$TMP/q.out" "$TMP/q.err" compare "$TMP/qa.json" "$TMP/qb.json" \
    --json="$TMP/q.json"
[ "$rc" -eq 0 ] || bad "status $rc: $(short "$TMP/q.err")"
w=$(pycheck "$TMP/q.json" '[(r["stat"], r["verdict"], r["ci_pct"], r["test"]) for r in d["comparisons"][0]["rows"] if r["series"] == "rr"] == [(r["stat"], r["verdict"], r["ci_pct"], r["test"]) for r in d["comparisons"][0]["rows"] if r["series"] == "latency"]' \
    'd["comparisons"][0]["test"] == "paired"' \
    'any(r["verdict"] == "worse" for r in d["comparisons"][0]["rows"])')
[ -z "$w" ] || bad "$w"
unwrap "$TMP/q.out" | grep -q "^+-: .*; paired: the interval, from neighbouring runs' differences" ||
	bad "no 'paired' in the legend: $(grep -A1 '^+-' "$TMP/q.out" | tr '\n' '|')"
[ "$(section "$TMP/q.out" rr | cut -c7-)" = "$(section "$TMP/q.out" latency | cut -c7-)" ] ||
	bad "the class's table differs from the latency's"
run_latt "$TMP/q2.out" "$TMP/q2.err" compare "$TMP/qa.json" "$TMP/qc.json" \
    --json="$TMP/q2.json"
w=$(pycheck "$TMP/q2.json" 'd["comparisons"][0]["test"] == "unpaired"' \
    'all(r["test"] == "unpaired" for r in d["comparisons"][0]["rows"])')
[ -z "$w" ] || bad "$w"
unwrap "$TMP/q2.out" | grep -q "^+-: .*; unpaired: the interval holds" ||
	bad "no 'unpaired' in the legend"
verdict "one rule: a class of every sample gets the latency's verdicts; runs A B A B are paired (legend, JSON), runs apart unpaired"

no_leftovers compare
