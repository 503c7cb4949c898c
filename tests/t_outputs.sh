#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The outputs of issue 3: --json, --log, --per-client, --histogram, --plot
# and the progress line.  The JSON is checked with python3's json module
# against the text summary and against statistics recomputed from --log;
# the SVG with python3's xml module (and xmllint when there is one).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "outputs: python3 is not installed (.ci/run installs it)"
	exit 0
fi

# --- One run, every file output, text on stdout -------------------------
run_latt "$TMP/out" "$TMP/err" -c3 -f1 -t4 --json="$TMP/run.json" \
    --log="$TMP/run.csv" --plot="$TMP/run.svg" --per-client --histogram \
    --details 'sleep 2.5'
check "outputs: run exits 0 (rc=$rc)" test "$rc" -eq 0
check "outputs: stderr is empty without a terminal (no progress)" \
    test ! -s "$TMP/err"

cat >"$TMP/check.py" <<'EOF'
import json, math, re, sys

tmp = sys.argv[1]
def ok(name, cond, why=""):
    print(("PASS: %s" % name) if cond else ("FAIL: %s: %s" % (name, why)))

text = open(tmp + "/out").read()
try:
    d = json.load(open(tmp + "/run.json"))
except Exception as e:
    ok("json: parses", False, str(e)); sys.exit(0)
ok("json: parses", True)
ok("json: schema_version 2, tool latt",
   d.get("schema_version") == 2 and d.get("tool") == "latt")
for k in ("parameters", "environment", "workload", "run", "latency",
          "per_client"):
    ok("json: has %s" % k, k in d)
env = d["environment"]
ok("json: environment fields",
   all(k in env for k in ("kernel_release", "kernel_version", "machine",
       "cpus_online", "clocksource", "cmdline", "preemption",
       "timer_slack_ns", "latt_version")) and env["cpus_online"] >= 1,
   repr(env))
p = d["parameters"]
ok("json: parameters", p["clients"] == 3 and p["min_delay_ns"] == 1000000
   and p["max_delay_ns"] == 4000000 and p["command"] == "sleep 2.5"
   and p["argv"] == ["sleep 2.5"], repr(p))
ok("json: workload exited 0", d["workload"]["status"] == "exited" and
   d["workload"]["exit_code"] == 0 and d["workload"]["signal"] is None,
   repr(d["workload"]))
ok("json: ended by the workload", d["run"]["ended_by"] == "workload")
L = d["latency"]

# Against the text summary (its details table, four significant digits).
m = re.search(r"^Entries: (\d+) \(clients=(\d+)\)", text, re.M)
ok("json: samples agree with Entries", m and int(m.group(1)) == L["samples"],
   "text %s json %s" % (m and m.group(1), L["samples"]))
hdr = re.search(r"^\(us\) +samples +(.*)$", text, re.M)
row = re.search(r"^latency +(\d+) +(.*)$", text, re.M)
cells = dict(zip(hdr.group(1).split(), row.group(2).split())) if hdr and row else {}
ok("text: the table's latency row", cells and int(row.group(1)) == L["samples"],
   repr(row and row.group(0)))
# A percentile with fewer than 10 samples beyond it is "-" and null.
need = {"p50": 20, "p90": 100, "p99": 1000, "p99.9": 10000}
pairs = [("min", L["min_ns"]), ("p50", L["p50_ns"]), ("p90", L["p90_ns"]),
         ("p99", L["p99_ns"]), ("p99.9", L["p99_9_ns"]),
         ("worst", L["max_ns"]), ("mean", L["mean_ns"]), ("sd", L["stdev_ns"])]
def near(t, ns):
    """t is ns in microseconds to its printed digits ("1.234s": seconds)."""
    scale = 1e6 if t.endswith("s") else 1.0
    t = t.rstrip("s")
    digits = len(t.split(".")[1]) if "." in t else 0
    return abs(ns / 1000.0 - float(t) * scale) <= (0.5 * 10 ** -digits +
                                                   1e-9) * scale
for label, ns in pairs:
    t = cells.get(label)
    if label in need and L["samples"] < need[label]:
        ok("json: %s is - and null below %d samples" % (label, need[label]),
           t == "-" and ns is None, "text %s json %s" % (t, ns))
        continue
    ok("json: %s agrees with the text" % label,
       t not in (None, "-") and ns is not None and near(t, ns),
       "text %s json %s ns" % (t, ns))
m = re.search(r"worst at\t *client (\d+), ([0-9.]+) s", text)
ok("json: worst at agrees with the text", m and
   int(m.group(1)) == L["max_client"] and
   abs(L["max_at_ns"] / 1e9 - float(m.group(2))) <= 5e-7, repr(m and m.groups()))
m = re.search(r"^\trounds\t *(\d+)$", text, re.M)
ok("json: rounds agree with the text", m and int(m.group(1)) == d["run"]["rounds"])

# Against the raw samples of --log.
lines = open(tmp + "/run.csv").read().splitlines()
ok("log: header", lines[0] ==
   "time_ns,round,client,cpu,latency_ns,pos,rq_wait_ns,series,run,"
   "waker_cpu,place", lines[0])
