//===--- TensorClangdMain.cpp - clangd with the tensor module -------------===//
//
// Stock clangd cannot load clang-tidy plugins, so editors get the tensor-*
// checks from this build of clangd's own driver with the module linked in.
// Configuration is clangd's: see docs/editors.md.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace clang::clangd {
// Declared in clangd's tool/ClangdMain.h, which Debian does not install.
int clangdMain(int Argc, char* Argv[]);
}  // namespace clang::clangd

// clangd runs only the clang-tidy checks on its list of checks measured to
// be fast (Diagnostics: ClangTidy: FastCheckFilter, default Strict), which
// does not name the tensor-* checks: without a .clangd saying
// `FastCheckFilter: None`, an editor showed none of their findings. They
// are fast by clangd's measure (under 1% of a translation unit's time,
// docs/performance.md), so this clangd says so: the link wraps clangd's
// isFastTidyCheck (tools/CMakeLists.txt, --wrap) and answers true for them,
// asking clangd's own list for every other check.
#define TT_IS_FAST_TIDY_CHECK _ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE
#define TT_CONCAT2(a, b) a##b
#define TT_CONCAT(a, b) TT_CONCAT2(a, b)
extern "C" std::optional<bool> TT_CONCAT(__real_, TT_IS_FAST_TIDY_CHECK)(llvm::StringRef Check);
extern "C" std::optional<bool> TT_CONCAT(__wrap_, TT_IS_FAST_TIDY_CHECK)(llvm::StringRef Check) {
  if (Check.starts_with("tensor-")) return true;
  return TT_CONCAT(__real_, TT_IS_FAST_TIDY_CHECK)(Check);
}

namespace clang::tidy {
extern volatile int TensorModuleAnchorSource;
[[maybe_unused]] static int TensorModuleAnchorDestination = TensorModuleAnchorSource;
}  // namespace clang::tidy

int main(int Argc, char* Argv[]) { return clang::clangd::clangdMain(Argc, Argv); }
