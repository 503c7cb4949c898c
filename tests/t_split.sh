#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The runqueue-wait split: latt reads its clients' schedstat run delay
# before a round's writes and after its replies, on 1 in 8 rounds drawn at
# random (--split=N), or on every round (--split=all).  The log, JSON and
# summary carry it, and the two parts add up to the latency; the sampled
# split takes the share of rounds and samples the summary says; without
# load the runqueue wait is a small share of a wake-up; where schedstat is
# missing, one line says so and the run goes on without the split; the
# clients never read it, and --no-split leaves it closed.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if [ ! -r /proc/thread-self/schedstat ]; then
	skip "split: this kernel has no /proc/thread-self/schedstat"
	exit 0
fi

# The log's column, and the series in the JSON and the summary: with
# --split=all, every sample has its split but those the summary counts as
# left out (the client got a CPU twice between latt's two reads: rare
# without load).
run_latt "$TMP/out" "$TMP/err" -c2 -f1 -t3 -d1 -q --load=none --split=all --details \
    --log="$TMP/log.csv" --json="$TMP/run.json"
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
[ -s "$TMP/err" ] && bad "stderr: $(short "$TMP/err")"
head -n 1 "$TMP/log.csv" | grep -q ',latency_ns,.*rq_wait_ns' ||
    bad "log header: $(head -n 1 "$TMP/log.csv")"
awk -F, -v col="$(head -n 1 "$TMP/log.csv" | tr ',' '\n' | grep -nx rq_wait_ns | cut -d: -f1)" \
    -v lat="$(head -n 1 "$TMP/log.csv" | tr ',' '\n' | grep -nx latency_ns | cut -d: -f1)" '
	NR > 1 && $3 >= 0 && $col != "" &&
	    !($col ~ /^[0-9]+$/ && $col + 0 <= $lat + 0) { bad++ }
	NR > 1 && $3 < 0 && $col != "" { bad++ }
	END { exit bad > 0 || NR < 10 }' "$TMP/log.csv" ||
    bad "log: a runqueue wait above its latency, or a timer row with one"
