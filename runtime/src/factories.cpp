// Factories: option checks at the caller's site, then allocation and a fill.
#include <cmath>
#include <string>

#include "device_dtype_rules.h"
#include "dtype_dispatch.h"
#include "internal_ops.h"
#include "kernels/dispatch_stub.h"
#include "kernels/kernels.h"
#include "tensor_impl.h"
#include "tt/backend.h"
#include "tt/errors.h"
#include "tt/factories.h"

namespace tt {

using detail::impl_of;

namespace {

// Where a factory's fill can run: nowhere (empty: nothing to write), only
// through kernels (runs wherever device kernels exist), or by writing host
// memory.
enum class FillKind { kNothing, kKernels, kHost };

// Checks options (device availability, requires_grad dtype, pinning) and
// allocates; `fill` writes the values in host-accessible memory, or, when
// it only calls kernels, wherever device kernels exist. A tensor with
// nothing to fill is allocated on its device directly: staging it on the
// host would need host memory as large as the tensor, and would report a
// device's out-of-memory as the cpu's.
template <class F>
Tensor create(const std::vector<int64_t>& sizes, ScalarType dtype, const TensorOptions& o, const SourceLoc& loc,
              const F& fill, FillKind kind = FillKind::kHost) {
  if (o.requires_grad() && !is_floating_type(dtype))
    throw ValueError("Only Tensors of floating point and complex dtype can require gradients", loc);
  const Device device = detail::resolve_device(o.device(), loc);
  if (o.pinned_memory() && !device.is_cpu()) throw ValueError("Only dense CPU tensors can be pinned", loc);
  auto backend = get_backend(device.type());
  // Allocated on `device` itself, or staged on the cpu and copied there.
  const bool direct = device.is_cpu() || backend->host_accessible() || kind == FillKind::kNothing ||
                      (kind == FillKind::kKernels && detail::kernels::has_device_kernels(device));
  Tensor t = detail::make_empty(sizes, dtype, direct ? device : Device(kCPU), loc, o.pinned_memory());
  fill(impl_of(t, loc));
  if (!direct) t = detail::to_device_internal(t, device, loc);
  impl_of(t, loc).requires_grad = o.requires_grad();
  return t;
}

void no_fill(const detail::TensorImpl&) {}

}  // namespace

Tensor empty(IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  return create(sizes.vec(), o.dtype(), o, loc, no_fill, FillKind::kNothing);
}
Tensor zeros(IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  return create(sizes.vec(), o.dtype(), o, loc, [](const auto& t) { detail::kernels::fill(t, 0); }, FillKind::kKernels);
}
Tensor ones(IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  return create(sizes.vec(), o.dtype(), o, loc, [](const auto& t) { detail::kernels::fill(t, 1); }, FillKind::kKernels);
}
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions o, SourceLoc loc) {
  const ScalarType dtype = o.has_dtype() ? o.dtype() : value.is_floating_point() ? default_dtype() : value.type();
  return create(
      sizes.vec(), dtype, o, loc, [&](const auto& t) { detail::kernels::fill(t, value); }, FillKind::kKernels);
}
Tensor empty_like(const Tensor& t, SourceLoc loc) {
  const auto& ti = impl_of(t, loc);
  return empty(ti.sizes, TensorOptions().dtype(ti.dtype).device(ti.device()), loc);
}
Tensor zeros_like(const Tensor& t, SourceLoc loc) {
  const auto& ti = impl_of(t, loc);
  return zeros(ti.sizes, TensorOptions().dtype(ti.dtype).device(ti.device()), loc);
}
Tensor ones_like(const Tensor& t, SourceLoc loc) {
  const auto& ti = impl_of(t, loc);
  return ones(ti.sizes, TensorOptions().dtype(ti.dtype).device(ti.device()), loc);
}

Tensor arange(const Scalar& end, TensorOptions o, SourceLoc loc) { return arange(0, end, 1, o, loc); }
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions o, SourceLoc loc) {
  return arange(start, end, 1, o, loc);
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions o, SourceLoc loc) {
  const bool floating = start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  const ScalarType dtype = o.has_dtype() ? o.dtype() : floating ? default_dtype() : ScalarType::Long;
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  if (st == 0) throw ValueError("step must be nonzero", loc);
  if (!std::isfinite(s) || !std::isfinite(e))
    throw ValueError("unsupported range: " + std::to_string(s) + " -> " + std::to_string(e), loc);
  if ((st > 0 && e < s) || (st < 0 && e > s))
    throw ValueError("upper bound and larger bound inconsistent with step sign", loc);
  int64_t n;
  if (floating) {
    n = static_cast<int64_t>(std::ceil((e - s) / st));
  } else {
    const int64_t is = start.to_long(), ie = end.to_long(), ist = step.to_long();
    n = ist > 0 ? (ie - is + ist - 1) / ist : (is - ie + (-ist) - 1) / (-ist);
  }
  return create(
      {n}, dtype, o, loc, [&](const auto& t) { detail::kernels::arange(t, s, st, start.to_long(), step.to_long()); },
      FillKind::kKernels);
}

