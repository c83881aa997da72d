/* Counts a program's calls into the CUDA runtime (libcudart.so), for the
 * host-overhead figures of tools/gpu-check (calls per training step).
 *
 *   TT_CUDA_CALLS_OUT=calls.json LD_PRELOAD=libtt_cuda_call_count.so PROGRAM ...
 *
 * At exit it writes {"cudaGetDevice": N, ...} to TT_CUDA_CALLS_OUT (stderr
 * without it). Each counted function forwards to the next definition
 * (dlsym RTLD_NEXT), so the program behaves as without the library. Only a
 * program linked against the shared libcudart can be counted (the runtime's
 * CUDA backend is); a statically linked runtime never calls these symbols
 * and every count stays 0, which the caller must treat as "not counted". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef int cudaError_t; /* an enum in cuda_runtime_api.h; int-sized in every ABI CUDA supports */
typedef void* cudaStream_t;
typedef void* cudaEvent_t;

enum {
  kGetDevice,
  kSetDevice,
  kStreamSynchronize,
  kDeviceSynchronize,
  kEventSynchronize,
  kMemcpy,
  kMemcpyAsync,
  kMallocAsync,
  kFreeAsync,
  kMalloc,
  kFree,
  kHostAlloc,
  kFreeHost,
  kMallocHost,
  kPointerGetAttributes,
  kEventRecord,
  kEventQuery,
  kLaunchKernel,
  kCount
};
static const char* const kNames[kCount] = {
    "cudaGetDevice",   "cudaSetDevice",   "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize",
    "cudaMemcpy",      "cudaMemcpyAsync", "cudaMallocAsync",       "cudaFreeAsync",         "cudaMalloc",
    "cudaFree",        "cudaHostAlloc",   "cudaFreeHost",          "cudaMallocHost",        "cudaPointerGetAttributes",
    "cudaEventRecord", "cudaEventQuery",  "cudaLaunchKernel"};
static atomic_ulong counts[kCount];

static void* next(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "cuda_call_count: %s not found after this library\n", name);
    abort();
  }
  return f;
}

#define FORWARD(index, name, params, args)                              \
  cudaError_t name params {                                             \
    static cudaError_t(*real) params;                                   \
    if (!real) real = (cudaError_t(*) params)next(#name);               \
    atomic_fetch_add_explicit(&counts[index], 1, memory_order_relaxed); \
    return real args;                                                   \
  }

FORWARD(kGetDevice, cudaGetDevice, (int* d), (d))
FORWARD(kSetDevice, cudaSetDevice, (int d), (d))
FORWARD(kStreamSynchronize, cudaStreamSynchronize, (cudaStream_t s), (s))
FORWARD(kDeviceSynchronize, cudaDeviceSynchronize, (void), ())
FORWARD(kEventSynchronize, cudaEventSynchronize, (cudaEvent_t e), (e))
FORWARD(kMemcpy, cudaMemcpy, (void* d, const void* s, size_t n, int k), (d, s, n, k))
FORWARD(kMemcpyAsync, cudaMemcpyAsync, (void* d, const void* s, size_t n, int k, cudaStream_t st), (d, s, n, k, st))
FORWARD(kMallocAsync, cudaMallocAsync, (void** p, size_t n, cudaStream_t s), (p, n, s))
FORWARD(kFreeAsync, cudaFreeAsync, (void* p, cudaStream_t s), (p, s))
FORWARD(kMalloc, cudaMalloc, (void** p, size_t n), (p, n))
FORWARD(kFree, cudaFree, (void* p), (p))
FORWARD(kHostAlloc, cudaHostAlloc, (void** p, size_t n, unsigned f), (p, n, f))
FORWARD(kFreeHost, cudaFreeHost, (void* p), (p))
FORWARD(kMallocHost, cudaMallocHost, (void** p, size_t n), (p, n))
FORWARD(kPointerGetAttributes, cudaPointerGetAttributes, (void* a, const void* p), (a, p))
FORWARD(kEventRecord, cudaEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s))
FORWARD(kEventQuery, cudaEventQuery, (cudaEvent_t e), (e))

/* dim3 is three unsigned ints, passed by value. Every way a launch reaches
 * the runtime counts as one launch: nvcc 12.x's <<<>>> calls
 * cudaLaunchKernel, CUDA 13's calls __cudaLaunchKernel (a cudaKernel_t
 * handle first, the same arguments after; _ptsz with per-thread default
 * streams), cudaLaunchKernelEx calls cudaLaunchKernelExC. */
typedef struct {
  unsigned x, y, z;
} dim3_t;
FORWARD(kLaunchKernel, cudaLaunchKernel, (const void* f, dim3_t g, dim3_t b, void** a, size_t sh, cudaStream_t s),
        (f, g, b, a, sh, s))
FORWARD(kLaunchKernel, __cudaLaunchKernel, (const void* f, dim3_t g, dim3_t b, void** a, size_t sh, cudaStream_t s),
        (f, g, b, a, sh, s))
FORWARD(kLaunchKernel, __cudaLaunchKernel_ptsz,
        (const void* f, dim3_t g, dim3_t b, void** a, size_t sh, cudaStream_t s), (f, g, b, a, sh, s))
FORWARD(kLaunchKernel, cudaLaunchKernelExC, (const void* config, const void* f, void** a), (config, f, a))

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("TT_CUDA_CALLS_OUT");
  FILE* out = path && *path ? fopen(path, "w") : stderr;
  if (!out) {
    fprintf(stderr, "cuda_call_count: cannot write %s\n", path);
    return;
  }
  fputc('{', out);
  for (int i = 0; i < kCount; ++i) fprintf(out, "%s\"%s\": %lu", i ? ", " : "", kNames[i], atomic_load(&counts[i]));
  fputs("}\n", out);
  if (out != stderr) fclose(out);
}
