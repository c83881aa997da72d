#!/usr/bin/env python3
"""Reads tensor-tidy-report's JSON and prints its summary, one count a line,
then each finding as `group check line` for the BUG() markers of the example
given with --markers: `marked` if a `// BUG(check)` comment is on that line,
`UNMARKED` otherwise, and `MISSING check line` for a marker with no
confirmed finding."""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
for key in ("confirmed", "static-only", "dynamic-only"):
    print(f"{key}: {report['summary'][key]}")
if len(sys.argv) > 3 and sys.argv[2] == "--markers":
    markers = set()
    for number, text in enumerate(open(sys.argv[3], encoding="utf-8"), 1):
        for check in re.findall(r"// BUG\(([a-z0-9-]+)\)", text):
            markers.add((check, number))
    print(f"markers: {len(markers)}")
    confirmed = set()
    for f in report["findings"]:
        key = (f["check"], f["line"])
        print(f"{f['group']} {f['check']} {f['line']} {'marked' if key in markers else 'UNMARKED'}")
        if f["group"] == "confirmed":
            confirmed.add(key)
    for check, line in sorted(markers - confirmed, key=lambda m: m[1]):
        print(f"MISSING {check} {line}")
