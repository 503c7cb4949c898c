#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# latt compare: run-level verdicts (noise, real, inconclusive with the
# reason), the calibration over synthetic runs (tests/calib_compare.c),
# settings warnings, the gate, --json, options anywhere, schema 1 files,
# strict refusal of malformed, truncated and foreign files, and real runs.
# The result files come from tests/mkresult.py (a known model), not from
# latt's own writer, except for the real runs at the end.
. "$(dirname "$0")/lib.sh"

python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/a.json --n 4000 --seeds 1,2,3,4,5 --timer
$TMP/a2.json --n 4000 --seeds 11,12,13,14,15 --timer
$TMP/b.json --n 4000 --seeds 21,22,23,24,25 --timer --scale 1.2 --set 'environment.kernel_release="6.18.44"'
$TMP/a1.json --n 4000 --seeds 31 --timer
$TMP/c1.json --n 4000 --seeds 32 --timer --scale 1.5
$TMP/v1.json --schema 1 --sub-bits 7 --seeds 1 --timer
$TMP/v1b.json --schema 1 --sub-bits 7 --seeds 2 --timer
$TMP/few.json --n 400 --seeds 41,42,43 --timer
$TMP/f1.json --n 240 --seeds 7 --timer --clients 4 --sub-bits 7
$TMP/f2.json --schema 1 --n 50 --sub-bits 3 --seeds 9
EOF

# row FILE LABEL: the table row of LABEL (the first table only).
row() { awk -v l="$2" '$1 == l && !seen[l]++' "$1" | head -n 1; }
verdict() { row "$1" "$2" | sed -E 's/.*(\]|  -)  +//'; }

# --- The calibration ------------------------------------------------------
cal=tests/calib_compare
[ -n "${LATT_SANITIZED:-}" ] && cal=san/calib_compare
if [ ! -x "$cal" ]; then
	skip "calibration: $cal not built (make check builds it)"
else
	"$cal" >"$TMP/cal.out" 2>&1; crc=$?
	check "calibration: the program ran (rc $crc)" [ "$crc" -eq 0 ]
	awk '/^row /' "$TMP/cal.out" >"$TMP/cal.rows"
	check "calibration: seven rows" [ "$(wc -l <"$TMP/cal.rows")" -eq 7 ]
	bad=$(awk '$4 > 0.05 || $6 > 0.05' "$TMP/cal.rows")
	check "calibration: A vs A called real in at most 5% per row, 3 and 5 runs a side ($(awk '{printf "%s %s/%s ", $2, $4, $6}' "$TMP/cal.rows"))" \
	    [ -z "$bad" ]
	bad=$(awk '($2 == "mean" || $2 == "p50" || $2 == "p90" || $2 == "p95") && $8 < 0.90' "$TMP/cal.rows")
	check "calibration: a 20% shift found in at least 90% with 5 runs a side, mean to p95 ($(awk '{printf "%s %s ", $2, $8}' "$TMP/cal.rows"))" \
	    [ -z "$bad" ]
fi

# --- Verdicts ---------------------------------------------------------------
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/a2.json" \
	"$TMP/b.json"
check "compare: three sides exit 0" [ "$rc" -eq 0 ]
check "compare: nothing on stderr" [ ! -s "$TMP/err" ]
check "compare: one table per later side" \
	[ "$(grep -c '^A: ' "$TMP/out")" -eq 2 ]
check "compare: the runs of one file count (5 runs)" \
	grep -q '^A: .*a.json (5 runs, 20000 samples)' "$TMP/out"
ok=1
for l in mean p50 p90 p95 p99 max; do
	v=$(verdict "$TMP/out" "$l")
	[ "$v" = noise ] || { ok=0; echo "  $l: $v"; }
done
check "compare: the same model, other runs: noise (mean..p99, max)" [ $ok -eq 1 ]

