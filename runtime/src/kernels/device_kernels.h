// Internal: kernels for a device whose memory the host cannot read (a real
// GPU). The cpu kernels in kernels.h forward to the table registered for
// their operands' device, so every op reaches the GPU through the same
// entry points it uses for the cpu; the cuda/ library registers the table
// together with its Backend. Emulated devices register none: the cpu
// kernels run on their host memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <source_location>

#include "../tensor_impl.h"
#include "kernels.h"
#include "tt/scalar.h"

namespace tt::detail::kernels {

/// One implementation of kernels.h for a device type. Arguments follow the
/// contracts in kernels.h, with one addition: operands of binary and where
/// may be cpu tensors that are broadcast 0-dim scalars (the device rule lets
/// a cpu scalar join any device), which implementations read on the host.
class DeviceKernels {
 public:
  virtual ~DeviceKernels() = default;
  /// dst = src converted; both on this device type (any indices), src may be a broadcast view.
  virtual void copy(const TensorImpl& dst, const TensorImpl& src) = 0;
  virtual void fill(const TensorImpl& dst, const Scalar& value) = 0;
  virtual void binary(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b,
                      const Scalar& alpha) = 0;
  virtual void unary(UnaryOp op, const TensorImpl& out, const TensorImpl& in) = 0;
  virtual void clamp(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo,
                     std::optional<double> hi) = 0;
  virtual void where(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y) = 0;
  virtual void reduce(ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner,
                      const TensorImpl* out, const TensorImpl* indices) = 0;
  virtual void softmax(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r,
                       int64_t inner) = 0;
  virtual void gemm(const TensorImpl& a, const TensorImpl& b, const TensorImpl& c, int64_t batch, int64_t m,
                    int64_t k, int64_t n) = 0;
  /// gemm_2d of kernels.h on `device` memory.
  virtual void gemm_2d(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                       const void* a, int64_t lda, const void* b, int64_t ldb, void* c) = 0;
  virtual void arange(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep) = 0;
  virtual void uniform(const TensorImpl& out) = 0;
  virtual void normal(const TensorImpl& out) = 0;
  virtual void manual_seed(uint64_t seed) = 0;
};

/// Installs (nullptr: removes) the kernels for a device type. Register them
/// only together with a backend whose host_accessible() is false.
void register_device_kernels(DeviceType type, std::shared_ptr<DeviceKernels> kernels);

/// The kernels for d's memory, or nullptr when the cpu kernels apply (cpu,
/// emulated cuda). Lock-free: called at every kernel entry.
DeviceKernels* device_kernels(Device d) noexcept;

/// The user's call site of the op now running on this thread, set by
/// dispatch (resolve_device, require_host_kernels) before any allocation or
/// kernel, so that device errors (a failed cudaMallocAsync, a launch error)
/// name the user's line although kernels take no location.
void set_device_call_site(const std::source_location& loc) noexcept;
std::source_location device_call_site() noexcept;

}  // namespace tt::detail::kernels