cells = [l.split(",") for l in lines[1:]]
allrows = [tuple(int(x) if x else -1 for x in c[:7]) for c in cells]
# Rows of client -1 are the timer's samples (pos -1), series timer; the
# others wake-ups; one run; in the order of time.
ok("log: series timer for client -1, wake for the others; run 1",
   all(len(c) == 11 and c[7] == ("timer" if c[2] == "-1" else "wake") and
       c[8] == "1" for c in cells), repr([c for c in cells if len(c) != 11 or
       c[7] != ("timer" if c[2] == "-1" else "wake") or c[8] != "1"][:2]))
ok("log: rows in the order of time",
   all(allrows[i][0] <= allrows[i + 1][0] for i in range(len(allrows) - 1)),
   repr([allrows[i:i + 2] for i in range(len(allrows) - 1)
         if allrows[i][0] > allrows[i + 1][0]][:1]))
rows = [r for r in allrows if r[2] >= 0]
trows = [r for r in allrows if r[2] == -1]
ok("log: one timer row per timer sample (%d)" % len(trows),
   len(trows) == d["timer"]["samples"] and len(trows) > 0 and
   len(rows) + len(trows) == len(allrows) and
   all(r[5] == -1 for r in trows),
   "log %d json %r" % (len(trows), d.get("timer", {}).get("samples")))
ok("log: timer rows agree with the JSON's timer maximum",
   trows and max(r[4] for r in trows) == d["timer"]["max_ns"])
lat = [r[4] for r in rows]
n = len(lat)
ok("log: one line per sample", n == L["samples"] and n > 0,
   "log %d json %d" % (n, L["samples"]))
ok("log: min and max exact", min(lat) == L["min_ns"] and max(lat) == L["max_ns"],
   "log %d..%d json %d..%d" % (min(lat), max(lat), L["min_ns"], L["max_ns"]))
mean = math.fsum(lat) / n
ok("log: mean exact (relative 1e-9)",
   abs(mean - L["mean_ns"]) <= 1e-9 * abs(mean), "log %r json %r" % (mean, L["mean_ns"]))
imax = lat.index(max(lat))
ok("log: the max's client and time", rows[imax][2] == L["max_client"] and
   rows[imax][0] == L["max_at_ns"], repr(rows[imax]))
ok("log: rounds", max(r[1] for r in rows) == d["run"]["rounds"])
ok("log: rounds ascend, times within the run",
   all(rows[i][1] <= rows[i + 1][1] for i in range(n - 1)) and
   min(r[0] for r in rows) >= 0 and max(r[0] for r in rows) <= d["run"]["wall_ns"])
s = sorted(lat)
ok("log: positions in a round are 0..clients-1, each once per round",
   all(sorted(r[5] for r in rows if r[1] == k) == list(range(3))
       for k in set(r[1] for r in rows)))
for q, key in ((0.5, "p50_ns"), (0.9, "p90_ns"), (0.95, "p95_ns"),
               (0.99, "p99_ns"), (0.999, "p99_9_ns"), (0.9999, "p99_99_ns")):
    if n < round(10 / (1 - q)):
        ok("log: %s null below %d samples" % (key, round(10 / (1 - q))),
           L[key] is None, repr(L[key]))
        continue
    exact = s[max(1, math.ceil(q * n - 1e-9)) - 1]
    ok("log: %s within 0.1%%" % key,
       abs(L[key] - exact) <= exact / 1024.0 + 1, "json %d exact %d" % (L[key], exact))
var = math.fsum((x - mean) ** 2 for x in lat) / (n - 1) if n > 1 else 0
ok("log: stdev (relative 1e-6)",
   abs(math.sqrt(var) - L["stdev_ns"]) <= 1e-6 * max(1, math.sqrt(var)))

# The histogram's buckets.
b = L["histogram"]["buckets"]
ok("json: buckets sum to samples", sum(c for _, _, c in b) + L["overflow"] == n)
import bisect
lows = [lo for lo, _, _ in b]
held = [0] * len(b)
for x in lat:
    i = bisect.bisect_right(lows, x) - 1
    if i >= 0 and x <= b[i][1]:
        held[i] += 1
ok("json: buckets ascend and hold their samples",
   all(b[i][1] < b[i + 1][0] for i in range(len(b) - 1)) and
   all(lo <= hi for lo, hi, _ in b) and held == [c for _, _, c in b])

# The run of runs[]: its series is the top level's (one run), and it
# carries its series' statistics and histogram, no "blocks" (compare never
# needed them; older files' are ignored).
ok("json: one run in runs[], nruns 1", d.get("nruns") == 1 and
   len(d.get("runs", [])) == 1)
R = d["runs"][0]
ok("json: runs[0] latency equals the top level",
   all(R["latency"][k] == L[k] for k in ("samples", "min_ns", "max_ns",
       "p99_ns")) and R["latency"]["histogram"] == L["histogram"])
def keys(v):
    if isinstance(v, dict):
        return set(v) | set(k for x in v.values() for k in keys(x))
    if isinstance(v, list):
        return set(k for x in v for k in keys(x))
    return set()
ok("json: no blocks anywhere", "blocks" not in keys(d) and
   "rounds_per_block" not in keys(d))
