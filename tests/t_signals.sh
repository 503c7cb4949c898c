# SPDX-License-Identifier: GPL-2.0-only
# Signals: latt ends cleanly, with its summary, on SIGINT, SIGTERM and
# SIGHUP, at a terminal's Ctrl-C, with workloads that resist or leave
# children behind, and when its stdout goes away.
#
# Usage: LATT=./latt bash tests/t_signals.sh
. tests/lib.sh
export LATT

OUT=$TMP/out
ERR=$TMP/err

# ended_ok LIMIT_MS CLIENTS: the checks after a run that a signal or its
# workload ended: exit 0 within LIMIT ms, the summary with CLIENTS.
ended_ok() {
	[ "$rc" -eq 0 ] || bad "exit $rc, want 0: $(short "$ERR")"
	[ "$ms" -le "$1" ] || bad "took $ms ms (limit $1)"
	[ -n "$(entries "$OUT" "$2")" ] || bad "no summary: $(head -n 1 "$OUT")"
}

# stopped_ok LIMIT_MS: ended_ok with 4 clients, none of which died.
stopped_ok() {
	ended_ok "$1" 4
	grep -q client "$ERR" && bad "stderr: $(short "$ERR")"
}

# ---------------------------------------------------------------------------
# A signal mid-run.  A plain "cmd &" starts latt with SIGINT ignored; latt
# must set its own handlers.  Every other signal whose default ends a
# process ends the run the same way (the summary, everything stopped),
# then latt names it on stderr and exits 128 + its number, as a shell
# expects of a process it ended.
#
# The nine runs go side by side (one run's start and end, not nine): each
# has its own files and its own tag (LATT_TEST_TAG.N), so that its "no
# process left" is its own; cleanup ends what any of them left.  Their
# rounds are 10-20 ms apart (nine runs of 1-5 ms beside a loaded
# machine's work kept the script's looks from seeing them start until
# their 30 s workloads had ended), and their workloads outlast any wait.
mid=("INT plain" "INT default" "TERM plain" "HUP plain" "TERM default"
    "QUIT default" "USR1 default" "ALRM default" "PROF default")
base_tag=$LATT_TEST_TAG
on_exit 'for i in "${!mid[@]}" e; do LATT_TEST_TAG=$base_tag.$i end_leftovers; done'
pids=()
for i in "${!mid[@]}"; do
	if [ "${mid[$i]#* }" = default ]; then
		LATT_TEST_TAG=$base_tag.$i env --default-signal "$LATT" -c4 -f10 \
		    -t20 --details 'sleep 300' >"$OUT.$i" 2>"$ERR.$i" &
	else
		LATT_TEST_TAG=$base_tag.$i "$LATT" -c4 -f10 -t20 --details 'sleep 300' \
		    >"$OUT.$i" 2>"$ERR.$i" &
	fi
	pids[i]=$!
done
started=()
for i in "${!mid[@]}"; do
	wait_started "${pids[i]}" && started[i]=1
done
sleep 0.2
for i in "${!mid[@]}"; do
	how=${mid[$i]}
	sig=${how% *}
	[ -n "${started[i]:-}" ] || bad "the run did not start"
	T0=$(usecs)
	kill -"$sig" "${pids[i]}"
	wait_gone "${pids[i]}" 15
	OUT=$TMP/out.$i ERR=$TMP/err.$i
	case $sig in
	INT|TERM|HUP)
		stopped_ok 5000
		n=$(entries "$OUT" 4)
		[ -n "$n" ] && [ "$n" -gt 0 ] || bad "no entries in 0.2 s"
		grep -q $'^\tstatus\t *stopped by latt' "$OUT" ||
		    bad "workload status: $(grep status "$OUT")"
		verdict "SIG$sig mid-run (${how#* } dispositions): exit 0 in $ms ms with the summary"
		LATT_TEST_TAG=$base_tag.$i no_leftovers "SIG$sig mid-run (${how#* })"
		;;
	*)
		want=$((128 + $(kill -l "$sig")))
		[ "$rc" -eq "$want" ] || bad "exit $rc, want $want"
		[ "$ms" -le 5000 ] || bad "took $ms ms (limit 5000)"
		[ -n "$(entries "$OUT" 4)" ] || bad "no summary: $(head -n 1 "$OUT")"
		[ "$(cat "$ERR")" = "latt: ended by SIG$sig" ] ||
		    bad "stderr: $(short "$ERR")"
		grep -q $'^\tstatus\t *stopped by latt' "$OUT" ||
		    bad "workload status: $(grep status "$OUT")"
		verdict "SIG$sig mid-run: the summary, 'latt: ended by SIG$sig', exit $rc in $ms ms"
		LATT_TEST_TAG=$base_tag.$i no_leftovers "SIG$sig mid-run"
		;;
	esac
