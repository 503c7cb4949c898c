#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --explain: the tracefs autopsy of the worst wake-ups.  A SCHED_FIFO hog
# on the client's CPU must be named (comm and pid) for about the runqueue
# wait; a stopped client must be "not runnable", not delayed by another
# task; whatever ends the run, latt's instance must be gone and the global
# tracing state unchanged.  Skipped, with the reason, where tracefs cannot
# be mounted or used.
cd "$(dirname "$0")/.." || exit 1
# The script runs in a mount namespace of its own, with a tracefs at
# /sys/kernel/tracing, where latt looks first: a tracefs that another test
# mounted under /tmp (first in the mount table here) may be unmounted by
# that test in the middle of a run of this one.
#
# tests/run: alone (its checks name the one task that delayed a client:
# another script's real-time client beside it could be that task).  The
# checks that name no task (bad values, no tracefs, and every way a run
# ends) are its other part, LATT_EXPLAIN_PART=ends: t_explain_ends.sh,
# which tests/run runs in its lanes.
if [ -z "${LATT_EXPLAIN_NS:-}" ] && [ "$(id -u)" = 0 ] &&
    unshare -m --propagation private true 2>/dev/null; then
	LATT_EXPLAIN_NS=1 exec unshare -m --propagation private \
	    bash "$PWD/tests/t_explain.sh" "$@"
fi
. tests/lib.sh
part=${LATT_EXPLAIN_PART:-naming}
is_tracefs() { [ "$(stat -f -c %T "$1" 2>/dev/null)" = tracefs ]; }
if [ -n "${LATT_EXPLAIN_NS:-}" ] && ! is_tracefs /sys/kernel/tracing; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi

# refused NAME PATTERN: the run just made was refused before it started:
# status 2, nothing on stdout, PATTERN on stderr.
refused() {
	[ "$rc" -eq 2 ] || bad "rc $rc"
	[ -s "$TMP/out" ] && bad "stdout: $(short "$TMP/out")"
	grep -q "$2" "$TMP/err" || bad "stderr: $(short "$TMP/err")"
	verdict "$1"
}

# Bad values are usage errors before anything runs.
if [ "$part" = ends ]; then
for v in 0 101 x 3x ''; do
	run_latt "$TMP/out" "$TMP/err" --explain="$v" -c1 -d1 sleep 1
	[ "$(err_lines "$TMP/err")" -eq 1 ] || bad "$(nlines "$TMP/err") lines on stderr"
	refused "explain: --explain=$v is a usage error" explain
done

# Without tracefs (a mount namespace without it): status 2 before the run.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	unshare -m bash -c '
		for m in $(awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }" /proc/mounts | sort -r); do
			umount -l "$m" 2>/dev/null
		done
		exec timeout -k 5 30 "$0" --explain -c1 -d1 sleep 1' "$LATT" \
	    >"$TMP/out" 2>"$TMP/err"
	rc=$?
	refused "explain: without tracefs, status 2 before the run" \
	    "explain: tracefs is not mounted"
else
	skip "explain: without tracefs: no mount namespace here (unshare -m)"
fi; fi

# A tracefs mounted here, below $TMP, is unmounted by cleanup (lib.sh).
if is_tracefs /sys/kernel/tracing; then
	tdir=/sys/kernel/tracing
else
	tdir=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
fi
if [ -z "$tdir" ] && mkdir -p "$TMP/tracefs" &&
    mount -t tracefs nodev "$TMP/tracefs" 2>/dev/null; then
	tdir=$TMP/tracefs
fi
if [ -z "$tdir" ] || ! [ -d "$tdir/instances" ] || ! [ -w "$tdir/instances" ]; then
	skip "explain: tracefs is neither mounted writable nor mountable here (the autopsy tests need it)"
	exit 0
fi

# Without the right to use tracefs: status 2 before the run.
if [ "$part" = ends ]; then
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    test -x "$LATT" 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	    timeout -k 5 30 "$LATT" --explain -c1 -d1 sleep 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	refused "explain: without the right to trace, status 2 before the run" \
	    "explain: cannot make a tracefs instance"
else
	skip "explain: unprivileged: not root, or no setpriv, or latt not reachable by nobody"
fi; fi

# The global tracing state that latt must leave as it found it.
global_state() {
	local f
	for f in tracing_on trace_clock current_tracer buffer_size_kb \
	    set_event tracing_cpumask events/enable; do
		printf '%s=' "$f"
		tr '\n' ' ' <"$tdir/$f" 2>/dev/null
		echo
	done
}

