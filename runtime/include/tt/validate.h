// The validation recorder's public face: mode, log and the record call that
// the nn layer uses for tensor-unmoved-input. Every device/dtype decision of
// the core passes src/device_dtype_rules.cpp, which reports through here.
#pragma once

#include <source_location>
#include <string>
#include <vector>

#include "tt/device.h"
#include "tt/scalar_type.h"

namespace tt {

/// raise: violations throw typed errors (default). record: each violation
/// appends one JSON line to the log and the op continues after moving or
/// casting the offending operand the way the first operand wants.
enum class ValidationMode { Raise, Record };

/// The current mode: set_validation_mode's, else TT_VALIDATE (raise|record)
/// read on first use. Throws ValueError while TT_VALIDATE is malformed, or is
/// record and the log (TT_VALIDATE_LOG) cannot be opened for appending.
ValidationMode validation_mode();
/// The log path: set_validation_mode's, else TT_VALIDATE_LOG, else
/// "tt-validate.jsonl" in the working directory.
std::string validation_log_path();
/// Overrides TT_VALIDATE / TT_VALIDATE_LOG (an empty path keeps the current
/// one). Record mode opens (creates) the log first: ValueError naming the
/// path and the reason when it cannot, and the settings stay as they were.
void set_validation_mode(ValidationMode mode, const std::string& log_path = "");

/// One finding. `check` is a static check's name: tensor-mixed-device,
/// tensor-mixed-dtype, tensor-discarded-cast, tensor-unmoved-input.
struct Violation {
  std::string check;
  std::string op;       // the operation, e.g. "add", "matmul", "to"
  std::string message;  // PyTorch's wording where PyTorch has one
  std::vector<Device> devices;
  std::vector<ScalarType> dtypes;
};

/// Appends one JSON object line for v at `where` to the log with a single
/// write() on an O_APPEND descriptor (safe across threads and processes).
/// Never throws; I/O failures are reported once on stderr.
void record_violation(const Violation& v, const std::source_location& where) noexcept;

}  // namespace tt
