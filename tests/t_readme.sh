#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The README against the binary (issue 20): the schema version that
# README.md, docs/ and latt.1 quote is the one latt writes; every unit the
# README quotes is one latt prints; each task section's commands run, in
# short versions (0.3 s for -d, 3 runs for --repeat, 'sleep 0.5' for
# 'make -j4'), with the status the README gives ('# exit N', else 0), and
# the output the README quotes has the shape of the binary's (headline,
# 2009 block, details table, facts, gate line, compare table, autopsy); the
# README is at most 400 lines and every link in it and in docs/ leads to a
# file and a heading that exist; latt.1's footer names latt's version; the
# help is ordered by task.
#
# Usage: LATT=./latt bash tests/t_readme.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "readme: python3 is not installed"
	exit 0
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LATT=$(cd "$(dirname "$LATT")" && pwd)/$(basename "$LATT")
README=${LATT_README:-$ROOT/README.md}
DOCS=$ROOT/docs
CHECK=$TMP/check.py

cat >"$CHECK" <<'EOF'
import glob, json, os, re, sys

V = r"(?:-|(?:>=)?\d+(?:\.\d+)? (?:ns|us|ms|s))"
HEADLINE = re.compile(r"^\d+ samples  p50 %s  p99 %s  worst %s  timer p99 %s$"
                      % (V, V, V, V))
ENTRIES = re.compile(r"^Entries: \d+ \(clients=\d+\)$")
AVG2009 = re.compile(r"^\t(Max|Avg|Stdev)\t +(\d+|-) usec$")
HEADER = "(us) samples min p50 p90 p99 p99.9 worst mean sd"
CELL = r"(?:-|\d+(?:\.\d+)?s?)"
ROW = re.compile(r"^(\S+(?: path)?) +(%s(?: +%s){8})$" % (CELL, CELL))
FACT = re.compile(r"^\t([^\t]+)\t ?(.*)$")
LOAD = re.compile(r"^\tload\t +(\w+): \d+ process(?:es)?, "
                  r"\d+(?:\.\d+)?[kMG]? [a-z ]+/s, \d+\.\d+ s$")
GATE = re.compile(r"^gate: (met|exceeded|cannot tell)\b")
SIDE = re.compile(r"^[AB]: \S+ \(\d+ runs?, \d+ samples\)$")
CMPHEAD = re.compile(r"^latency +A us +\+- +B us +\+- +change +97\.5% interval"
                     r" +verdict$")
PCT = r"(?:-|[+-]?\d+(?:\.\d+)?%)"
CMPROW = re.compile(r"^(mean|p50|p90|p95|p99|p99\.9|max) +(-|\d+(?:\.\d+)?)"
                    r"( +\d+%%)? +(-|\d+(?:\.\d+)?)( +\d+%%)? +%s +(-|\[[<>]?%s,"
                    r" [<>]?%s\]) +(worse|better|noise|cannot tell)$"
                    % (PCT, PCT, PCT))
AUTOPSY = re.compile(r"^Autopsy of the \d+ worst wake-ups?, times from each"
                     r" one's send stamp:$")
LAT = r"\d+(?:\.\d+)? (?:ns|us|ms|s)"
SAMPLE = re.compile(r"^#\d+ client \d+ \(pid \d+\): %s, round \d+, "
                    r"%s into the run$" % (LAT, LAT))
SPLIT = re.compile(r"^  split: write \S+ \S+, not runnable \S+ \S+, in flight"
                   r" \S+ \S+,$")
VERDICT = re.compile(r"^  verdict: \S")
# Facts that only some runs have (a stall, a short run, a late reply).
SOMETIMES = {"stalled", "too few", "few samples", "pending", "worst",
             "changed", "suspended", "not sent", "timer worst at"}
