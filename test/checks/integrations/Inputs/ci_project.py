#!/usr/bin/env python3
"""Helpers for ci-check.test.

  ci_project.py generate DIR MOCK_INCLUDE CLANGXX
      writes a small project of 10 TUs under DIR/src (two including a shared
      header, one with a discarded cast) and DIR/build/compile_commands.json.
  ci_project.py partition FULL.json SHARD.json...
      checks that the shards' summary.json files name every TU of FULL.json
      exactly once, and prints each shard's TU count.
"""

import json
import os
import sys

CLEAN = """#include <torch/torch.h>
%(include)s
torch::Tensor f%(n)d(torch::Tensor x, torch::Device device) {
  x = x.to(device);
  return x * %(n)d.0;
}
"""

BUG = """#include <torch/torch.h>

void bug(torch::Tensor x) {
  x.to(torch::kHalf);
}
"""


def generate(root, mock, clangxx):
    src = os.path.join(root, "src")
    os.makedirs(src, exist_ok=True)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    with open(os.path.join(src, "shared.h"), "w") as f:
        f.write("#pragma once\ninline int shared_value() { return 1; }\n")
    names = []
    for n in range(9):
        name = "tu%d.cpp" % n
        include = '#include "shared.h"' if n in (1, 2) else ""
        with open(os.path.join(src, name), "w") as f:
            f.write(CLEAN % {"n": n, "include": include})
        names.append(name)
    with open(os.path.join(src, "bug.cpp"), "w") as f:
        f.write(BUG)
    names.append("bug.cpp")
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.join(root, "build"),
                    "file": os.path.join(src, n),
                    "arguments": [clangxx, "-std=c++17", "-isystem", mock,
                                  "-o", n + ".o", "-c", os.path.join(src, n)]}
                   for n in names], f, indent=1)


def partition(full, shards):
    every = sorted(t["file"] for t in json.load(open(full))["tus"])
    seen = []
    for s in shards:
        data = json.load(open(s))
        files = [t["file"] for t in data["tus"]]
        print("shard %s: %d TU(s)" % (data["shard"], len(files)))
        seen += files
    if sorted(seen) != every:
        dup = sorted({f for f in seen if seen.count(f) > 1})
        missing = sorted(set(every) - set(seen))
        sys.exit("not a partition: duplicated %s, missing %s" % (dup, missing))
    print("partition: %d TU(s), each in exactly one shard" % len(every))


if __name__ == "__main__":
    if sys.argv[1:2] == ["generate"] and len(sys.argv) == 5:
        generate(*sys.argv[2:])
    elif sys.argv[1:2] == ["partition"] and len(sys.argv) >= 4:
        partition(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
