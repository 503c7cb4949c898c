#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The runqueue-wait split: every client reads its own schedstat run delay
# around each wake-up.  The log, JSON and summary carry it, and the two
# parts add up to the latency; without load the runqueue wait is a small
# share of a wake-up; where schedstat is missing, one line says so and the
# run goes on without the split; and --no-split leaves schedstat closed.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if [ ! -r /proc/thread-self/schedstat ]; then
	skip "split: this kernel has no /proc/thread-self/schedstat"
	exit 0
fi

# The log's column, and the series in the JSON and the summary.
run_latt "$TMP/out" "$TMP/err" -c2 -f1 -t3 -d1 -q --load=none \
    --log="$TMP/log.csv" --json="$TMP/run.json"
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
[ -s "$TMP/err" ] && bad "stderr: $(short "$TMP/err")"
head -n 1 "$TMP/log.csv" | grep -q ',latency_ns,.*rq_wait_ns' ||
    bad "log header: $(head -n 1 "$TMP/log.csv")"
awk -F, -v col="$(head -n 1 "$TMP/log.csv" | tr ',' '\n' | grep -nx rq_wait_ns | cut -d: -f1)" \
    -v lat="$(head -n 1 "$TMP/log.csv" | tr ',' '\n' | grep -nx latency_ns | cut -d: -f1)" '
	NR > 1 && $3 >= 0 && !($col ~ /^[0-9]+$/ && $col + 0 <= $lat + 0) { bad++ }
	NR > 1 && $3 < 0 && $col != "" { bad++ }
	END { exit bad > 0 || NR < 10 }' "$TMP/log.csv" ||
    bad "log: a client row without a runqueue wait within its latency, or a timer row with one"
for l in "runqueue samples" "runqueue mean" "runqueue p50" "runqueue p99" \
    "wake path mean" "wake path p50" "wake path p99"; do
	[ -n "$(field "$TMP/out" "$l")" ] || bad "no '$l' line in the summary"
done
# The 2009 block is untouched: its three lines come right after Averages.
sed -n '3,7p' "$TMP/out" | grep -q 'Stdev' || bad "the 2009 block moved"
expect_json "$TMP/run.json" 'd["schedstat"] is True' \
    'd["runqueue"]["samples"] == d["latency"]["samples"] > 0' \
    'd["wake_path"]["samples"] == d["latency"]["samples"]' \
    'abs(d["runqueue"]["mean_ns"] + d["wake_path"]["mean_ns"] - d["latency"]["mean_ns"]) < 1 + 1e-9 * d["latency"]["mean_ns"]'
verdict "split: a runqueue wait for every sample, in the log, JSON and summary, adding up to the latency"

# Without load the wait for the CPU is a small share of a wake-up.  (Under
# a cpu spin it need not grow: EEVDF's wake-up preemption often runs the
# woken client at once; the FIFO hog of t_explain.sh is the loaded case.)
# The client has CPU 1 to itself and the sender CPU 0: unpinned, the
# client often shares the sender's CPU and then rightly waits behind it
# while it writes the round.
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "split: share of the runqueue wait without load: timing, not under the sanitizers"
elif [ "$(nproc)" -lt 2 ]; then
	skip "split: share of the runqueue wait without load: needs two CPUs"
else
	run_latt "$TMP/idle" "$TMP/err" -c1 --cpus=1 --parent-cpu=0 -f1 -t3 \
	    -d1 -q --load=none --json="$TMP/idle.json"
	why2=$(pycheck "$TMP/idle.json" \
	    'd["runqueue"]["p50_ns"] <= 0.2 * d["latency"]["p50_ns"]')
	[ -n "$why2" ] && bad "idle: $why2 (runqueue p50 $(field "$TMP/idle" "runqueue p50"), latency p50 $(field "$TMP/idle" p50))"
	verdict "split: the runqueue wait is a small share of a wake-up without load"
fi

# No schedstat (a /proc without it, in a mount namespace): one line, and
# the run goes on without the split.
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "split: without schedstat: the sanitizers need /proc, which this test hides"
elif command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	unshare -m bash -c 'mount -t tmpfs none /proc &&
	    exec timeout -k 5 30 "$0" -c2 -f1 -t3 -d1 -q --load=none \
	    --json="$1" --log="$2"' "$LATT" "$TMP/nos.json" "$TMP/nos.csv" \
	    >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	[ "$(nlines "$TMP/err")" -eq 1 ] && grep -q "schedstat cannot be read.*no runqueue-wait split" "$TMP/err" ||
	    bad "stderr is not one line about schedstat: $(short "$TMP/err")"
	expect_summary "$TMP/out" 2
	grep -q '^runqueue ' "$TMP/out" && bad "a split row without schedstat"
	awk -F, 'NR > 1 && $7 != "" { bad++ } END { exit bad > 0 || NR < 3 }' "$TMP/nos.csv" ||
	    bad "log rows with a runqueue wait without schedstat"
	expect_json "$TMP/nos.json" 'd["schedstat"] is False' '"runqueue" not in d'
	verdict "split: without schedstat, one line and the run goes on"
else
	skip "split: without schedstat: no mount namespace here (unshare -m)"
fi

# --no-split: the clients leave schedstat alone (not even open), and the
# run says nothing of a split.  The default run beside it holds the file
# open in each client, so the look at the descriptors can fail.
schedstat_fds() {	# LABEL ARGS...: schedstat descriptors of a client
	local label=$1 pid kid n=-1 i
	shift
	"$LATT" -c2 -f1 -t3 -d2 -q --load=none "$@" >"$TMP/$label.out" \
	    2>"$TMP/$label.err" &
	pid=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.1
		kid=$(pgrep -P "$pid" -x latt | head -n 1)
		[ -n "$kid" ] && break
	done
	sleep 0.3
	[ -n "$kid" ] && n=$(ls -l "/proc/$kid/fd" 2>/dev/null | grep -c schedstat)
	wait "$pid"
	echo "$? $n"
}
read -r rc_on fds_on <<<"$(schedstat_fds on)"
read -r rc_off fds_off <<<"$(schedstat_fds off --no-split --json="$TMP/off.json" --log="$TMP/off.csv")"
[ "$rc_on" -eq 0 ] && [ "$rc_off" -eq 0 ] || bad "exit $rc_on, $rc_off: $(short "$TMP/off.err")"
[ "$fds_on" = 1 ] || bad "a default client holds $fds_on schedstat descriptors, want 1"
[ "$fds_off" = 0 ] || bad "a --no-split client holds $fds_off schedstat descriptors, want 0"
[ -s "$TMP/off.err" ] && bad "stderr with --no-split: $(short "$TMP/off.err")"
grep -q '^runqueue ' "$TMP/off.out" && bad "a split row with --no-split"
grep -q '^runqueue ' "$TMP/on.out" || bad "no split row in the default run"
awk -F, 'NR > 1 && $7 != "" { bad++ } END { exit bad > 0 || NR < 3 }' "$TMP/off.csv" ||
    bad "log rows with a runqueue wait with --no-split"
expect_json "$TMP/off.json" 'd["schedstat"] is False' '"runqueue" not in d' \
    'd["parameters"]["split"] is False'
verdict "split: --no-split leaves schedstat closed and the summary, log and JSON without the split"
