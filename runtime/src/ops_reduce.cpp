// Reductions and softmax: dims are normalised here, then the kernel sees a
// contiguous [outer, r, inner] block.
#include <algorithm>
#include <string>

#include "autograd/derivatives.h"
#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "kernels/kernels.h"
#include "op_builder.h"
#include "tensor_impl.h"
#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/ops.h"

namespace tt {

using detail::impl_of;
using detail::kernels::ReduceOp;

namespace {

// The reduction's layout: input arranged as [outer, r, inner] contiguous,
// and the output's sizes.
struct Layout {
  Tensor input;
  int64_t outer = 1, r = 1, inner = 1;
  std::vector<int64_t> out_sizes;
};

Layout plan(const Tensor& x, std::vector<int64_t> dims, bool keepdim, const SourceLoc& loc) {
  const auto& xi = impl_of(x, loc);
  const int64_t nd = static_cast<int64_t>(xi.sizes.size());
  std::vector<bool> reduced(std::max<int64_t>(nd, 1), false);
  if (dims.empty()) {
    std::fill(reduced.begin(), reduced.end(), true);
  } else {
    for (auto d : dims) {
      const int64_t w = detail::wrap_dim(d, nd, loc);
      if (reduced[w]) throw ValueError("dim " + std::to_string(w) + " appears multiple times in the list of dims", loc);
      reduced[w] = true;
    }
  }
  Layout l;
  std::vector<int64_t> kept_dims, red_dims;
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[d]) {
      red_dims.push_back(d);
      if (keepdim) l.out_sizes.push_back(1);
    } else {
      kept_dims.push_back(d);
      l.out_sizes.push_back(xi.sizes[d]);
    }
  }
  // One reduced dim of a contiguous tensor needs no copy: [before, d, after].
  if (red_dims.size() == 1 && xi.is_contiguous()) {
    const int64_t d = red_dims[0];
    for (int64_t i = 0; i < d; ++i) l.outer *= xi.sizes[i];
    l.r = xi.sizes[d];
    for (int64_t i = d + 1; i < nd; ++i) l.inner *= xi.sizes[i];
    l.input = x;
    return l;
  }
  std::vector<int64_t> perm = kept_dims;
  perm.insert(perm.end(), red_dims.begin(), red_dims.end());
  Tensor p = nd == 0 ? x : x.permute(perm, loc);
  l.input = detail::contiguous_internal(p, loc);
  for (auto d : kept_dims) l.outer *= xi.sizes[d];
  for (auto d : red_dims) l.r *= xi.sizes[d];
  return l;
}

Device reduction_device(const Tensor& x, const char* op, const SourceLoc& loc) {
  // Reductions pick their own dtypes; only the device rule is shared.
  return detail::OpBuilder(op, loc).add_input(x).no_broadcast().no_cast().build().device;
}

Tensor sum_compute(const Tensor& x, std::vector<int64_t> dims, bool keepdim, bool mean, const SourceLoc& loc) {
  const auto& xi = impl_of(x, loc);
  if (mean && !is_floating_type(xi.dtype)) {
    throw DTypeMismatchError(
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: " +
            std::string(to_string(xi.dtype)),
        loc);
  }
  const Device device = reduction_device(x, mean ? "mean" : "sum", loc);
  Layout l = plan(x, std::move(dims), keepdim, loc);
  const ScalarType out_dtype = is_integral_type(xi.dtype, true) ? ScalarType::Long : xi.dtype;
  Tensor out = detail::make_empty(l.out_sizes, out_dtype, device, loc);
  if (l.r == 0 || l.outer * l.inner == 0) {
    // Empty reductions: sum is 0, mean is NaN (0/0), as PyTorch.
    detail::kernels::fill(impl_of(out, loc), mean ? Scalar(std::numeric_limits<double>::quiet_NaN()) : Scalar(0));
    return out;
  }
  detail::kernels::reduce(mean ? ReduceOp::Mean : ReduceOp::Sum, impl_of(l.input, loc), l.outer, l.r, l.inner,
                          &impl_of(out, loc), nullptr);
  return out;
}

Tensor full_minmax(const Tensor& x, bool is_max, const SourceLoc& loc) {
  const auto& xi = impl_of(x, loc);
  const char* name = is_max ? "max" : "min";
  if (xi.numel == 0) {
    throw ValueError(std::string(name) +
                         "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                         "with the 'dim' argument.",
                     loc);
  }
  const Device device = reduction_device(x, name, loc);
  Layout l = plan(x, {}, false, loc);
  Tensor out = detail::make_empty({}, xi.dtype, device, loc);
  detail::kernels::reduce(is_max ? ReduceOp::Max : ReduceOp::Min, impl_of(l.input, loc), 1, l.r, 1, &impl_of(out, loc),
                          nullptr);
  return out;
}

