// cuBLAS's GEMM contract on the host (cublas_v2.h): column-major, op(A),
// op(B), leading dimensions, strided batches, ordered on the handle's
// stream. Accumulates in double; one rounding to the output type.
#include <cublas_v2.h>

#include <cstdint>
#include <cstring>
#include <new>

#include "tt/half.h"

struct tt_cublas_context {
  cudaStream_t stream = nullptr;
};

namespace {

double load(const void* p, cudaDataType_t t, int64_t i) {
  switch (t) {
    case CUDA_R_16F: return tt::Half::from_bits(static_cast<const uint16_t*>(p)[i]);
    case CUDA_R_16BF: return tt::BFloat16::from_bits(static_cast<const uint16_t*>(p)[i]);
    case CUDA_R_32F: return static_cast<const float*>(p)[i];
    case CUDA_R_64F: return static_cast<const double*>(p)[i];
  }
  return 0;
}

void store(void* p, cudaDataType_t t, int64_t i, double v) {
  switch (t) {
    case CUDA_R_16F: static_cast<uint16_t*>(p)[i] = tt::Half(static_cast<float>(v)).x; return;
    case CUDA_R_16BF: static_cast<uint16_t*>(p)[i] = tt::BFloat16(static_cast<float>(v)).x; return;
    case CUDA_R_32F: static_cast<float*>(p)[i] = static_cast<float>(v); return;
    case CUDA_R_64F: static_cast<double*>(p)[i] = v; return;
  }
}

double scalar(const void* p, cublasComputeType_t c) {
  return c == CUBLAS_COMPUTE_64F ? *static_cast<const double*>(p) : *static_cast<const float*>(p);
}

// One batch entry: op(A) @ op(B) into C through the given loads (typed for
// float32 and float64, so the inner loop has no per-element switch).
template <class LoadA, class LoadB, class Store>
void product(const LoadA& load_a, const LoadB& load_b, const Store& store_c, int64_t m, int64_t n, int64_t k,
             int64_t a_row, int64_t a_col, int64_t b_row, int64_t b_col) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double acc = 0;
      for (int64_t l = 0; l < k; ++l) acc += load_a(i * a_row + l * a_col) * load_b(l * b_row + j * b_col);
      store_c(i, j, acc);
    }
}

bool known(cudaDataType_t t) { return t == CUDA_R_16F || t == CUDA_R_16BF || t == CUDA_R_32F || t == CUDA_R_64F; }

}  // namespace

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new (std::nothrow) tt_cublas_context;
  return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType_t Atype,
                                          int lda, long long strideA, const void* B, cudaDataType_t Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || k < 0 || batchCount < 0 || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (!known(Atype) || !known(Btype) || !known(Ctype)) return CUBLAS_STATUS_NOT_SUPPORTED;
  // cuBLAS's argument checks: a leading dimension covers its rows.
  const int a_rows = transa == CUBLAS_OP_N ? m : k, b_rows = transb == CUBLAS_OP_N ? k : n;
  if (lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) || ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (cudaStreamSynchronize(handle->stream) != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  const double al = scalar(alpha, computeType), be = scalar(beta, computeType);
  // op(A)[i, l] is A[i * a_row + l * a_col], column-major; likewise op(B).
  const int64_t a_row = transa == CUBLAS_OP_N ? 1 : lda, a_col = transa == CUBLAS_OP_N ? lda : 1;
  const int64_t b_row = transb == CUBLAS_OP_N ? 1 : ldb, b_col = transb == CUBLAS_OP_N ? ldb : 1;
  for (int64_t b = 0; b < batchCount; ++b) {
    const int64_t ao = b * strideA, bo = b * strideB, co = b * strideC;
    // beta == 0: C is not read (it may hold NaNs), as cuBLAS.
    auto store_c = [&](int64_t i, int64_t j, double acc) {
      const int64_t ci = co + i + j * ldc;
      store(C, Ctype, ci, be == 0 ? al * acc : al * acc + be * load(C, Ctype, ci));
    };
    if (Atype == CUDA_R_32F && Btype == CUDA_R_32F) {
      const float *a = static_cast<const float*>(A) + ao, *bb = static_cast<const float*>(B) + bo;
      product([a](int64_t x) { return static_cast<double>(a[x]); }, [bb](int64_t x) { return static_cast<double>(bb[x]); },
              store_c, m, n, k, a_row, a_col, b_row, b_col);
    } else if (Atype == CUDA_R_64F && Btype == CUDA_R_64F) {
      const double *a = static_cast<const double*>(A) + ao, *bb = static_cast<const double*>(B) + bo;
      product([a](int64_t x) { return a[x]; }, [bb](int64_t x) { return bb[x]; }, store_c, m, n, k, a_row, a_col,
              b_row, b_col);
    } else {
      product([&](int64_t x) { return load(A, Atype, ao + x); }, [&](int64_t x) { return load(B, Btype, bo + x); },
              store_c, m, n, k, a_row, a_col, b_row, b_col);
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType_t Atype, int lda, const void* B,
                            cudaDataType_t Btype, int ldb, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta,
                                    C, Ctype, ldc, 0, 1, computeType, algo);
}
