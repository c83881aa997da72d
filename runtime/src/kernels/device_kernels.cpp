// The registry of device kernel tables (see device_kernels.h).
#include "device_kernels.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace tt::detail::kernels {

namespace {
// Tables are kept alive for the process: a kernel may still be running on a
// table that another thread just replaced, and registrations are rare.
struct Slot {
  std::mutex mu;
  std::shared_ptr<DeviceKernels> owner;
  std::atomic<DeviceKernels*> cuda{nullptr};
};
Slot& slot() {
  static Slot* s = new Slot;  // leaked: tensors may die after static destructors run
  return *s;
}
thread_local std::source_location t_call_site = std::source_location::current();
}  // namespace

void register_device_kernels(DeviceType type, std::shared_ptr<DeviceKernels> kernels) {
  if (type != DeviceType::CUDA) return;
  auto& s = slot();
  std::lock_guard<std::mutex> lock(s.mu);
  static auto* graveyard = new std::vector<std::shared_ptr<DeviceKernels>>;
  if (s.owner) graveyard->push_back(s.owner);
  s.owner = std::move(kernels);
  s.cuda.store(s.owner.get(), std::memory_order_release);
}

DeviceKernels* device_kernels(Device d) noexcept {
  if (!d.is_cuda()) return nullptr;
  return slot().cuda.load(std::memory_order_acquire);
}

void set_device_call_site(const std::source_location& loc) noexcept { t_call_site = loc; }
std::source_location device_call_site() noexcept { return t_call_site; }

}  // namespace tt::detail::kernels
