// Tensor handle basics: metadata, element access and views.
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <ostream>
#include <sstream>
#include <string>

#include "autograd/graph.h"
#include "conversion_marks.h"
#include "device_dtype_rules.h"
#include "dtype_dispatch.h"
#include "internal_ops.h"
#include "tensor_impl.h"
#include "tt/errors.h"
#include "tt/tensor.h"

namespace tt {
namespace detail {

TensorImpl::TensorImpl() = default;

TensorImpl::~TensorImpl() { note_released(*this); }

bool TensorImpl::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

TensorImpl& TensorAccess::get(const Tensor& t, const std::source_location& loc) {
  if (!t.impl_) throw ValueError("undefined Tensor: this operation needs a defined tensor", loc);
  note_read(*t.impl_);
  return *t.impl_;
}

namespace {
// "8.00 EiB", "512 bytes": a byte count as c10's out-of-memory messages say it.
std::string bytes_str(size_t n) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (n < 1024) return std::to_string(n) + " bytes";
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}
}  // namespace

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (auto s : sizes) n *= s;
  return n;
}

int64_t checked_numel(const std::vector<int64_t>& sizes, const std::source_location& loc) {
  // As c10::safe_multiplies_u64: a zero anywhere makes the product zero, but
  // the other sizes must still not overflow among themselves.
  uint64_t product = 1;
  bool overflow = false;
  for (auto s : sizes) {
    overflow |= __builtin_mul_overflow(product, static_cast<uint64_t>(std::max<int64_t>(s, 1)), &product);
  }
  if (overflow || product > static_cast<uint64_t>(INT64_MAX))
    throw ValueError("numel: integer multiplication overflow for sizes " + shape_str(sizes), loc);
  return numel_of(sizes);
}

std::vector<int64_t> checked_contiguous_strides(const std::vector<int64_t>& sizes, const std::source_location& loc) {
  std::vector<int64_t> strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    // The outermost size multiplies into no stride.
    if (i > 0 && __builtin_mul_overflow(s, std::max<int64_t>(sizes[i], 1), &s))
      throw ValueError("Stride calculation overflowed for sizes " + shape_str(sizes), loc);
  }
  return strides;
}

size_t checked_nbytes(const std::vector<int64_t>& sizes, int64_t numel, size_t element_size,
                      const std::source_location& loc) {
  size_t nbytes = 0;
  if (numel < 0 || __builtin_mul_overflow(static_cast<size_t>(numel), element_size, &nbytes) ||
      nbytes > static_cast<size_t>(INT64_MAX))
    throw ValueError("Storage size calculation overflowed with sizes=" + shape_str(sizes), loc);
  return nbytes;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const std::source_location& loc) {
  const int64_t n = std::max<int64_t>(ndim, 1);  // 0-dim tensors accept dims -1 and 0
  if (dim < -n || dim >= n) {
    throw ValueError("Dimension out of range (expected to be in range of [" + std::to_string(-n) + ", " +
                         std::to_string(n - 1) + "], but got " + std::to_string(dim) + ")",
                     loc);
  }
  return dim < 0 ? dim + n : dim;
}

