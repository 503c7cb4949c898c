# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the command-line tests; sourced by tests/t_*.sh.
#
# Every latt run by a test carries LATT_TEST_TAG in its environment, which
# its clients, workload and the workload's children inherit; leftovers()
# finds any process of the run still alive by that tag.
set -u
LATT=${LATT:-./latt}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# LATT_TEST_TMPDIR: where $TMP is made (t_killed.sh looks into it).
TMP=$(mktemp -d "${LATT_TEST_TMPDIR:-/tmp}/latt-test.XXXXXX")
export LATT_TEST_TAG="latt-test-$$-$RANDOM"

# ---------------------------------------------------------------------------
# Clean-up.  However the script ends (its end, exit, SIGINT, SIGTERM or
# SIGHUP), cleanup ends the hog and every process of its runs, runs what
# the script registered with on_exit (a cgroup to remove, a setting to
# restore), puts back a tracing_on saved and not yet restored, unmounts
# what is mounted below $TMP, and removes $TMP.  A signal that arrives
# while a foreground command runs takes effect once that command is over
# (bash waits for it first).
exit_hooks=()

# on_exit COMMAND: COMMAND is eval'd by cleanup, after the processes and
# before the mounts and $TMP go; the last registered runs first.
on_exit() { exit_hooks=("$1" "${exit_hooks[@]}"); }

cleanup() {
	local h m
	trap - EXIT INT TERM HUP
	stop_hog
	end_leftovers
	for h in "${exit_hooks[@]}"; do
		eval "$h"
	done
	restore_tracing_on 2>/dev/null
	# Innermost mount first, and never a file removed inside a mount.
	for m in $(awk -v t="$TMP/" 'index($2, t) == 1 { print $2 }' \
	    /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# save_tracing_on TDIR: remembers TDIR/tracing_on (in $tracing_was) before
# a test changes it, or lets a run of latt change it; restore_tracing_on
# puts it back, and cleanup does if the script ends before that.  Only
# what this script changed is put back: other tests on this machine may
# change tracing_on too.
tracing_was=
save_tracing_on() {
	tracing_dir=$1
	tracing_was=$(cat "$1/tracing_on")
}
restore_tracing_on() {
	[ -n "$tracing_was" ] || return 0
	echo "$tracing_was" >"$tracing_dir/tracing_on"
	tracing_was=
}

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }

# plain_only NAME: true, and NAME reported as skipped, in the sanitized
# pass (LATT_SANITIZED) for a check whose subject is a timing relation or
# a long run of paths that shorter checks of the same script reach: the
# plain pass judges it, and the sanitizers look for memory errors, not
# for time.  Usage: plain_only "name" && return (or && skip the block).
plain_only() {
	[ -n "${LATT_SANITIZED:-}" ] || return 1
	skip "$1: judged in the plain pass (a timing relation, or paths the sanitized checks reach)"
}

# rt_room H_MS P_MS: whether a SCHED_FIFO hog (tests/hog.py) may spin H ms
# of every P ms.  RT throttling caps it at runtime/period of a CPU (95% by
# default); H/P must be well inside that (half of it at most).  When not,
# $rt_why says why.
rt_room() {
	local rt period
	rt=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo -1)
	period=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null || echo 1000000)
	rt_why="RT throttling allows ${rt}/${period} us, too little for $1 ms of every $2 ms"
	[ "$rt" = -1 ] || [ $((rt * 100 / period)) -ge $(($1 * 200 / $2)) ]
}

# The real-time levels of the timing checks.  A hog (tests/hog.py) runs at
# HOG_PRIO, above every other real-time task of this machine but the
# kernel's own (migration, at 99) and above the hogs of older tests (50,
# 60); the clients measured beside it run SCHED_FIFO at CLIENT_PRIO, below
# the hog and above everything else (compilers, loads, other tests): the
# only delay such a client can meet is the hog's.
HOG_PRIO=90
CLIENT_PRIO=80

