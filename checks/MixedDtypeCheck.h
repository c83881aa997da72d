//===--- MixedDtypeCheck.h - tensor-mixed-dtype ---------------------------===//
//
// Matrix products do not promote dtypes: a float16 model fed float32 input,
// or matmul(float16, float32), throws "expected scalar type Float but found
// Half" (PyTorch: "mat1 and mat2 must have the same dtype").
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_MIXEDDTYPECHECK_H
#define TENSOR_TIDY_CHECKS_MIXEDDTYPECHECK_H

#include "SiteCheck.h"

namespace clang::tidy::tensor {

/// Flags a module whose parameters have a known floating dtype (cast with
/// to(kHalf)/half(), or a LibTorch/tt module's float32) called with an input
/// of another floating dtype, and matmul/mm/bmm/linear between tensors of
/// provably different floating dtypes. See docs/checks/tensor-mixed-dtype.md.
class MixedDtypeCheck : public SiteCheck {
public:
  using SiteCheck::SiteCheck;

protected:
  bool checkSite(const Site &S, ASTContext &Ctx) override;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_MIXEDDTYPECHECK_H
