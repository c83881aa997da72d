// Per-device-type backends: memory and copies. cpu is built in;
// TT_EMULATE_CUDA installs a host-memory cuda backend; the cuda/ library
// registers the real one. Ops ask this registry, never a hard-coded device.
#pragma once

#include <cstddef>
#include <memory>

#include "tt/device.h"

namespace tt {

/// Memory and copies for one DeviceType. Implementations must be thread-safe.
class Backend {
 public:
  virtual ~Backend() = default;
  /// Number of devices of this type (indices 0..n-1).
  virtual int device_count() const = 0;
  /// Device memory for nbytes on device `index`; throws tt::Error on failure.
  virtual void* allocate(size_t nbytes, int index) = 0;
  virtual void deallocate(void* ptr, size_t nbytes, int index) noexcept = 0;
  /// Copies nbytes where one side is this backend's device and the other is
  /// cpu or the same type. non_blocking may be honoured for pinned sources.
  virtual void copy(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes,
                    bool non_blocking) = 0;
  /// Page-locked host memory for pin_memory(); plain host memory is fine
  /// for backends without DMA.
  virtual void* allocate_pinned(size_t nbytes) = 0;
  virtual void deallocate_pinned(void* ptr, size_t nbytes) noexcept = 0;
  /// True when the host can dereference device memory (emulation): the cpu
  /// kernels then run on this device's tensors. A real GPU backend returns
  /// false and must also provide kernels (the cuda/ issue adds that table).
  virtual bool host_accessible() const = 0;
  /// Short name for messages ("emulated", "cuda").
  virtual const char* name() const = 0;
};

/// Installs (or with nullptr removes) the backend for a device type; replaces
/// any previous one. cpu cannot be replaced. Tensors keep their backend alive.
void register_backend(DeviceType type, std::shared_ptr<Backend> backend);
/// The backend for a device type, or nullptr. The first call for kCUDA reads
/// TT_EMULATE_CUDA / TT_EMULATE_CUDA_DEVICES (see docs/runtime.md).
std::shared_ptr<Backend> get_backend(DeviceType type);

/// Turns CUDA emulation on with `devices` host-memory cuda devices, or off
/// with 0: the programmatic form of TT_EMULATE_CUDA=1
/// TT_EMULATE_CUDA_DEVICES=N. Does not replace a real (non-emulated) backend.
void set_cuda_emulation(int devices);

namespace cuda {
/// Whether any cuda device exists (real or emulated), as torch::cuda::is_available().
bool is_available();
/// Number of cuda devices (0 without a backend), as torch::cuda::device_count().
int device_count();
}  // namespace cuda

}  // namespace tt
