// Out-of-place conversions (to, half, cuda, ...), copies and fills.
#include <optional>

#include "autograd/derivatives.h"
#include "autograd/graph.h"
#include "deferred_checks.h"
#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "kernels/dispatch_stub.h"
#include "kernels/kernels.h"
#include "tensor_impl.h"
#include "tt/backend.h"
#include "tt/errors.h"
#include "tt/tensor.h"

namespace tt {

using detail::impl_of;

namespace detail {

bool host_can_read(Device d) {
  if (d.is_cpu()) return true;
  auto b = get_backend(d.type());
  return b && b->host_accessible();
}

namespace {
// dst_host, src_host: host_can_read of each side, worked out once by copy_impl.
void copy_between(const TensorImpl& dst, const TensorImpl& src, bool dst_host, bool src_host, bool non_blocking,
                  const std::source_location& loc) {
  const Device dd = dst.device(), sd = src.device();
  if (dst_host && src_host) {
    kernels::copy(dst, src);
    return;
  }
  const bool src_kernels = kernels::has_device_kernels(sd);
  const bool dst_kernels = kernels::has_device_kernels(dd);
  // Both on a device with kernels (cuda/ on a GPU): they convert in place,
  // across that type's devices too.
  if (src_kernels && dd.type() == sd.type()) {
    kernels::copy(dst, src);
    return;
  }
  // Same layout and dtype on both sides: the backend moves the bytes
  // directly, which is what lets a pinned source go asynchronously.
  if (dst.dtype == src.dtype && dst.is_contiguous() && src.is_contiguous() && dst.sizes == src.sizes) {
    const Device dev = dst_host ? sd : dd;
    get_backend(dev.type())
        ->copy(dst.data(), dd, src.data(), sd, static_cast<size_t>(dst.numel) * element_size(dst.dtype), non_blocking);
    return;
  }
  // Otherwise convert where kernels can: on the device before a download,
  // on the device after an upload, so only one dtype's bytes cross the bus.
  if (src_kernels) {
    const TensorImpl* dev_src = &src;
    Tensor converted;
    if (src.dtype != dst.dtype || !src.is_contiguous() || src.sizes != dst.sizes) {
      converted = make_empty(dst.sizes, dst.dtype, sd, loc);
      kernels::copy(*TensorAccess::shared(converted), src);
      dev_src = TensorAccess::shared(converted).get();
    }
    const size_t nbytes = static_cast<size_t>(dst.numel) * element_size(dst.dtype);
    if (dst.is_contiguous()) {
      get_backend(sd.type())->copy(dst.data(), dd, dev_src->data(), sd, nbytes, non_blocking);
      return;
    }
    Tensor landed = make_empty(dst.sizes, dst.dtype, Device(kCPU), loc);
    get_backend(sd.type())->copy(TensorAccess::shared(landed)->data(), Device(kCPU), dev_src->data(), sd, nbytes,
                                 false);
    kernels::copy(dst, *TensorAccess::shared(landed));
    return;
  }
  if (dst_kernels) {
    const TensorImpl* host_src = &src;
    Tensor laid_out;
    if (!src.is_contiguous() || src.sizes != dst.sizes) {
      laid_out = make_empty(dst.sizes, src.dtype, Device(kCPU), loc);
      kernels::copy(*TensorAccess::shared(laid_out), src);
      host_src = TensorAccess::shared(laid_out).get();
    }
    Tensor uploaded = make_empty(dst.sizes, src.dtype, dd, loc);
    const auto& ui = *TensorAccess::shared(uploaded);
    get_backend(dd.type())->copy(ui.data(), dd, host_src->data(), Device(kCPU),
                                 static_cast<size_t>(dst.numel) * element_size(src.dtype), non_blocking);
    kernels::copy(dst, ui);
    return;
  }
  // A device the host cannot read and no kernels for it: convert on the
  // host, then let the backend move contiguous bytes.
  const TensorImpl* host_src = &src;
  Tensor src_staged;
  if (!src_host) {
    if (!src.is_contiguous())
      throw Error("copy from a non-contiguous " + sd.str() + " tensor is not supported yet", loc);
    src_staged = make_empty(src.sizes, src.dtype, Device(kCPU), loc);
    const auto& si = *TensorAccess::shared(src_staged);
    get_backend(sd.type())->copy(si.data(), Device(kCPU), src.data(), sd, si.storage->nbytes, non_blocking);
    host_src = &si;
  }
  if (dst_host) {
    kernels::copy(dst, *host_src);
    return;
  }
  if (!dst.is_contiguous()) throw Error("copy into a non-contiguous " + dd.str() + " tensor is not supported yet", loc);
  Tensor staged = make_empty(dst.sizes, dst.dtype, Device(kCPU), loc);
  const auto& st = *TensorAccess::shared(staged);
  kernels::copy(st, *host_src);
  get_backend(dd.type())->copy(dst.data(), dd, st.data(), Device(kCPU), st.storage->nbytes, non_blocking);
}

}  // namespace

void copy_impl(const TensorImpl& dst, const TensorImpl& src, bool non_blocking, const std::source_location& loc) {
  if (dst.numel == 0) return;
  // A blocking copy between the host and a device it cannot read waits for
  // that device: the checks deferred to it have their values now.
  const bool dst_host = host_can_read(dst.device()), src_host = host_can_read(src.device());
  const bool waits = !non_blocking && dst_host != src_host;
  const unsigned long ticket = waits ? deferred_check_ticket() : 0;
  copy_between(dst, src, dst_host, src_host, non_blocking, loc);
  if (waits) run_deferred_checks(dst_host ? src.device() : dst.device(), ticket);
}

Tensor to_device_internal(const Tensor& t, Device device, const std::source_location& loc) {
  const auto& ti = impl_of(t, loc);
  if (ti.device() == device) return t;
  Tensor out = make_empty(ti.sizes, ti.dtype, device, loc);
  copy_impl(*TensorAccess::shared(out), ti, false, loc);
  return out;
}

Tensor to_dtype_internal(const Tensor& t, ScalarType dtype, const std::source_location& loc) {
  const auto& ti = impl_of(t, loc);
  if (ti.dtype == dtype) return t;
  Tensor out = make_empty(ti.sizes, dtype, ti.device(), loc);
  copy_impl(*TensorAccess::shared(out), ti, false, loc);
  return out;
}

Tensor contiguous_internal(const Tensor& t, const std::source_location& loc) {
  const auto& ti = impl_of(t, loc);
  if (ti.is_contiguous()) return t;
  Tensor out = make_empty(ti.sizes, ti.dtype, ti.device(), loc);
  copy_impl(*TensorAccess::shared(out), ti, false, loc);
  return out;
}

Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype) {
  Tensor t = make_empty({}, dtype, Device(kCPU), std::source_location::current());
  kernels::fill(*TensorAccess::shared(t), s);
  return t;
}

namespace {
// The one implementation behind every to()/half()/cuda()/cpu()...: returns
// self when nothing changes (PyTorch), and marks the result for
// tensor-discarded-cast at the user's call site.
Tensor convert_tensor(const Tensor& self, std::optional<Device> device, std::optional<ScalarType> dtype,
                      bool non_blocking, bool copy, const char* op, const std::source_location& loc) {
  const auto& ti = impl_of(self, loc);
  const Device target = device ? resolve_device(*device, loc) : ti.device();
  const ScalarType dt = dtype.value_or(ti.dtype);
  Tensor result = self;
  if (copy || target != ti.device() || dt != ti.dtype) {
    result = make_empty(ti.sizes, dt, target, loc);
    copy_impl(*TensorAccess::shared(result), ti, non_blocking, loc);
  }
  autograd::record_conversion(result, self, "ToCopyBackward0");
  mark_conversion(result, loc, op, ti.dtype, ti.device());
  return result;
}
}  // namespace

}  // namespace detail