done
OUT=$TMP/out
ERR=$TMP/err

# A real SIGXCPU: a CPU time limit (ulimit -St 1) that a run without
# sleeps (-f0 -t0) reaches in a second or two of latt's own CPU time.
T0=$(usecs)
env --default-signal bash -c 'ulimit -St 1 && exec "$0" "$@"' "$LATT" \
    -c2 -f0 -t0 --load=none -d 30 >"$OUT" 2>"$ERR" &
pid=$!
wait_gone $pid 40
[ "$rc" -eq 152 ] || bad "exit $rc, want 152 (128 + SIGXCPU)"
[ "$ms" -le 20000 ] || bad "took $ms ms"
[ -n "$(entries "$OUT" 2)" ] || bad "no summary: $(head -n 1 "$OUT")"
[ "$(cat "$ERR")" = "latt: ended by SIGXCPU" ] || bad "stderr: $(short "$ERR")"
verdict "ulimit -St 1: SIGXCPU ends the run with the summary, 'latt: ended by SIGXCPU', exit $rc in $ms ms"
no_leftovers "SIGXCPU from ulimit -t"

# From latt's first instruction (issue 35): a signal that ends a process
# by default, sent 0 to 60 ms after latt holds SIGTERM (blocks or catches
# it: its /proc status, so never before its main), while it saves and
# guards its knob and starts, ends it as at any other time: SIGUSR1 and
# SIGALRM with 'latt: ended by SIG...' last on stderr and 128 + its
# number, SIGTERM and SIGHUP with status 0; the run's JSON says a signal
# ended it, the knob (a test-made file) holds its content again, nothing
# is left.  Before, SIGUSR1 and SIGALRM ended latt by default until its
# handlers were set, a few milliseconds after SIGTERM was held: try k of
# 20 is sent k * k * 60 / 361 ms after, densest there.  Four tries a
# round, five rounds.
early=(USR1 ALRM TERM HUP)
nap 0	# its FIFO made before the senders share it
for round in 1 2 3 4 5; do
	pids=() sender=()
	for i in "${!early[@]}"; do
		printf '7\n' >"$TMP/knob.$i"
		rm -f "$TMP/e.$i.json"
		LATT_TEST_TAG=$base_tag.e env --default-signal "$LATT" -q -c2 \
		    -f1 -t5 -d5 --sweep="$TMP/knob.$i=1,2" \
		    --json="$TMP/e.$i.json" 'sleep 30' >"$OUT.e$i" 2>"$ERR.e$i" &
		pids[i]=$!
		k=$(((round - 1) * 4 + i))
		early_signal "${pids[i]}" "${early[i]}" $((k * k * 60 / 361)) \
		    >"$TMP/t0.$i" &
		sender[i]=$!
	done
	# Each ends by itself after -d at worst: waited for without a look.
	for i in "${!early[@]}"; do
		sig=${early[i]}
		wait "${sender[i]}"
		wait "${pids[i]}"
		rc=$?
		# Builtins only: a fork a check cost seconds on a busy machine.
		t=${EPOCHREALTIME/[.,]/} t0= last= knob=
		read -r t0 <"$TMP/t0.$i"
		ms=$(((t - t0) / 1000))
		while IFS= read -r line; do last=$line; done <"$ERR.e$i"
		read -r knob <"$TMP/knob.$i"
		case $sig in
		USR1) want=138 ;;
		ALRM) want=142 ;;
		*) want=0 ;;
		esac
		[ "$rc" -eq $want ] || bad "exit $rc, want $want: $(short "$ERR.e$i")"
		[ $want -eq 0 ] || [ "$last" = "latt: ended by SIG$sig" ] ||
		    bad "stderr: $(short "$ERR.e$i")"
		grep -q '"ended_by": "signal"' "$TMP/e.$i.json" 2>/dev/null ||
		    bad "the JSON does not say a signal ended the run"
		[ "$knob" = 7 ] || bad "the knob holds '$knob', not 7"
		verdict "SIG$sig early (round $round): exit $rc $ms ms after it, the knob restored"
	done
	LATT_TEST_TAG=$base_tag.e no_leftovers "four signals early (round $round)"
