// The validation log's record and writer, shared by the two dynamic halves:
// tt's recorder (runtime/src/validate.cpp) and tensor-run's, for LibTorch
// programs (tensor-run/). One format, one writer: tensor-tidy-report reads
// what either writes (docs/runtime.md, "Format").
#pragma once

#include <string>
#include <vector>

namespace tt {

/// One violation at one source location, as written to the JSONL log.
/// `check` is a static check's name (tensor-mixed-device, ...); `file` is
/// the source path (absolute, or as the compiler spelled it); `line` and
/// `column` are 1-based, 0 when unknown; `devices` are c10 spellings
/// ("cuda:0", "cpu") and `dtypes` Python names ("float32", "float16").
struct ValidationRecord {
  std::string check;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string function;
  std::string op;
  std::string message;
  std::vector<std::string> devices;
  std::vector<std::string> dtypes;
};

/// The record as one line of JSON with the fields in the documented order,
/// ending in '\n'. Invalid UTF-8 (in a path, say) is replaced, never lost.
std::string format_validation_record(const ValidationRecord& record);

/// Opens `path` for appending as append_validation_record does (creating it
/// when missing) and closes it: whether records could be written there.
/// Returns false and sets `reason` to strerror's text on failure; never throws.
bool can_append_validation_log(const std::string& path, std::string* reason) noexcept;

/// Appends the record to `path` with one write() on an O_APPEND descriptor,
/// so records of concurrent threads and processes never interleave and a
/// record survives a crash right after it. Returns false and sets `error`
/// (e.g. "cannot open /x/log.jsonl: Permission denied") on failure; never
/// throws.
bool append_validation_record(const std::string& path, const ValidationRecord& record, std::string* error) noexcept;

}  // namespace tt
