# SPDX-License-Identifier: GPL-2.0-only
# The command line: options, usage errors, the output's shape, how the
# workload is run, exit statuses and the descriptors a workload and a client
# inherit.
#
# Usage: LATT=./latt bash tests/t_cli.sh
. tests/lib.sh
export LATT

OUT=$TMP/out
ERR=$TMP/err

# Runs a command with every descriptor above 2 closed, as a clean caller
# would (the test harness may leak some into this script).
closefds() {
	(
		for f in /proc/$BASHPID/fd/*; do
			f=${f##*/}
			[ "$f" -gt 2 ] 2>/dev/null && eval "exec $f>&-"
		done
		exec "$@"
	)
}

# ---------------------------------------------------------------------------
# Usage errors: exit 2, one line on stderr naming the option and the value
# and a second that says where help is, nothing on stdout.  Each REGEX must
# match the stderr line; !REGEX must not.
usage_case() {	# name 'REGEX;;REGEX;;!REGEX' args...
	local name=$1 res=$2 re
	shift 2
	run_latt "$OUT" "$ERR" "$@"
	[ "$rc" -eq 2 ] || bad "exit $rc, want 2"
	[ -s "$OUT" ] && bad "stdout not empty: $(short "$OUT")"
	[ "$(nlines "$ERR")" -eq 2 ] && [ "$(head -c 6 "$ERR")" = "latt: " ] &&
	    [ "$(tail -n 1 "$ERR")" = "try 'latt --help'" ] ||
	    bad "stderr is not one line and \"try 'latt --help'\": $(short "$ERR")"
	while [ -n "$res" ]; do
		re=${res%%;;*}
		[ "$re" = "$res" ] && res= || res=${res#*;;}
		case $re in
		!*)	grep -Eq -- "${re#!}" "$ERR" &&
			    bad "stderr matches /${re#!}/: $(short "$ERR")" ;;
		*)	grep -Eq -- "$re" "$ERR" ||
			    bad "stderr lacks /$re/: $(short "$ERR")" ;;
		esac
	done
	verdict "$name"
	no_leftovers "$name"
}

# One usage error end to end: status 2, the line and the hint on stderr,
# nothing on stdout, nothing left.  Every other refusal (numbers, times,
# CPU lists, classes, gates, sweeps, the options' combinations, a long
# value's quoting) is held to its exact line by tests/unit_cli.c.
usage_case "usage: -c0" "clients;;(^|[^0-9-])0([^0-9]|\$)" -c0 true

