# lit configuration for tensor-run: LibTorch programs run on emulated CUDA
# devices, their records compared with BUG() markers (Inputs/markers.py).
import os

import lit.formats

config.name = "tensor-run"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.excludes = ["Inputs", "cases", "unit", "sweep"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tt_binary_dir, "test", "tensor-run")

bin_dir = os.path.join(config.tt_binary_dir, "bin")
tensor_run = os.path.join(bin_dir, "tensor-run")
cases = os.path.join(bin_dir, "tensor_run_cases")
cases_dir = os.path.join(config.test_source_root, "cases")
inputs = os.path.join(config.test_source_root, "Inputs")

config.substitutions.append(("%check_case", " ".join([
    config.python, os.path.join(inputs, "check_case.py"), "--tensor-run=" + tensor_run,
    "--cases=" + cases, "--cases-dir=" + cases_dir])))
config.substitutions.append(("%exit_status", config.python + " " + os.path.join(inputs, "exit_status.py")))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%markers", config.python + " " + os.path.join(inputs, "markers.py")))
config.substitutions.append(("%tensor_run", tensor_run))
config.substitutions.append(("%cases_dir", cases_dir))
config.substitutions.append(("%cases", cases))
config.substitutions.append(("%tensor_tidy_report", os.path.join(bin_dir, "tensor-tidy-report")))
config.substitutions.append(("%bin", bin_dir))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%python", config.python))
# A C compiler, for stand-ins of another LibTorch (other-libtorch.test).
config.substitutions.append(("%cc", config.cc))
config.substitutions.append(("%tt_src", config.tt_source_dir))
config.substitutions.append(("%tt_build", config.tt_binary_dir))
config.substitutions.append((" not ", " " + os.path.join(os.path.dirname(config.filecheck), "not") + " "))
config.environment["TMPDIR"] = os.environ.get("TMPDIR", "/tmp")
# The examples' data set, when installed.
fashion = "/usr/share/datasets/fashion-mnist"
if os.path.exists(os.path.join(fashion, "t10k-labels-idx1-ubyte.gz")):
    config.available_features.add("fashion-mnist")
    config.substitutions.append(("%fashion_mnist", fashion))
config.substitutions.append(("%torch_nn_headers", "/usr/include/torch/csrc/api/include/torch/nn"))
# clang, to build a LibTorch program the way a clang user does (its debug
# information differs from GCC's), against the installed LibTorch.
import shutil
clangxx = shutil.which("clang++-19") or shutil.which("clang++")
if clangxx and os.path.isdir("/usr/include/torch/csrc/api/include"):
    config.available_features.add("clang")
    config.substitutions.append(("%clangxx", clangxx))
    config.substitutions.append(("%torch_flags", "-isystem /usr/include/torch/csrc/api/include "
                                 "-ltorch -ltorch_cpu -lc10"))
