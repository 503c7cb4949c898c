#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Client classes, the 2009 question asked of EEVDF: does a class of clients
# with a short slice (slice=100us) wake faster than the default class, in
# the same rounds, under a cpu load and under a real parallel build?
#
# Each scenario is one latt with --repeat=RUNS (default 5) runs of two
# classes of four clients, -f1 -t3, SECS seconds each (default 10).  The
# results file is split into one file per class (the class's series
# becomes the latency of the file and of every run), and `latt compare`
# judges default (A) against short (B) over the runs, so run-to-run noise
# is part of the verdict.  (latt compare on two such files unsplit gives
# per-class rows instead: each class of A against the same class of B.)
#
# Measured on the 2-core development VM (Linux 6.18, shared with other
# jobs), 5 runs of 10 s a scenario, default (A) against short (B):
#   --load=cpu: p50 -46% [-69%, -6%], p90 -29% [-46%, -7%], p95 -27%
#               [-45%, -2%]: real differences; p99 -73% [-95%, +42%],
#               mean, p99.9, max: noise.
#   build:      p50 -42% [-65%, -7%], p90 -22% [-32%, -10%]: real; p95
#               -23%, p99 -45% [-92%, +301%], p99.9, max: noise.
#
# The build is latt's own source, copied to a temporary directory and
# built with make -j4 over and over (cc1 processes, a real compiler load).
#
# Usage: bench/classes.sh [RUNS] [SECS]    (from the top of the source)
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
SECS=${2:-10}
LATT=./latt
[ -x "$LATT" ] || make -s latt
TMP=$(mktemp -d /tmp/latt-bench-classes.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# split RUN.json: RUN.short.json and RUN.default.json, one class each:
# the class's series becomes the latency of the file and of each run.
split() {
	python3 - "$1" <<'EOF'
import json, sys
path = sys.argv[1]
d = json.load(open(path))
for c in d["classes"]:
    e = dict(d, latency=c["latency"], classes=[])
    e.pop("timer", None)    # the parent's, the same for both classes
    e["parameters"] = dict(d["parameters"], clients=c["clients"])
    e["runs"] = []
    for r in d.get("runs", []):
        rc = [k for k in r["classes"] if k["name"] == c["name"]][0]
        r = dict(r, latency=rc["latency"], classes=[])
        r.pop("timer", None)
        e["runs"].append(r)
    json.dump(e, open(path[:-5] + "." + c["name"] + ".json", "w"))
EOF
}

# scenario NAME LATT-ARGS...: RUNS runs in one latt (--repeat), split,
# compared.
scenario() {
	local name=$1
	shift
	echo "== $name: $RUNS runs of $SECS s, -c4:slice=100us:name=short -c4:name=default"
	"$LATT" -q -c4:slice=100us:name=short -c4:name=default -f1 -t3 \
	    -d "$SECS" --repeat="$RUNS" --json="$TMP/$name.json" "$@" \
	    >"$TMP/$name.txt"
	split "$TMP/$name.json"
	# The rows of the two classes in the summary of all runs.
	grep -E '^\(us\) |^(short|default) ' "$TMP/$name.txt"
	echo "-- latt compare default (A) short (B), $RUNS runs a side"
	"$LATT" compare "$TMP/$name.default.json" "$TMP/$name.short.json" |
	    sed "s#$TMP/##g" || true
}

scenario cpu --load=cpu
mkdir -p "$TMP/build"
cp Makefile ./*.c ./*.h "$TMP/build/"
scenario build "while :; do make -s -C $TMP/build clean; make -s -j4 -C $TMP/build latt >/dev/null 2>&1; done"
