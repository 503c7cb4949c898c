#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The machine latt ran on: the host's state recorded once a run
# (environment.host, held against sysfs and procfs read here) and latt
# compare's one line for each difference in it.
. "$(dirname "$0")/lib.sh"

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
# Warnings wrap at 72 columns: each joined into one line first.
"$LATT" compare "$TMP/h.json" "$TMP/h3.json" 2>&1 |
	awk '/^    / { sub(/^ +/, " "); l = l $0; next }
	    { if (l != "") print l; l = $0 } END { print l }' >"$TMP/c3.out"
n=$(grep -c "host's" "$TMP/c3.out")
[ "$n" -eq 3 ] || bad "$n lines for three differences: $(grep "host's" "$TMP/c3.out" | tr '\n' '|')"
grep -q "host's kernel.sched_latt_test_knob differs: A not recorded, B 7\\." "$TMP/c3.out" ||
	bad "a tunable one side lacks is not named"
"$LATT" compare "$TMP/h.json" "$TMP/h.json" >"$TMP/c0.out" 2>&1
! grep -q "host's" "$TMP/c0.out" || bad "a host line where nothing differs"
verdict "compare: one line for each difference in the host's state"
no_leftovers "host"
