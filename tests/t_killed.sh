#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/run: long (it checks the runner, not latt: make check-sanitize runs it)
# A suite cut mid-way leaves nothing behind.  tests/run t_explain.sh (the
# script's output in a pipe to the runner, as in make check) is started in
# a process group of its own and, once a run of latt --explain is under way
# (its tracefs instance made, tracefs perhaps mounted below the script's
# $TMP), the group gets SIGTERM, as from timeout(1), or SIGINT, as from a
# Ctrl-C.  Within 30 s the script must be gone, and with it its $TMP
# (and any mount below it), the instance, and every process that carries
# its tag.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if [ -n "${LATT_SANITIZED:-}" ]; then
	skip "killed mid-way: the clean-up is the scripts', checked with the plain build"
	exit 0
fi
if [ "$(id -u)" -ne 0 ] || [ "$(nproc)" -lt 2 ]; then
	skip "killed mid-way: t_explain's runs need root and two CPUs"
	exit 0
fi
# t_explain mounts its tracefs in a mount namespace of its own; every
# mount of tracefs shows the same instances, so a mount of this script's
# own shows its latt's instance.
tfs=$TMP/tracefs
mkdir -p "$tfs"
if ! mount -t tracefs nodev "$tfs" 2>/dev/null; then
	skip "killed mid-way: tracefs cannot be mounted here"
	exit 0
fi
on_exit "umount -l '$tfs' 2>/dev/null"

# cut SIGNAL: t_explain.sh cut by SIGNAL once a latt --explain of it runs.
cut() {
	local sig=$1 inner tag i p f m re left inst
	local -a sub
	mkdir "$TMP/$sig"
	# (SIGINT as a terminal gives it: a script's "cmd &" ignores it.)
	LATT_TEST_TMPDIR=$TMP/$sig LATT_NO_SANITIZE=1 \
	    env --default-signal=INT,QUIT setsid tests/run tests/t_explain.sh \
	    >"$TMP/$sig.out" 2>&1 </dev/null &
	inner=$!
	# A latt of the script (its tag, latt-test-PID-N, in its environment:
	# bash exports to its children only) with its tracefs instance.
	tag= inst=
	for i in $(seq 600); do
		# The script is tests/run's child (or grandchild).
		children_of "$inner"
		sub=("${kids[@]}")
		for p in "${sub[@]}"; do
			children_of "$p" && sub+=("${kids[@]}")
		done
		re=$(IFS='|'; echo "${sub[*]:-none}")
		for f in $(grep -lzE "^LATT_TEST_TAG=latt-test-($re)-[0-9]+\$" \
		    /proc/[0-9]*/environ 2>/dev/null); do
			p=${f#/proc/}
			p=${p%/environ}
			[ -n "$tag" ] || tag=$(tr '\0' '\n' 2>/dev/null <"$f" |
			    sed -n 's/^LATT_TEST_TAG=//p')
			if [ -d "$tfs/instances/latt-$p" ]; then
				inst=$tfs/instances/latt-$p
				break 2
			fi
		done
		[ -n "$(stat_field "$inner" 1)" ] || break
		nap 0.05
	done
	[ -n "$tag" ] || bad "the script's tag was not seen"
	[ -n "$inst" ] || bad "no run of latt --explain seen: $(tail -n 3 "$TMP/$sig.out" | tr '\n' '|')"
	kill -"$sig" -- -"$inner"
	T0=$(usecs)
	wait_gone "$inner" 30
	# The script itself (its pid is in its tag) may outlive the runner.
	p=${tag#latt-test-}
	p=${p%-*}
	while [ -n "$p" ] && [ -e "/proc/$p" ]; do
		[ $(($(usecs) - T0)) -lt 30000000 ] || break
		nap 0.05
	done
	ms=$((($(usecs) - T0) / 1000))
	[ -n "$p" ] && [ -e "/proc/$p" ] && bad "the script still runs after 30 s"
	[ -n "$inst" ] && [ -e "$inst" ] && bad "instance left: $inst"
	left=$(ls -A "$TMP/$sig")
	[ -z "$left" ] || bad "left in its TMPDIR: $left"
	awk -v t="$TMP/$sig/" 'index($2, t) == 1' /proc/mounts | grep -q . &&
	    bad "a mount left: $(awk -v t="$TMP/$sig/" 'index($2, t) == 1 { print $2 }' /proc/mounts)"
	if [ -n "$tag" ]; then
		for i in $(seq 30); do
			left=$(grep -lxzF "LATT_TEST_TAG=$tag" /proc/[0-9]*/environ \
			    2>/dev/null)
			[ -z "$left" ] && break
			nap 0.1
		done
		[ -z "$left" ] || bad "processes left: $left"
	fi
	verdict "killed mid-way by SIG$sig during a run of latt --explain: ended in $ms ms, no TMP, mount, instance or process left"
}
cut TERM
cut INT
no_leftovers "killed mid-way"
