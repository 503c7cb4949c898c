#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""latt's options, one source: every option of the table in cli/options.c
(opts[], the source of --help) has an item in latt.1 (.It ... \\-NAME) and
a row in docs/options.md (| `--NAME...`), and every long option either
document names is one latt, or latt compare, takes (`latt --NAME=0` is
not "unknown option").  Prints PASS/FAIL lines for tests/run.

Usage: tests/options.py [TREE]   (TREE: the checkout, by default this one;
its latt is run, else $LATT)
"""
import os
import re
import subprocess
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
latt = os.environ.get("LATT") or os.path.join(top, "latt")
fails = 0


def say(ok, what):
    global fails
    print(("PASS: " if ok else "FAIL: ") + what)
    fails += not ok


def read(path):
    with open(os.path.join(top, path), encoding="utf-8") as f:
        return f.read()


def table():
    """The long names of opts[], each row's first string on its line."""
    src = read("cli/options.c")
    m = re.search(r"^static const struct opt opts\[\] = \{$(.*?)^\};", src,
                  re.M | re.S)
    return re.findall(r'^\s*\{ "([a-z][a-z-]*)"', m.group(1) if m else "",
                      re.M)


def refused(name):
    """Whether latt and latt compare both call --name unknown.  A value
    and an unknown option after it end the parse before anything runs."""
    for pre in ([], ["compare"]):
        try:
            r = subprocess.run([latt] + pre + ["--%s=0" % name,
                                               "--options-py-unknown"],
                               capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired) as e:
            return "cannot run %s: %s" % (latt, e)
        if "unknown option: --%s=" % name not in r.stderr:
            return None
    return "unknown to latt and to latt compare"


names = table()
say(len(names) >= 30, "options: the table of cli/options.c read (%d options)"
    % len(names))
man, md = read("latt.1"), read("docs/options.md")
docs = {
    "latt.1": (man, r"(?<![\w-])\\-([a-z][a-z-]*)",
               lambda n: re.search(r"^\.It .*\\-%s(?![\w-])" % re.escape(n),
                                   man, re.M)),
    "docs/options.md": (md, r"(?<![\w-])--([a-z][a-z-]*)",
                        lambda n: re.search(r"^\| `[^|]*--%s(?![\w-])"
                                            % re.escape(n), md, re.M)),
}
for doc, (text, pattern, has) in docs.items():
    missing = [n for n in names if not has(n)]
    say(not missing, "options: every option of the table is in %s%s" % (
        doc, ": missing " + ", ".join("--" + n for n in missing)
        if missing else ""))
    bad = []
    for n in sorted(set(re.findall(pattern, text))):
        why = None if n in names else refused(n)
        if why:
            bad.append("--%s (%s)" % (n, why))
    say(not bad, "options: every long option %s names is latt's%s" % (
        doc, ": " + ", ".join(bad) if bad else ""))
sys.exit(1 if fails else 0)
