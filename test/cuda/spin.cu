// A kernel that keeps one SM busy for a given time: the "compute" that an
// asynchronous copy must overlap with in test_memory.cpp.
#include <cuda_runtime.h>

namespace {
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
}  // namespace

/// Queues a kernel spinning for about `ms` milliseconds on `stream`.
cudaError_t launch_spin(cudaStream_t stream, float ms) {
  int khz = 0;
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev); e != cudaSuccess) return e;
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<long long>(ms * khz));
  return cudaGetLastError();
}
