// The join of static and runtime findings into the report's three groups.
#ifndef TENSOR_TIDY_REPORT_JOIN_H
#define TENSOR_TIDY_REPORT_JOIN_H

#include "Finding.h"

#include <vector>

namespace tensor_tidy::report {

/// Folds duplicates and joins static with runtime findings by check, file
/// and line:
/// - identical static findings (same check, file, line, column, message:
///   a header's finding reported by several TUs, one run read as text and as
///   fixes, two shards) become one entry, counted once (StaticCount 1);
/// - runtime records at the same check, file and line become one, counted
///   in DynamicCount (a violation inside a loop is recorded on every pass);
/// - a static entry with runtime records at its check, file and line is
///   confirmed; the rest are static-only or dynamic-only.
/// Entries come out sorted by group, file, line, column and check.
std::vector<Entry> joinFindings(const std::vector<Finding>& Findings);

}  // namespace tensor_tidy::report

#endif