P = d["parameters"]
ok("json: the settings recorded", all(k in P for k in ("loop", "policy",
   "priority", "nice", "cpus", "parent_cpu", "parent_policy",
   "parent_prio", "mlock", "dma_latency_us", "repeat")) and
   P["loop"] == "closed" and P["policy"] is None and P["mlock"] is False
   and P["repeat"] == 1, repr(P))
ok("json: the environment recorded", all(k in env for k in ("scheduler",
   "cpufreq_governor", "smt", "cpu_model", "virtualization")), repr(env))

# Per client, against the log.
pc = d["per_client"]
ok("json: one per_client entry per client", [c["client"] for c in pc] == [0, 1, 2])
for c in pc:
    mine = [r for r in rows if r[2] == c["client"]]
    v = [r[4] for r in mine]
    mig = sum(1 for i in range(1, len(mine)) if mine[i][3] != mine[i - 1][3])
    m = math.fsum(v) / len(v)
    ok("json: client %d samples, max, mean, migrations" % c["client"],
       c["samples"] == len(v) and c["max_ns"] == max(v) and
       abs(c["mean_ns"] - m) <= 1e-9 * m and c["migrations"] == mig,
       "json %r log n=%d max=%d mean=%r mig=%d" % (c, len(v), max(v), m, mig))
    sv = sorted(v)
    ex = sv[max(1, math.ceil(0.99 * len(v) - 1e-9)) - 1]
    if len(v) < 1000:
        ok("json: client %d p99 null below 1000 samples" % c["client"],
           c["p99_ns"] is None, repr(c["p99_ns"]))
    else:
        ok("json: client %d p99 within 6.25%%" % c["client"],
           abs(c["p99_ns"] - ex) <= ex / 16.0 + 1,
           "json %d exact %d" % (c["p99_ns"], ex))
    m2 = re.search(r"^\t +%d +(\d+) +([0-9.]+) +([0-9.]+) +([0-9.]+|-) +(\d+)$"
                   % c["client"], text, re.M)
    ok("text: per-client line of client %d" % c["client"], m2 and
       int(m2.group(1)) == c["samples"] and int(m2.group(5)) == c["migrations"]
       and abs(float(m2.group(3)) - c["max_ns"] / 1000.0) <= 0.0005 + 1e-9,
       repr(m2 and m2.groups()))

# The text histogram.
hl = re.findall(r"^  +([0-9.]+) - +(\S+) us +(\d+) +([0-9.]+)%", text, re.M)
ok("text: histogram lines sum to Entries", hl and
   sum(int(x[2]) for x in hl) == n and hl[-1][3] == "100.00",
   "%d lines" % len(hl))
ok("text: histogram has bars within 80 columns",
   all(len(l) <= 80 for l in text.splitlines() if " us " in l and "%" in l))
EOF

# --- The SVG --------------------------------------------------------------
cat >>"$TMP/check.py" <<'EOF'

import os
import xml.etree.ElementTree as ET
def check_svg(path, want, n):
    """The plot of a run of n latency samples."""
    try:
        root = ET.parse(path).getroot()
    except Exception as e:
        ok("svg: well-formed (%s)" % want, False, str(e)); return
    ok("svg: well-formed (%s)" % want, True)
    ns = "{http://www.w3.org/2000/svg}"
    ok("svg: root is svg", root.tag == ns + "svg", root.tag)
    ids = {e.get("id") for e in root.iter()}
    ok("svg: the three panels (%s)" % want, "distribution" in ids and
       "timeline" in ids and "percentiles" in ids, repr(ids))
    ok("svg: the workload's span (%s)" % want, "workload" in ids)
    ok("svg: %s drawn" % want, (want if want == "samples" else
       "samples-" + want) in ids, repr(ids))
    raw = open(path, "rb").read()
    ok("svg: no script, no external reference (%s)" % want,
       b"<script" not in raw and b"href" not in raw and b"url(" not in raw)
    ok("svg: under 2 MB (%s)" % want, os.path.getsize(path) < 2 * 1024 * 1024)
    txt = " ".join(e.text or "" for e in root.iter())
    ok("svg: axes with units (%s)" % want,
       "\u00b5s" in txt and " s" in txt and "latency" in txt and "time" in txt)
    # A percentile is marked where 10 samples lie beyond it: p50 from 20
    # samples, p99 from 1,000 (a busy machine may give fewer).
    ok("svg: percentiles marked as %d samples allow (%s)" % (n, want),
       ("p99" in txt) == (n >= 1000) and ("p50" in txt) == (n >= 20),
       "p50 %s, p99 %s" % ("p50" in txt, "p99" in txt))
EOF
echo 'check_svg(tmp + "/run.svg", "samples", L["samples"])' >>"$TMP/check.py"
if command -v xmllint >/dev/null 2>&1; then
	check "svg: xmllint --noout" xmllint --noout "$TMP/run.svg"
fi
# Beyond TIMELINE_POINTS samples the timeline draws bands.
# Exactly 20,040 samples, however loaded the machine (20 s at most).
run_latt "$TMP/out2" "$TMP/err2" -c40 -f0 -t1 -n 20040 -d 20 -l none \
    --plot="$TMP/many.svg" 'sleep 30 # <&>'
