#!/usr/bin/env python3
"""Drives real `git commit`s through the tensor-tidy pre-commit hook.

In a fresh temporary git repository it installs the hook one of two ways:

  --hook=framework  the pre-commit framework: a hook repository made from
                    this checkout's .pre-commit-hooks.yaml and
                    tools/pre-commit-hook (cloned by pre-commit itself into
                    a private PRE_COMMIT_HOME), `pre-commit install`;
  --hook=git        tools/pre-commit-hook symlinked as .git/hooks/pre-commit,
                    configured through `git config tensor-tidy.*`.

then makes the commits of the scenario and prints, for each, the exit status
of `git commit` and what it printed, for FileCheck:

  cast         adds a file with a discarded cast          (must be rejected)
  device       adds a file with a mixed-device expression (must be rejected)
  clean        adds a correct file                        (must pass)
  old-finding  edits only other lines of a file that already has a finding
               (rejected in the default mode, passes with --changed-lines)

Hermetic: HOME, XDG_* and PRE_COMMIT_HOME point into the work directory,
the system git config is ignored, and nothing touches the network (the hook
repository is a local path).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

CLEAN = """#include <torch/torch.h>

torch::Tensor prepare(torch::Tensor x, torch::Device device) {
  x = x.to(device);
  return x * 2.0;
}
"""

CAST = """#include <torch/torch.h>

torch::Tensor prepare(torch::Tensor x, torch::Device device) {
  x.to(device);
  return x;
}
"""

DEVICE = """#include <torch/torch.h>

torch::Tensor combine(torch::Device device) {
  auto x = torch::ones({4});
  auto y = torch::ones({4}).to(device);
  return x - y;
}
"""

# A file committed (with --no-verify) with a finding on line 5; the
# old-finding step then edits only line 9.
OLD = """#include <torch/torch.h>

// Older code with a known finding.
void legacy(torch::Tensor x, torch::Device device) {
  x.to(device);
}

int answer() {
  return 41;
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hook", choices=("framework", "git"), required=True)
    ap.add_argument("--changed-lines", action="store_true")
    ap.add_argument("--tool", choices=("tensor-tidy", "plugin"),
                    default="tensor-tidy")
    ap.add_argument("--tensor-tidy", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--mock-include", required=True)
    ap.add_argument("--source-root", required=True)
    ap.add_argument("workdir")
    args = ap.parse_args()

    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    repo = os.path.join(work, "repo")
    home = os.path.join(work, "home")
    os.makedirs(repo)
    os.makedirs(home)

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TENSOR_TIDY", "GIT_", "PRE_COMMIT",
                                "XDG_"))}
    env.update({
        "HOME": home,
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "PRE_COMMIT_HOME": os.path.join(home, "pre-commit"),
        "PRE_COMMIT_COLOR": "never",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    })

    def run(cmd, cwd=repo, check=True):
        res = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=300)
        if check and res.returncode != 0:
            sys.exit("setup command failed: %s\n%s" % (" ".join(cmd),
                                                       res.stdout))
        return res

    def write(name, text):
        with open(os.path.join(repo, name), "w") as f:
            f.write(text)

    run(["git", "init", "-q", "-b", "main"])
    write(".gitignore", "build/\n")
    os.makedirs(os.path.join(repo, "build"))
    sources = ["clean.cpp", "cast.cpp", "device.cpp", "old.cpp"]
    with open(os.path.join(repo, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": repo, "file": os.path.join(repo, s),
                    "arguments": ["clang++", "-std=c++17", "-isystem",
                                  args.mock_include, "-c", s]}
                   for s in sources], f, indent=1)
    write("old.cpp", OLD)

    if args.hook == "framework":
        # The hook repository: exactly this checkout's manifest and script.
        hooks = os.path.join(work, "hooks-repo")
        os.makedirs(os.path.join(hooks, "tools"))
        shutil.copy(os.path.join(args.source_root, ".pre-commit-hooks.yaml"),
                    hooks)
        shutil.copy(os.path.join(args.source_root, "tools", "pre-commit-hook"),
                    os.path.join(hooks, "tools"))
        run(["git", "init", "-q", "-b", "main"], cwd=hooks)
        run(["git", "add", "."], cwd=hooks)
        run(["git", "commit", "-q", "-m", "hooks"], cwd=hooks)
        rev = run(["git", "rev-parse", "HEAD"], cwd=hooks).stdout.strip()
        hook_id = ("tensor-tidy-changed-lines" if args.changed_lines
                   else "tensor-tidy")
        hook_args = ["-p", "build", "--tool=" + args.tool]
        if args.tool == "tensor-tidy":
            hook_args.append("--tensor-tidy=" + args.tensor_tidy)
        else:
            hook_args += ["--clang-tidy=" + args.clang_tidy,
                          "--plugin=" + args.plugin]
        write(".pre-commit-config.yaml", json.dumps({"repos": [{
            "repo": hooks, "rev": rev,
            "hooks": [{"id": hook_id, "args": hook_args}]}]}, indent=1))
        run(["pre-commit", "install"])
    else:
        hook_path = os.path.join(repo, ".git", "hooks", "pre-commit")
        os.symlink(os.path.join(args.source_root, "tools", "pre-commit-hook"),
                   hook_path)
        # git config for the paths, the environment for the mode: both
        # configuration routes are exercised.
        run(["git", "config", "tensor-tidy.buildDir", "build"])
        run(["git", "config", "tensor-tidy.tool", args.tool])
        run(["git", "config", "tensor-tidy.binary", args.tensor_tidy])
        run(["git", "config", "tensor-tidy.clangTidy", args.clang_tidy])
        run(["git", "config", "tensor-tidy.plugin", args.plugin])
        if args.changed_lines:
            env["TENSOR_TIDY_CHANGED_LINES"] = "1"

    run(["git", "add", "-A"])
    run(["git", "commit", "-q", "--no-verify", "-m", "old code"])

    def step(name, files, message):
        for fname, text in files.items():
            write(fname, text)
        run(["git", "add", *files])
        res = run(["git", "commit", "-m", message], check=False)
        print("=== step %s: exit %d" % (name, res.returncode))
        print(res.stdout.rstrip())
        if res.returncode != 0:
            # Leave the repository as it was for the next step.
            run(["git", "reset", "-q", "--hard", "HEAD"])
            for fname in files:
                if os.path.exists(os.path.join(repo, fname)):
                    subprocess.run(["git", "clean", "-qf", "--", fname],
                                   cwd=repo, env=env)

    step("cast", {"cast.cpp": CAST}, "add cast.cpp")
    step("device", {"device.cpp": DEVICE}, "add device.cpp")
    step("clean", {"clean.cpp": CLEAN}, "add clean.cpp")
    step("old-finding", {"old.cpp": OLD.replace("return 41;", "return 42;")},
         "touch old.cpp")
    log = run(["git", "log", "--format=%s"]).stdout.split("\n")
    print("=== commits: " + ", ".join(l for l in log if l))


if __name__ == "__main__":
    main()
