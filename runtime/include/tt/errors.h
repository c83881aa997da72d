// Typed errors. Each carries PyTorch's wording (message()) and the user's
// call site (location()), captured with std::source_location default
// arguments on every public entry point.
#pragma once

#include <source_location>
#include <stdexcept>
#include <string>

namespace tt {

/// Base of every error the runtime throws. what() is
/// "file:line:col: message" (the compiler-diagnostic shape, so terminals and
/// editors link it); message() is PyTorch's text alone.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, const std::source_location& where);

 protected:
  /// An error of no source line (ConfigurationError): what() is
  /// "tt: message", location() is empty (file "", line 0).
  struct Unlocated {};
  Error(Unlocated, const std::string& message);

 public:
  const std::string& message() const noexcept { return message_; }
  const std::source_location& location() const noexcept { return where_; }
  const char* file() const noexcept { return where_.file_name(); }
  unsigned line() const noexcept { return where_.line(); }
  unsigned column() const noexcept { return where_.column(); }

 private:
  std::string message_;
  std::source_location where_;
};

/// Operands on different devices ("Expected all tensors to be on the same
/// device, but found at least two devices, cuda:0 and cpu!").
class DeviceMismatchError : public Error {
  using Error::Error;
};
/// Operands whose dtypes an op refuses to mix (matmul does not promote; an
/// in-place result that cannot be cast to the output; data_ptr<T> of
/// another dtype; an op not implemented for a dtype).
class DTypeMismatchError : public Error {
  using Error::Error;
};
/// Shapes that do not broadcast, matmul shapes that do not chain, views
/// incompatible with a size or stride.
class ShapeError : public Error {
  using Error::Error;
};
/// A cuda device was asked for and there is none ("CUDA is not available"),
/// or its index is out of range ("CUDA error: invalid device ordinal").
class CudaUnavailableError : public Error {
  using Error::Error;
};
/// A bad argument: negative sizes, dim out of range, item() on many
/// elements, requires_grad on a non-floating dtype, a shape whose number of
/// elements or bytes overflows ("numel: integer multiplication overflow"),
/// a malformed TT_* environment variable (ConfigurationError).
class ValueError : public Error {
  using Error::Error;
};
/// A malformed TT_* environment variable, or a record-mode log that cannot
/// be written: the program's setting, not a line of it. what() names the
/// variable and what it accepts ("tt: environment variable TT_VALIDATE=
/// bogus: expected raise or record"), with no source location. A
/// ValueError, so code that catches those catches it; uncaught, it ends the
/// program with that line on stderr and exit status 2, not std::terminate's
/// "terminate called after throwing...".
class ConfigurationError : public ValueError {
 public:
  explicit ConfigurationError(const std::string& message);
};
/// An allocation the machine cannot satisfy ("CPU out of memory: tried to
/// allocate 8.00 EiB"), as c10::OutOfMemoryError; never a crash or a null
/// pointer.
class OutOfMemoryError : public Error {
  using Error::Error;
};

}  // namespace tt
