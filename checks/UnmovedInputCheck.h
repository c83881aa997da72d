//===--- UnmovedInputCheck.h - tensor-unmoved-input -----------------------===//
//
// The seeds' most common bug: the model was moved to `device`, the input was
// not (or its `.to(device)` result was thrown away), so the first GPU run
// fails with "Expected all tensors to be on the same device".
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_UNMOVEDINPUTCHECK_H
#define TENSOR_TIDY_CHECKS_UNMOVEDINPUTCHECK_H

#include "SiteCheck.h"

namespace clang::tidy::tensor {

/// Flags a module call (`model->forward(x)`, `model(x)`) whose tensor input
/// is on a provably different device than the module's parameters. Offers
/// `x` -> `x.to(device)` with the device expression of the module's own
/// `to()` call when that expression is usable at the call.
/// See docs/checks/tensor-unmoved-input.md.
class UnmovedInputCheck : public SiteCheck {
public:
  using SiteCheck::SiteCheck;

protected:
  bool checkSite(const Site &S, ASTContext &Ctx) override;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_UNMOVEDINPUTCHECK_H
