//===--- MixedDeviceCheck.cpp - tensor-mixed-device -----------------------===//

#include "MixedDeviceCheck.h"
#include "clang/AST/ASTContext.h"

namespace clang::tidy::tensor {

bool MixedDeviceCheck::checkSite(const Site &S, ASTContext &Ctx) {
  if (S.K != Site::Combine)
    return false;
  // ATen moves a 0-dim cpu tensor to the others' device: only an operand
  // that provably has dimensions can clash from the cpu.
  auto Counts = [](const Operand &O) { return !O.Fact.mayBeCpuScalar(); };
  for (size_t I = 0; I < S.Operands.size(); ++I)
    for (size_t J = I + 1; J < S.Operands.size(); ++J) {
      const Operand &A = S.Operands[I], &B = S.Operands[J];
      if (!Counts(A) || !Counts(B) ||
          !provablyDifferent(A.Fact.Device, B.Fact.Device))
        continue;
      SourceLocation Loc =
          Ctx.getSourceManager().getExpansionLoc(S.Call->getExprLoc());
      diag(Loc, "%0 combines tensors on different devices: %1 is on %2 and "
                "%3 is on %4")
          << calleeName(S) << nameOf(A.E, Ctx) << A.Fact.Device.describe()
          << nameOf(B.E, Ctx) << B.Fact.Device.describe();
      noteDeviceOrigin(A, Ctx);
      noteDeviceOrigin(B, Ctx);
      return true; // one warning per site
    }
  return false;
}

} // namespace clang::tidy::tensor
