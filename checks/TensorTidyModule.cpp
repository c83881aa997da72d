//===--- TensorTidyModule.cpp - the `tensor` clang-tidy module ------------===//
//
// Registers every tensor-* check. Linked into three hosts: the plugin loaded
// by stock clang-tidy-19 (`-load`), tensor-tidy and tensor-clangd.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "ClangTidyModuleRegistry.h"
#include "DiscardedCastCheck.h"
#include "DiscardedResultCheck.h"
#include "MixedDeviceCheck.h"
#include "MixedDtypeCheck.h"
#include "UnmovedInputCheck.h"

namespace clang::tidy {
namespace tensor {

/// Checks a host enables by default, before any .clang-tidy file or
/// --checks: tensor-tidy sets "tensor-*" so a first run without
/// configuration runs them. The plugin leaves it null: loading it into stock
/// clang-tidy keeps clang-tidy's own defaults, as other modules do.
// NOLINTNEXTLINE(misc-use-internal-linkage)
const char *TensorModuleDefaultChecks = nullptr;

/// The `tensor` module: checks for tensor device and dtype bugs.
class TensorModule : public ClangTidyModule {
public:
  /// Merged by ClangTidyOptions::getDefaults() under every configuration
  /// source, so a .clang-tidy's `Checks: '-*,...'` or --checks still
  /// decides.
  ClangTidyOptions getModuleOptions() override {
    ClangTidyOptions Options;
    if (TensorModuleDefaultChecks)
      Options.Checks = TensorModuleDefaultChecks;
    return Options;
  }

  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<DiscardedCastCheck>("tensor-discarded-cast");
    CheckFactories.registerCheck<DiscardedResultCheck>(
        "tensor-discarded-result");
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
