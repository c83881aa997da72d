#!/usr/bin/env python3
"""The project's C++ is clang-formatted: runs clang-format-19 --dry-run
--Werror over every tracked C++ file (the styles in .clang-format and
checks/.clang-format; what .clang-format-ignore lists is skipped by
clang-format itself) and fails naming each file and its first differing
line. Exit 0: formatted; 1: files to reformat (the fix is
`clang-format-19 -i FILE...`); 2: the check could not run (no clang-format-19,
another version, no git checkout), never a silent pass.
"""
import os
import re
import shutil
import subprocess
import sys

EXTENSIONS = ("*.cpp", "*.h", "*.cu", "*.cuh", "*.c", "*.cc", "*.hpp")
WANTED_MAJOR = 19  # another version lays code out differently


def fail_to_run(why):
    print(f"check_format: cannot check: {why}", file=sys.stderr)
    sys.exit(2)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    binary = os.environ.get("CLANG_FORMAT", "clang-format-19")
    if not shutil.which(binary):
        fail_to_run(f"{binary} not found (tools/setup installs clang-format-19)")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\d+)\.", version)
    if not m or int(m.group(1)) != WANTED_MAJOR:
        fail_to_run(f"{binary} is not clang-format {WANTED_MAJOR}: {version.strip()!r}")
    listed = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", *EXTENSIONS], capture_output=True)
    if listed.returncode != 0:
        fail_to_run(f"git ls-files failed in {root}: {listed.stderr.decode(errors='replace').strip()}")
    files = [f for f in listed.stdout.decode().split("\0") if f]
    if not files:
        fail_to_run(f"no C++ files tracked under {root}")
    bad = {}
    for i in range(0, len(files), 64):
        batch = files[i:i + 64]
        r = subprocess.run([binary, "--dry-run", "--Werror", *batch], cwd=root, capture_output=True, text=True)
        found = 0
        for line in r.stderr.splitlines():
            # Each finding is this line, then the source line and a caret.
            hit = re.match(r"(.+?):(\d+):\d+: (?:error|warning): code should be clang-formatted", line)
            if hit:
                found += 1
                bad.setdefault(hit.group(1), int(hit.group(2)))
        if r.returncode != 0 and not found:
            fail_to_run(f"{binary} failed (status {r.returncode}): {r.stderr.strip()[:2000]}")
    if bad:
        for f, line in sorted(bad.items()):
            print(f"{f}:{line}: not clang-formatted")
        print(f"{len(bad)} of {len(files)} files need `{binary} -i`", file=sys.stderr)
        return 1
    print(f"{len(files)} files checked, all clang-formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
