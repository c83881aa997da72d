// A baseline: the findings of an earlier report (this tool's JSON or SARIF),
// so CI can fail only on findings that are new.
#ifndef TENSOR_TIDY_REPORT_BASELINE_H
#define TENSOR_TIDY_REPORT_BASELINE_H

#include "Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <tuple>

namespace tensor_tidy::report {

/// The identities of an earlier report's findings: (check, file, line,
/// message). Columns are left out: they differ between compilers.
class Baseline {
public:
  /// Reads a report written by --format=json or --format=sarif. Relative
  /// paths resolve against the root recorded in the report, else
  /// \p SourceRoot, else the working directory.
  static llvm::Expected<Baseline> load(llvm::StringRef Path,
                                       llvm::StringRef SourceRoot);

  /// Whether \p E was already in the earlier report.
  bool contains(const Entry &E) const;

  /// Number of findings in the earlier report.
  size_t size() const { return Keys.size(); }

private:
  void add(llvm::StringRef Check, llvm::StringRef File, int64_t Line,
           llvm::StringRef Message, llvm::StringRef Root);

  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Keys;
};

} // namespace tensor_tidy::report

#endif
