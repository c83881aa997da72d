#include "CudaArgs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <cstring>
#include <optional>

namespace tensor_tidy {

namespace {

bool isToolkit(llvm::StringRef Dir) {
  llvm::SmallString<256> Header(Dir);
  llvm::sys::path::append(Header, "include", "cuda.h");
  return llvm::sys::fs::exists(Header);
}

/// The toolkit clang 19 would use, and whether it came from the
/// environment (then clang must be told).
std::optional<std::pair<std::string, bool>> findToolkit() {
  for (const char* Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* Dir = std::getenv(Var); Dir && *Dir && isToolkit(Dir))
      return std::make_pair(std::string(Dir), true);
  if (llvm::ErrorOr<std::string> Ptxas = llvm::sys::findProgramByName("ptxas")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Ptxas, Real)) {
      llvm::StringRef Dir = llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
      if (isToolkit(Dir)) return std::make_pair(Dir.str(), false);
    }
  }
  for (const char* Dir : {"/usr/local/cuda", "/usr/lib/cuda"})
    if (isToolkit(Dir)) return std::make_pair(std::string(Dir), false);
  return std::nullopt;
}

}  // namespace

bool isCudaSource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

std::vector<std::string> cudaArgs(llvm::ArrayRef<std::string> Sources, llvm::ArrayRef<const char*> Args,
                                  llvm::StringRef CompatDir) {
  bool Cuda = false;
  for (const std::string& S : Sources) Cuda |= isCudaSource(S);
  if (!Cuda) return {};
  bool NoCudaInc = false;
  std::optional<std::pair<std::string, bool>> Toolkit;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    NoCudaInc |= A.ends_with("-nocudainc");
    // The user's toolkit, after `--` or in --extra-arg(-before): theirs.
    if (size_t At = A.find("--cuda-path"); At != llvm::StringRef::npos) {
      llvm::StringRef Value = A.substr(At + strlen("--cuda-path"));
      if (Value.consume_front("="))
        Toolkit = std::make_pair(Value.str(), false);
      else if (Value.empty() && I + 1 < Args.size())
        Toolkit = std::make_pair(std::string(Args[I + 1]), false);
    }
  }
  std::vector<std::string> Out = {"--extra-arg=-Wno-unknown-cuda-version"};
  if (NoCudaInc)  // the user's choice: no toolkit headers at all
    return Out;
  if (!CompatDir.empty()) Out.push_back(("--extra-arg=-idirafter" + CompatDir).str());
  if (!Toolkit) Toolkit = findToolkit();
  if (Toolkit) {
    auto [Dir, FromEnvironment] = *Toolkit;
    if (FromEnvironment) Out.push_back("--extra-arg-before=--cuda-path=" + Dir);
    llvm::SmallString<256> Cccl(Dir);
    llvm::sys::path::append(Cccl, "include", "cccl");
    if (llvm::sys::fs::is_directory(Cccl)) Out.push_back(("--extra-arg=-idirafter" + Cccl).str());
  }
  return Out;
}

}  // namespace tensor_tidy
