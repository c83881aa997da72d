// Public: which NVIDIA library multiplies matrices on a GPU, as PyTorch's
// torch.backends.cuda.preferred_blas_library (at::BlasBackend) lets a user
// choose between cuBLAS and cuBLASLt.
#pragma once

#include <cstdint>

namespace tt::cuda {

/// The libraries tt's GPU matrix products can run on.
enum class BlasLibrary {
  kCublas,    ///< cublasGemmEx / cublasGemmStridedBatchedEx (PyTorch's default on CUDA)
  kCublasLt,  ///< cublasLtMatmul with its heuristic's first algorithm and a 32 MiB workspace per device
};

/// The library mm, bmm, matmul and Linear use on a GPU from now on, for
/// every device and thread (a process-wide setting, as PyTorch's).
void set_preferred_blas_library(BlasLibrary library) noexcept;

/// The library in use: what set_preferred_blas_library() last set, else
/// what TT_BLAS_PREFER_CUBLASLT says (1: cuBLASLt; 0 or unset: cuBLAS;
/// anything else throws tt::ConfigurationError naming the variable), as
/// PyTorch reads TORCH_BLAS_PREFER_CUBLASLT.
BlasLibrary preferred_blas_library();

/// Products that asked for cuBLASLt and ran on cuBLAS instead, since the
/// process started (cuBLASLt's heuristic offered no algorithm, or it refused
/// the call as unsupported): how a benchmark of cuBLASLt knows it measured
/// cuBLASLt.
uint64_t cublaslt_fallbacks() noexcept;

}  // namespace tt::cuda