n=$(awk '/^Entries:/ {print $2}' "$TMP/out2")
if [ "$rc" -eq 0 ] && [ "${n:-0}" -gt 20000 ]; then
	echo "check_svg(tmp + \"/many.svg\", \"bands\", $n)" >>"$TMP/check.py"
else
	skip "svg: bands: only ${n:-0} samples in 20 s (rc=$rc), need 20001"
fi

# --- Escaping -------------------------------------------------------------
cmd=$'true "q\\"uote" \\\\back\nnew\ttab \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 bad\xff\xc3 <&> \x01'
run_latt "$TMP/out3" "$TMP/err3" -f0 -t0 --json="$TMP/esc.json" \
    --plot="$TMP/esc.svg" "$cmd"
printf '%s' "$cmd" >"$TMP/cmd.bin"
cat >>"$TMP/check.py" <<'EOF'

def check_escape():
    raw = open(tmp + "/cmd.bin", "rb").read()
    want = raw.decode("utf-8", "replace")
    try:
        d = json.load(open(tmp + "/esc.json", encoding="utf-8"))
        got = d["parameters"]["command"]
    except Exception as e:
        ok("json: escaping round-trips", False, str(e)); return
    ok("json: escaping round-trips (quotes, backslash, newline, tab, UTF-8)",
       got == want, "%r != %r" % (got, want))
    ok("json: invalid bytes become U+FFFD", got.count("\ufffd") == 2, repr(got))
    try:
        ET.parse(tmp + "/esc.svg")
        ok("svg: well-formed with markup and bad bytes in the command", True)
    except Exception as e:
        ok("svg: well-formed with markup and bad bytes in the command", False, str(e))
check_escape()
EOF

# argv form: every argument round-trips.
run_latt "$TMP/out4" "$TMP/err4" -f0 -t0 --json="$TMP/argv.json" \
    -- true 'a b' '"x"' 'back\slash' ''
cat >>"$TMP/check.py" <<'EOF'

d = json.load(open(tmp + "/argv.json"))
a = d["parameters"]["argv"]
ok("json: argv round-trips", a == ["true", "a b", '"x"', "back\\slash", ""] and
   d["parameters"]["command"] is None, repr(a))
EOF

# --- JSON on stdout replaces the summary -----------------------------------
run_latt "$TMP/stdout1.json" "$TMP/err5" -f0 -t1 --json 'sleep 0.3'
check "json: --json alone exits 0 (rc=$rc)" test "$rc" -eq 0
run_latt "$TMP/stdout2.json" "$TMP/err5" -f0 -t1 --json=- true
cat >>"$TMP/check.py" <<'EOF'

for f, what in (("stdout1.json", "--json"), ("stdout2.json", "--json=-")):
    try:
        d = json.load(open(tmp + "/" + f))
        ok("json: %s writes only JSON to stdout" % what, d["tool"] == "latt")
    except Exception as e:
        ok("json: %s writes only JSON to stdout" % what, False, str(e))
EOF

# --- Bad usage --------------------------------------------------------------
# --json= , --json with --histogram or --per-client, --log= , --log=- ,
# --plot=- and --plot without a value: tests/unit_cli.c, each to its
# line ("usage: options that conflict or need another", "usage: numbers
# refused").
run_latt "$TMP/out6" "$TMP/err6" --log="$TMP/no/such/dir/x.csv" 'sleep 5'
if [ "$rc" -eq 1 ] && grep -q "no/such/dir/x.csv: No such file" "$TMP/err6" &&
    [ ! -s "$TMP/out6" ]; then
	pass "log: an unwritable path fails before the run"
else
	fail "log: an unwritable path: rc=$rc: $(cat "$TMP/err6")"
fi

# --- --log=/dev/full ----------------------------------------------------------
if [ -w /dev/full ]; then
	start=$(date +%s)
	run_latt "$TMP/out7" "$TMP/err7" -f1 -t5 --log=/dev/full 'sleep 30'
	took=$(( $(date +%s) - start ))
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err7")" -eq 1 ] &&
	    grep -q "/dev/full: No space left on device" "$TMP/err7" &&
	    grep -q '^Entries: ' "$TMP/out7" && [ "$took" -lt 20 ]; then
		pass "log: /dev/full ends the run, exit 1, one line, summary printed (${took} s)"
	else
		fail "log: /dev/full: rc=$rc took=${took}s stderr: $(cat "$TMP/err7") stdout: $(head -1 "$TMP/out7")"
	fi
else
	skip "log: /dev/full is not writable here"
fi

