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
# (latt's guardian aside: it runs on while the job is stopped, to end it
# if latt is killed meanwhile)
all_in_state() {	# latt-pid STATE...: latt has children, all in one of STATES
	local p st n=0
	for p in $(kids_of "$1" | awk '$3 != "latt-guard" { print $1 }'); do
		st=$(state_of "$p")
		[[ " ${*:2} " == *" $st "* ]] || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}
T0=$(usecs)
"$LATT" -q -c2 -f1 -t3 -l cpu:1 -d 2 'sleep 30' >"$TMP/bg.out" 2>"$TMP/bg.err" </dev/null &
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
	all_in_state "$lp" T || bad "not every process of the run is stopped: $(kids_of "$lp" | while read -r p g c; do printf '%s:%s ' "$c" "$(state_of "$p")"; done)"
	sleep 1
	kill -CONT "$lp"
	# (latt resumes its children after itself: a look may see them still
	# stopped; the run has 1.8 s of -d to go, several looks even on a
	# loaded machine.)
	for i in $(seq 50); do
		all_in_state "$lp" R S D && break
		sleep 0.05
	done
	all_in_state "$lp" R S D || bad "not every process runs again after SIGCONT"
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
