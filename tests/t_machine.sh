#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The machine latt ran on: the host's state recorded once a run
# (environment.host, held against sysfs and procfs read here) and latt
# compare's one line for each difference in it.
. "$(dirname "$0")/lib.sh"

# joined: compare's warnings wrap at 72 columns; each into one line.
joined() {
	awk '/^    / { sub(/^ +/, " "); l = l $0; next }
	    { if (l != "") print l; l = $0 } END { print l }'
}

# --- the host's state, as the test reads it itself --------------------------
run_latt "$TMP/h.out" "$TMP/h.err" -q -c2 -d0.5 -l none --json="$TMP/h.json"
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/h.err")"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)
iso=$(cat /sys/devices/system/cpu/isolated 2>/dev/null)
expect_json "$TMP/h.json" \
    "'host' in d['environment']" \
    "d['environment']['host']['thp'] == ('$thp' or None)" \
    "d['environment']['host']['sched_tunables'].get('kernel.sched_rt_runtime_us') == ('$rt' or None)" \
    "d['environment']['host']['isolated'] == '$iso'" \
    "all(k.startswith(('kernel.sched_', 'debugfs.')) for k in d['environment']['host']['sched_tunables'])" \
    "list(d['environment']['host']['sched_tunables']) == sorted(d['environment']['host']['sched_tunables'])"
verdict "host: THP, a sched_* tunable and the isolated CPUs as sysfs says"

# --- compare names each difference, one line each ---------------------------
python3 - "$TMP/h.json" "$TMP/h2.json" "$TMP/h3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["environment"]["host"]
h["thp"] = "never" if h["thp"] != "never" else "always"
json.dump(d, open(sys.argv[2], "w"))
h["sched_tunables"]["kernel.sched_latt_test_knob"] = "7"
h["cpuidle_states"] = "POLL:0us C1:2us"
json.dump(d, open(sys.argv[3], "w"))
PY
"$LATT" compare --details "$TMP/h.json" "$TMP/h2.json" >"$TMP/c.out" 2>&1
n=$(grep -c "host's" "$TMP/c.out")
[ "$n" -eq 1 ] || bad "$n lines on the host's state, not 1: $(short "$TMP/c.out")"
grep -q "^warning: the host's thp differs: A $thp, B never\\.\$\|^warning: the host's thp differs: A never, B always\\.\$" "$TMP/c.out" ||
	bad "no line naming THP: $(grep "host's" "$TMP/c.out")"
"$LATT" compare --details "$TMP/h.json" "$TMP/h3.json" 2>&1 | joined >"$TMP/c3.out"
n=$(grep -c "host's" "$TMP/c3.out")
[ "$n" -eq 3 ] || bad "$n lines for three differences: $(grep "host's" "$TMP/c3.out" | tr '\n' '|')"
grep -q "host's kernel.sched_latt_test_knob differs: A not recorded, B 7\\." "$TMP/c3.out" ||
	bad "a tunable one side lacks is not named"
"$LATT" compare "$TMP/h.json" "$TMP/h.json" >"$TMP/c0.out" 2>&1
! grep -q "host's" "$TMP/c0.out" || bad "a host line where nothing differs"
verdict "compare: one line for each difference in the host's state"
no_leftovers "host"

# strip SVG JSON: what the plot's strip of what else ran says against the
# JSON of the same run (the plot is of its last run): "strip" or "none",
# then a line of each fault.  The strip's points are the series' (one
# step a sample, its level the foreign % within 0.6), on the time panel's
# axis; the threshold line at the JSON's noisy_above_foreign_pct; the
# "noisy: WHY" text there only when the run was noisy.
cat >"$TMP/strip.py" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
try:
    root = ET.parse(sys.argv[1]).getroot()
    m = json.load(open(sys.argv[2]))["runs"][-1]["machine"]
except Exception as x:
    print("none\nunreadable: %s" % x); sys.exit(0)
ser = (m or {}).get("series") or []
g = [e for e in root.iter(ns + "g") if e.get("id") == "noise"]
ids = [e.get("id") for e in root.iter() if (e.get("id") or "").startswith("noise")]
bad = []
if not ser:
    print("none")
    ys = [float(e.get("y")) for e in root.iter(ns + "text") if e.get("y")]
    if ids:
        bad.append("a strip without a series: %r" % ids)
    if float(root.get("height")) - max(ys) > 60:
        bad.append("room left for a strip: height %s, last text at %s" %
                   (root.get("height"), max(ys)))
    print("\n".join(bad)); sys.exit(0)
