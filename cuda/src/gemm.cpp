// Matrix products through cuBLAS: row-major tt matrices are column-major
// transposes, so C = A @ B is computed as C^T = B^T @ A^T with no copies.
// float16/bfloat16 accumulate in float32 (CUBLAS_COMPUTE_32F); float32 uses
// plain FP32 (no TF32), as PyTorch's default and the cpu's sgemm.
#include <cublas_v2.h>

#include <climits>
#include <string>

#include "check.h"
#include "device_context.h"
#include "kernel_table.h"
#include "tt/errors.h"

namespace tt::cuda_backend {

namespace {

struct GemmTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
  bool dbl;  // alpha/beta are doubles (else floats)
};

GemmTypes gemm_types(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, false};
    case ScalarType::BFloat16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F, false};
    case ScalarType::Float: return {CUDA_R_32F, CUBLAS_COMPUTE_32F, false};
    case ScalarType::Double: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, true};
    default:
      // PyTorch's CUDA matmul has no integer kernels either; same message.
      throw DTypeMismatchError("\"addmm_cuda\" not implemented for '" + std::string(to_string(t)) + "'",
                               detail::kernels::device_call_site());
  }
}

int as_int(int64_t v) {
  if (v > INT_MAX)
    throw Error("matrix dimension " + std::to_string(v) + " is too large for cuBLAS",
                detail::kernels::device_call_site());
  return static_cast<int>(v);
}

// C (row-major m x n, ldc n) = op(A) @ op(B), batched with element strides.
void run(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const void* a,
         int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b, void* c, int64_t stride_c,
         int64_t batch) {
  const GemmTypes t = gemm_types(dtype);
  if (m == 0 || n == 0 || batch == 0) return;
  auto& ctx = context(device.index());
  DeviceGuard guard(device.index());
  if (k == 0) {  // an empty sum: zeros (cuBLAS would leave beta*C to our reading of its docs)
    TT_CUDA_CHECK(cudaMemsetAsync(c, 0, static_cast<size_t>(batch * m * n) * element_size(dtype), ctx.stream));
    return;
  }
  cublasHandle_t h = cublas_handle(ctx);
  const float f1 = 1.0f, f0 = 0.0f;
  const double d1 = 1.0, d0 = 0.0;
  const void* alpha = t.dbl ? static_cast<const void*>(&d1) : &f1;
  const void* beta = t.dbl ? static_cast<const void*>(&d0) : &f0;
  const cublasOperation_t op_b = trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (batch == 1) {
    TT_CUDA_CHECK(cublasGemmEx(h, op_b, op_a, as_int(n), as_int(m), as_int(k), alpha, b, t.data, as_int(ldb), a, t.data,
                               as_int(lda), beta, c, t.data, as_int(n), t.compute, CUBLAS_GEMM_DEFAULT));
  } else {
    TT_CUDA_CHECK(cublasGemmStridedBatchedEx(h, op_b, op_a, as_int(n), as_int(m), as_int(k), alpha, b, t.data,
                                             as_int(ldb), stride_b, a, t.data, as_int(lda), stride_a, beta, c, t.data,
                                             as_int(n), stride_c, as_int(batch), t.compute, CUBLAS_GEMM_DEFAULT));
  }
}

}  // namespace

void gemm(const detail::TensorImpl& a, const detail::TensorImpl& b, const detail::TensorImpl& c, int64_t batch,
          int64_t m, int64_t k, int64_t n) {
  run(c.device(), c.dtype, false, false, m, n, k, a.data(), k, m * k, b.data(), n, k * n, c.data(), m * n, batch);
}

void gemm_2d(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
             const void* a, int64_t lda, const void* b, int64_t ldb, void* c) {
  run(device, dtype, trans_a, trans_b, m, n, k, a, lda, 0, b, ldb, 0, c, 0, 1);
}

}  // namespace tt::cuda_backend
