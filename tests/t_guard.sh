# SPDX-License-Identifier: GPL-2.0-only
# Nothing latt started outlives it, however it ends: processes that left
# the workload's process group (setsid, setpgid) are ended with the run;
# when latt itself is killed with SIGKILL, its guardian ends the
# workload, its escapees, the loads and all they started within 2 s.
#
# Usage: LATT=./latt bash tests/t_guard.sh
. "$(dirname "$0")/lib.sh"

OUT=$TMP/out
ERR=$TMP/err

# gone_within NAME MS: every process of the script's runs is gone within
# MS milliseconds of $T0 (SIGKILL to what is left, after the verdict).
gone_within() {
	local left
	while :; do
		left=$(leftovers)
		[ -z "$left" ] && break
		[ $(($(usecs) - T0)) -gt $(($2 * 1000)) ] && break
		sleep 0.05
	done
	ms=$((($(usecs) - T0) / 1000))
	if [ -n "$left" ]; then
		bad "left after $2 ms: $(for p in $left; do printf '%s(%s %s, ppid %s, pgid %s) ' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)" "$(stat_field "$p" 1)" "$(stat_field "$p" 2)" "$(stat_field "$p" 3)"; done)"
		kill -9 $left 2>/dev/null
	fi
	verdict "$1: nothing left ($ms ms)"
}

# wait_escapee: waits (10 s at most) until a sleep of the script's runs
# leads a session of its own (a setsid escapee), then 1 s more: the
# guardian looks at latt's descendants every 100 ms, later when it is
# itself kept from a CPU (at load 47 it once missed an escapee 0.3 s
# old); an escapee younger than its last look is its documented limit.
wait_escapee() {
	local i p c
	for i in $(seq 200); do
		for p in $(leftovers); do
			c=
			read -r c 2>/dev/null <"/proc/$p/comm"
			[ "$c" = sleep ] && [ "$(stat_field "$p" 4)" = "$p" ] &&
			    { sleep 1; return 0; }
		done
		sleep 0.05
	done
	return 1
}

# The guardian ends all within 2 s; the sanitizers slow it.
LIMIT=2000
[ -n "${LATT_SANITIZED:-}" ] && LIMIT=4000

# ---------------------------------------------------------------------------
# A normal end leaves no escapee: the workload ends, or the duration.
T0=$(usecs)
env --default-signal "$LATT" -c2 -f1 -t3 \
    'setsid sh -c "sleep 300; :" & sleep 0.5' >"$OUT" 2>"$ERR" &
wait_gone $! 20
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$ms" -le 20000 ] || bad "took $ms ms"  # the escapee: 300 s
[ -n "$(entries "$OUT" 2)" ] || bad "no summary: $(head -n 1 "$OUT")"
verdict "a setsid escapee of a workload that ends: exit 0 in $ms ms"
no_leftovers "a setsid escapee of a workload that ends"

# (bash with job control puts a background job in a group of its own).
T0=$(usecs)
env --default-signal "$LATT" -d1 -c2 -f1 -t3 -- \
    bash -c 'set -m; sleep 300 & sleep 300' >"$OUT" 2>"$ERR" &
wait_gone $! 20
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$ms" -le 20000 ] || bad "took $ms ms"  # the escapee: 300 s
verdict "a setpgid escapee at the end of -d1: exit 0 in $ms ms"
no_leftovers "a setpgid escapee at the end of -d1"

# An escapee holding latt's stdout: the reader sees its end with latt's
# (and not the escapee's, 300 s later: 20 s is the margin of a loaded
# machine).
T0=$(usecs)
n=$(timeout -k 5 60 env --default-signal "$LATT" -d1 -c2 -f1 -t3 \
    'setsid sleep 300 & sleep 300' 2>"$ERR" | wc -l)
ms=$((($(usecs) - T0) / 1000))
[ "$n" -gt 5 ] || bad "wc -l read $n lines"
[ "$ms" -le 20000 ] || bad "the pipe's reader waited $ms ms"
verdict "latt -d1 'setsid sleep 300 & sleep 300' | wc -l: done in $ms ms"
no_leftovers "an escapee holding stdout"

# An escapee that ignores SIGTERM gets SIGKILL, and a signal that ends the
# run ends it too.
env --default-signal "$LATT" -c2 -f1 -t3 \
    'setsid sh -c "trap \"\" TERM; exec sleep 300" & sleep 300' \
    >"$OUT" 2>"$ERR" &
signal_run $! QUIT 20 0.5
[ "$rc" -eq 131 ] || bad "exit $rc, want 131: $(short "$ERR")"
[ "$ms" -le 20000 ] || bad "took $ms ms"  # the escapee: 300 s
verdict "SIGQUIT with a setsid escapee that ignores SIGTERM: exit $rc in $ms ms"
no_leftovers "SIGQUIT with an escapee that ignores SIGTERM"

# ---------------------------------------------------------------------------
# kill -9 of latt: a forking workload, a background child, a setsid
# escapee that ignores SIGTERM, and two loads.  Nothing is left 2 s later.
env --default-signal "$LATT" -c4 -f1 -t3 -l cpu:1 -l pipe:1 \
    'sleep 300 & setsid sh -c "trap \"\" TERM; exec sleep 300" &
     while :; do sleep 0.05; done' >"$OUT" 2>"$ERR" &
pid=$!
wait_started $pid || bad "the run did not start"
wait_escapee || bad "no setsid escapee seen"
T0=$(usecs)
kill -9 $pid
wait $pid 2>/dev/null
gone_within "kill -9 of latt with a forking workload, a setsid escapee and loads" $LIMIT

# The same while latt is stopped: its guardian still acts on its death.
env --default-signal "$LATT" -c2 -f1 -t3 'setsid sleep 300 & sleep 300' \
    >"$OUT" 2>"$ERR" &
pid=$!
wait_started $pid || bad "the run did not start"
wait_escapee || bad "no setsid escapee seen"
kill -STOP $pid
T0=$(usecs)
kill -9 $pid
wait $pid 2>/dev/null
gone_within "kill -9 of a stopped latt with a setsid escapee" $LIMIT