print("strip")
if len(g) != 1:
    print("%d strips for %d points" % (len(g), len(ser))); sys.exit(0)
g = g[0]
el = {e.get("id"): e for e in g.iter() if e.get("id")}
txt = lambda e: "".join(e.itertext())
area = el["noise-area"]
x0, top = float(area.get("x")), float(area.get("y"))
x1, bot = x0 + float(area.get("width")), top + float(area.get("height"))
ticks = [(float(txt(e)[:-1]), float(e.get("y"))) for e in g.iter(ns + "text")
         if e.get("class") == "pct"]
ymax = max(v for v, y in ticks)
pct = lambda y: (bot - y) / (bot - top) * ymax
def steps(d):
    # (x at its end, level) of each H of a path of M, V and H.
    out, y = [], None
    for c, v in re.findall(r"([MVHZ])([-0-9.]*(?: [-0-9.]+)?)", d):
        if c == "M": y = float(v.split()[1])
        elif c == "V": y = float(v)
        elif c == "H": out.append((float(v), y))
    return out
for col, pid in ((1, "noise-foreign"), (2, "noise-psi")):
    want = [(p[0], p[col]) for p in ser if p[col] is not None]
    if pid not in el:
        if want: bad.append("no #%s for %d points" % (pid, len(want)))
        continue
    got = steps(el[pid].get("d"))
    if len(got) != len(want):
        bad.append("#%s: %d steps, %d points" % (pid, len(got), len(want)))
        continue
    far = [(w[1], round(pct(s[1]), 2)) for s, w in zip(got, want)
           if abs(pct(s[1]) - min(w[1], ymax)) > 0.6]
    if far:
        bad.append("#%s: levels off the series (%%, drawn): %r" % (pid, far[:3]))
    if [s for s in got if not x0 - 0.1 <= s[0] <= x1 + 0.1]:
        bad.append("#%s: a step outside the area" % pid)
    if any(b[0] < a[0] for a, b in zip(got, got[1:])):
        bad.append("#%s: steps not in time order" % pid)
nrun = len([p for p in ser if p[3] is not None])
if len(re.findall(r"[ML]", el["noise-runnable"].get("d"))) != nrun:
    bad.append("#noise-runnable: not %d points" % nrun)
# The same x axis as the time panel's, and the points on it.
def xticks(gg):
    return sorted((float(txt(e)), float(e.get("x"))) for e in gg.iter(ns + "text")
                  if e.get("text-anchor") == "middle" and re.fullmatch(r"[0-9.]+", txt(e)))
tl = [e for e in root.iter(ns + "g") if e.get("id") == "timeline"][0]
unit = 1e-3 if "milliseconds into the run" in " ".join(txt(e) for e in tl.iter(ns + "text")) else 1.0
if xticks(g) != xticks(tl) or len(xticks(g)) < 2:
    bad.append("x ticks %r, the time panel's %r" % (xticks(g), xticks(tl)))
else:
    (v0, a), (v1, b) = xticks(g)[0], xticks(g)[-1]
    slope = (b - a) / ((v1 - v0) * unit)
    got = steps(el["noise-foreign"].get("d"))
    ts = [p[0] for p in ser if p[1] is not None]
    if len(got) == len(ts) and ts[-1] - ts[0] > 0.5:
        s = (got[-1][0] - got[0][0]) / (ts[-1] - ts[0])
        if abs(s / slope - 1) > 0.03:
            bad.append("the steps' %.1f px/s, the axis' %.1f" % (s, slope))
thr = float(el["noise-threshold"].get("y1"))
if abs(pct(thr) - m["noisy_above_foreign_pct"]) > 0.3:
    bad.append("threshold drawn at %.2f%%, noisy from %s%%" %
               (pct(thr), m["noisy_above_foreign_pct"]))
if ("noise-noisy" in el) != bool(m["noisy"]):
    bad.append("'noisy:' %s, the run noisy: %s" % ("noise-noisy" in el, m["noisy"]))
elif m["noisy"] and not txt(el["noise-noisy"]).startswith("noisy: " + m["why"][:30]):
    bad.append("the noisy text is %r" % txt(el["noise-noisy"]))
