#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes a latt results file (docs/json-schema.md) from a known synthetic
model, so that the tests of `latt compare` do not depend on latt's own
writer.

Schema 2 (the default): one run per seed of SEEDS, each of N samples in
rounds of CLIENTS; a sample's log latency is log(MEDIAN_NS * SCALE) + the
run's drift (normal, sd RUN_SD) + the round's shared part + its own part
(normal, the two splitting SIGMA^2 as 0.47 : 0.53, the within-round
correlation of real logs).

Schema 1 (--schema 1): one lognormal run, the samples of all SEEDS
concatenated: the files of latt 1.0.

  mkresult.py OUT [--n N] [--seeds S1,S2] [--scale X] [--median NS]
              [--sigma S] [--run-sd S] [--clients C] [--sub-bits B]
              [--timer] [--schema 1|2] [--set obj.key=JSON]
              [--noisy PCT] [--class NAME]

--noisy marks every run noisy, others taking PCT + its seed percent of
the CPUs; --class gives every run a class NAME whose samples are the
run's latency's.

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
START = 1796000000000000000     # CLOCK_REALTIME, ns: December 2026


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


def draw_rounds(seed, n, clients, median, sigma, run_sd, scale):
    """Samples in rounds (a list of lists), the model of the docstring."""
    rnd = random.Random(seed)
    base = math.log(median * scale) + rnd.gauss(0, run_sd)
    sr, se = sigma * math.sqrt(0.47), sigma * math.sqrt(0.53)
    out = []
    for _ in range((n + clients - 1) // clients):
        r = base + rnd.gauss(0, sr)
        out.append([max(0, int(math.exp(r + rnd.gauss(0, se))))
                    for _ in range(clients)])
    return out


def run_series(rounds, b):
    return series([x for r in rounds for x in r], b)


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
    ap.add_argument("--schema", type=int, default=2)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--run-sd", type=float, default=0.04)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--noisy", type=float)
    ap.add_argument("--class", dest="cls")
    a = ap.parse_args(argv)

    lat, tim, runs = [], [], []
    for s in a.seeds.split(","):
        if a.schema == 1:
            lat += draw(int(s), a.n, a.median, a.sigma, a.scale)
            tim += draw(int(s) + 1000, a.n, a.median / 2, a.sigma, a.scale)
            continue
        rl = draw_rounds(int(s), a.n, a.clients, a.median, a.sigma,
                         a.run_sd, a.scale)
        lat += [x for r in rl for x in r]
        # A run is known by its host and start: one a seed.
        run = {"run": {"wall_ns": 1000000000, "rounds": len(rl),
                       "ended_by": "duration", "discarded": 0,
                       "started_at_ns": START + int(s) * 1000000000},
               "latency": run_series(rl, a.sub_bits)}
        if a.cls:
            run["classes"] = [{"name": a.cls, "latency": run["latency"]}]
        if a.noisy is not None:
            pct = a.noisy + int(s)
            run["machine"] = {"noisy": True, "foreign_cpu_pct": pct,
                              "why": "other processes used %g%% of the "
                              "CPUs, above 10%%" % pct}
        if a.timer:
            rt = draw_rounds(int(s) + 1000, len(rl), 1, a.median / 2,
                             a.sigma, a.run_sd, a.scale)
            tim += [x for r in rt for x in r]
            run["timer"] = run_series(rt, a.sub_bits)
            run["timer"]["max_client"] = None
        runs.append(run)
    doc = {
        "schema_version": a.schema, "tool": "latt", "version": "1.0",
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
    if a.schema == 2:
        doc["runs"] = runs
        doc["nruns"] = len(runs)
    for s in a.set:
        path, val = s.split("=", 1)
        obj, key = path.split(".", 1)
        doc[obj][key] = json.loads(val)
    with open(a.out, "w") as f:
        json.dump(doc, f)
        f.write("\n")


def main():
    if len(sys.argv) > 1:
        make(sys.argv[1:])
        return
    for line in sys.stdin:
        if line.strip():
            make(shlex.split(line))


main()
