// Internal to the HIP-CPU stand-ins: the GEMM contract cuBLAS and cuBLASLt
// share, implemented once (cublas_standin.cpp) for both front ends.
#pragma once

#include <cublas_v2.h>

namespace tt::cuda_on_cpu {

/// C = alpha op(A) op(B) + beta C for batchCount column-major products
/// (the i-th at A + i strideA, ... in elements), queued on `stream`; with
/// cuBLAS's argument checks (leading dimensions, A and B of one type) and
/// statuses. Accumulates in double and rounds once to C's type.
cublasStatus_t gemm_on_stream(cudaStream_t stream, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, double alpha, const void* A, cudaDataType_t Atype, int lda, long long strideA,
                              const void* B, cudaDataType_t Btype, int ldb, long long strideB, double beta, void* C,
                              cudaDataType_t Ctype, int ldc, long long strideC, int batchCount);

}  // namespace tt::cuda_on_cpu
