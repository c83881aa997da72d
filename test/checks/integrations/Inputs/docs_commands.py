#!/usr/bin/env python3
"""Runs the shell commands of the docs as written, as a user would.

  docs_commands.py --build BUILD --mock DIR --work DIR [--no-libtorch] MARKDOWN...

The user: tensor-tidy installed with `cmake --install BUILD --prefix
~/.local` (HOME is DIR/home), `~/.local/bin` first on PATH and nothing of
the build tree on it; a small LibTorch project (CMake, a compilation
database, a bug in src/train.cpp, a test program under build/tests) in
~/project, a git repository. In each page, in order, in the project's root:

  <!-- test: sh -->           the ```sh block runs with bash; every command
                              must exit 0 or 1 (1: findings), never 2 or
                              more (usage errors, crashes).
  <!-- test: skip REASON -->  not run, the reason written down.

An unmarked ```sh block fails. The `run:` steps of GitHub Actions workflows
(```yaml blocks with `jobs:`) and the scripts of GitLab CI jobs run the same
way, each step in a fresh bash, with `${{ matrix.X }}` as the matrix's first
value and `${{ env.X }}` from the workflow; not run are steps with an `if:`
(they depend on the CI service's state), and steps and script lines that
install into the system or fetch over the network (apt-get, git clone,
curl), which the install above stands in for.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from docs_examples import blocks  # noqa: E402

try:
    import yaml
except ImportError:
    sys.exit("docs_commands.py: PyYAML is missing (Debian: python3-yaml)")

NOT_HERE_RE = re.compile(r"\b(apt-get|apt|git clone|curl|wget|sudo)\b")

TRAIN = """#include <torch/torch.h>

torch::Tensor step(torch::Tensor x, torch::Device device) {
  x.to(device);
  return x * 2;
}
"""

MODEL = """#include <torch/torch.h>

torch::Tensor scale(torch::Tensor x, torch::Device device) {
  x = x.to(device);
  return x * 3;
}
"""

ROOT_TRAIN = """#include <torch/torch.h>

