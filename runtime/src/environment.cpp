#include "environment.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "tt/errors.h"

namespace tt::detail {

namespace {

// A setting, not a line of the program: no source location (this file's
// would name the runtime's build tree).
[[noreturn]] void bad(const char* name, const char* value, const char* expected) {
  throw ConfigurationError(std::string("environment variable ") + name + "=" + value + ": expected " + expected);
}

const char* get(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

}  // namespace

bool parse_bounded_int(const char* text, int lo, int hi, int* out) {
  if (!text || *text < '0' || *text > '9') return false;
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || n < lo || n > hi) return false;
  *out = static_cast<int>(n);
  return true;
}

int env_emulated_cuda_devices() {
  const char* on = get("TT_EMULATE_CUDA");
  if (on && std::strcmp(on, "0") != 0 && std::strcmp(on, "1") != 0) bad("TT_EMULATE_CUDA", on, "0 or 1");
  int n = 1;
  if (const char* c = get("TT_EMULATE_CUDA_DEVICES"); c && !parse_bounded_int(c, 1, 16, &n))
    bad("TT_EMULATE_CUDA_DEVICES", c, "a number of devices from 1 to 16");
  return on && std::strcmp(on, "1") == 0 ? n : 0;
}

ValidationMode env_validation_mode() {
  const char* m = get("TT_VALIDATE");
  if (!m || std::strcmp(m, "raise") == 0) return ValidationMode::Raise;
  if (std::strcmp(m, "record") == 0) return ValidationMode::Record;
  bad("TT_VALIDATE", m, "raise or record");
}

std::string env_validation_log() {
  const char* p = get("TT_VALIDATE_LOG");
  return p ? p : "";
}

bool env_host_cache() {
  const char* c = get("TT_HOST_CACHE");
  if (!c || std::strcmp(c, "1") == 0) return true;
  if (std::strcmp(c, "0") == 0) return false;
  bad("TT_HOST_CACHE", c, "0 or 1");
}

std::string env_cpu_dispatch() {
  const char* d = get("TT_CPU_DISPATCH");
  if (!d) return "";
  if (std::strcmp(d, "portable") != 0 && std::strcmp(d, "avx2") != 0) bad("TT_CPU_DISPATCH", d, "portable or avx2");
  return d;
}

bool env_prefer_cublaslt() {
  const char* c = get("TT_BLAS_PREFER_CUBLASLT");
  if (!c || std::strcmp(c, "0") == 0) return false;
  if (std::strcmp(c, "1") == 0) return true;
  bad("TT_BLAS_PREFER_CUBLASLT", c, "0 or 1");
}

}  // namespace tt::detail
