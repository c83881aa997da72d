// What clang 19 needs, beyond a CUDA source's own compile command, to parse
// it against the installed CUDA toolkit (docs/getting-started.md, "CUDA
// sources").
#ifndef TENSOR_TIDY_CUDA_ARGS_H
#define TENSOR_TIDY_CUDA_ARGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tensor_tidy {

/// Whether \p Path is a CUDA source or header (.cu, .cuh).
bool isCudaSource(llvm::StringRef Path);

/// The clang-tidy options (--extra-arg=..., --extra-arg-before=...) that
/// make clang 19 parse CUDA sources of toolkits newer than it knows, when
/// one of \p Sources is a CUDA source; none otherwise:
///  - -Wno-unknown-cuda-version: clang 19 knows CUDA up to 12.5 and warns
///    about any newer one (a clang-diagnostic warning, an error under
///    -warnings-as-errors);
///  - -idirafter COMPAT: the headers CUDA 13 removed that clang's wrapper
///    still includes (tools/cuda-compat);
///  - -idirafter CUDA/include/cccl: CUDA 13 keeps libcu++, CUB and Thrust
///    there, and nvcc adds it, clang 19 does not;
///  - --cuda-path=CUDA, before the command's own flags, when CUDA_PATH or
///    CUDA_HOME names the toolkit (clang itself does not read them).
/// The toolkit is CUDA_PATH or CUDA_HOME, else where clang 19 looks: the
/// directory above ptxas on PATH, /usr/local/cuda, /usr/lib/cuda.
/// \p Args: the command line, for a -nocudainc of the user's (then only the
/// warning is silenced) or a --cuda-path (then the toolkit is that one).
std::vector<std::string> cudaArgs(llvm::ArrayRef<std::string> Sources, llvm::ArrayRef<const char*> Args,
                                  llvm::StringRef CompatDir);

}  // namespace tensor_tidy

#endif