if "What else ran: other processes' CPU %" not in " ".join(txt(e) for e in g.iter(ns + "text")):
    bad.append("the strip does not say what it is")
print("\n".join(bad))
PY
strip() {
	python3 "$TMP/strip.py" "$1" "$2" 2>&1
}
# expect_strip SVG JSON WANT: strip's faults are bad, and it found WANT
# (strip or none).
expect_strip() {
	local w
	w=$(strip "$1" "$2")
	[ "$(echo "$w" | head -n 1)" = "$3" ] ||
		bad "$(basename "$1"): not $3: $(echo "$w" | head -n 1)"
	w=$(echo "$w" | tail -n +2 | tr '\n' '|')
	[ -z "${w//|/}" ] || bad "$(basename "$1"): $w"
}

# nice_latt N OUT ERR ARGS...: run_latt at nice N (its children too).
nice_latt() {
	local n=$1 out=$2 err=$3
	shift 3
	timeout --foreground -k 5 60 nice -n "$n" "$LATT" "$@" >"$out" 2>"$err"
	rc=$?
}

# --- what else ran: a spinner outside latt makes a run noisy ----------------
# The run is compared with h.json (--baseline) and draws its plot.
# ticks PID: the CPU time of a process in clock ticks (utime + stime).
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
(while :; do :; done) &
spin=$!
on_exit "kill $spin 2>/dev/null"
sleep 0.3
t0=$(ticks "$spin") s0=$(usecs)
# latt at nice -10: its series samples every 100 ms unless a sample's
# cost stretches the interval (to 50 times that cost), and a parent
# preempted in its walk of /proc by the machine's other work pays for it.
nice_latt -10 "$TMP/s.out" "$TMP/s.err" -q -c2 -d2 -l none \
    --json="$TMP/s.json" --plot="$TMP/s.svg" --baseline="$TMP/h.json" \
    --drop-noisy
t1=$(ticks "$spin") s1=$(usecs)
kill "$spin"
wait "$spin" 2>/dev/null
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/s.err")"
# The spinner's own CPUs over latt's run, as a lower bound of the foreign.
sc=$(awk -v t="$((t1 - t0))" -v hz="$hz" -v us="$((s1 - s0))" \
    'BEGIN { printf "%.3f", t / hz / (us / 1e6) }')
expect_json "$TMP/s.json" \
    "d['machine']['noisy'] is True" \
    "d['runs'][0]['machine']['noisy'] is True" \
    "'other processes used' in d['machine']['why']" \
    "d['machine']['foreign_cpus'] >= 0.75 * $sc - 0.05" \
    "$sc < 0.2 or d['machine']['foreign_cpu_pct'] >= 10" \
    "len(d['runs'][0]['machine']['series']) >= 10" \
    "all(len(p) == 7 for p in d['runs'][0]['machine']['series'])"
grep -q '^	machine	 *NOISY: others took' "$TMP/s.out" ||
	bad "no NOISY line: $(grep machine "$TMP/s.out" | tr '\t\n' ' |')"
verdict "noise: a spinner outside latt (${sc} CPUs of its own) makes the run noisy"
expect_strip "$TMP/s.svg" "$TMP/s.json" strip
verdict "plot: the strip of what else ran is the series, 'noisy:' and why, the threshold"
# --baseline: the noisy live run named as latt compare names a file's, and
# left out with --drop-noisy; the baseline's run named only when noisy.
joined <"$TMP/s.out" >"$TMP/sj.out"
grep -q "^warning: B: this run was noisy (other processes used [0-9]*% of the CPUs ([0-9.]* CPUs), above [0-9]*%): left out (--drop-noisy)\.\$" "$TMP/sj.out" ||
	bad "no line naming the live run noisy: $(grep 'noisy' "$TMP/sj.out" | tr '\n' '|')"
grep -q "^B: this run (0 runs, 0 samples)" "$TMP/sj.out" ||
	bad "the live run not left out: $(grep '^B: ' "$TMP/sj.out")"
hn=$(python3 -c "import json; print(json.load(open('$TMP/h.json'))['runs'][0]['machine']['noisy'])")
n=$(grep -c "^warning: A: [^ ]*h.json was noisy (.*): left out (--drop-noisy)\.\$" "$TMP/sj.out")
[ "$n" -eq "$([ "$hn" = True ] && echo 1 || echo 0)" ] ||
	bad "$n lines naming the baseline noisy, it was noisy: $hn"
