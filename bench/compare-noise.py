#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The empirical false-alarm rate of `latt compare` on this machine.

Runs latt itself 2*M times with identical settings, interleaved A B A B
... (so that slow drift of the machine falls on both sides alike), one
results file a run.  Then compares disjoint groups of K runs of A with
disjoint groups of K runs of B (every A group against every B group), with
`latt compare --json`, and counts, per row, how often identical settings
are called a "real difference".  A group takes every (M/K)th run, so that
each group spans the whole time of the bench as the interleaving intends
(comparisons share runs, so they are not independent trials); with
--consecutive a group is K runs in a row instead, which shows what drift
of the machine does to sides measured at different times.  Also prints the run-to-run spread of each
row's statistic (sd of its logarithm over the 2*M runs), which says what
change 5 runs a side can find here (about 3.4 times that sd).

  bench/compare-noise.py [--latt ./latt] [--runs M] [--group K[,K...]]
                         [--consecutive] [--dir DIR [--reuse]]
                         [-- LATT-OPTIONS...]

Default latt options: -q -c4 -f1 -t3 -d1 --load=none.  Nothing here is
part of make check: it takes about 2*M times the run length.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--latt", default="./latt")
    ap.add_argument("--runs", type=int, default=20, help="runs a side")
    ap.add_argument("--group", default="3,5", help="runs a side a comparison")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--consecutive", action="store_true",
                    help="groups of consecutive runs, not strided")
    ap.add_argument("--reuse", action="store_true",
                    help="keep result files already in --dir")
    ap.add_argument("opts", nargs="*")
    a = ap.parse_args()
    opts = a.opts or ["-q", "-c4", "-f1", "-t3", "-d1", "--load=none"]
    d = a.dir or tempfile.mkdtemp(prefix="latt-noise-")
    os.makedirs(d, exist_ok=True)
    files = {"A": [], "B": []}
    for i in range(a.runs):
        for side in "AB":
            f = os.path.join(d, "%s%02d.json" % (side.lower(), i))
            files[side].append(f)
            if a.reuse and os.path.exists(f):
                continue
            r = subprocess.run([a.latt] + opts + ["--json=" + f],
                               stdout=subprocess.DEVNULL)
            if r.returncode != 0:
                sys.exit("latt exited %d for %s" % (r.returncode, f))
        print("\rran %d of %d pairs" % (i + 1, a.runs), end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)

    # The spread of each row's statistic from run to run.
    keys = {"mean": "mean_ns", "p50": "p50_ns", "p90": "p90_ns",
            "p99": "p99_ns", "max": "max_ns"}
    print("settings: latt %s" % " ".join(opts))
    print("run-to-run sd of log(statistic) over %d runs:" % (2 * a.runs))
    for series in ("latency", "timer"):
        for st, k in keys.items():
            v = [math.log(max(1, json.load(open(f))["runs"][0][series][k]))
                 for f in files["A"] + files["B"]]
            m = sum(v) / len(v)
            sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
            print("  %-14s %.3f" % (series + "." + st, sd))

    total_real = total_rows = 0
    for k in (int(x) for x in a.group.split(",")):
        g = a.runs // k
        if a.consecutive:
            ga = [files["A"][j * k:(j + 1) * k] for j in range(g)]
            gb = [files["B"][j * k:(j + 1) * k] for j in range(g)]
        else:
            ga = [files["A"][j::g][:k] for j in range(g)]
            gb = [files["B"][j::g][:k] for j in range(g)]
        real, seen, inconcl = {}, {}, 0
        for x in ga:
            for y in gb:
                r = subprocess.run([a.latt, "compare", "--json",
                                    ",".join(x), ",".join(y)],
                                   capture_output=True, text=True)
                if r.returncode not in (0, 3):
                    sys.exit("compare: " + r.stderr)
                for row in json.loads(r.stdout)["comparisons"][0]["rows"]:
                    if row["verdict"] == "cannot tell":
                        inconcl += 1
                        continue
                    seen[row["row"]] = seen.get(row["row"], 0) + 1
                    real[row["row"]] = real.get(row["row"], 0) + \
                        (row["verdict"] in ("worse", "better"))
        n = len(ga) * len(gb)
        print("%d runs a side: %d comparisons (%d A groups x %d B groups), "
              "%d inconclusive rows" % (k, n, len(ga), len(gb), inconcl))
        for row in seen:
            print("  %-14s called real %2d of %2d  (%.1f%%)" % (
                row, real[row], seen[row], 100.0 * real[row] / seen[row]))
        tr, tn = sum(real.values()), sum(seen.values())
        total_real += tr
        total_rows += tn
        print("  all rows: %d of %d (%.1f%%)" % (tr, tn,
              100.0 * tr / tn if tn else 0))
    print("false alarms over every row and group size: %d of %d (%.1f%%)"
          % (total_real, total_rows,
             100.0 * total_real / total_rows if total_rows else 0))
    print("files kept in %s" % d)


main()
