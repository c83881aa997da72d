#!/usr/bin/env python3
"""No name of the tensor API is compared outside ApiModel.

  no_api_names.py CHECKS_DIR

ApiModel (with the ATen semantics table it answers from: AtenSemantics,
OpSchema) is the one place of checks/ that knows what a name of LibTorch or
tt means. Everywhere else a declaration's name may only be compared through
isStd/isStdAnyOf, which name C++ standard library entities. This finds, in
every other source file of checks/, a string literal that looks like an
identifier used in a comparison (==, !=, starts_with, ends_with, consume_*,
equals, Idents.get, a list handed to is_contained or a name switch).
Exit status 1 with one line per finding.
"""
import os
import re
import sys

OWNERS = {"ApiModel.cpp", "ApiModel.h", "AtenSemantics.cpp", "AtenSemantics.h", "OpSchema.cpp", "OpSchema.h"}
IDENT = r'"[A-Za-z_][A-Za-z0-9_:]*"'
PATTERNS = [
    re.compile(r'(==|!=)\s*' + IDENT),
    re.compile(IDENT + r'\s*(==|!=)'),
    re.compile(r'\b(starts_with|ends_with|consume_front|consume_back|equals|equals_insensitive|contains|Case)\(\s*' + IDENT),
    re.compile(r'Idents\.get\(\s*' + IDENT),
    re.compile(r'is_contained\(\s*\{[^}]*' + IDENT),
    re.compile(r'hasAnyName\(|hasName\(\s*' + IDENT),
]
# Comparisons through the standard library's model are fine, and so are
# option values.
STD = re.compile(r'isStd(AnyOf)?\(')
OPTION_VALUES = re.compile(r'"(true|false)"')


def strip_comments(line):
    out, quote, i = [], None, 0
    while i < len(line):
        c = line[i]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(line[i + 1:i + 2])
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            out.append(c)
        elif line.startswith("//", i):
            break
        else:
            out.append(c)
        i += 1
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    findings = []
    files = 0
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith((".cpp", ".h")) or name in OWNERS:
                continue
            files += 1
            path = os.path.join(dirpath, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                code = OPTION_VALUES.sub('""', strip_comments(line))
                if STD.search(code):
                    continue
                if any(p.search(code) for p in PATTERNS):
                    findings.append("%s:%d: an API name compared outside ApiModel: %s"
                                    % (os.path.relpath(path, root), number, line.strip()))
    if files == 0:
        print("no_api_names.py: no sources under %s" % root, file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    print("no_api_names.py: %d files, %d name comparisons outside ApiModel" % (files, len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
