#!/usr/bin/env python3
"""Runs tools/demo --check with each of its preconditions forced off, and
prints one block per scenario: its name, the demo's output and exit status
(demo.test checks them).

  demo_preconditions.py TOOLS_DEMO WORKDIR

The build is a stand-in: `cmake` and `ninja` on PATH are scripts (cmake does
nothing; ninja lists the targets of WORKDIR/targets.txt, then 200,000 more
lines, so a reader that stops at its match, `ninja | grep -q`, kills ninja
with SIGPIPE), TT_DEMO_BUILD is WORKDIR/build and TT_FASHION_MNIST_DIR a
directory of empty data files. Nothing of the real build is touched.
"""
import os
import stat
import subprocess
import sys

TARGETS = ["tensor-tidy", "tensor-tidy-report", "fashion_mnist_tt", "fashion_mnist_buggy_tt"]
TORCH_TARGETS = ["libtorch-pch", "tensor-run", "fashion_mnist_libtorch", "fashion_mnist_buggy_libtorch",
                 "seed_bugs_libtorch"]
DATA = ["train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"]


def script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def main():
    demo, work = sys.argv[1], os.path.abspath(sys.argv[2])
    fakebin = os.path.join(work, "fakebin")
    data = os.path.join(work, "data")
    os.makedirs(fakebin, exist_ok=True)
    os.makedirs(data, exist_ok=True)
    os.makedirs(os.path.join(work, "build"), exist_ok=True)
    for f in DATA:
        open(os.path.join(data, f + ".gz"), "w").close()
    script(os.path.join(fakebin, "cmake"), "#!/bin/sh\nexit 0\n")
    targets_file = os.path.join(work, "targets.txt")
    script(os.path.join(fakebin, "ninja"),
           "#!/bin/sh\n"
           "[ -n \"$FAKE_NINJA_FAIL\" ] && { echo 'ninja: error: loading build.ninja' >&2; exit 1; }\n"
           "cat '%s'\n"
           "i=0; while [ $i -lt 200000 ]; do echo \"filler_$i: phony\"; i=$((i + 1)); done\n" % targets_file)

    def run(name, targets, args=(), **env_extra):
        with open(targets_file, "w") as f:
            f.write("".join("%s: phony\n" % t for t in targets))
        env = dict(os.environ, PATH=fakebin + os.pathsep + os.environ["PATH"],
                   TT_DEMO_BUILD=os.path.join(work, "build"), TT_FASHION_MNIST_DIR=data)
        env.update(env_extra)
        res = subprocess.run(["bash", demo, "--no-setup", "--check", *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        print("=== %s" % name)
        sys.stdout.write(res.stdout)
        print("exit %d" % res.returncode)

    everything = TARGETS + TORCH_TARGETS
    # The targets the old demo looked for with `| grep -q` come first, so
    # that grep would exit long before ninja's last line; five runs.
    for i in range(5):
        run("all present, run %d" % (i + 1), ["libtorch-pch", "tensor-run"] + [t for t in everything
                                                                            if t not in ("libtorch-pch", "tensor-run")])
    run("no data", everything, TT_FASHION_MNIST_DIR=os.path.join(work, "nodata"))
    for t in everything:
        run("no target %s" % t, [x for x in everything if x != t])
    run("ninja fails", everything, FAKE_NINJA_FAIL="1")
    run("no LibTorch", TARGETS)
    run("no LibTorch, on purpose", TARGETS, ["--no-libtorch"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
