// Internal building blocks shared by the ops: conversions and copies that
// are not user calls (no discarded-cast tracking, no device checks).
#pragma once

#include <source_location>
#include <vector>

#include "tensor_impl.h"
#include "tt/scalar.h"

namespace tt::detail {

// New tensor on `device` with the same values (or `t` itself if already there).
Tensor to_device_internal(const Tensor& t, Device device, const std::source_location& loc);
// New tensor of `dtype` with the same values (or `t` itself if already so).
Tensor to_dtype_internal(const Tensor& t, ScalarType dtype, const std::source_location& loc);
// `t` if contiguous, else a contiguous copy.
Tensor contiguous_internal(const Tensor& t, const std::source_location& loc);
// Resets the gradients of `params` (Module and Optimizer zero_grad):
// undefined with set_to_none, else zeroed in place where defined.
void zero_grads(const std::vector<Tensor>& params, bool set_to_none);
// Whether the host can dereference memory of `d`: the cpu, emulated devices.
bool host_can_read(Device d);
// dst[...] = src[...] for equal sizes (src may be an expanded view), with
// dtype conversion and cross-device transfer. A blocking copy between the
// host and a device it cannot read runs that device's deferred checks
// (deferred_checks.h) and throws what they find.
void copy_impl(const TensorImpl& dst, const TensorImpl& src, bool non_blocking, const std::source_location& loc);
// Broadcast view of t to sizes (ShapeError with PyTorch's expand message).
Tensor expand_internal(const Tensor& t, const std::vector<int64_t>& sizes, const std::source_location& loc);
// A 0-dim cpu tensor holding s as dtype.
Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype);
// The broadcast shape (ShapeError "The size of tensor a (3) must match ...").
std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                     const std::source_location& loc);
std::string shape_str(const std::vector<int64_t>& s);

}  // namespace tt::detail