# --- Progress -------------------------------------------------------------------
if command -v script >/dev/null 2>&1 && script -qc true /dev/null </dev/null >/dev/null 2>&1; then
	# A run without a command (one with a command shows none: t_job.sh).
	script -qc "$LATT -c2 -f1 -t5 -d 2.8 -l none --json=$TMP/prog.json >$TMP/prog.out" \
	    "$TMP/prog.tty" </dev/null >/dev/null 2>&1
	if grep -q 'samples .*p99 .*max .*no load' "$TMP/prog.tty"; then
		pass "progress: shown on a terminal's stderr"
	else
		fail "progress: not shown on a terminal: $(cat -A "$TMP/prog.tty" | head -5)"
	fi
	if grep -q '^Entries: ' "$TMP/prog.out" && ! grep -q 'no load' "$TMP/prog.out" &&
	    ! grep -q $'\r' "$TMP/prog.out"; then
		pass "progress: never in stdout"
	else
		fail "progress: stdout: $(cat -A "$TMP/prog.out" | head -3)"
	fi
	if [ ! -s "$TMP/prog.json" ]; then
		fail "progress: never in the JSON: no JSON was written"
	elif ! grep -q 'no load' "$TMP/prog.json"; then
		pass "progress: never in the JSON"
	else
		fail "progress: the JSON holds it"
	fi
	echo 'json.load(open(tmp + "/prog.json")); ok("progress: the JSON parses", True)' \
	    >>"$TMP/check.py"
	script -qc "$LATT -q -c2 -f1 -t5 -d 2.4 -l none >$TMP/prog.out" "$TMP/prog2.tty" \
	    </dev/null >/dev/null 2>&1
	if grep -q '^Entries: ' "$TMP/prog.out" && ! grep -q 'samples' "$TMP/prog2.tty"; then
		pass "progress: -q turns it off"
	else
		fail "progress: -q: $(cat -A "$TMP/prog2.tty" | head -5)"
	fi
else
	skip "progress: no script(1) to give latt a terminal"
fi

# --- The summary: headline, details table, runs, against the JSON ---------
# Every figure of the headline, the table (a row a series and a class) and,
# with --repeat, of each run's line (in the summary and on stderr as it
# ends) equals the JSON's to the digits printed; every line of stdout but
# the command's fits 80 columns; --repeat prints one summary.
run_latt "$TMP/sum.out" "$TMP/sum.err" -q -c2:name=fast -c1:nice=5 -x 16 \
    -f1 -t3 -d 1.5 --json="$TMP/sum.json"
check "summary: a run with classes and -x exits 0 (rc=$rc)" test "$rc" -eq 0
run_latt "$TMP/rep.out" "$TMP/rep.err" -c2 -f1 -t3 -d 0.7 --repeat=3 \
    --json="$TMP/rep.json"
check "summary: --repeat=3 exits 0 (rc=$rc)" test "$rc" -eq 0
cat >>"$TMP/check.py" <<'EOF'

def fig_ok(t, ns):
    """A headline figure, "33.5 us" (three digits and a unit), against ns."""
    m = re.fullmatch(r"([0-9.]+) (ns|us|ms|s)", t)
    if not m:
        return False
    u = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
    dg = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    return abs(ns - float(m.group(1)) * u) <= (0.5 * 10 ** -dg + 1e-9) * u

def same(t, ns, fig=False):
    """t is "-" exactly where the JSON has no figure, else equals it."""
    if ns is None:
        return t == "-"
    return t != "-" and (fig_ok(t, ns) if fig else near(t, ns))

HEAD = (r"(\d+) samples?  p50 (\S+(?: \S+)?)  p99 (\S+(?: \S+)?)  "
        r"worst (\S+(?: \S+)?)")
def head_ok(m, S, T):
    """A headline's match against a JSON latency S and timer T."""
    worst = S["max_ns"] if S["samples"] > 0 else None
    return (int(m.group(1)) == S["samples"] and
            same(m.group(2), S["p50_ns"], True) and
            same(m.group(3), S["p99_ns"], True) and
            same(m.group(4), worst, True) and
            (T is None or same(m.group(5), T["p99_ns"], True)))

