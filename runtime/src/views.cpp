// Views: new sizes/strides/offset over the same storage (at::native's
// TensorShape.cpp rules and messages).
#include <optional>
#include <string>

#include "autograd/derivatives.h"
#include "internal_ops.h"
#include "tensor_impl.h"
#include "tt/errors.h"
#include "tt/tensor.h"

namespace tt {

using detail::impl_of;
using detail::make_view;
using detail::shape_str;
using detail::wrap_dim;
namespace autograd = detail::autograd;

namespace {

// at::infer_size: resolves one -1 against numel.
std::vector<int64_t> infer_size(IntArrayRef shape, int64_t numel, const SourceLoc& loc) {
  std::vector<int64_t> res = shape.vec();
  int64_t newsize = 1;
  uint64_t guard = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < res.size(); ++i) {
    if (res[i] == -1) {
      if (infer) throw ShapeError("only one dimension can be inferred", loc);
      infer = i;
    } else if (res[i] >= 0) {
      // Zeros aside, the sizes' product must fit (c10::safe_multiplies_u64):
      // the view's strides are made of it, even when numel is 0.
      if (__builtin_mul_overflow(guard, static_cast<uint64_t>(std::max<int64_t>(res[i], 1)), &guard) ||
          guard > static_cast<uint64_t>(INT64_MAX))
        throw ValueError("numel: integer multiplication overflow for shape " + detail::shape_str(res), loc);
      newsize *= res[i];
    } else {
      throw ShapeError("invalid shape dimension " + std::to_string(res[i]), loc);
    }
  }
  if (numel == newsize || (infer && newsize > 0 && numel % newsize == 0)) {
    if (infer) {
      // at::infer_size_impl: with a zero among the given sizes (so 0
      // elements), -1 could be anything, and LibTorch refuses it.
      if (newsize == 0)
        throw ShapeError("cannot reshape tensor of 0 elements into shape " + shape_str(shape.vec()) +
                             " because the unspecified dimension size -1 can be any value and is ambiguous",
                         loc);
      res[*infer] = numel / newsize;
    }
    return res;
  }
  throw ShapeError("shape '" + shape_str(shape.vec()) + "' is invalid for input of size " + std::to_string(numel), loc);
}

// at::detail::computeStride: strides for a view of (oldshape, oldstride) as
// newshape, or nullopt when some dimension would span two memory chunks.
std::optional<std::vector<int64_t>> compute_stride(const std::vector<int64_t>& oldshape,
                                                   const std::vector<int64_t>& oldstride,
                                                   const std::vector<int64_t>& newshape) {
  std::vector<int64_t> newstride(newshape.size());
  if (oldshape.empty()) {
    std::fill(newstride.begin(), newstride.end(), 1);
    return newstride;
  }
  const int64_t numel = detail::numel_of(oldshape);
  if (numel == 0) return detail::contiguous_strides(newshape);
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 || (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

}  // namespace

Tensor Tensor::view(IntArrayRef sizes, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  auto shape = infer_size(sizes, ti.numel, loc);
  auto strides = compute_stride(ti.sizes, ti.strides, shape);
  if (!strides) {
    throw ShapeError(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.",
        loc);
  }
  Tensor out = make_view(ti, std::move(shape), std::move(*strides), ti.offset);
  autograd::record_reshape_view(out, *this, "ViewBackward0");
  return out;
}

Tensor Tensor::reshape(IntArrayRef sizes, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  auto shape = infer_size(sizes, ti.numel, loc);
  Tensor out;
  if (auto strides = compute_stride(ti.sizes, ti.strides, shape)) {
    out = make_view(ti, std::move(shape), std::move(*strides), ti.offset);
  } else {
    Tensor c = detail::contiguous_internal(*this, loc);
    const auto& ci = impl_of(c, loc);
    out = make_view(ci, shape, detail::contiguous_strides(shape), ci.offset);
  }
  autograd::record_reshape_view(out, *this, "ReshapeAliasBackward0");
  return out;
}

Tensor Tensor::transpose(int64_t d0, int64_t d1, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  const int64_t n = static_cast<int64_t>(ti.sizes.size());
  d0 = wrap_dim(d0, n, loc);
  d1 = wrap_dim(d1, n, loc);
  auto sizes = ti.sizes;
  auto strides = ti.strides;
  if (n > 0) {
    std::swap(sizes[d0], sizes[d1]);
    std::swap(strides[d0], strides[d1]);
  }
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), ti.offset);
  autograd::record_transpose(out, *this, d0, d1);
  return out;
}