# after_end NAME PID [JSON [NEED [OWN]]]: the instance of latt PID is gone
# (the keeper may take a moment when latt was killed), the global state is
# as before (a concurrent breaktrace test may flip tracing_on for an
# instant, so it is looked at again), and no process of the run is left.
# With JSON, the check's timing relations (tbad) go to the judge
# (verdict_timed), which reads the run's own record in JSON.
after_end() {
	local i now
	for i in $(seq 50); do
		[ -e "$tdir/instances/latt-$2" ] || break
		sleep 0.1
	done
	[ -e "$tdir/instances/latt-$2" ] && bad "instance latt-$2 left behind"
	for i in 1 2 3 4 5; do
		now=$(global_state)
		[ "$now" = "$before" ] && break
		sleep 0.3
	done
	[ "$now" = "$before" ] || bad "global tracing state changed: $(diff <(echo "$before") <(echo "$now") | tr '\n' ' ')"
	for i in $(seq 30); do
		[ -z "$(leftovers)" ] && break
		sleep 0.1
	done
	[ -n "$(leftovers)" ] && bad "processes left: $(leftovers)"
	if [ $# -gt 2 ]; then
		verdict_timed "$1" "${@:3}"
	else
		verdict "$1"
	fi
}

# autopsy_check FILE HOGPID EXPR...: pycheck over the JSON, where e is its
# explain object, s the autopsies, and h those whose longest runner was
# HOGPID (none for -).
autopsy_check() {
	local f=$1 hp=$2
	shift 2
	[ "$hp" = - ] && hp=-1
	pycheck --with 'e = d.get("explain", {})
s = e.get("samples", [])
h = [x for x in s if x["ran"] and x["ran"][0]["pid"] == '"$hp"']' "$f" "$@"
}

# explain_text NAME OUT JSON NEED: the autopsy's text in OUT (issue 20):
# every line within 80 columns (but a single word, a tracefs path), every
# time in one rule (fmt_time's: the largest unit that keeps it at least 1,
# four significant digits at most), and the verdict's longest interrupt
# said with when it came ("with 12.34 us of softirq RCU during the wait":
# before the wake-up, during the wait, or after the switch-in, as the
# JSON's timeline places its start), never "then ... in".  With NEED, at
# least one verdict must say it.
cat >"$TMP/text.py" <<'EOF'
import json, re, sys
out, jpath, need = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
lines = open(out, encoding="utf-8", errors="replace").read().split("\n")
starts = [i for i, l in enumerate(lines) if l.startswith("Autopsy of the")]
bad, ntimes, nphrase = [], 0, 0
if not starts:
    bad.append("no autopsy")
text = lines[starts[0]:] if starts else []
for l in text:
    w = len(l.expandtabs(8))
    if w > 80 and len(l.split()) > 1:
        bad.append("%d columns: %r" % (w, l[:70]))
for m in re.finditer(r"(?<![\w.])[-+]?(\d+(?:\.\d+)?) (ns|us|ms|s)\b",
                     "\n".join(text)):
    v, unit = float(m.group(1)), m.group(2)
    digits = m.group(1).replace(".", "").lstrip("0")
    ntimes += 1
    if (unit != "s" and v >= 1000) or (v < 1 and not (unit == "ns" and v == 0)) \
            or len(digits) > 4 or (unit == "ns" and "." in m.group(1)):
        bad.append("time %r" % m.group(0))
if ntimes < 10:
    bad.append("only %d times" % ntimes)
# The text's verdicts, continuation lines joined.
joined, said = "\n".join(text), []
for m in re.finditer(r"\n  verdict: (.*(?:\n {11}\S.*)*)", joined):
    said.append(" ".join(x.strip() for x in m.group(1).split("\n")))
d = json.load(open(jpath))
s = d.get("explain", {}).get("samples", [])
for x in s:
    if x["verdict"] not in said:
        bad.append("verdict not in the text: %r" % x["verdict"][:60])
    if re.search(r"then [\d.]+ \w+ in ", x["verdict"]):
        bad.append("'then ... in': %r" % x["verdict"][-50:])
    big = max((q for q in x["irqs"] if q["ns"] >= 1000),
              key=lambda q: q["ns"], default=None)
    kinds = [t["kind"] for t in x["timeline"] if t["t_ns"] >= 0]
    # Enqueued again after it ran, with no switch out between: a wake-up
    # ordered after the switch it led to (its running taken for a wait).
    if "switch" in kinds and "wakeup" in kinds[kinds.index("switch"):] and \
            not {"preempted", "blocked"} & set(kinds):
        bad.append("a wakeup after the switch-in: %s" % kinds)
    if big is None or x["timer"] or kinds.count("switch") != 1 or \
            "waking" not in kinds or "preempted" in kinds or "blocked" in kinds:
        continue
    at = {t["kind"]: t["t_ns"] for t in x["timeline"] if t["t_ns"] >= 0}
    when = ("during the parent's write" if big["start_ns"] < at["waking"]
            else "during the wait" if big["start_ns"] < at["switch"]
            else "after the switch-in")
    nphrase += 1
    if not re.search(r", with [\d.]+ \w+ of .* %s$" % re.escape(when),
                     x["verdict"]):
        bad.append("verdict %r, its interrupt is %s" % (x["verdict"][-60:],
                                                        when))
if need and nphrase == 0:
    bad.append("no verdict names an interrupt")
print("%d lines, %d times, %d interrupts placed" % (len(text), ntimes, nphrase))
for b in bad[:4]:
    print("BAD " + b)
EOF
explain_text() {
	python3 "$TMP/text.py" "$2" "$3" "$4" >"$TMP/text.out" 2>&1
	verdict_from "$1" "$TMP/text.out"
}

# client_up PID: whether latt PID has its client, a child in latt's own
# process group (its keeper and loads have groups of their own), its pid
# in $up.  Reads only latt's children, with builtins: quick on a loaded
# machine.  The child that tries the clients' scheduling first (tune.c's
# probe) is in latt's group for a moment too: see beside_hog.
client_up() {
	local c line g
	local -a f
	up=
	if ! children_of "$1"; then
		up=$(clients_of "$1" | head -n 1)
		[ -n "$up" ]
		return
	fi
	read -r line 2>/dev/null <"/proc/$1/stat" || return 1
	read -r -a f <<<"${line##*) }"
	g=${f[2]}
	for c in "${kids[@]}"; do
		read -r line 2>/dev/null <"/proc/$c/stat" || continue
		read -r -a f <<<"${line##*) }"
		[ "${f[2]}" = "$g" ] && { up=$c; return 0; }
	done
	return 1
}

# beside_hog FOR ARGS...: a SCHED_FIFO hog (HOG_PRIO) spinning 30 ms of
# every 100 ms on CPU 1, and once it runs, latt beside it with its one
# client on CPU 1, SCHED_FIFO at CLIENT_PRIO (so that nothing but the hog
# can keep it waiting: not the pipe load, not a compiler of this shared
# machine, not an older test's hog), and ARGS.  The hog runs for the whole
# run when FOR is "run", else it stops FOR seconds after latt's client is
# up (the same child on two looks 0.1 s apart: the probe's moment is not
# the client's; the run's clock, at_ns, starts then), so that the time latt takes to start (tracefs, its keeper)
# is not taken from the hog's.  Meanwhile this shell only sleeps: anything
# it ran on CPU 1 would wait beside the client too.  Sets hogpid, lp and
# rc, output in $TMP/out.  False, the reason in $hog_why, when the hog
# cannot start.
beside_hog() {
	local for=$1
	shift
	start_hog 1 30 100 600 "$HOG_PRIO" || return 1
	hogpid=$hog
	"$LATT" -c1 --cpus=1 --prio="$CLIENT_PRIO" -f 3 -t 7 -q "$@" \
	    >"$TMP/out" 2>"$TMP/err" &
	lp=$!
	if [ "$for" != run ]; then
		seen=
		while :; do
			client_up "$lp" && [ "$up" = "$seen" ] && break
			case $(stat_field "$lp" 1) in '' | Z) break ;; esac
			seen=$up
			[ -n "$up" ] && sleep 0.1 || sleep 0.01
		done
		# The hog is ended FOR s from now by a stopper above it: this
		# shell's own sleep overslept by most of a second under load.
		chrt -f "$((HOG_PRIO + 1))" sh -c 'sleep "$1"; kill "$2"' sh \
		    "$for" "$hog" 2>/dev/null || { sleep "$for"; stop_hog; }
	fi
	wait $lp
	rc=$?
	stop_hog
}