# nap SECS: sleeps without a fork (read's timeout on a FIFO that no one
# writes): a loop that polls /proc every few ms cannot afford a fork a
# look on a loaded machine.
# The FIFO is opened for the read alone: no process started later holds
# it.
nap() {
	[ -p "$TMP/nap" ] || mkfifo "$TMP/nap" || { sleep "$1"; return 0; }
	read -r -t "$1" _ <>"$TMP/nap"
	return 0
}

# two_cpus: the lowest and the highest of the CPUs this script may use
# (all of them in $cpus) into $c0 and $c1; false when it has only one.
two_cpus() {
	local k v l= a b r
	while read -r k v; do
		[ "$k" != Cpus_allowed_list: ] || l=$v
	done </proc/self/status
	cpus=
	IFS=, read -ra r <<<"$l"
	for a in "${r[@]}"; do
		b=${a#*-} a=${a%-*}
		while [ "$a" -le "$b" ]; do
			cpus="${cpus:+$cpus }$a" a=$((a + 1))
		done
	done
	set -- $cpus
	[ $# -ge 2 ] || return 1
	c0=$1
	c1=${!#}
}

# start_hog CPU H_MS P_MS SECS [PRIO]: tests/hog.py in the background,
# pinned to CPU at SCHED_FIFO PRIO (50 by default), spinning H ms of every
# P ms for SECS s.  Returns once the hog holds its CPU and its policy (it
# said "ready"), its pid in $hog and its name in $hog_comm; else returns 1,
# the hog gone and why in $hog_why.  One hog at a time: stop_hog ends it,
# and cleanup does, however the script ends.
HOG_PY=$(dirname "${BASH_SOURCE[0]}")/hog.py
hog=
start_hog() {
	local i
	stop_hog
	python3 "$HOG_PY" "$@" >"$TMP/hog.out" 2>"$TMP/hog.err" &
	hog=$!
	# Up to 10 s: python starts slowly on a loaded machine.
	for i in $(seq 200); do
		grep -qx ready "$TMP/hog.out" && break
		case $(stat_field "$hog" 1) in '' | Z) break ;; esac
		sleep 0.05
	done
	if grep -qx ready "$TMP/hog.out"; then
		hog_comm=$(cat "/proc/$hog/comm")
		return 0
	fi
	if [ -s "$TMP/hog.err" ]; then
		hog_why="the SCHED_FIFO hog did not start: $(short "$TMP/hog.err")"
	else
		hog_why="the SCHED_FIFO hog was not ready within 10 s"
	fi
	stop_hog
	return 1
}
stop_hog() {
	[ -n "$hog" ] || return 0
	kill "$hog" 2>/dev/null
	wait "$hog" 2>/dev/null
	hog=
}

# pycheck [--with PYTHON] FILE EXPR...: python3 expressions over the JSON
# in FILE, named d (PYTHON, statements run first, may name more).  Prints
# on one line each expression that does not hold or raises, and nothing
# when all of them hold.
pycheck() {
	local with=
	if [ "$1" = --with ]; then
		with=$2
		shift 2
	fi
	python3 - "$with" "$@" 2>"$TMP/pycheck.err" <<'EOF' ||
import json, sys
with_, path, exprs = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    names = {"d": json.load(open(path))}
    exec(with_, names)
except Exception as x:
    print("%s: %s" % (path, x))
    sys.exit(0)
bad = []
for expr in exprs:
    try:
        ok = eval(expr, names)
    except Exception as x:
        ok, expr = False, "%s (%s)" % (expr, x)
    if not ok:
        bad.append("not: " + expr)
print("; ".join(bad))
EOF
	    echo "pycheck: python3 exited $?: $(short "$TMP/pycheck.err")"
}

# expect_json FILE EXPR...: bad (see verdict) unless every expression holds
# (see pycheck).
expect_json() {
	local w
	w=$(pycheck "$@")
	[ -z "$w" ] || bad "$w"
}

# expect_json_timed [--with PYTHON] FILE EXPR... -- TEXPR...: one python3
# for both kinds: bad for each EXPR that does not hold, tbad (a timing
# relation: see verdict_timed) for each TEXPR.
expect_json_timed() {
	local a x w t=0 IFS
	local -a args=()
	for a in "$@"; do
		if [ "$a" = -- ]; then t=1; continue; fi
		[ $t = 0 ] || a="$a  #timed"
		args+=("$a")
	done
	w=$(pycheck "${args[@]}")
	IFS=$'\001'
	for x in ${w//; not: /$'\001'not: }; do
		case $x in
		*'  #timed'*) tbad "${x/  #timed/}" ;;
		*) bad "$x" ;;
		esac
	done
}

# check NAME COMMAND...: PASS when the command succeeds, else FAIL.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# Pids of processes (other than this shell and its ancestors' tools) that
# carry this script's tag; empty when the run left nothing behind.
leftovers() {
	local f p c
	# One grep over every environment (a fork per process is far too
	# slow on a loaded machine); -z reads the NUL-separated entries.
	for f in $(grep -lxzF "LATT_TEST_TAG=$LATT_TEST_TAG" \
	    /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] && continue
		[ "$p" = "$BASHPID" ] && continue
		# Only processes started by latt: our own subshells (and
		# the grep above) carry the tag too, but never run latt's code.
		c=
		read -r c 2>/dev/null <"/proc/$p/comm"
		case $c in
		bash|grep|'') ;;
		*) echo "$p" ;;
		esac
	done
}

