# SPDX-License-Identifier: GPL-2.0-only
# tests/run: long (make check-valgrind runs it; the sanitized pass of make
# check covers the same modes with ASan)
# valgrind memcheck over a short run of each mode latt has (the sanitizer
# pass of make check covers the same modes with ASan): no error and no
# definite leak, in the parent or in a client (valgrind follows forks; the
# workload, an exec, is not traced).  A row for a new option is one line;
# its NEED column skips it while latt lacks the option.
#
# Usage: LATT=./latt bash tests/t_memcheck.sh
. tests/lib.sh
export LATT

if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "memcheck: valgrind cannot run an ASan build; the plain pass covers it"
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	skip "memcheck: valgrind is missing (apt-get install valgrind)"
	exit 0
fi

# mc NAME NEED RC ARGS...: valgrind over latt ARGS; exit status RC wanted.
mc() {
	local name=$1 need=$2 want=$3
	shift 3
	if [ "$need" != - ] && ! has_option "$need"; then
		skip "memcheck, $name: needs $need (not built yet)"
		return
	fi
	timeout -k 5 60 valgrind -q --leak-check=full \
	    --errors-for-leak-kinds=definite --error-exitcode=99 \
	    --trace-children=no "$LATT" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "exit $rc, want $want"
	grep -q '^==[0-9]*==' "$TMP/err" &&
	    bad "$(grep '^==[0-9]*==' "$TMP/err" | sed 's/^==[0-9]*== //' |
	    grep -E 'lost|Invalid|uninitialised|at 0x|by 0x' | head -4 | tr '\n' '|')"
	verdict "memcheck, $name: exit $rc, no error, no definite leak"
	no_leftovers "memcheck, $name"
}

mc "plain" - 0 -c2 -f1 -t5 'sleep 0.3'
mc "verbose" - 0 -v -c2 -f1 -t5 'sleep 0.3'
mc "failing workload" - 4 -c2 -f1 -t5 sh -c 'sleep 0.3; exit 3'
mc "usage error" - 2 -c0 true
mc "load cpu" --load 0 -c2 -f1 -t5 --load=cpu:1 'sleep 0.3'
mc "load pipe" --load 0 -c2 -f1 -t5 --load=pipe:1 'sleep 0.3'
mc "work -x 64" --work 0 -c2 -f1 -t5 -x 64 'sleep 0.3'
mc "duration" --duration 0 -c2 -f1 -t5 --duration=1 'sleep 5'
mc "json" --json 0 -c2 -f1 -t5 --json="$TMP/j" 'sleep 0.3'
mc "log" --log 0 -c2 -f1 -t5 --log="$TMP/l" 'sleep 0.3'
mc "plot" --plot 0 -c2 -f1 -t5 --plot="$TMP/p.svg" 'sleep 0.3'
