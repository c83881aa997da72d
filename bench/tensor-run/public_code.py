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
import random
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
        "data": [("mnist", "cpp/dcgan/data")],
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
                "mutant": None,
    },
    {
        "name": "mnist",
        "repo": "pytorch+examples",
        "sources": ["cpp/mnist/mnist.cpp"],
        "includes": [],
        "run_dir": "cpp/mnist",
        "data": [("mnist", "cpp/mnist/data")],
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
        "data": [("mnist", "data/mnist")],
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
        "data": [("mnist", "data/mnist")],
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
                "mutant": ("chapters/chapter01_hello_torch/main.cpp", "auto x_dev = torch::randn({2, 3}).to(device);",
                   "auto x_dev = torch::randn({2, 3});"),
    },
    # The rest of prabhuomkar/pytorch-cpp's tutorials whose data can be made
    # here (its image-folder, captioning and style-transfer ones need real
    # photographs or a traced model). Its image_io helper is built as
    # published over stand-in stb headers that write no file.
    {
        "name": "linear_regression",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/basics/linear_regression/main.cpp"],
        "includes": [],
        "run_dir": "tutorials/basics/linear_regression/build",
        "mutant": ("tutorials/basics/linear_regression/main.cpp",
                   "auto y_train = torch::randint(0, 10, {15, 1},\n"
                   "                                  torch::TensorOptions(torch::kFloat).device(device));",
                   "auto y_train = torch::randint(0, 10, {15, 1},\n"
                   "                                  torch::TensorOptions(torch::kFloat));"),
    },
    {
        "name": "logistic_regression",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/basics/logistic_regression/main.cpp"],
        "includes": [],
        "run_dir": "tutorials/basics/logistic_regression/build",
        "data": [("mnist", "data/mnist")],
        "mutant": ("tutorials/basics/logistic_regression/main.cpp",
                   "auto data = batch.data.view({batch_size, -1}).to(device);",
                   "auto data = batch.data.view({batch_size, -1});"),
    },
    {
        # Conv2d, BatchNorm2d, residual blocks, avg_pool2d; its own CIFAR-10
        # reader and random-crop / flip transforms.
        "name": "deep_residual_network",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/intermediate/deep_residual_network/src/main.cpp",
                    "tutorials/intermediate/deep_residual_network/src/cifar10.cpp",
                    "tutorials/intermediate/deep_residual_network/src/residual_block.cpp",
                    "tutorials/intermediate/deep_residual_network/src/transform.cpp"],
        "includes": ["tutorials/intermediate/deep_residual_network/include"],
        "run_dir": "tutorials/intermediate/deep_residual_network/build",
        "data": [("cifar10", "data/cifar10")],
        "mutant": ("tutorials/intermediate/deep_residual_network/src/main.cpp",
                   "auto data = batch.data.to(device);", "auto data = batch.data;"),
    },
    {
        "name": "bidirectional_recurrent_neural_network",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/intermediate/bidirectional_recurrent_neural_network/src/main.cpp",
                    "tutorials/intermediate/bidirectional_recurrent_neural_network/src/bi_rnn.cpp"],
        "includes": ["tutorials/intermediate/bidirectional_recurrent_neural_network/include"],
        "run_dir": "tutorials/intermediate/bidirectional_recurrent_neural_network/build",
        "data": [("mnist", "data/mnist")],
        "mutant": ("tutorials/intermediate/bidirectional_recurrent_neural_network/src/main.cpp",
                   "auto data = batch.data.view({-1, sequence_length, input_size}).to(device);",
                   "auto data = batch.data.view({-1, sequence_length, input_size});"),
    },
    {
        # Embedding, a stateful LSTM, gradient clipping, multinomial sampling.
        "name": "language_model",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/intermediate/language_model/src/main.cpp",
                    "tutorials/intermediate/language_model/src/corpus.cpp",
                    "tutorials/intermediate/language_model/src/dictionary.cpp",
                    "tutorials/intermediate/language_model/src/rnn_lm.cpp"],
        "includes": ["tutorials/intermediate/language_model/include"],
        "run_dir": "tutorials/intermediate/language_model/build",
        "data": [("text", "data/penntreebank/train.txt")],
        "mutant": ("tutorials/intermediate/language_model/src/main.cpp",
                   "auto h = torch::zeros({num_layers, batch_size, hidden_size}).to(device).detach();",
                   "auto h = torch::zeros({num_layers, batch_size, hidden_size}).detach();"),
    },
    {
        "name": "generative_adversarial_network",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/advanced/generative_adversarial_network/main.cpp",
                    "utils/image_io/src/image_io.cpp"],
        "includes": ["utils/image_io/include", "_stb"],
        "run_dir": "tutorials/advanced/generative_adversarial_network/build",
        "data": [("mnist", "data/mnist"), ("stb", "_stb"),
                 ("folder", "tutorials/advanced/generative_adversarial_network/build/output")],
        "mutant": ("tutorials/advanced/generative_adversarial_network/main.cpp",
                   "auto z = torch::randn({batch_size, latent_size}).to(device);",
                   "auto z = torch::randn({batch_size, latent_size});"),
    },
    {
        "name": "variational_autoencoder",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/advanced/variational_autoencoder/src/main.cpp",
                    "tutorials/advanced/variational_autoencoder/src/variational_autoencoder.cpp",
                    "utils/image_io/src/image_io.cpp"],
        "includes": ["tutorials/advanced/variational_autoencoder/include", "utils/image_io/include", "_stb"],
        "run_dir": "tutorials/advanced/variational_autoencoder/build",
        "data": [("mnist", "data/mnist"), ("stb", "_stb"),
                 ("folder", "tutorials/advanced/variational_autoencoder/build/output")],
        "mutant": ("tutorials/advanced/variational_autoencoder/src/main.cpp",
                   "images = batch.data.reshape({-1, image_size}).to(device);",
                   "images = batch.data.reshape({-1, image_size});"),
    },
    {
        # The 60-minute blitz: tensors, autograd, a LeNet, a CIFAR-10
        # classifier, all on the cpu (no device move to remove).
        "name": "blitz_tensors",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/popular/blitz/tensors/main.cpp"],
        "includes": [],
        "run_dir": "tutorials/popular/blitz/tensors/build",
        "mutant": None,
    },
    {
        "name": "blitz_autograd",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/popular/blitz/autograd/main.cpp"],
        "includes": [],
        "run_dir": "tutorials/popular/blitz/autograd/build",
        "mutant": None,
    },
    {
        "name": "blitz_neural_networks",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/popular/blitz/neural_networks/src/main.cpp",
                    "tutorials/popular/blitz/neural_networks/src/nnet.cpp"],
        "includes": ["tutorials/popular/blitz/neural_networks/include"],
        "run_dir": "tutorials/popular/blitz/neural_networks/build",
        "mutant": None,
    },
    {
        "name": "blitz_training_a_classifier",
        "repo": "prabhuomkar+pytorch-cpp",
        "sources": ["tutorials/popular/blitz/training_a_classifier/src/main.cpp",
                    "tutorials/popular/blitz/training_a_classifier/src/cifar10.cpp",
                    "tutorials/popular/blitz/training_a_classifier/src/nnet.cpp"],
        "includes": ["tutorials/popular/blitz/training_a_classifier/include"],
        "run_dir": "tutorials/popular/blitz/training_a_classifier/build",
        "data": [("cifar10", "data/cifar10")],
        # Upstream comments out its torch::save(net, PATH), so after
        # training it stops at torch::load(net, PATH), with or without
        # tensor-run.
        "fails_as_published": "open file failed",
        "mutant": None,
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


def cifar10_files(into):
    """CIFAR-10's binary layout (a label byte, then 3x32x32 pixel bytes, 10,000
    rows a file) with seeded random pixels and labels 0-9: the programs read
    the real format, the values only feed training."""
    os.makedirs(into, exist_ok=True)
    rng = random.Random(1)
    for name in ["data_batch_%d.bin" % i for i in range(1, 6)] + ["test_batch.bin"]:
        rows = bytearray()
        for i in range(10000):
            rows.append(i % 10)
            rows += rng.randbytes(3 * 32 * 32)
        with open(os.path.join(into, name), "wb") as f:
            f.write(rows)


def text_file(path):
    """Penn Treebank-like text: 20,000 lines of seeded random words from a
    vocabulary of 2,000, for a word-level language model."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rng = random.Random(1)
    vocabulary = ["w%d" % i for i in range(2000)]
    with open(path, "w") as f:
        for _ in range(20000):
            f.write(" ".join(rng.choice(vocabulary) for _ in range(rng.randint(5, 25))) + "\n")


# Stand-ins for the stb single-header libraries (nothing to fetch here):
# the declarations pytorch-cpp's image_io uses; writing reports success and
# writes nothing, loading reports failure.
STB = {
    "stb_image.h": """#pragma once
unsigned char *stbi_load(const char *, int *, int *, int *, int);
void stbi_image_free(void *);
#ifdef STB_IMAGE_IMPLEMENTATION
unsigned char *stbi_load(const char *, int *, int *, int *, int) { return nullptr; }
void stbi_image_free(void *) {}
#endif
""",
    "stb_image_write.h": """#pragma once
int stbi_write_png(const char *, int, int, int, const void *, int);
int stbi_write_bmp(const char *, int, int, int, const void *);
int stbi_write_jpg(const char *, int, int, int, const void *, int);
#ifdef STB_IMAGE_WRITE_IMPLEMENTATION
int stbi_write_png(const char *, int, int, int, const void *, int) { return 1; }
int stbi_write_bmp(const char *, int, int, int, const void *) { return 1; }
int stbi_write_jpg(const char *, int, int, int, const void *, int) { return 1; }
#endif
""",
    "stb_image_resize2.h": """#pragma once
typedef enum { STBIR_1CHANNEL = 1, STBIR_RGB = 3, STBIR_RGBA = 4 } stbir_pixel_layout;
unsigned char *stbir_resize_uint8_linear(const unsigned char *, int, int, int, unsigned char *, int, int, int,
                                         stbir_pixel_layout);
#ifdef STB_IMAGE_RESIZE_IMPLEMENTATION
unsigned char *stbir_resize_uint8_linear(const unsigned char *, int, int, int, unsigned char *, int, int, int,
                                         stbir_pixel_layout) { return nullptr; }
#endif
""",
}


def data_files(tree, data):
    """Makes what a program reads: ("mnist", dir), ("cifar10", dir),
    ("text", file), ("stb", include dir) or an empty ("folder", dir)."""
    for kind, path in data:
        target = os.path.join(tree, path)
        if kind == "mnist":
            mnist_files(target)
        elif kind == "cifar10":
            cifar10_files(target)
        elif kind == "text":
            text_file(target)
        elif kind == "stb":
            os.makedirs(target, exist_ok=True)
            for name, text in STB.items():
                open(os.path.join(target, name), "w").write(text)
        elif kind == "folder":
            os.makedirs(target, exist_ok=True)
        else:
            sys.exit("public_code.py: unknown data kind %s" % kind)


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
    p.add_argument("--only", help="comma-separated program names")
    a = p.parse_args()
    tensor_run = os.path.join(a.build, "bin", "tensor-run")
    tensor_tidy = os.path.join(a.build, "bin", "tensor-tidy")
    clang_pch = os.path.join(a.build, "test", "checks", "libtorch.pch")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        pch_dir = os.path.join(tmp, "pch")
        precompile(pch_dir)
        for program in PROGRAMS:
            if a.only and program["name"] not in a.only.split(","):
                continue
            tree = os.path.join(tmp, program["name"])
            folders = program.get("paths") or sorted({os.path.dirname(p) for p in program["sources"]}
                                                     | {d for d in program["includes"] if not d.startswith("_")})
            head = checkout(a.sources, program["repo"], tree, folders)
            for dep, paths in program.get("deps", []):
                checkout(a.sources, dep, os.path.join(tree, "_deps", dep), paths)
            data_files(tree, program.get("data", []))
            print("== %s (%s @ %s)" % (program["name"], program["repo"].replace("+", "/"), head[:12]))

            binary = os.path.join(tmp, program["name"] + ".published")
            build(tree, program, binary, pch_dir)
            rc, records, output = run(tensor_run, binary, os.path.join(tree, program["run_dir"]), a.seconds,
                                      os.path.join(tmp, program["name"] + ".published.jsonl"))
            steps = "ran to the end" if rc == 0 else "stopped after %d s" % a.seconds if rc == 124 else "exit %d" % rc
            expected = program.get("fails_as_published")
            if expected and rc not in (0, 124) and expected in output:
                steps += " (as published: %s)" % expected
            print("published: %s, %d records" % (steps, len(records)))
            if (rc not in (0, 124) and not (expected and expected in output)) or records:
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