def check_summary(name, out, err, d):
    text = open(out).read()
    lines = text.splitlines()
    long = [l for l in lines if len(l.expandtabs(8)) > 80
            and not l.startswith("\tworkload\t")]
    ok("summary %s: every line within 80 columns" % name, not long,
       repr(long[:2]))
    ok("summary %s: one summary" % name, text.count("Entries: ") == 1)
    # Within 22 lines without --details (issue 36); --repeat=3 adds its
    # rows, and a second note (a noisy machine) is one more line.
    notes = [l for l in lines[7:] if l.startswith("\t")]
    ok("summary %s: %d lines, %d notes" % (name, len(lines), len(notes)),
       len(lines) <= 22 + max(0, len(notes) - 1) and len(notes) <= 5 and
       not any(l.startswith("\trounds\t") for l in lines), repr(lines[9:]))
    # The headline: the line after the 2009 block and a blank one.
    m = re.fullmatch(HEAD + r"  timer p99 (\S+(?: \S+)?)", lines[8])
    ok("summary %s: the headline equals the JSON (%s)" % (name, lines[8]),
       lines[7] == "" and m and head_ok(m, d["latency"], d["timer"]),
       repr(lines[7:9]))
    # The table: its rows and the JSON's series.
    series = {"latency": d["latency"], "timer": d["timer"],
              "work": d.get("work"), "runqueue": d.get("runqueue"),
              "wake path": d.get("wake_path")}
    for c in d["classes"]:
        series[c["name"]] = c["latency"]
    keys = {"min": "min_ns", "p50": "p50_ns", "p90": "p90_ns",
            "p99": "p99_ns", "p99.9": "p99_9_ns", "worst": "max_ns",
            "mean": "mean_ns", "sd": "stdev_ns"}
    i = lines.index(next(l for l in lines if l.startswith("(us) ")))
    cols = lines[i].split()[1:]
    rows, bad = [], []
    for l in lines[i + 1:]:
        if not l:
            break
        f = l.split()
        label, vals = " ".join(f[:-len(cols)]), f[-len(cols):]
        rows.append(label)
        S = series.get(label)
        if S is None:
            bad.append("row %r is no series of the JSON" % label)
            continue
        if len(l) != len(lines[i]):
            bad.append("row %r is not as wide as the header" % label)
        for c, t in zip(cols, vals):
            if c == "samples":
                good = int(t) == S["samples"]
            else:
                v = S[keys[c]]
                if S["samples"] == 0 or (c == "sd" and S["samples"] < 2):
                    v = None
                good = same(t, v)
            if not good:
                bad.append("%s %s: text %s json %r" % (label, c, t,
                           S.get(keys.get(c, "samples"))))
    want = [k for k, v in series.items() if v is not None]
    ok("summary %s: table rows %s equal the JSON's series" % (name, rows),
       not bad and sorted(rows) == sorted(want), "; ".join(bad[:4]) or
       "rows %r, JSON %r" % (rows, want))
    # --repeat: one line a run in the summary and on stderr.
    runs = d["runs"] if d["nruns"] > 1 else []
    got = re.findall(r"^(\d+) +(\d+) +(\S+) +(\S+) +(\S+) +(\S+)  ", text, re.M)
    errl = open(err).read().splitlines()
    bad = []
    for k, r in enumerate(runs):
        S, T = r["latency"], r["timer"]
        g = got[k] if k < len(got) else None
        if not (g and int(g[0]) == k + 1 and int(g[1]) == S["samples"] and
                same(g[2], S["p50_ns"]) and same(g[3], S["p99_ns"]) and
                same(g[4], S["max_ns"] if S["samples"] else None) and
                same(g[5], T["p99_ns"])):
            bad.append("summary's run %d: %r" % (k + 1, g))
        e = [l for l in errl if l.startswith("run %d of %d: " % (k + 1,
             len(runs)))]
        m = len(e) == 1 and re.fullmatch(r"run \d+ of \d+: " + HEAD, e[0])
        if not (m and head_ok(m, S, None)):
            bad.append("stderr's run %d: %r" % (k + 1, e))
    if runs:
        ok("summary %s: %d runs, each line equals its run's JSON" %
           (name, len(runs)), not bad and len(got) == len(runs),
           "; ".join(bad[:3]) or "%d lines" % len(got))

check_summary("classes, -x", tmp + "/sum.out", tmp + "/sum.err",
              json.load(open(tmp + "/sum.json")))
check_summary("--repeat=3", tmp + "/rep.out", tmp + "/rep.err",
              json.load(open(tmp + "/rep.json")))
EOF

# --- Reports replaced whole, or not at all ------------------------------------
valid_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
tmps() { find "$1" -name '.*.tmp-*' | tr '\n' ' '; }

# Two reports into one file, as given, through a link or a hard link: a
# usage error before anything runs.
ln -sf same.svg "$TMP/link.json"
: >"$TMP/hard.csv"
mkdir -p "$TMP/x"
ln -f "$TMP/hard.csv" "$TMP/hard2.svg"
for args in "--json=$TMP/same.json --log=$TMP/same.json" \
    "--json=$TMP/link.json --plot=$TMP/same.svg" \
    "--log=$TMP/hard.csv --plot=$TMP/hard2.svg" \
    "--json=$TMP/x/../same.json --log=$TMP/same.json"; do
	# shellcheck disable=SC2086
	run_latt "$TMP/out6" "$TMP/err6" $args "touch $TMP/ran"
	[ "$rc" -eq 2 ] && [ ! -s "$TMP/out6" ] && [ ! -e "$TMP/ran" ] &&
	    [ "$(err_lines "$TMP/err6")" -eq 1 ] &&
	    grep -q 'are the same file' "$TMP/err6" ||
	    bad "$args: rc $rc, $(short "$TMP/err6")"
done
run_latt "$TMP/out6" "$TMP/err6" -q -c1 -d 0.2 --json=/dev/null --log=/dev/null
[ "$rc" -eq 0 ] || bad "/dev/null twice: rc $rc, $(short "$TMP/err6")"
verdict "two reports into one file (a link, a hard link, ..): usage errors; /dev/null twice is fine"

