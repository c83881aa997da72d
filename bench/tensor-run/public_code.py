#!/usr/bin/env python3
"""tensor-run on public LibTorch code nobody here wrote.

Each program below is built from its repository as published (g++ -g,
C++17, Debian's LibTorch), run for a bounded time under
`tensor-run --record` on small or real data, and must record nothing. Then
one device move is removed from it (the seeds' bug, planted) and it is
built and run again: tensor-run must record the bug, and the record is
compared with what tensor-tidy reports on the same file: same check, same
line, or (where the checks stay silent) a dynamic-only finding.

  bench/tensor-run/public_code.py --sources DIR [--build build] [--seconds 60] [--only NAME]

DIR holds one checkout per repository, named owner+name (the layout
`fetch` leaves under /work/.mirror, or `git clone https://github.com/OWNER/NAME
DIR/OWNER+NAME`); a bare repository (a `.git`-less git directory, or
DIR/OWNER+NAME/repo) is read with `git archive`. Fashion-MNIST
(dataset-fashion-mnist) stands in for MNIST: same IDX format and sizes.
The repositories' code is never copied into this one.
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH_API = "/usr/include/torch/csrc/api/include"
FASHION = "/usr/share/datasets/fashion-mnist"
LIBS = ["-ltorch", "-ltorch_cpu", "-lc10", "-lpthread"]
WARNING = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):\d+: warning: (?P<msg>.*) \[(?P<check>tensor-[a-z-]+)\]$")

PROGRAMS = [
    {
        # A GAN: ConvTranspose2d generator, a Sequential discriminator from a
        # helper function. Its command line parser comes from p-ranav/argparse.
        "name": "dcgan",
        "repo": "pytorch+examples",
        "sources": ["cpp/dcgan/dcgan.cpp"],
        "includes": ["_deps/p-ranav+argparse/include"],
        "deps": [("p-ranav+argparse", ["include"])],
        "paths": ["cpp/dcgan"],
        "run_dir": "cpp/dcgan",
        "mnist_dir": "cpp/dcgan/data",
        "mutant": ("cpp/dcgan/dcgan.cpp", "torch::Tensor real_images = batch.data.to(device);",
                   "torch::Tensor real_images = batch.data;"),
    },
    {
        # Polynomial regression on the cpu: no device at all, so no mutant.
        "name": "regression",
        "repo": "pytorch+examples",
        "sources": ["cpp/regression/regression.cpp"],
        "includes": [],
        "run_dir": "cpp/regression",
        "mnist_dir": None,
        "mutant": None,
    },
    {
        "name": "mnist",
        "repo": "pytorch+examples",
        "sources": ["cpp/mnist/mnist.cpp"],
        "includes": [],
        "run_dir": "cpp/mnist",
        "mnist_dir": "cpp/mnist/data",
        "mutant": ("cpp/mnist/mnist.cpp", "auto data = batch.data.to(device), targets = batch.target.to(device);\n"
                   "    optimizer.zero_grad();",
                   "auto data = batch.data, targets = batch.target.to(device);\n    optimizer.zero_grad();"),
    },
    {
        "name": "feedforward_neural_network",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/basics/feedforward_neural_network/src/main.cpp",
                    "tutorials/basics/feedforward_neural_network/src/neural_net.cpp"],
        "includes": ["tutorials/basics/feedforward_neural_network/include"],
        "run_dir": "tutorials/basics/feedforward_neural_network/build",
        "mnist_dir": "data/mnist",
        "mutant": ("tutorials/basics/feedforward_neural_network/src/main.cpp",
                   "auto data = batch.data.view({batch_size, -1}).to(device);\n            auto target",
                   "auto data = batch.data.view({batch_size, -1});\n            auto target"),
    },
    {
        "name": "recurrent_neural_network",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/intermediate/recurrent_neural_network/src/main.cpp",
                    "tutorials/intermediate/recurrent_neural_network/src/rnn.cpp"],
        "includes": ["tutorials/intermediate/recurrent_neural_network/include"],
        "run_dir": "tutorials/intermediate/recurrent_neural_network/build",
        "mnist_dir": "data/mnist",
        "mutant": ("tutorials/intermediate/recurrent_neural_network/src/main.cpp",
                   "auto target = batch.target.to(device);\n\n            // Forward pass",
                   "auto target = batch.target;\n\n            // Forward pass"),
    },
    {
        # A tour of the tensor API: devices, views, autograd, modules,
        # optimizers, serialization.
        "name": "chapter01_hello_torch",
        "repo": "laplaceliu+build-your-own-llm-using-cpp-and-libtorch",
        "sources": ["chapters/chapter01_hello_torch/main.cpp"],
        "includes": [],
        "run_dir": "chapters/chapter01_hello_torch",
        "mnist_dir": None,
        "mutant": ("chapters/chapter01_hello_torch/main.cpp", "auto x_dev = torch::randn({2, 3}).to(device);",
                   "auto x_dev = torch::randn({2, 3});"),
    },
]


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def checkout(sources, repo, into, paths):
    """Copies the repository's `paths` (folders) into `into`: from a work
    tree as they are, from a bare repository through git archive (which may
    lack large files the programs do not need)."""
    for candidate in (os.path.join(sources, repo, "repo"), os.path.join(sources, repo)):
        if not os.path.isdir(candidate):
            continue
        if os.path.isdir(os.path.join(candidate, ".git")) or not os.path.exists(os.path.join(candidate, "HEAD")):
            for path in paths:
                shutil.copytree(os.path.join(candidate, path), os.path.join(into, path))
            head = sh(["git", "-C", candidate, "rev-parse", "HEAD"]).stdout.strip()
        else:
            os.makedirs(into)
            archive = subprocess.run(["git", "--git-dir", candidate, "archive", "HEAD"] + paths, capture_output=True,
                                     check=True)
            subprocess.run(["tar", "-x", "-C", into], input=archive.stdout, check=True)
            head = sh(["git", "--git-dir", candidate, "rev-parse", "HEAD"]).stdout.strip()
        return head or "unknown"
    sys.exit("public_code.py: no checkout of %s under %s" % (repo, sources))


def mnist_files(into):
    """Fashion-MNIST, uncompressed, under MNIST's file names."""
    os.makedirs(into, exist_ok=True)
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                 "t10k-labels-idx1-ubyte"):
        target = os.path.join(into, name)
        if os.path.exists(target):
            continue
        with gzip.open(os.path.join(FASHION, name + ".gz"), "rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)


def build(tree, program, out, pch_dir):
    objects = []
    includes = sum((["-I", os.path.join(tree, d)] for d in program["includes"]), [])
    includes += ["-D" + d for d in program.get("defines", [])] + program.get("flags", [])
    for i, src in enumerate(program["sources"]):
        obj = "%s.%d.o" % (out, i)
        r = sh(["g++", "-std=c++17", "-g", "-O1", "-D_GLIBCXX_USE_CXX11_ABI=1", "-I", pch_dir, "-isystem", TORCH_API]
               + includes + ["-c", os.path.join(tree, src), "-o", obj])
        if r.returncode != 0:
            sys.exit("build failed: %s\n%s" % (src, r.stderr[-3000:]))
        objects.append(obj)
    r = sh(["g++", "-o", out] + objects + LIBS)
    if r.returncode != 0:
        sys.exit("link failed: %s" % r.stderr[-2000:])


def precompile(pch_dir):
    """<torch/torch.h> precompiled once, found by g++ before the header."""
    gch = os.path.join(pch_dir, "torch", "torch.h.gch")
    os.makedirs(os.path.dirname(gch), exist_ok=True)
    r = sh(["g++", "-std=c++17", "-g", "-O1", "-D_GLIBCXX_USE_CXX11_ABI=1", "-isystem", TORCH_API, "-x", "c++-header",
            os.path.join(TORCH_API, "torch", "torch.h"), "-o", gch])
    if r.returncode != 0:
        sys.exit("precompiling torch.h failed:\n" + r.stderr[-2000:])
    # A second #include <torch/torch.h> in a TU finds the .gch unusable and
    # then needs the header itself beside it.
    os.symlink(os.path.join(TORCH_API, "torch", "torch.h"), os.path.join(pch_dir, "torch", "torch.h"))


def run(tensor_run, binary, run_dir, seconds, log):
    os.makedirs(run_dir, exist_ok=True)
    r = subprocess.run(["timeout", "--signal=INT", str(seconds), tensor_run, "--record", log, binary],
                       cwd=run_dir, capture_output=True, text=True)
    records = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
    return r.returncode, records, r.stdout + r.stderr


def tidy(tensor_tidy, pch, tree, program, path):
    includes = sum((["-I", os.path.join(tree, d)] for d in program["includes"]), [])
    includes += ["-D" + d for d in program.get("defines", [])] + program.get("flags", [])
    r = sh([tensor_tidy, path, "--checks=-*,tensor-*", "--", "-std=c++17", "-isystem", TORCH_API, "-include-pch", pch]
           + includes)
    found = set()
    for line in r.stdout.splitlines():
        m = WARNING.match(line)
        if m:
            found.add((os.path.realpath(m["file"]), int(m["line"]), m["check"]))
    return found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sources", required=True)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--only")
    a = p.parse_args()
    tensor_run = os.path.join(a.build, "bin", "tensor-run")
    tensor_tidy = os.path.join(a.build, "bin", "tensor-tidy")
    clang_pch = os.path.join(a.build, "test", "checks", "libtorch.pch")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        pch_dir = os.path.join(tmp, "pch")
        precompile(pch_dir)
        for program in PROGRAMS:
            if a.only and program["name"] != a.only:
                continue
            tree = os.path.join(tmp, program["name"])
            folders = program.get("paths") or sorted({os.path.dirname(p) for p in program["sources"]}
                                                     | set(program["includes"]))
            head = checkout(a.sources, program["repo"], tree, folders)
            for dep, paths in program.get("deps", []):
                checkout(a.sources, dep, os.path.join(tree, "_deps", dep), paths)
            if program["mnist_dir"]:
                mnist_files(os.path.join(tree, program["mnist_dir"]))
            print("== %s (%s @ %s)" % (program["name"], program["repo"].replace("+", "/"), head[:12]))

            binary = os.path.join(tmp, program["name"] + ".published")
            build(tree, program, binary, pch_dir)
            rc, records, output = run(tensor_run, binary, os.path.join(tree, program["run_dir"]), a.seconds,
                                      os.path.join(tmp, program["name"] + ".published.jsonl"))
            steps = "ran to the end" if rc == 0 else "stopped after %d s" % a.seconds if rc == 124 else "exit %d" % rc
            print("published: %s, %d records" % (steps, len(records)))
            if rc not in (0, 124) or records:
                ok = False
                print(output[-2000:])
                for r in records[:5]:
                    print("  " + json.dumps(r))

            if not program["mutant"]:
                continue
            path, old, new = program["mutant"]
            source = os.path.join(tree, path)
            text = open(source).read()
            if old not in text:
                sys.exit("the mutant's line is not in %s" % path)
            open(source, "w").write(text.replace(old, new, 1))
            line = text[:text.index(old)].count("\n") + 1
            binary = os.path.join(tmp, program["name"] + ".mutant")
            build(tree, program, binary, pch_dir)
            rc, records, output = run(tensor_run, binary, os.path.join(tree, program["run_dir"]), a.seconds,
                                      os.path.join(tmp, program["name"] + ".mutant.jsonl"))
            dynamic = {(os.path.realpath(r["file"]), r["line"], r["check"]) for r in records}
            static = set()
            for src in program["sources"] + ([path] if path not in program["sources"] else []):
                if src.endswith(".cpp"):
                    static |= tidy(tensor_tidy, clang_pch, tree, program, os.path.join(tree, src))
            both = static & dynamic
            print("mutant: the move at %s:%d removed; %d records at %s; tensor-tidy: %s; same check and line: %s"
                  % (path, line, len(records),
                     ", ".join(sorted({"%s:%d %s" % (os.path.basename(f), l, c) for f, l, c in dynamic})) or "none",
                     ", ".join(sorted("%s:%d %s" % (os.path.basename(f), l, c) for f, l, c in static)) or "nothing",
                     "yes" if both else "no"))
            if not records:
                ok = False
                print(output[-2000:])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
