// Backend registry, the cpu backend and the emulated cuda backend.
#include "tt/backend.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "backend_probe.h"
#include "environment.h"
#include "host_allocator.h"
#include "kernels/dispatch_stub.h"
#include "tt/errors.h"

namespace tt {

namespace {

// Set by a backend library while it loads (backend_probe.h); constant
// initialised, so it is valid before any dynamic initialiser runs.
constinit std::atomic<detail::BackendProbe> g_cuda_probe{nullptr};

// Both host backends allocate through the caching host allocator
// (host_allocator.h: 64-byte aligned, large blocks reused).
class CpuBackend final : public Backend {
 public:
  int device_count() const override { return 1; }
  void* allocate(size_t nbytes, int) override { return detail::host_allocate(nbytes); }
  void deallocate(void* p, size_t nbytes, int) noexcept override { detail::host_free(p, nbytes); }
  void copy(void* dst, Device, const void* src, Device, size_t nbytes, bool) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
  void* allocate_pinned(size_t nbytes) override { return detail::host_allocate(nbytes); }
  void deallocate_pinned(void* p, size_t nbytes) noexcept override { detail::host_free(p, nbytes); }
  bool host_accessible() const override { return true; }
  const char* name() const override { return "cpu"; }
};

// cuda:N backed by host memory: every device rule applies, the cpu kernels
// do the arithmetic (cf. PyTorch's meta/fake devices, but with real data).
class EmulatedCudaBackend final : public Backend {
 public:
  explicit EmulatedCudaBackend(int n) : n_(n) {}
  int device_count() const override { return n_; }
  void* allocate(size_t nbytes, int) override { return detail::host_allocate(nbytes); }
  void deallocate(void* p, size_t nbytes, int) noexcept override { detail::host_free(p, nbytes); }
  void copy(void* dst, Device, const void* src, Device, size_t nbytes, bool) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
  void* allocate_pinned(size_t nbytes) override { return detail::host_allocate(nbytes); }
  void deallocate_pinned(void* p, size_t nbytes) noexcept override { detail::host_free(p, nbytes); }
  bool host_accessible() const override { return true; }
  const char* name() const override { return "emulated"; }

 private:
  int n_;
};

struct Registry {
  std::mutex mu;
  std::shared_ptr<Backend> cpu = std::make_shared<CpuBackend>();
  std::shared_ptr<Backend> cuda;
  bool cuda_env_read = false;
  bool cuda_probed = false;
};

// With the cuda/ library built in, the first question about cuda devices
// asks it for a real backend (non-null only when cudaGetDeviceCount > 0);
// a real GPU then wins over TT_EMULATE_CUDA. Asked lazily, under the
// registry's lock, so programs that never use cuda never touch the driver.
void probe_real_cuda(Registry& r) {
  if (r.cuda_probed) return;
  detail::BackendProbe probe = g_cuda_probe.load(std::memory_order_acquire);
  // No probe (yet): a program without cuda/, or a question asked by a static
  // initialiser that ran before cuda/'s registration. Nothing is latched, so
  // a probe registered later is still asked.
  if (!probe) return;
  r.cuda_probed = true;
  if (!r.cuda) r.cuda = probe();
}

Registry& registry() {
  static Registry* r = new Registry;  // leaked: tensors may die after static destructors run
  return *r;
}

}  // namespace

void register_backend(DeviceType type, std::shared_ptr<Backend> backend) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type == DeviceType::CUDA) {
    r.cuda = std::move(backend);
    r.cuda_env_read = true;  // an explicit registration wins over the environment
    r.cuda_probed = true;    // and over the cuda/ library's own
    // Device kernels belong to the backend they came with (cuda/'s probe):
    // a replaced backend takes them along, so emulated memory never meets them.
    detail::kernels::set_cuda_kernels_enabled(false);
  }
}

void detail::set_backend_probe(DeviceType type, BackendProbe probe) noexcept {
  if (type == DeviceType::CUDA) g_cuda_probe.store(probe, std::memory_order_release);
}

std::shared_ptr<Backend> get_backend(DeviceType type) {
  auto& r = registry();
  if (type == DeviceType::CPU) return r.cpu;
  std::lock_guard<std::mutex> lock(r.mu);
  probe_real_cuda(r);
  if (!r.cuda_env_read) {
    r.cuda_env_read = true;
    if (int n = detail::env_emulated_cuda_devices(); n > 0 && !r.cuda)
      r.cuda = std::make_shared<EmulatedCudaBackend>(n);
  }
  return r.cuda;
}

void set_cuda_emulation(int devices) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  probe_real_cuda(r);
  r.cuda_env_read = true;
  if (r.cuda && std::string(r.cuda->name()) != "emulated") return;  // never hide a real GPU
  r.cuda = devices > 0 ? std::make_shared<EmulatedCudaBackend>(devices) : nullptr;
}

namespace cuda {
bool is_available() { return device_count() > 0; }
int device_count() {
  auto b = get_backend(DeviceType::CUDA);
  return b ? b->device_count() : 0;
}
}  // namespace cuda

}  // namespace tt