UNIT = re.compile(r"(?<![\w.])\d+(?:\.\d+)? ?(ns|us|usec|ms|s)\b")
BUNIT = re.compile(r"`(ns|us|usec|ms|s)`")
# Kinds of quoted line that must have their pattern's shape, and of which
# the binary must print one: (how the line starts, its pattern, what the
# README's line is called when of another shape, what the binary's is
# called).  FIRST's are looked for before the table's rows and facts, the
# others after.
FIRST = [
    (r".*samples  p50", HEADLINE, "README headline of another shape",
     "headline as the README's"),
    (r"Entries:", ENTRIES, "README", "Entries line"),
    (r"\t(Max|Avg|Stdev)\t", AVG2009, "README 2009 line of another shape",
     "2009 block"),
]
LATER = [
    (r"[AB]: ", SIDE, "README side line", "side line"),
    (r"latency   A us", CMPHEAD, "README compare header", "compare header"),
    (r"Autopsy of", AUTOPSY, "README", "autopsy header"),
    (r"#", SAMPLE, "README autopsy sample line", "autopsy sample line"),
    (r"  split:", SPLIT, "README split line", "split line"),
]


def slug(title):
    t = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return t.replace(" ", "-")


def anchors(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.*)$", text, re.M)}


def sections(readme):
    """{title: [(command, status, quoted lines)]} from the indented code
    blocks of each '## ' section; '$ ' starts a command, '\\' continues it,
    '# exit N' gives its status."""
    out, title, cmd = {}, None, None
    lines = open(readme).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            title = line[3:].strip()
            out[title] = []
            cmd = None
        elif title and line.startswith("    $ "):
            text = line[6:]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            status = 0
            m = re.search(r"\s+#\s*exit (\d+)\s*$", text)
            if m:
                status = int(m.group(1))
            text = re.sub(r"\s+#.*$", "", text)
            cmd = [text, status, []]
            out[title].append(cmd)
        elif cmd is not None and (line.startswith("    ") or line == ""):
            cmd[2].append(line[4:])
        else:
            cmd = None
        i += 1
    for cmds in out.values():
        for c in cmds:
            while c[2] and c[2][-1] == "":
                c[2].pop()
    return out


def shorten(text):
    """The short version of a README command, as an argv after 'latt'."""
    import shlex
    argv = shlex.split(text)
    assert argv[0] == "latt", text
    argv = argv[1:]
    short, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "-d" and i + 1 < len(argv):
            short += ["-d", "0.3"]
            i += 2
            continue
        if re.match(r"^-d\d", a) or a.startswith("--duration="):
            a = "-d0.3"
        elif a.startswith("--repeat="):
            a = "--repeat=3"
        elif a == "make -j4":
            a = "sleep 0.5"
        short.append(a)
        i += 1
    bare = not any(" " in a or not a.startswith("-") for a in short)
    if bare and not any(re.match(r"^-d", a) for a in short):
        short += ["-d", "0.3"]
    return short


def plan(readme, tmp):
    tasks = ["Measure under a build", "A bare run", "Compare kernels",
             "Gate CI", "Explain a spike", "Classes", "Loads"]
    secs = sections(readme)
    n = 0
    with open(os.path.join(tmp, "plan"), "w") as f:
        for t in tasks:
            if t not in secs or not secs[t]:
                f.write("MISSING\t%s\n" % t)
                continue
            for text, status, quoted in secs[t]:
                n += 1
                argv = shorten(text)
                open(os.path.join(tmp, "cmd.%d" % n), "wb").write(
                    b"".join(a.encode() + b"\0" for a in argv))
                open(os.path.join(tmp, "quoted.%d" % n), "w").write(
                    "\n".join(quoted) + "\n")
                f.write("%d\t%s\t%d\t%s\n" % (n, t, status, text))


def gate_status(lines):
    for l in lines:
        m = GATE.match(l)
        if m:
            return {"met": 0, "exceeded": 3, "cannot tell": 5}[m.group(1)]
    return None