# A full disk: the old report stays whole, the temporary file goes, one
# line says why, status 1.
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=512k tmpfs "$TMP/small" 2>/dev/null; then
	run_latt "$TMP/out6" "$TMP/err6" -q -c2 -d 0.3 --json="$TMP/small/a.json"
	cp "$TMP/small/a.json" "$TMP/a.json.before"
	# The plot's name ends in .svg: a link to the JSON file.
	ln -sf a.json "$TMP/small/a.svg"
	dd if=/dev/zero of="$TMP/small/fill" bs=4k 2>/dev/null
	for opt in --json --plot; do
		cp "$TMP/a.json.before" "$TMP/small/a.json"
		f=$TMP/small/a.json
		[ $opt = --plot ] && f=$TMP/small/a.svg
		run_latt "$TMP/out6" "$TMP/err6" -q -c2 -d 0.3 "$opt=$f"
		[ "$rc" -eq 1 ] || bad "$opt: exit $rc, want 1"
		grep -q '^Entries: ' "$TMP/out6" || bad "$opt: no summary"
		[ "$(nlines "$TMP/err6")" -eq 1 ] && grep -q \
		    "^latt: $opt=$f: No space left on device (the file is left as it was)" \
		    "$TMP/err6" || bad "$opt: stderr: $(short "$TMP/err6")"
		cmp -s "$TMP/small/a.json" "$TMP/a.json.before" ||
		    bad "$opt: a.json changed ($(wc -c <"$TMP/small/a.json") bytes)"
	done
	valid_json "$TMP/small/a.json" || bad "a.json is not JSON"
	[ -z "$(tmps "$TMP/small")" ] || bad "left behind: $(tmps "$TMP/small")"
	verdict "a full disk: --json and --plot leave the old file whole, exit 1, one line"
	umount "$TMP/small"
else
	skip "a full disk: cannot mount a tmpfs here"
fi

# kill -9 in the middle of a run (issue 35): no temporary file of --json,
# --plot or the streamed --log is left, for a report has no name until it
# is whole (O_TMPFILE).  A file system that refuses O_TMPFILE gets named
# temporary files, which a kill leaves: skipped there.
mkdir -p "$TMP/k9"
if python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY))' \
    "$TMP/k9" 2>/dev/null; then
	env --default-signal "$LATT" -q -c2 -f1 -t3 --json="$TMP/k9/r.json" \
	    --plot="$TMP/k9/r.svg" --log="$TMP/k9/r.csv" 'sleep 10' \
	    >/dev/null 2>"$TMP/err9" &
	pid=$!
	wait_started $pid || bad "the run did not start: $(short "$TMP/err9")"
	kill -9 $pid
	wait $pid 2>/dev/null
	left=$(ls -A "$TMP/k9")
	[ -z "$left" ] || bad "left behind: $(echo $left)"
	verdict "kill -9 mid-run: no temporary file of --json, --plot or --log"
	no_leftovers "kill -9 mid-run"
else
	skip "kill -9 mid-run: $TMP refuses O_TMPFILE (named temporary files)"
fi

# No memory for the runs kept for --json (issue 35: a report with a hole
# in it, status 0).  Just below a limit of ulimit -v that lets the run
# through (found by halving: the runs' JSON is among the last to grow, so
# allocations fail late there), each run writes a whole new report with
# status 0, or fails leaving a whole file (the old one, unless the run
# ended as a failed run does, its report written) and says why: never a
# broken report, never a temporary file.  A signal's end (a small
# address space, the stack's) is not judged here.
mem_run() {	# KiB: latt under ulimit -v KiB; sets $rc
	(ulimit -v "$1" && exec timeout -k 5 30 "$LATT" -q -c8 -d0.05 -l none \
	    --repeat=2 --json="$TMP/m/x.json") >/dev/null 2>"$TMP/m.err"
	rc=$?
}
if ! plain_only "ulimit -v: the report whole or not at all"; then
	mkdir -p "$TMP/m"
	echo '{"old": 1}' >"$TMP/m/old.json"
	lo=2048 hi=65536
	while [ $((hi - lo)) -gt 128 ]; do
		mid=$(((lo + hi) / 2))
		mem_run $mid
		if [ "$rc" -eq 0 ]; then hi=$mid; else lo=$mid; fi
	done
	for kib in $(seq $((hi - 64)) -128 $((hi - 640))); do
		cp "$TMP/m/old.json" "$TMP/m/x.json"
		mem_run "$kib"
		valid_json "$TMP/m/x.json" ||
		    bad "$kib KiB: exit $rc, x.json broken: $(head -c 60 "$TMP/m/x.json" | tr '\n' ' ')"
		[ "$rc" -eq 0 ] && cmp -s "$TMP/m/x.json" "$TMP/m/old.json" &&
		    bad "$kib KiB: exit 0, x.json not written"
		[ "$rc" -eq 0 ] || [ "$rc" -ge 128 ] || [ -s "$TMP/m.err" ] ||
		    bad "$kib KiB: exit $rc, nothing said"
	done
	[ -z "$(tmps "$TMP/m")" ] || bad "left behind: $(tmps "$TMP/m")"
	verdict "ulimit -v just below $hi KiB: a whole report and 0, or a whole file and why"
fi