ncpu=$(nproc)
before=$(global_state)

# The naming part: the checks that name the task that delayed a client.
if [ "$part" = naming ]; then
# A SCHED_FIFO hog spinning 30 ms of every 100 ms on CPU 1, where the one
# client is pinned: the worst wake-up waited behind the hog, and the
# autopsy names it, for about the runqueue wait.
name="explain: a fifo hog on the client's CPU is named with its pid, for the runqueue wait"
if [ "$ncpu" -lt 2 ]; then
	skip "explain: fifo hog: needs two CPUs"
elif ! beside_hog run --explain=3 -d 1.5 --load=none --split=all \
    --json="$TMP/hog.json"; then
	fail "$name: $hog_why"
else
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	grep -q '^#1 client 0' "$TMP/out" || bad "no autopsy #1 in the text: $(grep -A3 Autopsy "$TMP/out" | tr '\n' '|')"
	# That the worst samples were the hog's, not another real-time
	# task's of this shared machine, is a timing relation: the judge's.
	grep -qF "behind $hog_comm[$hogpid] (SCHED_FIFO $HOG_PRIO)" "$TMP/out" ||
	    tbad "no verdict names $hog_comm[$hogpid] (SCHED_FIFO $HOG_PRIO): $(grep verdict "$TMP/out" | tr '\n' '|')"
	# So is that the hog alone ran during their waits (the hog's time is
	# the runqueue wait within 10% + 200 us, and that wait is most of the
	# latency): another task that ran too, or preempted the hog, takes
	# its share of the wait.
	why2=$(autopsy_check "$TMP/hog.json" "$hogpid" 'len(h) >= 1' \
	    'all(abs(x["ran"][0]["ns"] - x["split_ns"]["runqueue"]) <= 0.1 * x["split_ns"]["runqueue"] + 200000 for x in h)' \
	    'all(x["split_ns"]["runqueue"] >= 0.8 * x["latency_ns"] for x in h)')
	[ -n "$why2" ] && tbad "$why2"
	# The worst samples behind the hog (another test's hog on this shared
	# machine may take one of them): whole, a latency of several
	# milliseconds, the hog named; the client's own schedstat run delay
	# agrees with the trace's wait within 5% + 100 us (where it has one: a
	# client that ran twice between latt's two reads, preempted after its
	# wake-up, has none, and latt leaves it out of the split on purpose).
	why2=$(autopsy_check "$TMP/hog.json" "$hogpid" \
	    'len(s) == 3' 'e["lost_events"] == 0' \
	    'all(x["found"] and x["complete"] for x in h)' \
	    'all(x["latency_ns"] >= 5000000 for x in h)' \
	    'all(x["ran"][0]["comm"] == "'"$hog_comm"'" for x in h)' \
	    'all(sum(v for v in x["split_ns"].values()) == x["latency_ns"] for x in s)' \
	    'any(x["schedstat_runqueue_ns"] is not None for x in h)' \
	    'all(abs(x["schedstat_runqueue_ns"] - x["split_ns"]["runqueue"]) <= 0.05 * x["split_ns"]["runqueue"] + 100000 for x in h if x["schedstat_runqueue_ns"] is not None)')
	[ -n "$why2" ] && bad "$why2"
	after_end "$name" "$lp" "$TMP/hog.json" 0 1
	explain_text "explain: the hog's autopsy within 80 columns, one unit rule, its interrupt said when" \
	    "$TMP/out" "$TMP/hog.json" 1
