#!/usr/bin/env python3
"""Checks that the op sweep covers LibTorch's torch::nn surface.

    inventory.py --headers DIR/torch/nn --sweep-inventory FILE

DIR/torch/nn is LibTorch's C++ API header directory (for Debian's LibTorch
1.13: /usr/include/torch/csrc/api/include/torch/nn). From it:

  - modules: every NAME in TORCH_MODULE(NAME) under modules/ (the macro in
    code, not in comments), and every `class NAME : public ModuleHolder<...>`
    (Sequential, Embedding and EmbeddingBag are declared that way);
  - functions: every function of namespace torch::nn::functional declared in
    functional/*.h, outside `namespace detail { ... }` blocks.

FILE is the output of `tensor_run_sweep --inventory`: tab-separated lines
`case<TAB>family<TAB>name` or `skip<TAB>family<TAB>name<TAB>why`. A module
case "Conv2d(depthwise)" covers Conv2d; functions are named "F::name".

Exit status 0 with a one-line summary when every module and function has a
case or a skip; 1 with the list of those that have neither; 2 on bad usage.
"""

import argparse
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def strip_comments_and_literals(text):
    """Blanks comments, string and character literals and preprocessor lines,
    keeping newlines (so nothing in them is mistaken for code)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor directive, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        at_line_start = False
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c in "\"'":
            # A digit separator (1'000) is no character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|[{}()<>;,=]|\S")


def public_functions(code):
    """Names of the functions declared `inline` in namespace functional (at
    namespace scope, not in a class or function), outside namespace detail."""
    tokens = TOKEN.findall(code)
    names = set()
    # The brace stack: a namespace's name (possibly "a::b"), or None for any
    # other brace (class, function body, initialiser, enum, lambda).
    stack = []
    pending_namespace = None  # the name of `namespace NAME` until its '{'
    i, n = 0, len(tokens)

    def namespaces():
        for entry in stack:
            if entry is None:
                return None
        parts = []
        for entry in stack:
            parts.extend(entry.split("::"))
        return parts

    while i < n:
        t = tokens[i]
        if t == "namespace":
            # namespace NAME {, namespace a::b::c {, namespace {, namespace X = Y;
            j = i + 1
            name = []
            while j < n and (IDENT.fullmatch(tokens[j]) or tokens[j] == "::"):
                name.append(tokens[j])
                j += 1
            if j < n and tokens[j] == "{":
                pending_namespace = "".join(name) or "(anonymous)"
                i = j
                continue
            i = j
            continue
        if t == "{":
            stack.append(pending_namespace)
            pending_namespace = None
        elif t == "}":
            if stack:
                stack.pop()
        elif t == ";":
            pending_namespace = None
        elif t == "inline" and i + 1 < n and tokens[i + 1] == "namespace":
            pass  # an inline namespace: handled at the next token
        elif t == "inline":
            ns = namespaces()
            if ns is not None and "functional" in ns and "detail" not in ns:
                # The name is the identifier before the first '(' outside
                # template angle brackets.
                j = i + 1
                angle = 0
                prev = None
                while j < n and tokens[j] not in (";", "{"):
                    tok = tokens[j]
                    if tok == "<":
                        angle += 1
                    elif tok == ">":
                        angle = max(0, angle - 1)
                    elif tok == "(" and angle == 0:
                        break
                    prev = tok
                    j += 1
                if j < n and tokens[j] == "(" and prev and IDENT.fullmatch(prev) and prev != "operator":
                    names.add(prev)
        i += 1
    return names


TORCH_MODULE = re.compile(r"\bTORCH_MODULE\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)")
HOLDER_CLASS = re.compile(
    r"\bclass\s+(?:TORCH_API\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:final\s*)?:\s*public\s+"
    r"(?:(?:::)?torch\s*::\s*nn\s*::\s*)?ModuleHolder\s*<")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def header_modules(nn_dir):
    names = set()
    root = os.path.join(nn_dir, "modules")
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith((".h", ".hpp")):
                code = strip_comments_and_literals(read(os.path.join(dirpath, f)))
                names.update(TORCH_MODULE.findall(code))
                names.update(HOLDER_CLASS.findall(code))
    return names


def header_functions(nn_dir):
    names = set()
    root = os.path.join(nn_dir, "functional")
    for f in sorted(os.listdir(root)):
        if f.endswith((".h", ".hpp")):
            names.update(public_functions(strip_comments_and_literals(read(os.path.join(root, f)))))
    return names


def base_name(family, name):
    name = name.strip()
    if family == "functional" and name.startswith("F::"):
        name = name[3:]
    paren = name.find("(")
    if paren >= 0:
        name = name[:paren]
    return name.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--headers", required=True, help="LibTorch's torch/nn header directory")
    parser.add_argument("--sweep-inventory", required=True, help="the output of tensor_run_sweep --inventory")
    args = parser.parse_args()

    if not os.path.isdir(os.path.join(args.headers, "modules")) or not os.path.isdir(
            os.path.join(args.headers, "functional")):
        print(f"inventory.py: {args.headers} has no modules/ and functional/ (give LibTorch's torch/nn directory)",
              file=sys.stderr)
        return 2
    modules = header_modules(args.headers)
    functions = header_functions(args.headers)
    if not modules or not functions:
        print(f"inventory.py: found {len(modules)} modules and {len(functions)} functions under {args.headers}",
              file=sys.stderr)
        return 2

    covered = {"module": set(), "functional": set()}
    skipped = {"module": set(), "functional": set()}
    try:
        lines = read(args.sweep_inventory).splitlines()
    except OSError as e:
        print(f"inventory.py: cannot read {args.sweep_inventory}: {e.strerror}", file=sys.stderr)
        return 2
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if fields[0] not in ("case", "skip") or len(fields) < 3 or (fields[0] == "skip" and len(fields) < 4):
            print(f"inventory.py: {args.sweep_inventory}:{number}: not a case or skip line: {line!r}",
                  file=sys.stderr)
            return 2
        kind, family, name = fields[0], fields[1], fields[2]
        if family not in covered:
            continue  # the aten family is checked by the sweep itself
        (covered if kind == "case" else skipped)[family].add(base_name(family, name))

    missing = sorted(("module", m) for m in modules if m not in covered["module"] and m not in skipped["module"])
    missing += sorted(("functional", f) for f in functions
                      if f not in covered["functional"] and f not in skipped["functional"])
    unknown = sorted(("module", m) for m in covered["module"] | skipped["module"] if m not in modules)
    unknown += sorted(("functional", f) for f in covered["functional"] | skipped["functional"] if f not in functions)
    for family, name in unknown:
        shown = "F::" + name if family == "functional" else name
        print(f"inventory: note: {family} {shown} is not in {args.headers}", file=sys.stderr)
    if missing:
        for family, name in missing:
            shown = "F::" + name if family == "functional" else name
            print(f"inventory: {family} {shown} has no case and no skip")
        print(f"inventory: {len(missing)} not covered (of {len(modules)} modules and {len(functions)} functions)")
        return 1
    n_skipped = len(skipped["module"] & modules - covered["module"]) + len(
        skipped["functional"] & functions - covered["functional"])
    print(f"inventory: {len(modules)} modules, {len(functions)} functions, all covered ({n_skipped} skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