awk '/^C: /{c=1} c' "$TMP/out" >"$TMP/outc"
ok=1
for l in mean p50 p90 p95 p99; do
	r=$(row "$TMP/outc" "$l")
	v=$(verdict "$TMP/outc" "$l")
	ch=$(awk '{print $4}' <<<"$r" | tr -d '%+')
	lo=$(sed -E 's/.*\[([-+0-9.]+)%, ([-+0-9.]+)%\].*/\1/' <<<"$r")
	hi=$(sed -E 's/.*\[([-+0-9.]+)%, ([-+0-9.]+)%\].*/\2/' <<<"$r")
	if [ "$v" != "real difference" ] ||
	    ! awk -v c="$ch" -v lo="$lo" -v hi="$hi" 'BEGIN {
		exit !(c > 10 && c < 30 && lo <= 20 && hi >= 20 && lo > 0) }'; then
		ok=0
		echo "  $r"
	fi
done
check "compare: +20% is a real difference, 20% within the interval" [ $ok -eq 1 ]
check "compare: timer rows when both sides have one" \
	grep -q '^timer p99 ' "$TMP/outc"
check "compare: kernels shown" grep -q '^kernel C: 6.18.44 ' "$TMP/outc"
check "compare: a kernel difference warns" \
	grep -qx 'warning: kernel_release differs: A 6.1.0-test, C 6.18.44' \
	"$TMP/outc"
check "compare: the same settings give no warning" \
	sh -c "! awk '/^C: /{exit} 1' '$TMP/out' | grep -q '^warning:'"

# Too little evidence is said plainly, and a gate never fails on it.
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=p99=10%,mean=10% \
	"$TMP/a1.json" "$TMP/c1.json"
check "one run a side: +50% with a 10% gate exits 0 (rc $rc)" [ "$rc" -eq 0 ]
check "one run a side: every row inconclusive, with the reason" awk '
	/^(timer )?(mean|p50|p90|p95|p99|p99\.9|max) / { n++
	    if ($0 !~ /inconclusive: A has 1 run, a verdict needs 3 a side$/) bad++ }
	END { exit !(n == 14 && bad == 0) }' "$TMP/out"
check "one run a side: the gate says it was not applied" \
	grep -q '^gate: p99: not applied: inconclusive (A has 1 run' "$TMP/out"
check "one run a side: a warning names the runs needed" \
	grep -q '^warning: A has 1 run: verdicts need 3 a side' "$TMP/out"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/few.json" "$TMP/few.json"
check "few samples: p99 inconclusive, naming what it needs" \
	grep -Eq '^p99 .*inconclusive: a run of A has 400 samples, p99 needs 1000$' \
	"$TMP/out"
check "few samples: p50 still has a verdict" \
	grep -Eq '^p50 .*(noise|real difference)$' "$TMP/out"
run_latt "$TMP/out" "$TMP/err" compare \
	"$TMP/v1.json,$TMP/v1b.json,$TMP/v1.json" "$TMP/a.json"
check "schema 1 files are read (rc $rc)" [ "$rc" -eq 0 ]
check "schema 1 files: inconclusive, they keep no blocks" \
	grep -Eq "^p50 .*inconclusive: A's runs keep no blocks \(schema 1 files\)$" \
	"$TMP/out"

# The gate; options anywhere on the command line.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
	--fail-if-worse=p99=10%,max=50%
check "gate after the files: +20% at p99 against 10% exits 3 (rc $rc)" \
	[ "$rc" -eq 3 ]
check "gate: says which row failed" \
	grep -q '^gate: p99: B is +[12][0-9.]*% worse than A (limit 10%): FAIL' \
	"$TMP/out"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" \
	--fail-if-worse=p95=40%,timer.p99=40% "$TMP/b.json"
check "gate between the files, p95 and timer.p99 at 40%: exits 0 (rc $rc)" \
	[ "$rc" -eq 0 ]
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=timer.p90=10% \
	"$TMP/a.json" "$TMP/b.json"