done

# The same signal while the clients are still starting: sent once 100 of
# the 200 exist (latt's handlers are set by then).
for sig in INT TERM; do
	[ $sig = TERM ] &&
	    plain_only "SIGTERM during start-up of 200 clients (SIGINT's path)" &&
	    continue
	"$LATT" -c200 -f1 -t5 'sleep 30' >"$OUT" 2>"$ERR" &
	pid=$!
	wait_nclients $pid 100 || bad "no 100 clients started"
	T0=$(usecs)
	kill -$sig $pid
	wait_gone $pid 20
	ended_ok 8000 200
	verdict "SIG$sig during start-up of 200 clients: exit 0 in $ms ms with the summary"
	no_leftovers "SIG$sig during start-up"
done

# ---------------------------------------------------------------------------
# Ctrl-C at a terminal: SIGINT to the whole foreground group, latt and its
# clients (the workload has its own group).  The group's shell ignores it.
T0=$(usecs)
# The group's shell sends it once the workload runs (it touched a file:
# every client is ready by then), or after 20 s.
timeout -k 5 40 setsid -w bash -c '
	trap "" INT
	env --default-signal "$LATT" -c4 -f1 -t5 ": >\"$4\"; sleep 30" \
	    >"$1" 2>"$2" &
	p=$!
	for i in $(seq 400); do
		[ -e "$4" ] && break
		sleep 0.05
	done
	sleep 0.1
	kill -INT -- -$$
	wait $p
	echo $? >"$3"' ctrl-c "$OUT" "$ERR" "$TMP/rc" "$TMP/ctrl-c.started"
