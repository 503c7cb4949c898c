# SPDX-License-Identifier: GPL-2.0-only
# Honest samples: nothing of latt's method in the results.
#
# 1. Order: with the parent and four clients pinned to one CPU, no client
#    is systematically faster.  Pipe wake-ups are sync wake-ups: written in
#    a fixed order, the client woken last runs first, and per-client
#    medians rise with the index (a max/min ratio of about 1.5 here).
#    With a fresh random order per round, the ratio stays below 1.2.
# 2. Deadlines: -d 2 with a client stopped (SIGSTOP) in the middle of the
#    run ends within 2 s of the deadline, with status 0, and reports the
#    wake-up left unanswered, its age at least the time it was stopped,
#    in the text (worst marked as a lower bound) and in the JSON.
# 3. Open loop against a known truth: a SCHED_FIFO hog spinning H ms of
#    every P ms on the client's CPU, the parent on another CPU.  Requests
#    are sent at random times, so the share of samples above x is
#    (H - x) / P for x < H: checked at two values of x, within x0.6..x1.5
#    of the prediction.  The hog is at HOG_PRIO and the client SCHED_FIFO
#    at CLIENT_PRIO (lib.sh), so that the hog is the only delay the client
#    can meet: a plain client also waited behind the compilers of this
#    shared machine (a share of 0.257 above 25 ms for 0.150 predicted,
#    under a load of 40).  The closed loop beside it samples each stall
#    about once and shows a share below half the open loop's at the lower
#    x (see "Coordinated omission" in docs/method.md).
# 4. A storm of exiting grandchildren (orphans that come back to latt, the
#    subreaper): exactly one timer sample per sleep (timer samples equal
#    rounds), and no zombies pile up during the run.
# 5. The machine changing under a run: the clocksource switched mid-run
#    (and switched back after) is named in the summary's "changed" row and
#    in the JSON's changed_during_run, and latt compare warns of that
#    side; a run where nothing changed has none of these.
#
# Usage: LATT=./latt bash tests/t_honest.sh
. tests/lib.sh
export LATT

# ---------------------------------------------------------------------------
# 1. Order.
order() {
	local cpu
	if [ -n "${LATT_SANITIZED:-}" ]; then
		skip "order: timing is checked with the plain build only"
		return
	fi
	cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
	run_latt "$TMP/o.out" "$TMP/o.err" -q -c4 --cpus="$cpu" \
	    --parent-cpu="$cpu" --load=none -f1 -t2 -d2 --log="$TMP/o.csv" \
	    --json="$TMP/o.json"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/o.err")"
	python3 - "$TMP/o.csv" >"$TMP/o.verdict" <<-'EOF'
	import collections, statistics, sys
	lines = open(sys.argv[1]).read().splitlines()
	bad = []
	if not lines or "pos" not in lines[0].split(","):
	    bad.append("the log has no pos column: %r" % lines[:1])
	by, pos = collections.defaultdict(list), collections.defaultdict(list)
	for l in lines[1:]:
	    f = [int(x) if x else -1 for x in l.split(",")[:7]]
	    if f[2] < 0:
	        continue	# a timer row
	    by[f[2]].append(f[4])
	    pos[f[5] if len(f) > 5 else -1].append(f[4])
	if len(by) != 4 or min(len(v) for v in by.values()) < 200:
	    # A count a client took in 2 s: the judge says whether the
	    # machine left them their CPU.
	    print("too few samples")
	    print("TBAD too few samples: %r" % {c: len(v) for c, v in by.items()})
	    sys.exit(0)
	m = [statistics.median(by[c]) for c in sorted(by)]
	p = [statistics.median(pos[c]) for c in sorted(pos)]
	ratio = max(m) / min(m)
	print("client medians %s us (max/min %.2f); by position %s us"
	      % (" ".join("%.1f" % (x / 1e3) for x in m), ratio,
	         " ".join("%.1f" % (x / 1e3) for x in p)))
	if sorted(pos) != [0, 1, 2, 3]:
	    bad.append("positions are not 0..3: %r" % sorted(pos))
	# Stated margin: 1.2 (a fixed order gives about 1.5 here); a timing
	# relation, judged by the run's own record when it fails.
	if ratio >= 1.2:
	    print("TBAD per-client medians differ by x%.2f (>= 1.2)" % ratio)
	for b in bad:
	    print("BAD " + b)
	EOF
	verdict_from "order: no client is systematically faster" "$TMP/o.verdict" \
	    "$TMP/o.json" 800
	no_leftovers "order"
}
order

