// Which LibTorch a program loads, against the one tensor-run was built for.
// tensor-run runs only on the LibTorch it was compiled and linked against
// (its library registers kernels and hooks through LibTorch's C++ ABI); a
// program linked against another is refused before it starts, by the
// driver (tools/tensor-run) and again by the library at start-up
// (Startup.cpp), with a message that names both versions.
#pragma once

#include <string>
#include <vector>

namespace tensor_run {

/// The LibTorch tensor-run was built against: its version as its CMake
/// package gives it ("1.13.0"), and the path of its libc10.
const char* built_libtorch_version();
const char* built_libtorch_c10();

/// The version of the LibTorch whose libc10 is at `c10_path`, as the
/// installation around it says: a LibTorch archive's build-version
/// (libtorch/lib/.. ), a PyTorch install's version.py (torch/lib/..), the
/// CMake package's TorchConfigVersion.cmake, or the library's file name
/// (Debian's libc10.so.1.13.0). Empty when none of them does.
std::string libtorch_version_at(const std::string& c10_path);

/// Whether two version strings name the same release: "1.13", "1.13.0" and
/// "1.13.0+cpu" do; "2.11.0" and "1.13.0" do not. An empty one matches
/// nothing.
bool same_libtorch_release(const std::string& a, const std::string& b);

/// Of the libc10s loaded in a process (paths), the one of another LibTorch:
/// with two or more, one that is not tensor-run's; with one, that one if it
/// is not tensor-run's and is known to be of another release (a copy of the
/// same release elsewhere on the library path runs). Empty when none is.
std::string other_loaded_libc10(const std::vector<std::string>& loaded);

/// The one-line refusal (without the "tensor-run: " prefix) for a program
/// (`who`: "'./train'", "the program") that loads the LibTorch whose libc10
/// is at `c10_path` instead of, or beside, the one tensor-run was built for.
std::string other_libtorch_message(const std::string& who, const std::string& c10_path);

}  // namespace tensor_run
