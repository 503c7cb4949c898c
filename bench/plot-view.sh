#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Renders latt's --plot SVGs to PNG with a headless Chromium (when one is
# installed: chromium, chromium-browser or google-chrome), so that a person
# can look at what a browser shows: label overlaps, text off the canvas,
# unreadable ticks, labels crossed by curves, curves alike.  Runs a few
# kinds of run: a short one with every sample drawn, a long one drawn as
# bands (per-slice p50/p99), one with three samples (no percentile marks),
# an empty one ("no samples"), one with a very long command (cut with an
# ellipsis), one with nine classes of clients (four curves in the colours
# left, beside the runqueue wait), one with one class (one curve), one with
# two frame classes (their panels under the time panel) and a --sweep with
# --repeat (its curve).
#
# Usage: bench/plot-view.sh [OUTDIR]    (default /tmp/latt-plots)
set -u
cd "$(dirname "$0")/.." || exit 1
out=${1:-/tmp/latt-plots}
mkdir -p "$out"
LATT=${LATT:-./latt}
[ -x "$LATT" ] || make latt >/dev/null || exit 1

run() {	# name, latt arguments...
	local name=$1
	shift
	"$LATT" -q --plot="$out/$name.svg" "$@" >"$out/$name.txt" 2>&1
	echo "$name: exit $?, $(stat -c %s "$out/$name.svg") bytes"
}
run points -c4 -f1 -t3 -l cpu:1 'sleep 3'
run bands -c8 -f0 -t1 -d 4
run three -c1 -n 3 -f1 -t2 'sleep 5'
run empty -c1 -f 2s -t 2s true
run classes -c1:name=short:nice=-5 -c1:name=long:nice=5 \
    -c1:name=batch:policy=batch -c1:name=d -c1:name=e -c1:name=f \
    -c1:name=g -c1:name=h -c1:name=i -f1 -t2 -l cpu:2 'sleep 3'
run oneclass -c3:name=solo:policy=batch -f1 -t2 -l cpu:1 'sleep 2'
run frames -c2 -c1:frame=16.7ms:busy=4ms:name=video \
    -c1:frame=16.7ms:busy=4ms:nice=-5:name=video-5 -l cpu:3 'sleep 3'
run sweep -c1 -l yield:1 --sweep=load=1,2,4 -d1 --repeat=3
run longcmd -c2 -f1 -t2 -d 1 "sh -c 'for i in 1 2 3; do echo a very long command line that goes on and on; done > /dev/null; sleep 0.5; echo and on and on and on and on and on and on and on and on and on and on'"

browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	echo "no headless browser (apt-get install chromium): the SVGs are in $out"
	exit 0
fi
for f in "$out"/*.svg; do
	png=${f%.svg}.png
	"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --window-size=1000,1000 --screenshot="$png" "file://$(realpath "$f")" \
	    >/dev/null 2>&1
	[ -s "$png" ] && echo "rendered $png" || echo "could not render $f"
done
