#!/usr/bin/env python3
"""Trains the clean Fashion-MNIST twin on the cpu and on an emulated cuda
device and compares the two runs: the emulated run records nothing and
reaches the cpu run's test accuracy within 0.5 point.

  compare_runs.py --tensor-run BIN --program BIN --data DIR [ARGS...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ACCURACY = re.compile(r"epoch \d+: train loss ([0-9.]+), test accuracy ([0-9.]+)%")


def accuracy(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    print("$ " + " ".join(cmd) + "\n" + r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit("exit status %d" % r.returncode)
    found = ACCURACY.findall(r.stdout)
    if not found:
        sys.exit("no accuracy in the output")
    return float(found[-1][1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tensor-run", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--data", required=True)
    a, rest = p.parse_known_args()
    common = ["--data", a.data, "--quiet"] + rest
    cpu = accuracy([a.program, "--device", "cpu"] + common)
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "clean.jsonl")
        cuda = accuracy([a.tensor_run, "--record", log, a.program, "--device", "cuda"] + common)
        records = open(log).read().splitlines() if os.path.exists(log) else []
    print("cpu %.2f%%, emulated cuda %.2f%%, records %d" % (cpu, cuda, len(records)))
    for r in records[:5]:
        print("  " + r)
    return 0 if abs(cpu - cuda) <= 0.5 and not records else 1


if __name__ == "__main__":
    sys.exit(main())
