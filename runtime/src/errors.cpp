// tt::Error: PyTorch's message prefixed with the user's call site.
#include "tt/errors.h"

namespace tt {

namespace {
std::string with_location(const std::string& message, const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" + std::to_string(where.column()) +
         ": " + message;
}
}  // namespace

Error::Error(const std::string& message, const std::source_location& where)
    : std::runtime_error(with_location(message, where)), message_(message), where_(where) {}

}  // namespace tt