# --cpus: the order given is kept.
if two_cpus; then
	# Exactly 60 samples (30 a client), however busy the machine.
	run_latt "$OUT" "$ERR" -q -c2 --cpus="$c1,$c0" -f1 -t3 -n 60 -d 20 \
	    --load=none --log="$TMP/cpus.csv" --json="$TMP/cpus.json"
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	got=$(awk -F, -v a="$c1" -v b="$c0" '
	    NR > 1 && $3 == 0 { n0++; if ($4 != a) w++ }
	    NR > 1 && $3 == 1 { n1++; if ($4 != b) w++ }
	    END { printf "%d %d %d", n0, n1, w }' "$TMP/cpus.csv")
	read -r n0 n1 w <<<"$got"
	[ "$n0" -gt 10 ] && [ "$n1" -gt 10 ] ||
	    bad "only $n0 and $n1 samples of clients 0 and 1 (of 60)"
	[ "$w" -eq 0 ] ||
	    bad "$w samples not on their CPU (client 0 on $c1, 1 on $c0)"
	# (Not a python3 start-up, a second on a busy machine, for one key.)
	grep -q "\"cpus\": \[$c1, $c0\]" "$TMP/cpus.json" ||
	    bad "the JSON's parameters: $(grep -o '"cpus": [^]]*]' "$TMP/cpus.json")"
	verdict "--cpus=$c1,$c0: client 0 on CPU $c1, client 1 on CPU $c0"
	no_leftovers "--cpus in the order given"
else
	skip "--cpus in the order given: needs two CPUs"
fi

# ---------------------------------------------------------------------------
# The forms of an option's value (-c8, -c 8, --clients=8, --clients 8) and
# of the delays are tests/unit_cli.c's; one run here uses each end to end.

# The delays are used: every round follows a sleep of at least the
# min-delay, so rounds x 300 ms fit in the run's time (the default 100..500
# ms would give about 2 rounds in the 0.5 s); 1..5 ms gives hundreds of
# rounds in 1 s (the default at most 10, typically 4).
rounds() { sed -n 's/^\trounds\t *\([0-9]*\)$/\1/p' "$1"; }
ran_ms() { sed -n 's/^\tran\t *\([0-9.]*\) s.*/\1/p' "$1" | awk '{ printf "%d", $1 * 1000 }'; }
run_latt "$OUT" "$ERR" --details -c2 -s 300 -S 350 'sleep 0.5'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
r=$(rounds "$OUT")
t=$(ran_ms "$OUT")
[ -n "$r" ] && [ -n "$t" ] && [ $((r * 300)) -le $((t + 20)) ] ||
    bad "'$r' rounds in '$t' ms"
verdict "delays '-s 300 -S 350' are used ($r rounds in $t ms)"
no_leftovers "delays '-s 300 -S 350'"
# Hundreds of rounds (12 at the least) hold only while latt gets a CPU
# when it wakes: the judge reads the run's own record.
run_latt "$OUT" "$ERR" --details -c2 -s 1 -S 5 --json="$TMP/delays.json" 'sleep 1'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
expect_summary "$OUT" 2
r=$(rounds "$OUT")
[ -n "$r" ] && [ "$r" -ge 12 ] || tbad "only '$r' rounds in 1 s"
verdict_timed "delays '-s 1 -S 5' are used ($r rounds in 1 s)" \
    "$TMP/delays.json" 24
no_leftovers "delays '-s 1 -S 5'"

# Options after the command are the command's: sh gets -c, 3 and -v.
run_latt "$OUT" "$ERR" -c2 -f1 -t5 sh -c 'printf "%s\n" "$@" > "$0"' \
    "$TMP/args" -c 3 -v
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ -n "$(entries "$OUT" 2)" ] || bad "first line: $(head -n 1 "$OUT")"
[ "$(cat "$TMP/args" 2>/dev/null)" = $'-c\n3\n-v' ] ||
    bad "the command got: $(short "$TMP/args")"
[ -s "$ERR" ] && bad "stderr (a -v taken by latt?): $(short "$ERR")"
verdict "options after the command belong to the command"
no_leftovers "options after the command"

run_latt "$OUT" "$ERR" -c2 -f1 -t5 sh -c 'exit 0'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ -n "$(entries "$OUT" 2)" ] || bad "no Entries line: $(head -n 1 "$OUT")"
verdict "sh -c 'exit 0' runs as an argument vector"
no_leftovers "sh -c 'exit 0'"

# ---------------------------------------------------------------------------
# The output: the 2009 block byte for byte ("-" where the samples give no
# figure), then consistent numbers.
shape_2009() {	# file
	local -a re=(
	    '^Entries: [0-9]+ \(clients=[0-9]+\)$'
	    '^$'
	    '^Averages:$'
	    '^-{30}$'
	    $'^\tMax\t ( {7}-|[ 0-9]{8}) usec$'
	    $'^\tAvg\t ( {7}-|[ 0-9]{8}) usec$'
	    $'^\tStdev\t ( {7}-|[ 0-9]{8}) usec$')
	local -a line
	local i w
	mapfile -t line < <(head -n 7 "$1")
	for i in 0 1 2 3 4 5 6; do
		[[ ${line[i]-} =~ ${re[i]} ]] ||
		    bad "line $((i + 1)) '${line[i]-}' does not match ${re[i]}"
	done
	for w in Max Avg Stdev Entries; do
		[ "$(grep -c "$w" "$1")" -eq 1 ] ||
		    bad "grep -c $w is $(grep -c "$w" "$1")"
	done
	for w in Entries Avg Stdev; do
		[ "$(grep -ci "$w" "$1")" -eq 1 ] ||
		    bad "grep -ci $w is $(grep -ci "$w" "$1")"
	done
}

