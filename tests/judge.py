#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The one judge of the suite's timing relations (tests/lib.sh's
verdict_timed is its shell twin, and calls it).

A timing relation (a latency up, a share of the CPU, a count of samples
over time) holds only when the machine leaves the test its CPUs.  The
judge reads what the run itself recorded (latt's JSON: each run's
"machine" record and "counts") and says whether the relation could be
judged:

  - too few samples: a run has fewer latency samples than the check needs;
  - crowded: other processes took FOREIGN_MAX % of the CPUs or more, or
    procs_running was above the CPUs plus what the test itself runs.

judge(runs, need, own) returns None when the runs could judge the
relation; else ("SKIP", why) when they were crowded, why the measured
reason ("others took 61% of the CPUs; procs_running 14.2 on 2 CPUs",
with the samples when they were short too); else ("FAIL", why) when a
quiet run took too few samples: that is the failure, named as it is.  A
relation that fails on runs that could judge it is a FAIL; a relation
that holds is a PASS whatever the load.

Usage: tests/judge.py FILE.json [NEED [OWN]]: prints "SKIP why" or
"FAIL why", or nothing when the runs could judge the relation.
"""
import json
import os
import sys

FOREIGN_MAX = 20.0      # % of all the CPUs taken by others
NCPUS = len(os.sched_getaffinity(0))


def runs_of(d):
    """The runs of a results file: its "runs", or the run it is."""
    return d.get("runs") or [d]


def judge(runs, need=0, own=0):
    """None, ("SKIP", why) or ("FAIL", why), as above.  need: the latency
    samples a run needs; own: the runnable tasks the test itself adds
    beside latt (its hog, its spinners)."""
    why = []
    m = [r.get("machine") or {} for r in runs]
    f = [x["foreign_cpu_pct"] for x in m
         if x.get("foreign_cpu_pct") is not None]
    if f and max(f) >= FOREIGN_MAX:
        why.append("others took %.0f%% of the CPUs" % max(f))
    q = [(r.get("counts") or {}).get("runnable_mean") for r in runs]
    q = [x for x in q if x is not None]
    # latt's parent and one client running at once, the test's own, and
    # two more for the tools of the test itself.
    if q and max(q) > NCPUS + own + 2:
        why.append("procs_running %.1f on %d CPUs" % (max(q), NCPUS))
    short = [r["latency"]["samples"] for r in runs
             if r.get("latency") and r["latency"]["samples"] < need]
    if short:
        why.append("a run has %d latency samples, the check needs %d"
                   % (min(short), need))
    if not why:
        return None
    return ("SKIP" if len(why) > len(short[:1]) else "FAIL", "; ".join(why))


def main():
    d = json.load(open(sys.argv[1]))
    need = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    own = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    r = judge(runs_of(d), need, own)
    if r:
        print("%s %s" % r)


if __name__ == "__main__":
    main()