def shape(n, tmp, text, want):
    """Compares command n's quoted output with the binary's; prints BAD."""
    q = open(os.path.join(tmp, "quoted.%d" % n)).read().split("\n")
    b = (open(os.path.join(tmp, "out.%d" % n), errors="replace").read() +
         open(os.path.join(tmp, "err.%d" % n), errors="replace").read()
         ).split("\n")
    rc = int(open(os.path.join(tmp, "rc.%d" % n)).read())
    bad = []
    noisy = "--fail-if-worse" in text
    if noisy:
        # A gate on a change between runs: its verdict is the noise's; the
        # README's status must be its gate line's, and so must the binary's.
        if gate_status(q) != want:
            bad.append("the README says exit %d beside %s" %
                       (want, [l for l in q if GATE.match(l)]))
        if gate_status(b) != rc:
            bad.append("exit %d beside %s" %
                       (rc, [l for l in b if GATE.match(l)]))
    elif rc != want:
        bad.append("exit %d, the README says %d" % (rc, want))

    def need(rx, what):
        if not any(rx.match(l) for l in b):
            bad.append("the binary printed no %s" % what)

    def alike(l, kinds):
        """Whether l is of one of kinds (see FIRST), checked if so."""
        for start, rx, called, what in kinds:
            if re.match(start, l):
                if not rx.match(l):
                    bad.append("%s: %r" % (called, l))
                need(rx, what)
                return True
        return False

    brows = {}
    for l in b:
        m = ROW.match(l)
        if m:
            brows[m.group(1)] = m.group(2)
    blabels = {m.group(1) for m in map(FACT.match, b) if m}
    bheader = [" ".join(l.split()) for l in b if l.startswith("(us) ")]
    for l in q:
        if l.startswith("...") or l.strip() == "":
            continue
        if alike(l, FIRST):
            pass
        elif re.match(r"^\(\w+\) +samples", l):
            if " ".join(l.split()) != HEADER:
                bad.append("README table header: %r" % l)
            if not bheader or bheader[0] != HEADER:
                bad.append("binary table header: %r" % bheader[:1])
        elif ROW.match(l) and not l.startswith("\t"):
            name = ROW.match(l).group(1)
            if name not in brows:
                bad.append("no row '%s' in the binary's table" % name)
        elif l.startswith("\tload\t"):
            m = LOAD.match(l)
            if not m:
                bad.append("README load line of another shape: %r" % l)
            elif not any((LOAD.match(x) and LOAD.match(x).group(1) ==
                          m.group(1)) for x in b):
                bad.append("no load line '%s' as the README's" % m.group(1))
        elif FACT.match(l):
            label = FACT.match(l).group(1)
            if label not in blabels and label not in SOMETIMES:
                bad.append("no fact '%s' in the binary's summary" % label)
        elif GATE.match(l):
            if not noisy and gate_status(l.split("\n")) != gate_status(b):
                bad.append("gate: README %r, binary %r" %
                           (l[:40], [x[:40] for x in b if GATE.match(x)]))
        elif alike(l, LATER):
            pass
        elif re.match(r"^(mean|p50|p90|p95|p99|p99\.9|max) ", l):
            if not CMPROW.match(l):
                bad.append("README compare row of another shape: %r" % l)
            name = l.split()[0]
            if not any(CMPROW.match(x) and x.split()[0] == name for x in b):
                bad.append("no compare row '%s' of the README's shape" %
                           name)
        elif l.startswith("  verdict:"):
            need(VERDICT, "verdict line")
    return bad


def units(readme, tmp):
    """Every unit the README quotes (a number's, or one in backquotes) is
    one the binary printed after a number in some run."""
    text = open(readme).read()
    quoted = set(UNIT.findall("\n".join(l for l in text.split("\n")
                                        if l.startswith("    "))))
    quoted |= set(BUNIT.findall(text))
    printed = set()
    for f in glob.glob(os.path.join(tmp, "out.*")) + \
            glob.glob(os.path.join(tmp, "err.*")):
        printed |= set(UNIT.findall(open(f, errors="replace").read()))
    return quoted, printed