Tensor Tensor::t(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.size() > 2) {
    throw ValueError("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(ti.sizes.size()) + "D",
                     loc);
  }
  if (ti.sizes.size() < 2) {
    Tensor out = make_view(ti, ti.sizes, ti.strides, ti.offset);
    autograd::record_reshape_view(out, *this, "TBackward0");
    return out;
  }
  return transpose(0, 1, loc);
}

Tensor Tensor::permute(IntArrayRef dims, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  const int64_t n = static_cast<int64_t>(ti.sizes.size());
  if (static_cast<int64_t>(dims.size()) != n) {
    throw ValueError(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
        "desired ordering of dimensions i.e. input.dim() = " +
            std::to_string(n) + " is not equal to len(dims) = " + std::to_string(dims.size()),
        loc);
  }
  std::vector<int64_t> sizes(n), strides(n);
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = wrap_dim(dims[i], n, loc);
    if (seen[d]) throw ValueError("permute(): duplicate dims are not allowed.", loc);
    seen[d] = true;
    sizes[i] = ti.sizes[d];
    strides[i] = ti.strides[d];
  }
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), ti.offset);
  std::vector<int64_t> wrapped(n);
  for (int64_t i = 0; i < n; ++i) wrapped[i] = wrap_dim(dims[i], n, loc);
  autograd::record_permute(out, *this, std::move(wrapped));
  return out;
}

Tensor Tensor::slice(int64_t dim, int64_t start, int64_t end, int64_t step, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.empty()) throw ValueError("slice() cannot be applied to a 0-dim tensor.", loc);
  dim = wrap_dim(dim, ti.sizes.size(), loc);
  if (step <= 0) throw ValueError("slice step must be positive", loc);
  const int64_t size = ti.sizes[dim];
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  auto sizes = ti.sizes;
  auto strides = ti.strides;
  sizes[dim] = (end - start + step - 1) / step;
  const int64_t offset = ti.offset + start * strides[dim];
  strides[dim] *= step;
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), offset);
  autograd::record_slice(out, *this, dim, start, end, step);
  return out;
}

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.empty()) throw ValueError("narrow() cannot be applied to a 0-dim tensor.", loc);
  dim = wrap_dim(dim, ti.sizes.size(), loc);
  const int64_t size = ti.sizes[dim];
  if (start < 0) start += size;
  if (length < 0) throw ValueError("narrow(): length must be non-negative.", loc);
  if (start < 0 || start + length > size) {
    throw ValueError("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                         ") exceeds dimension size (" + std::to_string(size) + ").",
                     loc);
  }
  return slice(dim, start, start + length, 1, loc);
}

Tensor Tensor::select(int64_t dim, int64_t index, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.empty()) throw ValueError("select() cannot be applied to a 0-dim tensor.", loc);
  dim = wrap_dim(dim, ti.sizes.size(), loc);
  const int64_t size = ti.sizes[dim];
  if (index < -size || index >= size) {
    throw ValueError("select(): index " + std::to_string(index) + " out of range for tensor of size " +
                         shape_str(ti.sizes) + " at dimension " + std::to_string(dim),
                     loc);
  }
  if (index < 0) index += size;
  auto sizes = ti.sizes;
  auto strides = ti.strides;
  const int64_t offset = ti.offset + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), offset);
  autograd::record_select(out, *this, dim, index);
  return out;
}

Tensor Tensor::squeeze(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  std::vector<int64_t> sizes, strides;
  for (size_t i = 0; i < ti.sizes.size(); ++i) {
    if (ti.sizes[i] == 1) continue;
    sizes.push_back(ti.sizes[i]);
    strides.push_back(ti.strides[i]);
  }
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), ti.offset);
  autograd::record_reshape_view(out, *this, "SqueezeBackward0");
  return out;
}

