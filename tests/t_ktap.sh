#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --ktap (issue 38): the gates as KTAP version 1, read by tests/ktap.py
# after the format's documented rules: a test a limit of --fail-above and
# of --fail-if-worse (latt --baseline, latt compare), ok when met, not ok
# when exceeded, ok # SKIP when latt cannot tell, each after a "#" line
# with its figure; one test, the run, without a gate; to stdout alone (all
# else to stderr) or into a file replaced whole.
. "$(dirname "$0")/lib.sh"

# ktap FILE EXPR...: FILE read by tests/ktap.py (d its JSON, t its tests);
# bad for each expression that does not hold, or when the reader refuses.
ktap() {
	local f=$1
	shift
	if ! python3 "$(dirname "$0")/ktap.py" "$f" >"$TMP/k.json"; then
		bad "$(cat "$TMP/k.json") in $(short "$f")"
		return
	fi
	expect_json --with 't = d["tests"]' "$TMP/k.json" 'not d["unknown"]' "$@"
}

# --- --fail-above: met, exceeded, cannot tell ------------------------------
# One sample: max under 1 h and p99 under 1.5 s met (a worst under the
# limit, however crowded the machine), min above 1 ns exceeded, stdev
# (two samples needed) cannot tell.
run_latt "$TMP/out" "$TMP/err" -q -c1 -n 1 -f 0 -t 1 --ktap="$TMP/a.ktap" \
    --fail-above=max=1h,min=1ns,sd=1ns,p99=1.5s sleep 30
[ "$rc" -eq 3 ] || bad "exit $rc, want 3: $(short "$TMP/err")"
ktap "$TMP/a.ktap" 'd["plan"] == 4' \
    '[x["name"] for x in t] == ["latency_max_le_3600s", "latency_min_le_1ns", "latency_stdev_le_1ns", "latency_p99_le_1.5s"]' \
    '[x["ok"] for x in t] == [True, False, True, True]' \
    '[x["directive"] for x in t] == [None, None, "SKIP", None]' \
    'all(len(x["diag"]) == 1 for x in t)' \
    '__import__("re").fullmatch(r"max [0-9.]+ [mu]?s <= 3600 s \(0 of 1 sample above\)", t[0]["diag"][0])' \
    '__import__("re").fullmatch(r"min [0-9.]+ [mu]?s > 1 ns \(1 of 1 sample above\)", t[1]["diag"][0])' \
    't[2]["diag"][0].endswith("stdev needs 2 samples")'
grep -q '^Entries: 1 ' "$TMP/out" || bad "no summary on stdout: $(short "$TMP/out")"
grep -q '^gate: exceeded' "$TMP/err" || bad "no gate line: $(short "$TMP/err")"
verdict "ktap: met ok, exceeded not ok, cannot tell ok # SKIP, each after its figure"

# To stdout: the KTAP alone; the summary and the workload's output on
# stderr.  Without a gate: one test, the run, ok with samples.
run_latt "$TMP/out" "$TMP/err" -q -c2 -n 20 -f 0 -t 1 --ktap \
    sh -c 'echo workload-says; sleep 30'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/err")"
ktap "$TMP/out" 'd["plan"] == 1' 't[0]["name"] == "latt_run"' 't[0]["ok"]' \
    't[0]["directive"] is None' 't[0]["diag"][0].startswith("20 samples, worst ")'
grep -q '^Entries: 20 ' "$TMP/err" || bad "no summary on stderr: $(short "$TMP/err")"
grep -q '^workload-says$' "$TMP/err" || bad "the workload's output is not on stderr"
verdict "ktap: to stdout alone (summary and workload on stderr); no gate: one test, the run"

run_latt "$TMP/out" "$TMP/err" -q -c1 -f 5s -t 5s --ktap="$TMP/n.ktap" true
ktap "$TMP/n.ktap" 'd["plan"] == 1' 't[0]["name"] == "latt_run"' \
    'not t[0]["ok"]' 't[0]["diag"] == ["0 samples, worst -"]'
verdict "ktap: a run that took no sample is not ok"

# --- Written whole ------------------------------------------------------------
# The old file stays as it was while the run goes on (the workload reads
# it), then the new one takes its place whole, no temporary file left; a
# path that cannot be written fails before the run; stdout twice refused.
mkdir -p "$TMP/w"
echo old >"$TMP/w/r.ktap"
run_latt "$TMP/out" "$TMP/err" -q -c1 -n 200 -f 1 -t 2 --ktap="$TMP/w/r.ktap" \
    --fail-above=max=1h "cat $TMP/w/r.ktap >$TMP/during; sleep 30"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/err")"
[ "$(cat "$TMP/during")" = old ] || bad "during the run: $(short "$TMP/during")"
ktap "$TMP/w/r.ktap" 'd["plan"] == 1' 't[0]["ok"]'
[ "$(ls -A "$TMP/w")" = r.ktap ] || bad "left behind: $(ls -A "$TMP/w" | tr '\n' ' ')"
run_latt "$TMP/out" "$TMP/err" -q --ktap="$TMP/no/such/x.ktap" "touch $TMP/ran"
[ "$rc" -eq 1 ] && [ ! -e "$TMP/ran" ] &&
    grep -q "^latt: --ktap=$TMP/no/such/x.ktap: No such file or directory\$" "$TMP/err" ||
    bad "no such directory: rc $rc: $(short "$TMP/err")"