# ---------------------------------------------------------------------------
# 2. A stopped client and -d 2.
deadline() {
	local victim t1 t2 stop_us pend
	env --default-signal "$LATT" -q -c3 -f1 -t3 -d2 --load=none --details \
	    --json="$TMP/d.json" >"$TMP/d.out" 2>"$TMP/d.err" &
	pid=$!
	T0=$(usecs)
	victim=
	if wait_nclients $pid 3; then
		sleep 0.5
		victim=$(clients_of $pid | sed -n 2p)
	fi
	t1=$(usecs)
	[ -n "$victim" ] && kill -STOP "$victim" || bad "no client to stop"
	wait_gone $pid 10
	t2=$(usecs)
	stop_us=$((t2 - t1))
	[ -n "$victim" ] && kill -CONT "$victim" 2>/dev/null
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/d.err")"
	# Start-up is under 1 s here; the run must end by deadline + 2 s.
	[ "$ms" -le 5000 ] || bad "ran $ms ms for -d 2 (want <= 2 s + 2 s + start-up 1 s)"
	grep -q 'ended by the duration' "$TMP/d.out" ||
	    bad "not ended by the duration: $(field "$TMP/d.out" ran)"
	pend=$(field "$TMP/d.out" pending)
	case $pend in
	"1 wake-up unanswered at the end"*) ;;
	*) bad "pending line: '$pend'" ;;
	esac
	grep -Eq '^[0-9]+ samples  .*  worst >=[0-9.]+ (ms|s)  ' "$TMP/d.out" ||
	    bad "worst is not marked as a lower bound: $(sed -n 9p "$TMP/d.out")"
	# The age is at least the time the client was stopped before the
	# end (the run's start, wall clock, and length from the JSON; the stop
	# at t1 here), less a round (3 ms) and the write's own delay: about
	# 1.5 s on a quiet machine, less when a busy one left the look for
	# the clients late.
	expect_json --with "r = d['run']; stopped = r['started_at_ns'] + r['wall_ns'] - ${t1}000" \
	    "$TMP/d.json" 'r["pending"] == 1' 'stopped > 1e8' \
	    'r["pending_oldest_ns"] >= stopped - 5e7'
	verdict "a stopped client with -d 2: ended after $ms ms, status 0, $pend, its age at least the stop's"
	no_leftovers "stopped client with -d 2"
}
deadline

