// The validation log: mode selection and the JSONL writer. Decisions about
// what is a violation live in dispatch.cpp; this file only writes them down.
#include "tt/validate.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>

namespace tt {

namespace {

struct Settings {
  std::mutex mu;
  bool initialised = false;
  ValidationMode mode = ValidationMode::Raise;
  std::string path = "tt-validate.jsonl";
};

Settings& settings() {
  static Settings* s = new Settings;  // leaked: tensors may be destroyed after static destructors
  return *s;
}

// Reads TT_VALIDATE / TT_VALIDATE_LOG once; an unknown TT_VALIDATE value is
// a configuration mistake worth one line on stderr, then raise mode.
void init_locked(Settings& s) {
  if (s.initialised) return;
  s.initialised = true;
  if (const char* m = std::getenv("TT_VALIDATE"); m && *m) {
    if (std::strcmp(m, "record") == 0) s.mode = ValidationMode::Record;
    else if (std::strcmp(m, "raise") == 0) s.mode = ValidationMode::Raise;
    else std::fprintf(stderr, "tt: TT_VALIDATE=%s is not raise or record; using raise\n", m);
  }
  if (const char* p = std::getenv("TT_VALIDATE_LOG"); p && *p) s.path = p;
}

}  // namespace

ValidationMode validation_mode() {
  auto& s = settings();
  std::lock_guard<std::mutex> lock(s.mu);
  init_locked(s);
  return s.mode;
}

std::string validation_log_path() {
  auto& s = settings();
  std::lock_guard<std::mutex> lock(s.mu);
  init_locked(s);
  return s.path;
}

void set_validation_mode(ValidationMode mode, const std::string& log_path) {
  auto& s = settings();
  std::lock_guard<std::mutex> lock(s.mu);
  init_locked(s);
  s.mode = mode;
  if (!log_path.empty()) s.path = log_path;
}

void record_violation(const Violation& v, const std::source_location& where) noexcept {
  try {
    nlohmann::ordered_json j;
    j["check"] = v.check;
    j["file"] = where.file_name();
    j["line"] = where.line();
    j["column"] = where.column();
    j["function"] = where.function_name();
    j["op"] = v.op;
    j["message"] = v.message;
    auto devices = nlohmann::ordered_json::array();
    for (const auto& d : v.devices) devices.push_back(d.str());
    j["devices"] = devices;
    auto dtypes = nlohmann::ordered_json::array();
    for (auto t : v.dtypes) dtypes.push_back(std::string(python_name(t)));
    j["dtypes"] = dtypes;
    // Invalid UTF-8 in a path must not lose the record.
    std::string line = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";

    const std::string path = validation_log_path();
    // One write() per record on an O_APPEND descriptor: the kernel appends
    // it atomically with respect to other appenders, threads or processes.
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    ssize_t n;
    do {
      n = ::write(fd, line.data(), line.size());
    } while (n < 0 && errno == EINTR);
    const int err = errno;
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size()))
      throw std::runtime_error("short write to " + path + ": " + std::strerror(err));
  } catch (const std::exception& e) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) std::fprintf(stderr, "tt: validation log: %s\n", e.what());
  }
}

}  // namespace tt
