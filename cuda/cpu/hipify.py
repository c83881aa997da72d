#!/usr/bin/env python3
"""Rewrites a .cu file's kernel launches for HIP-CPU (TT_CUDA_ON_CPU).

`kernel<T, U><<<grid, block, shmem, stream>>>(args)` is CUDA syntax that no
host compiler parses. It becomes a call of tt::cuda_on_cpu::launch
(cuda/cpu/include/cuda_runtime.h), the one rewrite hipify-perl would make
for our sources; every other name maps in that header. The output starts
with a #line directive, so diagnostics and __FILE__ name the .cu file.
Launches must give all four configuration arguments (the function takes
them all); a launch this cannot rewrite fails the build.

Usage: hipify.py IN.cu OUT.cpp
"""
import re
import sys

# A kernel name (qualified, optionally a template-id without nested
# launches), the configuration, and the opening parenthesis of the call.
LAUNCH = re.compile(
    r"(?P<kernel>[A-Za-z_][\w:]*(?:<[^;{}()]*?(?:\([^;{}]*?\))?[^;{}()]*?>)?)\s*"
    r"<<<(?P<config>.*?)>>>\s*\(",
    re.S)


def split_top_level(text):
    """Splits on commas outside parentheses, brackets and braces."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def rewrite(source, path):
    def launch(m):
        config = split_top_level(m.group("config"))
        no_arguments = source[m.end():].lstrip().startswith(")")
        if len(config) != 4:
            line = source.count("\n", 0, m.start()) + 1
            sys.exit(f"{path}:{line}: error: a launch needs grid, block, shared memory and stream "
                     f"for HIP-CPU; got {len(config)} arguments")
        head = f"::tt::cuda_on_cpu::launch(({m.group('kernel')}), {', '.join(config)}"
        return head if no_arguments else head + ", "
    out = LAUNCH.sub(launch, source)
    if "<<<" in out:
        line = out.count("\n", 0, out.index("<<<")) + 1
        sys.exit(f"{path}:{line}: error: a kernel launch was not rewritten")
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    out = f'#line 1 "{src}"\n' + rewrite(text, src)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(out)


if __name__ == "__main__":
    main()