# The 2009 block and the details table's latency row agree: Max >= Avg,
# min <= p50 <= ... <= worst (of the cells shown), worst is Max and mean
# is Avg (each to its rounding), a "-" exactly where the samples cannot
# give the figure (none; sd from one; a percentile with fewer than 10
# samples beyond it), no nan, no -0.
numbers_ok() {	# file
	local msg
	msg=$(awk -F'\t' '
	function num(k, v) {
		if (tolower(v) ~ /nan|inf/ || v ~ /^ *-0*(\.0*)?$/ && v !~ /^ *-$/)
			printf "%s is printed as \"%s\"; ", k, v
		val[k] = v + 0; seen[k] = 1; dash[k] = v ~ /^ *-$/
	}
	NR == 1 { n = $0; sub(/^Entries: /, "", n); n += 0 }
	$2 ~ /^(Max|Avg|Stdev)$/ { sub(/ usec$/, "", $3); num($2, $3) }
	/^\(us\) +samples / { split($0, h, / +/); next }
	/^latency / {
		c = split($0, f, / +/)
		if (c != 10) printf "latency row has %d fields; ", c
		if (f[2] != n) printf "latency samples %s, Entries %s; ", f[2], n
		for (i = 3; i <= c; i++) num(h[i], f[i])
	}
	END {
		need["min"] = need["worst"] = need["mean"] = 1; need["sd"] = 2
		need["p50"] = 20; need["p90"] = 100; need["p99"] = 1000
		need["p99.9"] = 10000
		need["Max"] = need["Avg"] = 1; need["Stdev"] = 2
		m = split("Max Avg Stdev min p50 p90 p99 p99.9 worst mean sd", k, " ")
		for (i = 1; i <= m; i++) {
			if (!seen[k[i]]) printf "no %s; ", k[i]
			else if (dash[k[i]] != (n < need[k[i]]))
				printf "%s is \"%s\" from %d samples; ", k[i],
				    dash[k[i]] ? "-" : val[k[i]], n
		}
		if (n == 0)
			exit
		if (val["Max"] < val["Avg"])
			printf "Max %s < Avg %s; ", val["Max"], val["Avg"]
		m = split("min p50 p90 p99 p99.9 worst", q, " ")
		j = 0
		for (i = 1; i <= m; i++)
			if (!dash[q[i]]) r[++j] = q[i]
		for (i = 1; i < j; i++)
			if (val[r[i]] > val[r[i + 1]])
				printf "%s %s > %s %s; ", r[i], val[r[i]], r[i + 1], val[r[i + 1]]
		# Whole us against four digits: at most 0.5 + 0.05 apart.
		d = val["worst"] - val["Max"]
		if (d > 0.5501 || d < -0.5501)
			printf "worst %s is not Max %s; ", val["worst"], val["Max"]
		d = val["mean"] - val["Avg"]
		if (d > 0.5501 || d < -0.5501)
			printf "mean %s is not Avg %s; ", val["mean"], val["Avg"]
	}' "$1")
	[ -z "$msg" ] || bad "$msg"
	if grep -Eiq '(^|[^a-z])(nan|inf)([^a-z]|$)' "$1"; then
		bad "nan/inf printed: $(grep -Ei 'nan|inf' "$1" | head -n 2)"
	fi
	if grep -Eq '(^|[^0-9])-0+(\.0+)?([^0-9.]|$)' "$1"; then
		bad "-0 printed: $(grep -E -- '-0' "$1" | head -n 2)"
	fi
}

# A normal run, its options in the long form with a separate value, its
# command after --.
run_latt "$OUT" "$ERR" --clients 8 -f1 -t5 --details -- sleep 0.5
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
shape_2009 "$OUT"
verdict "the 2009 block, byte for byte, and one line per keyword"
numbers_ok "$OUT"
verdict "numbers are consistent (a normal run)"
expect_summary "$OUT" 8
verdict "option form '--clients 8' runs 8 clients"
[ "$(field "$OUT" workload)" = "sleep 0.5" ] || bad "workload line: $(grep workload "$OUT")"
verdict "-- ends the options"
no_leftovers "2009 block"

# The summary read in ten seconds (issue 36): the 2009 block, the
# headline, the table and at most five notes, within 22 lines of 80
# columns (tabs expanded); "few samples" one note.  --details adds every
# fact, the values of all in one column (26), every line within 80.
# summary_shape FILE MAXLINES
summary_shape() {
	local n w
	n=$(grep -c '' "$1")
	[ "$n" -le "$2" ] ||
	    bad "$n lines, at most $2: $(sed -n '10,$p' "$1" | tr '\t\n' ' |')"
	w=$(expand "$1" | awk 'length > 80 { print length ": " $0; exit }')
	[ -z "$w" ] || bad "a line of $w"
}
FACTS='rounds|loop|ran|seed|floor|worst at|scheduler'
run_latt "$OUT" "$ERR" -c2 -f1 -t2 -n 40 --load=none
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
summary_shape "$OUT" 22
[ "$(grep -Ec $'^\tfew samples\t *40; - needs (p50 20, )?p90 100, p99 1000, p99.9 10000$' \
    "$OUT")" -eq 1 ] || bad "few samples: $(grep -a few "$OUT")"
grep -Eq $'^\t('"$FACTS"$')\t' "$OUT" &&
    bad "facts without --details: $(grep -E $'^\t('"$FACTS"$')\t' "$OUT")"
grep -q '^Where it woke' "$OUT" && bad "'Where it woke' without --details"
verdict "the summary: $(grep -c '' "$OUT") lines within 80 columns, a note of few samples, no facts"
run_latt "$OUT" "$ERR" --details -c2 -f1 -t2 -n 40 --load=none
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
summary_shape "$OUT" 60
for l in rounds loop ran seed 'worst at' 'few samples'; do
	[ -n "$(field "$OUT" "$l")" ] || bad "--details: no '$l' line"
done
# The column of each fact's value, 1-based, tabs expanded.
cols=$(awk -F'\t' '$1 == "" && NF >= 3 && $2 !~ /^(Max|Avg|Stdev)$/ {
	c = 8 + length($2); c += 8 - c % 8; v = $3; sub(/[^ ].*/, "", v)
	at[c + length(v) + 1] = $2 } END { for (c in at) printf "%d(%s) ", c, at[c] }' "$OUT")
[ "$cols" = "26(${cols#26(}" ] && [ "$(echo $cols | wc -w)" -eq 1 ] ||
    bad "--details: the values start in columns $cols"
verdict "--details: every fact, $(grep -c '' "$OUT") lines within 80 columns, values in column ${cols%%(*}"
no_leftovers "the summary's shape"

# No sample at all: the workload is over before the first round.  Every
# figure is "-", never a made-up 0 (the 2009 block keeps its shape).  The
# first sleep (5 s) outlasts the run (-d 2), so that no round comes before
# the workload's end, however slowly 'true' runs (the default 10 ms did not
# always suffice on a loaded machine: 2 samples).
run_latt "$OUT" "$ERR" -c2 -f 5s -t 5s -d 2 true
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ -n "$(entries "$OUT" 2)" ] || bad "first line: $(head -n 1 "$OUT")"
shape_2009 "$OUT"
numbers_ok "$OUT"
grep -qx '0 samples  p50 -  p99 -  worst -  timer p99 -' "$OUT" ||
    bad "headline: $(sed -n 9p "$OUT")"
