#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Side-by-side benchmark of ./latt against the 2009 latt.

Builds the reference from its source (default ../shared/reference/latt-2009.c,
or the path given as the first argument), then runs both tools alternately
on this machine and prints ratios new / reference:

  - idle floor: mean latency at -c1 and -c8 (target <= 1.0);
  - CPU time (parent + clients, user + system) per sample at -c8 and -c500,
    in both of latt's loop modes: the closed loop (default) and --open-loop
    (target <= 0.8), and with --no-split;
  - peak resident memory of the parent (VmHWM) at -c8 and -c4096 (the
    reference silently caps clients at 512, so its -c4096 run is a 512 run);
  - the wake-up floor (bench/floor.c, run in the same alternation): the CPU per
    sample of the parent's write and the client's wake-up and read alone,
    with no stamp, no reply and no statistics. No design of this shape
    goes below it, so it says how far a CPU ratio target can be met.

The reference sleeps [min, min + max) where latt sleeps [min, max], so the
reference gets -f MIN -t (MAX - MIN) to sample at the same rate.
Usage: bench/vs-2009.py [REFERENCE.c] [--secs N] [--reps N]
"""
import argparse
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build_reference(src, out):
    if not os.path.exists(src):
        sys.exit(f"vs-2009: the reference source is missing: {src}\n"
                 "  (pass its path as the first argument)")
    subprocess.run(["cc", "-O2", "-D_GNU_SOURCE", "-include", "signal.h",
                    "-o", out, src, "-lrt", "-lm", "-lpthread"], check=True)


def default_signals():
    """A script's `cmd &` starts cmd with SIGINT and SIGQUIT ignored; the
    2009 latt ends its clients with SIGQUIT and would wait forever."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def run(cmd):
    """Runs cmd; returns (stdout, cpu seconds of it and its descendants,
    peak RSS of its main process in KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, preexec_fn=default_signals)
    hwm = 0
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                m = re.search(r"VmHWM:\s+(\d+)", f.read())
                if m:
                    hwm = max(hwm, int(m.group(1)))
        except OSError:
            pass
        time.sleep(0.05)
    out = p.stdout.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, cpu, hwm


def build_floor(out):
    subprocess.run(["cc", "-O2", "-o", out, os.path.join(HERE, "floor.c")],
                   check=True)


def parse_floor(out):
    return float(re.search(r"^cpu_per_request_us (\S+)", out, re.M).group(1))


def parse(out):
    n = int(re.search(r"^Entries: (\d+)", out, re.M).group(1))
    avg = float(re.search(r"^\tAvg\t\s*(\S+) usec", out, re.M).group(1))
    # latt's details table: the latency row's mean, the 8th figure.
    m = re.search(r"^latency +\d+(?: +\S+){6} +([0-9.]+) ", out, re.M)
    if m:
        avg = float(m.group(1))
    return n, avg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference", nargs="?",
                    default=os.path.join(ROOT, "..", "shared", "reference",
                                         "latt-2009.c"))
    ap.add_argument("--secs", type=float, default=6)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    latt = os.path.join(ROOT, "latt")
    if not os.access(latt, os.X_OK):
        sys.exit("vs-2009: build ./latt first (make)")
    tmp = tempfile.mkdtemp()
    ref = os.path.join(tmp, "latt-2009")
    build_reference(a.reference, ref)
    floor = os.path.join(tmp, "floor")
    build_floor(floor)
    resource.setrlimit(resource.RLIMIT_NOFILE, resource.getrlimit(
        resource.RLIMIT_NOFILE)[1:] * 2)
    work = f"sleep {a.secs}"

    def pair(clients, fmin, fmax, extra=()):
        new = [latt, f"-c{clients}", f"-f{fmin}", f"-t{fmax}", *extra, work]
        old = [ref, f"-c{clients}", f"-f{fmin}", f"-t{fmax - fmin}", work]
        base = [floor, str(clients), str(int(a.secs)), str(fmin), str(fmax)]
        res = {"new": [], "old": [], "floor": []}
        for _ in range(a.reps):
            for name, cmd in (("new", new), ("old", old)):
                out, cpu, hwm = run(cmd)
                n, avg = parse(out)
                res[name].append((n, avg, cpu / max(n, 1) * 1e6, hwm))
            if clients in (8, 500) and not extra:
                out, _, _ = run(base)
                res["floor"].append((0, 0, parse_floor(out), 0))
        return res

    def med(rows, i):
        return statistics.median(r[i] for r in rows)

    print(f"# {os.uname().release}, {os.cpu_count()} CPUs, "
          f"{a.reps} alternating runs of {a.secs} s each; medians")
    print(f"{'measure':38} {'latt':>12} {'2009':>12} {'ratio':>7}")
    for clients, fmin, fmax, extra in (
            (1, 10, 20, ()), (8, 10, 20, ()), (8, 10, 20, ("--open-loop",)),
            (8, 10, 20, ("--no-split",)),
            (500, 50, 100, ()), (500, 50, 100, ("--open-loop",)),
            (500, 50, 100, ("--no-split",)),
            (4096, 200, 400, ())):
        r = pair(clients, fmin, fmax, extra)
        rows = []
        mode = "".join(" " + e.lstrip("-").replace("-loop", "")
                       for e in extra)
        if clients in (1, 8) and not extra:
            rows.append((f"mean latency -c{clients} (usec)", 1))
        if clients in (8, 500):
            rows.append((f"CPU per sample -c{clients}{mode} (usec)", 2))
        if clients in (8, 4096) and not extra:
            rows.append((f"parent peak RSS -c{clients} (KiB)", 3))
        for label, i in rows:
            n, o = med(r["new"], i), med(r["old"], i)
            print(f"{label:38} {n:12.2f} {o:12.2f} {n / o if o else 0:7.3f}")
        if r["floor"]:
            f, o = med(r["floor"], 2), med(r["old"], 2)
            print(f"{'wake-up floor per sample -c%d' % clients:38} "
                  f"{f:12.2f} {o:12.2f} {f / o if o else 0:7.3f}")
        if clients == 4096:
            print("# the reference caps -c4096 at 512 clients "
                  f"(entries per run: {med(r['old'], 0):.0f} vs "
                  f"{med(r['new'], 0):.0f})")


if __name__ == "__main__":
    main()
