// Shared by the harnesses: the fuzzer's bytes as a scratch file, for the
// readers that take a path.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tt_fuzz {

/// Writes `data` to a file private to this process and returns its path.
inline const std::string& as_file(const uint8_t* data, size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/tt-fuzz-" + std::to_string(::getpid());
  }();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  return path;
}

}  // namespace tt_fuzz