verdict "--baseline --drop-noisy: the noisy live run named and left out (the baseline noisy: $hn)"
run_latt "$TMP/u.out" "$TMP/u.err" -q -d1 --drop-noisy
[ "$rc" -eq 2 ] && grep -q '^latt: --drop-noisy needs --baseline=FILE$' "$TMP/u.err" ||
	bad "rc $rc: $(short "$TMP/u.err")"
verdict "--drop-noisy without --baseline: a usage error"

# --- its own loads are latt's; a run is noisy only past the threshold --------
# Counted as foreign, the spinner would leave latt's own CPU at that of
# latt and two clients, a few hundredths of a CPU; counted as latt's, it
# is 1 CPU on an idle machine.  latt and so its spinner run at nice -19:
# beside busy loops at nice 0 (the machine's other work) the spinner
# still takes most of a CPU, but real-time hogs of other tests take
# theirs first (0.28 seen): 0.2 tells the two apart; when it does not,
# the judge names what crowded it (its own: one spinner).
nice_latt -19 "$TMP/q.out" "$TMP/q.err" -q -c2 -d1 -l cpu:1 \
    --json="$TMP/q.json"
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/q.err")"
expect_json "$TMP/q.json" \
    "d['machine']['noisy'] == (d['machine']['foreign_cpu_pct'] >= 10)"
own_at_least() {	# JSON CPUS
	python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["machine"]
if not m["own_cpus"] >= float(sys.argv[2]):
    print("own_cpus %.2f, under %s" % (m["own_cpus"], sys.argv[2]))' "$@" 2>&1
}
w=$(own_at_least "$TMP/q.json" 0.2)
[ -z "$w" ] || tbad "$w"
verdict_timed "noise: a cpu load counts as latt's own CPU, not foreign" \
    "$TMP/q.json" 0 1
# A spin the workload's shell forks is the workload's, so latt's own.
# (One spinner at nice -19, as above: 0.2 tells.)
nice_latt -19 "$TMP/w.out" "$TMP/w.err" -q -c2 -d1 -l none \
    --json="$TMP/w.json" -- sh -c '(while :; do :; done) & wait'
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/w.err")"
w=$(own_at_least "$TMP/w.json" 0.2)
[ -z "$w" ] || tbad "$w"
verdict_timed "noise: a spin the workload forked counts as latt's own CPU" \
    "$TMP/w.json" 0 1
# Against the spinner's run (--baseline, no --drop-noisy): both kept, the
# baseline's run named noisy, this one only when it was.
run_latt "$TMP/n.out" "$TMP/n.err" -q -c2 -d1 -l none --json="$TMP/n.json" \
    --plot="$TMP/n.svg" --baseline="$TMP/s.json" --details
expect_strip "$TMP/n.svg" "$TMP/n.json" strip
nn=$(python3 -c "import json; print(json.load(open('$TMP/n.json'))['machine']['noisy'])")
verdict "plot: the strip of a run without the spinner ('noisy:' only if noisy: $nn)"
joined <"$TMP/n.out" >"$TMP/nj.out"
grep -q "^warning: A: [^ ]*s.json was noisy (other processes used .*): kept; --drop-noisy leaves it out\.\$" "$TMP/nj.out" ||
	bad "the spinner's run not named: $(grep 'noisy' "$TMP/nj.out" | tr '\n' '|')"
grep -q "^A: .*s.json (1 run" "$TMP/nj.out" && grep -q "^B: this run (1 run" "$TMP/nj.out" ||
	bad "a run left out: $(grep '^[AB]: ' "$TMP/nj.out" | tr '\n' '|')"
n=$(grep -c "^warning: B: this run was noisy (.*): kept; --drop-noisy leaves it out\.\$" "$TMP/nj.out")
[ "$n" -eq "$([ "$nn" = True ] && echo 1 || echo 0)" ] ||
	bad "$n lines naming this run noisy, it was noisy: $nn"
verdict "--baseline: noisy runs named and kept without --drop-noisy (this run noisy: $nn)"
f=$(python3 -c "import json; print('%.1f' % json.load(open('$TMP/n.json'))['machine']['foreign_cpu_pct'])")
if awk -v f="$f" 'BEGIN { exit !(f >= 10) }'; then
	skip "noise: a run without the spinner is quiet: others used $f% of the CPUs meanwhile (a shared machine)"
