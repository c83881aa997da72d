// The validation recorder: mode selection and record_violation. Decisions
// about what is a violation live in device_dtype_rules.cpp; the JSONL writer, shared
// with tensor-run, in log/validation_log.cpp.
#include "tt/validate.h"

#include "environment.h"
#include "tt/errors.h"
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

// Record mode that cannot write its log would drop every record while the
// program exits 0, so the log is opened (created, for append) when record
// mode is chosen, and a failure is a ConfigurationError naming the path and
// reason (a setting: no source location).
void require_writable_log(const std::string& path) {
  std::string reason;
  if (!can_append_validation_log(path, &reason)) {
    throw ConfigurationError("TT_VALIDATE=record cannot write its validation log " + path + ": " + reason +
                             " (set TT_VALIDATE_LOG to a writable file)");
  }
}

// Reads TT_VALIDATE / TT_VALIDATE_LOG once; a TT_VALIDATE that is neither
// raise nor record throws ConfigurationError (environment.h) at every use until it
// is fixed or overridden by set_validation_mode().
void init_locked(Settings& s) {
  if (s.initialised) return;
  const ValidationMode mode = detail::env_validation_mode();
  std::string path = s.path;
  if (std::string p = detail::env_validation_log(); !p.empty()) path = p;
  // Until both are valid, every use throws again.
  if (mode == ValidationMode::Record) require_writable_log(path);
  s.mode = mode;
  s.path = path;
  s.initialised = true;
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
  std::string path = s.path;
  if (!s.initialised) {  // the override wins, even over a malformed TT_VALIDATE
    if (std::string p = detail::env_validation_log(); !p.empty()) path = p;
  }
  if (!log_path.empty()) path = log_path;
  if (mode == ValidationMode::Record) require_writable_log(path);  // nothing changes when it throws
  s.initialised = true;
  s.mode = mode;
  s.path = path;
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
