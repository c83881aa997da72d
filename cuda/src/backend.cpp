// The real cuda Backend: stream-ordered device memory, pinned host memory,
// and copies in every direction; plus probe(), the runtime's way in.
#include <cuda_runtime_api.h>

#include <memory>

#include "backend_probe.h"
#include "check.h"
#include "device_context.h"
#include "kernel_table.h"
#include "pinned_host_allocator.h"
#include "tt/backend.h"

namespace tt::cuda_backend {

namespace {

// Page-locked host memory: tt's own pinned blocks are known without asking
// the driver; anything else (memory a program pinned itself) is asked about.
bool is_pinned_host(const void* p) {
  if (pinned_contains(p)) return true;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int n) : n_(n) {}
  int device_count() const override { return n_; }

  // cudaMallocAsync on the device's stream: memory comes from the driver's
  // pool and is reused in stream order, with no per-tensor cudaMalloc.
  void* allocate(size_t nbytes, int index) override {
    if (nbytes == 0) return nullptr;
    auto& ctx = context(index);
    DeviceGuard guard(index);
    void* p = nullptr;
    TT_CUDA_CHECK(cudaMallocAsync(&p, nbytes, ctx.stream));
    return p;
  }
  void deallocate(void* p, size_t, int index) noexcept override {
    if (!p) return;
    try {
      auto& ctx = context(index);
      DeviceGuard guard(index);
      // Fails only at process teardown, when the driver reclaims everything;
      // the error must not stay behind for the next launch check to report.
      if (cudaFreeAsync(p, ctx.stream) != cudaSuccess) (void)cudaGetLastError();
    } catch (...) {
    }
  }

  void copy(void* dst, Device dd, const void* src, Device sd, size_t nbytes, bool non_blocking) override {
    if (nbytes == 0) return;
    if (dd.is_cuda() && sd.is_cuda()) return copy_d2d(dst, dd.index(), src, sd.index(), nbytes);
    const bool to_device = dd.is_cuda();
    const int index = to_device ? dd.index() : sd.index();
    auto& ctx = context(index);
    DeviceGuard guard(index);
    TT_CUDA_CHECK(
        cudaMemcpyAsync(dst, src, nbytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, ctx.stream));
    // PyTorch's rule: non_blocking is asynchronous only when the host side
    // is page-locked; pageable memory (which the caller may free or read
    // right after we return) gets a synchronous copy.
    const bool async = non_blocking && is_pinned_host(to_device ? src : dst);
    if (async)
      note_async_host_copy(ctx);
    else
      synchronize_stream(ctx);
  }

  // Cached (pinned_host_allocator.h): a freed block is reused once the work
  // queued before its free has finished, so neither allocating nor freeing
  // a pinned batch waits for the device.
  void* allocate_pinned(size_t nbytes) override { return pinned_allocate(nbytes == 0 ? 1 : nbytes); }
  void deallocate_pinned(void* p, size_t) noexcept override { pinned_free(p); }
  bool host_accessible() const override { return false; }
  const char* name() const override { return "cuda"; }

 private:
  // Device to device, on one GPU or between two: ordered after the work
  // already queued on both devices' streams, and before later work on both.
  void copy_d2d(void* dst, int di, const void* src, int si, size_t nbytes) {
    auto& sctx = context(si);
    if (di == si) {
      DeviceGuard guard(si);
      TT_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, sctx.stream));
      return;
    }
    auto& dctx = context(di);
    cudaEvent_t dst_ready = nullptr, copied = nullptr;
    auto cleanup = [&] {
      if (dst_ready) (void)cudaEventDestroy(dst_ready);
      if (copied) (void)cudaEventDestroy(copied);
    };
    try {
      {
        DeviceGuard guard(di);
        TT_CUDA_CHECK(cudaEventCreateWithFlags(&dst_ready, cudaEventDisableTiming));
        TT_CUDA_CHECK(cudaEventRecord(dst_ready, dctx.stream));
      }
      DeviceGuard guard(si);
      TT_CUDA_CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
      TT_CUDA_CHECK(cudaStreamWaitEvent(sctx.stream, dst_ready, 0));
      TT_CUDA_CHECK(cudaMemcpyPeerAsync(dst, di, src, si, nbytes, sctx.stream));
      TT_CUDA_CHECK(cudaEventRecord(copied, sctx.stream));
      TT_CUDA_CHECK(cudaStreamWaitEvent(dctx.stream, copied, 0));
    } catch (...) {
      cleanup();
      throw;
    }
    cleanup();  // destroying a recorded event is safe: it is released once it completes
  }

  int n_;
};

}  // namespace

/// The runtime's hook (backend_probe.h): the real backend, with its kernels
/// registered, when a GPU is visible; nullptr otherwise, so the runtime's
/// emulation and "CUDA is not available" rules apply unchanged.
std::shared_ptr<Backend> probe() {
  const int n = visible_device_count();
  if (n <= 0) return nullptr;
  register_kernel_table();
  return std::make_shared<CudaBackend>(n);
}

namespace {
// Offered to the runtime while this library loads; nothing runs on the
// device until the runtime first asks about cuda devices. init_priority
// runs it before every default-priority static initialiser of the program,
// so a user's `static bool gpu = tt::cuda::is_available();` already sees it.
struct ProbeRegistration {
  ProbeRegistration() { detail::set_backend_probe(DeviceType::CUDA, &probe); }
};
__attribute__((init_priority(101))) ProbeRegistration g_probe_registration;
}  // namespace

}  // namespace tt::cuda_backend
