# SPDX-License-Identifier: GPL-2.0-only
# A bounded fuzz of the option parser: a hundred random argument
# vectors from a fixed seed, built from latt's option letters and names
# (and those of options still to come), numbers in and out of range, and
# junk bytes.  Every run must end quickly (short workloads: true, -f0 -t1
# delays) with status 0, 1, 2 or 4, never crash (no death by a signal, no
# 134/139, no sanitizer report), and when it is a usage error (2) print
# exactly one line on stderr and nothing on stdout.  A failure prints the
# argument vectors that show it, quoted for bash.
#
# The parser alone is fuzzed in tests/unit_cli.c (300 vectors of the same
# kind, each parsed in a child: a fork, not a run); here fewer vectors go
# through whole runs, for what comes after the parse.
#
# Usage: LATT=./latt bash tests/t_fuzzargs.sh
#        LATT_FUZZ_SEED=N LATT_FUZZ_RUNS=N to explore beyond CI's share.
. tests/lib.sh
export LATT

runs=${LATT_FUZZ_RUNS:-100}
[ -n "${LATT_SANITIZED:-}" ] && runs=${LATT_FUZZ_RUNS:-50}
abs=$(cd "$(dirname "$LATT")" && pwd)/$(basename "$LATT")
mkdir -p "$TMP/cwd"

python3 - "$abs" "${LATT_FUZZ_SEED:-2009}" "$runs" "$TMP/cwd" <<'EOF'
import os, random, signal, subprocess, sys, time

latt, seed, runs, cwd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4]
rng = random.Random(seed)

# Options with a value, options without, names of options other branches
# are adding (unknown today, parsed tomorrow), and wrong ones.
WITH = [b"-c", b"-f", b"-t", b"-s", b"-S", b"-l", b"-x", b"--clients",
        b"--min-delay", b"--max-delay", b"--load", b"--work", b"--duration",
        b"--samples", b"--cpus", b"--policy", b"--prio", b"--cl", b"--min",
        b"--max"]
WITHOUT = [b"-v", b"-h", b"-V", b"--verbose", b"--help", b"--version", b"--",
           b"-", b"-vv", b"-vh"]
WRONG = [b"-z", b"-q", b"--bogus", b"---", b"---c", b"--=", b"--c", b"-=",
         b"--verbose=1", b"--help=x", b"-c=3"]
# Small valid numbers only, so that a valid run stays short; the rest are
# out of range or not numbers.
NUMS = [b"0", b"1", b"2", b"3", b"5", b"8", b"16", b"64", b"-1", b"-0",
        b"+5", b"05", b" 5", b"5 ", b"\t5", b"0x10", b"1e3", b"1.5", b"nan",
        b"inf", b"1000001", b"3600001", b"9223372036854775807",
        b"9223372036854775808", b"-9223372036854775809",
        b"18446744073709551616", b"99999999999999999999999999", b"1s",
        b"2ms", b"", b"cpu", b"cpu:2", b"fork:1", b"none", b"mem:1",
        b"pipe:1", b"syscall", b"yield:1", b"cpu:", b":", b"cpu:0",
        b"cpu:99999", b"none:1", b"0-1", b"0,1", b"fifo", b"rr", b"other"]
JUNK = [b"", b" ", b"\xff\xfe", b"\xc3\xa9", b"\n", b"-\n", b"=", b"==",
        b"%s%n%s", b"%n", b"'", b"\"", b"\\", b"a" * 1000, b"-" * 100,
        b"\x01\x7f", b"-c\n3", b"--clients=\xff", b"\xe2\x80\x94c"]


def token():
    k = rng.random()
    if k < 0.35:
        opt = rng.choice(WITH)
        val = rng.choice(NUMS)
        form = rng.random()
        if form < 0.4:
            return [opt, val]
        if opt.startswith(b"--"):
            return [opt + b"=" + val]
        return [opt + val]
    if k < 0.55:
        return [rng.choice(WITHOUT)]
    if k < 0.7:
        return [rng.choice(WRONG)]
    if k < 0.85:
        return [rng.choice(NUMS)]
    if k < 0.95:
        return [rng.choice(JUNK)]
    # A few random bytes.
    return [bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 9)))]


def argv():
    a = [b"-f0", b"-t1"] if rng.random() < 0.8 else []
    for _ in range(rng.randrange(0, 7)):
        a += token()
    if rng.random() < 0.9:
        a.append(b"true")
    else:
        # No command: a bare run, bounded by a last --duration (or, when
        # an earlier word ended the options, an argument of the command).
        a.append(b"-d1")
    return a


def quote(a):
    out = []
    for w in a:
        if w and all(c in b"abcdefghijklmnopqrstuvwxyz"
                     b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:+/"
                     for c in w):
            out.append(w.decode())
        else:
            out.append("$'" + "".join(
                chr(c) if 32 <= c < 127 and c not in b"'\\" else
                "\\x%02x" % c for c in w) + "'")
    return "latt " + " ".join(out)


fails = {}
statuses = {}
slowest = 0.0
for i in range(runs):
    a = argv()
    t = time.monotonic()
    try:
        p = subprocess.run([latt.encode()] + a, cwd=cwd,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=20, start_new_session=False)
        rc = p.returncode
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "hang", e.stdout or b"", e.stderr or b""
    dt = time.monotonic() - t
    slowest = max(slowest, dt)
    statuses[rc] = statuses.get(rc, 0) + 1

    def bad(prop, why):
        fails.setdefault(prop, []).append("%s  # %s" % (quote(a), why))

    if rc == "hang":
        bad("ends quickly", "still running after 20 s")
    elif rc < 0 or rc in (134, 139):
        bad("never crashes", "status %s" % rc)
    elif rc not in (0, 1, 2, 4, 126, 127):
        bad("exits 0, 1, 2, 4, 126 or 127", "status %s" % rc)
    if b"Sanitizer" in err or b"runtime error:" in err:
        line = [l for l in err.splitlines() if b"Sanitizer" in l
                or b"runtime error" in l][0]
        bad("no sanitizer report", line[:200].decode("utf-8", "replace"))
    if rc in (126, 127) and (err.count(b"\n") != 1 or out):
        bad("a command that cannot run is one line, no summary",
            "%r / %r" % (err[:120], out[:80]))
    if rc == 2:
        n = err.replace(b"\ntry 'latt --help'\n", b"\n").count(b"\n")
        if n != 1 or not err.endswith(b"\n"):
            bad("a usage error is one line on stderr",
                "%d lines: %r" % (n, err[:120]))
        if out:
            bad("a usage error prints nothing on stdout", repr(out[:80]))
    if dt > 10 and rc != "hang":
        bad("ends quickly", "took %.1f s" % dt)

props = ["never crashes", "exits 0, 1, 2, 4, 126 or 127", "ends quickly",
         "a command that cannot run is one line, no summary",
         "no sanitizer report", "a usage error is one line on stderr",
         "a usage error prints nothing on stdout"]
summary = "statuses %s, slowest run %.1f s" % (" ".join(
    "%s:%d" % kv for kv in sorted(statuses.items(), key=lambda kv: str(kv[0]))),
    slowest)
for prop in props:
    if prop == "ends quickly":
        prop_name = prop + " (" + summary + ")"
    else:
        prop_name = prop
    if prop in fails:
        f = fails[prop]
        print("FAIL: fuzz (seed %d, %d runs): %s: %d runs, e.g. %s"
              % (seed, runs, prop_name, len(f), " | ".join(f[:3])))
    else:
        print("PASS: fuzz (seed %d, %d runs): %s" % (seed, runs, prop_name))
EOF
no_leftovers "fuzz"