t=$(usecs)
ms=$(((t - T0) / 1000))
rc=$(cat "$TMP/rc" 2>/dev/null || echo none)
[ "$rc" = 0 ] || bad "exit $rc, want 0: $(short "$ERR")"
[ "$ms" -le 8000 ] || bad "took $ms ms in all"
[ -n "$(entries "$OUT" 4)" ] || bad "no summary: $(head -n 1 "$OUT")"
grep -qi 'client' "$ERR" && bad "a client died: $(short "$ERR")"
[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
verdict "Ctrl-C to the process group: exit 0, summary, no client died"
no_leftovers "Ctrl-C to the process group"

# What a terminal sends the group, sent to the clients alone: they ignore
# it (were they to die, the Ctrl-C above would not show it, since latt
# ends on its own SIGINT first), and the run goes on to a normal end.  The
# workload ends when this script says (it opens a FIFO to read, and a
# writer waits for it), after the signals: never before them on a loaded
# machine, never seconds after them on a quiet one.
mkfifo "$TMP/go"
# shellcheck disable=SC2016 # the workload's own words
"$LATT" -c4 -f1 -t5 --details sh -c 'read -r _ <"$0" || :' "$TMP/go" \
    >"$OUT" 2>"$ERR" &
pid=$!
wait_started $pid || bad "the run did not start"
clients=$(clients_of $pid)
sleep 0.1
for sig in INT QUIT HUP TSTP; do
	kill -$sig $clients 2>/dev/null || bad "no client to send SIG$sig to"
	sleep 0.1
done
timeout 20 sh -c 'echo >"$1"' sh "$TMP/go" || bad "the workload did not read its FIFO"
T0=$(usecs)
wait_gone $pid 20
[ "$rc" -eq 0 ] || bad "exit $rc, want 0: $(short "$ERR")"
[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
grep -q $'^\tstatus\t *exited 0' "$OUT" || bad "the run did not end with the workload: $(grep -E 'ended|status' "$OUT" | tr '\n' ' ')"
verdict "terminal signals (INT QUIT HUP TSTP) to the clients alone are ignored"
no_leftovers "terminal signals to the clients"

# ---------------------------------------------------------------------------
# Workloads that resist: latt still ends them, and itself, in bounded time.
resist_sh='trap "" TERM INT HUP; sleep 30'
resist_child='sh -c "trap \"\" TERM INT HUP; sleep 30" & wait'
for w in "$resist_sh" "$resist_child"; do
	"$LATT" -c4 -f1 -t5 "$w" >"$OUT" 2>"$ERR" &
	signal_run $! INT 20 0.5
	stopped_ok 10000
	verdict "SIGINT with a workload that ignores signals ($w): ended in $ms ms"
	no_leftovers "resisting workload ($w)"
done

# A workload that leaves a grandchild behind in the background (one that
# dies on SIGTERM, and one that ignores it).
for w in 'sleep 60 & exit 0' '(trap "" TERM INT HUP; sleep 60) & exit 0'; do
	T0=$(usecs)
	"$LATT" -c4 -f1 -t5 "$w" >"$OUT" 2>"$ERR" &
	wait_gone $! 20
	ended_ok 6000 4
	verdict "a workload leaving a background grandchild ($w): exit 0 in $ms ms"
	no_leftovers "background grandchild ($w)"
done

# ---------------------------------------------------------------------------
# Where stdout goes away.
T0=$(usecs)
timeout -k 5 30 "$LATT" -c4 -f1 -t5 'sleep 0.2' 2>"$ERR" | head -n 1 >"$OUT"
st=("${PIPESTATUS[@]}")
t=$(usecs)
ms=$(((t - T0) / 1000))
[ "${st[0]}" -le 1 ] || bad "latt exited ${st[0]}: $(short "$ERR")"
[ "$ms" -le 8000 ] || bad "took $ms ms"
[ -n "$(entries "$OUT" 4)" ] || bad "head got: $(short "$OUT")"
verdict "latt | head -1: the Entries line, exit ${st[0]} in $ms ms"
no_leftovers "latt | head -1"

# A reader that is gone before latt writes: EPIPE, not a death by SIGPIPE.
T0=$(usecs)
timeout -k 5 30 "$LATT" -c4 -f1 -t5 'sleep 0.2' 2>"$ERR" | true
st=("${PIPESTATUS[@]}")
t=$(usecs)
ms=$(((t - T0) / 1000))
[ "${st[0]}" -le 1 ] || bad "latt exited ${st[0]}: $(short "$ERR")"
[ "$ms" -le 8000 ] || bad "took $ms ms"
verdict "latt | true: no SIGPIPE death, exit ${st[0]} in $ms ms"
no_leftovers "latt | true"

for closed in ">&-" "<&- >&- 2>&-"; do
	T0=$(usecs)
	case $closed in
	">&-") "$LATT" -c4 -f1 -t5 'sleep 0.2' >&- 2>"$ERR" & ;;
	*) "$LATT" -c4 -f1 -t5 'sleep 0.2' <&- >&- 2>&- & ;;
	esac
	wait_gone $! 20
	[ "$rc" -le 1 ] || bad "exit $rc (crash?)"
	[ "$ms" -le 8000 ] || bad "took $ms ms"
	verdict "latt $closed: exit $rc in $ms ms"
	no_leftovers "latt $closed"
done
