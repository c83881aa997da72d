//===--- TensorTidyMain.cpp - clang-tidy with the tensor module -----------===//
//
// A drop-in clang-tidy: the stock driver (same flags, every stock module,
// pulled in by clangTidyMain's force-linker) plus the `tensor` module.
//
//===----------------------------------------------------------------------===//

#include "tool/ClangTidyMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy {
extern volatile int TensorModuleAnchorSource;
namespace tensor {
extern const char *TensorModuleDefaultChecks;
} // namespace tensor
// Keeps the module's registration object in the link.
[[maybe_unused]] static int TensorModuleAnchorDestination =
    TensorModuleAnchorSource;
} // namespace clang::tidy

int main(int Argc, const char **Argv) {
  // A first run with no .clang-tidy and no --checks runs the tensor checks
  // (beside clang-tidy's default clang-diagnostic-* and clang-analyzer-*).
  clang::tidy::tensor::TensorModuleDefaultChecks = "tensor-*";
  // --version: tensor-tidy's own version under LLVM's, so a bug report or a
  // CI cache key says which tensor module ran.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "tensor-tidy version " TT_TIDY_VERSION
          " (clang-tidy with the tensor module)\n";
  });
  return clang::tidy::clangTidyMain(Argc, Argv);
}
