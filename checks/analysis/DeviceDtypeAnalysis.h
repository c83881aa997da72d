//===--- DeviceDtypeAnalysis.h - Where tensors live, what they hold -------===//
//
// One flow-sensitive, intra-procedural analysis per function, shared by the
// tensor-* checks: for every tensor and module value at every program point
// it computes the device and dtype (see Lattice.h), and it records the sites
// the checks judge (ops that combine tensors, module calls, matmuls) with the
// facts of their operands at that point. It never emits diagnostics.
//
// A worklist over clang::CFG (docs/design.md says why not the dataflow
// framework), with a cap on block visits and a work budget linear in the
// function's size: a function that hits either reports no sites at all.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H

#include "../ApiModel.h"
#include "Lattice.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::tidy::tensor {

/// A tensor operand of a site and what was known of it there.
struct Operand {
  const Expr *E = nullptr;
  TensorFact Fact;
};

/// A place where the device or dtype rules of ATen apply.
struct Site {
  enum Kind : uint8_t {
    Combine,    // arithmetic, comparisons, add/matmul/cat/where/losses...
    ModuleCall, // model->forward(x), model(x)
  };
  Kind K = Combine;
  /// For Combine: matmul/mm/bmm/linear, which do not promote dtypes.
  bool NonPromoting = false;
  const Expr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  llvm::SmallVector<Operand, 3> Operands;
  // ModuleCall only: the module expression and what was known of it.
  const Expr *ModuleExpr = nullptr;
  ModuleFact Module;
};

/// The analysis' result for one function body.
struct FunctionFacts {
  std::vector<Site> Sites;
  /// False when the analysis gave up (CFG not buildable, visit cap hit):
  /// then Sites is empty, and the checks stay silent.
  bool Complete = false;
};

/// Computes and caches FunctionFacts per function body. The cache lives for
/// one translation unit and one thread (clangd builds ASTs concurrently),
/// and is keyed by the API model's configuration, so that every check
/// configured alike shares one analysis per function.
class DeviceDtypeAnalysis {
public:
  /// The facts of \p Body (a function's or lambda's body). \p Fn is the
  /// function, for its parameters.
  static const FunctionFacts &analyze(const FunctionDecl *Fn, ASTContext &Ctx,
                                      const ApiModel &Api);
  /// Forget everything: called at the start of each translation unit.
  static void reset();

  /// Block visits allowed per CFG block before the analysis gives up.
  static constexpr unsigned MaxVisitsPerBlock = 8;
  /// The work budget, in environment entries copied or joined: BaseWork
  /// plus WorkPerElement per CFG element. Typical functions use a small
  /// fraction; past it the analysis gives up, which keeps it linear.
  static constexpr uint64_t BaseWork = 50000;
  static constexpr uint64_t WorkPerElement = 16;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H
