// tensor-run's settings, read once from the environment the driver
// (tools/tensor-run) prepares: how many emulated devices, raise or record,
// and where records go. Bad values end the program before main() with a
// one-line error rather than running it half-instrumented.
#pragma once

#include <string>

namespace tensor_run {

/// raise: a violation throws c10::Error with the CUDA build's message and
/// the user's file:line. record: it appends a record to the log and the op
/// continues (tt's TT_VALIDATE=record semantics).
enum class Mode { Raise, Record };

/// The most emulated devices a program can have (TENSOR_RUN_DEVICES).
constexpr int kMaxDevices = 16;

struct Config {
  /// Emulated CUDA devices, cuda:0 .. cuda:N-1 (TENSOR_RUN_DEVICES, 1..16;
  /// default 1, a single-GPU machine).
  int devices = 1;
  /// TT_VALIDATE: raise (default) or record.
  Mode mode = Mode::Raise;
  /// TT_VALIDATE_LOG (default tt-validate.jsonl in the working directory).
  std::string log_path = "tt-validate.jsonl";
};

/// The settings; the environment is read on first call. A malformed value
/// prints "tensor-run: ..." on stderr and exits with status 2.
const Config& config();

/// Parses a device count as the driver and the library accept it: a decimal
/// integer from 1 to 16 with nothing around it. Returns 0 for anything else.
int parse_device_count(const char* text);

}  // namespace tensor_run