Tensor make_empty(const std::vector<int64_t>& sizes, ScalarType dtype, Device device, const std::source_location& loc,
                  bool pinned) {
  for (auto s : sizes) {
    if (s < 0) {
      throw ValueError("Trying to create tensor with negative dimension " + std::to_string(s) + ": " + shape_str(sizes),
                       loc);
    }
  }
  device = resolve_device(device, loc);
  auto backend = get_backend(device.type());
  if (pinned && !device.is_cpu()) throw ValueError("only dense CPU tensors can be pinned", loc);
  std::shared_ptr<Backend> pin_backend;
  if (pinned) {
    pin_backend = get_backend(DeviceType::CUDA);
    if (!pin_backend) throw CudaUnavailableError("CUDA is not available", loc);
  }
  auto storage = std::make_shared<Storage>();
  const int64_t n = checked_numel(sizes, loc);
  std::vector<int64_t> strides = checked_contiguous_strides(sizes, loc);
  storage->nbytes = checked_nbytes(sizes, n, element_size(dtype), loc);
  storage->device = device;
  storage->pinned = pinned;
  try {
    if (pinned) {
      storage->data = pin_backend->allocate_pinned(storage->nbytes);
      storage->backend = pin_backend;
      storage->deleter = [b = pin_backend.get(), nb = storage->nbytes](void* p) { b->deallocate_pinned(p, nb); };
    } else {
      storage->data = backend->allocate(storage->nbytes, device.is_cpu() ? 0 : device.index());
      storage->backend = backend;
      storage->deleter = [b = backend.get(), nb = storage->nbytes, idx = device.index()](void* p) {
        b->deallocate(p, nb, idx);
      };
    }
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(std::string(device.is_cpu() ? "CPU" : "CUDA") + " out of memory: tried to allocate " +
                               bytes_str(storage->nbytes) + " for a tensor of sizes " + shape_str(sizes) + " (" +
                               device.str() + ")",
                           loc);
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = sizes;
  impl->strides = std::move(strides);
  impl->numel = n;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor make_view(const TensorImpl& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage;
  impl->numel = numel_of(sizes);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = base.dtype;
  // requires_grad comes from autograd recording the view, not from the base.
  return Tensor(std::move(impl));
}

void mark_conversion(const Tensor& t, const std::source_location& where, const char* op, ScalarType from_dtype,
                     Device from_device) {
  const TensorImpl& ti = *TensorAccess::shared(t);
  mark_conversion(ti, ConversionSite{where, op, from_dtype, ti.dtype, from_device, ti.device()});
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::ostringstream os;
  os << IntArrayRef(s);
  return os.str();
}

}  // namespace detail

using detail::impl_of;

Tensor::Tensor(std::shared_ptr<detail::TensorImpl> impl) noexcept : impl_(std::move(impl)) {}

int64_t Tensor::dim(SourceLoc loc) const { return static_cast<int64_t>(impl_of(*this, loc).sizes.size()); }
IntArrayRef Tensor::sizes(SourceLoc loc) const { return IntArrayRef(impl_of(*this, loc).sizes); }
IntArrayRef Tensor::strides(SourceLoc loc) const { return IntArrayRef(impl_of(*this, loc).strides); }
int64_t Tensor::size(int64_t d, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.empty())
    throw ValueError("dimension specified as " + std::to_string(d) + " but tensor has no dimensions", loc);
  return ti.sizes[detail::wrap_dim(d, ti.sizes.size(), loc)];
}
int64_t Tensor::stride(int64_t d, SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.sizes.empty())
    throw ValueError("dimension specified as " + std::to_string(d) + " but tensor has no dimensions", loc);
  return ti.strides[detail::wrap_dim(d, ti.sizes.size(), loc)];
}
int64_t Tensor::numel(SourceLoc loc) const { return impl_of(*this, loc).numel; }
int64_t Tensor::storage_offset(SourceLoc loc) const { return impl_of(*this, loc).offset; }
ScalarType Tensor::dtype(SourceLoc loc) const { return impl_of(*this, loc).dtype; }
Device Tensor::device(SourceLoc loc) const { return impl_of(*this, loc).device(); }
TensorOptions Tensor::options(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  return TensorOptions().dtype(ti.dtype).device(ti.device()).requires_grad(ti.requires_grad);
}
bool Tensor::is_contiguous(SourceLoc loc) const { return impl_of(*this, loc).is_contiguous(); }
bool Tensor::is_pinned(SourceLoc loc) const { return impl_of(*this, loc).storage->pinned; }
size_t Tensor::element_size(SourceLoc loc) const { return tt::element_size(impl_of(*this, loc).dtype); }
size_t Tensor::nbytes(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  return static_cast<size_t>(ti.numel) * tt::element_size(ti.dtype);
}
bool Tensor::requires_grad(SourceLoc loc) const { return impl_of(*this, loc).requires_grad; }
Tensor& Tensor::requires_grad_(bool r, SourceLoc loc) const {
  auto& ti = impl_of(*this, loc);
  if (r && !is_floating_type(ti.dtype))
    throw ValueError("Only Tensors of floating point and complex dtype can require gradients", loc);
  const auto* m = detail::autograd::meta_if_any(ti);
  if (!r && m && m->grad_fn) {
    throw ValueError(
        "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
        "subgraph that doesn't require differentiation use var_no_grad = var.detach().",
        loc);
  }
  ti.requires_grad = r;
  return const_cast<Tensor&>(*this);
}

// --- element access -----------------------------------------------------------

Scalar Tensor::item(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (ti.numel != 1)
    throw ValueError("a Tensor with " + std::to_string(ti.numel) + " elements cannot be converted to Scalar", loc);
  Tensor host = detail::to_device_internal(*this, Device(kCPU), loc);
  const auto& hi = impl_of(host, loc);
  return detail::visit_dtype(hi.dtype, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    return Scalar(*reinterpret_cast<const T*>(hi.data()));
  });
}

namespace {
template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else
    return "int64_t";
}
}  // namespace

template <class T>
T Tensor::item(SourceLoc loc) const {
  const Scalar s = item(loc);
  if constexpr (std::is_same_v<T, bool>) {
    return s.to_bool();
  } else if constexpr (std::is_integral_v<T>) {
    // c10::checked_convert: an integral target must hold the value.
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    const auto overflow = [&] {
      return ValueError(std::string("value cannot be converted to type ") + type_name<T>() + " without overflow", loc);
    };
    if (s.is_floating_point()) {
      const double d = s.to_double();
      if (!(d >= lo && d < hi)) throw overflow();
      return static_cast<T>(d);
    }
    const int64_t v = s.to_long();
    if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        v > static_cast<int64_t>(std::numeric_limits<T>::max()))
      throw overflow();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(s.to_double());
  }
}

template <class T>
T* Tensor::data_ptr(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  constexpr ScalarType want = detail::scalar_type_of<T>();
  if (ti.dtype != want) {
    throw DTypeMismatchError(std::string("expected scalar type ") + std::string(to_string(want)) + " but found " +
                                 std::string(to_string(ti.dtype)),
                             loc);
  }
  return reinterpret_cast<T*>(ti.data());
}

void* Tensor::data_ptr(SourceLoc loc) const { return impl_of(*this, loc).data(); }

#define TT_INSTANTIATE_ACCESS(T)               \
  template T Tensor::item<T>(SourceLoc) const; \
  template T* Tensor::data_ptr<T>(SourceLoc) const;
TT_INSTANTIATE_ACCESS(bool)
TT_INSTANTIATE_ACCESS(uint8_t)
TT_INSTANTIATE_ACCESS(int8_t)
TT_INSTANTIATE_ACCESS(int16_t)
TT_INSTANTIATE_ACCESS(int32_t)
TT_INSTANTIATE_ACCESS(int64_t)
TT_INSTANTIATE_ACCESS(float)
TT_INSTANTIATE_ACCESS(double)
TT_INSTANTIATE_ACCESS(Half)
TT_INSTANTIATE_ACCESS(BFloat16)
#undef TT_INSTANTIATE_ACCESS

}  // namespace tt
