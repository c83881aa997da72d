#!/usr/bin/env python3
"""The tensor-* checks on real LibTorch projects: precision and mutation recall.

A corpus is a folder of projects, one folder each, holding their sources in
their own layout (third-party code: it is not part of this repository;
bench/checks/corpus.tsv lists the files measured for docs/evaluation.md by
repository, path and commit). A project folder may hold INCLUDES.txt, one
include directory per line relative to it; every folder with headers is on
the include path too. Translation units compile against the Debian LibTorch
and OpenCV headers, as C++17.

  real_code.py precision CORPUS [--tidy build/bin/tensor-tidy] [-j 2]
                           [--clean-units F]
      Runs every tensor-* check over every .cpp/.cc of the corpus and prints
      each finding (to be judged by hand: true bug or false positive), the
      TUs that did not parse cleanly (their findings still count: the
      checks must stay quiet on broken code too) and any crash.

  real_code.py mutants CORPUS [--tidy ...] [-n 60] [--seed 1] [--clean-units F]
      The seeds' bug, planted: in TUs with no finding and no compile error,
      removes one `.to(device)`-like move (`.to(device)`, `.to(torch::kCUDA)`,
      `.cuda()`) from a tensor expression, one at a time, and counts the
      mutants on which some tensor-* check reports. A mutant need not be a
      bug (the tensor may never meet the model), so this is a lower bound
      to compare analyses by, not a recall figure on its own.
"""

import argparse
import concurrent.futures as cf
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH_API = "/usr/include/torch/csrc/api/include"
OPENCV = "/usr/include/opencv4"
WARNING = re.compile(r"warning: .*\[tensor-[a-z-]+\]")
MOVE = re.compile(r"\.to\(\s*(device|m_device|device_|_device|dev|torch::kCUDA|"
                  r"at::kCUDA|kCUDA|torch::Device\(torch::kCUDA\))\s*\)|\.cuda\(\)")
# Lines that move a module (in place, not a bug to remove) or that are a
# discarded move already.
MODULE_MOVE = re.compile(r"(->|\b(model|module|net|network)\w*\.)(to|cuda)\(", re.I)
STATEMENT_MOVE = re.compile(r"^\s*[\w.\[\]]+\s*\.(to|cuda)\(")


def projects(corpus):
    return sorted(os.path.join(corpus, d) for d in os.listdir(corpus)
                  if os.path.isdir(os.path.join(corpus, d)))


def include_dirs(project):
    dirs = ["."]
    listed = os.path.join(project, "INCLUDES.txt")
    if os.path.exists(listed):
        dirs += [l.strip() for l in open(listed) if l.strip()]
    for root, _, files in os.walk(project):
        if any(f.endswith((".h", ".hpp", ".hh")) for f in files):
            dirs += [os.path.relpath(root, project),
                     os.path.relpath(os.path.dirname(root), project)]
    return list(dict.fromkeys(os.path.normpath(os.path.join(project, d)) for d in dirs))


def units(corpus):
    for project in projects(corpus):
        incs = include_dirs(project)
        for root, _, files in os.walk(project):
            for f in sorted(files):
                if f.endswith((".cpp", ".cc", ".cxx")) and not f.startswith("__mutant"):
                    yield project, incs, os.path.join(root, f)


def tidy(args, project, incs, tu, path=None):
    cmd = [args.tidy, path or tu, "--checks=-*,tensor-*",
           "--header-filter=" + re.escape(project) + "/.*", "--",
           "-std=c++17", "-w", "-I" + TORCH_API, "-I" + OPENCV,
           "-I" + os.path.dirname(tu)] + ["-I" + d for d in incs]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        out = r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return {"warnings": [], "errors": 0, "crash": "timeout"}
    return {"warnings": [l for l in out.splitlines() if WARNING.search(l)],
            "errors": sum(1 for l in out.splitlines() if " error: " in l),
            "crash": "crash" if ("Stack dump" in out or "PLEASE submit" in out) else ""}


def precision(args):
    jobs = list(units(args.corpus))
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(lambda j: (j[2], tidy(args, *j)), jobs))
    findings = [(tu, w) for tu, r in results for w in r["warnings"]]
    broken = [tu for tu, r in results if r["errors"]]
    crashes = [(tu, r["crash"]) for tu, r in results if r["crash"]]
    print("translation units: %d (%d with compile errors), projects: %d"
          % (len(results), len(broken), len(projects(args.corpus))))
    for tu in broken:
        print("  compile errors: %s" % os.path.relpath(tu, args.corpus))
    print("crashes or timeouts: %d" % len(crashes))
    for tu, why in crashes:
        print("  %s: %s" % (os.path.relpath(tu, args.corpus), why))
    print("findings: %d" % len(findings))
    for tu, w in findings:
        print("  " + w.replace(args.corpus.rstrip("/") + "/", ""))
    if args.clean_units:
        with open(args.clean_units, "w") as f:
            for tu, r in results:
                if not r["warnings"] and not r["errors"] and not r["crash"]:
                    f.write(tu + "\n")
    return 1 if crashes else 0


def mutants(args):
    known = set(l.strip() for l in open(args.clean_units)) if args.clean_units else None
    candidates = list(units(args.corpus))
    if known is not None:
        clean = [u for u in candidates if u[2] in known]
    else:
        def is_clean(unit):
            r = tidy(args, *unit)
            return not r["warnings"] and not r["errors"] and not r["crash"]

        # The clean pass is most of the run: it goes -j wide, as precision does.
        with cf.ThreadPoolExecutor(args.jobs) as ex:
            flags = list(ex.map(is_clean, candidates))
        clean = [u for u, ok in zip(candidates, flags) if ok]
    sites = []
    for project, incs, tu in clean:
        for i, line in enumerate(open(tu, errors="replace").read().split("\n")):
            if line.strip().startswith("//") or MODULE_MOVE.search(line):
                continue
            if STATEMENT_MOVE.match(line) and "=" not in line:
                continue
            sites += [(project, incs, tu, i, m.start(), m.end()) for m in MOVE.finditer(line)]
    random.Random(args.seed).shuffle(sites)
    chosen = sites[:args.n]

    def run(site):
        project, incs, tu, i, a, b = site
        lines = open(tu, errors="replace").read().split("\n")
        before = lines[i]
        lines[i] = before[:a] + before[b:]
        path = os.path.join(os.path.dirname(tu), "__mutant_%d_%d.cpp" % (i, a))
        with open(path, "w") as f:
            f.write("\n".join(lines))
        try:
            r = tidy(args, project, incs, tu, path)
        finally:
            os.remove(path)
        return tu, i + 1, lines[i].strip(), r["warnings"]

    with cf.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(run, chosen))
    hits = sum(1 for r in results if r[3])
    print("clean translation units: %d, candidate moves: %d, mutants run: %d"
          % (len(clean), len(sites), len(results)))
    print("mutants reported: %d of %d" % (hits, len(results)))
    for tu, line, text, warns in results:
        print("  %s %s:%d  %s" % ("hit " if warns else "miss", os.path.relpath(tu, args.corpus),
                                  line, text[:90]))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["precision", "mutants"])
    p.add_argument("corpus")
    p.add_argument("--tidy", default=os.path.join(ROOT, "build", "bin", "tensor-tidy"))
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("-n", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clean-units", help="precision: write the TUs with no finding "
                   "and no error here; mutants: take them from here instead of "
                   "running the checks over the corpus first")
    args = p.parse_args()
    args.corpus = os.path.abspath(args.corpus)
    return precision(args) if args.mode == "precision" else mutants(args)


if __name__ == "__main__":
    sys.exit(main())
