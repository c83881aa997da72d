/*===--- VersionGuard.c - load the tensor checks only into clang-tidy 19 ---===
 *
 * TensorTidyModule.so is this small loader, with no LLVM dependency. The
 * checks themselves live in TensorTidyChecks.so beside it, which uses
 * clang-tidy 19's C++ ABI. Loaded into another clang-tidy, that library would
 * bind to the host's incompatible classes and crash, so the loader first asks
 * the host which LLVM it is (LLVMGetVersion, exported by libLLVM since 16) and
 * only then loads the checks; otherwise it explains and does nothing.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#ifndef TENSOR_TIDY_LLVM_MAJOR
#error "TENSOR_TIDY_LLVM_MAJOR must be defined by the build"
#endif
#ifndef TENSOR_TIDY_CHECKS_LIBRARY
#error "TENSOR_TIDY_CHECKS_LIBRARY must be defined by the build"
#endif

typedef void (*GetVersionFn)(unsigned *, unsigned *, unsigned *);

static void refuse(const char *Why) {
  fprintf(stderr,
          "tensor-tidy: TensorTidyModule.so was built for clang-tidy %d, "
          "but %s; the tensor-* checks are not loaded. Use clang-tidy-%d "
          "or the tensor-tidy binary.\n",
          TENSOR_TIDY_LLVM_MAJOR, Why, TENSOR_TIDY_LLVM_MAJOR);
}

__attribute__((constructor)) static void loadTensorChecks(void) {
  GetVersionFn GetVersion = (GetVersionFn)dlsym(RTLD_DEFAULT, "LLVMGetVersion");
  if (!GetVersion) {
    refuse("this program is not an LLVM 16 or newer tool that exports its "
           "symbols");
    return;
  }
  unsigned Major = 0, Minor = 0, Patch = 0;
  GetVersion(&Major, &Minor, &Patch);
  if (Major != TENSOR_TIDY_LLVM_MAJOR) {
    char Why[96];
    snprintf(Why, sizeof Why, "this clang-tidy is LLVM %u.%u.%u", Major, Minor,
             Patch);
    refuse(Why);
    return;
  }

  Dl_info Self;
  if (!dladdr((void *)&loadTensorChecks, &Self) || !Self.dli_fname) {
    refuse("its own location could not be determined");
    return;
  }
  char Dir[PATH_MAX];
  snprintf(Dir, sizeof Dir, "%s", Self.dli_fname);
  char Path[PATH_MAX];
  snprintf(Path, sizeof Path, "%s/%s", dirname(Dir),
           TENSOR_TIDY_CHECKS_LIBRARY);
  if (!dlopen(Path, RTLD_NOW | RTLD_GLOBAL))
    fprintf(stderr, "tensor-tidy: cannot load the tensor-* checks: %s\n",
            dlerror());
}
