//===--- TensorClangdMain.cpp - clangd with the tensor module -------------===//
//
// Stock clangd cannot load clang-tidy plugins, so editors get the tensor-*
// checks from this build of clangd's own driver with the module linked in.
// Configuration is clangd's: see docs/editors.md.
//
//===----------------------------------------------------------------------===//

namespace clang::clangd {
// Declared in clangd's tool/ClangdMain.h, which Debian does not install.
int clangdMain(int Argc, char *Argv[]);
} // namespace clang::clangd

namespace clang::tidy {
extern volatile int TensorModuleAnchorSource;
[[maybe_unused]] static int TensorModuleAnchorDestination =
    TensorModuleAnchorSource;
} // namespace clang::tidy

int main(int Argc, char *Argv[]) {
  return clang::clangd::clangdMain(Argc, Argv);
}