run_latt "$TMP/out" "$TMP/err" --ktap --json true
[ "$rc" -eq 2 ] && grep -q '^latt: --json and --ktap both to stdout' "$TMP/err" ||
    bad "--ktap --json: rc $rc: $(short "$TMP/err")"
run_latt "$TMP/out" "$TMP/err" --ktap="$TMP/w/s.json" --json="$TMP/w/s.json" true
[ "$rc" -eq 2 ] && grep -q 'are the same file' "$TMP/err" ||
    bad "--ktap and --json into one file: rc $rc: $(short "$TMP/err")"
verdict "ktap: the old file kept until the new one is whole; bad paths fail before the run"

# --- --fail-if-worse: latt compare --ktap and --baseline ---------------------
python3 "$(dirname "$0")/mkresult.py" <<EOF2
$TMP/a.json --n 4000 --seeds 1,2,3,4,5 --timer
$TMP/b.json --n 4000 --seeds 21,22,23,24,25 --timer --scale 1.2
$TMP/c.json --n 4000 --seeds 31,32,33,34,35 --timer
$TMP/fast.json --median 100 --sigma 0.1 --seeds 1,2,3 --n 2000
EOF2
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
    --fail-if-worse=p50=5%,mean=40%,p99.9=1%,runqueue.p50=5% --ktap
[ "$rc" -eq 3 ] || bad "exit $rc, want 3"
ktap "$TMP/out" 'd["plan"] == 4' \
    '[(x["name"], x["ok"], x["directive"]) for x in t] == [("latency_p50_change_le_5pct", False, None), ("latency_mean_change_le_40pct", True, None), ("latency_p99.9_change_le_1pct", True, "SKIP"), ("runqueue_p50_change_le_5pct", True, "SKIP")]' \
    't[0]["diag"][0].startswith("latency p50 change +18.4%, 97.5% interval [+8.4%, +29%], against 5%; A 5 runs, 20000 samples")' \
    '"p99.9 needs 10000" in t[2]["diag"][0]' '"not in every run" in t[3]["diag"][0]'
grep -q '^latency ' "$TMP/err" && grep -q '^gate: exceeded' "$TMP/err" ||
    bad "the table and the gate are not on stderr"
verdict "compare --ktap: exceeded not ok, met ok, cannot tell a skip, the change in its line"
# --confidence=99 widens the interval the line gives (t(4) 4.60, not 2.78).
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
    --fail-if-worse=p50=5% --ktap --confidence=99
[ "$rc" -eq 3 ] || bad "exit $rc, want 3"
ktap "$TMP/out" 't[0]["diag"][0].startswith("latency p50 change +18.4%, 99% interval [+6.2%, +32%], against 5%")'
verdict "compare --confidence=99: the 99% interval in the test's line"

# Three sides: a test a limit and side, named for its side; into a file.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
    "$TMP/c.json" --fail-if-worse=p50=5% --ktap="$TMP/c.ktap"
[ "$rc" -eq 3 ] || bad "exit $rc, want 3: $(short "$TMP/err")"
ktap "$TMP/c.ktap" 'd["plan"] == 2' \
    '[(x["name"], x["ok"]) for x in t] == [("B_latency_p50_change_le_5pct", False), ("C_latency_p50_change_le_5pct", True)]'
grep -q '^latency ' "$TMP/out" || bad "the table is not on stdout"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" --ktap
[ "$rc" -eq 2 ] && grep -q 'compare: --ktap needs --fail-if-worse' "$TMP/err" ||
    bad "--ktap without a gate: rc $rc: $(short "$TMP/err")"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
    --fail-if-worse=p50=5% --ktap="$TMP/no/x.ktap"
[ "$rc" -eq 1 ] && grep -q "^latt: --ktap=$TMP/no/x.ktap: " "$TMP/err" ||
    bad "compare, no such directory: rc $rc: $(short "$TMP/err")"
verdict "compare --ktap: a test a side with three; needs the gate; a bad path said"

run_latt "$TMP/out" "$TMP/err" -q -c4 -f1 -t3 -d 300ms --load=none \
    --repeat=3 --baseline="$TMP/fast.json" --fail-if-worse=p50=10% \
    --fail-above=max=1h --ktap="$TMP/b.ktap"
[ "$rc" -eq 3 ] || bad "exit $rc, want 3: $(short "$TMP/err")"
ktap "$TMP/b.ktap" 'd["plan"] == 2' \
    '[(x["name"], x["ok"]) for x in t] == [("latency_p50_change_le_10pct", False), ("latency_max_le_3600s", True)]' \
    '" B 3 runs, " in t[0]["diag"][0]'
verdict "--baseline --fail-if-worse --ktap: a test a limit of both gates"
no_leftovers "ktap"
