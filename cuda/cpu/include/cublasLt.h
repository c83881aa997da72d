// The cuBLASLt subset cuda/src/gemm.cpp calls (tt::cuda::BlasLibrary::
// kCublasLt), as a host stand-in for the TT_CUDA_ON_CPU build. It keeps the
// contract the backend relies on: layouts describe matrices as stored
// (before TRANSA/TRANSB), strided batches through layout attributes, the
// scale type's alpha/beta read at the call, a heuristic that returns an
// algorithm and the workspace it needs, the product queued on the given
// stream. The arithmetic is cublas_v2.h's stand-in (double accumulation);
// what only a GPU proves is cuBLASLt's own choice and kernels.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cublas_v2.h"

using cublasLtHandle_t = struct tt_cublaslt_context*;
using cublasLtMatmulDesc_t = struct tt_cublaslt_matmul_desc*;
using cublasLtMatrixLayout_t = struct tt_cublaslt_layout*;
using cublasLtMatmulPreference_t = struct tt_cublaslt_preference*;

struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

enum cublasLtMatmulDescAttributes_t { CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4 };
enum cublasLtMatrixLayoutAttribute_t {
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,           ///< int32_t
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,  ///< int64_t, in elements
};
enum cublasLtMatmulPreferenceAttributes_t {
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,  ///< uint64_t, default 0
  /// uint32_t, default 256: the alignment the chosen algorithm may assume of
  /// each matrix's address (the stand-in's matmul refuses a pointer that
  /// breaks it, where a GPU kernel would fault on a misaligned address).
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
};

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle);
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, size_t size);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType_t type, uint64_t rows,
                                          uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t size);
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref);
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref);
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                    size_t size);
/// One algorithm (needing no workspace, assuming the preference's
/// alignments) for every product the stand-in can compute; none
/// (returnAlgoCount 0) for unknown or mixed types.
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t pref, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t results[], int* returnAlgoCount);
/// D = alpha op(A) op(B) + beta C, queued on `stream`; D must be C (the
/// stand-in, like tt, computes in place). CUBLAS_STATUS_EXECUTION_FAILED
/// when a pointer breaks the alignment the algorithm was chosen for.
cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* A,
                              cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
                              const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t* algo, void* workspace,
                              size_t workspaceSize, cudaStream_t stream);

namespace tt::cuda_on_cpu {
/// cublasLtMatmul calls the stand-in has run, for the tests that the
/// backend's cuBLASLt path (tt::cuda::BlasLibrary::kCublasLt) is taken.
unsigned long long cublaslt_matmuls() noexcept;
}  // namespace tt::cuda_on_cpu