# end_leftovers: ends whatever of the script's runs is still alive: SIGTERM
# to the processes the script started itself (latt then ends its clients,
# loads and workload as it does at any end, and its keeper removes the
# tracefs instance), SIGCONT to all (a stopped one must see it), then
# SIGKILL to what is left after 5 s.
end_leftovers() {
	local left all p i
	left=$(leftovers)
	[ -n "$left" ] || return 0
	all=" $(echo $left) "
	for p in $left; do
		[[ $all == *" $(stat_field "$p" 2) "* ]] ||
		    kill -TERM "$p" 2>/dev/null
	done
	kill -CONT $left 2>/dev/null
	for i in $(seq 50); do
		left=$(leftovers)
		[ -n "$left" ] || return 0
		sleep 0.1
	done
	kill -KILL $left 2>/dev/null
}

# no_leftovers NAME: waits up to 3 s for the run's processes to be gone.
no_leftovers() {
	local i left
	for i in $(seq 30); do
		left=$(leftovers)
		[ -z "$left" ] && { pass "$1: no process left"; return 0; }
		sleep 0.1
	done
	fail "$1: processes left: $(for p in $left; do printf '%s(%s) ' "$p" "$(cat /proc/$p/comm 2>/dev/null)"; done)"
	kill -9 $left 2>/dev/null
	return 1
}

# run_latt OUT ERR ARGS...: runs latt with a 60 s safety net; sets $rc.
# In the script's process group (--foreground): a Ctrl-C or a TERM to the
# group (make check cut by timeout) ends latt at once, and the script's
# clean-up then runs, instead of waiting for the run to end.
run_latt() {
	local out=$1 err=$2
	shift 2
	timeout --foreground -k 5 60 "$LATT" "$@" >"$out" 2>"$err"
	rc=$?
}

# timed_latt OUT ERR ARGS...: run_latt, and $ms, the milliseconds it took.
timed_latt() {
	local t0
	t0=$(usecs)
	run_latt "$@"
	ms=$((($(usecs) - t0) / 1000))
}

# foreign_rt PID: while PID lives, every 0.3 s, prints "comm(pid)" for
# each real-time task (SCHED_FIFO or SCHED_RR, kernel threads aside) that
# is not of this script's runs: another suite's hog on the machine.  A
# timing check that a real-time task of others could take over looks, and
# leaves its relation out (a skip naming them) when there were any.
foreign_rt() {
	local p env c
	while kill -0 "$1" 2>/dev/null; do
		for p in $(ps -eo pid=,cls=,args= |
		    awk '($2 == "FF" || $2 == "RR") && $3 !~ /^\[/ { print $1 }'); do
			# Gone meanwhile (our clients at the end): not known.
			env=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/environ") ||
			    continue
			c=$(cat "/proc/$p/comm" 2>/dev/null) || continue
			grep -qxF "LATT_TEST_TAG=$LATT_TEST_TAG" <<<"$env" ||
			    echo "$c($p)"
		done
		sleep 0.3
	done | sort -u | tr '\n' ' '
}

