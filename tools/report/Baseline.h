// A baseline: the findings of an earlier report (this tool's JSON or SARIF),
// so CI can fail only on findings that are new.
#ifndef TENSOR_TIDY_REPORT_BASELINE_H
#define TENSOR_TIDY_REPORT_BASELINE_H

#include "Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tensor_tidy::report {

/// The findings of an earlier report, matched against a new one.
///
/// Each earlier finding is matched by at most one new finding, in three
/// tiers, each before the next: the same context hash (the finding moved:
/// lines were added or removed elsewhere, or the checkout moved), the same
/// line hash (a neighbouring line was edited too), and, only where either
/// side has no fingerprint (a report written before fingerprints, or a
/// source that could not be read), the same check, path, line and message.
/// Paths compare relative to each report's source root.
class Baseline {
 public:
  /// Reads a report written by --format=json or --format=sarif. Absolute
  /// paths in it are taken relative to the root recorded in the report,
  /// else to \p SourceRoot.
  static llvm::Expected<Baseline> load(llvm::StringRef Path, llvm::StringRef SourceRoot);

  /// Sets Entry::InBaseline on the entries of \p R that match.
  void mark(Report& R) const;

  /// Number of findings in the earlier report.
  size_t size() const { return Items.size(); }

  /// How many of the earlier findings carry no fingerprint.
  size_t withoutFingerprints() const;

 private:
  struct Item {
    std::string Check, Path, Message, ContextHash, LineHash;
    unsigned Line = 0;
  };
  std::vector<Item> Items;
};

}  // namespace tensor_tidy::report

#endif
