#!/usr/bin/env python3
"""Compiles, runs through tensor-tidy or parses every example in the docs.

  docs_examples.py --clangxx CLANG++ --tensor-tidy TIDY --mock DIR \
      --tt-include DIR MARKDOWN...

The convention (an HTML comment on the line before the fence, invisible on
GitHub):

  <!-- test: compile [tidy] -->  the ```cpp block is a complete translation
                                 unit: clang++ -fsyntax-only -std=c++17
                                 against the LibTorch mock and tt's headers.
  <!-- test: body(PARAMS) -->    the block is statements (the usual shape of
                                 an example): its #include lines go first,
                                 the rest becomes the body of
                                 `void doc_example(PARAMS)`. A block without
                                 #include gets <tt/tt.h> if it uses tt::,
                                 else <torch/torch.h> and a user-defined
                                 module `Net` (TORCH_MODULE).
  <!-- test: body(PARAMS) tidy --> as body, and also run tensor-tidy
                                 --checks=-*,tensor-* on it: every
                                 `warning:`/`note:` message of the untyped
                                 ``` block right after it must be among
                                 tensor-tidy's, and every warning of the
                                 checks it shows must be shown (for a
                                 complete file, at the same line:col).
  <!-- test: skip REASON -->     not compiled, with the reason written down.

Every ```cpp block must carry one of them, so a new example cannot slip by
untested. Every ```yaml block is parsed with PyYAML, every ```json block as
JSON (or, failing that, as JSON lines); `<!-- test: skip REASON -->` opts
one out.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("docs_examples.py: PyYAML is missing for %s (Debian: python3-yaml; "
             "tools/setup installs it)" % sys.executable)

MARKER_RE = re.compile(r"<!--\s*test:\s*(.*?)\s*-->")
FENCE_RE = re.compile(r"^```(\S*)\s*$")
DIAG_RE = re.compile(r"^\S+:(\d+:\d+): (warning|note): (.*)$")

TORCH_PRELUDE = """#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Net);
"""


def blocks(path):
    """(line, language, marker, text, following untyped block text)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        marker = None
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0:
            mm = MARKER_RE.search(lines[k])
            if mm:
                marker = mm.group(1)
        found.append([start + 1, lang, marker, "\n".join(lines[start + 1:j]),
                      None])
        i = j + 1
    # The output block shown right after a code block (``` with no
    # language, directly following).
    for a, b in zip(found, found[1:]):
        if b[1] == "" and b[2] is None:
            a[4] = b[3]
    return found


def compile_source(args, source, tidy):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "example.cpp")
        with open(src, "w") as f:
            f.write(source)
        # tt needs C++20 (std::source_location, concepts); LibTorch 1.13
        # examples are C++17, as its users compile them.
        std = "c++20" if "#include <tt/" in source else "c++17"
        flags = ["-std=" + std, "-isystem", args.mock, "-I", args.tt_include]
        res = subprocess.run([args.clangxx, "-fsyntax-only", *flags, src],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        if res.returncode != 0:
            return "does not compile:\n" + res.stdout, None
        if not tidy:
            return None, None
        res = subprocess.run([args.tensor_tidy, "--quiet",
                              "--checks=-*,tensor-*", src, "--", *flags],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        return None, res.stdout


def check_cpp(args, marker, text, shown):
    m = re.fullmatch(r"(compile|body)(?:\((.*)\))?(\s+tidy)?", marker)
    if m and m.group(1) == "compile" and m.group(2) is not None:
        return "'compile' takes no parameters (use body(...))"
    if not m:
        return "unknown marker '%s'" % marker
    kind, params, tidy = m.group(1), m.group(2) or "", bool(m.group(3))
    if kind == "compile":
        source = text + "\n"
    else:
        includes = [l for l in text.split("\n") if l.startswith("#include")]
        body = [l for l in text.split("\n") if not l.startswith("#include")]
        if includes:
            prelude = "\n".join(includes) + "\n"
        elif "tt::" in text:
            prelude = "#include <tt/tt.h>\n"
        else:
            prelude = TORCH_PRELUDE
        source = "%svoid doc_example(%s) {\n%s\n}\n" % (
            prelude, params, "\n".join(body))
    error, output = compile_source(args, source, tidy)
    if error:
        return error + "\n--- as compiled:\n" + source
    if tidy:
        if not shown:
            return "'tidy' needs the expected output in a ``` block after it"
        # A complete file keeps its line numbers, so line:col must match
        # too; a wrapped body is compared by severity and message.
        def diags(text):
            found = [m.groups() for m in map(DIAG_RE.match, text.split("\n")) if m]
            return [g if kind == "compile" else g[1:] for g in found]
        want, got = diags(shown), diags(output)
        missing = [w for w in want if w not in got]
        # A produced warning must be shown when its check is one the block
        # shows (an example may leave another check's warning to its page).
        shown_checks = set(re.findall(r"\[([\w-]+)\]$", shown, re.M))
        extra = [g for g in got if g[-2] == "warning" and g not in want
                 and re.search(r"\[([\w-]+)\]$", g[-1]).group(1) in shown_checks]
        if missing or extra or not want:
            return ("the shown diagnostics differ from tensor-tidy's:\n"
                    "  shown, not produced: %s\n  produced, not shown: %s\n"
                    "--- tensor-tidy said:\n%s" % (missing, extra, output))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--tensor-tidy", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--tt-include", required=True)
    ap.add_argument("docs", nargs="+")
    args = ap.parse_args()

    failures = []
    counts = {"compiled": 0, "tidy": 0, "yaml": 0, "json": 0, "skipped": 0}
    for path in sorted(args.docs):
        for line, lang, marker, text, shown in blocks(path):
            where = "%s:%d" % (os.path.basename(path), line)
            if marker and marker.startswith("skip"):
                if lang in ("cpp", "yaml", "json"):
                    if not marker[4:].strip():
                        failures.append("%s: skip without a reason" % where)
                    counts["skipped"] += 1
                continue
            if lang == "cpp":
                if not marker:
                    failures.append("%s: ```cpp block without a "
                                    "<!-- test: ... --> marker" % where)
                    continue
                error = check_cpp(args, marker, text, shown)
                if error:
                    failures.append("%s: %s" % (where, error))
                counts["compiled"] += 1
                counts["tidy"] += marker.endswith("tidy")
            elif lang == "yaml":
                try:
                    list(yaml.safe_load_all(text))
                except yaml.YAMLError as e:
                    failures.append("%s: invalid YAML: %s" % (where, e))
                counts["yaml"] += 1
            elif lang == "json":
                try:
                    json.loads(text)
                except ValueError:
                    try:
                        for l in text.split("\n"):
                            if l.strip():
                                json.loads(l)
                    except ValueError as e:
                        failures.append("%s: invalid JSON: %s" % (where, e))
                counts["json"] += 1
    for f in failures:
        print("FAIL " + f)
    print("docs examples: %(compiled)d C++ compiled (%(tidy)d also through "
          "tensor-tidy), %(yaml)d YAML and %(json)d JSON parsed, "
          "%(skipped)d skipped" % counts)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
