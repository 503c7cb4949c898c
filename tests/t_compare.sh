#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# latt compare: noise against real differences, merging, warnings, the
# gate, and strict refusal of malformed, truncated and foreign files.  The
# result files come from tests/mkresult.py (known distributions), not from
# latt's own writer.
. "$(dirname "$0")/lib.sh"

python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/a1.json --sub-bits 7 --seeds 1 --timer
$TMP/a2.json --sub-bits 7 --seeds 2 --timer
$TMP/a12.json --sub-bits 7 --seeds 1,2 --timer
$TMP/b.json --sub-bits 7 --seeds 3 --timer
$TMP/c.json --sub-bits 7 --seeds 4 --timer --scale 1.2 --set 'environment.kernel_release="6.18.44"'
$TMP/d.json --sub-bits 7 --seeds 5 --set parameters.clients=4 --set environment.cpus_online=4
$TMP/coarse.json --sub-bits 7 --seeds 6 --n 500 --sub-bits 3
$TMP/f1.json --sub-bits 7 --seeds 7 --n 200 --timer
$TMP/f2.json --sub-bits 7 --seeds 8 --n 50 --sub-bits 3
EOF

# row FILE LABEL: the table row of LABEL (the first block only).
row() { awk -v l="$2" '$1 == l && !seen[l]++' "$1" | head -n 1; }
# rows_with FILE LABEL...: the verdict columns of these rows.
verdict() { row "$1" "$2" | sed -E 's/.*(\]|  -)  +//'; }

# Same distribution, and +20%: one run of three sides.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a1.json,$TMP/a2.json" \
	"$TMP/b.json" "$TMP/c.json"
check "compare: three sides exit 0" [ "$rc" -eq 0 ]
check "compare: nothing on stderr" [ ! -s "$TMP/err" ]
check "compare: one block per later side" \
	[ "$(grep -c '^A: ' "$TMP/out")" -eq 2 ]
ok=1
for l in mean p50 p90 p99 p99.9 "timer"; do
	v=$(verdict "$TMP/out" "$l")
	[ "$l" = timer ] && continue
	[ "$v" = noise ] || { ok=0; echo "  $l: $v"; }
done
check "compare: the same distribution is noise (mean..p99.9)" [ $ok -eq 1 ]

# The second block is A against C (C is A times 1.2).
awk '/^C: /{c=1} c' "$TMP/out" >"$TMP/outc"
ok=1
for l in mean p50 p90 p99; do
	r=$(row "$TMP/outc" "$l")
	v=$(verdict "$TMP/outc" "$l")
	ch=$(awk '{print $4}' <<<"$r" | tr -d '%+')
	lo=$(sed -E 's/.*\[([-+0-9.]+)%, ([-+0-9.]+)%\].*/\1/' <<<"$r")
	hi=$(sed -E 's/.*\[([-+0-9.]+)%, ([-+0-9.]+)%\].*/\2/' <<<"$r")
	if [ "$v" != "real difference" ] ||
	    ! awk -v c="$ch" -v lo="$lo" -v hi="$hi" 'BEGIN {
		exit !(c > 17 && c < 23 && lo <= 20 && hi >= 20 && lo > 0) }'; then
		ok=0
		echo "  $r"
	fi
done
check "compare: +20% is a real difference of about 20% within the interval" \
	[ $ok -eq 1 ]
check "compare: the max row has no interval" \
	grep -Eq '^max +[0-9.]+ +[0-9.]+ +[-+0-9.]+% +- ' "$TMP/outc"
check "compare: timer rows when both sides have one" \
	grep -q '^timer p99 ' "$TMP/outc"
check "compare: kernels shown" grep -q '^kernel C: 6.18.44 ' "$TMP/outc"
check "compare: a kernel difference is no warning" \
	sh -c "! grep -q '^warning:.*kernel' '$TMP/out'"
check "compare: the same parameters give no warning" \
	sh -c "! grep -q '^warning:' '$TMP/out'"

# Merged files equal the sum of their histograms.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a1.json,$TMP/a2.json" \
	"$TMP/a12.json"
check "merge: exit 0" [ "$rc" -eq 0 ]
check "merge: 2 runs, 40000 samples" \
	grep -q '^A: .*(2 runs, 40000 samples)' "$TMP/out"
check "merge: every row of A equals B" awk '
	/^(timer )?(mean|p50|p90|p99|p99\.9|max) / {
		n++; o = ($1 == "timer") ? 1 : 0
		if ($(2+o) != $(3+o) || $(4+o) != "+0.0%") bad++ }
	END { exit !(n == 12 && bad == 0) }' "$TMP/out"

