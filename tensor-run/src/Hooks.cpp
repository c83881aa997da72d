// at::CUDAHooksInterface for the emulated devices, registered under the name
// ATen looks up ("CUDAHooks"): torch::cuda::is_available(), device_count(),
// manual_seed_all(), synchronize(), pin_memory() and the default cuda
// generators all come through here. The real one is
// aten/src/ATen/cuda/detail/CUDAHooks.cpp; this one has no driver behind it.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/util/Exception.h>

#include <mutex>
#include <string>
#include <vector>

#include "Config.h"
#include "DeviceGuard.h"
#include "DeviceMemory.h"
#include "Generators.h"
#include "Recorder.h"
#include "TorchVersion.h"

namespace at {

// Registry.h requires the class to live in namespace at.
struct TensorRunCUDAHooks : public CUDAHooksInterface {
  explicit TensorRunCUDAHooks(CUDAHooksArgs) {}

#if TENSOR_RUN_TORCH_ACCELERATOR_HOOKS
  // 2.x: the AcceleratorHooksInterface names, and DeviceIndex for indices
  // (torch::cuda::device_count() asks deviceCount()).
  using Index = DeviceIndex;
  void init() const override {}
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return hasCUDA(); }
  DeviceIndex deviceCount() const override { return static_cast<DeviceIndex>(tensor_run::device_count()); }
  DeviceIndex getCurrentDevice() const override { return tensor_run::current_device(); }
  const Generator& getDefaultGenerator(DeviceIndex device_index = -1) const override {
    return tensor_run::device_generator(device_index < 0 ? tensor_run::current_device() : device_index);
  }
  bool isPinnedPtr(const void* data) const override { return tensor_run::is_pinned(data); }
#else
  using Index = int64_t;
  void initCUDA() const override {}
  const Generator& getDefaultCUDAGenerator(DeviceIndex device_index) const override {
    return tensor_run::device_generator(device_index < 0 ? tensor_run::current_device() : device_index);
  }
  bool isPinnedPtr(void* data) const override { return tensor_run::is_pinned(data); }
#endif
  bool hasCUDA() const override { return true; }
  int getNumGPUs() const override { return tensor_run::device_count(); }
  Index current_device() const override { return tensor_run::current_device(); }
  bool hasPrimaryContext(Index device_index) const override {
    return device_index >= 0 && device_index < tensor_run::device_count();
  }
  Device getDeviceFromPtr(void* data) const override {
    // from_blob(ptr, ..., kCUDA) asks where ptr's memory is, and the real
    // hooks ask the driver (at::cuda::getDeviceFromPtr,
    // cudaPointerGetAttributes): device memory is on its device, which
    // TensorMaker then checks against the device the options name; pinned
    // host memory is mapped for the GPU; any other host memory is an error.
    if (auto index = tensor_run::device_of_memory(data)) return Device(DeviceType::CUDA, *index);
    const Device current(DeviceType::CUDA, tensor_run::current_device());
    // A null pointer (an empty buffer) is not judged.
    if (!data || tensor_run::is_pinned(data)) return current;
    tensor_run::Violation v;
    v.kind = tensor_run::ViolationKind::Device;
    v.op = "from_blob";
    v.message = "The specified pointer resides on host memory and is not registered with any CUDA device.";
    v.devices = {current.str(), "cpu"};
    // Raise mode throws; record mode goes on with the tensor over the host
    // memory, where the emulated device's kernels can read it.
    tensor_run::report(v);
    return current;
  }
  Allocator* getPinnedMemoryAllocator() const override { return tensor_run::pinned_allocator(); }
  Allocator* getCUDADeviceAllocator() const override { return tensor_run::device_allocator(); }
  void deviceSynchronize(Index device_index) const override {
    // Work is synchronous: there is nothing to wait for, but an invalid
    // device is an error as with a driver.
    // -1: the current device (torch::cuda::synchronize()'s default).
    if (device_index >= 0) tensor_run::check_device_index(static_cast<c10::DeviceIndex>(device_index));
  }
  bool compiledWithCuDNN() const override { return false; }
  bool hasCuDNN() const override { return false; }
  std::string showConfig() const override {
    return "  - CUDA emulated by tensor-run on host memory (" + std::to_string(tensor_run::device_count()) +
           " device(s)); no cuDNN, no CUDA runtime\n";
  }
};

C10_REGISTER_TYPED_CLASS(CUDAHooksRegistry, "CUDAHooks", TensorRunCUDAHooks);

}  // namespace at