fi

# A long run whose worst wake-up comes early: the hog holds the client's
# CPU only for the first 1.2 s of a 4 s run, and a pipe load fills the
# ring buffer many times over after it (8 MiB a CPU holds well under a
# second of it here).  latt's keeper drains the buffers as the run goes and
# keeps the pages around the worst sample, so its autopsy is whole and
# names the hog; read only at the end, it would have none of it.  latt
# itself is SCHED_FIFO at CLIENT_PRIO on CPU 0, so that the pipe load
# cannot hold it between a stamp and its write: a sanitized latt, plain
# there, was once held 31 ms by latt-pipe, a worse sample than the hog's.
#
# One rerun, said in the verdict, when the first run's worst sample was
# not behind the hog and either longer than twice the hog's 30 ms burst
# or a wait during which the trace saw no task but the idle one on the
# client's CPU (on a fresh clone's quiet run, 29.44 ms "with no other
# task on the CPU": most likely time the hypervisor took from this VM's
# CPU, which no task of the guest shows): neither is the hog's, so something outside took
# the run's worst sample, and the check's premise did not hold.  A worst
# sample behind another task for less than that is never rerun.
long_run() {
	beside_hog 1.2 --explain=1 -d 4 -l pipe:2 --parent-cpu=0 \
	    --parent-prio="$CLIENT_PRIO" --json="$TMP/long.json" || return 1
	[ -z "$(autopsy_check "$TMP/long.json" "$hogpid" \
	    'len(s) != 1 or len(h) == 1 or (s[0]["latency_ns"] <= 60000000 and any(r["pid"] not in (0, -1) for r in s[0]["ran"]))')" ] &&
	    return 0
	name="$name (rerun once: the first run's worst sample, $(grep -m1 verdict "$TMP/out" | cut -c1-60), was beyond the hog)"
	beside_hog 1.2 --explain=1 -d 4 -l pipe:2 --parent-cpu=0 \
	    --parent-prio="$CLIENT_PRIO" --json="$TMP/long.json"
}
name="explain: an early worst sample of a long run keeps a whole autopsy, naming the hog"
if [ "$ncpu" -lt 2 ]; then
	skip "explain: an early worst sample in a long run: needs two CPUs"
elif plain_only "$name (the keeper's paths: the stopped and killed keeper below)"; then
	:
elif ! long_run; then
	fail "$name: $hog_why"
else
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	why2=$(autopsy_check "$TMP/long.json" "$hogpid" \
	    'len(s) == 1' 's[0]["at_ns"] < 2000000000' \
	    's[0]["latency_ns"] >= 5000000' \
	    's[0]["found"] and s[0]["complete"]')
	[ -n "$why2" ] && bad "$why2 (verdict: $(grep verdict "$TMP/out" | head -n 1))"
	# The worst sample behind the hog, not behind another real-time
	# task of this shared machine: a timing relation, the judge's (the
	# hog and the pipe load's two pairs are the test's own).
	why2=$(autopsy_check "$TMP/long.json" "$hogpid" 'len(h) == 1')
	[ -n "$why2" ] && tbad "$why2 (verdict: $(grep verdict "$TMP/out" | head -n 1))"
	after_end "$name" "$lp" "$TMP/long.json" 0 5
fi

# A client stopped with SIGSTOP for 300 ms: not runnable, woken by the
# SIGCONT, and no task is blamed for the wait.  The client is SCHED_FIFO
# at CLIENT_PRIO: once continued, no task of this shared machine runs
# before it (a compiler's cc1 did, for tens of ms, beside a plain client).
# The run ends with SIGINT 0.3 s after the SIGCONT, however late a crowded
# machine let the clients be seen (a run of a fixed 2 s once ended first).
"$LATT" --explain=1 -c1 --prio="$CLIENT_PRIO" -f 20 -t 30 -d 30 -q --load=none \
    --json="$TMP/stop.json" >"$TMP/out" 2>"$TMP/err" &
lp=$!
if wait_clients "$lp" 1; then
	sleep 0.5
	kill -STOP $clients
	sleep 0.3
	kill -CONT $clients
	sleep 0.3
else
	bad "no client seen"
fi
kill -INT "$lp"
wait "$lp"
rc=$?
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
# The waker is this shell, by its pid (its name when the trace saw it
# run; a shell that did not run within the trace is a bare [pid]).
grep -Eq "verdict: not runnable for .*: stopped until (bash)?\[$$\] woke it" "$TMP/out" ||
    bad "verdict: $(grep verdict "$TMP/out")"
