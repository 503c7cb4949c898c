#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Everyday use (issue 12): times with decimals and units, output files
# checked before anything runs, a clean JSON stdout beside a chatty
# workload, a tidy summary, --log's timer rows, and the plot (parsed with
# python3's xml module: the percentile panel, the title's fields, no text
# outside the canvas, no two labels on each other, no unsupported
# percentile marked, "no samples" on an empty run, per-slice p50/p99 in
# band mode).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "everyday: python3 is not installed"
	exit 0
fi
OUT=$TMP/out ERR=$TMP/err

# --- Times with decimals and units ----------------------------------------
run_latt "$OUT" "$ERR" -q -c2 -f 200us -t 1ms -d 1.5 --warmup=0.25s \
    --json="$TMP/t.json" --fail-above=p99=1.5s
expect_json "$TMP/t.json" 'd["parameters"]["min_delay_ns"] == 200000' \
    'd["parameters"]["max_delay_ns"] == 1000000'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
ran=$(field "$OUT" ran | awk '{ print $1 }')
awk -v r="${ran:-0}" 'BEGIN { exit !(r >= 1.49 && r <= 1.7) }' ||
    bad "ran '$ran' s for -d 1.5"
[ "$(field "$OUT" warmup | awk '{ print $1, $2 }')" = "250 ms," ] ||
    bad "warmup line: $(field "$OUT" warmup)"
r=$(field "$OUT" rounds)
[ "${r:-0}" -ge 500 ] || bad "only '$r' rounds in 1.5 s with -f 200us -t 1ms"
verdict "times: -f 200us -t 1ms -d 1.5 --warmup=0.25s --fail-above=p99=1.5s ($r rounds in $ran s)"

for good in "-d 2.5s" "-d 0.5m" "--warmup=0.5 -d 1" "-f 0.5 -t 1.5" \
    "--fail-above=p99=1.5ms,max=0.25s" "-f 1.5ms -t 2500us"; do
	# Parsed, not run: -n 1 with a zero-delay first round ends at once.
	# shellcheck disable=SC2086
	run_latt "$OUT" "$ERR" -q -c1 -n 1 $good true
	[ "$rc" -ne 2 ] || bad "'$good' is a usage error: $(short "$ERR")"
done
verdict "times: decimals and units accepted everywhere"
for bad_t in "-f 1.5.0" "-t 2x" "-d 1.0000000001" "-f 0.0000001" \
    "--warmup=.s" "-d ." "-f -1" "-t 3601s"; do
	# shellcheck disable=SC2086
	run_latt "$OUT" "$ERR" $bad_t true
	[ "$rc" -eq 2 ] && [ "$(err_lines "$ERR")" -eq 1 ] && [ ! -s "$OUT" ] ||
	    bad "'$bad_t': rc $rc, $(short "$ERR")"
done
verdict "times: bad values are one-line usage errors"

# --- The flagship command: latt -c8 'make -j4' ------------------------------
# With a command and neither -f nor -t, the delays are 10 to 90 ms at -c8:
# at least 1,000 samples per 30 s of workload (2009's 100 to 500 ms gave
# about 800), here in 3 s: 100 (about 480 expected).
run_latt "$OUT" "$ERR" -q -c8 --json="$TMP/flag.json" 'sleep 3'
n=$(entries "$OUT" 8)
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "${n:-0}" -ge 100 ] || bad "only '$n' samples in 3 s at -c8, want 100"
expect_json "$TMP/flag.json" 'd["parameters"]["min_delay_ns"] == 10000000' \
    'd["parameters"]["max_delay_ns"] == 90000000'
