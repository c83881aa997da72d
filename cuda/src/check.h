// Internal: every CUDA, cuBLAS and cuRAND status passes through check(),
// which turns a failure into a tt::Error carrying the library's error
// string and the user's call site (the op dispatch is running).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <curand.h>

#include <source_location>

#include "kernels/dispatch_stub.h"

namespace tt::cuda_backend {

/// Throws tt::Error "CUDA error: <cudaGetErrorString> (<what>)" at `where`
/// unless err is cudaSuccess; out-of-memory becomes PyTorch's "CUDA out of
/// memory." wording. Resets the (non-sticky) last error so the next check
/// does not report it again.
void check(cudaError_t err, const char* what, const std::source_location& where);
/// The same for cuBLAS statuses ("cuBLAS error: CUBLAS_STATUS_...").
void check(cublasStatus_t st, const char* what, const std::source_location& where);
/// The same for cuRAND statuses ("cuRAND error: <number>").
void check(curandStatus_t st, const char* what, const std::source_location& where);

}  // namespace tt::cuda_backend

/// Checks a CUDA/cuBLAS/cuRAND call; errors name the user's op site.
#define TT_CUDA_CHECK(expr) ::tt::cuda_backend::check((expr), #expr, ::tt::detail::kernels::device_call_site())
/// After a kernel launch: launch-configuration errors surface here, not later.
#define TT_CUDA_CHECK_LAUNCH() TT_CUDA_CHECK(cudaGetLastError())