why2=$(autopsy_check "$TMP/stop.json" - 's[0]["state_at_send"] == "stopped"' \
    's[0]["split_ns"]["not_runnable"] >= 150000000' \
    's[0]["split_ns"]["runqueue"] < 0.1 * s[0]["latency_ns"]' \
    'all(r["ns"] < 0.1 * s[0]["latency_ns"] for r in s[0]["ran"])' \
    's[0]["waker"]["pid"] == '"$$")
[ -n "$why2" ] && bad "$why2"
after_end "explain: a stopped client is not runnable until SIGCONT, nothing else blamed" "$lp"
explain_text "explain: a stopped client's autopsy within 80 columns, one unit rule" \
    "$TMP/out" "$TMP/stop.json" 0

# --breaktrace: the sample that stopped the trace is among the autopsies.
# The clients are SCHED_FIFO, so that only the stop can delay one by
# 100 ms.
save_tracing_on "$tdir"
"$LATT" --explain=1 --breaktrace=100ms -c2 --prio="$CLIENT_PRIO" -f 20 -t 30 \
    -d 5 -q --load=none \
    --json="$TMP/brk.json" >"$TMP/out" 2>"$TMP/err" &
lp=$!
if wait_clients "$lp" 2; then
	sleep 0.3
	c1=$(echo "$clients" | tail -n 1)
	kill -STOP "$c1"
	sleep 0.3
	kill -CONT "$c1"
fi
wait "$lp"
rc=$?
restore_tracing_on
[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
why2=$(autopsy_check "$TMP/brk.json" - 'd["run"]["ended_by"] == "breaktrace"' \
    'any(x["breaktrace"] and x["pid"] == '"${c1:-0}"' and x["found"] for x in s)')
[ -n "$why2" ] && bad "$why2"
grep -q "(the sample that stopped --breaktrace)" "$TMP/out" || bad "no breaktrace autopsy in the text"
after_end "explain: --breaktrace: the sample that stopped the trace is explained" "$lp"
explain_text "explain: a --breaktrace autopsy within 80 columns, one unit rule" \
    "$TMP/out" "$TMP/brk.json" 0

# --breaktrace caught on the timer, with worst client samples already kept:
# latt itself is stopped for 300 ms while it sleeps between rounds (its
# syscall is clock_nanosleep, and rounds are a sliver of each 50-60 ms),
# so that its timer wakes late and no wake-up is in flight.  The timer's
# own autopsy is the one marked, never a kept client sample.  The clients
# are SCHED_FIFO, and so latt is (one below): neither a client nor latt's
# timer waits 150 ms behind a task of this shared machine.  The look at
# latt's syscall polls every 2 ms without a fork until latt is seen asleep
# or is gone, 10 s at most (200 looks of a fork each can outlast the run
# under load).
save_tracing_on "$tdir"
"$LATT" --explain=2 --breaktrace=150ms -c2 --prio="$CLIENT_PRIO" -f 50 -t 60 \
    -d 5 -q --load=none --json="$TMP/tbrk.json" >"$TMP/out" 2>"$TMP/err" &
lp=$!
stopped=
if wait_clients "$lp" 2; then
	sleep 0.5
	t=${EPOCHREALTIME/[.,]/}
	end=$((t + 10000000))	# a zombie's syscall file reads on
	while read -r nr _ <"/proc/$lp/syscall" && [ "$t" -lt "$end" ]; do
		t=${EPOCHREALTIME/[.,]/}
		if [ "$nr" = 230 ]; then	# clock_nanosleep on x86-64
			kill -STOP "$lp"
			stopped=1
			sleep 0.3
			kill -CONT "$lp"
			break
		fi
		nap 0.002
	done 2>/dev/null
fi
wait "$lp"
rc=$?
restore_tracing_on
if [ "$(uname -m)" != x86_64 ]; then
	skip "explain: --breaktrace on the timer: the sleep is found by x86-64's syscall number"
elif [ -z "$stopped" ]; then
	bad "latt was never seen asleep in clock_nanosleep"
	verdict "explain: --breaktrace on the timer marks the timer's autopsy"
elif ! grep -q "breaktrace: the timer woke" "$TMP/err"; then
	# Stopped in the sliver of a round: a client broke first.
	skip "explain: --breaktrace on the timer: a client's wake-up broke first ($(short "$TMP/err"))"
else
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	why2=$(autopsy_check "$TMP/tbrk.json" - \
	    'len([x for x in s if not x["timer"]]) >= 1' \
	    '[x["timer"] for x in s if x["breaktrace"]] == [True]')
	[ -n "$why2" ] && bad "$why2"
	after_end "explain: --breaktrace on the timer marks the timer's autopsy, not a kept client sample" "$lp"
fi

fi

# The other part: every way a run ends.
if [ "$part" = ends ]; then
# Every other way a run ends: the instance goes, the global state stays.
end_by_signal() {	# NAME SIGNAL
	"$LATT" --explain -c2 -f 1 -t 3 -q --load=none sleep 20 \
	    >"$TMP/out" 2>"$TMP/err" &
	lp=$!
	wait_started "$lp" || bad "never started"
	[ -d "$tdir/instances/latt-$lp" ] || bad "no instance latt-$lp during the run"
	kill -"$2" "$lp"
	T0=$(usecs)
	wait_gone "$lp" 15
	after_end "explain: ended by $1: instance removed, global state unchanged" "$lp"
}
end_by_signal SIGINT INT
end_by_signal SIGTERM TERM
end_by_signal SIGKILL KILL

# From latt's first instruction (issue 35): a signal 0, 20, 40 or 60 ms
# after latt holds SIGTERM, while it makes its instance and the keeper,
# ends it as at any time (SIGUSR1 and SIGALRM: 'latt: ended by SIG...',
# 128 + its number), the instance removed.  Before, an early SIGUSR1 or
# SIGALRM ended latt by default, and 2 of 60 tries left the instance.
delay=0
for sig in USR1 ALRM TERM HUP; do
	env --default-signal "$LATT" --explain -c2 -f1 -t3 -q --load=none \
	    sleep 20 >"$TMP/out" 2>"$TMP/err" &
	lp=$!
	T0=$(early_signal "$lp" "$sig" $delay)
	delay=$((delay + 20))
	wait_gone "$lp" 15
	want=0
	case $sig in USR1 | ALRM) want=$((128 + $(kill -l $sig))) ;; esac
	[ "$rc" -eq "$want" ] || bad "exit $rc, want $want: $(short "$TMP/err")"
	[ "$want" -eq 0 ] || grep -qx "latt: ended by SIG$sig" "$TMP/err" ||
	    bad "stderr: $(short "$TMP/err")"
	after_end "explain: SIG$sig 0-60 ms after the start: ended by it, instance removed" "$lp"