void step(torch::Tensor images, torch::Device device) {
  images.to(device);
}
"""

SMOKE_TEST = """#include <torch/torch.h>

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::Tensor input = torch::ones({3, 4});
  torch::Tensor out = model->forward(input);
  return out.size(0) == 3 ? 0 : 1;
}
"""

CMAKELISTS = """cmake_minimum_required(VERSION 3.20)
project(sandbox LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
add_library(app OBJECT src/train.cpp src/model.cpp)
target_include_directories(app SYSTEM PRIVATE "%(mock)s")
if(NOT NO_LIBTORCH)
  find_package(Torch QUIET PATHS /usr/lib/x86_64-linux-gnu/cmake/Torch)
endif()
if(Torch_FOUND)
  add_executable(smoke_test tests/smoke_test.cpp)
  target_link_libraries(smoke_test PRIVATE ${TORCH_LIBRARIES})
  set_target_properties(smoke_test PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
endif()
"""


def sh(cmd, env, cwd, check=True):
    res = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         shell=isinstance(cmd, str))
    if check and res.returncode != 0:
        sys.exit("docs_commands.py: setup failed: %s\n%s" % (cmd, res.stdout))
    return res


def make_user(build, mock, work, libtorch):
    home = os.path.join(work, "home")
    project = os.path.join(home, "project")
    os.makedirs(os.path.join(project, "src"))
    os.makedirs(os.path.join(project, "tests"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TT_", "TENSOR_TIDY", "GIT_", "PRE_COMMIT"))}
    env.update(HOME=home, PATH=os.path.join(home, ".local/bin") + ":/usr/bin:/bin")
    sh(["cmake", "--install", build, "--prefix", os.path.join(home, ".local")], env, work)
    for name, text in (("src/train.cpp", TRAIN), ("src/model.cpp", MODEL),
                       ("train.cpp", ROOT_TRAIN), ("tests/smoke_test.cpp", SMOKE_TEST),
                       ("CMakeLists.txt", CMAKELISTS % {"mock": mock})):
        with open(os.path.join(project, name), "w") as f:
            f.write(text)
    sh(["cmake", "-S", ".", "-B", "build", "-G", "Ninja",
        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + ([] if libtorch else ["-DNO_LIBTORCH=ON"]),
       env, project)
    sh(["cmake", "--build", "build"], env, project)
    sh("git init -q && git add -A && git -c user.name=u -c user.email=u@example.com "
       "commit -qm init", env, project)
    return env, project


def run_script(text, env, cwd, where, failures, counts):
    """Runs `text` with bash; a command exiting 2 or more stops it."""
    script = ("set -o pipefail\n"
              "trap 'rc=$?; if [ $rc -gt 1 ]; then echo \"docs_commands: exit "
              "$rc: $BASH_COMMAND\" >&2; exit $rc; fi' ERR\n" + text + "\n")
    start = time.monotonic()
    res = subprocess.run(["bash", "-c", script], env=env, cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    seconds = time.monotonic() - start
    counts["run"] += 1
    if res.returncode > 1 or "Traceback" in res.stdout:
        failures.append("%s: exit %d\n%s" % (where, res.returncode, res.stdout[-3000:]))
    else:
        print("ran %s (exit %d) in %.0f s" % (where, res.returncode, seconds))


def github_steps(doc, env, cwd, where, failures, counts):
    for job_name, job in (doc.get("jobs") or {}).items():
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        values = {k: str(v[0]) for k, v in matrix.items() if isinstance(v, list) and v}
        job_env = dict(env)
        for k, v in (job.get("env") or {}).items():
            job_env[k] = str(v)

        def expand(text):
            def one(m):
                expr = m.group(1).strip()
                if expr.startswith("matrix."):
                    return values[expr[len("matrix."):]]
                if expr.startswith("env."):
                    return job_env[expr[len("env."):]]
                raise KeyError(expr)
            return re.sub(r"\$\{\{(.*?)\}\}", one, text)

        for i, step in enumerate(job.get("steps") or []):
            run = step.get("run")
            name = "%s: job %s, step '%s'" % (where, job_name, step.get("name", i))
            if not run:
                continue
            if "if" in step or NOT_HERE_RE.search(run):
                counts["skipped"] += 1
                print("skipped %s" % name)
                continue
            try:
                text = expand(run)
            except KeyError as e:
                failures.append("%s: cannot expand %s" % (name, e))
                continue
            run_script("set -e\n" + text, job_env, cwd, name, failures, counts)


def gitlab_job(job_name, job, env, cwd, where, failures, counts):
    job_env = dict(env, CI_NODE_INDEX="1", CI_NODE_TOTAL=str(job.get("parallel", 1)),
                   CI_PROJECT_DIR=cwd)
    for k, v in (job.get("variables") or {}).items():
        job_env[k] = str(v)
    lines = []
    for line in list(job.get("before_script") or []) + list(job.get("script") or []):
        if NOT_HERE_RE.search(line):
            counts["skipped"] += 1
            print("skipped %s: job %s, line %r" % (where, job_name, line[:60]))
            continue
        lines.append(line)
    run_script("\n".join(lines), job_env, cwd, "%s: job %s" % (where, job_name),
               failures, counts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--no-libtorch", action="store_true",
                    help="the project without its LibTorch test program (faster)")
    ap.add_argument("docs", nargs="+")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env, project = make_user(os.path.abspath(a.build), os.path.abspath(a.mock), work,
                             not a.no_libtorch)

    failures = []
    counts = {"run": 0, "skipped": 0}
    for path in a.docs:
        for line, lang, marker, text, _ in blocks(path):
            where = "%s:%d" % (os.path.basename(path), line)
            if lang in ("sh", "bash"):
                if marker and marker.startswith("skip"):
                    if not marker[4:].strip():
                        failures.append("%s: skip without a reason" % where)
                    counts["skipped"] += 1
                elif marker == "sh":
                    run_script(text, env, project, where, failures, counts)
                else:
                    failures.append("%s: ```sh block without <!-- test: sh --> "
                                    "or <!-- test: skip REASON -->" % where)
            elif lang == "yaml" and not (marker or "").startswith("skip"):
                try:
                    doc = yaml.safe_load(text)
                except yaml.YAMLError:
                    continue  # docs_examples.py reports invalid YAML
                if not isinstance(doc, dict):
                    continue
                if "jobs" in doc:
                    github_steps(doc, env, project, where, failures, counts)
                for name, job in doc.items():
                    if isinstance(job, dict) and "script" in job:
                        gitlab_job(name, job, env, project, where, failures, counts)
    for f in failures:
        print("FAIL " + f)
    print("docs commands: %d run, %d skipped, %d failed" %
          (counts["run"], counts["skipped"], len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
