#!/usr/bin/env python3
"""The installed package, tested as a user meets it (docs/install.md).

  run.py --build BUILD --source SRC --work DIR [--deb | --strip]

Installs BUILD into DIR/prefix with `cmake --install`, then from there only:
runs the installed tensor-tidy, the plugin under stock clang-tidy-19, the
report (with its installed docs) and the ci-check script (which must find
the binaries beside itself); builds test/install/consumer against the tt
runtime with find_package(tt) and with pkg-config, runs it on the cpu and
on an emulated cuda device, and again with the prefix moved elsewhere.
With --deb it builds the .deb with cpack instead and checks its contents;
with --strip it installs with `cmake --install --strip` (docs/install.md)
and checks that the binaries carry no debug information or symbol table
and still run.
Exits non-zero, saying what failed, on the first failure.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

EXPECTED = [
    "bin/tensor-tidy", "bin/tensor-clangd", "bin/tensor-tidy-report",
    "bin/tensor-run", "bin/tensor-tidy-ci-check", "bin/tensor-tidy-pre-commit-hook",
    "lib/TensorTidyModule.so", "lib/TensorTidyChecks.so", "lib/libtensor-run.so",
    "lib/libtt_runtime.a", "lib/libtt_validation_log.a",
    "lib/cmake/tt/ttConfig.cmake", "lib/cmake/tt/ttConfigVersion.cmake",
    "lib/cmake/tt/ttTargets.cmake", "lib/pkgconfig/tt.pc",
    "include/tt/tt.h", "include/tt/tensor.h",
    "share/tensor-tidy/recommended.clang-tidy",
    "share/tensor-tidy/docs/checks/tensor-discarded-cast.md",
    "share/tensor-tidy/cuda-compat/texture_fetch_functions.h",
]

BUG = """#include <torch/torch.h>
void step(torch::Tensor x) {
  x.to(torch::kHalf);
}
"""


def run(cmd, env=None, cwd=None, expect=0):
    res = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if expect is not None and res.returncode != expect:
        sys.exit("FAILED (exit %d, expected %d): %s\n%s" %
                 (res.returncode, expect, " ".join(cmd), res.stdout))
    return res.stdout


def want(text, needle, what):
    if needle not in text:
        sys.exit("FAILED: %s: '%s' not in:\n%s" % (what, needle, text))
    print("ok: %s" % what)


def clean_env():
    """The user's environment without this build's directories on PATH."""
    env = dict(os.environ)
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    for k in ("TT_EMULATE_CUDA", "TT_VALIDATE", "TT_VALIDATE_LOG", "PKG_CONFIG_PATH"):
        env.pop(k, None)
    return env


def check_tools(prefix, src, work):
    env = clean_env()
    bin_ = os.path.join(prefix, "bin")
    mock = os.path.join(src, "test/checks/Inputs/mock-libtorch")
    proj = os.path.join(work, "proj")
    os.makedirs(proj)
    with open(os.path.join(proj, "a.cpp"), "w") as f:
        f.write(BUG)

    out = run([os.path.join(bin_, "tensor-tidy"), "--version"], env)
    want(out, "tensor-tidy version", "installed tensor-tidy --version")
    flags = ["--", "-std=c++17", "-isystem", mock]
    out = run([os.path.join(bin_, "tensor-tidy"), "a.cpp"] + flags, env, proj)
    want(out, "a.cpp:3:5: warning: result of 'x.to(...)' is discarded",
         "installed tensor-tidy finds the bug with no configuration")
    out = run(["clang-tidy-19", "-load=" + os.path.join(prefix, "lib/TensorTidyModule.so"),
               "--checks=-*,tensor-*", "a.cpp"] + flags, env, proj)
    want(out, "[tensor-discarded-cast]", "the installed plugin under stock clang-tidy-19")

    # ci-check, installed as tensor-tidy-ci-check, finds tensor-tidy and the
    # report beside itself (they are not on PATH), and the report its docs.
    os.makedirs(os.path.join(proj, "build"))
    with open(os.path.join(proj, "build/compile_commands.json"), "w") as f:
        json.dump([{"directory": proj, "file": "a.cpp",
                    "arguments": ["clang++-19", "-std=c++17", "-isystem", mock,
                                  "-c", "a.cpp"]}], f)
    out = run([os.path.join(bin_, "tensor-tidy-ci-check"), "-p", "build",
               "--no-cache"], env, proj, expect=1)
    want(out, "a.cpp:3:5: warning: result of 'x.to(...)' is discarded",
         "installed ci-check runs the installed tensor-tidy")
    with open(os.path.join(proj, "build/tensor-tidy/out/report.sarif")) as f:
        sarif = json.load(f)
    rule = sarif["runs"][0]["tool"]["driver"]["rules"][0]
    want(rule["help"].get("markdown", ""), "# tensor-discarded-cast",
         "installed report's SARIF rule help (from share/tensor-tidy/docs)")
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    want(uri, "a.cpp", "report URIs relative to the working directory")


def build_consumer(prefix, src, work, tag, env_extra=None):
    """Builds the consumer with CMake and with pkg-config; returns both paths."""
    consumer = os.path.join(src, "test/install/consumer")
    env = clean_env()
    cmake_build = os.path.join(work, "cmake-" + tag)
    run(["cmake", "-S", consumer, "-B", cmake_build, "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + prefix], env)
    run(["cmake", "--build", cmake_build], env)
    env_pc = dict(env, PKG_CONFIG_PATH=os.path.join(prefix, "lib/pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "tt"], env_pc).split()
    pc_exe = os.path.join(work, "consumer-pc-" + tag)
    run(["g++", "-std=c++20", "-O1", os.path.join(consumer, "main.cpp"), "-o", pc_exe]
        + flags, env)
    return [os.path.join(cmake_build, "consumer"), pc_exe]


def check_consumer(exes, what):
    env = clean_env()
    for exe, how in zip(exes, ("find_package(tt)", "pkg-config")):
        out = run([exe], env)
        want(out, "sum 30", "%s consumer built with %s computes" % (what, how))
        out = run([exe], dict(env, TT_EMULATE_CUDA="1"))
        want(out, "cuda available 1", "%s consumer (%s) on an emulated cuda device" % (what, how))
        want(out, "main.cpp:21", "%s consumer (%s): the device error names the user's line" % (what, how))


def check_deb(build, work):
    out_dir = os.path.join(work, "deb")
    run(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"),
         "-B", out_dir])
    debs = [f for f in os.listdir(out_dir) if f.endswith(".deb")]
    if len(debs) != 1:
        sys.exit("FAILED: expected one .deb in %s, found %s" % (out_dir, debs))
    deb = os.path.join(out_dir, debs[0])
    info = run(["dpkg-deb", "--info", deb])
    want(info, "Package: tensor-tidy", "the .deb's name")
    want(info, "Depends:", "the .deb's dependencies (dpkg-shlibdeps)")
    want(info, "libclang-cpp19", "the .deb depends on clang 19's library")
    contents = run(["dpkg-deb", "--contents", deb])
    for path in EXPECTED:
        want(contents, "./usr/" + path, "the .deb holds /usr/" + path)


def elf_sections(path):
    """The section names of an ELF file, or None when it is not one."""
    res = subprocess.run(["readelf", "-SW", path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    if res.returncode != 0:
        return None
    return {f.split()[0] for f in (l.split("]", 1)[1] for l in res.stdout.splitlines()
                                   if l.strip().startswith("[") and "]" in l) if f.split()}


def tree_size(root):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)


def check_strip(build, work):
    """`cmake --install --strip`: the binaries and shared libraries lose their
    debug information and symbol tables (341 MB installed unstripped against
    93 MB from the .deb, which cpack strips), and still run."""
    prefix = os.path.join(work, "prefix")
    run(["cmake", "--install", build, "--prefix", prefix, "--strip"])
    binaries = [p for p in EXPECTED if p.startswith("bin/") or p.endswith(".so")]
    for path in binaries:
        full = os.path.join(prefix, path)
        sections = elf_sections(full)
        if sections is None:
            continue  # a script (ci-check, the hook)
        left = sorted(s for s in sections if s.startswith(".debug") or s == ".symtab")
        if left:
            sys.exit("FAILED: %s is not stripped: %s" % (path, ", ".join(left)))
    print("ok: every installed binary and shared library is stripped")
    size = tree_size(prefix)
    print("ok: installed with --strip: %d MB" % (size >> 20))
    out = run([os.path.join(prefix, "bin/tensor-tidy"), "--version"], clean_env())
    want(out, "tensor-tidy version", "the stripped tensor-tidy runs")
    out = run([os.path.join(prefix, "bin/tensor-run"), "--version"], clean_env())
    want(out, "tensor-run", "the stripped tensor-run runs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--deb", action="store_true")
    ap.add_argument("--strip", action="store_true")
    a = ap.parse_args()
    a.build, a.source, a.work = (os.path.abspath(p) for p in (a.build, a.source, a.work))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    if a.deb:
        check_deb(a.build, a.work)
        return
    if a.strip:
        check_strip(a.build, a.work)
        print("PASS")
        return
    prefix = os.path.join(a.work, "prefix")
    run(["cmake", "--install", a.build, "--prefix", prefix])
    for path in EXPECTED:
        if not os.path.exists(os.path.join(prefix, path)):
            sys.exit("FAILED: %s was not installed" % path)
    print("ok: every expected file installed")
    check_tools(prefix, a.source, a.work)
    check_consumer(build_consumer(prefix, a.source, a.work, "here"), "installed")
    # A relocated prefix (an unpacked .deb, a copied tree): the package files
    # locate themselves.
    moved = os.path.join(a.work, "moved-prefix")
    shutil.move(prefix, moved)
    check_consumer(build_consumer(moved, a.source, a.work, "moved"), "relocated")
    print("PASS")


if __name__ == "__main__":
    main()
