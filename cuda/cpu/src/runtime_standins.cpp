// The CUDA runtime functions HIP-CPU lacks or gives another contract
// (cuda_runtime.h): which allocation a pointer belongs to, allocation that
// returns its pointer at once, device attributes, pools, event queries.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>

namespace {

// The counters behind tt::cuda_on_cpu::api_calls().
struct Counters {
  std::atomic<long> host_alloc{0}, free_host{0}, stream_synchronize{0}, event_synchronize{0}, event_record{0},
      get_device{0}, set_device{0}, malloc_async{0}, pointer_get_attributes{0}, kernel_launch{0};
};
Counters& counters() {
  static Counters* c = new Counters;  // leaked: counted calls may come after static destructors
  return *c;
}
void count(std::atomic<long>& c) { c.fetch_add(1, std::memory_order_relaxed); }

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
  count(counters().pointer_get_attributes);
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
cudaError_t cudaMallocAsync(void** p, size_t nbytes, cudaStream_t) {
  count(counters().malloc_async);
  return cudaMalloc(p, nbytes);
}

cudaError_t cudaFreeAsync(void* p, cudaStream_t stream) {
  forget(p);
  return hipFreeAsync(p, stream);
}

cudaError_t cudaHostAlloc(void** p, size_t nbytes, unsigned) {
  count(counters().host_alloc);
  if (!p) return cudaErrorInvalidValue;
  const cudaError_t e = checked(hipHostMalloc(p, nbytes, hipHostMallocDefault), p, nbytes);
  if (e == cudaSuccess) remember(*p, nbytes, cudaMemoryTypeHost);
  return e;
}

cudaError_t cudaFreeHost(void* p) {
  count(counters().free_host);
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

cudaError_t cudaGetDevice(int* device) {
  count(counters().get_device);
  return hipGetDevice(device);
}

cudaError_t cudaSetDevice(int device) {
  count(counters().set_device);
  return hipSetDevice(device);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  count(counters().stream_synchronize);
  return hipStreamSynchronize(stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  count(counters().event_synchronize);
  return hipEventSynchronize(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  count(counters().event_record);
  return hipEventRecord(event, stream);
}

namespace tt::cuda_on_cpu {

ApiCalls api_calls() {
  const Counters& c = counters();
  auto get = [](const std::atomic<long>& v) { return v.load(std::memory_order_relaxed); };
  ApiCalls a;
  a.host_alloc = get(c.host_alloc);
  a.free_host = get(c.free_host);
  a.stream_synchronize = get(c.stream_synchronize);
  a.event_synchronize = get(c.event_synchronize);
  a.event_record = get(c.event_record);
  a.get_device = get(c.get_device);
  a.set_device = get(c.set_device);
  a.malloc_async = get(c.malloc_async);
  a.pointer_get_attributes = get(c.pointer_get_attributes);
  a.kernel_launch = get(c.kernel_launch);
  return a;
}

void count_kernel_launch() noexcept { count(counters().kernel_launch); }

}  // namespace tt::cuda_on_cpu
