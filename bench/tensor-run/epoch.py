#!/usr/bin/env python3
"""tensor-run's overhead on a real training loop: the clean LibTorch
Fashion-MNIST twin (examples/fashion_mnist/train_libtorch.cpp), one epoch,
on the plain cpu and on an emulated cuda device under tensor-run, the same
binary, alternating in one run so that both see the same machine.

  bench/tensor-run/epoch.py [--build build] [--runs 5] [--threads 1] [--record]

Prints each run's epoch time (the program's own timer: the training loop,
not start-up) and whole-process wall time, then the medians and the ratio
emulated / cpu. The target is <= 1.5 (docs/performance.md). --record runs
tensor-run in record mode (the clean program records nothing either way).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

EPOCH = re.compile(r"epoch 1: train loss ([0-9.]+), test accuracy ([0-9.]+)%, ([0-9.]+) s")


def run(cmd, env):
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    m = EPOCH.search(r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return float(m.group(3)), wall, float(m.group(2))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--threads", default="1")
    p.add_argument("--record", action="store_true")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    a = p.parse_args()
    program = os.path.join(a.build, "bin", "fashion_mnist_libtorch")
    tensor_run = os.path.join(a.build, "bin", "tensor-run")
    env = dict(os.environ, OMP_NUM_THREADS=a.threads, MKL_NUM_THREADS=a.threads)
    common = ["--epochs", "1", "--quiet", "--data", a.data]
    cpu, emulated = [], []
    with tempfile.TemporaryDirectory() as tmp:
        record = ["--record", os.path.join(tmp, "bench.jsonl")] if a.record else []
        for i in range(a.runs):
            cpu.append(run([program, "--device", "cpu"] + common, env))
            emulated.append(run([tensor_run] + record + [program, "--device", "cuda"] + common, env))
            print("run %d: cpu epoch %.2f s (wall %.2f s, %.2f%%); tensor-run cuda epoch %.2f s (wall %.2f s, %.2f%%)"
                  % (i + 1, cpu[-1][0], cpu[-1][1], cpu[-1][2], emulated[-1][0], emulated[-1][1], emulated[-1][2]))
    ce, cw = statistics.median(r[0] for r in cpu), statistics.median(r[1] for r in cpu)
    ee, ew = statistics.median(r[0] for r in emulated), statistics.median(r[1] for r in emulated)
    print("median over %d runs, %s thread(s): epoch cpu %.2f s, tensor-run cuda %.2f s, ratio %.2f; "
          "wall cpu %.2f s, tensor-run %.2f s, ratio %.2f" % (a.runs, a.threads, ce, ee, ee / ce, cw, ew, ew / cw))
    return 0


if __name__ == "__main__":
    sys.exit(main())