check "gate: timer.p90 exits 3 (rc $rc)" [ "$rc" -eq 3 ]
check "gate: timer.p90 says so" grep -q '^gate: timer.p90: B is' "$TMP/out"
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=min=10%,stdev=10% \
	"$TMP/a.json" "$TMP/a2.json"
check "gate: min and stdev add their rows, noise exits 0 (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^min ' '$TMP/out' && grep -q '^stdev ' '$TMP/out'"
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=mean=1%,p50=1%,p99=1% \
	"$TMP/a.json" "$TMP/a2.json"
check "gate: noise exits 0 even with 1% limits" [ "$rc" -eq 0 ]
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=timer.p99=5% \
	"$TMP/a.json" "$TMP/f2.json"
check "gate: a series one side lacks is not applied" \
	grep -q '^gate: timer.p99: not applied: no timer series' "$TMP/out"

# --json: the same table as data.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" --json \
	--fail-if-worse=p99=10%
check "--json: exits 3 like the text (rc $rc)" [ "$rc" -eq 3 ]
run_latt "$TMP/txt" "$TMP/err" compare "$TMP/a.json" "$TMP/b.json" \
	--fail-if-worse=p99=10%
cat >"$TMP/j.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
rows = d["comparisons"][0]["rows"]
assert d["sides"][0]["runs"] == 5 and d["gate_failed"] is True
assert [r["row"] for r in rows][:7] == ["mean", "p50", "p90", "p95", "p99",
                                        "p99.9", "max"], rows
for r in rows:
    label = r["row"].replace("timer.", "timer ")
    line = [l for l in text if l[:12].strip() == label][0]
    want = {"real": "real difference", "noise": "noise",
            "inconclusive": "inconclusive"}[r["verdict"]]
    assert want in line, (r, line)
    if r["ci_pct"] is not None:
        assert "[%+.1f%%, %+.1f%%]" % tuple(r["ci_pct"]) in line, (r, line)
p99 = [r for r in rows if r["row"] == "p99"][0]
assert p99["gate"] == "fail" and p99["limit_pct"] == 10 and p99["worse"]
PY
if python3 "$TMP/j.py" "$TMP/out" "$TMP/txt" >"$TMP/j.err" 2>&1; then
	pass "--json: rows, intervals, verdicts and the gate agree with the text"
else
	fail "--json: $(tail -n 3 "$TMP/j.err" | tr '\n' ' ')"
fi

# Every recorded setting: a difference warns, one line naming it.
cat >"$TMP/set.py" <<'PY'
import json, sys
tmp = sys.argv[1]
d = json.load(open(tmp + "/a1.json"))
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
        json.dump(e, open("%s/set-%s.json" % (tmp, k), "w"))
        keys.append(k)
open(tmp + "/keys", "w").write("\n".join(keys) + "\n")
PY
python3 "$TMP/set.py" "$TMP"
ok=1; n=0
while read -r k; do
	n=$((n + 1))
	"$LATT" compare "$TMP/a1.json" "$TMP/set-$k.json" >"$TMP/out" 2>&1
	w=$(grep -c '^warning: .* differs' "$TMP/out")
	if [ "$w" -ne 1 ] || ! grep -q "^warning: $k differs: A " "$TMP/out"; then
		ok=0
		echo "  $k: $(grep '^warning' "$TMP/out" | tr '\n' '|')"
	fi
done <"$TMP/keys"
check "settings: each of $n recorded settings warns alone when it differs" \
	[ $ok -eq 1 -a $n -ge 30 ]

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
run_latt "$TMP/out" "$TMP/err" compare "$TMP/o1.json" "$TMP/o2.json"
ok=1
for k in clients max_delay_ns loop policy nice cpus parent_cpu work_kb loads \
    command argv samples_limit warmup_ns; do
	[ "$(grep -c "^warning: $k differs: " "$TMP/out")" -eq 1 ] ||
		{ ok=0; echo "  no warning for $k"; }
done
check "settings: two real runs that differ warn once for each setting" [ $ok -eq 1 ]

