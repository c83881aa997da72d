#!/usr/bin/env python3
"""What the tensor-* checks cost on top of clang-tidy.

1. A translation unit that includes <torch/torch.h> (the bundled example),
   analysed by tensor-tidy with a baseline check set and with the baseline
   plus every tensor-* check, interleaved, several times: the difference of
   the median wall times is the checks' cost as a user sees it. clang-tidy
   refuses `-checks=-*` (no checks, no run), so the baseline is one cheap
   stock check, misc-unused-alias-decls.
2. The same run with --enable-check-profile: the time clang-tidy attributes
   to the tensor-* checks' matchers and callbacks.
3. Linearity: generated functions of 1K, 10K and 100K statements (tensor
   factories, moves, arithmetic, module calls, branches), timed with the
   check profile, so the analysis time per statement can be compared.

Usage: bench/checks/cost.py [--build build] [--runs 5]
Prints a Markdown report (docs/performance.md records one).
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH_API = "/usr/include/torch/csrc/api/include"
MOCK = os.path.join(ROOT, "test", "checks", "Inputs", "mock-libtorch")
BASELINE = "-*,misc-unused-alias-decls"


def run_tidy(tidy, source, checks, extra, profile=False):
    cmd = [tidy, source, "--checks=" + checks, "--quiet"]
    if profile:
        cmd.append("--enable-check-profile")
    cmd += ["--", *extra]
    # CPU time of the child (user + system), which other load on the
    # machine disturbs far less than wall time.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, res.stdout


def profile_seconds(output, prefix="tensor-"):
    """Sum of the wall-clock column for the matching checks' rows."""
    total = 0.0
    for line in output.splitlines():
        m = re.match(r"\s*([\d.]+) \([^)]*\)\s+([\d.]+) \([^)]*\)\s+([\d.]+) "
                     r"\([^)]*\)\s+([\d.]+) \([^)]*\)\s+(\S+)", line)
        if m and m.group(5).startswith(prefix):
            total += float(m.group(4))
    return total


def generated_function(statements):
    """A function with about `statements` statements exercising the analysis."""
    lines = ["#include <torch/torch.h>",
             "void generated(torch::Device device, bool c) {",
             "  torch::nn::Linear model(8, 8);",
             "  model->to(device);",
             "  auto acc = torch::zeros({8, 8}).to(device);"]
    i = 0
    while len(lines) < statements:
        # One step in a scope of its own, as long functions are written.
        lines += [
            "  {",
            "    auto t%d = torch::randn({8, 8});" % i,
            "    t%d = t%d.to(device);" % (i, i),
            "    if (c) { acc = acc + t%d; } else { acc = acc * t%d; }" % (i, i),
            "    acc = model->forward(acc);",
            "  }",
        ]
        i += 1
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tidy = os.path.join(args.build, "bin", "tensor-tidy")
    example = os.path.join(ROOT, "examples", "seed_bugs", "train_libtorch.cpp")
    torch_flags = ["-std=c++17", "-isystem", TORCH_API]

    base, full = [], []
    for _ in range(args.runs):
        base.append(run_tidy(tidy, example, BASELINE, torch_flags)[0])
        full.append(run_tidy(tidy, example, BASELINE + ",tensor-*",
                             torch_flags)[0])
    # The minimum is the run least disturbed by other work on the machine.
    mb, mf = min(base), min(full)
    wall, out = run_tidy(tidy, example, BASELINE + ",tensor-*", torch_flags,
                         profile=True)
    checks = profile_seconds(out)

    print("## Cost of the tensor-* checks\n")
    print("TU: `examples/seed_bugs/train_libtorch.cpp` (includes "
          "`<torch/torch.h>`), %d interleaved runs, fastest of each.\n" % args.runs)
    print("| measure | seconds | share |")
    print("|---|---:|---:|")
    print("| clang-tidy CPU time, baseline (`%s`) | %.2f | |" % (BASELINE, mb))
    print("| clang-tidy CPU time, baseline + `tensor-*` | %.2f | %+.1f%% |" %
          (mf, 100 * (mf - mb) / mb))
    print("| `tensor-*` in --enable-check-profile | %.3f | %.2f%% of %.2f s |" %
          (checks, 100 * checks / wall, wall))
    print("\nCPU seconds of the whole tensor-tidy process (user + system),")
    print("fastest of runs interleaved so that load affects both alike.")

    print("\n## Analysis time against function size\n")
    print("| statements | tensor-* checks (s) | us per statement |")
    print("|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1000, 10000, 100000):
            src = os.path.join(tmp, "gen%d.cpp" % n)
            with open(src, "w") as f:
                f.write(generated_function(n))
            _, out = run_tidy(tidy, src, "-*,tensor-*",
                              ["-std=c++17", "-isystem", MOCK], profile=True)
            secs = profile_seconds(out)
            print("| %d | %.3f | %.2f |" % (n, secs, 1e6 * secs / n))


if __name__ == "__main__":
    sys.exit(main())