# ---------------------------------------------------------------------------
# Process helpers: finding latt's clients and workload in /proc without a fork
# per process, waiting for a run to start or end with a time limit, feature
# checks for options that other branches add, and a verdict that gathers
# every failed check of one test into its FAIL line.

# kids_of PID: its children, one "pid pgid comm" a line.  From PID's
# children files with builtins where the kernel has them: a scan of every
# process took about a second a look on a loaded machine (a wait for a
# run's start then outlasted part of the run).
kids_of() {
	local c line comm
	local -a f
	if children_of "$1"; then
		for c in "${kids[@]}"; do
			read -r line 2>/dev/null <"/proc/$c/stat" || continue
			comm=${line#*\(}
			comm=${comm%\)*}
			read -r -a f <<<"${line##*) }"
			echo "$c ${f[2]} $comm"
		done
		return
	fi
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v P="$1" '{
		c = $0; sub(/^[0-9]+ \(/, "", c); sub(/\) [^)]*$/, "", c)
		s = $0; sub(/^.*\) /, "", s); split(s, f, " ")
		if (f[2] == P) print $1, f[3], c }'
}

# stat_field PID N: field N of /proc/PID/stat counted after the comm
# (1 state, 2 ppid, 3 pgrp); empty when PID is gone.
stat_field() {
	local line
	local -a f
	{ read -r line <"/proc/$1/stat"; } 2>/dev/null || return 0
	read -r -a f <<<"${line##*) }"
	echo "${f[$2 - 1]}"
}

