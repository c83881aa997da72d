//===--- MixedDeviceCheck.h - tensor-mixed-device -------------------------===//
//
// An operation that combines tensors on provably different devices throws
// "Expected all tensors to be on the same device, but found at least two
// devices, cuda:0 and cpu!" (ATen's TensorIterator::compute_types), on the
// first machine where the devices actually differ: a GPU machine.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_MIXEDDEVICECHECK_H
#define TENSOR_TIDY_CHECKS_MIXEDDEVICECHECK_H

#include "SiteCheck.h"

namespace clang::tidy::tensor {

/// Flags arithmetic, comparisons, add/sub/mul/div/matmul/mm/cat/stack/where,
/// losses and CombiningFunctions whose tensor operands are on provably
/// different devices. A 0-dim cpu tensor (which ATen moves implicitly) and
/// C++ scalars never count. See docs/checks/tensor-mixed-device.md.
class MixedDeviceCheck : public SiteCheck {
public:
  using SiteCheck::SiteCheck;

protected:
  bool checkSite(const Site &S, ASTContext &Ctx) override;

private:
  bool checkFromBlob(const Site &S, ASTContext &Ctx);
  bool checkCpuOnly(const Site &S, ASTContext &Ctx);
  bool checkHostAccessor(const Site &S, ASTContext &Ctx);
  bool checkRegisteredCopy(const Site &S, ASTContext &Ctx);
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_MIXEDDEVICECHECK_H
