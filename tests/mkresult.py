#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes a latt results file (docs/json-schema.md, schema_version 1) from a
known synthetic distribution, so that the tests of `latt compare` do not
depend on latt's own writer.

Samples are lognormal (median MEDIAN_NS, shape SIGMA) times SCALE, from a
seeded generator; SEEDS may list several seeds, whose samples are
concatenated (the file of several runs merged by hand).

  mkresult.py OUT [--n N] [--seeds S1,S2] [--scale X] [--median NS]
              [--sigma S] [--sub-bits B] [--timer] [--set obj.key=JSON]

Without arguments it reads one such argument list per line from stdin
(shell words), so that one start of Python writes many files.
"""
import argparse
import json
import math
import random
import shlex
import sys

HIST_MAX_BITS = 43


def index(v, b):
    s = 1 << b
    if v < 0:
        return 0
    if v < 2 * s:
        return v
    g = v.bit_length() - 1
    return 2 * s + (g - b - 1) * s + ((v >> (g - b)) - s)


def lower(i, b):
    s = 1 << b
    if i < 2 * s:
        return i
    k = i - 2 * s
    return (s + k % s) << (k // s + 1)


def upper(i, b):
    s = 1 << b
    if i < 2 * s:
        return i
    k = i - 2 * s
    shift = k // s + 1
    return ((s + k % s) << shift) + (1 << shift) - 1


def series(samples, b):
    counts = {}
    overflow = 0
    for v in samples:
        if v >= 1 << HIST_MAX_BITS:
            overflow += 1
            continue
        i = index(v, b)
        counts[i] = counts.get(i, 0) + 1
    n = len(samples)
    srt = sorted(samples)

    def pct(q):
        return srt[max(0, math.ceil(q * n) - 1)]
    mean = sum(samples) / n
    return {
        "samples": n, "overflow": overflow,
        "min_ns": srt[0], "max_ns": srt[-1], "max_client": 0,
        "max_at_ns": 1000, "mean_ns": mean, "stdev_ns": 0.0,
        "stderr_ns": 0.0, "p50_ns": pct(0.5), "p90_ns": pct(0.9),
        "p99_ns": pct(0.99), "p99_9_ns": pct(0.999),
        "p99_99_ns": pct(0.9999),
        "histogram": {"sub_bits": b, "buckets": [
            [lower(i, b), upper(i, b), c] for i, c in sorted(counts.items())]},
    }


def draw(seed, n, median, sigma, scale):
    rnd = random.Random(seed)
    return [max(0, int(median * scale * math.exp(rnd.gauss(0, sigma))))
            for _ in range(n)]


def make(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--median", type=float, default=20000)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--sub-bits", type=int, default=9)
    ap.add_argument("--timer", action="store_true")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args(argv)

    lat, tim = [], []
    for s in a.seeds.split(","):
        lat += draw(int(s), a.n, a.median, a.sigma, a.scale)
        tim += draw(int(s) + 1000, a.n, a.median / 2, a.sigma, a.scale)
    doc = {
        "schema_version": 1, "tool": "latt", "version": "1.0",
        "parameters": {
            "clients": 8, "min_delay_ns": 100000000,
            "max_delay_ns": 500000000, "seed": 12345,
            "command": "make -j4", "argv": ["make", "-j4"], "loads": [],
            "duration_ns": None, "samples_limit": None, "work_kb": None},
        "environment": {
            "kernel_release": "6.1.0-test", "kernel_version": "#1 SMP",
            "machine": "x86_64", "hostname": "vm", "cpus_online": 2,
            "clocksource": "tsc", "cmdline": None, "preemption": None,
            "timer_slack_ns": 50000, "latt_version": "1.0"},
        "workload": {"status": "exited", "exit_code": 0, "signal": None,
                     "wall_ns": 30012345678},
        "run": {"wall_ns": 30013000000, "rounds": 82,
                "ended_by": "workload"},
        "latency": series(lat, a.sub_bits),
        "per_client": [],
    }
    if a.timer:
        doc["timer"] = series(tim, a.sub_bits)
        doc["timer"]["max_client"] = None
    for s in a.set:
        path, val = s.split("=", 1)
        obj, key = path.split(".", 1)
        doc[obj][key] = json.loads(val)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    if len(sys.argv) > 1:
        make(sys.argv[1:])
        return
    for line in sys.stdin:
        if line.strip():
            make(shlex.split(line))


main()
