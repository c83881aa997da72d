// tt::Error: PyTorch's message prefixed with the user's call site; a
// ConfigurationError has none, and ends the program cleanly when uncaught.
#include "tt/errors.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace tt {

namespace {
std::string with_location(const std::string& message, const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" + std::to_string(where.column()) +
         ": " + message;
}

// An uncaught ConfigurationError is a setting to fix, not a crash: its one
// line and exit status 2 (as tensor-run's bad settings), instead of
// "terminate called after throwing an instance of ..." and an abort. Any
// other exception goes to the handler that was installed before.
std::terminate_handler g_previous_terminate = nullptr;

[[noreturn]] void on_terminate() {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const ConfigurationError& e) {
      std::fflush(nullptr);
      std::fprintf(stderr, "%s\n", e.what());
      std::fflush(stderr);
      std::_Exit(2);
    } catch (...) {
    }
  }
  if (g_previous_terminate) g_previous_terminate();
  std::abort();
}

const bool g_terminate_installed = [] {
  g_previous_terminate = std::set_terminate(on_terminate);
  return true;
}();
}  // namespace

Error::Error(const std::string& message, const std::source_location& where)
    : std::runtime_error(with_location(message, where)), message_(message), where_(where) {}

Error::Error(Unlocated, const std::string& message)
    : std::runtime_error("tt: " + message), message_(message), where_() {}

ConfigurationError::ConfigurationError(const std::string& message) : ValueError(Unlocated{}, message) {
  (void)g_terminate_installed;
}

}  // namespace tt
