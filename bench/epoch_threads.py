#!/usr/bin/env python3
"""Issue 24's thread target for a cpu training epoch: runs the Fashion-MNIST
example (or any program printing "epoch N: ..., S s" lines) at 1 and at 2
OpenMP threads, alternating, ROUNDS times, with and without a loader
worker, and prints the median first epoch and the median of the later
epochs per configuration, each 2-thread figure as a ratio of the 1-thread
one (target: <= 0.70). Alternating keeps both sides under the same machine
load; on a shared VM the 2-thread runs still vary more (docs/performance.md).

Usage: bench/epoch_threads.py [--binary build-bench/bin/fashion_mnist_tt]
                              [--rounds 10] [--epochs 3] [--workers 1,0]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

EPOCH = re.compile(r"^epoch \d+: .*, ([0-9.]+) s$", re.M)


def epochs(binary, threads, workers, count):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [binary, "--device", "cpu", "--epochs", str(count), "--quiet", "--workers", str(workers)]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    times = [float(t) for t in EPOCH.findall(p.stdout)]
    if p.returncode != 0 or len(times) != count:
        sys.exit(f"epoch_threads: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-2000:]}")
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="build-bench/bin/fashion_mnist_tt")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--workers", default="1,0")
    args = ap.parse_args()
    if args.epochs < 2:
        sys.exit("epoch_threads: --epochs must be at least 2 (the first epoch is reported apart)")
    workers = [int(w) for w in args.workers.split(",")]
    first, later = {}, {}
    for _ in range(args.rounds):
        for w in workers:
            for t in (1, 2):
                times = epochs(args.binary, t, w, args.epochs)
                first.setdefault((w, t), []).append(times[0])
                later.setdefault((w, t), []).append(statistics.median(times[1:]))
    print("| loader workers | epoch | 1 thread | 2 threads | ratio |")
    print("|---|---|---:|---:|---:|")
    for w in workers:
        for name, data in (("first", first), (f"2-{args.epochs}", later)):
            one, two = statistics.median(data[(w, 1)]), statistics.median(data[(w, 2)])
            print(f"| {w} | {name} | {one:.3f} s | {two:.3f} s | {two / one:.2f} |")


if __name__ == "__main__":
    main()