done

# The workload fails 0.3 s after the test has seen the client up, not
# 0.3 s after it started: under load latt's start-up took longer than
# that, and a run of no sample has no autopsy to print.
rm -f "$TMP/go"
"$LATT" --explain -c1 -f1 -t3 -q sh -c 'while [ ! -e "$1" ]; do sleep 0.05;
    done; sleep 0.3; exit 3' sh "$TMP/go" >"$TMP/out" 2>"$TMP/err" &
lp=$!
wait_clients "$lp" 1 || bad "no client seen"
: >"$TMP/go"
T0=$(usecs)
wait_gone "$lp" 30
[ "$rc" -eq 4 ] || bad "rc $rc, not 4"
grep -q '^Autopsy of the' "$TMP/out" || bad "no autopsy after a failed workload"
after_end "explain: a failed workload: autopsy printed, instance removed" "$lp"

"$LATT" --explain -c1 -f1 -t3 -q -d 1 --log=/dev/full >"$TMP/out" 2>"$TMP/err" &
lp=$!
T0=$(usecs)
wait_gone "$lp" 30
[ "$rc" -eq 1 ] || bad "rc $rc, not 1"
after_end "explain: an error (log to a full disk): instance removed" "$lp"

"$LATT" --explain -c2 -f 1 -t 3 -q --load=none sleep 20 >"$TMP/out" 2>"$TMP/err" &
lp=$!
if wait_clients "$lp" 2; then
	kill -9 $(echo "$clients" | head -n 1)
fi
T0=$(usecs)
wait_gone "$lp" 15
[ "$rc" -eq 1 ] || bad "rc $rc, not 1"
after_end "explain: a client killed: instance removed" "$lp"

# A run that ends before any event is enabled (a pids cgroup refuses the
# workload's fork: latt, its keeper, its client and its guardian fit):
# the decoder is handed an empty trace (under the sanitizers, the
# sanitized pass of make check, an empty trace once reached qsort with a
# NULL array), and the JSON's explain has no events and no error.
CG=
for base in /sys/fs/cgroup /sys/fs/cgroup/pids; do
	[ -w "$base" ] && [ -e "$base/cgroup.procs" ] || continue
	[ "$base" = /sys/fs/cgroup ] &&
	    ! grep -qw pids "$base/cgroup.subtree_control" 2>/dev/null &&
	    continue
	mkdir "$base/latt-explain-$$" 2>/dev/null &&
	    [ -w "$base/latt-explain-$$/pids.max" ] &&
	    { CG=$base/latt-explain-$$; break; }
	rmdir "$base/latt-explain-$$" 2>/dev/null
done
if [ -z "$CG" ]; then
	skip "explain: a run with no events: no writable pids cgroup"
else
	on_exit 'rmdir "$CG" 2>/dev/null'
	echo 4 >"$CG/pids.max"
	env --default-signal sh -c 'echo $$ >"$1/cgroup.procs" && shift &&
	    exec "$@"' sh "$CG" "$LATT" --explain -c1 -f1 -t3 -q \
	    --json="$TMP/none.json" sleep 5 >"$TMP/out" 2>"$TMP/err" &
	lp=$!
	T0=$(usecs)
	wait_gone "$lp" 30
	[ "$rc" -eq 1 ] || bad "rc $rc, not 1: $(short "$TMP/err")"
	grep -q 'fork of the workload' "$TMP/err" ||
	    bad "not the workload's fork that failed: $(short "$TMP/err")"
	grep -q 'runtime error' "$TMP/err" &&
	    bad "undefined behaviour: $(short "$TMP/err")"
	why2=$(pycheck "$TMP/none.json" 'd["explain"]["events"] == 0' \
	    'd["explain"]["error"] is None' 'd["explain"]["samples"] == []')
	[ -n "$why2" ] && bad "$why2"
	after_end "explain: a run with no events: no undefined behaviour" "$lp"
fi

