#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# latt as a shell job (issue 12).  Under a pseudo-terminal, with a small
# job-control shell (tests/jobshell.py): the workload reads the terminal;
# Ctrl-Z stops every process of the run and fg resumes them, the time
# suspended neither measured nor counted towards -d; Ctrl-C ends the run
# normally; a workload reading the terminal from the background stops the
# job (SIGTTIN) until fg; the progress line fits a narrow terminal, and is
# not drawn beside a command (its lines reach the terminal intact).
# Without a terminal:
# SIGTSTP and SIGCONT suspend and resume the whole run, and a workload
# stopped from elsewhere ends the run with a message.
. "$(dirname "$0")/lib.sh"

abs=$(cd "$(dirname "$LATT")" && pwd)/$(basename "$LATT")
if ! command -v python3 >/dev/null 2>&1; then
	skip "job: python3 is not installed"
	exit 0
fi
if ! python3 -c 'import os; os.openpty()' 2>/dev/null; then
	skip "job: no pseudo-terminal can be opened here"
	exit 0
fi

pty() {	# scenario
	timeout -k 5 60 python3 "$(dirname "$0")/jobshell.py" "$abs" "$TMP" "$1" ||
	    fail "job: $1: the job-control shell failed (status $?)"
	no_leftovers "job: $1"
}
pty read
pty int
pty chatty
if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "job: Ctrl-Z and fg: timing relations, not run under the sanitizers"
else
	pty tstp
	pty ttin
	pty progress
fi

# --- Without a terminal -----------------------------------------------------
# SIGTSTP to latt suspends the clients, the load and the workload, then
# latt; SIGCONT resumes them all, and the time between is not measured.
state_of() { stat_field "$1" 1; }
# states_of PID: "comm:state" of each child of latt PID into $states, with
# builtins only: a look that forks took a second on a loaded machine, and
# the run ended before a second look.  (latt's guardian aside: it runs on
# while the job is stopped, to end it if latt is killed meanwhile.)
states_of() {
	local c line comm
	local -a f
	states=()
	children_of "$1" || return 1
	for c in "${kids[@]}"; do
		{ read -r line <"/proc/$c/stat"; } 2>/dev/null || continue
		comm=${line#*\(}
		comm=${comm%\)*}
		[ "$comm" = latt-guard ] && continue
		read -r -a f <<<"${line##*) }"
		states+=("$comm:${f[0]}")
	done
}
all_in_state() {	# latt-pid STATE...: latt has children, all in one of STATES
	local cs
	states_of "$1" || return 1
	[ ${#states[@]} -gt 0 ] || return 1
	for cs in "${states[@]}"; do
		[[ " ${*:2} " == *" ${cs##*:} "* ]] || return 1
	done
}
T0=$(usecs)
"$LATT" -q -c2 -f1 -t3 -l cpu:1 -d 2 --details 'sleep 30' >"$TMP/bg.out" 2>"$TMP/bg.err" </dev/null &
lp=$!
if ! wait_started "$lp"; then
	bad "latt did not start its workload"
else
	sleep 0.2
	kill -TSTP "$lp"
	for i in $(seq 50); do
		[ "$(state_of "$lp")" = T ] && all_in_state "$lp" T && break
		sleep 0.1
	done
	[ "$(state_of "$lp")" = T ] || bad "latt is not stopped after SIGTSTP ($(state_of "$lp"))"
	all_in_state "$lp" T || bad "not every process of the run is stopped: ${states[*]}"
	sleep 1
	kill -CONT "$lp"
	# (latt resumes its children after itself: a look may see them still
	# stopped; the run has 1.8 s of -d to go, several looks even on a
	# loaded machine.)
	running=
	for i in $(seq 200); do
		all_in_state "$lp" R S D && { running=1; break; }
		nap 0.01
	done
	[ -n "$running" ] || bad "not every process runs again after SIGCONT: ${states[*]:-none}"
fi
wait_gone "$lp" 20
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$TMP/bg.err")"
susp=$(field "$TMP/bg.out" suspended | awk '{ print $1 }')
ran=$(field "$TMP/bg.out" ran | awk '{ print $1 }')
# The suspension lasts at least the 1 s slept after every process was
# seen stopped, and does not count in -d 2 (the upper bounds are those of
# a loaded machine).
awk -v s="${susp:-0}" -v r="${ran:-0}" -v ms="$ms" \
    'BEGIN { exit !(s >= 0.9 && r >= 1.8 && r <= 4 && ms >= 2900) }' ||
    bad "suspended '$susp' s, ran '$ran' s, wall $ms ms (want >= 1, about 2, >= 2.9 s)"
verdict "no terminal: SIGTSTP suspends the whole run, SIGCONT resumes it (suspended $susp s, ran $ran s of -d 2)"
no_leftovers "no terminal: SIGTSTP"

# A workload stopped from elsewhere is noticed and reported: the run ends.
T0=$(usecs)
"$LATT" -q -c2 -f1 -t3 'sleep 30' >"$TMP/st.out" 2>"$TMP/st.err" </dev/null &
lp=$!
if wait_started "$lp"; then
	sleep 0.1
	kill -STOP "$(workload_of "$lp")"
else
	bad "latt did not start its workload"
fi
wait_gone "$lp" 15
[ "$rc" -eq 4 ] || bad "exit $rc, want 4"
[ "$ms" -lt 8000 ] || bad "took $ms ms to notice"
grep -q 'stopped by SIGSTOP from outside latt' "$TMP/st.err" ||
    bad "stderr: $(short "$TMP/st.err")"
field "$TMP/st.out" status | grep -q 'stopped by SIGSTOP from elsewhere' ||
    bad "status: $(field "$TMP/st.out" status)"
verdict "a workload stopped by SIGSTOP ends the run, reported (exit $rc, $ms ms)"
no_leftovers "a workload stopped from elsewhere"