nosplit=$(awk -F, 'NR > 1 && $3 >= 0 && $7 == "" { n++ } END { print n + 0 }' "$TMP/log.csv")
# The mean latency of the samples with a split, which its parts add up to.
splitmean=$(awk -F, 'NR > 1 && $3 >= 0 && $7 != "" { s += $5; n++ }
	END { if (n) printf "%.3f", s / n; else print -1 }' "$TMP/log.csv")
[ "$(field "$TMP/out" split)" = "every round ($(field "$TMP/out" rounds))" ] ||
    bad "split line '$(field "$TMP/out" split)', rounds $(field "$TMP/out" rounds)"
for l in "runqueue samples" "runqueue mean" "runqueue p50" "runqueue p99" \
    "wake path mean" "wake path p50" "wake path p99"; do
	[ -n "$(field "$TMP/out" "$l")" ] || bad "no '$l' line in the summary"
done
# The 2009 block is untouched: its three lines come right after Averages.
sed -n '3,7p' "$TMP/out" | grep -q 'Stdev' || bad "the 2009 block moved"
expect_json "$TMP/run.json" 'd["schedstat"] is True' \
    'd["parameters"]["split_every"] == 1' \
    'd["run"]["split_rounds"] == d["run"]["rounds"]' \
    "d['run']['split_left_out'] == $nosplit" \
    'd["runqueue"]["samples"] + d["run"]["split_left_out"] == d["latency"]["samples"] > 0' \
    'd["run"]["split_left_out"] <= 0.25 * d["latency"]["samples"]' \
    'd["wake_path"]["samples"] == d["runqueue"]["samples"]' \
    "abs(d['runqueue']['mean_ns'] + d['wake_path']['mean_ns'] - $splitmean) < 1 + 1e-9 * $splitmean"
verdict "split=all: a runqueue wait for every sample ($nosplit left out), in the log, JSON and summary, adding up to the latency"

# The default split: 1 in 8 rounds, drawn at random before the round, all
# of a drawn round's samples and none of the others' (the log), as many
# rounds as the summary and the JSON say, near an eighth of all (within 5
# standard deviations of the binomial), each sample of them split or
# counted as left out.
run_latt "$TMP/s8" "$TMP/err" -c4 -f0 -t1 -d2 -q --load=none --details \
    --log="$TMP/s8.csv" --json="$TMP/s8.json"
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
sl=$(field "$TMP/s8" split)
echo "$sl" | grep -Eq '^1 in 8 rounds at random \([0-9]+ of [0-9]+\)$' ||
    bad "split line '$sl'"
expect_json_timed "$TMP/s8.json" 'd["parameters"]["split_every"] == 8' \
    "'(%d of %d)' % (d['run']['split_rounds'], d['run']['rounds']) in '$sl'" \
    'abs(d["run"]["split_rounds"] - d["run"]["rounds"] / 8) <= 5 * (d["run"]["rounds"] * 7 / 64) ** 0.5' \
    'd["runqueue"]["samples"] + d["run"]["split_left_out"] == 4 * d["run"]["split_rounds"] - d["run"]["pending"]' \
    "d['runqueue']['samples'] == $(field "$TMP/s8" "runqueue samples")" \
    -- 'd["run"]["rounds"] >= 400'
why2=$(python3 - "$TMP/s8.csv" "$TMP/s8.json" <<'EOF'
import json, sys
rows = [l.split(",") for l in open(sys.argv[1]).read().splitlines()[1:]]
d = json.load(open(sys.argv[2]))
split, whole = {}, {}
for r in rows:
    if int(r[2]) < 0:
        continue
    whole[r[1]] = whole.get(r[1], 0) + 1
    split[r[1]] = split.get(r[1], 0) + (r[6] != "")
part = [k for k in split if 0 < split[k] < whole[k]]
drawn = [k for k in split if split[k] > 0]
bad = []
if sum(split.values()) != d["runqueue"]["samples"]:
    bad.append("%d log rows with a split, %d in the JSON"
               % (sum(split.values()), d["runqueue"]["samples"]))
if len(part) > d["run"]["split_left_out"]:
    bad.append("%d rounds split in part, %d samples left out"
               % (len(part), d["run"]["split_left_out"]))
if len(drawn) > d["run"]["split_rounds"]:
    bad.append("split samples in %d rounds, %d drawn"
               % (len(drawn), d["run"]["split_rounds"]))
print("; ".join(bad))
EOF
)
[ -n "$why2" ] && bad "$why2"
verdict_timed "split: the default draws its rounds at random ($sl), all of their samples and none of the others'" "$TMP/s8.json"

# Without load the wait for the CPU is a small share of a wake-up.  (Under
# a cpu spin it need not grow: EEVDF's wake-up preemption often runs the
# woken client at once; the FIFO hog of t_explain.sh is the loaded case.)
# The client has CPU 1 to itself and the sender CPU 0: unpinned, the
# client often shares the sender's CPU and then rightly waits behind it
# while it writes the round.  The client runs SCHED_FIFO at CLIENT_PRIO:
# the machine's other work (busy loops, compilers) is no load for it, and
# what else still crowds it (real-time tasks of others) the judge names.
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "split: share of the runqueue wait without load: timing, not under the sanitizers"
elif [ "$(nproc)" -lt 2 ]; then
	skip "split: share of the runqueue wait without load: needs two CPUs"
else
	run_latt "$TMP/idle" "$TMP/err" -c1 --cpus=1 --parent-cpu=0 -f1 -t3 \
	    -d1 -q --load=none --split=all --prio="$CLIENT_PRIO" \
	    --json="$TMP/idle.json"
	[ "$rc" -eq 0 ] || bad "idle: rc $rc: $(short "$TMP/err")"
	why2=$(pycheck "$TMP/idle.json" \
	    'd["runqueue"]["p50_ns"] <= 0.2 * d["latency"]["p50_ns"]')
	[ -n "$why2" ] && tbad "idle: $why2 (runqueue p50 $(field "$TMP/idle" "runqueue p50"), latency p50 $(field "$TMP/idle" p50))"
	verdict_timed "split: the runqueue wait is a small share of a wake-up without load" "$TMP/idle.json" 100
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

# Who holds schedstat: latt itself, one per client (it reads them), the
# clients none (a client reads nothing on its way); with --no-split, nobody.
# Both runs are looked at the same way, so either look can fail.
schedstat_fds() {	# LABEL ARGS...: "rc latt's client's" schedstat fds
	local label=$1 pid kid n=-1 k=-1 i
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
	if [ -n "$kid" ]; then
		n=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c schedstat)
		k=$(ls -l "/proc/$kid/fd" 2>/dev/null | grep -c schedstat)
	fi
	wait "$pid"
	echo "$? $n $k"
}
read -r rc_on fds_on kfds_on <<<"$(schedstat_fds on)"
read -r rc_off fds_off kfds_off <<<"$(schedstat_fds off --no-split --json="$TMP/off.json" --log="$TMP/off.csv")"
[ "$rc_on" -eq 0 ] && [ "$rc_off" -eq 0 ] || bad "exit $rc_on, $rc_off: $(short "$TMP/off.err")"
[ "$fds_on" = 2 ] || bad "latt holds $fds_on schedstat descriptors for 2 clients, want 2"
[ "$kfds_on" = 0 ] || bad "a client holds $kfds_on schedstat descriptors, want 0"
[ "$fds_off" = 0 ] && [ "$kfds_off" = 0 ] ||
    bad "with --no-split latt holds $fds_off schedstat descriptors and a client $kfds_off, want 0"
[ -s "$TMP/off.err" ] && bad "stderr with --no-split: $(short "$TMP/off.err")"
grep -q '^runqueue ' "$TMP/off.out" && bad "a split row with --no-split"
grep -q '^runqueue ' "$TMP/on.out" || bad "no split row in the default run"
awk -F, 'NR > 1 && $7 != "" { bad++ } END { exit bad > 0 || NR < 3 }' "$TMP/off.csv" ||
    bad "log rows with a runqueue wait with --no-split"
expect_json "$TMP/off.json" 'd["schedstat"] is False' '"runqueue" not in d' \
    'd["parameters"]["split"] is False' 'd["parameters"]["split_every"] is None'
verdict "split: latt holds its clients' schedstat, the clients none; --no-split leaves it closed and the outputs without the split"

# A bad value of --split: one line naming it (and where help is), status
# 2, nothing run.  The other bad values, and the good ones, are
# tests/unit_split.c's.
for args in "--split=0"; do
	# shellcheck disable=SC2086 # the arguments split on purpose
	run_latt "$TMP/out" "$TMP/err" $args -d1 true
	[ "$rc" -eq 2 ] || bad "$args: rc $rc"
	[ "$(nlines "$TMP/err")" -eq 2 ] && head -n 1 "$TMP/err" | grep -q split &&
	    [ "$(tail -n 1 "$TMP/err")" = "try 'latt --help'" ] ||
	    bad "$args: stderr is not one line naming split: $(short "$TMP/err")"
	[ -s "$TMP/out" ] && bad "$args: stdout: $(short "$TMP/out")"
done
verdict "split: a bad --split value is a one-line usage error"
