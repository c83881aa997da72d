//===--- DiscardedResultCheck.h - tensor-discarded-result -----------------===//
//
// Tensor ops are out of place unless their name ends in '_': `x.add(y);`,
// `x.clamp(0, 1);`, `x.squeeze(0);`, `x.relu();` compute a new tensor and
// throw it away, leaving `x` as it was. The user usually meant the in-place
// twin (`add_`, `clamp_`, `squeeze_`, `relu_`).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_DISCARDEDRESULTCHECK_H
#define TENSOR_TIDY_CHECKS_DISCARDEDRESULTCHECK_H

#include "DiscardedCallCheck.h"

namespace clang::tidy::tensor {

/// Flags a discarded result of an out-of-place tensor method: a non-static
/// method of a tensor class (LibTorch's or tt's, or one listed in
/// TensorClasses) that returns a tensor by value, whose name does not end in
/// '_', and that is not a conversion (tensor-discarded-cast reports those).
/// The fix-it calls the in-place twin (`x.add_(y)`) when the class has one
/// that takes the same arguments, else assigns the result (`x = x.sum()`).
/// What counts as discarded, and when a fix-it is offered:
/// DiscardedCallCheck. See docs/checks/tensor-discarded-result.md.
class DiscardedResultCheck : public DiscardedCallCheck {
public:
  DiscardedResultCheck(StringRef Name, ClangTidyContext *Context);

protected:
  bool reports(const CXXMethodDecl *MD) const override;
  FixItHint fixFor(const CXXMemberCallExpr *Call, const MemberExpr *Callee,
                   StringRef RecvText) const override;
  void emit(const Finding &F) override;

private:
  // tensor-discarded-cast.ConversionMethods: conversions configured for that
  // check alone are still its calls, not this check's.
  std::vector<std::string> CastCheckConversions;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_DISCARDEDRESULTCHECK_H
