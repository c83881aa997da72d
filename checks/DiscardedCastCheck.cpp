//===--- DiscardedCastCheck.cpp - tensor-discarded-cast -------------------===//

#include "DiscardedCastCheck.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tensor {

FixItHint DiscardedCastCheck::fixFor(const CXXMemberCallExpr *Call,
                                     const MemberExpr *,
                                     StringRef RecvText) const {
  return FixItHint::CreateInsertion(Call->getBeginLoc(),
                                    (RecvText + " = ").str());
}

void DiscardedCastCheck::emit(const Finding &F) {
  {
    auto Diag = diag(F.Loc, "result of %0 is discarded; tensor conversions "
                            "return a new tensor and leave %1 unchanged")
                << F.CallText << F.Object;
    if (F.Fix)
      Diag << F.FixIt;
  }
  if (F.Fix)
    return;
  if (F.ConstReceiver)
    diag(F.Loc,
         "%0 is const; assign the result to a new variable to keep the "
         "converted tensor",
         DiagnosticIDs::Note)
        << F.Object;
  else
    diag(F.Loc, "assign the result to keep the converted tensor",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::tensor