Tensor Tensor::to(Device device, bool non_blocking, bool copy, SourceLoc loc) const {
  return detail::convert_tensor(*this, device, std::nullopt, non_blocking, copy, "to", loc);
}
Tensor Tensor::to(ScalarType dtype, bool non_blocking, bool copy, SourceLoc loc) const {
  return detail::convert_tensor(*this, std::nullopt, dtype, non_blocking, copy, "to", loc);
}
Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy, SourceLoc loc) const {
  return detail::convert_tensor(*this, device, dtype, non_blocking, copy, "to", loc);
}
Tensor Tensor::to(const Tensor& other, bool non_blocking, bool copy, SourceLoc loc) const {
  const auto& oi = impl_of(other, loc);
  return detail::convert_tensor(*this, oi.device(), oi.dtype, non_blocking, copy, "to", loc);
}
Tensor Tensor::toType(ScalarType dtype, SourceLoc loc) const {
  return detail::convert_tensor(*this, std::nullopt, dtype, false, false, "toType", loc);
}
Tensor Tensor::half(SourceLoc loc) const {
  return detail::convert_tensor(*this, std::nullopt, kHalf, false, false, "half", loc);
}
Tensor Tensor::bfloat16(SourceLoc loc) const {
  return detail::convert_tensor(*this, std::nullopt, kBFloat16, false, false, "bfloat16", loc);
}
Tensor Tensor::cuda(SourceLoc loc) const {
  const Device here = device(loc);
  // Already on a cuda device: stays there (PyTorch moves to the current
  // device only from cpu).
  return detail::convert_tensor(*this, here.is_cuda() ? here : Device(kCUDA), std::nullopt, false, false, "cuda", loc);
}
Tensor Tensor::cpu(SourceLoc loc) const {
  return detail::convert_tensor(*this, Device(kCPU), std::nullopt, false, false, "cpu", loc);
}
Tensor Tensor::contiguous(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  Tensor result = ti.is_contiguous() ? *this : detail::contiguous_internal(*this, loc);
  detail::autograd::record_conversion(result, *this, "CloneBackward0");
  detail::mark_conversion(result, loc, "contiguous", ti.dtype, ti.device());
  return result;
}
Tensor Tensor::clone(SourceLoc loc) const {
  return detail::convert_tensor(*this, std::nullopt, std::nullopt, false, true, "clone", loc);
}
Tensor Tensor::pin_memory(SourceLoc loc) const {
  const auto& ti = impl_of(*this, loc);
  if (!ti.device().is_cpu()) {
    throw ValueError("cannot pin '" + ti.device().str() + "' tensor: only dense CPU tensors can be pinned", loc);
  }
  if (!get_backend(DeviceType::CUDA)) throw CudaUnavailableError("CUDA is not available", loc);
  Tensor result = *this;
  if (!ti.storage->pinned) {
    result = detail::make_empty(ti.sizes, ti.dtype, Device(kCPU), loc, /*pinned=*/true);
    detail::copy_impl(*detail::TensorAccess::shared(result), ti, false, loc);
  }
  detail::autograd::record_conversion(result, *this, "ToCopyBackward0");
  detail::mark_conversion(result, loc, "pin_memory", ti.dtype, ti.device());
  return result;
}

Tensor& Tensor::copy_(const Tensor& src, bool non_blocking, SourceLoc loc) const {
  const auto& di = impl_of(*this, loc);
  detail::autograd::check_inplace(di, loc);
  Tensor s = detail::expand_internal(src, di.sizes, loc);
  detail::copy_impl(di, impl_of(s, loc), non_blocking, loc);
  return const_cast<Tensor&>(*this);
}

Tensor& Tensor::fill_(const Scalar& value, SourceLoc loc) const {
  const auto& di = impl_of(*this, loc);
  detail::autograd::check_inplace(di, loc);
  detail::require_host_kernels(di.device(), loc);
  detail::kernels::fill(di, value);
  return const_cast<Tensor&>(*this);
}

Tensor& Tensor::zero_(SourceLoc loc) const { return fill_(0, loc); }

}  // namespace tt
