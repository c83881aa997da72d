// The validation recorder: mode selection and record_violation. Decisions
// about what is a violation live in dispatch.cpp; the JSONL writer, shared
// with tensor-run, in log/validation_log.cpp.
#include "tt/validate.h"

#include "tt/validation_log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

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
    ValidationRecord r;
    r.check = v.check;
    r.file = where.file_name();
    r.line = where.line();
    r.column = where.column();
    r.function = where.function_name();
    r.op = v.op;
    r.message = v.message;
    for (const auto& d : v.devices) r.devices.push_back(d.str());
    for (auto t : v.dtypes) r.dtypes.emplace_back(python_name(t));
    std::string error;
    if (!append_validation_record(validation_log_path(), r, &error)) {
      static std::atomic<bool> warned{false};
      if (!warned.exchange(true)) std::fprintf(stderr, "tt: validation log: %s\n", error.c_str());
    }
  } catch (const std::exception& e) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) std::fprintf(stderr, "tt: validation log: %s\n", e.what());
  }
}

}  // namespace tt