# Two runs writing one results file at once: one whole report.  Both are
# ended together, and strace holds each in any ftruncate for a while (the
# big one 0.1 s, the small one 0.4 s), so that writes in place overlap:
# the small report lands over the big one's start, 2 of 2 times.
slow_trunc() {	# ms latt-args...: latt under strace, in the background
	local us=$(($1 * 1000))
	shift
	# (The sanitizers' leak check cannot work under ptrace.)
	ASAN_OPTIONS=detect_leaks=0 strace -qq -o /dev/null -e trace=ftruncate \
	    -e inject=ftruncate:delay_exit=$us "$LATT" "$@" &
}
if strace -qq -o /dev/null -e trace=ftruncate \
    -e inject=ftruncate:delay_exit=1 true 2>/dev/null; then
	for i in 1 2; do
		slow_trunc 100 -q -c8 -f1 -t3 --json="$TMP/both.json" \
		    'sleep 10' >/dev/null 2>"$TMP/e1"
		s1=$!
		slow_trunc 400 -q -c2 -f1 -t3 --json="$TMP/both.json" \
		    'sleep 10' >/dev/null 2>"$TMP/e2"
		s2=$!
		sleep 0.8
		kill -TERM $(pgrep -P $s1) $(pgrep -P $s2)
		wait $s1
		r1=$?
		wait $s2
		r2=$?
		[ "$r1$r2" = 00 ] || bad "try $i: exit $r1 and $r2: $(short "$TMP/e1") $(short "$TMP/e2")"
		valid_json "$TMP/both.json" ||
		    bad "try $i: not JSON ($(wc -c <"$TMP/both.json") bytes)"
	done
	[ -z "$(tmps "$TMP")" ] || bad "left behind: $(tmps "$TMP")"
	verdict "two runs writing one --json at once: whole JSON each time"
else
	skip "two runs writing one --json at once: strace cannot delay ftruncate here"
fi

# The file keeps its mode, and a link stays a link to the new report.
echo old >"$TMP/kept.json"
chmod 640 "$TMP/kept.json"
ln -sf kept.json "$TMP/kept-link.json"
run_latt "$TMP/out6" "$TMP/err6" -q -c1 -d 0.2 --json="$TMP/kept-link.json"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/err6")"
[ -L "$TMP/kept-link.json" ] || bad "the link was replaced"
[ "$(stat -c %a "$TMP/kept.json")" = 640 ] || bad "mode $(stat -c %a "$TMP/kept.json")"
valid_json "$TMP/kept.json" || bad "kept.json: $(short "$TMP/kept.json")"
verdict "a report through a link replaces its target, mode kept"

# A FIFO: it does not hold up the start; with no reader at the end latt
# says so, and SIGINT then ends it with a sentence, status 1.
mkfifo "$TMP/fifo.json"
env --default-signal "$LATT" -q -c2 -f1 -t2 -d 1 --json="$TMP/fifo.json" \
    >"$TMP/out8" 2>"$TMP/err8" &
pid=$!
for i in $(seq 100); do
	grep -q 'waiting for a reader' "$TMP/err8" && break
	sleep 0.1
done
grep -q '^Entries: ' "$TMP/out8" || bad "no summary before the wait: $(short "$TMP/err8")"
T0=$(usecs)
kill -INT $pid
wait_gone $pid 5
[ "$rc" -eq 1 ] || bad "exit $rc, want 1"
grep -q "fifo.json: no reader opened the FIFO before SIGINT: the results not written" \
    "$TMP/err8" || bad "stderr: $(short "$TMP/err8")"
grep -q 'Interrupted system call' "$TMP/err8" && bad "stderr: $(short "$TMP/err8")"
verdict "--json=FIFO without a reader: the run goes on, SIGINT ends the wait (exit $rc, $ms ms)"
no_leftovers "--json=FIFO"
# --log's FIFO is opened before the run: the wait is said, SIGINT ends it,
# and nothing was started.
mkfifo "$TMP/fifo.csv"
env --default-signal "$LATT" -q -c2 -f1 -t2 -d 1 --log="$TMP/fifo.csv" \
    "touch $TMP/ran" >"$TMP/out8" 2>"$TMP/err8" &
pid=$!
for i in $(seq 100); do
	grep -q 'waiting for a reader' "$TMP/err8" && break
	sleep 0.1
done
children_of $pid && [ ${#kids[@]} -gt 0 ] && bad "children while waiting: ${kids[*]}"
T0=$(usecs)
kill -INT $pid
wait_gone $pid 5
[ "$rc" -eq 1 ] && [ ! -s "$TMP/out8" ] && [ ! -e "$TMP/ran" ] ||
    bad "exit $rc, stdout $(short "$TMP/out8")"
grep -q "fifo.csv: no reader opened the FIFO before SIGINT: the log not written" \
    "$TMP/err8" || bad "stderr: $(short "$TMP/err8")"
verdict "--log=FIFO without a reader: waits before the run, SIGINT ends it (exit $rc, $ms ms)"
no_leftovers "--log=FIFO"
rm -f "$TMP/fifo.csv"
timeout 30 cat "$TMP/fifo.json" >"$TMP/fifo.out" &
run_latt "$TMP/out8" "$TMP/err8" -q -c2 -d 0.3 --json="$TMP/fifo.json" \
    --log="$TMP/fifo.csv"
wait
[ "$rc" -eq 0 ] && valid_json "$TMP/fifo.out" ||
    bad "exit $rc: $(short "$TMP/err8"), read $(wc -c <"$TMP/fifo.out") bytes"
verdict "--json=FIFO with a reader: the reader gets the JSON"

# Every check written in python3 runs in one go: its start-up is slow here.
python3 "$TMP/check.py" "$TMP" || fail "outputs: check.py died"

no_leftovers "outputs"
