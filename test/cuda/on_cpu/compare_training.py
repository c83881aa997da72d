#!/usr/bin/env python3
"""Trains the Fashion-MNIST example once on the cpu and once with --device
cuda on the CUDA backend's kernels run through HIP-CPU, and checks that the
two agree within the bounds docs/runtime.md documents: the epoch's mean
train loss within 1% (relative) and the test accuracy within 1 percentage
point. Both runs start from the same seed and weights; they differ only
where the kernels' summation order differs (reductions, GEMM).

Usage: compare_training.py CPU_TRAINER CUDA_ON_CPU_TRAINER DATA_DIR [LIMIT]
"""
import os
import re
import subprocess
import sys

RESULT = re.compile(r"epoch 1: train loss ([0-9.]+), test accuracy ([0-9.]+)%")
LOSS_RTOL = 0.01
ACCURACY_POINTS = 1.0


def train(binary, device, data, limit):
    env = dict(os.environ)
    for var in ("TT_EMULATE_CUDA", "TT_EMULATE_CUDA_DEVICES", "TT_VALIDATE", "TT_VALIDATE_LOG"):
        env.pop(var, None)  # the cuda run must be the backend, never the emulation
    cmd = [binary, "--epochs", "1", "--limit", str(limit), "--quiet", "--device", device, "--data", data]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    out = run.stdout + run.stderr
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({run.returncode}):\n{out}")
    if f"device {device}" not in out:
        sys.exit(f"{' '.join(cmd)} did not run on {device}:\n{out}")
    m = RESULT.search(out)
    if not m:
        sys.exit(f"{' '.join(cmd)}: no epoch result in its output:\n{out}")
    return float(m.group(1)), float(m.group(2))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    cpu_bin, gpu_bin, data = sys.argv[1:4]
    limit = int(sys.argv[4]) if len(sys.argv) == 5 else 2000
    cpu_loss, cpu_acc = train(cpu_bin, "cpu", data, limit)
    gpu_loss, gpu_acc = train(gpu_bin, "cuda", data, limit)
    print(f"cpu: train loss {cpu_loss:.4f}, test accuracy {cpu_acc:.2f}%")
    print(f"cuda (HIP-CPU): train loss {gpu_loss:.4f}, test accuracy {gpu_acc:.2f}%")
    ok = abs(gpu_loss - cpu_loss) <= LOSS_RTOL * abs(cpu_loss) and abs(gpu_acc - cpu_acc) <= ACCURACY_POINTS
    if cpu_acc < 50:
        ok = False
        print("the cpu run did not learn (accuracy below 50%)")
    print("agree within bounds" if ok else
          f"DISAGREE: bounds are {LOSS_RTOL:.0%} of the loss and {ACCURACY_POINTS} accuracy points")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