# Parameters that invalidate the comparison warn, one line each.
run_latt "$TMP/out" "$TMP/err" compare "$TMP/a1.json" "$TMP/d.json"
check "warnings: exit 0" [ "$rc" -eq 0 ]
check "warnings: clients" grep -qx 'warning: clients differs: A 8, B 4' \
	"$TMP/out"
check "warnings: cpus_online" \
	grep -qx 'warning: cpus_online differs: A 2, B 4' "$TMP/out"
check "warnings: no timer rows when one side lacks the series" \
	sh -c "! grep -q '^timer' '$TMP/out'"

# The gate.
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=p99=10%,max=50% \
	"$TMP/a1.json,$TMP/a2.json" "$TMP/c.json"
check "gate: +20% at p99 against 10% exits 3" [ "$rc" -eq 3 ]
check "gate: says which row failed" grep -q '^gate: p99: B is +2[0-9.]*% worse' \
	"$TMP/out"
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=p99=30% \
	"$TMP/a1.json,$TMP/a2.json" "$TMP/c.json"
check "gate: +20% at p99 against 30% exits 0" [ "$rc" -eq 0 ]
run_latt "$TMP/out" "$TMP/err" compare --fail-if-worse=mean=1%,p50=1%,p99=1% \
	"$TMP/a1.json,$TMP/a2.json" "$TMP/b.json"
check "gate: noise exits 0 even with 1% limits" [ "$rc" -eq 0 ]