Tensor Tensor::squeeze(int64_t dim, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  dim = wrap_dim(dim, ti.sizes.size(), loc);
  auto sizes = ti.sizes;
  auto strides = ti.strides;
  if (!sizes.empty() && sizes[dim] == 1) {
    sizes.erase(sizes.begin() + dim);
    strides.erase(strides.begin() + dim);
  }
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), ti.offset);
  autograd::record_reshape_view(out, *this, "SqueezeBackward1");
  return out;
}

Tensor Tensor::unsqueeze(int64_t dim, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  const int64_t n = static_cast<int64_t>(ti.sizes.size());
  dim = wrap_dim(dim, n + 1, loc);
  auto sizes = ti.sizes;
  auto strides = ti.strides;
  const int64_t stride = dim >= n ? 1 : sizes[dim] * strides[dim];
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  Tensor out = make_view(ti, std::move(sizes), std::move(strides), ti.offset);
  autograd::record_reshape_view(out, *this, "UnsqueezeBackward0");
  return out;
}

Tensor Tensor::expand(IntArrayRef sizes, SourceLoc loc) const {
  impl_of(*this, loc);
  Tensor out = detail::expand_internal(*this, sizes.vec(), loc);
  autograd::record_expand(out, *this);
  return out;
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  const int64_t n = static_cast<int64_t>(ti.sizes.size());
  if (n == 0) return reshape({1}, loc);
  start_dim = wrap_dim(start_dim, n, loc);
  end_dim = wrap_dim(end_dim, n, loc);
  if (start_dim > end_dim) throw ValueError("flatten() has invalid args: start_dim cannot come after end_dim", loc);
  if (start_dim == end_dim) {
    Tensor out = make_view(ti, ti.sizes, ti.strides, ti.offset);
    autograd::record_reshape_view(out, *this, "ViewBackward0");
    return out;
  }
  std::vector<int64_t> shape(ti.sizes.begin(), ti.sizes.begin() + start_dim);
  int64_t m = 1;
  for (int64_t i = start_dim; i <= end_dim; ++i) m *= ti.sizes[i];
  shape.push_back(m);
  shape.insert(shape.end(), ti.sizes.begin() + end_dim + 1, ti.sizes.end());
  return reshape(shape, loc);
}

namespace detail {

Tensor expand_internal(const Tensor& t, const std::vector<int64_t>& target, const std::source_location& loc) {
  const auto& ti = impl_of(t, loc);
  const int64_t ndim = static_cast<int64_t>(ti.sizes.size());
  const int64_t tdim = static_cast<int64_t>(target.size());
  if (tdim < ndim) {
    throw ShapeError("expand(torch.FloatTensor{" + shape_str(ti.sizes) + "}, size=" + shape_str(target) +
                         "): the number of sizes provided (" + std::to_string(tdim) +
                         ") must be greater or equal to the number of dimensions in the tensor (" +
                         std::to_string(ndim) + ")",
                     loc);
  }
  std::vector<int64_t> sizes(tdim), strides(tdim);
  for (int64_t i = tdim - 1; i >= 0; --i) {
    const int64_t offset = ndim - tdim + i;  // index into the tensor's dims
    const int64_t size = offset >= 0 ? ti.sizes[offset] : 1;
    const int64_t stride = offset >= 0 ? ti.strides[offset] : (i + 1 < tdim ? sizes[i + 1] * strides[i + 1] : 1);
    int64_t want = target[i];
    if (want == -1) {
      if (offset < 0) {
        throw ShapeError("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension " +
                             std::to_string(i),
                         loc);
      }
      want = size;
    }
    if (size == want) {
      sizes[i] = size;
      strides[i] = stride;
    } else if (size == 1) {
      sizes[i] = want;
      strides[i] = 0;
    } else {
      throw ShapeError("The expanded size of the tensor (" + std::to_string(want) + ") must match the existing size (" +
                           std::to_string(size) + ") at non-singleton dimension " + std::to_string(i) +
                           ".  Target sizes: " + shape_str(target) + ".  Tensor sizes: " + shape_str(ti.sizes),
                       loc);
    }
  }
  return make_view(ti, std::move(sizes), std::move(strides), ti.offset);
}

std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                     const std::source_location& loc) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw ShapeError("The size of tensor a (" + std::to_string(da) + ") must match the size of tensor b (" +
                           std::to_string(db) + ") at non-singleton dimension " + std::to_string(i),
                       loc);
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace detail
}  // namespace tt
