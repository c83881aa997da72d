// cat, stack and where.
#include <string>

#include "autograd/derivatives.h"
#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "kernels/kernels.h"
#include "op_builder.h"
#include "tensor_impl.h"
#include "tt/errors.h"
#include "tt/ops.h"

namespace tt {

using detail::impl_of;

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim, SourceLoc loc) {
  if (tensors.empty()) throw ValueError("torch.cat(): expected a non-empty list of Tensors", loc);
  // Legacy rule kept by PyTorch: 1-D empty tensors are skipped.
  std::vector<Tensor> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& ti = impl_of(tensors[i], loc);
    if (ti.sizes.empty())
      throw ValueError("zero-dimensional tensor (at position " + std::to_string(i) + ") cannot be concatenated", loc);
    if (!(ti.sizes.size() == 1 && ti.sizes[0] == 0)) parts.push_back(tensors[i]);
  }
  if (parts.empty()) parts.push_back(tensors[0]);
  // The copies below convert each part, so the builder neither casts nor
  // broadcasts; its shape checks are cat's own.
  detail::OpBuilder builder("cat", loc);
  for (const auto& t : parts) builder.add_input(t);
  detail::OpPlan plan = builder.no_cpu_scalars().no_broadcast().no_cast().build();
  parts = std::move(plan.operands);
  const ScalarType dtype = plan.dtype;
  const Device device = plan.device;
  const auto& first = impl_of(parts[0], loc).sizes;
  const int64_t d = detail::wrap_dim(dim, first.size(), loc);
  std::vector<int64_t> out_sizes = first;
  out_sizes[d] = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto& s = impl_of(parts[i], loc).sizes;
    if (s.size() != first.size()) {
      throw ShapeError("Tensors must have same number of dimensions: got " + std::to_string(first.size()) + " and " +
                           std::to_string(s.size()),
                       loc);
    }
    for (size_t j = 0; j < s.size(); ++j) {
      if (static_cast<int64_t>(j) != d && s[j] != first[j]) {
        throw ShapeError("Sizes of tensors must match except in dimension " + std::to_string(d) + ". Expected size " +
                             std::to_string(first[j]) + " but got size " + std::to_string(s[j]) +
                             " for tensor number " + std::to_string(i) + " in the list.",
                         loc);
      }
    }
    out_sizes[d] += s[d];
  }
  Tensor out = detail::make_empty(out_sizes, dtype, device, loc);
  int64_t offset = 0;
  for (const auto& p : parts) {
    const auto& pi = impl_of(p, loc);
    Tensor slot = out.narrow(d, offset, pi.sizes[d], loc);
    detail::copy_impl(impl_of(slot, loc), pi, false, loc);
    offset += pi.sizes[d];
  }
  detail::autograd::record_cat(out, parts, d);
  return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim, SourceLoc loc) {
  if (tensors.empty()) throw ValueError("stack expects a non-empty TensorList", loc);
  const auto& s0 = impl_of(tensors[0], loc).sizes;
  for (size_t i = 1; i < tensors.size(); ++i) {
    const auto& si = impl_of(tensors[i], loc).sizes;
    if (si != s0) {
      throw ShapeError("stack expects each tensor to be equal size, but got " + detail::shape_str(s0) +
                           " at entry 0 and " + detail::shape_str(si) + " at entry " + std::to_string(i),
                       loc);
    }
  }
  const int64_t d = detail::wrap_dim(dim, s0.size() + 1, loc);
  std::vector<Tensor> expanded;
  for (const auto& t : tensors) expanded.push_back(t.unsqueeze(d, loc));
  return cat(expanded, d, loc);
}

namespace {
Tensor where_impl(const Tensor& cond, const Tensor& x, const Tensor& y, const Scalar* ys, const SourceLoc& loc) {
  const auto& ci = impl_of(cond, loc);
  if (ci.dtype != ScalarType::Bool) {
    throw DTypeMismatchError("where expected condition to be a boolean tensor, but got a tensor with dtype " +
                                 std::string(to_string(ci.dtype)),
                             loc);
  }
  detail::OpBuilder builder("where", loc);
  builder.add_input(cond, /*keep_dtype=*/true).add_input(x);
  if (ys)
    builder.add_scalar(*ys);
  else
    builder.add_input(y);
  detail::OpPlan p = builder.build();
  Tensor out = detail::make_empty(p.shape, p.dtype, p.device, loc);
  detail::kernels::where(impl_of(out, loc), impl_of(p.inputs[0], loc), impl_of(p.inputs[1], loc),
                         impl_of(p.inputs[2], loc));
  detail::autograd::record_where(out, p.operands[0], x, ys ? nullptr : &y);
  return out;
}
}  // namespace

Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y, SourceLoc loc) {
  return where_impl(cond, x, y, nullptr, loc);
}
Tensor where(const Tensor& cond, const Tensor& x, const Scalar& y, SourceLoc loc) {
  return where_impl(cond, x, Tensor(), &y, loc);
}

}  // namespace tt
