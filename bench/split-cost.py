#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""CPU cost of the runqueue-wait split: ./latt against latt without it.

latt reads its clients' /proc/PID/schedstat before and after the rounds
of the split (1 in 8 by default; --split all measures the full split).  The target: CPU time per sample (parent + clients, user
+ system) at most 10% above latt without the split.  The peer is this same binary with
--no-split (its clients read nothing; everything else is identical), or
with --rev REV latt as it was at REV (git archive, built in a temporary
directory).  They run alternately, -f0 -t0 with no load so that the
sampling loop itself is all there is to measure; the script prints the
median ratio latt / peer for each configuration.

Usage: bench/split-cost.py [--rev REV] [--split W] [--samples N] [--reps N]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = 1.10


def build_rev(rev, tmp):
    src = os.path.join(tmp, "src")
    os.mkdir(src)
    tar = subprocess.run(["git", "-C", ROOT, "archive", rev],
                         stdout=subprocess.PIPE, check=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=tar, check=True)
    subprocess.run(["make", "-s", "-C", src, "latt", "CFLAGS=-O2 -g"],
                   check=True, stdout=subprocess.DEVNULL)
    return [os.path.join(src, "latt")]


def cpu_per_sample(latt, clients, samples):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*latt, f"-c{clients}", "-f0", "-t0", "-n", str(samples),
                    "--load=none", "-q"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime + after.ru_stime -
            before.ru_utime - before.ru_stime)
    return used / samples * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", default=None)
    ap.add_argument("--samples", type=int, default=60000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--split", default=None)
    args = ap.parse_args()
    new = os.path.join(ROOT, "latt")
    if not os.access(new, os.X_OK):
        sys.exit("split-cost: build ./latt first (make latt)")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        if args.rev is not None:
            old = build_rev(args.rev, tmp)
        else:
            old = [new, "--no-split"]
        peer = args.rev or "--no-split"
        for clients in (1, 8):
            n = args.samples // (4 if clients == 1 else 1)
            a, b = [], []
            for _ in range(args.reps):
                a.append(cpu_per_sample(old, clients, n))
                b.append(cpu_per_sample(
                    [new] + ([f"--split={args.split}"] if args.split
                             else []), clients, n))
            ratio = statistics.median(y / x for x, y in zip(a, b))
            worst = max(worst, ratio)
            print(f"-c{clients} -f0 -t0 -n{n}: CPU per sample "
                  f"{peer} {statistics.median(a):.2f} us, "
                  f"split {statistics.median(b):.2f} us, "
                  f"ratio {ratio:.3f} (target <= {TARGET:.2f}; "
                  f"median of {args.reps} alternating pairs)")
    print("within target" if worst <= TARGET else "ABOVE TARGET")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
