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
#include <c10/core/Storage.h>
#include <c10/util/SmallVector.h>

namespace tensor_run {

/// The cpu views of one op call's device operands. Operands that share a
/// device storage get views that share one cpu storage, so that ATen's
/// overlap checks (copy_ of a tensor onto a shifted view of itself, an out=
/// argument that aliases an input) see what they would see on a GPU.
class HostViews {
 public:
  /// A cpu tensor with t's sizes, strides, offset and dtype over t's
  /// memory when t is on an emulated device; t itself otherwise. The view's
  /// storage does not own the memory (t's does) but can grow when t's can:
  /// a cpu kernel that resizes an out= argument gets memory of t's device,
  /// which write_back() hands to t.
  at::Tensor view_of(const at::Tensor& t);

  /// After the cpu kernel: gives `original` (an in-place or out= argument)
  /// what the kernel did to its view: new memory (a resize), another
  /// storage (set_), new sizes, strides and offset.
  void write_back(const at::Tensor& original, const at::Tensor& view);

  /// The device storage whose cpu view storage is `host`, or null.
  const c10::Storage* device_storage_of(const c10::StorageImpl* host) const;

 private:
  struct Shared {
    c10::Storage device;
    c10::Storage host;
    bool moved = false;  // write_back already handed reallocated memory over
  };
  Shared* find_device(const c10::StorageImpl* device);
  c10::SmallVector<Shared, 4> shared_;
};

/// A cpu kernel's fresh output as a tensor on `device`, sharing (and keeping
/// alive) the output's storage.
at::Tensor adopt_on_device(const at::Tensor& cpu_output, c10::Device device);

/// A view of `base`'s storage with `geometry`'s sizes, strides, offset and
/// dtype: for a cpu kernel's output that is a view of a host view of base.
at::Tensor device_view(const c10::Storage& base, const at::Tensor& geometry);

/// True when the two tensors share one StorageImpl.
bool shares_storage(const at::Tensor& a, const at::Tensor& b);

}  // namespace tensor_run