verdict "latt -c8 'sleep 3': $n samples (at least 1,000 per 30 s)"
# Explicit -f or -t as ever (the other one 2009's); more clients, longer
# delays in proportion, up to 2009's 100 to 500 ms.
for c in "-c8 -f 20:20:500" "-c8 -t 200:100:200" "-c16:20:180" \
    "-c40:50:450" "-c200:100:500" "-c2 -f 1 -t 3:1:3"; do
	# shellcheck disable=SC2086
	run_latt "$OUT" "$ERR" -q ${c%%:*} -d 0.2 --json="$TMP/d.json" 'sleep 5'
	[ "$rc" -eq 0 ] || bad "${c%%:*}: exit $rc: $(short "$ERR")"
	w=${c#*:}
	expect_json "$TMP/d.json" \
	    "d['parameters']['min_delay_ns'] == ${w%:*} * 1000000" \
	    "d['parameters']['max_delay_ns'] == ${w#*:} * 1000000"
done
verdict "delays with a command: -f or -t as given, the default grows with -c"
no_leftovers "delays with a command"

# --- Output files are checked before anything runs -------------------------
for opt in --json --plot --log; do
	rm -f "$TMP/ran"
	timed_latt "$OUT" "$ERR" "$opt=$TMP/no/such/dir/x" -c2 -f1 -t2 \
	    "touch $TMP/ran; sleep 1"
	[ "$rc" -eq 1 ] || bad "exit $rc"
	[ ! -e "$TMP/ran" ] || bad "the workload ran"
	[ ! -s "$OUT" ] || bad "stdout: $(short "$OUT")"
	[ "$(nlines "$ERR")" -eq 1 ] && grep -q "no/such/dir/x: No such file" "$ERR" ||
	    bad "stderr: $(short "$ERR")"
	[ "$ms" -lt 900 ] || bad "took $ms ms"
	verdict "$opt=bad/path fails at once, nothing started"
done
# An existing report is only replaced once the new one is written.
echo old >"$TMP/keep.json"
run_latt "$OUT" "$ERR" -q -c1 -f1 -t2 --json="$TMP/keep.json" \
    "cat $TMP/keep.json > $TMP/during"
[ "$rc" -eq 0 ] && [ "$(cat "$TMP/during")" = old ] &&
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/keep.json"
check "--json=FILE: the old file stays until the run is over" test $? -eq 0
# --json FILE (a space): a usage error that suggests --json=FILE.
run_latt "$OUT" "$ERR" --json run.json
[ "$rc" -eq 2 ] && grep -q -- '--json=run.json' "$ERR" && [ ! -s "$OUT" ]
check "--json run.json: a usage error suggesting --json=run.json" test $? -eq 0

# --- JSON on stdout beside a chatty workload --------------------------------
run_latt "$OUT" "$ERR" -q -c2 -f1 -t2 --json \
    'echo hello from the workload; printf "{not json\n"; sleep 0.3'
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" 2>/dev/null ||
    bad "stdout is not JSON: $(short "$OUT")"
grep -q 'hello from the workload' "$ERR" || bad "the workload's output is not on stderr"
[ "$rc" -eq 0 ] || bad "exit $rc"
verdict "--json to stdout: the workload's stdout goes to stderr"

# --- The summary: aligned, within 80 columns, one spelling of us ------------
tidy() {	# name, latt arguments...
	local name=$1
	shift
	run_latt "$OUT" "$ERR" "$@"
	# Every value starts in column 25 (text) or ends in one column
	# (numbers); nothing but the command's line is over 80 columns.
	expand "$OUT" | awk '
		/^        workload / { next }
		length($0) > 80 { print "long: " $0 }
		/^Averages/ { blk = 1 } /^$/ { blk = 0 }
		!blk && /usec|\xc2\xb5s/ { print "unit: " $0 }
		!blk && /^        [a-z]/ && !/ [-0-9.]+$/ &&
		    substr($0, 24, 2) != "  " { print "col: " $0 }
		!blk && /^        [a-z]/ && !/ [-0-9.]+$/ &&
		    substr($0, 26, 1) == " " { print "col: " $0 }
	' >"$TMP/tidy"
	expand "$OUT" | awk '/^        [a-z]/ && / [-0-9.]+$/ &&
	    !/^        (seed|workload) / { print length($0) }' |
	    sort -u >"$TMP/ends"
	[ -s "$TMP/tidy" ] && bad "$(head -3 "$TMP/tidy" | tr '\n' '|')"
	[ "$(grep -c . "$TMP/ends")" -eq 1 ] ||
	    bad "numbers end in columns $(tr '\n' ' ' <"$TMP/ends")"
	[ "$rc" -eq 0 ] || bad "exit $rc"
	verdict "summary ($name): two aligned columns within 80, 'us' outside the 2009 block"
}
tidy "loads, -x, warmup" -c2 -f1 -t3 -l cpu:1 -l syscall:1 -x 8 \
    --warmup=0.1 -d 1 "sleep 5"
tidy "few samples" -c2 -n 30 -f1 -t2 -x 8 "sleep 5"

# --- --log: timer rows -------------------------------------------------------
run_latt "$OUT" "$ERR" -q -c2 -f1 -t3 -d 1 --log="$TMP/l.csv"
tl=$(awk -F, 'NR > 1 && $3 == -1' "$TMP/l.csv" | wc -l)
cl=$(awk -F, 'NR > 1 && $3 >= 0' "$TMP/l.csv" | wc -l)
[ "$tl" -eq "$(field "$OUT" "timer samples")" ] && [ "$tl" -gt 0 ] ||
    bad "$tl timer rows, summary says $(field "$OUT" "timer samples")"
[ "$cl" -eq "$(entries "$OUT" 2)" ] || bad "$cl client rows, Entries $(entries "$OUT" 2)"
verdict "--log: one row of client -1 per timer sample ($tl), the rest are Entries"

# The log describes itself: a series column (wake, timer) and a run column
# (--repeat), rows in the order of time within each run; the rows of each
# run add up to its summary.
run_latt "$OUT" "$ERR" -q -c3 -f1 -t3 -d 0.7 --repeat=2 --log="$TMP/r.csv"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
grep '^Entries: ' "$OUT" | awk '{ print $2 }' >"$TMP/r.entries"
python3 - "$TMP/r.csv" "$TMP/r.entries" >"$TMP/r.verdict" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
entries = [int(x) for x in open(sys.argv[2]).read().split()] + [0, 0]
print("%d rows, runs %s" % (len(rows), sorted({r.get("run") for r in rows})))
if not rows or "series" not in rows[0] or "run" not in rows[0]:
    print("BAD no series or run column: %r" % (rows[:1],))
    sys.exit(0)
for r in rows:
    if r["series"] != ("timer" if r["client"] == "-1" else "wake"):
        print("BAD series %r for client %r" % (r["series"], r["client"]))
        break
for run, want in ((1, entries[0]), (2, entries[1])):
    mine = [r for r in rows if r["run"] == str(run)]
    t = [int(r["time_ns"]) for r in mine]
    if t != sorted(t):
        print("BAD run %d: rows not in the order of time" % run)
    n = sum(r["series"] == "wake" for r in mine)
    if n != want or n == 0:
        print("BAD run %d: %d wake rows, Entries %d" % (run, n, want))
if {r["run"] for r in rows} != {"1", "2"}:
    print("BAD runs %r" % sorted({r["run"] for r in rows}))
EOF
verdict_from "--log: series and run columns, rows in time order per run" \
    "$TMP/r.verdict"

# --- The plot ----------------------------------------------------------------
cat >"$TMP/svg.py" <<'EOF'
import re, socket, os, sys, xml.etree.ElementTree as ET
path, want, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
ns = "{http://www.w3.org/2000/svg}"
bad = []
try:
    root = ET.parse(path).getroot()
except Exception as e:
    print("FAIL: plot %s: not XML: %s" % (want, e)); sys.exit(0)
W, H = float(root.get("width")), float(root.get("height"))
ids = {e.get("id") for e in root.iter()}
texts = [e for e in root.iter(ns + "text")]
alltext = " ".join("".join(e.itertext()) for e in texts)
title = " ".join("".join(e.itertext()) for e in root.iter(ns + "g")
                 if e.get("id") == "title" for e in e.iter(ns + "text"))
def size(e):
    s = e.get("font-size")
    return float(s) if s else 12.0
# Every text inside the canvas, its width estimated generously.
for e in texts:
    if e.get("transform"):
        m = re.match(r"translate\(([-0-9.]+) ([-0-9.]+)\)", e.get("transform"))
        x, y = float(m.group(1)), float(m.group(2))
        if not (0 <= x <= W and 0 <= y <= H):
            bad.append("rotated text at %s,%s" % (x, y))
        continue
    x, y = float(e.get("x")), float(e.get("y"))
    w = 0.62 * size(e) * len("".join(e.itertext()))
    a = e.get("text-anchor", "start")
    x0 = x - w if a == "end" else x - w / 2 if a == "middle" else x
    if x0 < 0 or x0 + w > W or y - size(e) < 0 or y > H:
        bad.append("text outside the canvas: %r at %s,%s" % (
            "".join(e.itertext())[:40], x, y))
# No two value labels on each other.
boxes = []
for e in root.iter(ns + "text"):
    if e.get("class") != "label":
        continue
    x, y, s = float(e.get("x")), float(e.get("y")), size(e)
    w = 0.55 * s * len(e.text)
    x0 = x - w if e.get("text-anchor") == "end" else x
    boxes.append((x0, y - s * 0.8, x0 + w, y, e.text))
for i in range(len(boxes)):
    for j in range(i + 1, len(boxes)):
        a, b = boxes[i], boxes[j]
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
            bad.append("labels overlap: %r %r" % (a[4], b[4]))
labels = [b[4] for b in boxes]
if want != "empty":
    for k in ("percentiles", "latency-percentiles", "timeline",
              "distribution", "title"):
        if k not in ids:
            bad.append("no #%s" % k)
    if not re.search(r"90%.*99%.*99\.9%", alltext):
        bad.append("no 1/(1-p) percentile axis")
# The title: command, clients, delays, kernel, host, date.
for f in (cmd[:20], "client", "delays", os.uname().release,
          socket.gethostname()):
    if f not in title:
        bad.append("title lacks %r" % f)
if not re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", title):
    bad.append("title lacks a date")
if want == "three":
    if [l for l in labels if re.match(r"p\d", l)]:
        bad.append("percentiles marked from 3 samples: %r" % labels)
    if not [l for l in labels if l.startswith("max")]:
        bad.append("no max label: %r" % labels)
if want == "points":
    if not [l for l in labels if l.startswith("p99 ")]:
        bad.append("no p99 label: %r" % labels)
    if re.search(r"\d\.\d{4,} ", alltext):
        bad.append("unscaled values: %s" % re.findall(r"\S*\d\.\d{4,} \S+", alltext)[:3])
if want == "empty" and alltext.count("no samples") < 2:
    bad.append("no 'no samples'")
if want == "bands":
    for k in ("samples-bands", "samples-p50", "samples-p99"):
        if k not in ids:
            bad.append("no #%s" % k)
if os.path.getsize(path) > 2 * 1024 * 1024:
    bad.append("over 2 MB")
print(("PASS: plot %s" % want) if not bad else
      ("FAIL: plot %s: %s" % (want, "; ".join(bad[:4]))))
EOF
plot() {	# name, command, latt options...
	local name=$1 cmd=$2
	shift 2
	run_latt "$OUT" "$ERR" -q --plot="$TMP/$name.svg" "$@" ${cmd:+"$cmd"}
	[ "$rc" -eq 0 ] || fail "plot $name: exit $rc: $(short "$ERR")"
	python3 "$TMP/svg.py" "$TMP/$name.svg" "$name" "${cmd:-no command}"
}
plot points "sleep 1.5 # a long command line that goes on and on and on and on and on and on and on past the edge of the picture" \
    -c4 -f1 -t2
plot three "sleep 5" -c1 -n 3 -f1 -t2
plot empty "true" -c1 -f 2s -t 2s
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "plot bands: 20,000 samples take long under the sanitizers"
else
	plot bands "" -c8 -f0 -t 300us -d 1.5 -l none
fi