# Where tracefs is: /sys/kernel/tracing first, even when another mount of
# it (a test's, under /tmp) comes first in the mount table; the same for
# --explain's instance and for --breaktrace's marker.
if ! is_tracefs /sys/kernel/tracing || ! unshare -m true 2>/dev/null; then
	skip "explain: /sys/kernel/tracing first: no tracefs there, or no mount namespace (unshare -m)"
else
	save_tracing_on "$tdir"
	unshare -m bash -c '
		umount /sys/kernel/tracing 2>/dev/null ||
		    umount -l /sys/kernel/tracing || exit 99
		mkdir -p "$1/decoy" && mount -t tracefs nodev "$1/decoy" &&
		    mount -t tracefs nodev /sys/kernel/tracing || exit 99
		timeout -k 5 30 "$2" --explain=1 -c1 -f1 -t3 -d 0.3 -q \
		    --load=none --json="$1/where.json" >"$1/where.out" \
		    2>"$1/where.err"
		echo $? >"$1/where.rc"
		# The marker needs tracing on (restored after); a --breaktrace
		# caught elsewhere turns it off for the whole kernel.
		echo 1 >/sys/kernel/tracing/tracing_on
		timeout -k 5 30 "$2" --breaktrace=1us -c1 -f1 -t3 -d 2 -q \
		    --load=none >"$1/brk.out" 2>"$1/brk.err"
		echo $? >"$1/brk.rc"' where "$TMP" "$LATT"
	[ $? -eq 99 ] && bad "could not mount the decoy and /sys/kernel/tracing"
	restore_tracing_on
	[ "$(cat "$TMP/where.rc" 2>/dev/null)" = 0 ] ||
	    bad "--explain: rc $(cat "$TMP/where.rc" 2>/dev/null): $(short "$TMP/where.err")"
	why2=$(pycheck "$TMP/where.json" \
	    'd["explain"]["instance"].startswith("/sys/kernel/tracing/instances/latt-")')
	[ -n "$why2" ] && bad "$why2"
	[ "$(cat "$TMP/brk.rc" 2>/dev/null)" = 0 ] ||
	    bad "--breaktrace: rc $(cat "$TMP/brk.rc" 2>/dev/null): $(short "$TMP/brk.err")"
	grep -q 'marker in /sys/kernel/tracing/trace$' "$TMP/brk.err" ||
	    bad "--breaktrace: $(short "$TMP/brk.err")"
	verdict "explain: tracefs at /sys/kernel/tracing is used before a mount of it that comes first in the mount table"
fi

# keeper_of PID: latt PID's keeper (latt-tracefs), once it has one.
keeper_of() {
	local i k
	for i in $(seq 200); do
		k=$(kids_of "$1" | awk '$3 == "latt-tracefs" { print $1 }')
		[ -n "$k" ] && { echo "$k"; return 0; }
		[ -n "$(stat_field "$1" 1)" ] || return 1
		sleep 0.05
	done
	return 1
}

# keeper_lost NAME HOW PATTERN: a run whose keeper was stopped or killed
# (HOW) has just ended: exit 0 with its summary, one line on stderr and
# the JSON's explain error matching PATTERN, no autopsy, and nothing left;
# its time limits (tbad) judged with the run's own record.
keeper_lost() {
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	[ -n "$(entries "$TMP/out" 2)" ] || bad "no summary: $(head -n 1 "$TMP/out")"
	grep -Eq "^latt: explain: no autopsy: .*$3" "$TMP/err" ||
	    bad "stderr: $(short "$TMP/err")"
	[ "$(grep -c '^latt' "$TMP/err")" -eq 1 ] ||
	    bad "$(grep -c '^latt' "$TMP/err") lines from latt on stderr"
	why2=$(pycheck --with 'import re' "$TMP/keep.json" \
	    're.search(r"'"$3"'", d["explain"]["error"] or "")' \
	    'd["explain"]["samples"] == []')
	[ -n "$why2" ] && bad "$why2"
	after_end "$1" "$lp" "$TMP/keep.json"
}

# A keeper stopped during the run costs the autopsy, never the run: the
# run still ends by its duration, at once.
"$LATT" --explain=2 -c2 -f1 -t3 -d 2 -q --load=none --json="$TMP/keep.json" \
    >"$TMP/out" 2>"$TMP/err" &
lp=$!
T0=$(usecs)
if k=$(keeper_of "$lp"); then
	sleep 0.5
	kill -STOP "$k"
fi
wait_gone "$lp" 20
[ -n "$k" ] || bad "no keeper seen"
[ "$ms" -le 6000 ] || tbad "took $ms ms for a 2 s run"
kill -CONT "$k" 2>/dev/null
keeper_lost "explain: a stopped keeper: the run ends by its duration (in $ms ms), the autopsy is lost and says why" \
    stopped "keeper .*pid $k.* is stopped"

# The same keeper stopped, and the run ended by SIGINT: within 2 s.
"$LATT" --explain=2 -c2 -f1 -t3 -d 30 -q --load=none --json="$TMP/keep.json" \
    >"$TMP/out" 2>"$TMP/err" &
lp=$!
if k=$(keeper_of "$lp") && wait_clients "$lp" 2; then
	sleep 0.5
	kill -STOP "$k"
	sleep 0.2
