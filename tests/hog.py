# SPDX-License-Identifier: GPL-2.0-only
"""A SCHED_FIFO hog for the timing tests: pinned to CPU, at priority PRIO
(default 50), it spins H ms of every P ms for S seconds, then exits.
Prints "ready" once it holds its CPU and policy; exits 3 when it cannot
take them.

Usage: python3 tests/hog.py CPU H_MS P_MS SECONDS [PRIO]
"""
import os
import sys
import time

cpu, h, p, secs = (int(sys.argv[1]), float(sys.argv[2]) / 1e3,
                   float(sys.argv[3]) / 1e3, float(sys.argv[4]))
prio = int(sys.argv[5]) if len(sys.argv) > 5 else 50
try:
    os.sched_setaffinity(0, {cpu})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
except OSError as e:
    print("hog: %s" % e, file=sys.stderr)
    sys.exit(3)
print("ready", flush=True)
start = time.monotonic()
k = 0
while k * p <= secs:
    t0 = start + k * p
    while time.monotonic() < t0 + h:
        pass
    k += 1
    d = start + k * p - time.monotonic()
    if d > 0:
        time.sleep(d)