# ---------------------------------------------------------------------------
# 3. The open loop against a known truth, the closed loop beside it.
H_MS=40
P_MS=100
openloop() {
	if [ -n "${LATT_SANITIZED:-}" ]; then
		skip "open loop accuracy: timing is checked with the plain build only"
		return
	fi
	if ! two_cpus; then
		skip "open loop accuracy: needs two CPUs"
		return
	fi
	if ! rt_room $H_MS $P_MS; then
		skip "open loop accuracy: $rt_why"
		return
	fi
	if ! start_hog "$c1" $H_MS $P_MS 9 "$HOG_PRIO"; then
		skip "open loop accuracy: $hog_why"
		return
	fi
	for mode in open closed; do
		run_latt "$TMP/$mode.out" "$TMP/$mode.err" -q -c1 --cpus="$c1" \
		    --prio="$CLIENT_PRIO" --parent-cpu="$c0" --load=none \
		    -f1 -t3 -d 3500ms --details \
		    --log="$TMP/$mode.csv" $([ $mode = open ] && echo --open-loop)
		[ "$rc" -eq 0 ] || bad "$mode: exit $rc: $(short "$TMP/$mode.err")"
		grep -q $'^\tloop\t *'"$mode" "$TMP/$mode.out" ||
		    bad "$mode: the summary does not name the loop: $(field "$TMP/$mode.out" loop)"
	done
	stop_hog
	python3 - "$TMP" $H_MS $P_MS >"$TMP/ol.verdict" <<-'EOF'
	import sys
	tmp, h, p = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
	def load(name):
	    try:
	        lines = open("%s/%s.csv" % (tmp, name)).read().splitlines()[1:]
	    except OSError:
	        return []
	    return [int(l.split(",")[4]) / 1e6 for l in lines
	            if int(l.split(",")[2]) >= 0]
	op, cl = load("open"), load("closed")
	bad, say = [], []
	if len(op) < 500 or len(cl) < 200:
	    bad.append("too few samples: open %d, closed %d" % (len(op), len(cl)))
	    op, cl = op or [0], cl or [0]
	for x in (10.0, 25.0):
	    want = (h - x) / p
	    share = sum(v > x for v in op) / len(op)
	    say.append("open > %g ms %.3f (want %.3f)" % (x, share, want))
	    # Stated margins: x0.6 .. x1.5 of (H - x) / P.
	    if not 0.6 * want <= share <= 1.5 * want:
	        bad.append("open share > %g ms is %.3f, want %.3f (x0.6..x1.5)"
	                   % (x, share, want))
	x = 10.0
	cshare = sum(v > x for v in cl) / len(cl)
	oshare = sum(v > x for v in op) / len(op)
	say.append("closed > %g ms %.3f" % (x, cshare))
	if cshare >= oshare / 2:
	    bad.append("closed share > %g ms %.3f is not below half the open "
	               "loop's %.3f" % (x, cshare, oshare))
	print("%s; %d open, %d closed samples" % (", ".join(say), len(op), len(cl)))
	for b in bad:
	    print("BAD " + b)
	EOF
	verdict_from "open loop, hog $H_MS of every $P_MS ms on CPU $c1" "$TMP/ol.verdict"
	no_leftovers "open loop accuracy"
}
openloop

# ---------------------------------------------------------------------------
# 4. A storm of exiting grandchildren.
# zombies_of PID: sets $z, how many children of PID are zombies.  Only
# PID's children are read (its tasks' children files), with builtins: a
# scan of every process took over half a second a look on a loaded
# machine, too few looks in the run.  Without the children files (a
# kernel without CONFIG_PROC_CHILDREN), every process is scanned.
zombies_of() {
	local c line
	z=0
	if ! children_of "$1"; then
		z=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v P="$1" '{
		    s = $0; sub(/^.*\) /, "", s); split(s, f, " ")
		    if (f[2] == P && f[1] == "Z") n++ } END { print n + 0 }')
		return
	fi
	for c in "${kids[@]}"; do
		read -r line 2>/dev/null <"/proc/$c/stat" || continue
		line=${line##*) }
		[ "${line%% *}" = Z ] && z=$((z + 1))
	done
}
storm() {
	local z zmax=0 k=0 r tn
	# shellcheck disable=SC2016 # the workload's own loop
	env --default-signal "$LATT" -q -c2 -f1 -t3 -d3 --details \
	    --json="$TMP/s.json" \
	    sh -c 'while :; do (sleep 0.01 &); (sleep 0.01 &); sleep 0.005; done' \
	    >"$TMP/s.out" 2>"$TMP/s.err" &
	pid=$!
	T0=$(usecs)
	wait_started $pid || bad "the run did not start"
	sleep 0.5
	while [ -n "$(stat_field $pid 1)" ] && [ "$(stat_field $pid 1)" != Z ] &&
	    [ $k -lt 20 ]; do
		zombies_of $pid
		[ "$z" -gt "$zmax" ] && zmax=$z
		k=$((k + 1))
		sleep 0.1
	done
	wait_gone $pid 15
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/s.err")"
	r=$(field "$TMP/s.out" rounds)
	tn=$(field "$TMP/s.out" "timer samples")
	[ -n "$r" ] && [ "${r:-0}" -gt 100 ] && [ "$r" = "$tn" ] ||
	    bad "rounds '$r', timer samples '$tn' (want equal, > 100)"
	# Hundreds of orphans end in the run; a handful may wait a moment.
	# (A crowded machine may leave the test's own looks too slow.)
	[ $k -ge 5 ] || tbad "only $k looks at the zombies"
	[ "$zmax" -le 20 ] || bad "$zmax zombies at once during the run"
	verdict_timed "a storm of exiting grandchildren: $tn timer samples for $r rounds, at most $zmax zombies in $k looks" "$TMP/s.json"
	no_leftovers "storm"
}
storm

