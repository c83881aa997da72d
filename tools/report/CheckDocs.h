// Rule metadata for SARIF, taken from the checks' documentation pages
// (docs/checks/<check>.md), so the report and the docs never disagree.
#ifndef TENSOR_TIDY_REPORT_CHECKDOCS_H
#define TENSOR_TIDY_REPORT_CHECKDOCS_H

#include <string>
#include "llvm/ADT/StringRef.h"

namespace tensor_tidy::report {

/// What a check's documentation page says about it.
struct CheckDoc {
  std::string Summary;   ///< the first paragraph after the title, on one line
  std::string Markdown;  ///< the whole page; empty when there is none
};

/// Reads \p DocsDir/\p Check.md. A check without a page (e.g. a stock
/// clang-tidy check) gets its name as summary.
CheckDoc loadCheckDoc(llvm::StringRef DocsDir, llvm::StringRef Check);

}  // namespace tensor_tidy::report

#endif
