// cuBLAS's GEMM contract on the host (cublas_v2.h): column-major, op(A),
// op(B), leading dimensions, strided batches, ordered on the handle's
// stream. Accumulates in double; one rounding to the output type.
#include <cublas_v2.h>

#include <cstdint>
#include <new>
#include <type_traits>

#include "gemm_standin.h"
#include "tt/half.h"

struct tt_cublas_context {
  cudaStream_t stream = nullptr;
};

namespace {

// f(T{}) for the element type of t.
template <class F>
void with_element_type(cudaDataType_t t, F&& f) {
  switch (t) {
    case CUDA_R_16F: return f(tt::Half{});
    case CUDA_R_16BF: return f(tt::BFloat16{});
    case CUDA_R_32F: return f(float{});
    case CUDA_R_64F: return f(double{});
  }
}

double load(const void* p, cudaDataType_t t, int64_t i) {
  double v = 0;
  with_element_type(t, [&](auto tag) { v = static_cast<double>(static_cast<const decltype(tag)*>(p)[i]); });
  return v;
}

// Rounds once to t (16-bit floats from float, as cuBLAS's float compute).
void store(void* p, cudaDataType_t t, int64_t i, double v) {
  with_element_type(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, double>)
      static_cast<T*>(p)[i] = v;
    else
      static_cast<T*>(p)[i] = T(static_cast<float>(v));
  });
}

double scalar(const void* p, cublasComputeType_t c) {
  return c == CUBLAS_COMPUTE_64F ? *static_cast<const double*>(p) : *static_cast<const float*>(p);
}

// One batch entry: op(A) @ op(B) into C, with A and B of element type T
// (tt::Half and tt::BFloat16 hold the 16-bit bits and convert to float).
template <class T, class Store>
void product(const T* a, const T* b, const Store& store_c, int64_t m, int64_t n, int64_t k, int64_t a_row,
             int64_t a_col, int64_t b_row, int64_t b_col) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double acc = 0;
      for (int64_t l = 0; l < k; ++l)
        acc += static_cast<double>(a[i * a_row + l * a_col]) * static_cast<double>(b[l * b_row + j * b_col]);
      store_c(i, j, acc);
    }
}

bool known(cudaDataType_t t) {
  bool k = false;
  with_element_type(t, [&](auto) { k = true; });
  return k;
}

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

cublasStatus_t tt::cuda_on_cpu::gemm_on_stream(cudaStream_t stream, cublasOperation_t transa, cublasOperation_t transb,
                                               int m, int n, int k, double al, const void* A, cudaDataType_t Atype,
                                               int lda, long long strideA, const void* B, cudaDataType_t Btype, int ldb,
                                               long long strideB, double be, void* C, cudaDataType_t Ctype, int ldc,
                                               long long strideC, int batchCount) {
  if (m < 0 || n < 0 || k < 0 || batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  // cuBLAS's GemmEx type table: A and B of one type.
  if (!known(Atype) || Btype != Atype || !known(Ctype)) return CUBLAS_STATUS_NOT_SUPPORTED;
  // cuBLAS's argument checks: a leading dimension covers its rows.
  const int a_rows = transa == CUBLAS_OP_N ? m : k, b_rows = transb == CUBLAS_OP_N ? k : n;
  if (lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) || ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  // op(A)[i, l] is A[i * a_row + l * a_col], column-major; likewise op(B).
  const int64_t a_row = transa == CUBLAS_OP_N ? 1 : lda, a_col = transa == CUBLAS_OP_N ? lda : 1;
  const int64_t b_row = transb == CUBLAS_OP_N ? 1 : ldb, b_col = transb == CUBLAS_OP_N ? ldb : 1;
  // The product is queued on the stream, as cuBLAS queues its kernels: the
  // host does not wait for the device.
  auto gemm = [=] {
    for (int64_t b = 0; b < batchCount; ++b) {
      const int64_t ao = b * strideA, bo = b * strideB, co = b * strideC;
      // beta == 0: C is not read (it may hold NaNs), as cuBLAS.
      auto store_c = [&](int64_t i, int64_t j, double acc) {
        const int64_t ci = co + i + j * ldc;
        store(C, Ctype, ci, be == 0 ? al * acc : al * acc + be * load(C, Ctype, ci));
      };
      with_element_type(Atype, [&](auto tag) {
        using T = decltype(tag);
        product(static_cast<const T*>(A) + ao, static_cast<const T*>(B) + bo, store_c, m, n, k, a_row, a_col, b_row,
                b_col);
      });
    }
  };
  try {
    tt::cuda_on_cpu::launch_erased(dim3(1), dim3(1), 0, stream, gemm);
  } catch (...) {
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType_t Atype,
                                          int lda, long long strideA, const void* B, cudaDataType_t Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  // Host-pointer scalars are read at the call, as cuBLAS reads them.
  return tt::cuda_on_cpu::gemm_on_stream(handle->stream, transa, transb, m, n, k, scalar(alpha, computeType), A, Atype,
                                         lda, strideA, B, Btype, ldb, strideB, scalar(beta, computeType), C, Ctype, ldc,
                                         strideC, batchCount);
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType_t Atype, int lda, const void* B,
                            cudaDataType_t Btype, int ldb, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C,
                                    Ctype, ldc, 0, 1, computeType, algo);
}