def schema(tmp, files):
    try:
        got = str(json.load(open(os.path.join(tmp, "j.out")))
                  ["schema_version"])
    except Exception as x:
        return ["latt --json=- gave no schema_version: %s" % x], "?"
    bad, seen = [], 0
    for f in files:
        text = open(f).read()
        for m in re.finditer(r'schema_version[`"]?:?\s*(\d+)', text):
            if re.search(r"(of|within)\s*$",
                         text[max(0, m.start() - 12):m.start()]):
                continue	# of older files: "files of", "within"
            seen += 1
            if m.group(1) != got:
                bad.append("%s quotes schema_version %s, latt writes %s"
                           % (os.path.basename(f), m.group(1), got))
    if seen < 3:
        bad.append("only %d quotes found (README, docs, latt.1)" % seen)
    return bad, "%d quotes of schema_version %s" % (seen, got)


def links(files):
    bad, nlinks = [], 0
    for f in files:
        text = re.sub(r"```.*?```", "", open(f).read(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            nlinks += 1
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(f),
                                                 path)) if path else f
            if not os.path.exists(full):
                bad.append("%s: %s: no such file" %
                           (os.path.basename(f), target))
            elif anchor and full.endswith(".md") and \
                    anchor not in (anchors(full) or set()):
                bad.append("%s: %s: no such heading" %
                           (os.path.basename(f), target))
    return bad, "%d links" % nlinks


def report(path, first, bad):
    with open(path, "w") as f:
        f.write(first + "\n")
        for x in bad:
            f.write("BAD " + x + "\n")


def main():
    """plan TMP README: the commands; check TMP README DOCS...: every
    check, each into TMP/res.NAME (a first line, then BAD lines)."""
    what, tmp, readme = sys.argv[1], sys.argv[2], sys.argv[3]
    if what == "plan":
        plan(readme, tmp)
        return
    docs = sys.argv[4:]
    bad, first = links([readme] + docs)
    report(os.path.join(tmp, "res.links"), first, bad)
    bad, first = schema(tmp, [readme] + docs)
    report(os.path.join(tmp, "res.schema"), first, bad)
    for line in open(os.path.join(tmp, "plan")):
        f = line.rstrip("\n").split("\t")
        if f[0] == "MISSING" or \
                not os.path.exists(os.path.join(tmp, "rc.%s" % f[0])):
            continue
        n, text, want = int(f[0]), f[3], int(f[2])
        report(os.path.join(tmp, "res.%d" % n), text,
               shape(n, tmp, text, want))
    quoted, printed = units(readme, tmp)
    bad = ["the README quotes '%s', which latt never printed" % u
           for u in sorted(quoted - printed)]
    if not quoted:
        bad.append("the README quotes no unit")
    report(os.path.join(tmp, "res.units"), " ".join(sorted(quoted)), bad)


main()
EOF

# --- Run: JSON, then each task section's commands, short, in order ---------
run_latt "$TMP/j.out" "$TMP/j.err" -q -c2 -d 0.3 --json=-
[ "$rc" -eq 0 ] || bad "latt --json=- exited $rc: $(short "$TMP/j.err")"
no_leftovers "readme: --json=-"
python3 "$CHECK" plan "$TMP" "$README" >"$TMP/plan.err" 2>&1 ||
    bad "the README's sections cannot be read: $(short "$TMP/plan.err")"
verdict "readme: the task sections read"
[ -s "$TMP/plan" ] || exit 1
W=$TMP/work
mkdir -p "$W"
tracefs_ok=
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
    unshare -m true 2>/dev/null; then
	tracefs_ok=1
