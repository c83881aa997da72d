#!/usr/bin/env python3
"""Runs the libFuzzer harnesses for a bounded time each.

  test/fuzz/run.py --build build-fuzz [--seconds 60] [--seed N] [HARNESS...]

Each harness starts from its committed seed corpus (test/fuzz/corpus/NAME,
read only) and keeps what it finds new in build-fuzz/fuzz-corpus/NAME, so a
longer run picks up where the last one stopped. A crash, a sanitizer report,
a leak, a timeout or an out-of-memory exits non-zero: the input is saved as
build-fuzz/fuzz-artifacts/NAME-crash-*; reproduce it with
`build-fuzz/bin/fuzz_NAME ARTIFACT`, then add it to the seed corpus and
a regression test. Exit status: 0 when every harness ran clean.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESSES = ["idx", "checkpoint", "shapes", "report_log", "report_text", "report_fixes", "report_baseline"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build-fuzz")
    p.add_argument("--seconds", type=int, default=60, help="per harness")
    p.add_argument("--seed", type=int, default=0,
                   help="libFuzzer's random seed: 0 for a new one each run; tools/test passes 1, so a CI run "
                        "explores the same inputs first")
    p.add_argument("harnesses", nargs="*", default=HARNESSES)
    a = p.parse_args()
    env = dict(os.environ)
    # An impossible allocation must reach the runtime as a null pointer (its
    # OutOfMemoryError), not abort the process.
    env["ASAN_OPTIONS"] = "allocator_may_return_null=1:" + env.get("ASAN_OPTIONS", "")
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:" + env.get("UBSAN_OPTIONS", "")
    failed = []
    for name in a.harnesses:
        binary = os.path.join(a.build, "bin", "fuzz_" + name)
        seeds = os.path.join(HERE, "corpus", name)
        corpus = os.path.join(a.build, "fuzz-corpus", name)
        artifacts = os.path.join(a.build, "fuzz-artifacts")
        os.makedirs(corpus, exist_ok=True)
        os.makedirs(artifacts, exist_ok=True)
        cmd = [binary, "-seed=%d" % a.seed, "-max_total_time=%d" % a.seconds, "-timeout=20", "-rss_limit_mb=4096",
               "-malloc_limit_mb=4096", "-close_fd_mask=3", "-print_final_stats=1",
               "-artifact_prefix=" + os.path.join(artifacts, name + "-"), corpus, seeds]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        stats = [l for l in r.stderr.splitlines() if l.startswith("stat::number_of_executed_units")]
        runs = stats[-1].split(":")[-1].strip() if stats else "?"
        print("fuzz_%-16s %s in %d s: %s executions, corpus %d inputs" %
              (name, "clean" if r.returncode == 0 else "FAILED", a.seconds, runs, len(os.listdir(corpus))))
        if r.returncode != 0:
            failed.append(name)
            print("\n".join(r.stderr.splitlines()[-40:]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
