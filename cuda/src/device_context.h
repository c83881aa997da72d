// Internal: per-device state of the CUDA backend (stream, cuBLAS handle,
// cuRAND generator, SM count), created on first use and kept for the
// process, and the guard that makes a device current for a scope.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <curand.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tt::cuda_backend {

/// Everything tt keeps per GPU. Never destroyed: tensors and the leaked
/// backend registry may outlive static destructors.
struct DeviceContext {
  int index = 0;
  cudaStream_t stream = nullptr;  ///< tt's current stream on this device
  int sm_count = 1;
  std::mutex mu;  ///< guards the lazily created handles below
  cublasHandle_t cublas = nullptr;
  cublasLtHandle_t cublaslt = nullptr;
  void* lt_workspace = nullptr;  ///< cudaMalloc'd once for cuBLASLt; never freed (the context is not)
  size_t lt_workspace_bytes = 0;
  curandGenerator_t curand = nullptr;
  void* reduce_scratch = nullptr;  ///< reduce.cu's scratch for rows split over blocks; made there, never freed
  uint64_t seed_epoch = 0;         ///< which manual_seed() the generator last took (random.cu)
  /// Host<->device copies queued on `stream` without waiting (the only
  /// queued work that reads or writes host memory), and how many of them a
  /// completed synchronisation of the stream is known to cover. Equal: no
  /// queued work can still touch a pinned block (pinned_host_allocator.cpp).
  std::atomic<uint64_t> async_host_copies{0};
  std::atomic<uint64_t> host_copies_done{0};
};

/// Number of visible GPUs; 0 when there is no device or no driver (never throws).
int visible_device_count() noexcept;

/// The context of device `index` (0 <= index < visible_device_count()).
DeviceContext& context(int index);

/// The contexts whose stream exists: the devices tt has queued work on.
std::vector<DeviceContext*> started_contexts();

/// Counts a host<->device copy just queued on ctx.stream without waiting.
inline void note_async_host_copy(DeviceContext& ctx) noexcept { ctx.async_host_copies.fetch_add(1); }

/// Waits for ctx.stream (tt::Error on failure) and records that every
/// asynchronous host copy queued before the wait began has finished.
void synchronize_stream(DeviceContext& ctx);

/// True when no asynchronous host copy queued on ctx.stream can still be
/// running: the host has waited for the stream since the last one.
inline bool host_copies_finished(const DeviceContext& ctx) noexcept {
  return ctx.host_copies_done.load() == ctx.async_host_copies.load();
}

/// Waits for the work queued on every device's tt stream (errors ignored):
/// what must have finished before pinned host memory is freed.
void synchronize_all_streams() noexcept;

/// cuBLAS handle of a device, bound to its stream (created on first use).
cublasHandle_t cublas_handle(DeviceContext& ctx);

/// A device's cuBLASLt handle and workspace (created on first use).
struct LtResources {
  cublasLtHandle_t handle;
  void* workspace;
  size_t workspace_bytes;
};

/// cuBLASLt workspace per device: what PyTorch gives cuBLAS(Lt) on Hopper
/// (CUBLAS_WORKSPACE_CONFIG's default there); a device that cannot spare
/// it gets none, and the heuristic then picks among algorithms needing none.
constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;

/// cuBLASLt handle and workspace of a device (created on first use).
LtResources cublaslt(DeviceContext& ctx);

/// Blocks of 256 threads for a grid-stride loop over n items on a device:
/// enough to fill it (8 per SM), never more than needed.
int grid_for(int64_t n, int device);

/// Makes `index` the current device for the scope, restoring the previous
/// one: tt's ops may run on any device from any thread. With one visible
/// device it does nothing (that device is always the current one), so a
/// single-GPU program makes no cudaGetDevice/cudaSetDevice call per op.
class DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace tt::cuda_backend