# children_of PID: sets the array $kids to PID's children, read from its
# tasks' children files with builtins only (no fork: quick on a loaded
# machine); false when the kernel has no such files (CONFIG_PROC_CHILDREN).
children_of() {
	local f
	local -a k
	kids=()
	[ -r "/proc/$1/task/$1/children" ] || return 1
	for f in /proc/"$1"/task/*/children; do
		k=()
		read -r -a k 2>/dev/null <"$f"
		kids+=("${k[@]}")
	done
}

# clients_of PID: latt's clients, its children in its own process group
# (the workload and each load have a group of their own), sorted by pid.
clients_of() {
	kids_of "$1" | awk -v G="$(stat_field "$1" 3)" '$2 == G { print $1 }' |
	    sort -n
}

# workload_of PID: the workload, the child of latt PID that leads a process
# group of its own and is not a load (loads are named latt-KIND).
workload_of() {
	kids_of "$1" | awk '$1 == $2 && $3 !~ /^latt-/ { print $1 }'
}

# wait_started PID: waits up to 20 s until latt PID runs its workload,
# which it starts once every client is ready.
wait_started() {
	local i
	for i in $(seq 200); do
		[ -n "$(stat_field "$1" 1)" ] || return 1
		[ -n "$(workload_of "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_nclients PID N: waits up to 20 s until latt PID has N clients.
wait_nclients() {
	local i
	for i in $(seq 200); do
		[ "$(clients_of "$1" | grep -c .)" -ge "$2" ] && return 0
		[ -n "$(stat_field "$1" 1)" ] || return 1
		sleep 0.05
	done
	return 1
}

# wait_clients PID N: waits up to 10 s until latt PID has N clients; sets
# $clients.  The same N pids must be seen on two looks 0.1 s apart: the
# child in latt's group that tries the clients' scheduling (tune.c's
# probe) lives for a moment before any client is forked.
wait_clients() {
	local i last=
	for i in $(seq 100); do
		clients=$(clients_of "$1")
		if [ "$(grep -c . <<<"$clients")" -ge "$2" ]; then
			[ "$clients" = "$last" ] && return 0
			last=$clients
			sleep 0.1
			continue
		fi
		[ -n "$(stat_field "$1" 1)" ] || return 1
		sleep 0.1
	done
	return 1
}

# Microseconds on CLOCK_REALTIME, without a fork.
usecs() { local t=${EPOCHREALTIME/[.,]/}; echo "${t#0}"; }

# holds FILE TEXT: whether FILE holds exactly TEXT (a newline at its end),
# as a knob's file does once latt restored it.
holds() { [ "$(od -An -c "$1")" = "$(printf '%s\n' "$2" | od -An -c)" ]; }

# until_holds FILE VALUE MS: waits up to MS ms for FILE to hold VALUE as
# latt writes it (no newline).
until_holds() {
	local t0
	t0=$(usecs)
	while [ "$(cat "$1")" != "$2" ] || [ "$(wc -c <"$1")" -ne ${#2} ]; do
		[ $(($(usecs) - t0)) -gt $(($3 * 1000)) ] && return 1
		sleep 0.02
	done
}

# wait_gone PID LIMIT: waits for our child PID to end, at most LIMIT s
# (then SIGKILL); sets $rc, and $ms, the milliseconds since $T0 (usecs).
wait_gone() {
	local st t
	while :; do
		st=$(stat_field "$1" 1)
		[ -z "$st" ] || [ "$st" = Z ] && break
		t=$(usecs)
		if [ $((t - T0)) -gt $(($2 * 1000000)) ]; then
			kill -CONT "$1" 2>/dev/null
			kill -9 "$1" 2>/dev/null
			bad "still running after $2 s (killed)"
			break
		fi
		sleep 0.02
	done
	t=$(usecs)
	ms=$(((t - T0) / 1000))
	wait "$1"
	rc=$?
}

# early_signal PID SIG MS: sends SIG to latt PID MS ms after it holds
# SIGTERM (blocks or catches it: its /proc status, once its comm says
# latt), which it does from its first instruction on (issue 35), never
# before its main; a look a millisecond, 10 s at worst.  Prints when it
# sent it (usecs), for wait_gone's $T0.
early_signal() {
	local k v m c i f=$((1000 + $3 % 1000))
	for ((i = 0; i < 10000; i++)); do
		m=0 c=
		read -r c 2>/dev/null <"/proc/$1/comm"
		[ "$c" = latt ] && while read -r k v; do
			case $k in SigBlk: | SigCgt:) m=$((m | 0x$v)) ;; esac
		done 2>/dev/null <"/proc/$1/status"
		[ $(((m >> 14) & 1)) -eq 1 ] && break
		nap 0.001
	done
	nap "$(($3 / 1000)).${f#1}"
	usecs
	kill -"$2" "$1" 2>/dev/null
}

# signal_run PID SIG LIMIT [SETTLE]: once latt PID runs its workload
# (wait_started; bad when it never does) and SETTLE s more (none by
# default), sends it SIG and waits at most LIMIT s for its end (wait_gone):
# sets $T0, the time SIG was sent, $rc and $ms.
signal_run() {
	wait_started "$1" || bad "the run did not start"
	[ -z "${4:-}" ] || sleep "$4"
	T0=$(usecs)
	kill -"$2" "$1"
	wait_gone "$1" "$3"
}

# Failures of the current test accumulate in $why; verdict prints the line.
why=
bad() { why="${why:+$why; }$*"; }
verdict() {
	why="$why${twhy:+${why:+; }$twhy}" twhy=
	if [ -z "$why" ]; then pass "$1"; else fail "$1: $why"; fi
	why=
}
# verdict_from NAME FILE [JSON [NEED [OWN]]]: the verdict of a check
# written in python3 that printed FILE: its first line says what was
# measured, shown after NAME; each line "BAD why" is a failure, each line
# "TBAD why" a failure of a timing relation (see verdict_timed, which
# judges it with JSON).  An empty FILE (the check died) is a failure.
verdict_from() {
	local line name=$1 file=$2
	shift 2
	[ -s "$file" ] || bad "the python3 check printed nothing"
	while IFS= read -r line; do
		case $line in
		BAD\ *) bad "${line#BAD }" ;;
		TBAD\ *) tbad "${line#TBAD }" ;;
		esac
	done <"$file"
	if [ $# -gt 0 ]; then
		verdict_timed "$name: $(head -n 1 "$file")" "$@"
	else
		verdict "$name: $(head -n 1 "$file")"
	fi
}

# The one judge of the timing relations (tests/judge.py).  tbad WHY: like
# bad, for a relation that holds only when the machine leaves the test its
# CPUs.  verdict_timed NAME JSON [NEED [OWN]]: FAIL on any bad; else PASS
# when no timing relation failed; else the judge reads the runs' own
# record in JSON (NEED: the latency samples a run needs; OWN: the
# runnable tasks the test adds beside latt) and gives SKIP with the
# measured reason when the runs were crowded, else FAIL (a quiet run with
# too few samples is failed as that, not as the relation).
twhy=
tbad() { twhy="${twhy:+$twhy; }$*"; }
verdict_timed() {
	local name=$1 json=$2 r
	shift 2
	if [ -n "$why" ] || [ -z "$twhy" ]; then
		verdict "$name"
		return
	fi
	r=$(python3 "$(dirname "${BASH_SOURCE[0]}")/judge.py" "$json" "$@" \
	    2>&1)
	case $r in
	SKIP\ *) skip "$name: ${r#SKIP } (the relation: $twhy)" ;;
	FAIL\ *) fail "$name: ${r#FAIL }" ;;
	'') fail "$name: $twhy" ;;
	*) fail "$name: $twhy; the judge: $r" ;;
	esac
	why= twhy=
}
nlines() { awk 'END { print NR }' "$1"; }
# err_lines FILE: the lines of latt's stderr in FILE but the "try 'latt
# --help'" (or 'latt compare --help') that follows a usage error's line.
err_lines() { grep -cv "^try 'latt \(compare \)\{0,1\}--help'\$" "$1"; }
short() { head -c 300 "$1" | tr '\n' '|'; }

# entries FILE CLIENTS: the N of a first line "Entries: N (clients=CLIENTS)".
entries() {
	sed -n "1s/^Entries: \([0-9][0-9]*\) (clients=$2)\$/\1/p" "$1"
}

# bad_inputs: for each line "WHAT|ARGS" of its stdin, latt -d1 ARGS (split
# at blanks) must refuse to start: status 2, one line on stderr (see
# err_lines) and nothing on stdout; bad (see verdict) names each WHAT that
# does not.  Sets $n, the number of lines.
bad_inputs() {
	local what args
	n=0
	while IFS='|' read -r what args; do
		# shellcheck disable=SC2086
		run_latt "$TMP/b.out" "$TMP/b.err" -d1 $args
		if [ "$rc" -ne 2 ] || [ "$(err_lines "$TMP/b.err")" -ne 1 ] ||
		    [ -s "$TMP/b.out" ]; then
			bad "$what: status $rc, $(short "$TMP/b.err")"
		fi
		n=$((n + 1))
	done
}

# expect_summary FILE CLIENTS: the first line is Entries with CLIENTS and
# the count is a positive multiple of CLIENTS.
expect_summary() {
	local n
	n=$(entries "$1" "$2")
	if [ -z "$n" ]; then
		bad "first line is not 'Entries: N (clients=$2)': $(head -n 1 "$1")"
	elif [ "$n" -le 0 ] || [ $((n % $2)) -ne 0 ]; then
		bad "Entries $n is not a positive multiple of $2"
	fi
}

# field FILE LABEL: the value of the summary line "\tLABEL\t value", or
# of the details table's cell "ROW COLUMN" ("timer p99", "runqueue
# samples"; a bare column is the latency row's: "p50").
field() {
	awk -F'\t' -v l="$2" '
	$2 == l { sub(/^ +/, "", $3); print $3; found = 1; exit }
	/^\(us\) +samples / { nh = split($0, h, / +/); table = 1; next }
	table && $0 == "" { table = 0 }
	table && cell == "" {
		n = split($0, f, / +/)
		row = f[1]
		for (i = 2; i <= n - (nh - 1); i++)
			row = row " " f[i]
		for (i = 2; i <= nh; i++)
			if (l == row " " h[i] || (row == "latency" && l == h[i]))
				cell = f[n - nh + i]
	}
	END { if (!found && cell != "") print cell }' "$1"
}

# has_option OPT: whether latt's --help mentions OPT (a long option that
# another branch may not have added yet).
has_option() {
	"$LATT" --help 2>/dev/null | grep -q -- "$1"
}
