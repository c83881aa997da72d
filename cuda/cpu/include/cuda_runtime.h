// The CUDA runtime names that cuda/ and test/cuda use, mapped onto HIP-CPU
// (third_party/hip-cpu), so the backend's .cu files run their kernels on
// the host (TT_CUDA_ON_CPU; docs/runtime.md, "The CUDA backend on the
// cpu"). Kernel launches (<<<...>>>) are rewritten to tt::cuda_on_cpu::launch
// (below) by cuda/cpu/hipify.py at build time; everything else compiles as
// written.
//
// Where HIP-CPU has no counterpart, the function here is a stand-in with
// the CUDA contract the backend relies on (see each one). It is only ever
// on the include path of the TT_CUDA_ON_CPU targets, never of a real
// CUDA build.
#pragma once

// HIP-CPU marks kernels, device functions and its per-block loops for
// GCC's SIMD clones and full inlining (flatten). The clones are never
// called (nothing here is compiled with OpenMP SIMD), and GCC warns once
// per struct argument ("unsupported argument type ... for simd") for every
// kernel instance, burying real warnings; so the attributes are dropped
// before HIP-CPU's headers use them. (They were not what made compiles
// slow: that was the per-kernel launch path, see launch() below.)
#include <hip/hip_defines.h>
#undef __device__
#define __device__
#undef __global__
#define __global__
#undef __HIP_TILE_FUNCTION__
#define __HIP_TILE_FUNCTION__ inline
#undef __HIP_FLATTENED_FUNCTION__
#define __HIP_FLATTENED_FUNCTION__
#include <hip/hip_runtime.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

// --- kernel launches -----------------------------------------------------

namespace tt::cuda_on_cpu {

/// Runs `thread` once for every thread of every block of the grid, on
/// HIP-CPU's `stream` (blocks in parallel, a block's threads as fibers so
/// __syncthreads works), counted as a cudaLaunchKernel in api_calls().
/// Defined once (cuda/cpu/src/launch.cpp).
void launch_erased(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, std::function<void()> thread);

/// What `kernel<<<grid, block, shared_bytes, stream>>>(args...)` becomes
/// (cuda/cpu/hipify.py). The arguments are copied at the launch, as CUDA
/// copies them. Erasing the kernel's type before HIP-CPU's launch path
/// compiles that path once instead of once per kernel instance (minutes
/// per .cu file otherwise).
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "a kernel launch with the wrong number of arguments");
  launch_erased(grid, block, shared_bytes, stream,
                [kernel, ... copies = std::decay_t<Params>(std::forward<Args>(args))]() { kernel(copies...); });
}

}  // namespace tt::cuda_on_cpu

// --- types and constants -------------------------------------------------

using cudaError_t = hipError_t;
using cudaStream_t = hipStream_t;
using cudaEvent_t = hipEvent_t;
using cudaMemcpyKind = hipMemcpyKind;

inline constexpr cudaError_t cudaSuccess = hipSuccess;
inline constexpr cudaError_t cudaErrorMemoryAllocation = hipErrorOutOfMemory;
inline constexpr cudaError_t cudaErrorNotReady = hipErrorNotReady;
inline constexpr cudaError_t cudaErrorInvalidValue = hipErrorInvalidValue;
inline constexpr cudaError_t cudaErrorInvalidDevice = hipErrorInvalidDevice;

inline constexpr cudaMemcpyKind cudaMemcpyHostToDevice = hipMemcpyHostToDevice;
inline constexpr cudaMemcpyKind cudaMemcpyDeviceToHost = hipMemcpyDeviceToHost;
inline constexpr cudaMemcpyKind cudaMemcpyDeviceToDevice = hipMemcpyDeviceToDevice;
inline constexpr cudaMemcpyKind cudaMemcpyHostToHost = hipMemcpyHostToHost;

inline constexpr unsigned cudaStreamNonBlocking = hipStreamNonBlocking;
inline constexpr unsigned cudaEventDisableTiming = hipEventDisableTiming;
inline constexpr unsigned cudaHostAllocDefault = 0;

/// The two device attributes the backend and its tests read.
enum cudaDeviceAttr { cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16 };

/// cudaPointerGetAttributes' answer (the fields the backend reads).
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2 };
struct cudaPointerAttributes {
  cudaMemoryType type = cudaMemoryTypeUnregistered;
  int device = 0;
  void* devicePointer = nullptr;
  void* hostPointer = nullptr;
};

/// The stream-ordered allocator's pool: a handle that accepts attributes
/// and ignores them (HIP-CPU's hipMallocAsync has no pool to configure).
using cudaMemPool_t = struct tt_cuda_on_cpu_mem_pool*;
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };

// --- stand-ins (cuda/cpu/src/runtime_standins.cpp) -----------------------

/// cudaPointerGetAttributes: memory from cudaHostAlloc is
/// cudaMemoryTypeHost, from cudaMalloc/cudaMallocAsync cudaMemoryTypeDevice,
/// anything else cudaMemoryTypeUnregistered (CUDA >= 11's answer for
/// pageable memory), interior pointers included.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* p);
cudaError_t cudaMalloc(void** p, size_t nbytes);
cudaError_t cudaFree(void* p);
cudaError_t cudaMallocAsync(void** p, size_t nbytes, cudaStream_t stream);
/// Frees once the work queued on `stream` before it has finished, as the
/// stream-ordered allocator does.
cudaError_t cudaFreeAsync(void* p, cudaStream_t stream);
cudaError_t cudaHostAlloc(void** p, size_t nbytes, unsigned flags);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
/// cudaEventQuery: cudaSuccess once the work recorded before the event has
/// finished, cudaErrorNotReady before.
cudaError_t cudaEventQuery(cudaEvent_t event);
// Counted (tt::cuda_on_cpu::api_calls below), otherwise HIP-CPU's.
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);

namespace tt::cuda_on_cpu {

/// How often the process has called the CUDA runtime functions whose host
/// cost a training step pays on a GPU: what bench/cuda/cuda_call_count.c
/// counts there with LD_PRELOAD over libcudart, counted here by the
/// stand-ins themselves so a test can hold the backend to a per-step
/// budget. Counts only grow; a test takes the difference of two snapshots.
struct ApiCalls {
  long host_alloc = 0;              ///< cudaHostAlloc: new page-locked host memory
  long free_host = 0;               ///< cudaFreeHost
  long stream_synchronize = 0;      ///< cudaStreamSynchronize: the host waits for a stream
  long event_synchronize = 0;       ///< cudaEventSynchronize: the host waits for an event
  long event_record = 0;            ///< cudaEventRecord
  long get_device = 0;              ///< cudaGetDevice
  long set_device = 0;              ///< cudaSetDevice
  long malloc_async = 0;            ///< cudaMallocAsync
  long pointer_get_attributes = 0;  ///< cudaPointerGetAttributes
  long kernel_launch = 0;           ///< cudaLaunchKernel: a kernel<<<...>>>
  /// Every way the host can wait for the device.
  long synchronizations() const { return stream_synchronize + event_synchronize; }
};
ApiCalls api_calls();
/// Counts one kernel launch (launch_erased's).
void count_kernel_launch() noexcept;

}  // namespace tt::cuda_on_cpu

// --- direct mappings -----------------------------------------------------

inline const char* cudaGetErrorString(cudaError_t e) { return hipGetErrorString(e); }
inline cudaError_t cudaGetLastError() { return hipGetLastError(); }
inline cudaError_t cudaGetDeviceCount(int* n) { return hipGetDeviceCount(n); }
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  return hipStreamCreateWithFlags(s, static_cast<hipStreamFlags>(flags));
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return hipStreamDestroy(s); }
inline cudaError_t cudaStreamQuery(cudaStream_t s) { return hipStreamQuery(s); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  return hipStreamWaitEvent(s, e, flags);
}
inline cudaError_t cudaEventCreate(cudaEvent_t* e) { return hipEventCreate(e); }
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  return hipEventCreateWithFlags(e, static_cast<hipEventFlags>(flags));
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return hipEventDestroy(e); }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  return hipEventElapsedTime(ms, a, b);
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind kind,
                                   cudaStream_t s = nullptr) {
  return hipMemcpyAsync(dst, src, n, kind, s);
}
/// One host, so a peer copy is a device-to-device copy on the source's stream.
inline cudaError_t cudaMemcpyPeerAsync(void* dst, int, const void* src, int, size_t n, cudaStream_t s = nullptr) {
  return hipMemcpyAsync(dst, src, n, hipMemcpyDeviceToDevice, s);
}
inline cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s = nullptr) {
  return hipMemsetAsync(p, value, n, s);
}

// --- device intrinsics HIP-CPU lacks ---------------------------------------
// Exact IEEE operations on the host: the TT_CUDA_ON_CPU build compiles with
// -ffp-contract=off, the counterpart of nvcc's -fmad=false.

inline uint32_t __float_as_uint(float f) { return std::bit_cast<uint32_t>(f); }
inline float __uint_as_float(uint32_t u) { return std::bit_cast<float>(u); }
inline long long __double_as_longlong(double d) { return std::bit_cast<long long>(d); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