awk '/^\(us\) +samples /, /^$/' "$OUT" >"$TMP/table"
[ "$(grep -c . "$TMP/table")" -ge 3 ] || bad "no table: $(short "$OUT")"
grep -Ev '^\(us\) |^[a-z ]+ +0( +-){8}$|^$' "$TMP/table" >"$TMP/nonempty"
[ -s "$TMP/nonempty" ] && bad "a row with a figure: $(short "$TMP/nonempty")"
grep -Eq '(^|[^0-9.])0\.000([^0-9]|$)' "$OUT" &&
    bad "0.000 printed: $(grep -E '0\.000' "$OUT" | head -n 2 | tr '\n' '|')"
verdict "no sample: '-' everywhere (latt -c2 -f 5s -t 5s -d 2 true), the 2009 block's shape kept"
no_leftovers "no sample"

# No sample under --explain: no autopsy at all (not "Autopsy of the 0").
run_latt "$OUT" "$ERR" --explain -c2 -d 2 true
if [ "$rc" -eq 2 ] && grep -q 'explain' "$ERR"; then
	skip "no sample under --explain: tracefs cannot be used here ($(short "$ERR"))"
else
	[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
	[ -n "$(entries "$OUT" 2)" ] || bad "first line: $(head -n 1 "$OUT")"
	grep -qi 'autopsy' "$OUT" && bad "$(grep -i autopsy "$OUT")"
	verdict "no sample under --explain: no autopsy printed"
fi

# (Most likely) one sample: one client, one round at 50 ms before the end.
run_latt "$OUT" "$ERR" -c1 -f 50 -t 50 'sleep 0.08'
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
shape_2009 "$OUT"
numbers_ok "$OUT"
verdict "few samples ($(head -n 1 "$OUT")): no nan, no -0, '-' for sd of one"
no_leftovers "few samples"

# ---------------------------------------------------------------------------
# How the workload runs.
run_latt "$OUT" "$ERR" -c2 -f1 -t5 "echo a > $TMP/f && echo b >> $TMP/f"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$(cat "$TMP/f" 2>/dev/null)" = $'a\nb' ] || bad "file holds: $(short "$TMP/f")"
verdict "a single argument runs via /bin/sh -c"
no_leftovers "single argument via sh"

arg="a b'c\"d \$HOME *  \\n"
run_latt "$OUT" "$ERR" -c2 -f1 -t5 sh -c 'printf %s "$1" > "$0"' \
    "$TMP/arg" "$arg"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$(cat "$TMP/arg" 2>/dev/null)" = "$arg" ] ||
    bad "the argument arrived as: $(cat "$TMP/arg" 2>/dev/null)"
verdict "several arguments are exec'd directly, quoting intact"
no_leftovers "argument vector"

long=$(printf ': ; %.0s' $(seq 25000))"echo done > $TMP/long"
run_latt "$OUT" "$ERR" -c2 -f1 -t5 "$long"
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
[ "$(cat "$TMP/long" 2>/dev/null)" = "done" ] || bad "the command did not run"
[ -n "$(entries "$OUT" 2)" ] || bad "first line: $(head -c 100 "$OUT")"
verdict "a ${#long}-byte command runs"
no_leftovers "long command"

# ---------------------------------------------------------------------------
# Help and version.
# Every option of options.c's table, a row's name first on its line
# (there are dozens: a table that cannot be read is a failure, not an
# empty list).
table=$(sed -n '/^static const struct opt opts\[\]/,/^};/p' cli/options.c |
    sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)".*/--\1/p')
for h in -h --help; do
	run_latt "$OUT" "$ERR" $h
	[ "$rc" -eq 0 ] || bad "exit $rc"
	[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
	[ "$(wc -w <<<"$table")" -ge 30 ] ||
	    bad "options.c's table not found ($(wc -w <<<"$table") options)"
	help=$(<"$OUT")
	for o in --clients --min-delay --max-delay --verbose --help --version \
	    $table; do
		[[ $help == *"$o"* ]] || bad "help does not mention $o"
	done
	verdict "$h prints help on stdout, exit 0"
	no_leftovers "$h"
done
for v in -V --version; do
	run_latt "$OUT" "$ERR" $v
	[ "$rc" -eq 0 ] || bad "exit $rc"
	[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
	[ "$(nlines "$OUT")" -eq 1 ] && grep -Eq '^latt .*[0-9]' "$OUT" ||
	    bad "stdout: $(short "$OUT")"
	verdict "$v prints the version, exit 0"
	no_leftovers "$v"
done

# ---------------------------------------------------------------------------
# Exit statuses.
run_latt "$OUT" "$ERR" -c2 -f1 -t5 'sleep 0.3; exit 3'
[ "$rc" -eq 4 ] || bad "exit $rc, want 4"
[ -n "$(entries "$OUT" 2)" ] || bad "no summary: $(head -n 1 "$OUT")"
[ "$(nlines "$ERR")" -eq 1 ] || bad "$(nlines "$ERR") lines on stderr"
grep -Eq '(^|[^0-9])3([^0-9]|$)' "$ERR" || bad "stderr lacks the status: $(short "$ERR")"
verdict "workload exit 3: latt exits 4, summary, one line on stderr"
no_leftovers "workload exit 3"

# A command that cannot run ends latt at once as a shell would end: 127
# not found, 126 not executable, one line naming it, no summary, and
# nothing forked (as nobody with no process to spare, a fork would fail
# with status 1).
cannot_run() {	# name status regex args...
	local name=$1 want=$2 re=$3
	shift 3
	# (The sanitizers' leak check needs a thread of its own at exit.)
	ASAN_OPTIONS=detect_leaks=0 timeout -k 5 60 setpriv --reuid=nobody \
	    --regid=nogroup --clear-groups prlimit --nproc=0 "$LATT" "$@" \
	    >"$OUT" 2>"$ERR"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "exit $rc, want $want"
	[ -s "$OUT" ] && bad "stdout: $(short "$OUT")"
	[ "$(nlines "$ERR")" -eq 1 ] && grep -Eq -- "$re" "$ERR" ||
	    bad "stderr is not one line matching /$re/: $(short "$ERR")"
	verdict "$name: status $want, one line, nothing forked"
	no_leftovers "$name"
}
printf 'echo hi\n' >"$TMP/noexec.sh"
chmod 644 "$TMP/noexec.sh"
chmod 755 "$TMP"
cannot_run "missing program as argv" 127 \
    "^latt: cannot run '/nonexistent/cmd': command not found\$" \
    -c2 -f1 -t5 /nonexistent/cmd arg
cannot_run "missing program via sh" 127 \
    "^latt: cannot run 'nonexistent-cmd-xyz': command not found\$" \
    -c2 -f1 -t5 'nonexistent-cmd-xyz -j4'
cannot_run "missing program in \$PATH as argv" 127 \
    "cannot run 'nonexistent-cmd-xyz': command not found" \
    -c2 -- nonexistent-cmd-xyz -j 3
cannot_run "a file that is not executable, as argv" 126 \
    "cannot run '$TMP/noexec.sh': Permission denied" -c2 "$TMP/noexec.sh" x
cannot_run "a file that is not executable, via sh" 126 \
    "cannot run '$TMP/noexec.sh': Permission denied" -c2 "$TMP/noexec.sh"
cannot_run "a directory" 126 "cannot run '$TMP': Permission denied" \
    -c2 "$TMP" x

# Found, but its exec fails (a missing interpreter): latt ends at once, no
# summary, one line, 127, and the results file it was to replace is kept.
printf '#!/nonexistent/interpreter\necho hi\n' >"$TMP/badint.sh"
chmod 755 "$TMP/badint.sh"
echo old >"$TMP/kept.json"
T0=$(usecs)
run_latt "$OUT" "$ERR" -c2 -f1 -t5 --json="$TMP/kept.json" "$TMP/badint.sh" x
ms=$((($(usecs) - T0) / 1000))
[ "$rc" -eq 127 ] || bad "exit $rc, want 127"
[ -s "$OUT" ] && bad "stdout: $(short "$OUT")"
[ "$(nlines "$ERR")" -eq 1 ] &&
    grep -q "^latt: cannot run '$TMP/badint.sh': No such file" "$ERR" ||
    bad "stderr: $(short "$ERR")"
[ "$(cat "$TMP/kept.json")" = old ] || bad "kept.json: $(short "$TMP/kept.json")"
[ "$ms" -lt 3000 ] || bad "took $ms ms"
verdict "an exec that fails at the run: status 127 in $ms ms, one line, no summary"
no_leftovers "an exec that fails"

# Options after a command that is not found (a usage error saying where
# options go) and --explain 5: tests/unit_cli.c.
# What only the shell knows is left to it: builtins, redirections.
run_latt "$OUT" "$ERR" -q -c1 -f1 -t2 "cd $TMP && : >ran.txt"
[ "$rc" -eq 0 ] && [ -e "$TMP/ran.txt" ] || bad "cd && : : exit $rc: $(short "$ERR")"
run_latt "$OUT" "$ERR" -q -c1 -f1 -t2 'exit 0'
[ "$rc" -eq 0 ] || bad "exit 0: exit $rc: $(short "$ERR")"
verdict "builtins and redirections run through the shell as before"
no_leftovers "builtins"

run_latt "$OUT" "$ERR" -c2 -f1 -t5 sh -c 'sleep 0.2; kill -9 $$'
[ "$rc" -eq 4 ] || bad "exit $rc, want 4"
[ -n "$(entries "$OUT" 2)" ] || bad "no summary: $(head -n 1 "$OUT")"
grep -Eq '9|Killed' "$ERR" || bad "stderr lacks the signal: $(short "$ERR")"
verdict "workload killed by a foreign signal: exit 4"
no_leftovers "workload killed"

run_latt "$OUT" "$ERR" -c2 'sleep 0.3'
[ "$rc" -eq 0 ] || bad "exit $rc, want 0: $(short "$ERR")"
[ -s "$ERR" ] && bad "stderr: $(short "$ERR")"
[ -n "$(entries "$OUT" 2)" ] || bad "no summary: $(head -n 1 "$OUT")"
verdict "sleep 0.3 with the default delays: exit 0, quiet stderr"
no_leftovers "sleep 0.3"

# ---------------------------------------------------------------------------
# Descriptors.  fds_only_std FILE: the lines of "ls -l /proc/self/fd" in
# FILE name 0, 1, 2 only (and the directory ls opened to read it).
fds_only_std() {
	local extra fd
	grep -q ' -> ' "$1" || { bad "no listing"; return; }
	for fd in 0 1 2; do
		grep -Eq " $fd -> " "$1" || bad "fd $fd is missing"
	done
	extra=$(grep ' -> ' "$1" | awk '$NF ~ /^\/proc\/[0-9]+\/fd$/ { next }
	    $(NF-2) > 2 { print $(NF-2) "->" $NF }' | tr '\n' ' ')
	[ -z "$extra" ] || bad "inherited descriptors: $extra"
}
closefds "$LATT" -c4 -f1 -t5 'ls -l /proc/self/fd; sleep 0.3' >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
fds_only_std "$OUT"
verdict "the workload (via sh) inherits no latt descriptor"
no_leftovers "workload descriptors (sh)"

closefds "$LATT" -c4 -f1 -t5 ls -l /proc/self/fd >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
fds_only_std "$OUT"
verdict "the workload (argv) inherits no latt descriptor"
no_leftovers "workload descriptors (argv)"

# A client holds exactly 0, 1, 2 and its two pipe ends, even when latt's
# caller leaked descriptors into it (the split's schedstat is read by
# latt, not by the client: t_split.sh).
exec 7</dev/null
"$LATT" -c4 -f1 -t5 'sleep 30' >"$OUT" 2>"$ERR" &
pid=$!
exec 7<&-
wait_started $pid || bad "the run did not start"
clients=$(clients_of $pid)
[ "$(grep -c . <<<"$clients")" -eq 4 ] ||
    bad "found $(grep -c . <<<"$clients") clients, want 4"
want=5
for p in $clients; do
	n=$(ls /proc/$p/fd 2>/dev/null | wc -l)
	[ "$n" -eq "$want" ] || bad "client $p has $n descriptors, not $want: $(ls -l /proc/$p/fd 2>&1 | awk 'NR>1 {print $(NF-2) "->" $NF}' | tr '\n' ' ')"
done
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" -eq 0 ] || bad "exit $rc: $(short "$ERR")"
verdict "a client holds exactly its stdio and two pipe ends"
no_leftovers "client descriptors"

# ---------------------------------------------------------------------------
# Verbose: one "log delay" line per entry on stderr, stdout unchanged.
run_latt "$OUT" "$ERR" -v -c3 -f1 -t5 'sleep 0.3'
[ "$rc" -eq 0 ] || bad "exit $rc"
n=$(entries "$OUT" 3)
logs=$(grep -c '^log delay ' "$ERR")
[ -n "$n" ] && [ "$n" -gt 0 ] || bad "first line: $(head -n 1 "$OUT")"
[ "$logs" = "$n" ] || bad "$logs log delay lines for $n entries"
others=$(grep -vc '^log delay ' "$ERR")
[ "$others" -eq 0 ] || bad "$others other lines on stderr: $(grep -v '^log delay ' "$ERR" | head -n 2)"
grep -q 'log delay' "$OUT" && bad "log delay lines on stdout"
shape_2009 "$OUT"
verdict "-v: one log delay line per entry on stderr only"
no_leftovers "-v"
