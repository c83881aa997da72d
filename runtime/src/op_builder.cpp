// The shared front half of the ops: see op_builder.h.
#include "op_builder.h"

#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "tt/errors.h"

namespace tt::detail {

OpPlan OpBuilder::build() {
  OpPlan plan;
  // 1. The computation dtype.
  if (same_dtype_message_) {
    plan.dtype = impl_of(operands_.at(0).tensor, loc_).dtype;
  } else {
    std::vector<const Tensor*> tensors;
    std::vector<const Scalar*> scalars = promote_only_;
    for (const Operand& o : operands_) {
      if (o.scalar)
        scalars.push_back(o.scalar);
      else if (!o.keep_dtype)
        tensors.push_back(&o.tensor);
    }
    plan.dtype = result_type(tensors, scalars);
  }
  if (integer_to_float_ && !is_floating_type(plan.dtype)) plan.dtype = default_dtype();

  // 2. The common device. Wrapped numbers join as 0-dim cpu tensors.
  plan.operands.reserve(operands_.size());
  for (const Operand& o : operands_)
    plan.operands.push_back(o.scalar ? scalar_to_tensor(*o.scalar, plan.dtype) : o.tensor);
  plan.device = unify_devices(plan.operands, op_, loc_, allow_cpu_scalars_);

  // 3. Equal dtypes where the op does not promote.
  if (same_dtype_message_) {
    for (size_t i = 1; i < plan.operands.size(); ++i) {
      const ScalarType other = impl_of(plan.operands[i], loc_).dtype;
      if (other != plan.dtype)
        require_same_dtype(plan.operands[0], plan.operands[i], op_, same_dtype_message_(plan.dtype, other), loc_);
    }
  }

  // 4. In place: the result must fit self.
  const TensorImpl* self = in_place_ ? &impl_of(plan.operands.at(0), loc_) : nullptr;
  if (self) check_inplace_result(plan.dtype, self->dtype, plan.device, op_, loc_);

  // 5. Kernels for the device.
  require_host_kernels(plan.device, loc_);

  // 6. Shape, casts, expansion.
  if (broadcast_) {
    for (const Tensor& t : plan.operands) plan.shape = broadcast_shape(plan.shape, impl_of(t, loc_).sizes, loc_);
    if (self && plan.shape != self->sizes) {
      throw ShapeError(
          "output with shape " + shape_str(self->sizes) + " doesn't match the broadcast shape " + shape_str(plan.shape),
          loc_);
    }
  }
  plan.inputs.reserve(plan.operands.size());
  for (size_t i = 0; i < plan.operands.size(); ++i) {
    Tensor in = plan.operands[i];
    if (cast_ && !operands_[i].keep_dtype) in = to_dtype_internal(in, plan.dtype, loc_);
    if (broadcast_ && impl_of(in, loc_).sizes != plan.shape) in = expand_internal(in, plan.shape, loc_);
    plan.inputs.push_back(std::move(in));
  }
  return plan;
}

}  // namespace tt::detail
