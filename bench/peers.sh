#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# latt side by side with its peers (not part of make check).
#
#   1. latt's timer series (how late the parent's absolute sleeps woke; the
#      "timer p50" ... lines of the summary) against cyclictest: the same
#      SCHED_FIFO priority (latt's parent is raised with chrt -p once it has
#      forked everything), a fixed 1 ms interval (latt -f1 -t1, cyclictest
#      -i1000), the same duration; idle, then under a CPU load (latt's
#      --load=cpu when this latt has it, for cyclictest a shell spin loop per
#      CPU; both get the spin loops when latt lacks --load).
#   2. latt's pipe wake-ups against the 2009 latt (LATT_REFERENCE, default
#      ../shared/reference/latt-2009.c), per-sample latencies from -v on
#      both; idle and under the spin loops.
# Runs alternate (latt, peer, latt, peer...) so that drift on this shared
# machine hits both; the figures are pooled over the repetitions.  Prints
# p50, p99 and max of each and the ratios latt / peer.
#
# Usage: bench/peers.sh            SECS=10 REPS=2 PRIO=80 bench/peers.sh
set -u
cd "$(dirname "$0")/.." || exit 1
LATT=${LATT:-./latt}
SECS=${SECS:-10}
REPS=${REPS:-2}
PRIO=${PRIO:-80}
REF=${LATT_REFERENCE:-../shared/reference/latt-2009.c}
TMP=$(mktemp -d /tmp/latt-peers.XXXXXX)
spin_pids=()
cleanup() {
	[ ${#spin_pids[@]} -gt 0 ] && kill "${spin_pids[@]}" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
[ -x "$LATT" ] || make -s latt
has_option() { "$LATT" --help 2>/dev/null | grep -q -- "$1"; }
ncpu=$(nproc)

spin_start() {
	local i
	for i in $(seq "$ncpu"); do
		bash -c 'while :; do :; done' &
		spin_pids+=($!)
	done
}
spin_stop() {
	[ ${#spin_pids[@]} -gt 0 ] || return 0
	kill "${spin_pids[@]}" 2>/dev/null
	wait "${spin_pids[@]}" 2>/dev/null
	spin_pids=()
}

# stats NAME FILE...: p50, p99, max (us) of the latencies, one a line, in
# the files; prints "NAME n p50 p99 max".
stats() {
	local name=$1
	shift
	cat "$@" | python3 -c '
import sys
v = sorted(float(x) for x in sys.stdin if x.strip())
if not v:
    print(sys.argv[1], 0, "nan nan nan"); sys.exit()
q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
print(sys.argv[1], len(v), "%.1f %.1f %.1f" % (q(0.5), q(0.99), v[-1]))
' "$name"
}

# ratio LINE_A LINE_B: the table row of two stats lines.
ratio() {
	python3 -c '
import sys
a, b = sys.argv[1].split(), sys.argv[2].split()
def r(x, y):
    try:
        return "%.2f" % (float(x) / float(y))
    except (ValueError, ZeroDivisionError):
        return "-"
print("  %-34s n=%-7s p50 %8s  p99 %8s  max %9s us" % (a[0], a[1], a[2], a[3], a[4]))
print("  %-34s n=%-7s p50 %8s  p99 %8s  max %9s us" % (b[0], b[1], b[2], b[3], b[4]))
print("  %-34s         p50 %8s  p99 %8s  max %9s" % ("ratio latt / peer", r(a[2], b[2]), r(a[3], b[3]), r(a[4], b[4])))
' "$1" "$2"
}

# ---------------------------------------------------------------------------
timer_vs_cyclictest() {
	local cond=$1 rep load=() warm
	if ! "$LATT" -c1 -f1 -t1 true 2>/dev/null | grep -q '^timer '; then
		echo "  SKIP: this latt reports no timer series (the run-control branch adds it)"
		return
	fi
	if ! command -v cyclictest >/dev/null; then
		echo "  SKIP: cyclictest is missing and could not be installed"
		return
	fi
	[ "$cond" = load ] && has_option --load && load=(--load=cpu)
	warm=()
	has_option --warmup && warm=(--warmup=1s)
	for rep in $(seq "$REPS"); do
		# latt: the parent (whose sleeps are the timer series) and its
		# client at SCHED_FIFO PRIO.  Its own load, or the spin loops.
		[ "$cond" = load ] && [ ${#load[@]} -eq 0 ] && spin_start
		# Only the parent is made real-time, once its clients, loads
		# and workload are forked (a FIFO spin load would starve the
		# machine); --warmup drops the sleeps before that.
		"$LATT" -c1 -f1 -t1 "${warm[@]}" "${load[@]}" sleep "$SECS" \
		    >"$TMP/t.$rep.out" 2>/dev/null &
		sleep 0.5
		chrt -f -p "$PRIO" $! >/dev/null || echo "  chrt -f -p $PRIO failed"
		wait $!
		# The timer series in the summary is percentiles only: keep
		# them (the timer row of the details table, in us).
		awk '$1 == "timer" && NF == 10 { print "timer p50=" $4
		    print "timer p99=" $6; print "timer worst=" $8 }' \
		    "$TMP/t.$rep.out" >"$TMP/t.$rep.q"
		[ "$cond" = load ] && [ ${#spin_pids[@]} -eq 0 ] && spin_start
		cyclictest -q -m -p "$PRIO" -i 1000 -D "$SECS" -h 100000 \
		    >"$TMP/c.$rep.out" 2>/dev/null
		spin_stop
		awk '/^[0-9]+ [0-9]+$/ { n = $2 + 0; for (i = 0; i < n; i++) print $1 + 0 }' \
		    "$TMP/c.$rep.out" >"$TMP/c.$rep.lat"
	done
	# latt's percentiles: the median over the repetitions (its samples
	# are not printed one by one); max: the largest.
	python3 - "$TMP" "$REPS" <<-'EOF' >"$TMP/t.line"
	import statistics, sys
	tmp, reps = sys.argv[1], int(sys.argv[2])
	p50, p99, mx = [], [], []
	for r in range(1, reps + 1):
	    d = dict(l.strip().split("=") for l in open("%s/t.%d.q" % (tmp, r)) if "=" in l)
	    p50.append(float(d["timer p50"])); p99.append(float(d["timer p99"]))
	    mx.append(float(d["timer worst"]))
	print("latt-timer", "-", "%.1f %.1f %.1f"
	      % (statistics.median(p50), statistics.median(p99), max(mx)))
	EOF
	ratio "$(cat "$TMP/t.line")" "$(stats cyclictest "$TMP"/c.*.lat)"
}

# ---------------------------------------------------------------------------
pipe_vs_reference() {
	local cond=$1 rep
	if [ ! -f "$REF" ]; then
		echo "  SKIP: no reference source at $REF (set LATT_REFERENCE)"
		return
	fi
	[ -x "$TMP/latt-2009" ] || cc -O2 -D_GNU_SOURCE -include signal.h \
	    -o "$TMP/latt-2009" "$REF" -lrt -lm -lpthread || {
		echo "  SKIP: the reference does not build"; return; }
	[ "$cond" = load ] && spin_start
	for rep in $(seq "$REPS"); do
		"$LATT" -v -c8 -f1 -t10 sleep "$SECS" >/dev/null 2>"$TMP/n.$rep.err"
		sed -n 's/^log delay *\([0-9.]*\) usec.*/\1/p' "$TMP/n.$rep.err" \
		    >"$TMP/n.$rep.lat"
		# The reference sleeps [min, min + max): -f1 -t9 is -f1 -t10.
		"$TMP/latt-2009" -v -c8 -f1 -t9 sleep "$SECS" >/dev/null \
		    2>"$TMP/r.$rep.err"
		sed -n 's/^log delay *\([0-9]*\) usec.*/\1/p' "$TMP/r.$rep.err" \
		    >"$TMP/r.$rep.lat"
	done
	spin_stop
	ratio "$(stats latt-pipe "$TMP"/n.*.lat)" "$(stats latt-2009 "$TMP"/r.*.lat)"
}

if ! command -v cyclictest >/dev/null; then
	echo "peers: installing rt-tests for cyclictest"
	{ apt-get install -y rt-tests || { apt-get update && apt-get install -y rt-tests; }; } \
	    >"$TMP/apt.log" 2>&1 ||
	    echo "peers: could not install rt-tests: $(tail -n 1 "$TMP/apt.log")"
fi
echo "peers: $LATT, $SECS s a run, $REPS repetitions, SCHED_FIFO $PRIO, $ncpu CPUs"
echo "== timer series vs cyclictest, idle"
timer_vs_cyclictest idle
echo "== timer series vs cyclictest, CPU load ($(has_option --load && echo 'latt --load=cpu, cyclictest spin loops' || echo 'spin loops for both'))"
timer_vs_cyclictest load
echo "== pipe wake-ups vs the 2009 latt (-c8, 1..10 ms), idle"
pipe_vs_reference idle
echo "== pipe wake-ups vs the 2009 latt, $ncpu spin loops"
pipe_vs_reference load