# usage_case NAME ARGS...: exit 2, one line on stderr, nothing on stdout.
usage_case() {
	local name=$1
	shift
	run_latt "$TMP/out" "$TMP/err" "$@"
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	    [ ! -s "$TMP/out" ] && grep -q '^latt: ' "$TMP/err"; then
		pass "$name"
	else
		fail "$name: rc $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}
A=$TMP/a1.json
usage_case "gate spec: no %" compare --fail-if-worse=p99=10 "$A" "$A"
usage_case "gate spec: unknown stat" compare --fail-if-worse=p98=10% "$A" "$A"
usage_case "gate spec: not a number" compare --fail-if-worse=p99=x% "$A" "$A"
usage_case "gate spec: negative" compare --fail-if-worse=p99=-5% "$A" "$A"
usage_case "gate spec: empty part" compare --fail-if-worse=p99=1%,,max=2% "$A" "$A"
usage_case "gate spec: twice" compare --fail-if-worse=p99=1%,p99=2% "$A" "$A"
check "gate spec: the message names the part" \
	grep -q 'p99=2%: p99 is given twice' "$TMP/err"
usage_case "gate spec: empty" compare --fail-if-worse= "$A" "$A"
usage_case "compare: one side" compare "$A"
usage_case "compare: unknown option" compare --frobnicate "$A" "$A"
usage_case "compare: empty file name" compare "$A," "$A"
usage_case "compare: missing file" compare "$A" "$TMP/nonexistent.json"
usage_case "compare: different sub_bits do not merge" compare \
	"$A,$TMP/coarse.json" "$A"
run_latt "$TMP/out" "$TMP/err" compare --help
check "compare: --help exits 0 with the usage" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: latt compare' '$TMP/out'"

# Malformed, truncated and foreign files: exit 2, one line naming the
# file and the place.
bad_file() {	# name, content (printf format), or name and - for bad.json
	local name=$1 f=$TMP/bad.json
	[ "$2" = - ] || printf "$2" >"$f"
	run_latt "$TMP/out" "$TMP/err" compare "$A" "$f"
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	    [ ! -s "$TMP/out" ] &&
	    grep -Eq "^latt: $f:[0-9]+:[0-9]+: " "$TMP/err"; then
		pass "bad file: $name"
	else
		fail "bad file: $name: rc $rc, stderr: $(head -c 300 "$TMP/err")"
	fi
}
size=$(wc -c <"$A")
head -c $((size / 2)) "$A" >"$TMP/bad.json"
bad_file "truncated in the middle" -
bad_file "empty" ""
bad_file "garbage" "hello\n"
bad_file "trailing comma" '{"a": 1,}'
bad_file "duplicate key" '{"a": 1, "a": 2}'
bad_file "leading zero" '[01]'
bad_file "bare minus" '[-]'
bad_file "number out of range" '[1e999]'
bad_file "lone high surrogate" '["\\ud800x"]'
bad_file "lone low surrogate" '["\\udc00"]'
bad_file "bad escape" '["\\x"]'
bad_file "NUL escape" '["\\u0000"]'
bad_file "raw control character" '["a\tb"]'
bad_file "invalid UTF-8" '["\xc3\x28"]'
bad_file "byte order mark" '\xef\xbb\xbf{}'
bad_file "two values" '{} {}'
bad_file "NUL byte" '{}\0'
head -c 100000 /dev/zero | tr '\0' '[' >"$TMP/bad.json"
bad_file "deep nesting" -
bad_file "foreign JSON" '{"foo": 1}\n'
check "bad file: the place is line:column" \
	grep -q 'bad.json:1:1: not a latt results file' "$TMP/err"
bad_file "not an object" '[1, 2]'
bad_file "schema_version 2" '{"tool": "latt", "schema_version": 2}'
bad_file "no latency" '{"tool": "latt", "schema_version": 1}'
sed 's/"samples": 20000/"samples": 20001/' "$A" >"$TMP/bad.json"
bad_file "counts do not add up" -
sed '0,/"buckets": \[/s//"buckets": [[3, 4, 1],/' "$A" >"$TMP/bad.json"
bad_file "a bucket that is no bucket" -

# A valid file with a surrogate pair in a string is accepted.
sed 's/"hostname": "vm"/"hostname": "v\\ud83d\\ude00m"/' "$A" >"$TMP/x.json"
run_latt "$TMP/out" "$TMP/err" compare "$A" "$TMP/x.json"
check "surrogate pair: accepted and decoded" \
	grep -q "warning: hostname differs: A vm, B v$(printf '\xf0\x9f\x98\x80')m" \
	"$TMP/out"

# The mutation fuzzer (sanitized), once per make check.
if [ -n "${LATT_SANITIZED:-}" ]; then
	:
elif [ ! -x san/fuzz_compare ]; then
	skip "fuzz: san/fuzz_compare not built (make check builds it)"
else
	if san/fuzz_compare 3000 1 "$TMP/f1.json" "$TMP/f2.json" \
	    >"$TMP/fuzz.out" 2>&1; then
		pass "fuzz: 3000 mutants, no crash ($(cat "$TMP/fuzz.out"))"
	else
		fail "fuzz: $(tail -n 5 "$TMP/fuzz.out" | tr '\n' ' ')"
	fi
fi

# --baseline: a run compared, after its summary, with saved results.
run_latt "$TMP/r1.out" "$TMP/r1.err" -q -c2 -f1 -t3 --json="$TMP/r1.json" 'sleep 1'
run_latt "$TMP/r2.out" "$TMP/r2.err" -q -c2 -f1 -t3 --baseline="$TMP/r1.json" 'sleep 1'
if [ "$rc" -eq 0 ] && grep -q '^Entries: ' "$TMP/r2.out" &&
    grep -q '^Against the baseline' "$TMP/r2.out" &&
    grep -Eq '^p50 +[0-9.]+ +[0-9.]+ ' "$TMP/r2.out"; then
	pass "--baseline: the table follows the summary"
else
	fail "--baseline: rc $rc: $(tail -n 5 "$TMP/r2.out" | tr '\n' '|') $(cat "$TMP/r2.err")"
fi
python3 "$(dirname "$0")/mkresult.py" "$TMP/fast.json" --median 100 --sigma 0.1
run_latt "$TMP/r3.out" "$TMP/r3.err" -q -c4 -f1 -t3 \
    --baseline="$TMP/fast.json" --fail-if-worse=mean=10% 'sleep 1'
check "--baseline --fail-if-worse: a run far slower than its baseline exits 3 (rc $rc)" \
	[ "$rc" -eq 3 ]
run_latt "$TMP/r4.out" "$TMP/r4.err" --baseline="$TMP/nonexistent.json" 'sleep 5'
if [ "$rc" -eq 2 ] && [ ! -s "$TMP/r4.out" ] && [ "$(wc -l <"$TMP/r4.err")" -eq 1 ]; then
	pass "--baseline: an unreadable file fails before the run"
else
	fail "--baseline unreadable: rc $rc, $(cat "$TMP/r4.err")"
fi
run_latt "$TMP/r5.out" "$TMP/r5.err" --fail-if-worse=p99=10% true
check "--fail-if-worse without --baseline is a usage error (rc $rc)" [ "$rc" -eq 2 ]

no_leftovers compare