# A hostile file: many keys, one repeated at the end, refused quickly.
python3 -c 'print("{" + ",".join("\"k%d\": 1" % i for i in range(200000)) + ", \"k7\": 2}")' \
	>"$TMP/keys.json"
run_latt "$TMP/out" "$TMP/err" compare "$TMP/keys.json" "$TMP/keys.json"
check "duplicate key among 200000: refused, naming the key (rc $rc)" \
	grep -q 'keys.json:1:[0-9]*: duplicate key "k7"' "$TMP/err"

# usage_case NAME ARGS...: exit 2, one line on stderr, nothing on stdout.
usage_case() {
	local name=$1
	shift
	run_latt "$TMP/out" "$TMP/err" "$@"
	if [ "$rc" -eq 2 ] && [ "$(err_lines "$TMP/err")" -eq 1 ] &&
	    [ ! -s "$TMP/out" ] && grep -q '^latt: ' "$TMP/err"; then
		pass "$name"
	else
		fail "$name: rc $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}
A=$TMP/a1.json
usage_case "gate spec: no %" compare --fail-if-worse=p99=10 "$A" "$A"
usage_case "gate spec: unknown stat" compare --fail-if-worse=p98=10% "$A" "$A"
usage_case "gate spec: not a number" compare --fail-if-worse=p99=x% "$A" "$A"
usage_case "gate spec: negative" compare --fail-if-worse=p99=-5% "$A" "$A"
usage_case "gate spec: empty part" compare --fail-if-worse=p99=1%,,max=2% "$A" "$A"
usage_case "gate spec: twice" compare --fail-if-worse=p99=1%,p99=2% "$A" "$A"
check "gate spec: the message names the part" \
	grep -q 'p99=2%: p99 is given twice' "$TMP/err"
usage_case "gate spec: empty" compare --fail-if-worse= "$A" "$A"
usage_case "compare: one side" compare "$A"
usage_case "compare: unknown option" compare --frobnicate "$A" "$A"
usage_case "compare: empty file name" compare "$A," "$A"
usage_case "compare: missing file" compare "$A" "$TMP/nonexistent.json"
usage_case "gate spec: unknown timer statistic" compare \
	--fail-if-worse=timer.p98=1% "$A" "$A"
usage_case "compare: --json takes no value" compare --json=x "$A" "$A"
run_latt "$TMP/out" "$TMP/err" compare --help
check "compare: --help exits 0 with the usage" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: latt compare' '$TMP/out'"

# Malformed, truncated and foreign files: exit 2, one line naming the
# file and the place.
bad_file() {	# name, content (printf format), or name and - for bad.json
	local name=$1 f=$TMP/bad.json
	[ "$2" = - ] || printf "$2" >"$f"
	run_latt "$TMP/out" "$TMP/err" compare "$A" "$f"
	if [ "$rc" -eq 2 ] && [ "$(err_lines "$TMP/err")" -eq 1 ] &&
	    [ ! -s "$TMP/out" ] &&
	    grep -Eq "^latt: $f:[0-9]+:[0-9]+: " "$TMP/err"; then
		pass "bad file: $name"
	else
		fail "bad file: $name: rc $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}
size=$(wc -c <"$A")
head -c $((size / 2)) "$A" >"$TMP/bad.json"
bad_file "truncated in the middle" -
bad_file "empty" ""
bad_file "garbage" "hello\n"
bad_file "trailing comma" '{"a": 1,}'
bad_file "duplicate key" '{"a": 1, "a": 2}'
bad_file "leading zero" '[01]'
bad_file "bare minus" '[-]'
bad_file "number out of range" '[1e999]'
bad_file "lone high surrogate" '["\\ud800x"]'
bad_file "lone low surrogate" '["\\udc00"]'
bad_file "bad escape" '["\\x"]'
bad_file "NUL escape" '["\\u0000"]'
bad_file "raw control character" '["a\tb"]'
bad_file "invalid UTF-8" '["\xc3\x28"]'
bad_file "byte order mark" '\xef\xbb\xbf{}'
bad_file "two values" '{} {}'
bad_file "NUL byte" '{}\0'
head -c 100000 /dev/zero | tr '\0' '[' >"$TMP/bad.json"
bad_file "deep nesting" -
bad_file "foreign JSON" '{"foo": 1}\n'
check "bad file: the place is line:column" \
	grep -q 'bad.json:1:1: not a latt results file' "$TMP/err"
bad_file "not an object" '[1, 2]'
bad_file "schema_version 3" '{"tool": "latt", "schema_version": 3}'
bad_file "schema 2 without runs" '{"tool": "latt", "schema_version": 2}'
bad_file "schema 2, no run" '{"tool": "latt", "schema_version": 2, "runs": []}'
bad_file "no latency" '{"tool": "latt", "schema_version": 1}'
bad_file "a run without latency" '{"tool": "latt", "schema_version": 2, "runs": [{}]}'
V=$TMP/v1.json
sed 's/"samples": 20000/"samples": 20001/' "$V" >"$TMP/bad.json"
bad_file "counts do not add up" -
sed '0,/"buckets": \[/s//"buckets": [[3, 4, 1],/' "$V" >"$TMP/bad.json"
bad_file "a bucket that is no bucket" -
cat >"$TMP/blk.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def save(name, e):
    json.dump(e, open("%s/blk-%s.json" % (sys.argv[2], name), "w"), indent=1)
def copy():
    return json.loads(json.dumps(d))
e = copy(); e["runs"][0]["latency"]["blocks"]["list"][0]["samples"] += 1
save("count", e)
e = copy(); b = e["runs"][0]["latency"]["blocks"]["list"][1]
b["buckets"][0], b["buckets"][2] = b["buckets"][2], b["buckets"][0]
save("order", e)
e = copy(); e["runs"][0]["latency"]["blocks"]["list"].pop()
save("missing", e)
e = copy(); del e["runs"][0]["latency"]["blocks"]
save("none", e)
e = copy(); e["runs"][0]["latency"]["blocks"]["list"][0]["buckets"].append(9)
save("odd", e)
e = copy(); e["runs"][0]["latency"]["blocks"]["list"][0]["buckets"][0] = 99999
save("index", e)
PY
python3 "$TMP/blk.py" "$A" "$TMP"
for n in count order missing none odd index; do
	cp "$TMP/blk-$n.json" "$TMP/bad.json"
	bad_file "blocks: $n" -
done

# A valid file with a surrogate pair in a string is accepted.
sed 's/"hostname": "vm"/"hostname": "v\\ud83d\\ude00m"/' "$A" >"$TMP/x.json"
run_latt "$TMP/out" "$TMP/err" compare "$A" "$TMP/x.json"
check "surrogate pair: accepted and decoded" \
	grep -q "warning: hostname differs: A vm, B v$(printf '\xf0\x9f\x98\x80')m" \
	"$TMP/out"

# The mutation fuzzer (sanitized), once per make check.
if [ -n "${LATT_SANITIZED:-}" ]; then
	:
elif [ ! -x san/fuzz_compare ]; then
	skip "fuzz: san/fuzz_compare not built (make check builds it)"
else
	if san/fuzz_compare 3000 1 "$TMP/f1.json" "$TMP/f2.json" \
	    >"$TMP/fuzz.out" 2>&1; then
		pass "fuzz: 3000 mutants, no crash ($(cat "$TMP/fuzz.out"))"
	else
		fail "fuzz: $(tail -n 5 "$TMP/fuzz.out" | tr '\n' ' ')"
	fi
fi

# --baseline: a run compared, after its summary, with saved results.
run_latt "$TMP/r1.out" "$TMP/r1.err" -q -c2 -f1 -t3 --json="$TMP/r1.json" 'sleep 1'
run_latt "$TMP/r2.out" "$TMP/r2.err" -q -c2 -f1 -t3 --baseline="$TMP/r1.json" 'sleep 1'
if [ "$rc" -eq 0 ] && grep -q '^Entries: ' "$TMP/r2.out" &&
    grep -q '^Against the baseline' "$TMP/r2.out" &&
    grep -Eq '^p50 +[0-9.]+ +[0-9.]+ ' "$TMP/r2.out"; then
	pass "--baseline: the table follows the summary"
else
	fail "--baseline: rc $rc: $(tail -n 5 "$TMP/r2.out" | tr '\n' '|') $(cat "$TMP/r2.err")"
fi
python3 "$(dirname "$0")/mkresult.py" "$TMP/fast.json" --median 100 \
	--sigma 0.1 --seeds 1,2,3 --n 2000
run_latt "$TMP/r3.out" "$TMP/r3.err" -q -c4 -f1 -t3 -d1 --load=none \
    --repeat=3 --baseline="$TMP/fast.json" --fail-if-worse=mean=10%
check "--baseline --repeat=3 --fail-if-worse: runs far slower than their baseline exit 3 (rc $rc)" \
	[ "$rc" -eq 3 ]
check "--repeat=3: three summaries" [ "$(grep -c '^Entries: ' "$TMP/r3.out")" -eq 3 ]
check "--baseline: B is the three runs" grep -q '^B: these runs (3 runs' "$TMP/r3.out"
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
    'all(sum(b["samples"] for b in x["latency"]["blocks"]["list"]) == x["latency"]["samples"] for x in r)')
if [ "$rc" -ne 0 ]; then
	fail "--repeat=3: rc $rc: $(head -c 200 "$TMP/rep.err")"
elif [ -n "$w" ]; then
	fail "--repeat=3: the file: $w"
else
	pass "--repeat=3: three runs in one file, the top level their total"
fi
run_latt "$TMP/out" "$TMP/err" compare "$TMP/rep.json" "$TMP/rep.json"
check "--repeat=3: compare reads three runs" \
	grep -q '^A: .*rep.json (3 runs' "$TMP/out"

usage_case "--repeat=0 is a usage error" --repeat=0 true
usage_case "--repeat=1001 is a usage error" --repeat=1001 true
usage_case "--repeat=x is a usage error" --repeat=x true

# Real runs.  Two short runs with the same settings, one run a side: the
# gate never fails, whatever the noise.
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "real runs: timing comparisons skip under the sanitizers"
else
	for i in 1 2; do
		run_latt "$TMP/s$i.out" "$TMP/s$i.err" -q -c4 -f1 -t3 -d1 \
			--load=none --json="$TMP/s$i.json"
	done
	run_latt "$TMP/out" "$TMP/err" compare "$TMP/s1.json" "$TMP/s2.json" \
		--fail-if-worse=p99=10%
	check "real runs, one a side, p99=10% gate: never exits 3 (rc $rc)" \
		[ "$rc" -eq 0 ]
	# A SCHED_FIFO hog (priority 1) on the clients' CPU, busy 4 ms in
	# every 5: called worse at the median.  The parent stays on CPU 0, so
	# that it stamps on time.  hog_side NAME: the runs of one side.
	hog_side() {
		run_latt "$TMP/$1.out" "$TMP/$1.err" -q -c4 --cpus=1 \
			--parent-cpu=0 -f1 -t3 -d1 --warmup=400ms --load=none \
			--repeat=3 --json="$TMP/$1.json"
	}
	if [ "$(nproc)" -lt 2 ]; then
		skip "real runs: a SCHED_FIFO hog needs 2 CPUs"
	else
		hog_side h0
		if ! start_hog 1 4 5 60 1; then
			skip "real runs: $hog_why"
		else
			hog_side h1
			stop_hog
			run_latt "$TMP/out" "$TMP/err" compare "$TMP/h0.json" \
				"$TMP/h1.json" --fail-if-worse=p50=10%
			check "real runs: a SCHED_FIFO hog on the clients' CPU is called worse (rc $rc: $(row "$TMP/out" p50))" \
				[ "$rc" -eq 3 ]
		fi
	fi
fi

no_leftovers compare