else
	expect_json "$TMP/n.json" "d['machine']['noisy'] is False" \
	    "d['machine']['why'] is None"
	grep -q '^	machine	 *quiet: others took' "$TMP/n.out" ||
		bad "no quiet line"
	verdict "noise: the same run without the spinner is quiet ($f%)"
fi
# A run too short for a series (its machine null, or no point): no strip,
# and no room left for one.
run_latt "$TMP/e.out" "$TMP/e.err" -q -n1 -l none --json="$TMP/e.json" \
    --plot="$TMP/e.svg"
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/e.err")"
if [ "$(strip "$TMP/e.svg" "$TMP/e.json" | head -n 1)" = strip ]; then
	expect_strip "$TMP/e.svg" "$TMP/e.json" strip
	if [ -n "$why" ]; then
		verdict "plot: a one-sample run's strip"
	else
		skip "plot: no strip without a series: the one-sample run took long enough for a point"
	fi
else
	expect_strip "$TMP/e.svg" "$TMP/e.json" none
	verdict "plot: no strip without a series (a one-sample run)"
fi

# --- no /proc/pressure: one line says so, the run goes on --------------------
if unshare -m true 2>/dev/null && [ -r /proc/pressure/cpu ]; then
	unshare -m --propagation private sh -c \
	    'mount -t tmpfs none /proc/pressure && exec "$@"' sh \
	    timeout -k 5 60 "$LATT" -q -c2 -d1 -l none --json="$TMP/p.json" \
	    --plot="$TMP/p.svg" --details >"$TMP/p.out" 2>"$TMP/p.err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/p.err")"
	n=$(grep -c '^	machine	 *no CPU PSI;' "$TMP/p.out")
	[ "$n" -eq 1 ] || bad "$n lines on the missing pressure, not 1"
	expect_json "$TMP/p.json" "d['machine']['psi_cpu_some_pct'] is None" \
	    "d['machine']['foreign_cpu_pct'] is not None"
	expect_strip "$TMP/p.svg" "$TMP/p.json" strip
	! grep -q 'id="noise-psi"' "$TMP/p.svg" || bad "a pressure trace drawn"
	verdict "noise: /proc/pressure hidden, one line says so, the strip without it"
else
	skip "noise: /proc/pressure hidden: no unshare -m, or no pressure to hide"
fi

# --- compare names the noisy runs, and leaves them out when asked -----------
run_latt "$TMP/r.out" "$TMP/r.err" -q -c2 -d0.5 -l none --repeat=3 --json="$TMP/r.json" \
    --plot="$TMP/r.svg"
expect_strip "$TMP/r.svg" "$TMP/r.json" strip
verdict "plot: with --repeat, the strip is the last run's series"
python3 - "$TMP/r.json" "$TMP/ra.json" "$TMP/rb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, r in enumerate(d["runs"]):
    r["machine"]["noisy"] = i == 1
    r["machine"]["why"] = "spun up by the test" if i == 1 else None
json.dump(d, open(sys.argv[2], "w"))
for i, r in enumerate(d["runs"]):
    r["machine"]["noisy"], r["machine"]["why"] = False, None
json.dump(d, open(sys.argv[3], "w"))
PY
"$LATT" compare --details "$TMP/ra.json" "$TMP/rb.json" 2>&1 | joined >"$TMP/k.out"
"$LATT" compare --details --drop-noisy "$TMP/ra.json" "$TMP/rb.json" 2>&1 |
	joined >"$TMP/d.out"
grep -q "^A: .*ra.json (3 runs" "$TMP/k.out" || bad "kept: A is not 3 runs"
grep -q "^A: .*ra.json (2 runs" "$TMP/d.out" || bad "dropped: A is not 2 runs"
grep -q "A: [^ ]*ra.json, run 2 was noisy (spun up by the test): kept" "$TMP/k.out" ||
	bad "kept: no line naming A's run 2"
grep -q "A: [^ ]*ra.json, run 2 was noisy (spun up by the test): left out" "$TMP/d.out" ||
	bad "dropped: no line naming A's run 2"
! grep -q "B: .*noisy" "$TMP/k.out" || bad "a B run named noisy"
verdict "compare: the noisy run of A named, left out only with --drop-noisy"
no_leftovers "noise"