# ---------------------------------------------------------------------------
# 5. The machine changing under a run.
CS=/sys/devices/system/clocksource/clocksource0
cs_was=
# restore_clocksource: back to the clocksource machine() switched from, if
# it switched one (registered with on_exit: also when the script is cut).
restore_clocksource() {
	[ -n "$cs_was" ] || return 0
	echo "$cs_was" >"$CS/current_clocksource"
	cs_was=
}
on_exit restore_clocksource
machine() {
	local was other py
	was=$(cat "$CS/current_clocksource" 2>/dev/null)
	for other in $(cat "$CS/available_clocksource" 2>/dev/null); do
		[ "$other" != "$was" ] && break
	done
	if [ -z "$was" ] || [ -z "$other" ] || [ "$other" = "$was" ] ||
	    ! [ -w "$CS/current_clocksource" ]; then
		skip "machine: no second clocksource to switch to (needs root and two in $CS)"
		return
	fi
	py='import json, sys
d = json.load(open(sys.argv[1]))["environment"]
want = {} if sys.argv[2] == "-" else {"clocksource": {"start": sys.argv[2], "end": sys.argv[3]}}
if d.get("changed_during_run") != want or d.get("clocksource") != sys.argv[4]:
    print("environment: clocksource %r, changed_during_run %r, want %r" % (d.get("clocksource"), d.get("changed_during_run"), want))'
	# Nothing changes: no row, an empty object.
	run_latt "$TMP/m0.out" "$TMP/m0.err" -q -c2 -d1 --load=none \
	    --json="$TMP/m0.json"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/m0.err")"
	grep -q "changed" "$TMP/m0.out" && bad "a 'changed' row with nothing changed: $(grep changed "$TMP/m0.out")"
	w=$(python3 -c "$py" "$TMP/m0.json" - - "$was")
	[ -n "$w" ] && bad "unchanged run: $w"
	# Switched mid-run, and back once the run is over whatever happens.
	env --default-signal "$LATT" -q -c2 -d2 --load=none \
	    --json="$TMP/m1.json" >"$TMP/m1.out" 2>"$TMP/m1.err" &
	pid=$!
	wait_nclients $pid 2 || bad "the run did not start"
	sleep 0.5
	cs_was=$was
	echo "$other" >"$CS/current_clocksource"
	wait_gone $pid 15
	restore_clocksource
	[ "$(cat "$CS/current_clocksource")" = "$was" ] ||
	    bad "the clocksource was not restored to $was"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/m1.err")"
	grep -q "changed.*clocksource $was -> $other during the run" "$TMP/m1.out" ||
	    bad "no 'changed' row for $was -> $other: $(grep -i changed "$TMP/m1.out")"
	w=$(python3 -c "$py" "$TMP/m1.json" "$was" "$other" "$was")
	[ -n "$w" ] && bad "switched run: $w"
	# compare says so of the side the machine changed under, only.
	"$LATT" compare "$TMP/m1.json" "$TMP/m0.json" 2>&1 | awk '
	    /^    [^ ]/ { sub(/^    /, " "); printf "%s", $0; next }
	    NR > 1 { print "" } { printf "%s", $0 } END { print "" }' \
	    >"$TMP/mc.out"
	grep -q "^warning: A: during the run of .*m1.json, the clock source changed from $was to $other\.$" "$TMP/mc.out" ||
	    bad "compare: no warning that the machine changed under A: $(grep warning "$TMP/mc.out" | tr '\n' '|')"
	grep -q "^warning: B: during the run" "$TMP/mc.out" &&
	    bad "compare: a machine-change warning for B"
	verdict "machine: a clocksource switched mid-run ($was -> $other) is named in the summary, the JSON and compare; none otherwise"
	no_leftovers "machine"
}
machine
