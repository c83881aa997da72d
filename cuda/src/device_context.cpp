// Per-device contexts, the device guard, and the public stream functions.
#include "device_context.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "check.h"
#include "deferred_checks.h"
#include "tt/cuda/stream.h"
#include "tt/errors.h"

namespace tt::cuda_backend {

namespace {
struct Contexts {
  std::once_flag once;
  std::vector<std::unique_ptr<DeviceContext>> all;
};
Contexts& contexts() {
  static Contexts* c = new Contexts;  // leaked, see DeviceContext
  return *c;
}

// Fills in ctx, or throws leaving it as it was (stream still null, so the
// next context() call tries again) and the stream it made destroyed.
void init_context(DeviceContext& ctx) {
  DeviceGuard guard(ctx.index);
  cudaStream_t stream = nullptr;
  TT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  try {
    int sm_count = 1;
    TT_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, ctx.index));
    // The stream-ordered allocator's pool keeps freed blocks for reuse
    // instead of returning them at each synchronisation: tt's caching
    // allocator is the driver's.
    cudaMemPool_t pool;
    TT_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ctx.index));
    uint64_t keep = UINT64_MAX;
    TT_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    ctx.sm_count = sm_count;
  } catch (...) {
    (void)cudaStreamDestroy(stream);
    (void)cudaGetLastError();
    throw;
  }
  ctx.stream = stream;
}

// The contexts of all visible devices (made on first call, never freed).
std::vector<std::unique_ptr<DeviceContext>>& all_contexts() {
  auto& c = contexts();
  std::call_once(c.once, [&] {
    const int n = visible_device_count();
    for (int i = 0; i < n; ++i) {
      c.all.push_back(std::make_unique<DeviceContext>());
      c.all.back()->index = i;
    }
  });
  return c.all;
}
}  // namespace

int visible_device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver / no device: not an error for tt
    return 0;
  }
  return n;
}

DeviceContext& context(int index) {
  auto& all = all_contexts();
  if (index < 0 || index >= static_cast<int>(all.size()))
    throw CudaUnavailableError("CUDA error: invalid device ordinal", detail::kernels::device_call_site());
  DeviceContext& ctx = *all[index];
  std::lock_guard<std::mutex> lock(ctx.mu);
  if (!ctx.stream) init_context(ctx);
  return ctx;
}

std::vector<DeviceContext*> started_contexts() {
  std::vector<DeviceContext*> started;
  for (auto& ctx : all_contexts()) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    if (ctx->stream) started.push_back(ctx.get());
  }
  return started;
}

void synchronize_stream(DeviceContext& ctx) {
  // Read before waiting: a copy counted after this read may have been queued
  // after the wait began, so only those before it are known finished.
  const uint64_t queued = ctx.async_host_copies.load();
  TT_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  uint64_t done = ctx.host_copies_done.load();
  while (done < queued && !ctx.host_copies_done.compare_exchange_weak(done, queued)) {
  }
}

void synchronize_all_streams() noexcept {
  for (auto& ctx : all_contexts()) {
    cudaStream_t stream = nullptr;
    {
      std::lock_guard<std::mutex> lock(ctx->mu);  // not held while waiting
      stream = ctx->stream;
    }
    if (stream && cudaStreamSynchronize(stream) != cudaSuccess) (void)cudaGetLastError();
  }
}

cublasHandle_t cublas_handle(DeviceContext& ctx) {
  std::lock_guard<std::mutex> lock(ctx.mu);
  if (!ctx.cublas) {
    DeviceGuard guard(ctx.index);
    cublasHandle_t h = nullptr;
    TT_CUDA_CHECK(cublasCreate(&h));
    if (cublasStatus_t st = cublasSetStream(h, ctx.stream); st != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(h);  // no leak when binding fails
      TT_CUDA_CHECK(st);
    }
    ctx.cublas = h;
  }
  return ctx.cublas;
}

LtResources cublaslt(DeviceContext& ctx) {
  std::lock_guard<std::mutex> lock(ctx.mu);
  if (!ctx.cublaslt) {
    DeviceGuard guard(ctx.index);
    cublasLtHandle_t h = nullptr;
    TT_CUDA_CHECK(cublasLtCreate(&h));
    void* workspace = nullptr;
    if (cudaMalloc(&workspace, kLtWorkspaceBytes) == cudaSuccess) {
      ctx.lt_workspace = workspace;
      ctx.lt_workspace_bytes = kLtWorkspaceBytes;
    } else {
      (void)cudaGetLastError();  // out of memory: no workspace, not an error of the caller's op
    }
    ctx.cublaslt = h;
  }
  return {ctx.cublaslt, ctx.lt_workspace, ctx.lt_workspace_bytes};
}

DeviceGuard::DeviceGuard(int index) {
  // One device: it is current on every thread, and an invalid index was
  // refused by context() before any guard is made for it.
  if (all_contexts().size() == 1 && index == 0) return;
  TT_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != index)
    TT_CUDA_CHECK(cudaSetDevice(index));
  else
    previous_ = -1;
}

DeviceGuard::~DeviceGuard() {
  // A destructor cannot throw; the device existed before. A failure must
  // not stay behind as the thread's last error, which the next launch check
  // would report as its own.
  if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
}

int grid_for(int64_t n, int device) {
  const int64_t needed = (n + 255) / 256;
  const int64_t cap = static_cast<int64_t>(context(device).sm_count) * 8;
  return static_cast<int>(needed < 1 ? 1 : (needed < cap ? needed : cap));
}

}  // namespace tt::cuda_backend

namespace tt::cuda {

cudaStream_t current_stream(int index) { return cuda_backend::context(index).stream; }

void synchronize(int index) {
  auto& ctx = cuda_backend::context(index);
  const unsigned long ticket = detail::deferred_check_ticket();
  cuda_backend::synchronize_stream(ctx);
  detail::run_deferred_checks(Device(kCUDA, index), ticket);
}

}  // namespace tt::cuda
