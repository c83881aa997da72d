// The report's output formats.
#ifndef TENSOR_TIDY_REPORT_WRITERS_H
#define TENSOR_TIDY_REPORT_WRITERS_H

#include "Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tensor_tidy::report {

/// \p S as a JSON string value: inputs may hold invalid UTF-8 (paths,
/// compiler output), which JSON cannot carry; it is replaced, not fatal.
inline llvm::json::Value jsonString(llvm::StringRef S) {
  return llvm::json::isUTF8(S) ? llvm::json::Value(S.str()) : llvm::json::Value(llvm::json::fixUTF8(S));
}

/// \p S safe to print on a terminal: control characters (ESC, CR, ...),
/// bidirectional overrides (U+202E, ...) and bytes that are not UTF-8 become
/// `\xHH` / `\uHHHH`, so text from a log cannot rewrite the screen or
/// reorder what the reader sees.
std::string printable(llvm::StringRef S);

/// A table per group (confirmed, static-only, dynamic-only) and a summary
/// line; ANSI colours when \p Color.
void writeText(llvm::raw_ostream& OS, const Report& R, bool Color);

/// The report as JSON: a summary and one object per entry. Also readable
/// back as a --baseline.
void writeJson(llvm::raw_ostream& OS, const Report& R);

/// The report as a SARIF 2.1.0 log with one run; rule metadata comes from
/// \p DocsDir/<check>.md.
void writeSarif(llvm::raw_ostream& OS, const Report& R, llvm::StringRef DocsDir, llvm::StringRef Version);

}  // namespace tensor_tidy::report

#endif
