// Zero-copy passage between the emulated devices and the cpu kernels. An
// emulated device's memory is host memory, so a cuda tensor's cpu kernel
// can run on a cpu tensor over the very same bytes, and the cpu kernel's
// output can become a cuda tensor without a copy. ATen's own
// at::native::cpu_fallback (CPUFallback.cpp) copies every argument to the
// cpu and every result back; for the small ops of a training loop those
// copies would cost more than the ops.
#pragma once

#include <ATen/Tensor.h>
#include <c10/core/Device.h>

namespace tensor_run {

/// A cpu tensor with t's sizes, strides, offset and dtype over t's memory,
/// when t is on an emulated device; t itself otherwise. Its storage does not
/// own the memory (t does) but can grow: a cpu kernel that resizes it (an
/// out= argument) gets memory of t's device, which sync_back() hands to t.
at::Tensor host_alias(const at::Tensor& t);

/// After a cpu kernel mutated `alias` (an out= or in-place argument): gives
/// `original` the alias's geometry and, if the kernel reallocated it, its
/// memory.
void sync_back(const at::Tensor& original, const at::Tensor& alias);

/// A cpu kernel's fresh output as a tensor on `device`, sharing (and keeping
/// alive) the output's storage.
at::Tensor adopt_on_device(const at::Tensor& cpu_output, c10::Device device);

/// A view of `base`'s storage with `geometry`'s sizes, strides, offset and
/// dtype: for a cpu kernel's output that is a view of host_alias(base).
at::Tensor device_view(const at::Tensor& base, const at::Tensor& geometry);

/// True when `t`'s storage is host_alias's storage for some tensor.
bool shares_storage(const at::Tensor& a, const at::Tensor& b);

}  // namespace tensor_run
