//===--- MixedDtypeCheck.cpp - tensor-mixed-dtype -------------------------===//

#include "MixedDtypeCheck.h"
#include "analysis/Escapes.h"
#include "clang/AST/ASTContext.h"

namespace clang::tidy::tensor {
namespace {
bool floatingAndDifferent(const DTypeFact &A, const DTypeFact &B) {
  return A.isKnown() && B.isKnown() && isFloating(A.Type) &&
         isFloating(B.Type) && A.Type != B.Type;
}
} // namespace

bool MixedDtypeCheck::checkSite(const Site &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (S.K == Site::ModuleCall) {
    const Operand &In = S.Operands.front();
    if (!floatingAndDifferent(S.Module.Type, In.Fact.Type))
      return false;
    // A TorchScript module's code is not seen: it may cast its input. A
    // module whose forward converts its input expects any dtype.
    if (Api.isScriptModule(S.ModuleClass) ||
        analysis::forwardConvertsInput(S.ModuleClass, Api))
      return false;
    diag(SM.getExpansionLoc(In.E->getBeginLoc()),
         "input %0 is %1 but %2 has %3 parameters; modules do not promote "
         "their input")
        << nameOf(In.E, Ctx) << In.Fact.Type.describe()
        << moduleName(S.ModuleExpr, Ctx) << S.Module.Type.describe();
    noteTypeOrigin(In, Ctx);
    noteModuleType(S.ModuleExpr, S.Module, Ctx);
    return true;
  }
  if (!S.NonPromoting || S.Operands.size() < 2)
    return false;
  const Operand &A = S.Operands[0], &B = S.Operands[1];
  if (!floatingAndDifferent(A.Fact.Type, B.Fact.Type))
    return false;
  diag(SM.getExpansionLoc(S.Call->getExprLoc()),
       "%0 does not promote dtypes: %1 is %2 and %3 is %4")
      << calleeName(S) << nameOf(A.E, Ctx) << A.Fact.Type.describe()
      << nameOf(B.E, Ctx) << B.Fact.Type.describe();
  noteTypeOrigin(A, Ctx);
  noteTypeOrigin(B, Ctx);
  return true;
}

} // namespace clang::tidy::tensor
