#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A small KTAP reader for the tests, after the kernel's documented rules
(Documentation/dev-tools/ktap.rst, KTAP version 1).  The first line is the
version line ("KTAP version 1"), then the plan "1..N"; a test result line
is "ok|not ok NUMBER [DESCRIPTION][ # [DIRECTIVE] [DIAGNOSTIC DATA]]", the
numbers from 1 up by 1, the description without '#'; the directives are
SKIP, TODO, XFAIL, TIMEOUT and ERROR; a diagnostic line starts with '#'
and belongs to the result after it.  Unknown lines are allowed and
returned; a nested test (an indented line) is not latt's and refused, and
the plan must match the tests.

Usage: tests/ktap.py FILE   prints {"plan": N, "tests": [{"n", "ok",
"name", "directive", "reason", "diag": [lines]}], "unknown": [lines]} as
JSON, or "ktap: WHY" with status 1.
"""
import json
import re
import sys

RESULT = re.compile(r"(ok|not ok) ([0-9]+)(?: ([^#]*?))?(?: # ?(.*))?")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")


def parse(lines):
    if lines[:1] != ["KTAP version 1"]:
        raise ValueError("line 1 is not 'KTAP version 1': %r" % lines[:1])
    plan = re.fullmatch(r"1\.\.([0-9]+)", lines[1] if len(lines) > 1 else "")
    if not plan:
        raise ValueError("line 2 is not a plan 1..N: %r" % lines[1:2])
    tests, diag, unknown = [], [], []
    for no, line in enumerate(lines[2:], 3):
        m = RESULT.fullmatch(line)
        if line.startswith(" "):
            raise ValueError("line %d is a nested test: %r" % (no, line))
        if line.startswith("#"):
            diag.append(line[1:].strip())
        elif m:
            if int(m.group(2)) != len(tests) + 1:
                raise ValueError("line %d: test %s after %d" %
                                 (no, m.group(2), len(tests)))
            rest = (m.group(4) or "").split(" ", 1)
            directive = rest[0] if rest[0] in DIRECTIVES else None
            tests.append({"n": len(tests) + 1, "ok": m.group(1) == "ok",
                          "name": m.group(3) or "", "directive": directive,
                          "reason": rest[1] if directive and len(rest) > 1
                          else None, "diag": diag})
            diag = []
        elif re.fullmatch(r"1\.\.[0-9]+|KTAP version 1", line):
            raise ValueError("line %d: a second plan or version" % no)
        else:
            unknown.append(line)
    if len(tests) != int(plan.group(1)):
        raise ValueError("the plan says %s tests, there are %d" %
                         (plan.group(1), len(tests)))
    return {"plan": len(tests), "tests": tests, "unknown": unknown}


def main():
    try:
        with open(sys.argv[1], errors="replace") as f:
            print(json.dumps(parse(f.read().splitlines())))
    except (ValueError, OSError) as e:
        print("ktap: %s" % e)
        sys.exit(1)


if __name__ == "__main__":
    main()
