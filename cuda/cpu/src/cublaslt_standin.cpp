// cuBLASLt's matmul contract on the host (cublasLt.h): descriptors as plain
// structs, the arithmetic through gemm_on_stream (shared with cuBLAS's
// stand-in), so the backend's own part of a cuBLASLt product runs for real:
// layouts of matrices as stored, transposes, batch strides, scale types.
#include <cublasLt.h>

#include <atomic>
#include <cstring>
#include <new>

#include "gemm_standin.h"

struct tt_cublaslt_context {};
struct tt_cublaslt_matmul_desc {
  cublasComputeType_t compute;
  cudaDataType_t scale;
  int32_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
};
struct tt_cublaslt_layout {
  cudaDataType_t type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch = 1;
  int64_t stride = 0;
};
struct tt_cublaslt_preference {
  uint64_t max_workspace = 0;
  uint32_t align[4] = {256, 256, 256, 256};  // A, B, C, D: cuBLASLt's defaults
};

namespace {

std::atomic<unsigned long long> matmuls{0};

template <class T>
cublasStatus_t create(T** out) {
  if (!out) return CUBLAS_STATUS_INVALID_VALUE;
  *out = new (std::nothrow) T{};
  return *out ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

template <class T>
cublasStatus_t destroy(T* p) {
  delete p;
  return CUBLAS_STATUS_SUCCESS;
}

// Attribute buffers must have the attribute's exact size, as cuBLASLt checks.
template <class T>
cublasStatus_t set(T* field, const void* buf, size_t size) {
  if (!buf || size != sizeof(T)) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(field, buf, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

double scalar(const void* p, cudaDataType_t scale) {
  return scale == CUDA_R_64F ? *static_cast<const double*>(p) : *static_cast<const float*>(p);
}

// The stand-in computes what cublasGemmEx computes: A and B of one type, C
// of a known one, one batch count everywhere.
bool supported(const tt_cublaslt_layout* a, const tt_cublaslt_layout* b, const tt_cublaslt_layout* c) {
  return a && b && c && a->type == b->type && a->batch == b->batch && b->batch == c->batch &&
         (a->type == CUDA_R_32F || a->type == CUDA_R_64F || a->type == CUDA_R_16F || a->type == CUDA_R_16BF);
}

}  // namespace

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) { return create(handle); }
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) { return destroy(handle); }

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
  const cublasStatus_t st = create(desc);
  if (st == CUBLAS_STATUS_SUCCESS) {
    (*desc)->compute = computeType;
    (*desc)->scale = scaleType;
  }
  return st;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) { return destroy(desc); }
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, size_t size) {
  if (!desc) return CUBLAS_STATUS_NOT_INITIALIZED;
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_TRANSA: return set(&desc->transa, buf, size);
    case CUBLASLT_MATMUL_DESC_TRANSB: return set(&desc->transb, buf, size);
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType_t type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  const cublasStatus_t st = create(layout);
  if (st == CUBLAS_STATUS_SUCCESS) **layout = tt_cublaslt_layout{type, rows, cols, ld};
  return st;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) { return destroy(layout); }
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t size) {
  if (!layout) return CUBLAS_STATUS_NOT_INITIALIZED;
  switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return set(&layout->batch, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return set(&layout->stride, buf, size);
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) { return create(pref); }
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) { return destroy(pref); }
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                    size_t size) {
  if (!pref) return CUBLAS_STATUS_NOT_INITIALIZED;
  switch (attr) {
    case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: return set(&pref->max_workspace, buf, size);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
      return set(&pref->align[attr - CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES], buf, size);
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t,
                                              cublasLtMatmulPreference_t pref, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t results[], int* returnAlgoCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!desc || !pref || requestedAlgoCount < 1 || !results || !returnAlgoCount) return CUBLAS_STATUS_INVALID_VALUE;
  *returnAlgoCount = 0;
  if (!supported(Adesc, Bdesc, Cdesc)) return CUBLAS_STATUS_NOT_SUPPORTED;  // as cuBLASLt: no algorithm
  results[0] = {};
  for (int i = 0; i < 4; ++i) results[0].algo.data[i] = pref->align[i];  // what the "kernel" assumes
  results[0].workspaceSize = 0;
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *returnAlgoCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* A,
                              cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
                              const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t* algo, void*, size_t,
                              cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!desc || !alpha || !beta || !algo || !supported(Adesc, Bdesc, Cdesc) || D != C || Ddesc != Cdesc)
    return CUBLAS_STATUS_INVALID_VALUE;
  // op(A) is m x k, op(B) k x n, C m x n; the layouts are the stored shapes.
  const bool ta = desc->transa != CUBLAS_OP_N, tb = desc->transb != CUBLAS_OP_N;
  const uint64_t m = Cdesc->rows, n = Cdesc->cols, k = ta ? Adesc->rows : Adesc->cols;
  if ((ta ? Adesc->cols : Adesc->rows) != m || (tb ? Bdesc->cols : Bdesc->rows) != k ||
      (tb ? Bdesc->rows : Bdesc->cols) != n || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
    return CUBLAS_STATUS_INVALID_VALUE;
  // Leading dimensions cover the stored rows (gemm_on_stream checks them against op's).
  if (Adesc->ld < static_cast<int64_t>(Adesc->rows) || Bdesc->ld < static_cast<int64_t>(Bdesc->rows))
    return CUBLAS_STATUS_INVALID_VALUE;
  // A kernel chosen for a wider alignment than a pointer has faults on a GPU.
  const void* pointers[4] = {A, B, C, D};
  for (int i = 0; i < 4; ++i)
    if (algo->data[i] == 0 || reinterpret_cast<uintptr_t>(pointers[i]) % algo->data[i] != 0)
      return CUBLAS_STATUS_EXECUTION_FAILED;
  matmuls.fetch_add(1, std::memory_order_relaxed);
  return tt::cuda_on_cpu::gemm_on_stream(
      stream, static_cast<cublasOperation_t>(desc->transa), static_cast<cublasOperation_t>(desc->transb),
      static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), scalar(alpha, desc->scale), A, Adesc->type,
      static_cast<int>(Adesc->ld), Adesc->stride, B, Bdesc->type, static_cast<int>(Bdesc->ld), Bdesc->stride,
      scalar(beta, desc->scale), D, Cdesc->type, static_cast<int>(Cdesc->ld), Cdesc->stride, Cdesc->batch);
}

unsigned long long tt::cuda_on_cpu::cublaslt_matmuls() noexcept { return matmuls.load(std::memory_order_relaxed); }
