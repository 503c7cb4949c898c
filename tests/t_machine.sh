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
run_latt "$TMP/h.out" "$TMP/h.err" -q -c2 -d1 -l none --json="$TMP/h.json"
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
"$LATT" compare "$TMP/h.json" "$TMP/h2.json" >"$TMP/c.out" 2>&1
n=$(grep -c "host's" "$TMP/c.out")
[ "$n" -eq 1 ] || bad "$n lines on the host's state, not 1: $(short "$TMP/c.out")"
grep -q "^warning: the host's thp differs: A $thp, B never\\.\$\|^warning: the host's thp differs: A never, B always\\.\$" "$TMP/c.out" ||
	bad "no line naming THP: $(grep "host's" "$TMP/c.out")"
"$LATT" compare "$TMP/h.json" "$TMP/h3.json" 2>&1 | joined >"$TMP/c3.out"
n=$(grep -c "host's" "$TMP/c3.out")
[ "$n" -eq 3 ] || bad "$n lines for three differences: $(grep "host's" "$TMP/c3.out" | tr '\n' '|')"
grep -q "host's kernel.sched_latt_test_knob differs: A not recorded, B 7\\." "$TMP/c3.out" ||
	bad "a tunable one side lacks is not named"
"$LATT" compare "$TMP/h.json" "$TMP/h.json" >"$TMP/c0.out" 2>&1
! grep -q "host's" "$TMP/c0.out" || bad "a host line where nothing differs"
verdict "compare: one line for each difference in the host's state"
no_leftovers "host"

# --- what else ran: a spinner outside latt makes a run noisy ----------------
# ticks PID: the CPU time of a process in clock ticks (utime + stime).
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
(while :; do :; done) &
spin=$!
on_exit "kill $spin 2>/dev/null"
sleep 0.3
t0=$(ticks "$spin") s0=$(usecs)
run_latt "$TMP/s.out" "$TMP/s.err" -q -c2 -d2 -l none --json="$TMP/s.json"
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

# --- its own loads are latt's; a run is noisy only past the threshold --------
run_latt "$TMP/q.out" "$TMP/q.err" -q -c2 -d1 -l cpu --json="$TMP/q.json"
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/q.err")"
expect_json "$TMP/q.json" \
    "d['machine']['own_cpus'] >= 0.5" \
    "d['machine']['noisy'] == (d['machine']['foreign_cpu_pct'] >= 10)"
verdict "noise: a cpu load counts as latt's own CPU, not foreign"
# A spin the workload's shell forks is the workload's, so latt's own.
run_latt "$TMP/w.out" "$TMP/w.err" -q -c2 -d1 -l none --json="$TMP/w.json" \
    -- sh -c '(while :; do :; done) & wait'
[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/w.err")"
expect_json "$TMP/w.json" "d['machine']['own_cpus'] >= 0.4"
verdict "noise: a spin the workload forked counts as latt's own CPU"
run_latt "$TMP/n.out" "$TMP/n.err" -q -c2 -d1 -l none --json="$TMP/n.json"
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

# --- no /proc/pressure: one line says so, the run goes on --------------------
if unshare -m true 2>/dev/null && [ -r /proc/pressure/cpu ]; then
	unshare -m --propagation private sh -c \
	    'mount -t tmpfs none /proc/pressure && exec "$@"' sh \
	    timeout -k 5 60 "$LATT" -q -c2 -d1 -l none --json="$TMP/p.json" \
	    >"$TMP/p.out" 2>"$TMP/p.err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "latt exited $rc: $(short "$TMP/p.err")"
	n=$(grep -c '^	machine	 *no CPU PSI;' "$TMP/p.out")
	[ "$n" -eq 1 ] || bad "$n lines on the missing pressure, not 1"
	expect_json "$TMP/p.json" "d['machine']['psi_cpu_some_pct'] is None" \
	    "d['machine']['foreign_cpu_pct'] is not None"
	verdict "noise: /proc/pressure hidden, one line says so"
else
	skip "noise: /proc/pressure hidden: no unshare -m, or no pressure to hide"
fi

# --- compare names the noisy runs, and leaves them out when asked -----------
run_latt "$TMP/r.out" "$TMP/r.err" -q -c2 -d0.5 -l none --repeat=3 --json="$TMP/r.json"
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
"$LATT" compare "$TMP/ra.json" "$TMP/rb.json" 2>&1 | joined >"$TMP/k.out"
"$LATT" compare --drop-noisy "$TMP/ra.json" "$TMP/rb.json" 2>&1 |
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
