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
TMP=$(mktemp -d /tmp/latt-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export LATT_TEST_TAG="latt-test-$$-$RANDOM"

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }

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
run_latt() {
	local out=$1 err=$2
	shift 2
	timeout -k 5 60 "$LATT" "$@" >"$out" 2>"$err"
	rc=$?
}

# Pids of latt's clients: children of PID whose command is latt.
children_of() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(awk '{print $4}' "$p/stat" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
	done
}
