#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# git bisect run's statuses (issue 38): with --bisect, latt and latt
# compare exit 0 when every limit is met, 1 when one is exceeded, 125
# (skip the commit) when a limit cannot be told, the workload failed or
# is not found, and 255 (abort) on a usage error or latt's own failure,
# case by case; and a real git bisect run over a repository of three
# commits whose middle one stalls latt's clients finds it (the gate fails
# for sure, whatever the machine's load: a wake-up unanswered for 0.5 s
# against a 200 ms limit).
. "$(dirname "$0")/lib.sh"

python3 "$(dirname "$0")/mkresult.py" <<EOF
$TMP/a.json --n 4000 --seeds 1,2,3,4,5 --timer
$TMP/b.json --n 4000 --seeds 21,22,23,24,25 --timer --scale 1.2
EOF

# --- --bisect ------------------------------------------------------------------
# bisect_is STATUS NAME ARGS...: latt ARGS exits STATUS.
bisect_is() {
	local want=$1 name=$2
	shift 2
	run_latt "$TMP/out" "$TMP/err" "$@"
	check "bisect: $name: $want (rc $rc: $(short "$TMP/err"))" [ "$rc" -eq "$want" ]
}
G="-q -c1 -f 0 -t 1"
# shellcheck disable=SC2086
{
bisect_is 0 "met" $G -n 5 --bisect --fail-above=max=1h sleep 30
bisect_is 1 "exceeded" $G -n 5 --bisect --fail-above=min=1ns sleep 30
bisect_is 125 "cannot tell" $G -n 1 --bisect --fail-above=sd=1ns sleep 30
bisect_is 125 "the workload failed" $G --bisect --fail-above=max=1h sh -c 'sleep 0.2; exit 3'
bisect_is 125 "the command is not found" $G --bisect --fail-above=max=1h /no/such/command
bisect_is 255 "a usage error before --bisect" -c0 --bisect --fail-above=max=1h true
bisect_is 255 "no gate" --bisect true
bisect_is 255 "latt's own failure (a report it cannot write)" $G -n 5 --bisect \
    --fail-above=max=1h --json=/proc/no/x.json true
}
bisect_is 0 "compare: met" compare --bisect "$TMP/a.json" "$TMP/b.json" --fail-if-worse=p50=40%
bisect_is 1 "compare: exceeded" compare "$TMP/a.json" "$TMP/b.json" --fail-if-worse=p50=5% --bisect
bisect_is 125 "compare: cannot tell" compare "$TMP/a.json" "$TMP/b.json" --fail-if-worse=p50=10% --bisect
bisect_is 255 "compare: a file it cannot read" compare --bisect "$TMP/a.json" "$TMP/none.json" --fail-if-worse=p50=10%
bisect_is 255 "compare: no gate" compare --bisect "$TMP/a.json" "$TMP/b.json"
no_leftovers "bisect"

# --- git bisect run ------------------------------------------------------------
# Three commits of a workload script: the first good, the second stalls
# latt's clients (its parent's children in its process group) for 0.5 s
# and ends the run, the third changes something else.  git bisect run
# with latt --bisect names the second.
if ! command -v git >/dev/null 2>&1; then
	skip "git bisect run: git is not installed"
	exit 0
fi
R=$TMP/repo
mkdir -p "$R"
export GIT_AUTHOR_NAME=latt GIT_AUTHOR_EMAIL=latt@test GIT_COMMITTER_NAME=latt \
    GIT_COMMITTER_EMAIL=latt@test GIT_CONFIG_NOSYSTEM=1 HOME=$TMP
commit() { git -C "$R" add -A && git -C "$R" commit -qm "$1"; }
git -C "$R" init -q
printf '#!/bin/sh\nsleep 0.5\n' >"$R/work.sh"
chmod +x "$R/work.sh"
commit good
cat >"$R/work.sh" <<'EOF'
#!/bin/sh
# The regression: latt's clients stall, and the run ends.
g=$(sed 's/.*) //' /proc/$PPID/stat | cut -d' ' -f3)
for c in $(cat /proc/$PPID/task/*/children); do
	[ "$c" != $$ ] &&
	    [ "$(sed 's/.*) //' /proc/$c/stat | cut -d' ' -f3)" = "$g" ] &&
	    kill -STOP "$c"
done
sleep 0.5
EOF
commit stall
stall=$(git -C "$R" rev-parse HEAD)
echo "a note" >"$R/NOTES"
commit notes
cat >"$TMP/check.sh" <<EOF
#!/bin/sh
exec "$(cd "$(dirname "$LATT")" && pwd)/$(basename "$LATT")" --bisect -q -c2 \\
    -f 1ms -t 2ms --fail-above=max=200ms sh ./work.sh
EOF
chmod +x "$TMP/check.sh"
(cd "$R" && git bisect start HEAD HEAD~2 >/dev/null &&
    timeout -k 5 60 git bisect run "$TMP/check.sh") >"$TMP/bisect.out" 2>&1
brc=$?
grep -q "^$stall is the first bad commit" "$TMP/bisect.out" ||
    bad "rc $brc, not the stall: $(grep -v '^gate\|^ ' "$TMP/bisect.out" | head -c 300 | tr '\n' '|')"
verdict "git bisect run with latt --bisect finds the commit that stalls the clients"
no_leftovers "git bisect run"
