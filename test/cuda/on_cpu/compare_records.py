#!/usr/bin/env python3
"""The validation recorder on a real cuda backend: runs the buggy
Fashion-MNIST trainer with TT_VALIDATE=record once on emulated cuda devices
and once on the CUDA backend's kernels through HIP-CPU (what a GPU machine
runs), and requires the same records (every line, as a multiset) and the
same training output. Both runs must record at least one violation.

Usage: compare_records.py EMULATED_TRAINER CUDA_ON_CPU_TRAINER DATA_DIR WORK_DIR
"""
import os
import subprocess
import sys


def run(binary, log, emulate, data):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TT_")}
    env.update(TT_VALIDATE="record", TT_VALIDATE_LOG=log)
    if emulate:
        env["TT_EMULATE_CUDA"] = "1"
    if os.path.exists(log):
        os.remove(log)
    cmd = [binary, "--device", "cuda", "--epochs", "1", "--limit", "2000", "--quiet", "--data", data]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    with open(log, encoding="utf-8") as f:
        return r.stdout, sorted(line.rstrip("\n") for line in f if line.strip())


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    emulated_bin, backend_bin, data, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    out_e, rec_e = run(emulated_bin, os.path.join(work, "emulated.jsonl"), True, data)
    out_b, rec_b = run(backend_bin, os.path.join(work, "backend.jsonl"), False, data)
    print(f"emulated: {len(rec_e)} records; backend (HIP-CPU): {len(rec_b)} records")
    ok = True
    if not rec_e:
        print("the emulated run recorded nothing: the trainer's bugs were not reached")
        ok = False
    if rec_e != rec_b:
        ok = False
        for line in sorted(set(rec_e) ^ set(rec_b)):
            print(("only emulated: " if line in rec_e else "only backend:  ") + line)
    if out_e != out_b:
        ok = False
        print(f"training output differs:\n--- emulated\n{out_e}--- backend\n{out_b}")
    print("same records and output" if ok else "DIFFERENT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
