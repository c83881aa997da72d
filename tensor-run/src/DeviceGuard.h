// The current emulated device, per thread, and the DeviceGuardImplInterface
// for cuda that makes torch::DeviceGuard, the autograd engine's device
// threads and cuda streams work (c10/core/impl/DeviceGuardImplInterface.h;
// the model is c10/cuda/impl/CUDAGuardImpl.h, without a driver behind it).
#pragma once

#include <c10/core/Device.h>

namespace tensor_run {

/// The calling thread's current device (cudaGetDevice): 0 until set.
c10::DeviceIndex current_device() noexcept;

/// Throws c10::Error "CUDA error: invalid device ordinal" (the CUDA
/// runtime's wording, as LibTorch reports it) unless 0 <= index < the
/// emulated device count.
void check_device_index(c10::DeviceIndex index);

/// The emulated device count (Config.h).
int device_count() noexcept;

/// Sets the current device for the scope and restores it after, for
/// kernels that allocate on a device their arguments name.
class CurrentDevice {
 public:
  explicit CurrentDevice(c10::DeviceIndex index);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  c10::DeviceIndex saved_;
};

}  // namespace tensor_run
