#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Does the runqueue-wait split move what latt measures?  Default vs --no-split.

Runs latt with its default split and with --no-split in alternating pairs
(A B, then B A, so that a drift of the machine falls on both alike), idle,
and for each pair takes the ratio default / --no-split of the wake-up
latency's p50 and mean and of the CPU time per sample (parent and clients,
user and system, from the children's rusage).  For each it prints the
geometric mean of the pairs' ratios with a 95% interval (a t interval on
the logarithms: the pairs are independent, the runs within a pair are not)
and the median, and says whether the interval lies within the target
(default 3%) of 1: "met" when it does, "not met" when it lies wholly
outside, "cannot tell" when the noise is wider than the target.

The defaults are the setting where a split read by the clients showed
most: 8 clients on a 2-CPU machine, -f1 -t3, 3 s runs.  --latt runs
another binary (a build of an earlier revision, say); --split passes a
--split=WHICH to the default side (all, to see the full split's cost).

Usage: bench/split-ab.py [--pairs N] [--secs S] [--clients N] [--min MS]
                         [--max MS] [--target F] [--latt PATH] [--split W]
"""
import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Two-sided 95% quantiles of Student's t by degrees of freedom (from 30 on
# the normal's 1.96 is within 4%).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36,
       8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14,
       15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09, 20: 2.09,
       24: 2.06, 29: 2.05}


def t95(df):
    keys = [k for k in sorted(T95) if k <= df]
    return T95[keys[-1]] if keys and df < 30 else 1.96


def one_run(cmd, path):
    """One latt run; returns (p50 us, mean us, CPU us per sample, split
    rounds / rounds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd + [f"--json={path}"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + \
        (after.ru_stime - before.ru_stime)
    with open(path) as f:
        d = json.load(f)
    lat = d["latency"]
    n = lat["samples"]
    # A latt before split_rounds split every round, when it split at all.
    split = d["run"].get("split_rounds",
                         d["run"]["rounds"] if d.get("schedstat") else 0)
    share = split / max(d["run"]["rounds"], 1)
    return lat["p50_ns"] / 1e3, lat["mean_ns"] / 1e3, cpu / n * 1e6, share


def summary(ratios):
    logs = [math.log(r) for r in ratios]
    m = statistics.fmean(logs)
    half = (t95(len(logs) - 1) * statistics.stdev(logs) /
            math.sqrt(len(logs))) if len(logs) > 1 else float("inf")
    return math.exp(m), math.exp(m - half), math.exp(m + half), \
        statistics.median(ratios)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--secs", type=float, default=3)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--min", default="1")
    ap.add_argument("--max", default="3")
    ap.add_argument("--target", type=float, default=0.03)
    ap.add_argument("--latt", default=os.path.join(ROOT, "latt"))
    ap.add_argument("--split", default=None)
    a = ap.parse_args()
    if not os.access(a.latt, os.X_OK):
        sys.exit(f"split-ab: no latt at {a.latt} (make latt)")
    base = [a.latt, f"-c{a.clients}", f"-f{a.min}", f"-t{a.max}",
            f"-d{a.secs}", "-q", "--load=none"]
    sides = {"split": base + ([f"--split={a.split}"] if a.split else []),
             "nosplit": base + ["--no-split"]}
    rows = {"split": [], "nosplit": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.json")
        for i in range(a.pairs):
            order = ("split", "nosplit") if i % 2 == 0 else \
                ("nosplit", "split")
            for side in order:
                rows[side].append(one_run(sides[side], path))
            s, o = rows["split"][-1], rows["nosplit"][-1]
            print(f"pair {i + 1:2}: p50 {s[0]:7.2f} / {o[0]:7.2f}  "
                  f"mean {s[1]:7.2f} / {o[1]:7.2f}  "
                  f"cpu/sample {s[2]:6.2f} / {o[2]:6.2f} us", flush=True)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    share = statistics.fmean(r[3] for r in rows["split"])
    print(f"# {' '.join(sides['split'][1:])} against --no-split, "
          f"{a.pairs} alternating pairs; split rounds {share:.3f} of all; "
          f"load average at the end {load}")
    print(f"{'ratio default / --no-split':28} {'geomean':>8} "
          f"{'95% interval':>17} {'median':>7}  target")
    verdicts = []
    for k, name in enumerate(("latency p50", "latency mean",
                              "CPU per sample")):
        g, lo, hi, med = summary([s[k] / o[k] for s, o in
                                  zip(rows["split"], rows["nosplit"])])
        if k < 2:
            t0, t1 = 1 - a.target, 1 + a.target
            v = "met" if t0 <= lo and hi <= t1 else \
                "not met" if hi < t0 or lo > t1 else "cannot tell"
            verdicts.append(v)
            want = f"within {a.target:.0%}: {v}"
        else:
            want = "(see vs-2009.py)"
        print(f"{name:28} {g:8.3f} {lo:8.3f}-{hi:8.3f} {med:7.3f}  {want}")
    return 0 if all(v == "met" for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
