#!/usr/bin/env python3
"""Runs one test case under tensor-run twice and checks both runs.

  check_case.py --tensor-run BIN --cases BIN --cases-dir DIR [--devices N] NAME

Record mode (--record): exit status 0 and exactly one record per marker
line and check (markers.py). Raise mode: a bug case fails with tensor-run's
located message at its first marker; a clean case succeeds.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import markers  # noqa: E402


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tensor-run", required=True)
    p.add_argument("--cases", required=True)
    p.add_argument("--cases-dir", required=True)
    p.add_argument("--devices", default="1")
    p.add_argument("name")
    a = p.parse_args()
    _, expected = markers.case_markers(a.cases_dir, a.name)
    env = dict(os.environ)
    env.pop("TT_VALIDATE", None)
    env.pop("TT_VALIDATE_LOG", None)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "run.jsonl")
        r = run([a.tensor_run, "--devices", a.devices, "--record", log, a.cases, a.name], env)
        print("record mode: exit %d" % r.returncode)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            ok = False
        open(log, "a").close()
        sys.argv = ["markers.py", "--log", log, "--case", a.name, a.cases_dir]
        ok &= markers.main() == 0

        r = run([a.tensor_run, "--devices", a.devices, a.cases, a.name], env)
        print("raise mode: exit %d" % r.returncode)
        # A discarded conversion is noticed when its result is destroyed,
        # where nothing can throw: raise mode warns. Every other marker
        # raises; the first one ends the run.
        raising = sorted((b for b in expected if b[2] != "tensor-discarded-cast"), key=lambda b: (b[1] == 0, b[1]))
        stop = raising[0][1] or float("inf") if raising else float("inf")
        for path, line, check in sorted(expected):
            if check == "tensor-discarded-cast" and line < stop:
                warned = "%s:%d:" % (path, line) in r.stderr and "[tensor-discarded-cast]" in r.stderr
                print("raise mode warns at %s:%d: %s" % (os.path.basename(path), line, warned))
                ok &= warned
        if raising:
            err = os.path.join(tmp, "stderr.txt")
            with open(err, "w") as f:
                f.write(r.stderr)
            sys.argv = ["markers.py", "--raise", err, "--case", a.name, a.cases_dir]
            ok &= r.returncode == 1 and markers.main() == 0
        else:
            if r.returncode != 0:
                print(r.stdout + r.stderr)
            ok &= r.returncode == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
