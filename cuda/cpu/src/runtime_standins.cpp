// The CUDA runtime functions HIP-CPU lacks or gives another contract
// (cuda_runtime.h): which allocation a pointer belongs to, allocation that
// returns its pointer at once, device attributes, pools, event queries.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>

namespace {

// Live allocations by start address: cudaPointerGetAttributes answers for
// interior pointers too, as CUDA does.
struct Allocation {
  size_t nbytes;
  cudaMemoryType type;
};
struct Registry {
  std::mutex mu;
  std::map<uintptr_t, Allocation> live;
};
Registry& registry() {
  static Registry* r = new Registry;  // leaked: tensors outlive static destructors
  return *r;
}

void remember(void* p, size_t nbytes, cudaMemoryType type) {
  if (!p) return;
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.live[reinterpret_cast<uintptr_t>(p)] = {nbytes == 0 ? 1 : nbytes, type};
}

void forget(void* p) {
  if (!p) return;
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.live.erase(reinterpret_cast<uintptr_t>(p));
}

}  // namespace

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* p) {
  if (!attr) return cudaErrorInvalidValue;
  *attr = cudaPointerAttributes{};
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  const auto u = reinterpret_cast<uintptr_t>(p);
  auto it = r.live.upper_bound(u);
  if (it == r.live.begin()) return cudaSuccess;
  --it;
  if (u - it->first >= it->second.nbytes) return cudaSuccess;
  attr->type = it->second.type;
  attr->devicePointer = attr->hostPointer = const_cast<void*>(p);
  return cudaSuccess;
}

namespace {
// HIP-CPU's allocate tests the out-parameter, not the pointer malloc
// returned, so a failed allocation reports success with a null pointer:
// CUDA's answer is cudaErrorMemoryAllocation.
cudaError_t checked(cudaError_t e, void** p, size_t nbytes) {
  if (e == cudaSuccess && nbytes > 0 && !*p) return cudaErrorMemoryAllocation;
  return e;
}
}  // namespace

cudaError_t cudaMalloc(void** p, size_t nbytes) {
  if (!p) return cudaErrorInvalidValue;
  const cudaError_t e = checked(hipMalloc(p, nbytes), p, nbytes);
  if (e == cudaSuccess) remember(*p, nbytes, cudaMemoryTypeDevice);
  return e;
}

cudaError_t cudaFree(void* p) {
  forget(p);
  return hipFree(p);
}

// HIP-CPU's hipMallocAsync queues the malloc and sets *p only when the
// stream reaches it; the backend passes the pointer to kernels at once, as
// CUDA allows. Host memory is usable by every later task, so allocating now
// keeps stream order.
cudaError_t cudaMallocAsync(void** p, size_t nbytes, cudaStream_t) { return cudaMalloc(p, nbytes); }

cudaError_t cudaFreeAsync(void* p, cudaStream_t stream) {
  forget(p);
  return hipFreeAsync(p, stream);
}

cudaError_t cudaHostAlloc(void** p, size_t nbytes, unsigned) {
  if (!p) return cudaErrorInvalidValue;
  const cudaError_t e = checked(hipHostMalloc(p, nbytes, hipHostMallocDefault), p, nbytes);
  if (e == cudaSuccess) remember(*p, nbytes, cudaMemoryTypeHost);
  return e;
}

cudaError_t cudaFreeHost(void* p) {
  forget(p);
  return hipHostFree(p);
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return cudaErrorInvalidValue;
  hipDeviceProp_t prop{};
  if (const hipError_t e = hipGetDeviceProperties(&prop, device); e != hipSuccess) return e;
  switch (attr) {
    case cudaDevAttrClockRate: *value = prop.clockRate; return cudaSuccess;
    case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  int n = 0;
  if (!pool || hipGetDeviceCount(&n) != hipSuccess || device < 0 || device >= n) return cudaErrorInvalidValue;
  static int token;
  *pool = reinterpret_cast<cudaMemPool_t>(&token);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr, void* value) {
  return pool && value ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!event) return hipErrorInvalidHandle;
  const auto& done = is_done(*event);
  if (!done.valid()) return cudaSuccess;  // never recorded: nothing to wait for
  return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? cudaSuccess : cudaErrorNotReady;
}
