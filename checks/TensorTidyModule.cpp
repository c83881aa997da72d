//===--- TensorTidyModule.cpp - the `tensor` clang-tidy module ------------===//
//
// Registers every tensor-* check. Linked into three hosts: the plugin loaded
// by stock clang-tidy-19 (`-load`), tensor-tidy and tensor-clangd.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "ClangTidyModuleRegistry.h"
#include "DiscardedCastCheck.h"
#include "MixedDeviceCheck.h"
#include "MixedDtypeCheck.h"
#include "UnmovedInputCheck.h"

namespace clang::tidy {
namespace tensor {

/// The `tensor` module: checks for tensor device and dtype bugs.
class TensorModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<DiscardedCastCheck>("tensor-discarded-cast");
    CheckFactories.registerCheck<MixedDeviceCheck>("tensor-mixed-device");
    CheckFactories.registerCheck<MixedDtypeCheck>("tensor-mixed-dtype");
    CheckFactories.registerCheck<UnmovedInputCheck>("tensor-unmoved-input");
  }
};

} // namespace tensor

static ClangTidyModuleRegistry::Add<tensor::TensorModule>
    X("tensor-module", "Checks for tensor device and dtype bugs.");

// Statically linked hosts reference this so the linker keeps the registration
// above, as LLVM's own modules do with their *AnchorSource symbols.
// NOLINTNEXTLINE(misc-use-internal-linkage)
volatile int TensorModuleAnchorSource = 0;

} // namespace clang::tidy
