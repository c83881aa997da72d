//===--- DiscardedCastCheck.h - tensor-discarded-cast ---------------------===//
//
// Tensor conversions (`to`, `cuda`, `contiguous`, ...) are out of place: they
// return a new tensor and leave their object as it was. Calling one as a
// statement, as if it were `module->to(device)`, does nothing useful and
// leaves the tensor on the old device or in the old dtype.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H
#define TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H

#include "DiscardedCallCheck.h"

namespace clang::tidy::tensor {

/// Flags a discarded result of an out-of-place tensor conversion (the
/// ApiModel's conversion methods), with the fix-it `x = x.to(...)`. What
/// counts as discarded, and when the fix-it is offered: DiscardedCallCheck.
/// For the user-facing documentation see docs/checks/tensor-discarded-cast.md.
/// Also flags a conversion assigned to a by-value copy that nothing reads
/// again (LostCopies.h): a range-for variable, with the fix-it `auto &`
/// where the container can be changed through it, or a parameter.
class DiscardedCastCheck : public DiscardedCallCheck {
public:
  using DiscardedCallCheck::DiscardedCallCheck;
  void onStartOfTranslationUnit() override;

protected:
  bool reports(const CXXMethodDecl *MD) const override {
    return Api.isOutOfPlaceConversion(MD);
  }
  FixItHint fixFor(const CXXMemberCallExpr *Call, const MemberExpr *Callee,
                   StringRef RecvText) const override;
  void emit(const Finding &F) override;
  void
  checkFunction(const FunctionDecl *Fn,
                const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  // Assignments already reported (a template's, once per instantiation).
  llvm::DenseSet<SourceLocation> LostReported;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_DISCARDEDCASTCHECK_H
