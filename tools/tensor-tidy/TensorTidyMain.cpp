//===--- TensorTidyMain.cpp - clang-tidy with the tensor module -----------===//
//
// A drop-in clang-tidy: the stock driver (same flags, every stock module,
// pulled in by clangTidyMain's force-linker) plus the `tensor` module.
//
//===----------------------------------------------------------------------===//

#include "tool/ClangTidyMain.h"

#include "CudaArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace clang::tidy {
extern volatile int TensorModuleAnchorSource;
namespace tensor {
extern const char* TensorModuleDefaultChecks;
}  // namespace tensor
// Keeps the module's registration object in the link.
[[maybe_unused]] static int TensorModuleAnchorDestination = TensorModuleAnchorSource;
}  // namespace clang::tidy

namespace {

/// The source files named on the command line: the arguments before `--`
/// that are not options or their values. clang-tidy's own options are
/// registered by now; CommonOptionsParser's (-p, --extra-arg...) are not.
std::vector<std::string> namedSources(int Argc, const char** Argv) {
  static const llvm::StringSet<> ParserOptions = {"p", "extra-arg", "extra-arg-before"};
  llvm::StringMap<llvm::cl::Option*>& Registered = llvm::cl::getRegisteredOptions();
  // Modes that read no source file (run-clang-tidy's -list-checks names
  // "" and "-" as files).
  static const llvm::StringSet<> NoFiles = {"list-checks", "dump-config", "verify-config", "explain-config"};
  std::vector<std::string> Sources;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--") break;
    if (Arg.starts_with("@")) continue;  // a response file
    if (!Arg.starts_with("-") || Arg == "-") {
      if (!Arg.empty()) Sources.push_back(Arg.str());
      continue;
    }
    llvm::StringRef Name = Arg.ltrim('-');
    if (NoFiles.contains(Name.split('=').first)) return {};
    if (Name.contains('=')) continue;
    auto It = Registered.find(Name);
    bool TakesValue = ParserOptions.contains(Name) ||
                      (It != Registered.end() && It->second->getValueExpectedFlag() == llvm::cl::ValueRequired);
    if (TakesValue) ++I;
  }
  return Sources;
}

/// tools/cuda-compat of an installed tensor-tidy (PREFIX/share/tensor-tidy),
/// else of the source tree it was built from.
std::string cudaCompatDir(const char* Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  if (!Exe.empty()) {
    llvm::SmallString<256> Installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
    llvm::sys::path::append(Installed, "share", "tensor-tidy", "cuda-compat");
    if (llvm::sys::fs::is_directory(Installed)) return std::string(Installed);
  }
  return TT_TIDY_CUDA_COMPAT_DIR;
}

}  // namespace

int main(int Argc, const char** Argv) {
  // A first run with no .clang-tidy and no --checks runs the tensor checks
  // (beside clang-tidy's default clang-diagnostic-* and clang-analyzer-*).
  clang::tidy::tensor::TensorModuleDefaultChecks = "tensor-*";
  // --version: tensor-tidy's own version under LLVM's, so a bug report or a
  // CI cache key says which tensor module ran.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream& OS) {
    OS << "tensor-tidy version " TT_TIDY_VERSION " (clang-tidy with the tensor module)\n";
  });
  std::vector<std::string> Sources = namedSources(Argc, Argv);
  // CUDA sources: what clang 19 needs for newer CUDA toolkits (CudaArgs.h),
  // as options before the user's, so theirs come after and win.
  std::vector<std::string> Cuda = tensor_tidy::cudaArgs(Sources, llvm::ArrayRef(Argv, Argc), cudaCompatDir(Argv[0]));
  std::vector<const char*> Args(Argv, Argv + Argc);
  for (size_t I = 0; I < Cuda.size(); ++I) Args.insert(Args.begin() + 1 + I, Cuda[I].c_str());
  int Status = clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
  // A file that does not exist is the user's error, not a finding: status
  // 2, as for other usage errors, where clang-tidy returns 1 (the status of
  // findings under -warnings-as-errors, and of compile errors).
  bool Missing = false;
  for (const std::string& Source : Sources)
    if (Source != "-" && !llvm::sys::fs::exists(Source)) {
      llvm::errs() << "tensor-tidy: error: '" << Source << "' does not exist\n";
      Missing = true;
    }
  return Missing ? 2 : Status;
}
