//===--- TensorTidyMain.cpp - clang-tidy with the tensor module -----------===//
//
// A drop-in clang-tidy: the stock driver (same flags, every stock module,
// pulled in by clangTidyMain's force-linker) plus the `tensor` module.
//
//===----------------------------------------------------------------------===//

#include "tool/ClangTidyMain.h"

namespace clang::tidy {
extern volatile int TensorModuleAnchorSource;
// Keeps the module's registration object in the link.
[[maybe_unused]] static int TensorModuleAnchorDestination =
    TensorModuleAnchorSource;
} // namespace clang::tidy

int main(int Argc, const char **Argv) {
  return clang::tidy::clangTidyMain(Argc, Argv);
}