fi
T0=$(usecs)
kill -INT "$lp"
wait_gone "$lp" 20
[ -n "$k" ] || bad "no keeper seen"
[ "$ms" -le 2000 ] || tbad "took $ms ms after SIGINT (limit 2000)"
kill -CONT "$k" 2>/dev/null
keeper_lost "explain: a stopped keeper, then SIGINT: ended in $ms ms" stopped \
    "keeper .*pid $k.* is stopped"

# A keeper killed during the run: the autopsy is lost, said on stderr and
# in the JSON (it was "Broken pipe" inside the autopsy, and exit 0 with
# nothing on stderr); latt removes the instance itself.
"$LATT" --explain=2 -c2 -f1 -t3 -d 1.5 -q --load=none --json="$TMP/keep.json" \
    >"$TMP/out" 2>"$TMP/err" &
lp=$!
if k=$(keeper_of "$lp"); then
	sleep 0.5
	kill -KILL "$k"
fi
T0=$(usecs)
wait_gone "$lp" 20
[ -n "$k" ] || bad "no keeper seen"
keeper_lost "explain: a killed keeper: the autopsy is lost and says why" killed \
    "keeper .*pid $k.* died during the run: killed by SIGKILL"

# tracefs unmounted (lazily) in the middle of a run, in a mount namespace
# of the run's own: the trace is still read and the instance removed
# through latt's open handle, and stderr and the JSON say the mount went.
if ! is_tracefs /sys/kernel/tracing || ! unshare -m true 2>/dev/null; then
	skip "explain: tracefs unmounted mid-run: no tracefs at /sys/kernel/tracing, or no mount namespace"
else
	rm -f "$TMP/lost.pid" "$TMP/lost.rc"
	unshare -m bash -c '
		"$2" --explain=1 -c2 -f1 -t3 -d 1.5 -q --load=none \
		    --json="$1/lost.json" >"$1/out" 2>"$1/err" &
		p=$!
		echo $p >"$1/lost.pid"
		for i in $(seq 200); do
			[ -d /sys/kernel/tracing/instances/latt-$p ] && break
			sleep 0.05
		done
		sleep 0.5
		umount -l /sys/kernel/tracing
		wait $p
		echo $? >"$1/lost.rc"' lost "$TMP" "$LATT"
	lp=$(cat "$TMP/lost.pid")
	rc=$(cat "$TMP/lost.rc")
	[ "$rc" = 0 ] || bad "rc $rc: $(short "$TMP/err")"
	grep -q '^latt: explain: tracefs was unmounted from /sys/kernel/tracing during the run' \
	    "$TMP/err" || bad "stderr: $(short "$TMP/err")"
	why2=$(pycheck "$TMP/lost.json" \
	    'd["explain"]["mount_lost"] == "/sys/kernel/tracing"' \
	    'd["explain"]["error"] is None' \
	    'len(d["explain"]["samples"]) == 1')
	[ -n "$why2" ] && bad "$why2"
	after_end "explain: tracefs unmounted mid-run: said so, instance removed" "$lp"
fi

# In a PID namespace.  With a /proc of its own, latt cannot tell its
# pids from the host's that tracefs records: status 2 before the run,
# and why.  With the host's /proc, NSpid translates, and the autopsies
# name the right tasks: latt's clients, woken by latt (as the host numbers
# it, which also names its instance, unique across namespaces).
if ! unshare -fp true 2>/dev/null; then
	skip "explain: PID namespaces: unshare -fp is not allowed here"
else
	unshare -fp --mount-proc timeout -k 5 30 "$LATT" --explain -c1 -d1 \
	    sleep 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$(nlines "$TMP/err")" -eq 1 ] || bad "$(nlines "$TMP/err") lines on stderr"
	refused "explain: in a PID namespace with its own /proc: status 2 and why" \
	    "explain: latt runs in a PID namespace .* whose /proc does not show the host's pids"
	unshare -fp "$LATT" --explain=3 -c2 -f1 -t3 -d 1.5 -q --load=none \
	    --json="$TMP/ns.json" >"$TMP/out" 2>"$TMP/err" &
	up=$!
	lp=
	for i in $(seq 100); do
		lp=$(kids_of "$up" | awk '{ print $1; exit }')
		[ -n "$lp" ] && break
		sleep 0.05
	done
	T0=$(usecs)
	wait_gone "$up" 30
	[ "$rc" -eq 0 ] || bad "rc $rc: $(short "$TMP/err")"
	why2=$(pycheck "$TMP/ns.json" \
	    'd["explain"]["instance"].endswith("/latt-'"$lp"'")' \
	    'len(d["explain"]["samples"]) == 3' \
	    'all(x["found"] for x in d["explain"]["samples"])' \
	    'all(x["waker"]["pid"] == '"$lp"' for x in d["explain"]["samples"] if not x["timer"])' \
	    'all(x["pid"] > 1 for x in d["explain"]["samples"])')
	[ -n "$why2" ] && bad "$why2 (verdict: $(grep -m1 verdict "$TMP/out"); samples: $(python3 -c '
import json, sys
for x in json.load(open(sys.argv[1]))["explain"]["samples"]:
    print(x["pid"], x["found"], x["timer"], (x.get("waker") or {}).get("pid"), x.get("why", ""), end="; ")' "$TMP/ns.json" 2>&1 | head -c 400))"
	after_end "explain: in a PID namespace with the host's /proc: autopsies of latt's clients (host pid $lp)" "$lp"
fi
fi
