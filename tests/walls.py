#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The walls of the house, checked: every #include "..." of the sources
against the table of README.md's Layout (a room may include its own
folder's headers and those its row names), every source in a room of the
table, no two rooms that include each other round a circle, and a first
comment in every file.  Prints PASS/FAIL lines for tests/run.

Usage: tests/walls.py [TREE]   (TREE: the checkout, by default this one)
"""
import os
import re
import subprocess
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
fails = 0


def say(ok, what):
    global fails
    print(("PASS: " if ok else "FAIL: ") + what)
    fails += not ok


def table():
    """The Layout's rows: {room: [what it may include]}."""
    text = open(os.path.join(top, "README.md")).read()
    part = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        may = cells[2].split()
        for name in re.findall(r"`([^`]+)`", cells[0]):
            rows[node_of(name)] = may
    return rows


def node_of(path):
    """The room a path belongs to: its folder, or a file of the spine by
    its name without .c or .h (run.h and latt.c keep theirs)."""
    if "/" in path:
        return path.split("/", 1)[0]
    base = path.rsplit(".", 1)[0]
    return path if path in ("run.h", "latt.c") else base


def sources():
    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-co",
                              "--exclude-standard", "*.c", "*.h"],
                             capture_output=True, text=True, check=True)
        files = out.stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, _, names in os.walk(top):
            for n in names:
                if n.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(d, n), top))
    return sorted(f for f in files
                  if not f.startswith(("tests/", "bench/", "build/")))


rows = table()
say(len(rows) >= 10, "walls: the Layout table has a row for each room "
    "(%d rows)" % len(rows))
files = sources()
edges = {}
bad = []
for f in files:
    room = node_of(f)
    if room not in rows:
        bad.append("%s: no row of the Layout table for %s" % (f, room))
        continue
    may = rows[room]
    text = open(os.path.join(top, f), errors="replace").read()
    if not re.match(r"/\*[^\n]*\*/\n/\*\n \* \S|/\*[^\n]*\*/\n/\* \S", text):
        bad.append("%s: no first comment saying its job" % f)
    for inc in re.findall(r'^#\s*include\s+"([^"]+)"', text, re.M):
        to = node_of(inc)
        if not os.path.exists(os.path.join(top, inc)):
            bad.append('%s: includes "%s", which is not a path from the '
                       "top" % (f, inc))
            continue
        if to == room:
            continue
        edges.setdefault(room, set()).add(to)
        if "anything" in may or to in may or inc in may:
            continue
        bad.append('%s includes "%s": %s may not include %s (README.md, '
                   "Layout)" % (f, inc, room, to))
say(not bad, "walls: every include keeps to the Layout table" +
    "".join("\n    " + b for b in bad))


def circle():
    """A circle of rooms that include each other, or None."""
    state = {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in state:
                c = visit(m, path + [m])
                if c:
                    return c
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            c = visit(n, [n])
            if c:
                return c
    return None


c = circle()
say(c is None, "walls: no circle of rooms" +
    ("" if c is None else ": " + " -> ".join(c)))
sys.exit(1 if fails else 0)
