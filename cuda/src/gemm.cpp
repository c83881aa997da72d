// Matrix products through cuBLAS or cuBLASLt (tt/cuda/blas.h): row-major tt
// matrices are column-major transposes, so C = A @ B is computed as
// C^T = B^T @ A^T with no copies. float16/bfloat16 accumulate in float32
// (CUBLAS_COMPUTE_32F); float32 uses plain FP32 (no TF32), as PyTorch's
// default and the cpu's sgemm.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>

#include "check.h"
#include "device_context.h"
#include "environment.h"
#include "kernel_table.h"
#include "tt/cuda/blas.h"
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

// -1 until the first product reads TT_BLAS_PREFER_CUBLASLT, then a BlasLibrary.
std::atomic<int> preferred{-1};
std::atomic<uint64_t> lt_fallbacks{0};

// The descriptors of one cublasLtMatmul call, destroyed with it.
struct LtCall {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t x = nullptr, y = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  LtCall() = default;
  LtCall(const LtCall&) = delete;
  LtCall& operator=(const LtCall&) = delete;
  ~LtCall() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    for (cublasLtMatrixLayout_t l : {x, y, c})
      if (l) cublasLtMatrixLayoutDestroy(l);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

// A column-major rows x cols matrix with leading dimension ld, `batch` of
// them `stride` elements apart, into `out` (owned by the LtCall from the
// start, so an attribute that fails leaks nothing).
void lt_layout(cublasLtMatrixLayout_t* out, cudaDataType_t type, int64_t rows, int64_t cols, int64_t ld, int32_t batch,
               int64_t stride) {
  TT_CUDA_CHECK(cublasLtMatrixLayoutCreate(out, type, static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), ld));
  if (batch > 1) {
    TT_CUDA_CHECK(cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
    TT_CUDA_CHECK(
        cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)));
  }
}

// The largest power of two up to 256 dividing p: what cuBLASLt may assume
// of a matrix's address. Its heuristic assumes 256 unless told (tt passes
// views at their storage offset: x[:, 1:], narrowed batches), and a kernel
// chosen for a wider alignment faults with a misaligned address, as
// PyTorch's gemm_internal_cublaslt learned.
uint32_t alignment_of(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  uint32_t align = 256;
  while (align > 1 && a % align != 0) align /= 2;
  return align;
}

void set_alignment(cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr, const void* p) {
  const uint32_t align = alignment_of(p);
  TT_CUDA_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, attr, &align, sizeof(align)));
}

// Column-major C (m x n, ldc) = op_x(X) (m x k) @ op_y(Y) (k x n) through
// cublasLtMatmul with the heuristic's first algorithm for these shapes,
// types and alignments, as PyTorch's gemm_internal_cublaslt; false where
// the heuristic offers none or cuBLASLt refuses the call as unsupported
// (the caller then uses cublasGemmEx).
bool run_lt(DeviceContext& ctx, const GemmTypes& t, cublasOperation_t op_x, cublasOperation_t op_y, int m, int n, int k,
            const void* alpha, const void* x, int ldx, int64_t stride_x, const void* y, int ldy, int64_t stride_y,
            const void* beta, void* c, int ldc, int64_t stride_c, int batch) {
  const LtResources lt = cublaslt(ctx);
  LtCall call;
  TT_CUDA_CHECK(cublasLtMatmulDescCreate(&call.op, t.compute, t.dbl ? CUDA_R_64F : CUDA_R_32F));
  const int32_t tx = op_x, ty = op_y;
  TT_CUDA_CHECK(cublasLtMatmulDescSetAttribute(call.op, CUBLASLT_MATMUL_DESC_TRANSA, &tx, sizeof(tx)));
  TT_CUDA_CHECK(cublasLtMatmulDescSetAttribute(call.op, CUBLASLT_MATMUL_DESC_TRANSB, &ty, sizeof(ty)));
  // Layouts describe the matrices as stored, before op.
  if (op_x == CUBLAS_OP_N)
    lt_layout(&call.x, t.data, m, k, ldx, batch, stride_x);
  else
    lt_layout(&call.x, t.data, k, m, ldx, batch, stride_x);
  if (op_y == CUBLAS_OP_N)
    lt_layout(&call.y, t.data, k, n, ldy, batch, stride_y);
  else
    lt_layout(&call.y, t.data, n, k, ldy, batch, stride_y);
  lt_layout(&call.c, t.data, m, n, ldc, batch, stride_c);
  TT_CUDA_CHECK(cublasLtMatmulPreferenceCreate(&call.pref));
  const uint64_t workspace = lt.workspace_bytes;
  TT_CUDA_CHECK(cublasLtMatmulPreferenceSetAttribute(call.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                     sizeof(workspace)));
  set_alignment(call.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, x);
  set_alignment(call.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, y);
  set_alignment(call.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, c);
  set_alignment(call.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, c);
  cublasLtMatmulHeuristicResult_t best{};
  int found = 0;
  if (cublasLtMatmulAlgoGetHeuristic(lt.handle, call.op, call.x, call.y, call.c, call.c, call.pref, 1, &best, &found) !=
          CUBLAS_STATUS_SUCCESS ||
      found == 0 || best.state != CUBLAS_STATUS_SUCCESS)
    return false;
  const cublasStatus_t st = cublasLtMatmul(lt.handle, call.op, alpha, x, call.x, y, call.y, beta, c, call.c, c, call.c,
                                           &best.algo, lt.workspace, lt.workspace_bytes, ctx.stream);
  if (st == CUBLAS_STATUS_NOT_SUPPORTED) return false;
  TT_CUDA_CHECK(st);
  return true;
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
  const float f1 = 1.0f, f0 = 0.0f;
  const double d1 = 1.0, d0 = 0.0;
  const void* alpha = t.dbl ? static_cast<const void*>(&d1) : &f1;
  const void* beta = t.dbl ? static_cast<const void*>(&d0) : &f0;
  const cublasOperation_t op_b = trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (cuda::preferred_blas_library() == cuda::BlasLibrary::kCublasLt) {
    if (run_lt(ctx, t, op_b, op_a, as_int(n), as_int(m), as_int(k), alpha, b, as_int(ldb), stride_b, a, as_int(lda),
               stride_a, beta, c, as_int(n), stride_c, as_int(batch)))
      return;
    lt_fallbacks.fetch_add(1, std::memory_order_relaxed);
  }
  cublasHandle_t h = cublas_handle(ctx);
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

namespace tt::cuda {

void set_preferred_blas_library(BlasLibrary library) noexcept {
  cuda_backend::preferred.store(static_cast<int>(library), std::memory_order_relaxed);
}

uint64_t cublaslt_fallbacks() noexcept { return cuda_backend::lt_fallbacks.load(std::memory_order_relaxed); }

BlasLibrary preferred_blas_library() {
  int p = cuda_backend::preferred.load(std::memory_order_relaxed);
  if (p < 0) {
    // Read once (a bad value throws here, at the first product, and again at the next).
    const int from_env =
        static_cast<int>(detail::env_prefer_cublaslt() ? BlasLibrary::kCublasLt : BlasLibrary::kCublas);
    cuda_backend::preferred.compare_exchange_strong(p, from_env, std::memory_order_relaxed);
    p = cuda_backend::preferred.load(std::memory_order_relaxed);
  }
  return static_cast<BlasLibrary>(p);
}

}  // namespace tt::cuda
