// Path normalisation shared by every reader, so the join compares like with
// like: the same file spelled `src/../src/a.cpp`, `./src/a.cpp` or
// `/abs/src/a.cpp` becomes one key.
#ifndef TENSOR_TIDY_REPORT_PATHS_H
#define TENSOR_TIDY_REPORT_PATHS_H

#include <string>
#include "llvm/ADT/StringRef.h"

namespace tensor_tidy::report {

/// Makes \p Path absolute against \p BaseDir (itself made absolute against
/// the working directory) and removes `.` and `..` components lexically:
/// symlinks are not resolved, so files need not exist.
std::string normalisePath(llvm::StringRef Path, llvm::StringRef BaseDir);

/// \p Path relative to \p Root when it lies under it, else \p Path unchanged.
/// Both are expected normalised.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);

/// Turns a `file://` URI or a relative URI reference into a path,
/// percent-escapes decoded.
std::string pathFromUri(llvm::StringRef Uri);

/// Percent-encodes the characters of \p Path that a URI reference may not
/// hold; `/` is kept.
std::string uriEscape(llvm::StringRef Path);

}  // namespace tensor_tidy::report

#endif
