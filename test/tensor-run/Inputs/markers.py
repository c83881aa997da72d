#!/usr/bin/env python3
"""Compares a tensor-run run with the BUG(check) markers of a case.

A case is the code from its `TT_CASE(name)` line to the next `TT_CASE(` in
test/tensor-run/cases/*.cpp, or a whole file (--file). Every marker must be
matched by a record of that check on that line, and every record by a
marker:

  markers.py --log LOG (--case NAME CASES_DIR | --file SOURCE)

With --raise STDERR instead of --log, the run was in raise mode: it must have
failed with tensor-run's located message at the case's first marker:
"[tensor-run] <check> at <file>:<line>".
"""

import argparse
import glob
import json
import os
import re
import sys

MARKER = re.compile(r"(?<![A-Z-])BUG\((tensor-[a-z0-9-]+)\)")
# A violation in a backward pass: recorded without a source line (the
# engine's thread runs no code of the user's), under the program's path.
BACKWARD = re.compile(r"BACKWARD-BUG\((tensor-[a-z0-9-]+)\)")
NO_LINE = "(backward pass)"
CASE = re.compile(r"^TT_CASE\((\w+)\)")
LOCATED = re.compile(r"\[tensor-run\] ([a-z-]+) at (.+?):(\d+)(?::\d+)?(?: in |$)", re.M)
LOCATED_BACKWARD = re.compile(r"\[tensor-run\] ([a-z-]+) during the backward pass")


def case_markers(cases_dir, name):
    for path in sorted(glob.glob(os.path.join(cases_dir, "*.cpp"))):
        inside = False
        found = set()
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                m = CASE.match(text)
                if m:
                    if inside:
                        return path, found
                    inside = m.group(1) == name
                if inside:
                    found.update((os.path.realpath(path), number, c) for c in MARKER.findall(text))
                    found.update((NO_LINE, 0, c) for c in BACKWARD.findall(text))
        if inside:
            return path, found
    sys.exit("markers.py: no case %s in %s" % (name, cases_dir))


def file_markers(path):
    found = set()
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            found.update((os.path.realpath(path), number, c) for c in MARKER.findall(text))
            found.update((NO_LINE, 0, c) for c in BACKWARD.findall(text))
    return found


def show(title, items):
    print("%s: %d" % (title, len(items)))
    for path, line, check in sorted(items):
        print("  %s:%d  %s" % (os.path.basename(path), line, check) if line else "  %s  %s" % (path, check))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log")
    p.add_argument("--raise", dest="raised")
    p.add_argument("--case", nargs=2, metavar=("NAME", "CASES_DIR"))
    p.add_argument("--file")
    a = p.parse_args()
    expected = case_markers(a.case[1], a.case[0])[1] if a.case else file_markers(a.file)

    if a.raised:
        text = open(a.raised, encoding="utf-8", errors="replace").read()
        m = LOCATED.search(text)
        b = LOCATED_BACKWARD.search(text)
        if m:
            got = (os.path.realpath(m.group(2)), int(m.group(3)), m.group(1))
        elif b:
            got = (NO_LINE, 0, b.group(1))
        else:
            print("no located tensor-run error in:\n" + text)
            return 1
        raising = [b for b in expected if b[2] != "tensor-discarded-cast"]
        first = min(raising, key=lambda b: (b[1] == 0, b[1])) if raising else None
        print("raised: %s:%d %s; first marker: %s" % (os.path.basename(got[0]), got[1], got[2],
                                                      "%s:%d %s" % (os.path.basename(first[0]), first[1], first[2])
                                                      if first else "none"))
        return 0 if first and got == first else 1

    records = set()
    count = 0
    with open(a.log, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            where = (NO_LINE, 0) if r["line"] == 0 else (os.path.realpath(r["file"]), r["line"])
            records.add(where + (r["check"],))
            count += 1
    show("records matching markers", expected & records)
    show("markers without a record", expected - records)
    show("records without a marker", records - expected)
    print("records: %d" % count)
    return 0 if expected == records else 1


if __name__ == "__main__":
    sys.exit(main())
