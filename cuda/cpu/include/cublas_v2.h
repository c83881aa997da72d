// The cuBLAS subset cuda/src/gemm.cpp calls, as a host stand-in for the
// TT_CUDA_ON_CPU build (cuBLAS itself needs a GPU). It keeps cuBLAS's
// contract: column-major matrices, op(A) and op(B), leading dimensions,
// strided batches, alpha/beta, ordered on the handle's stream. So the
// backend's own part of a matrix product runs for real: the row-major to
// column-major swap, transposed views passed as is, leading dimensions and
// batch strides. What it cannot prove is cuBLAS's own arithmetic: it
// accumulates in double and rounds once (docs/runtime.md).
#pragma once

#include "cuda_runtime.h"

using cublasHandle_t = struct tt_cublas_context*;

enum cublasStatus_t {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
};
enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum cudaDataType_t { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
enum cublasComputeType_t { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_64F = 70 };
enum cublasGemmAlgo_t { CUBLAS_GEMM_DEFAULT = -1 };

cublasStatus_t cublasCreate(cublasHandle_t* handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
const char* cublasGetStatusName(cublasStatus_t status);

/// C = alpha op(A) op(B) + beta C, column-major; alpha and beta are double
/// for CUBLAS_COMPUTE_64F, float otherwise (as cuBLAS).
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType_t Atype, int lda, const void* B,
                            cudaDataType_t Btype, int ldb, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo);
/// cublasGemmEx for batchCount products, the i-th at A + i strideA, ...
/// (strides in elements).
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType_t Atype,
                                          int lda, long long strideA, const void* B, cudaDataType_t Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t algo);
