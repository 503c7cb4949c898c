#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The power of `latt compare --by-knob` on this machine: what change it
finds with how many runs, and how often it calls identical settings
different.

A plain file stands for a kernel knob.  The workload, this script run as
`--hog`, reads the file as latt wrote it and runs a SCHED_FIFO hog (chrt
-f) of D ms in every 50 ms, pinned to the clients' CPU, until latt ends
it at -d (or its parent goes away); D = 0 runs no hog, the process only
sleeps.  Each try is one `latt --sweep=FILE=0,D --repeat=R`, the two values
interleaved run by run (0 D 0 D ...); at D = 0 the sweep is FILE=0,0.0
(latt refuses a value given twice), A against A.

Two phases, so that the long measurement happens once and any number of
compare rules can judge it:

  bench/power.py --collect DIR --latt ./latt [--tries 10] [--ds 0,0.5,1,2,5]
                 [--runs 10] [--secs 2] [-- LATT-OPTIONS...]
      runs the tries (tries outermost, so that drift of the machine falls
      on every D alike) and keeps one JSON file a try and a D in DIR, with
      DIR/power.json saying how they were made.  A collection cut short
      goes on where it stopped when run again with the same DIR.

  bench/power.py --judge DIR --old OLD_LATT [--new NEW_LATT] [--rs 3,5,10]
      judges every file with each binary's `latt compare --by-knob --json`
      and prints the tables (markdown): how often each latency row is
      called worse (the power), and at D = 0 how often each row is called
      different (false alarms), the old rule and the new side by side.
      R below the collected runs a side is judged on the first R pairs of
      each sweep (a trimmed copy of the file: its first 2R runs and each
      value's first R), not on sweeps of R runs of their own.

--collect and --judge may be given together.  Default latt options: -q
-c4 -f1 -t3 --cpus=C --parent-cpu=P --prio=80, C the highest CPU this
script may use, P the lowest: SCHED_FIFO clients below the hog and above
everything else, so that the hog, not the load of the machine's other
users, is what B adds (options after -- replace them all; latt adds -d,
--warmup, --repeat, --sweep and --json).  Each run is --secs long after
a warm-up of 0.25 s that lets the hog start.  The full collection (5 D, 10 tries, 10 runs a side of
2 s) takes about 40 minutes and wants the machine's CPUs to itself.
Nothing here is part of make check.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

PERIOD_MS = 50          # the hog's period
HOG_PRIO = 90           # its SCHED_FIFO priority (chrt -f)
CLIENT_PRIO = 80        # the clients' SCHED_FIFO priority, below the hog
WARMUP = 0.25           # s of each run not counted: the hog's start-up
LAT_ROWS = ["mean", "p50", "p90", "p95", "p99", "p99.9", "max"]
# Words that call a row different, in either vocabulary of compare's JSON.
DIFFERENT = {"worse", "better", "higher", "lower", "more", "less", "changed",
             "real"}


def die(msg):
    print("power.py: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------
# The workload: `chrt -f 90 python3 power.py --hog FILE CPU LIMIT`.

def hog(knob, cpu, limit):
    """Spins D ms (the file's number) of every PERIOD_MS ms on cpu, for at
    most limit s or until its parent (latt) is gone; D = 0 only sleeps."""
    d = float(open(knob).read().strip() or "0") / 1e3
    os.sched_setaffinity(0, {cpu})
    if os.sched_getscheduler(0) != os.SCHED_FIFO:
        print("power.py --hog: not SCHED_FIFO (run it under chrt -f)",
              file=sys.stderr)
        sys.exit(3)
    parent, p = os.getppid(), PERIOD_MS / 1e3
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < limit and os.getppid() == parent:
        t0 = start + k * p
        while d > 0 and time.monotonic() < t0 + d:
            pass
        k += 1
        left = start + k * p - time.monotonic()
        if left > 0:
            time.sleep(left)


# ---------------------------------------------------------------------------
# Collection.

def cpus_two():
    c = sorted(os.sched_getaffinity(0))
    if len(c) < 2:
        die("needs two CPUs (the clients and the hog on one, latt on the "
            "other); this process may use %s" % c)
    return c[0], c[-1]


def check_binary(path, what):
    if not path:
        die("%s: no latt binary given" % what)
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        die("%s: %s is not an executable file (build it: make)" %
            (what, path))
    return os.path.abspath(path)


def check_hog_can_run():
    if shutil.which("chrt") is None:
        die("chrt is missing (util-linux): the hog runs under chrt -f")
    r = subprocess.run(["chrt", "-f", str(HOG_PRIO), "true"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        die("chrt -f %d refused (%s): the hog needs SCHED_FIFO "
            "(root or CAP_SYS_NICE, RLIMIT_RTPRIO)" %
            (HOG_PRIO, r.stderr.strip() or "status %d" % r.returncode))
    try:
        rt = int(open("/proc/sys/kernel/sched_rt_runtime_us").read())
        per = int(open("/proc/sys/kernel/sched_rt_period_us").read())
    except OSError:
        return
    if rt == 0:
        die("RT throttling allows no real-time time (sched_rt_runtime_us "
            "is 0): the hog cannot run")
    return rt, per


def b_value(d):
    """The sweep's second value for D: D as given, 0.0 for 0."""
    return "0.0" if d == "0" else d


def file_name(d, t):
    return "d%s-t%02d.json" % (d, t)


def save_meta(path, meta):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1)
    os.replace(tmp, path)


def collect(a, opts):
    latt = check_binary(a.latt, "--latt")
    check_hog_can_run()
    c0, c1 = cpus_two()
    ds = a.ds.split(",")
    for d in ds:
        try:
            x = float(d)
        except ValueError:
            x = -1
        if not 0 <= x <= PERIOD_MS / 2 or d != d.strip():
            die("--ds: %r is not a hog time in ms from 0 to %d" %
                (d, PERIOD_MS // 2))
    if len(set(ds)) != len(ds):
        die("--ds: a D is given twice: %s" % a.ds)
    os.makedirs(a.collect, exist_ok=True)
    meta_path = os.path.join(a.collect, "power.json")
    knob = os.path.join(a.collect, "knob")
    if not opts:
        opts = ["-q", "-c4", "-f1", "-t3", "--cpus=%d" % c1,
                "--parent-cpu=%d" % c0, "--prio=%d" % CLIENT_PRIO]
    meta = {"latt": latt, "version": subprocess.run(
                [latt, "-V"], capture_output=True, text=True).stdout.strip(),
            "options": opts, "ds": ds, "tries": a.tries, "runs": a.runs,
            "secs": a.secs, "hog_cpu": c1, "period_ms": PERIOD_MS,
            "hog_prio": HOG_PRIO, "started": time.strftime(
                "%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "files": []}
    if os.path.exists(meta_path):
        old = json.load(open(meta_path))
        for k in ("options", "runs", "secs"):
            if old[k] != meta[k]:
                die("%s holds a collection with other %s (%s): use another "
                    "DIR" % (meta_path, k, old[k]))
        meta["files"] = old["files"]
        meta["started"] = old["started"]
    done = {(f["d"], f["try"]) for f in meta["files"]}
    with open(knob, "w") as f:
        f.write("0")
    me = os.path.abspath(__file__)
    n, total = 0, a.tries * len(ds)
    for t in range(1, a.tries + 1):
        for d in ds:
            n += 1
            out = os.path.join(a.collect, file_name(d, t))
            if (d, t) in done and os.path.exists(out):
                continue
            cmd = [latt] + opts + [
                "-d%g" % (a.secs + WARMUP), "--warmup=%g" % WARMUP,
                "--repeat=%d" % a.runs,
                "--sweep=%s=0,%s" % (knob, b_value(d)), "--json=" + out,
                "--", "chrt", "-f", str(HOG_PRIO), sys.executable, me,
                "--hog", knob, str(c1), "%g" % (a.secs + 10)]
            t0 = time.monotonic()
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            # The knob's warning (a file outside /proc/sys) is expected.
            err = [x for x in r.stderr.splitlines()
                   if "outside /proc/sys" not in x]
            if r.returncode != 0:
                die("latt exited %d for D=%s, try %d: %s\n  command: %s" %
                    (r.returncode, d, t, " | ".join(err[-5:]),
                     " ".join(cmd)))
            meta["files"].append({
                "d": d, "try": t, "file": file_name(d, t),
                "secs": round(time.monotonic() - t0, 1),
                "loadavg": open("/proc/loadavg").read().split()[:3],
                "finished": time.strftime("%H:%M:%S", time.gmtime())})
            save_meta(meta_path, meta)
            print("%s: %d of %d sweeps (D=%s, try %d) in %.0f s, load %s" %
                  (time.strftime("%H:%M:%S"), n, total, d, t,
                   time.monotonic() - t0, " ".join(meta["files"][-1]
                                                   ["loadavg"])),
                  file=sys.stderr, flush=True)
    meta["ended"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    save_meta(meta_path, meta)


# ---------------------------------------------------------------------------
# Judging.

def trimmed(src, r, tmpdir):
    """src itself when it holds r runs a value; else a copy of its first r
    pairs (the top level's first 2r runs, each point's first r)."""
    d = json.load(open(src))
    pts = d["sweep"]["points"]
    if all(len(p["runs"]) == r for p in pts):
        return src
    if any(len(p["runs"]) < r for p in pts):
        die("%s holds %s runs a value, fewer than %d" %
            (src, [len(p["runs"]) for p in pts], r))
    for p in pts:
        p["runs"] = p["runs"][:r]
        p["nruns"] = r
    d["runs"] = d["runs"][:r * len(pts)]
    d["nruns"] = len(d["runs"])
    out = os.path.join(tmpdir, "r%d-%s" % (r, os.path.basename(src)))
    with open(out, "w") as f:
        json.dump(d, f)
    return out


def word(row):
    """What compare called a row: worse, better, different (higher, ...),
    same (noise) or none (cannot tell, info), from the JSON of either
    vocabulary (verdict real/noise/inconclusive with a worse flag, or
    the table's words)."""
    w = row.get("word") or row.get("verdict")
    if w == "real":
        w = "worse" if row.get("worse") else "better"
    if w in ("worse", "better"):
        return w
    if w in DIFFERENT:
        return "different"
    return "same" if w == "noise" else "none"


def judged_rows(c):
    """Every row of one comparison of compare's JSON: (label, word)."""
    out = []
    for r in c.get("rows") or []:
        label = r.get("stat") or r["row"] if r.get("series") == "latency" \
            else r["row"]
        out.append((label, word(r), r))
    for key in ("counts", "workload", "order"):
        v = c.get(key)
        for r in (v if isinstance(v, list) else [v] if v else []):
            out.append(("%s.%s" % (key, r.get("row") or r.get("name") or
                                   key), word(r), r))
    return out


def compare(latt, path):
    r = subprocess.run([latt, "compare", "--by-knob", "--json", path],
                       capture_output=True, text=True)
    if r.returncode not in (0, 3, 5):
        die("%s compare --by-knob %s: status %d: %s" %
            (latt, path, r.returncode, r.stderr.strip()[:300]))
    return json.loads(r.stdout)["comparisons"][0]


def binary_key(latt):
    """A binary as the cache knows it: its path, size and time."""
    st = os.stat(latt)
    return "%s|%d|%d" % (latt, st.st_size, st.st_mtime_ns)


def judge(a):
    meta_path = os.path.join(a.judge, "power.json")
    if not os.path.exists(meta_path):
        die("%s: no collection here (no power.json; make one with "
            "--collect DIR --latt BINARY)" % a.judge)
    meta = json.load(open(meta_path))
    rules = [("old", check_binary(a.old, "--old"))]
    if a.new:
        rules.append(("new", check_binary(a.new, "--new")))
    if a.rs:
        rs = [int(x) for x in a.rs.split(",")]
    else:
        rs = [r for r in (3, 5) if r < meta["runs"]] + [meta["runs"]]
    if any(r < 1 or r > meta["runs"] for r in rs):
        die("--rs: %s: the collection has %d runs a side" %
            (a.rs, meta["runs"]))
    ds = [d for d in meta["ds"]
          if any(f["d"] == d for f in meta["files"])]
    tries = {d: sorted(f["try"] for f in meta["files"] if f["d"] == d)
             for d in ds}
    # What each binary said of each file and R, kept in DIR/judged.json:
    # judging again (more tries collected, another binary) asks compare
    # only what it was not asked yet.
    cache_path = os.path.join(a.judge, "judged.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) \
        else {}
    keys = {name: binary_key(latt) for name, latt in rules}
    tmp = tempfile.mkdtemp(prefix="latt-power-")
    # res[rule][(d, r)] = list over tries of {label: word}; chg likewise
    # of the latency rows' change_pct.
    res = {n: {} for n, _ in rules}
    chg = {n: {} for n, _ in rules}
    tests = {n: set() for n, _ in rules}
    asked = 0
    try:
        for d in ds:
            for t in tries[d]:
                src = os.path.join(a.judge, file_name(d, t))
                for r in rs:
                    p = None
                    for name, latt in rules:
                        k = "%s|%s|%d" % (keys[name], file_name(d, t), r)
                        if k not in cache:
                            p = p or trimmed(src, r, tmp)
                            rows = judged_rows(compare(latt, p))
                            cache[k] = {
                                "words": {lab: w for lab, w, _ in rows},
                                "changes": {lab: x.get("change_pct")
                                            for lab, _, x in rows
                                            if lab in LAT_ROWS},
                                "tests": sorted({x["test"] for _, _, x in
                                                 rows if x.get("test")})}
                            save_meta(cache_path, cache)
                            asked += 1
                            print("\rcompare asked %d times" % asked,
                                  end="", file=sys.stderr, flush=True)
                        res[name].setdefault((d, r), []).append(
                            cache[k]["words"])
                        chg[name].setdefault((d, r), []).append(
                            cache[k]["changes"])
                        tests[name].update(cache[k]["tests"])
                    if p and p != src:
                        os.unlink(p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if asked:
        print(file=sys.stderr)
    report(meta, rules, rs, ds, tries, res, chg, tests)


def count(tries, label, want):
    return sum(1 for x in tries if x.get(label) in want)


def median(v):
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def report(meta, rules, rs, ds, tries, res, chg, tests):
    names = [n for n, _ in rules]
    side = " / ".join(names)
    print("Collection: %s; %s runs a side of %g s, tries %s; latt %s %s" %
          (meta["started"], meta["runs"], meta["secs"],
           ", ".join("D=%s: %d" % (d, len(tries[d])) for d in ds),
           meta.get("version", ""), " ".join(meta["options"])))
    print("Hog: SCHED_FIFO %d, D ms of every %d ms on CPU %d (the "
          "clients'); D=0: sweep 0,0.0, no hog." %
          (meta["hog_prio"], meta["period_ms"], meta["hog_cpu"]))
    for n, latt in rules:
        print("Rule %s: %s compare --by-knob%s" %
              (n, latt, " (tests: %s)" % ", ".join(sorted(tests[n]))
               if tests[n] else ""))
    below = [r for r in rs if r < meta["runs"]]
    if below:
        print("R=%s judged on the first %s pairs of each %d-run sweep, "
              "not on sweeps of their own." %
              (",".join(map(str, below)), ",".join(map(str, below)),
               meta["runs"]))

    print("\nPower: tries in which compare called the latency row worse "
          "(%s)\n" % side)
    print("| D ms | R | " + " | ".join(LAT_ROWS) + " | p99 or mean |")
    print("|---|---|" + "---|" * (len(LAT_ROWS) + 1))
    for d in ds:
        if d == "0":
            continue
        for r in rs:
            cells = []
            for lab in LAT_ROWS + ["p99|mean"]:
                v = []
                for n in names:
                    t = res[n][(d, r)]
                    if lab == "p99|mean":
                        k = sum(1 for x in t if "worse" in
                                (x.get("p99"), x.get("mean")))
                    else:
                        k = count(t, lab, ("worse",))
                    v.append(str(k))
                cells.append("/".join(v) + ("" if lab != "p99|mean" else
                                            " of %d" % len(t)))
            print("| %s | %d | %s |" % (d, r, " | ".join(cells)))
    print("\nMedian change over the tries (%s, R=%d): " %
          (names[0], max(rs)) + "; ".join(
              "D=%s mean %s, p99 %s" % (d, pct(median(
                  [x.get("mean") for x in chg[names[0]][(d, max(rs))]])),
                  pct(median([x.get("p99") for x in
                              chg[names[0]][(d, max(rs))]])))
              for d in ds))

    fa = {}
    if "0" in ds:
        print("\nFalse alarms at D=0 (A against A): tries in which the row "
              "was called different (%s)\n" % side)
        print("| R | " + " | ".join(LAT_ROWS) + " | any other row |")
        print("|---|" + "---|" * (len(LAT_ROWS) + 1))
        for r in rs:
            cells = []
            for lab in LAT_ROWS + ["other"]:
                v = []
                for n in names:
                    t = res[n][("0", r)]
                    if lab == "other":
                        k = sum(1 for x in t if any(
                            w in ("worse", "better", "different")
                            for l2, w in x.items() if l2 not in LAT_ROWS))
                    else:
                        k = count(t, lab, ("worse", "better",
                                           "different"))
                    v.append(str(k))
                cells.append("/".join(v))
            print("| %d | %s of %d |" % (r, " | ".join(cells),
                                         len(res[names[0]][("0", r)])))
        for n in names:
            per = {}
            for r in rs:
                for x in res[n][("0", r)]:
                    for lab, w in x.items():
                        per.setdefault(lab, [0, 0])
                        per[lab][1] += 1
                        per[lab][0] += w in ("worse", "better", "different")
            fa[n] = per
            worst = sorted(per.items(), key=lambda kv: -kv[1][0])
            print("%s: rows called different at D=0, over every R: %s" %
                  (n, ", ".join("%s %d of %d" % (lab, k, m)
                                for lab, (k, m) in worst if k) or "none"))

    print("\nTargets (issue 37), R=5:")
    for n in names:
        if fa.get(n):
            w = max(k / m for k, m in fa[n].values())
            print("  %s: false alarms at most 1 in 20 a row: %s (worst "
                  "row %.0f%%)" % (n, "met" if w <= 0.05 else "not met",
                                   100 * w))
        if ("2", 5) in res[n]:
            t = res[n][("2", 5)]
            k = sum(1 for x in t if "worse" in (x.get("p99"), x.get("mean")))
            print("  %s: a 2 ms hog found in p99 or the mean %d of %d "
                  "(target 9 of 10): %s" % (n, k, len(t), "met" if
                                            k >= 0.9 * len(t) else
                                            "not met"))
    small = {}
    for n in names:
        small[n] = None
        for d in sorted((d for d in ds if d != "0"), key=float):
            t = res[n].get((d, 5))
            if t and sum(1 for x in t if "worse" in
                         (x.get("p99"), x.get("mean"))) >= 0.9 * len(t):
                small[n] = d
                break
        print("  %s: the smallest D found 9 times in 10 at R=5 (p99 or "
              "mean): %s" % (n, small[n] + " ms" if small[n] else
                             "none of those tried"))
    if len(names) == 2:
        o, w = small[names[0]], small[names[1]]
        print("  new at most half of old: %s" % (
            "met" if w and (not o or float(w) <= float(o) / 2) else
            "not met" if w and o else "cannot tell (%s found none)" %
            ("new" if not w else "old")))


def pct(x):
    return "-" if x is None else "%+.0f%%" % x


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--hog":
        if len(sys.argv) != 5:
            die("--hog FILE CPU LIMIT_S")
        hog(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(
        description="the power of latt compare --by-knob (see the top of "
        "this file)")
    ap.add_argument("--collect", metavar="DIR")
    ap.add_argument("--latt", help="the latt that measures (--collect)")
    ap.add_argument("--tries", type=int, default=10)
    ap.add_argument("--ds", default="0,0.5,1,2,5",
                    help="hog ms of every 50 ms")
    ap.add_argument("--runs", type=int, default=10, help="runs a side")
    ap.add_argument("--secs", type=float, default=2.0, help="a run's -d")
    ap.add_argument("--judge", metavar="DIR")
    ap.add_argument("--old", help="the latt whose compare is the old rule")
    ap.add_argument("--new", help="the latt whose compare is the new rule")
    ap.add_argument("--rs", help="runs a side judged (3, 5 and those "
                    "collected)")
    ap.add_argument("opts", nargs="*", help="latt's options (after --)")
    a = ap.parse_args()
    if not a.collect and not a.judge:
        die("nothing to do: give --collect DIR --latt BINARY, or --judge "
            "DIR --old BINARY [--new BINARY]")
    if a.collect and a.old and not a.judge:
        a.judge = a.collect
    if a.collect:
        if a.tries < 1 or a.runs < 3 or a.secs <= 0:
            die("--tries needs 1 or more, --runs 3 or more (a verdict "
                "needs 3 runs a side), --secs more than 0")
        collect(a, a.opts)
    elif a.opts:
        die("latt options (%s) go with --collect" % " ".join(a.opts))
    if a.judge:
        judge(a)


if __name__ == "__main__":
    main()
