#include "Config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tensor_run {

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "tensor-run: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

Config read_environment() {
  Config c;
  if (const char* n = std::getenv("TENSOR_RUN_DEVICES"); n && *n) {
    c.devices = parse_device_count(n);
    if (c.devices == 0) fail(std::string("TENSOR_RUN_DEVICES=") + n + " is not a number of devices from 1 to 16");
  }
  if (const char* m = std::getenv("TT_VALIDATE"); m && *m) {
    if (std::strcmp(m, "record") == 0)
      c.mode = Mode::Record;
    else if (std::strcmp(m, "raise") == 0)
      c.mode = Mode::Raise;
    else
      fail(std::string("TT_VALIDATE=") + m + " is not raise or record");
  }
  if (const char* p = std::getenv("TT_VALIDATE_LOG"); p && *p) c.log_path = p;
  return c;
}

}  // namespace

int parse_device_count(const char* text) {
  if (!text || *text < '0' || *text > '9') return 0;
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || n < 1 || n > kMaxDevices) return 0;
  return static_cast<int>(n);
}

const Config& config() {
  static const Config c = read_environment();
  return c;
}

}  // namespace tensor_run
