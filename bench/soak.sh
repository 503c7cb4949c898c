#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Load and soak runs of ./latt (not part of make check; figures for notes).
#
#   a) 4096 clients under --load=fork for A_SECS (default 120): no error, no
#      sample lost (Entries = rounds x clients), the parent's RSS flat after
#      start-up (sampled from /proc every second: first, last, max).
#   b) -f 0 -t 1 with 8 clients for B_SECS (default 600): RSS flat, the
#      count of /proc/PID/fd constant, and with --log (when built) the final
#      numbers consistent with the log.
#   c) valgrind memcheck and the sanitizer build san/latt over a short run
#      of every mode this latt has: no error, no leak.
#
# Usage: bench/soak.sh [a] [b] [c]      (default: all three)
#        A_SECS=60 B_SECS=120 bench/soak.sh
set -u
cd "$(dirname "$0")/.." || exit 1
LATT=${LATT:-./latt}
A_SECS=${A_SECS:-120}
B_SECS=${B_SECS:-600}
TMP=$(mktemp -d /tmp/latt-soak.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
nfail=0
ok() { echo "ok:   $*"; }
no() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
has_option() { "$LATT" --help 2>/dev/null | grep -q -- "$1"; }
field() {
	awk -F'\t' -v l="$2" '$2 == l { sub(/^ +/, "", $3); print $3; exit }' "$1"
}

# sample PID FILE: about every second while PID runs, "secs rss_kib nfds"
# (secs since the start, real time: listing 8000 descriptors takes a while
# on a loaded machine).  A zombie, or a process between fork and exec, has
# no VmRSS line and gives no sample.
sample() {
	local t0=${EPOCHREALTIME/[.,]/} t rss n st
	while [ -d "/proc/$1" ]; do
		st=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		n=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
		t=${EPOCHREALTIME/[.,]/}
		[ "$st" != Z ] && [ "${rss:-0}" -gt 0 ] &&
		    echo "$(((t - t0) / 1000000)) $rss $n" >>"$2"
		sleep 1
	done
}

# flat FILE: the RSS and fd samples from the end of start-up (the first
# sample with the most descriptors: every client's pipes open) to before
# the last two (the teardown closes them); prints "rss first/last/max KiB,
# fds min..max" and fails when the RSS grew by more than 10% (and 256 KiB)
# or the fd count changed.
flat() {
	awk 'BEGIN { k = 0 } { t[k] = $1; r[k] = $2; d[k] = $3; k++ }
	END {
		dmax = -1
		for (i = 0; i < k; i++) if (d[i] > dmax) dmax = d[i]
		for (s = 0; s < k && d[s] != dmax; s++) ;
		e = k - 2
		if (e - s < 1) { print "too few samples"; exit 1 }
		f = r[s]; m = f; fmin = d[s]; fmax = d[s]
		for (i = s; i < e; i++) {
			if (r[i] > m) m = r[i]
			if (d[i] < fmin) fmin = d[i]; if (d[i] > fmax) fmax = d[i]
		}
		printf "rss first %d last %d max %d KiB over %d samples (%d..%d s; start-up took %d s), fds %d..%d\n",
		    f, r[e - 1], m, e - s, t[s], t[e - 1], t[s], fmin, fmax
		exit !(m - f <= 256 || m <= f * 1.1) || fmin != fmax
	}' "$1"
}

entries_ok() {	# out clients: Entries = rounds x clients
	local e r
	e=$(sed -n 's/^Entries: \([0-9]*\) (clients=.*/\1/p' "$1")
	r=$(field "$1" rounds)
	echo "entries $e, rounds $r, clients $2"
	[ -n "$e" ] && [ -n "$r" ] && [ "$e" -eq $((r * $2)) ] && [ "$e" -gt 0 ]
}

# soak_run TAG CLIENTS FLAT NOT_FLAT ARGS...: latt ARGS in the background,
# its output in $TMP/TAG.out and .err, sampled into $TMP/TAG.samples; then
# the checks of every soak: exit 0 and nothing on stderr, no sample lost
# (entries_ok with CLIENTS), and the samples flat (said as FLAT, or as
# NOT_FLAT when they are not).
soak_run() {
	local tag=$1 clients=$2 flat=$3 notflat=$4 pid rc m
	shift 4
	"$LATT" --details "$@" >"$TMP/$tag.out" 2>"$TMP/$tag.err" &
	pid=$!
	sample $pid "$TMP/$tag.samples" &
	wait $pid
	rc=$?
	wait
	[ "$rc" -eq 0 ] && [ ! -s "$TMP/$tag.err" ] && ok "exit 0, no error" ||
	    no "exit $rc: $(head -c 300 "$TMP/$tag.err")"
	m=$(entries_ok "$TMP/$tag.out" "$clients") &&
	    ok "no sample lost: $m" || no "samples lost: $m"
	m=$(flat "$TMP/$tag.samples") && ok "$flat: $m" || no "$notflat: $m"
}

soak_a() {
	local load=() what
	if has_option --load; then
		load=(--load=fork)
		what="under --load=fork"
	else
		what="WITHOUT a load (this latt has no --load)"
	fi
	echo "== a) 4096 clients $what, $A_SECS s"
	soak_run a 4096 "parent memory flat" "parent memory not flat" \
	    -c4096 "${load[@]}" sleep "$A_SECS"
	grep -E 'Max|^[0-9]+ samples?  |load' "$TMP/a.out" | sed 's/^/      /'
}

soak_b() {
	local log=()
	has_option --log && log=(--log="$TMP/b.log")
	echo "== b) -f 0 -t 1, 8 clients, $B_SECS s${log[*]:+, with --log}"
	soak_run b 8 "memory and descriptors flat" \
	    "memory or descriptors not flat" -c8 -f0 -t1 "${log[@]}" \
	    sleep "$B_SECS"
	if [ ${#log[@]} -gt 0 ]; then
		python3 - "$TMP/b.out" "$TMP/b.log" <<-'EOF' && ok "--log agrees" || no "--log disagrees"
		import re, sys
		out = open(sys.argv[1]).read()
		n = int(re.search(r"^Entries: (\d+)", out, re.M).group(1))
		# The details table's latency worst, to its printed digits.
		w = re.search(r"^latency +\d+(?: +\S+){5} +([\d.]+) ", out,
		    re.M).group(1)
		worst = float(w)
		tol = 0.5 * 10 ** -len((w + ".").split(".")[1]) + 1e-9
		# CSV: time_ns,round,client,cpu,latency_ns,...,series,run; the
		# wake-ups are the series wake (the timer's are client -1).
		rows = [l.split(",") for l in open(sys.argv[2])
		        if l.strip() and l[0].isdigit() and l.split(",")[2] != "-1"]
		lmax = max(int(f[4]) for f in rows) / 1e3
		print("      summary: %d entries, worst %.3f us; log: %d lines, "
		      "max %.3f us" % (n, worst, len(rows), lmax))
		sys.exit(0 if len(rows) == n and abs(lmax - worst) <= tol else 1)
		EOF
	else
		echo "      (no --log in this latt: the log comparison is not run)"
	fi
	grep -E 'Max|^[0-9]+ samples?  |rounds' "$TMP/b.out" | sed 's/^/      /'
}

soak_c() {
	local modes=() m args vg san
	echo "== c) valgrind memcheck and san/latt over every mode"
	[ -x san/latt ] || make -s san/latt || { no "cannot build san/latt"; return; }
	modes+=("plain|-c4 -f1 -t5 sleep 1" "verbose|-v -c2 -f1 -t5 sleep 1"
	    "argv workload|-c2 -f1 -t5 -- sh -c 'sleep 1'"
	    "failing workload|-c2 -f1 -t5 sh -c 'sleep 0.5; exit 3'")
	if has_option --load; then
		for k in cpu syscall yield fork pipe mem; do
			modes+=("load $k|-c2 -f1 -t5 --load=$k:1 sleep 1")
		done
	fi
	has_option --work && modes+=("work|-c2 -f1 -t5 -x 64 sleep 1")
	has_option --duration && modes+=("duration|-c2 -f1 -t5 --duration=1 sleep 5")
	has_option --json && modes+=("json|-c2 -f1 -t5 --json=$TMP/c.json sleep 1")
	has_option --log && modes+=("log|-c2 -f1 -t5 --log=$TMP/c.log sleep 1")
	has_option --plot && modes+=("plot|-c2 -f1 -t5 --plot=$TMP/c.svg sleep 1")
	has_option --cpus && modes+=("cpus|-c2 -f1 -t5 --cpus=0 sleep 1")
	if ! command -v valgrind >/dev/null; then
		no "valgrind is missing (apt-get install valgrind)"
		vg=
	else
		vg=1
	fi
	for m in "${modes[@]}"; do
		name=${m%%|*}
		args=${m#*|}
		if [ -n "$vg" ]; then
			eval "valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
			    --error-exitcode=99 --trace-children=no $LATT $args" \
			    >"$TMP/vg.out" 2>"$TMP/vg.err"
			rc=$?
			if [ "$rc" -ne 99 ] && ! grep -q '^==[0-9]*==' "$TMP/vg.err"; then
				ok "valgrind, $name: clean (exit $rc)"
			else
				no "valgrind, $name: exit $rc: $(grep '^==' "$TMP/vg.err" | head -5 | tr '\n' '|')"
			fi
		fi
		eval "ASAN_OPTIONS=detect_leaks=1 san/latt $args" >"$TMP/san.out" \
		    2>"$TMP/san.err"
		rc=$?
		if ! grep -Eq 'Sanitizer|runtime error' "$TMP/san.err"; then
			ok "san/latt, $name: clean (exit $rc)"
		else
			no "san/latt, $name: $(grep -E 'Sanitizer|runtime error' "$TMP/san.err" | head -3 | tr '\n' '|')"
		fi
	done
}

[ $# -eq 0 ] && set -- a b c
[ -x "$LATT" ] || make -s latt
for s in "$@"; do
	case $s in
	a) soak_a ;;
	b) soak_b ;;
	c) soak_c ;;
	*) echo "usage: bench/soak.sh [a] [b] [c]" >&2; exit 2 ;;
	esac
done
echo "soak: $nfail failed"
[ "$nfail" -eq 0 ]
