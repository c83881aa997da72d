#include "LibTorchVersion.h"

#include <limits.h>
#include <stdlib.h>

#include <cctype>
#include <fstream>
#include <vector>

#ifndef TT_TORCH_VERSION
#define TT_TORCH_VERSION ""
#endif
#ifndef TT_TORCH_C10_LIBRARY
#define TT_TORCH_C10_LIBRARY ""
#endif

namespace tensor_run {

namespace {

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// A version is digits and dots, then maybe a local part ("+cu130"): a file
// that says something else is not believed.
bool looks_like_version(const std::string& v) {
  if (v.empty() || v.size() > 64 || !std::isdigit(static_cast<unsigned char>(v[0]))) return false;
  for (char c : v)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '+' && c != '-' && c != '_') return false;
  return true;
}

// The first line of `path` that starts with `key`, the text between the
// first pair of quotes after it (or, with no key, the first line whole).
std::string read_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    line = trimmed(line);
    if (key.empty()) return looks_like_version(line) ? line : std::string();
    if (line.compare(0, key.size(), key) != 0) continue;
    const auto open = line.find_first_of("\"'", key.size());
    if (open == std::string::npos) continue;
    const auto close = line.find(line[open], open + 1);
    if (close == std::string::npos) continue;
    const std::string v = line.substr(open + 1, close - open - 1);
    return looks_like_version(v) ? v : std::string();
  }
  return {};
}

// "libc10.so.1.13.0" -> "1.13.0" (Debian's versioned sonames).
std::string from_file_name(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  const std::string prefix = "libc10.so.";
  if (name.compare(0, prefix.size(), prefix) != 0) return {};
  const std::string v = name.substr(prefix.size());
  return looks_like_version(v) ? v : std::string();
}

// The numbers of a version: "2.11.0+cu130" -> {2, 11, 0}.
std::vector<long> numbers(const std::string& v) {
  std::vector<long> out;
  std::size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    long n = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) n = n * 10 + (v[i++] - '0');
    out.push_back(n);
    if (i < v.size() && v[i] == '.')
      ++i;
    else
      break;
  }
  return out;
}

}  // namespace

const char* built_libtorch_version() { return TT_TORCH_VERSION; }
const char* built_libtorch_c10() { return TT_TORCH_C10_LIBRARY; }

std::string libtorch_version_at(const std::string& c10_path) {
  std::vector<std::string> paths{c10_path};
  if (real_path(c10_path) != c10_path) paths.push_back(real_path(c10_path));
  for (const std::string& path : paths) {
    const std::string lib = directory_of(path);
    for (const auto& [file, key] : std::vector<std::pair<std::string, std::string>>{
             {lib + "/../build-version", ""},                                         // a LibTorch archive
             {lib + "/../version.py", "__version__"},                                 // PyTorch's torch/lib
             {lib + "/cmake/Torch/TorchConfigVersion.cmake", "set(PACKAGE_VERSION"},  // Debian
             {lib + "/../share/cmake/Torch/TorchConfigVersion.cmake", "set(PACKAGE_VERSION"}}) {
      std::string v = read_value(file, key);
      if (!v.empty()) return v;
    }
  }
  for (auto it = paths.rbegin(); it != paths.rend(); ++it)
    if (std::string v = from_file_name(*it); !v.empty()) return v;
  return {};
}

bool same_libtorch_release(const std::string& a, const std::string& b) {
  const std::vector<long> x = numbers(a), y = numbers(b);
  if (x.size() < 2 || y.size() < 2) return false;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

std::string other_loaded_libc10(const std::vector<std::string>& loaded) {
  const std::string own = real_path(built_libtorch_c10());
  for (const std::string& path : loaded) {
    if (real_path(path) == own) continue;
    if (loaded.size() > 1) return path;
    const std::string version = libtorch_version_at(path);
    if (!version.empty() && !same_libtorch_release(version, built_libtorch_version())) return path;
  }
  return loaded.size() > 1 ? loaded.back() : std::string();
}

std::string other_libtorch_message(const std::string& who, const std::string& c10_path) {
  const std::string version = libtorch_version_at(c10_path);
  const std::string built = built_libtorch_version();
  std::string msg = who + " loads LibTorch " + (version.empty() ? "of an unknown version" : version) + " (" + c10_path +
                    "), but this tensor-run was built for LibTorch " + built + " (" + built_libtorch_c10() +
                    ") and runs only programs linked against that one; ";
  if (same_libtorch_release(version, built))
    return msg + "rebuild the program against " + built_libtorch_c10() +
           ", or leave the other copy off the library path";
  return msg + "rebuild the program against LibTorch " + built + ", or build tensor-run against " +
         (version.empty() ? "the program's LibTorch" : "LibTorch " + version) +
         " (cmake -DTorch_DIR=..., docs/install.md)";
}

}  // namespace tensor_run
