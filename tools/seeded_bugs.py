#!/usr/bin/env python3
"""Compares clang-tidy findings with the bugs seeded in example sources.

Example files mark each seeded bug with a comment `BUG(check-name)` on the
line the check should report. Given the tool's text output on stdin, this
prints, per check that the tool has, which seeded bugs were found, which were
missed and which findings were not seeded; it exits 1 if any were missed or
unexpected. Checks listed in --pending are not available yet: their markers
are listed, not required.

  tensor-tidy FILES... | seeded_bugs.py --checks=a,b [--pending=c,d] FILES...
"""

import argparse
import os
import re
import sys

MARKER = re.compile(r"BUG\(([a-z0-9-]+)\)")
FINDING = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"warning: (?P<msg>.*) \[(?P<check>[a-z0-9-]+)\]$")


def seeded(paths):
    bugs = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                for check in MARKER.findall(text):
                    bugs.add((os.path.realpath(path), number, check))
    return bugs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checks", required=True,
                        help="comma-separated checks the tool ran")
    parser.add_argument("--pending", default="",
                        help="comma-separated checks not available yet")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    checks = set(filter(None, args.checks.split(",")))
    pending = set(filter(None, args.pending.split(",")))

    found = set()
    errors = []
    for line in sys.stdin:
        if ": error: " in line:
            errors.append(line.rstrip("\n"))
        m = FINDING.match(line.rstrip("\n"))
        if m and m["check"] in checks:
            found.add((os.path.realpath(m["file"]), int(m["line"]), m["check"]))

    expected = {b for b in seeded(args.files) if b[2] in checks}
    waiting = sorted(b for b in seeded(args.files) if b[2] in pending)
    hits = sorted(expected & found)
    missed = sorted(expected - found)
    unexpected = sorted(found - expected)

    def show(title, items):
        print("%s: %d" % (title, len(items)))
        for path, number, check in items:
            print("  %s:%d  %s" % (os.path.relpath(path), number, check))

    show("seeded bugs found", hits)
    show("seeded bugs missed", missed)
    show("findings not seeded", unexpected)
    if waiting:
        show("seeded bugs for checks not yet available", waiting)
    if errors:
        print("the examples do not compile:\n  " + "\n  ".join(errors))
    return 1 if missed or unexpected or errors else 0


if __name__ == "__main__":
    sys.exit(main())