fi
declare -A skipped
while IFS=$'\t' read -r n title want text; do
	[ "$n" = MISSING ] && continue
	mapfile -d '' args <"$TMP/cmd.$n"
	case " ${args[*]} " in
	*" --explain"*)
		if [ -z "$tracefs_ok" ]; then
			skipped[$n]="needs root and a mount namespace for tracefs"
			continue
		fi
		# A tracefs of its own at the usual place, in a namespace of
		# its own: nothing of the machine's mounts changes.
		(cd "$W" && timeout -k 5 60 unshare -m sh -c '
			mountpoint -q /sys/kernel/tracing ||
			    mount -t tracefs nodev /sys/kernel/tracing || exit 99
			exec "$0" "$@"' "$LATT" "${args[@]}" \
		    >"$TMP/out.$n" 2>"$TMP/err.$n")
		rc=$?
		if [ "$rc" = 99 ]; then
			skipped[$n]="tracefs cannot be mounted here"
			continue
		fi ;;
	*)
		(cd "$W" && timeout -k 5 60 "$LATT" "${args[@]}" \
		    >"$TMP/out.$n" 2>"$TMP/err.$n")
		rc=$? ;;
	esac
	case " ${args[*]} " in
	*slice=*)
		if [ "$rc" = 2 ] && grep -q 'slice' "$TMP/err.$n" &&
		    grep -Eq 'ignores|read back 0|before 6\.12' "$TMP/err.$n"; then
			skipped[$n]="this kernel has no custom slices"
			continue
		fi ;;
	esac
	echo "$rc" >"$TMP/rc.$n"
done <"$TMP/plan"
no_leftovers "readme: the task sections"

python3 "$CHECK" check "$TMP" "$README" "$DOCS"/*.md "$ROOT/latt.1" \
    >"$TMP/check.err" 2>&1 || bad "the check died: $(short "$TMP/check.err")"
verdict "readme: the checks ran"

# --- (d) Its length and its links ------------------------------------------
n=$(nlines "$README")
[ "$n" -le 400 ] || bad "README.md has $n lines (at most 400)"
grep -q '](docs/' "$README" || bad "README.md links nothing in docs/"
verdict "readme: $n lines, links to docs/"
verdict_from "readme: every link of README.md and docs/ leads somewhere" \
    "$TMP/res.links"

# --- (a) The schema version quoted is the one written -----------------------
verdict_from "readme: schema_version" "$TMP/res.schema"

# --- (c) Each task section: its status, its output's shape ------------------
while IFS=$'\t' read -r n title want text; do
	if [ "$n" = MISSING ]; then
		fail "readme: no section '$title' with a '\$ latt' command"
		continue
	fi
	mapfile -d '' args <"$TMP/cmd.$n"
	name="readme: $title: latt ${args[*]}"
	if [ -n "${skipped[$n]:-}" ]; then
		skip "$name: ${skipped[$n]}"
		continue
	fi
	verdict_from "$name (exit $want)" "$TMP/res.$n"
done <"$TMP/plan"

# --- (b) The units the README quotes are the binary's -----------------------
verdict_from "readme: units quoted" "$TMP/res.units"

# --- latt.1's footer and the help's order -----------------------------------
ver=$("$LATT" -V)
os=$(sed -n 's/^\.Os //p' "$ROOT/latt.1")
[ "$os" = "$ver" ] || bad "latt.1's .Os is '$os', latt -V says '$ver'"
verdict "readme: latt.1's footer names '$ver'"
"$LATT" --help >"$TMP/help" 2>&1
prev=0
for h in 'The run:' 'Clients and classes:' 'Workload and loads:' 'Outputs' \
    'Gates' 'Explain a spike:' 'Compare:'; do
	at=$(grep -n "^$h" "$TMP/help" | head -n 1 | cut -d: -f1)
	if [ -z "$at" ]; then
		bad "no heading '$h'"
	elif [ "$at" -le "$prev" ]; then
		bad "'$h' out of order (line $at)"
	else
		prev=$at
	fi
done
l=$(grep -n -- '--load=' "$TMP/help" | head -n 1 | cut -d: -f1)
f=$(grep -n -- '--fail-above=' "$TMP/help" | tail -n 1 | cut -d: -f1)
[ -n "$l" ] && [ -n "$f" ] && [ "$l" -lt "$f" ] ||
    bad "-l (line $l) is not before --fail-above (line $f)"
verdict "readme: --help by task"
