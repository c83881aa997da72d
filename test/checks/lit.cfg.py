# lit configuration for the tensor-* check tests.
import os
import shutil
import sys

import lit.formats

config.name = "tensor-tidy checks"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".cu", ".test"]
config.excludes = ["Inputs", "unit"]  # unit: GoogleTest, run by ctest
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tt_binary_dir, "test", "checks")

bin_dir = os.path.join(config.tt_binary_dir, "bin")
lib_dir = os.path.join(config.tt_binary_dir, "lib")
plugin = os.path.join(lib_dir, "TensorTidyModule.so")
tensor_tidy = os.path.join(bin_dir, "tensor-tidy")
tensor_clangd = os.path.join(bin_dir, "tensor-clangd")
inputs = os.path.join(config.test_source_root, "Inputs")

# Which front ends run each test; `lit --param frontends=plugin` narrows it.
frontends = lit_config.params.get("frontends", "plugin,tensor-tidy,clangd")

check_tidy = " ".join([
    config.python, os.path.join(config.test_source_root, "check_tidy.py"),
    "--frontends=" + frontends, "--clang-tidy=" + config.stock_clang_tidy,
    "--plugin=" + plugin, "--tensor-tidy=" + tensor_tidy,
    "--tensor-clangd=" + tensor_clangd, "--filecheck=" + config.filecheck,
    "--pch-header=" + os.path.join(inputs, "libtorch-pch", "libtorch.h"),
])
config.substitutions.append(("%check_tidy", check_tidy))
config.substitutions.append(("%clang_tidy_plugin",
                             config.stock_clang_tidy + " -load=" + plugin))
config.substitutions.append(("%tensor_tidy_plugin_path", plugin))
config.substitutions.append(("%tensor_tidy_report", os.path.join(bin_dir, "tensor-tidy-report")))
config.substitutions.append(("%tensor_tidy", tensor_tidy))
config.substitutions.append(("%tensor_clangd", tensor_clangd))
config.substitutions.append(("%FileCheck", config.filecheck))
# LLVM's `not`, for tools expected to fail (compiler errors in the input).
config.substitutions.append((" not ", " " + os.path.join(
    os.path.dirname(config.filecheck), "not") + " "))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%mock_torch",
                             "-isystem " + os.path.join(inputs, "mock-libtorch")))
config.substitutions.append(("%tt_include", "-I " + os.path.join(
    config.tt_source_dir, "runtime", "include")))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%tt_src", config.tt_source_dir))
config.substitutions.append(("%tt_build", config.tt_binary_dir))
config.substitutions.append(("%run_clang_tidy", os.path.join(
    os.path.dirname(config.filecheck), "run-clang-tidy")))
# For the integration tests (test/checks/integrations): the bare stock
# clang-tidy and clang++ of the build's LLVM, and the real pre-commit framework.
config.substitutions.append(("%stock_clang_tidy", config.stock_clang_tidy))
config.substitutions.append(("%clangxx", config.clangxx))
if shutil.which("pre-commit") and shutil.which("git"):
    config.available_features.add("pre-commit")
if shutil.which("git"):
    config.available_features.add("git")

# The real Fashion-MNIST data (Debian dataset-fashion-mnist), for the
# examples' end-to-end tests.
fashion_mnist = "/usr/share/datasets/fashion-mnist"
if os.path.exists(os.path.join(fashion_mnist, "t10k-labels-idx1-ubyte.gz")):
    config.available_features.add("fashion-mnist")
    config.substitutions.append(("%fashion_mnist", fashion_mnist))

# The real LibTorch headers, for integration tests: Debian libtorch-dev's
# 1.13 by default; with `--param libtorch=2.11`, LibTorch 2.11's, unpacked
# into the build tree (cmake/LibTorch2Headers.cmake). Then only the tests
# that use them (%libtorch) run, with the same expected findings: ctest
# lit-checks-libtorch-2.11 runs them so, beside lit-checks.
#   %libtorch       compile flags for a TU against them, through the shared
#                   precompiled <torch/torch.h> (built with exactly these flags)
#   %libtorch_root  the folder that holds their torch/, ATen/, c10/, caffe2/
libtorch_version = lit_config.params.get("libtorch", "1.13")
checks_build = os.path.join(config.tt_binary_dir, "test", "checks")
if libtorch_version == "1.13":
    torch_root = "/usr/include"
    torch_flags = "-isystem " + os.path.join(torch_root, "torch", "csrc", "api", "include")
    pch = os.path.join(checks_build, "libtorch.pch")
elif libtorch_version == "2.11":
    torch_root = os.path.join(config.tt_binary_dir, "libtorch-2.11", "include")
    torch_flags = "-isystem %s -isystem %s" % (
        torch_root, os.path.join(torch_root, "torch", "csrc", "api", "include"))
    pch = os.path.join(checks_build, "libtorch-2.11.pch")
    if not os.path.exists(pch):
        lit_config.fatal("--param libtorch=2.11: %s is missing (build the target libtorch-2.11-pch; "
                         "it needs ../shared/libtorch/libtorch-2.11.0-include.tar.xz)" % pch)
    config.name += " (LibTorch 2.11 headers)"
    # Its own Output folders: it runs beside the default run under ctest -j.
    config.test_exec_root = os.path.join(config.tt_binary_dir, "test", "checks-libtorch-2.11")
    # Only the tests whose RUN lines use the real headers.
    sys.path.insert(0, config.test_source_root)
    from libtorch_format import LibTorchTests
    config.test_format = LibTorchTests(execute_external=True)
else:
    lit_config.fatal("--param libtorch=%s: the LibTorch headers are 1.13 (the default) or 2.11"
                     % libtorch_version)
if os.path.exists(os.path.join(torch_root, "torch", "csrc", "api", "include", "torch", "torch.h")):
    config.available_features.add("libtorch")
    config.substitutions.append(("%libtorch_root", torch_root))
    config.substitutions.append(("%libtorch",
                                 "-std=c++17 %s -include-pch %s" % (torch_flags, pch)))

# A CUDA toolkit where clang 19 (and tensor-tidy) looks for one, for the
# CUDA sources' tests: CUDA_PATH/CUDA_HOME, above ptxas on PATH,
# /usr/local/cuda, /usr/lib/cuda.
cuda_candidates = [os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME")]
if shutil.which("ptxas"):
    cuda_candidates.append(os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("ptxas")))))
cuda_candidates += ["/usr/local/cuda", "/usr/lib/cuda"]
for cuda in cuda_candidates:
    if cuda and os.path.exists(os.path.join(cuda, "include", "cuda.h")):
        config.available_features.add("cuda")
        config.substitutions.append(("%cuda_path", cuda))
        break

# An older clang-tidy, to show the plugin refuses to load into it.
for old in ("clang-tidy-14", "clang-tidy-15", "clang-tidy-16", "clang-tidy-17",
            "clang-tidy-18"):
    path = shutil.which(old)
    if path:
        config.available_features.add("old-clang-tidy")
        config.substitutions.append(("%old_clang_tidy", path))
        break

config.environment["HOME"] = os.environ.get("HOME", "/tmp")
