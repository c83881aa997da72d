// The inputs: clang-tidy text output, clang-tidy -export-fixes YAML and the
// runtime's JSONL validation logs. Each reader appends normalised findings;
// a malformed record is reported on stderr as `file:line: ...` and skipped,
// so one bad line never loses the rest of a log.
#ifndef TENSOR_TIDY_REPORT_READERS_H
#define TENSOR_TIDY_REPORT_READERS_H

#include "Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <vector>

namespace tensor_tidy::report {

/// The kinds of input files.
enum class InputKind { Auto, Text, Fixes, Log };

/// Reports a malformed part of an input on stderr and counts it.
void warnMalformed(llvm::StringRef File, unsigned Line, const llvm::Twine &Msg);

/// How many malformed records were reported so far.
unsigned malformedCount();

/// Reads clang-tidy's text output (`file:line:col: warning: msg [check]`);
/// notes, source excerpts and summaries are ignored. Relative paths are
/// resolved against \p BaseDir.
void readClangTidyText(llvm::StringRef Name, llvm::StringRef Text,
                       llvm::StringRef BaseDir, std::vector<Finding> &Out);

/// Reads clang-tidy -export-fixes YAML (one or more documents). File offsets
/// are turned into lines and columns by reading the source files. Relative
/// paths resolve against each diagnostic's BuildDirectory, else \p BaseDir.
void readExportFixes(llvm::StringRef Name, llvm::StringRef Text,
                     llvm::StringRef BaseDir, std::vector<Finding> &Out);

/// Reads a `TT_VALIDATE=record` log: one JSON object per line (see
/// docs/runtime.md). Relative paths resolve against \p BaseDir.
void readValidationLog(llvm::StringRef Name, llvm::StringRef Text,
                       llvm::StringRef BaseDir, std::vector<Finding> &Out);

/// Guesses the kind of an input from its name, then its first bytes.
InputKind detectInputKind(llvm::StringRef Name, llvm::StringRef Text);

} // namespace tensor_tidy::report

#endif
