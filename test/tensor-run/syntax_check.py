#!/usr/bin/env python3
"""A syntax-only compile of one tensor-run source against another LibTorch's
headers (ctest tensor-run.libtorch-2.11.syntax.*; test/tensor-run/CMakeLists.txt).

  syntax_check.py --headers DIR [--reject ROOT]... -- COMPILER FLAGS... SOURCE

Runs COMPILER -fsyntax-only -H FLAGS SOURCE. Fails when it does not compile,
or when a LibTorch header came from a ROOT (ROOT/ATen, c10, torch, caffe2:
Debian's 1.13 in /usr/include, which the compiler searches after DIR), so a
header that DIR lacks cannot pass unnoticed by compiling from the other
LibTorch's copy.
"""
import argparse
import os
import subprocess
import sys

LIBTORCH_DIRS = ("ATen", "c10", "torch", "caffe2")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--headers", required=True, help="the LibTorch include folder compiled against")
    parser.add_argument("--reject", action="append", default=[],
                        help="a folder holding another LibTorch's headers, none of which may be included")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if len(command) < 2:
        parser.error("needs COMPILER FLAGS... SOURCE")
    if not os.path.isdir(args.headers):
        print("syntax_check.py: %s does not exist (build the target libtorch-2.11-headers)" % args.headers)
        return 2
    source = command[-1]
    res = subprocess.run([command[0], "-fsyntax-only", "-H"] + command[1:],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    headers, diagnostics = [], []
    for line in res.stdout.splitlines():
        dots, _, path = line.partition(" ")
        if dots and set(dots) == {"."} and path:
            headers.append(os.path.realpath(path))
        elif line.startswith("Multiple include guards may be useful for:"):
            break  # GCC's -H ends with that list of files
        else:
            diagnostics.append(line)
    if diagnostics:
        print("\n".join(diagnostics))
    if res.returncode != 0:
        print("%s: does not compile against %s" % (source, args.headers))
        return 1
    rejected = [os.path.join(os.path.realpath(root), d) + os.sep for root in args.reject for d in LIBTORCH_DIRS]
    strays = sorted({h for h in headers if h.startswith(tuple(rejected))})
    if strays:
        print("%s: includes %d header(s) of another LibTorch, not of %s:\n  %s"
              % (source, len(strays), args.headers, "\n  ".join(strays[:20])))
        return 1
    own = os.path.realpath(args.headers) + os.sep
    print("%s: compiles against %s (%d of its headers)"
          % (source, args.headers, sum(h.startswith(own) for h in headers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