namespace {
void require_floating(ScalarType t, const char* what, const SourceLoc& loc) {
  if (!is_floating_type(t))
    throw DTypeMismatchError(std::string("\"") + what + "\" not implemented for '" + std::string(to_string(t)) + "'",
                             loc);
}
}  // namespace

Tensor rand(IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  require_floating(o.dtype(), "check_uniform_bounds", loc);
  return create(sizes.vec(), o.dtype(), o, loc, [](const auto& t) { detail::kernels::uniform(t); }, FillKind::kKernels);
}
Tensor randn(IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  require_floating(o.dtype(), "normal_kernel_cpu", loc);
  return create(sizes.vec(), o.dtype(), o, loc, [](const auto& t) { detail::kernels::normal(t); }, FillKind::kKernels);
}
void manual_seed(uint64_t seed) { detail::kernels::manual_seed(seed); }

namespace detail {
Tensor tensor_from_values(const std::vector<double>& values, const std::vector<int64_t>* ints,
                          std::vector<int64_t> sizes, ScalarType literal, TensorOptions o, SourceLoc loc) {
  if (sizes.size() == 1 && sizes[0] == -1)
    throw ShapeError("tensor(): nested lists must all have the same length", loc);
  const ScalarType dtype = o.has_dtype() ? o.dtype() : literal;
  const bool exact_ints = ints && is_integral_type(literal, false);
  return create(sizes, dtype, o, loc, [&](const TensorImpl& t) {
    visit_dtype(t.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* out = reinterpret_cast<T*>(t.data());
      for (size_t i = 0; i < values.size(); ++i) out[i] = exact_ints ? convert<T>((*ints)[i]) : convert<T>(values[i]);
    });
  });
}
}  // namespace detail

namespace {
Tensor wrap_blob(void* data, IntArrayRef sizes, std::vector<int64_t> strides, std::function<void(void*)> deleter,
                 const TensorOptions& o, const SourceLoc& loc) {
  for (auto s : sizes)
    if (s < 0)
      throw ValueError("Trying to create tensor with negative dimension " + std::to_string(s) + ": " +
                           detail::shape_str(sizes.vec()),
                       loc);
  if (strides.size() != sizes.size()) throw ValueError("from_blob: sizes and strides must have the same length", loc);
  const Device device = detail::resolve_device(o.device(), loc);
  auto storage = std::make_shared<detail::Storage>();
  storage->data = data;
  storage->device = device;
  storage->deleter = std::move(deleter);
  auto impl = std::make_shared<detail::TensorImpl>();
  impl->sizes = sizes.vec();
  impl->strides = std::move(strides);
  impl->numel = detail::checked_numel(impl->sizes, loc);
  // The elements the view reaches, as c10::computeStorageNbytes, every step
  // overflow-checked.
  int64_t extent = impl->numel ? 1 : 0;
  for (size_t i = 0; i < impl->sizes.size() && impl->numel; ++i) {
    int64_t span = 0;
    if (impl->strides[i] < 0) throw ValueError("from_blob: negative strides are not supported", loc);
    if (__builtin_mul_overflow(impl->sizes[i] - 1, impl->strides[i], &span) ||
        __builtin_add_overflow(extent, span, &extent))
      throw ValueError("Storage size calculation overflowed with sizes=" + detail::shape_str(impl->sizes), loc);
  }
  storage->nbytes = detail::checked_nbytes(impl->sizes, extent, element_size(o.dtype()), loc);
  impl->storage = std::move(storage);
  impl->dtype = o.dtype();
  if (o.requires_grad()) {
    if (!is_floating_type(o.dtype()))
      throw ValueError("Only Tensors of floating point and complex dtype can require gradients", loc);
    impl->requires_grad = true;
  }
  return Tensor(std::move(impl));
}
}  // namespace

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions o, SourceLoc loc) {
  return wrap_blob(data, sizes, detail::checked_contiguous_strides(sizes.vec(), loc), nullptr, o, loc);
}
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions o, SourceLoc loc) {
  return wrap_blob(data, sizes, strides.vec(), nullptr, o, loc);
}
Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter, TensorOptions o, SourceLoc loc) {
  return wrap_blob(data, sizes, detail::checked_contiguous_strides(sizes.vec(), loc), std::move(deleter), o, loc);
}

}  // namespace tt
