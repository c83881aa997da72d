#!/usr/bin/env python3
"""Runs one check test through every front end and verifies it with FileCheck.

Usage (from a lit RUN line, via the %check_tidy substitution):

  check_tidy.py [--frontends=plugin,tensor-tidy,clangd] FILE CHECK TMP \
      [-- TIDY_ARGS... [-- COMPILE_ARGS...]]

In the style of clang-tidy's own check_clang_tidy.py: the test file holds
the code and its expectations. CHECK-MESSAGES lines are matched against the
diagnostics, with every other warning or error forbidden; CHECK-FIXES lines
against the file after the fix-its are applied. A file with neither must
produce no diagnostic at all.

Front ends:
  plugin       stock clang-tidy-19 -load=TensorTidyModule.so
  tensor-tidy  build/bin/tensor-tidy
  clangd       build/bin/tensor-clangd over a real LSP session (lsp_client.py):
               diagnostics come from publishDiagnostics and fixes from the
               code actions the server offers for them.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lsp_client  # noqa: E402

FRONTENDS = ("plugin", "tensor-tidy", "clangd")


def fail(msg):
    sys.exit("check_tidy.py: " + msg)


def split_args(rest):
    """Splits 'TIDY_ARGS -- COMPILE_ARGS' (both optional)."""
    if rest and rest[0] == "--":
        rest = rest[1:]
    if "--" in rest:
        i = rest.index("--")
        return rest[:i], rest[i + 1:]
    return rest, []


def without_pch(compile_args, header):
    result = []
    args = iter(compile_args)
    for arg in args:
        if arg == "-include-pch":
            next(args, None)
            if not header:
                fail("-include-pch needs --pch-header for clangd")
            result += ["-include", header]
        else:
            result.append(arg)
    return result


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=300, **kw)


def file_check(filecheck, test_file, input_file, prefix, extra=()):
    cmd = [filecheck, "-input-file=" + input_file, test_file,
           "-check-prefix=" + prefix, *extra]
    res = run(cmd)
    if res.returncode != 0:
        print(res.stdout)
        fail("FileCheck %s failed on %s" % (prefix, input_file))


def tidy_command(frontend, args, source, check, tidy_args, compile_args):
    if frontend == "plugin":
        exe = [args.clang_tidy, "-load=" + args.plugin]
    else:
        exe = [args.tensor_tidy]
    return exe + [source, "-fix", "--checks=-*," + check, *tidy_args,
                  "--", *compile_args]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frontends", default=",".join(FRONTENDS))
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--tensor-tidy", required=True)
    parser.add_argument("--tensor-clangd", required=True)
    parser.add_argument("--filecheck", required=True)
    parser.add_argument("--pch-header",
                        help="the header that -include-pch files were built "
                        "from: clangd ignores -include-pch and builds its "
                        "own preamble, so it is given this header instead")
    parser.add_argument("file")
    parser.add_argument("check")
    parser.add_argument("tmp")
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i:]
    args = parser.parse_args(argv)
    tidy_args, compile_args = split_args(rest)

    with open(args.file, encoding="utf-8") as f:
        original = f.read()
    has_messages = "CHECK-MESSAGES" in original
    has_fixes = "CHECK-FIXES" in original
    # Blank the expectations (keeping line numbers) so that CHECK-FIXES can
    # only match code, never the expectation comments themselves.
    cleaned = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", original)
    ext = os.path.splitext(args.file)[1] or ".cpp"

    for frontend in args.frontends.split(","):
        if frontend not in FRONTENDS:
            fail("unknown front end " + frontend)
        workdir = "%s.%s" % (args.tmp, frontend)
        shutil.rmtree(workdir, ignore_errors=True)
        os.makedirs(workdir)
        source = os.path.join(workdir, "test" + ext)
        with open(source, "w", encoding="utf-8") as f:
            f.write(cleaned)

        if frontend == "clangd":
            output = lsp_client.diagnose_and_fix(
                args.tensor_clangd, source, args.check, tidy_args,
                without_pch(compile_args, args.pch_header))
        else:
            res = run(tidy_command(frontend, args, source, args.check,
                                   tidy_args, compile_args))
            output = res.stdout
            # clang-tidy exits non-zero on compiler errors; FileCheck's
            # implicit-check-not below reports those with their text.
        out_file = os.path.join(workdir, "output.txt")
        with open(out_file, "w", encoding="utf-8") as f:
            f.write(output)
        print("==== %s ====\n%s" % (frontend, output))

        if has_messages:
            file_check(args.filecheck, args.file, out_file, "CHECK-MESSAGES",
                       ["-implicit-check-not={{warning|error}}:"])
        elif re.search(r"\b(warning|error):", output):
            fail("%s: expected no diagnostics, got:\n%s" % (frontend, output))
        if has_fixes:
            file_check(args.filecheck, args.file, source, "CHECK-FIXES",
                       ["-strict-whitespace"])
        elif cleaned != open(source, encoding="utf-8").read():
            fail("%s changed the file but the test has no CHECK-FIXES" %
                 frontend)


if __name__ == "__main__":
    main()
