// The inputs: clang-tidy text output, clang-tidy -export-fixes YAML and the
// runtime's JSONL validation logs. Each reader appends normalised findings;
// a malformed record is reported on stderr as `file:line: ...` and skipped,
// so one bad line never loses the rest of a log. An input of which nothing
// is of the reader's kind (a SARIF report given as a log, a YAML file that is
// not clang-tidy's, random text) is not "no findings": each reader says
// whether it recognised anything, and the caller refuses the input.
#ifndef TENSOR_TIDY_REPORT_READERS_H
#define TENSOR_TIDY_REPORT_READERS_H

#include "Finding.h"

#include <vector>
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace tensor_tidy::report {

/// The kinds of input files.
enum class InputKind { Auto, Text, Fixes, Log };

/// What a reader made of one input.
struct ReadResult {
  /// Something in it is of the reader's kind: a validation record, a
  /// clang-tidy fixes document (with or without diagnostics), a line of
  /// clang-tidy's output. An input with text but nothing recognised is an
  /// input error, not an empty one.
  bool Recognised = false;
};

/// The most malformed parts reported per input; the rest are counted and
/// summed up in one line by finishMalformed().
constexpr unsigned MaxMalformedShown = 20;

/// Reports a malformed part of an input on stderr and counts it (past
/// MaxMalformedShown per input, counts only).
void warnMalformed(llvm::StringRef File, unsigned Line, const llvm::Twine& Msg);

/// Ends the current input's malformed reports: one line with the count of
/// those not shown, if any.
void finishMalformed();

/// How many malformed records were reported so far.
unsigned malformedCount();

/// Reads clang-tidy's text output (`file:line:col: warning: msg [check]`);
/// notes, source excerpts and summaries are ignored. Relative paths are
/// resolved against \p BaseDir.
ReadResult readClangTidyText(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                             std::vector<Finding>& Out);

/// Reads clang-tidy -export-fixes YAML (one or more documents). File offsets
/// are turned into lines and columns by reading the source files. Relative
/// paths resolve against each diagnostic's BuildDirectory, else \p BaseDir.
ReadResult readExportFixes(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                           std::vector<Finding>& Out);

/// Reads a `TT_VALIDATE=record` log: one JSON object per line (see
/// docs/runtime.md). Relative paths resolve against \p BaseDir.
ReadResult readValidationLog(llvm::StringRef Name, llvm::StringRef Text, llvm::StringRef BaseDir,
                             std::vector<Finding>& Out);

/// Guesses the kind of an input from its name, then its first bytes.
InputKind detectInputKind(llvm::StringRef Name, llvm::StringRef Text);

/// What an input that no reader could use looks like, for the error: "a
/// SARIF log (...)", "YAML without clang-tidy's 'Diagnostics' list ...",
/// "text without a clang-tidy diagnostic ...".
std::string describeInput(llvm::StringRef Text);

/// Whether the whole of \p Text is one JSON document that is not a
/// validation record (a report, a SARIF log, a pretty-printed object):
/// never a log, whose records are one object per line.
bool isJsonDocument(llvm::StringRef Text);

}  // namespace tensor_tidy::report

#endif