std::tuple<Tensor, Tensor> dim_minmax(const Tensor& x, int64_t dim, bool keepdim, bool is_max, const SourceLoc& loc) {
  const auto& xi = impl_of(x, loc);
  const char* name = is_max ? "max" : "min";
  const int64_t d = detail::wrap_dim(dim, xi.sizes.size(), loc);
  if (!xi.sizes.empty() && xi.sizes[d] == 0) {
    throw ValueError(std::string(name) + "(): Expected reduction dim " + std::to_string(d) + " to have non-zero size.",
                     loc);
  }
  const Device device = reduction_device(x, name, loc);
  Layout l = plan(x, {d}, keepdim, loc);
  Tensor values = detail::make_empty(l.out_sizes, xi.dtype, device, loc);
  Tensor indices = detail::make_empty(l.out_sizes, ScalarType::Long, device, loc);
  if (l.outer * l.inner > 0) {
    detail::kernels::reduce(is_max ? ReduceOp::Max : ReduceOp::Min, impl_of(l.input, loc), l.outer, l.r, l.inner,
                            &impl_of(values, loc), &impl_of(indices, loc));
  }
  return {values, indices};
}

Tensor softmax_compute(const Tensor& x, int64_t dim, bool log, const SourceLoc& loc) {
  const auto& xi = impl_of(x, loc);
  if (!is_floating_type(xi.dtype)) {
    throw DTypeMismatchError(std::string("\"") + (log ? "log_softmax" : "softmax") +
                                 "_lastdim_kernel_impl\" not implemented for '" + std::string(to_string(xi.dtype)) +
                                 "'",
                             loc);
  }
  const int64_t d = detail::wrap_dim(dim, xi.sizes.size(), loc);
  const Device device = reduction_device(x, log ? "log_softmax" : "softmax", loc);
  Tensor in = detail::contiguous_internal(x, loc);
  Tensor out = detail::make_empty(xi.sizes, xi.dtype, device, loc);
  int64_t outer = 1, inner = 1;
  const int64_t r = xi.sizes.empty() ? 1 : xi.sizes[d];
  for (int64_t i = 0; i < d; ++i) outer *= xi.sizes[i];
  for (size_t i = d + 1; i < xi.sizes.size(); ++i) inner *= xi.sizes[i];
  if (xi.numel > 0) detail::kernels::softmax(log, impl_of(in, loc), impl_of(out, loc), outer, r, inner);
  return out;
}

// The differentiable entry points: compute without history (plan() permutes
// with views), then record.
Tensor sum_impl(const Tensor& x, std::vector<int64_t> dims, bool keepdim, bool mean, const SourceLoc& loc) {
  Tensor out;
  {
    AutoGradMode below_autograd(false);
    out = sum_compute(x, dims, keepdim, mean, loc);
  }
  const int64_t nd = static_cast<int64_t>(impl_of(x, loc).sizes.size());
  for (auto& d : dims) d = detail::wrap_dim(d, nd, loc);
  detail::autograd::record_sum(out, x, std::move(dims), keepdim, mean);
  return out;
}

Tensor softmax_impl(const Tensor& x, int64_t dim, bool log, const SourceLoc& loc) {
  Tensor out = softmax_compute(x, dim, log, loc);
  detail::autograd::record_softmax(out, x, detail::wrap_dim(dim, impl_of(x, loc).sizes.size(), loc), log);
  return out;
}

}  // namespace

Tensor sum(const Tensor& x, SourceLoc loc) { return sum_impl(x, {}, false, false, loc); }
Tensor sum(const Tensor& x, IntArrayRef dims, bool keepdim, SourceLoc loc) {
  return sum_impl(x, dims.vec(), keepdim, false, loc);
}
Tensor mean(const Tensor& x, SourceLoc loc) { return sum_impl(x, {}, false, true, loc); }
Tensor mean(const Tensor& x, IntArrayRef dims, bool keepdim, SourceLoc loc) {
  return sum_impl(x, dims.vec(), keepdim, true, loc);
}
Tensor max(const Tensor& x, SourceLoc loc) { return full_minmax(x, true, loc); }
Tensor min(const Tensor& x, SourceLoc loc) { return full_minmax(x, false, loc); }
std::tuple<Tensor, Tensor> max(const Tensor& x, int64_t dim, bool keepdim, SourceLoc loc) {
  return dim_minmax(x, dim, keepdim, true, loc);
}
std::tuple<Tensor, Tensor> min(const Tensor& x, int64_t dim, bool keepdim, SourceLoc loc) {
  return dim_minmax(x, dim, keepdim, false, loc);
}

Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim, SourceLoc loc) {
  const auto& xi = impl_of(x, loc);
  if (!dim) {
    if (xi.numel == 0)
      throw ValueError("argmax(): Expected reduction dim to be specified for input.numel() == 0.", loc);
    const Device device = reduction_device(x, "argmax", loc);
    Layout l = plan(x, {}, false, loc);
    std::vector<int64_t> out_sizes = keepdim ? std::vector<int64_t>(xi.sizes.size(), 1) : std::vector<int64_t>{};
    Tensor out = detail::make_empty(out_sizes, ScalarType::Long, device, loc);
    detail::kernels::reduce(ReduceOp::ArgMax, impl_of(l.input, loc), 1, l.r, 1, nullptr, &impl_of(out, loc));
    return out;
  }
  return std::get<1>(dim_minmax(x, *dim, keepdim, true, loc));
}

Tensor softmax(const Tensor& x, int64_t dim, SourceLoc loc) { return softmax_impl(x, dim, false, loc); }
Tensor log_softmax(const Tensor& x, int64_t dim, SourceLoc loc) { return softmax_impl(x, dim, true, loc); }

}  // namespace tt
