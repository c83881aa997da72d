// The JSONL writer of the validation log (tt/validation_log.h). It knows the
// format and the append discipline, nothing about tensors: tt's recorder and
// tensor-run's both build a ValidationRecord and hand it here.
#include "tt/validation_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace tt {

namespace {
// The one way the log is opened: appends, created when missing.
int open_for_append(const std::string& path) noexcept {
  return ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}
}  // namespace

bool can_append_validation_log(const std::string& path, std::string* reason) noexcept {
  const int fd = open_for_append(path);
  if (fd < 0) {
    if (reason) *reason = std::strerror(errno);
    return false;
  }
  ::close(fd);
  return true;
}

std::string format_validation_record(const ValidationRecord& r) {
  nlohmann::ordered_json j;
  j["check"] = r.check;
  j["file"] = r.file;
  j["line"] = r.line;
  j["column"] = r.column;
  j["function"] = r.function;
  j["op"] = r.op;
  j["message"] = r.message;
  j["devices"] = r.devices;
  j["dtypes"] = r.dtypes;
  // Invalid UTF-8 in a path or a demangled name must not lose the record.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool append_validation_record(const std::string& path, const ValidationRecord& record, std::string* error) noexcept {
  try {
    const std::string line = format_validation_record(record);
    // One write() per record on an O_APPEND descriptor: the kernel appends
    // it atomically with respect to other appenders, threads or processes.
    const int fd = open_for_append(path);
    if (fd < 0) {
      if (error) *error = "cannot open " + path + ": " + std::strerror(errno);
      return false;
    }
    ssize_t n;
    do {
      n = ::write(fd, line.data(), line.size());
    } while (n < 0 && errno == EINTR);
    const int err = errno;
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size())) {
      if (error) *error = "short write to " + path + ": " + std::strerror(n < 0 ? err : ENOSPC);
      return false;
    }
    return true;
  } catch (const std::exception& e) {  // std::bad_alloc from building the line
    if (error) *error = e.what();
    return false;
  }
}

}  // namespace tt
