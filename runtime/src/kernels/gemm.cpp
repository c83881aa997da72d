// Matrix products: oneDNN for float32 (OpenBLAS without it), OpenBLAS for
// float64; float16/bfloat16 convert tiles to float32 and use the float32
// product; integers use a plain triple loop.
#include <cblas.h>
#if TT_WITH_ONEDNN
#include <dnnl.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <vector>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/loops.h"
#include "kernels/parallel.h"

namespace tt::detail::kernels {

namespace {

// C = op(A) * op(B) in float32, row-major, all of C's rows. oneDNN picks
// its kernels by the CPU it runs on and threads over OpenMP, the pool of
// tt's other kernels; OpenBLAS runs single-threaded (use_one_thread_pool)
// and is split by rows over that pool.
void sgemm_rows(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                const float* b, int64_t ldb, float* c, int64_t ldc);

// Rows of A converted per tile: bounds the float32 scratch to
// kTileRows x (k + n) floats beside B's copy.
constexpr int64_t kTileRows = 256;

template <class T>
void gemm_16bit(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  std::vector<float> bf(static_cast<size_t>(k * n));
  for (int64_t i = 0; i < k * n; ++i) bf[i] = float(b[i]);
  std::vector<float> af(static_cast<size_t>(std::min(m, kTileRows) * k));
  std::vector<float> cf(static_cast<size_t>(std::min(m, kTileRows) * n));
  for (int64_t r0 = 0; r0 < m; r0 += kTileRows) {
    const int64_t rows = std::min(kTileRows, m - r0);
    for (int64_t i = 0; i < rows * k; ++i) af[i] = float(a[r0 * k + i]);
    sgemm_rows(false, false, rows, n, k, af.data(), k, bf.data(), n, cf.data(), n);
    for (int64_t i = 0; i < rows * n; ++i) c[r0 * n + i] = T(cf[i]);
  }
}

template <class T>
void gemm_plain(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  std::fill(c, c + m * n, T(0));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const T av = a[i * k + p];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] = static_cast<T>(c[i * n + j] + av * b[p * n + j]);
    }
}

// One thread pool. OpenBLAS's pthreads build busy-waits in its own
// threads while OpenMP's workers (the elementwise kernels) spin after their
// regions; on a 2-core machine the two pools starve each other and a
// training step can take 10x longer under load. So OpenBLAS runs
// single-threaded and tt splits large products by rows over OpenMP.
void use_one_thread_pool() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

// Row r of op(A), A row-major with leading dimension lda: row r of A, or
// column r of A when transposed.
template <class T>
const T* op_row(const T* a, bool trans_a, int64_t r, int64_t lda) {
  return trans_a ? a + r : a + r * lda;
}

// Column j of op(B): column j of B, or row j of B when transposed.
template <class T>
const T* op_col(const T* b, bool trans_b, int64_t j, int64_t ldb) {
  return trans_b ? b + j * ldb : b + j;
}

// Rows per OpenMP chunk: at least 16M multiply-adds each (a few ms), so
// the small products of a training step stay on one thread (see
// kParallelGrain for why regions are expensive) and large ones split.
int64_t row_grain(int64_t k, int64_t n) {
  return std::max<int64_t>(1, (int64_t{1} << 24) / std::max<int64_t>(1, k * n));
}

#if TT_WITH_ONEDNN
// How oneDNN's sgemm is threaded, by size in multiply-adds (measured on the
// 2-core dev VM, docs/performance.md, session 11): each thread gets at
// least kGemmOneThread, as a second thread on less costs more than it saves
// (64x10x256: 2.8 us on one, 3.7 us on two); up to kGemmOwnThreads blocks
// of C, one single-threaded call per thread, beat oneDNN's own split
// (64x256x784: 77 -> 63 us on two threads), which wins on large products
// (1024^3: 4.7-5.2 ms against 4.9-5.5 ms).
constexpr int64_t kGemmOneThread = int64_t{1} << 21;
constexpr int64_t kGemmOwnThreads = int64_t{1} << 26;

bool dnnl_sgemm_ok(char ta, char tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                   int64_t ldb, float* c, int64_t ldc) {
  return dnnl_sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc) == dnnl_success;
}

// C = op(A) op(B) through oneDNN; false where oneDNN refuses the arguments.
bool sgemm_onednn(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc) {
  const char ta = trans_a ? 'T' : 'N', tb = trans_b ? 'T' : 'N';
  int64_t macs = 0;  // m*n and k*n are element counts; their product with k or m may not fit
  if (__builtin_mul_overflow(m * n, k, &macs)) macs = INT64_MAX;
  if (macs >= kGemmOwnThreads || in_parallel()) return dnnl_sgemm_ok(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  const int64_t threads = std::min<int64_t>(max_threads(), macs / kGemmOneThread);
  OneThreadScope one_thread;  // each call below on one thread (this one's setting; workers run nested regions alone)
  if (threads <= 1) return dnnl_sgemm_ok(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  std::atomic<bool> ok{true};
  // Split the largest operand and share the others: blocks of rows of C
  // take rows of op(A), blocks of columns take columns of op(B). Rows of C
  // are also the chunks the next elementwise op over C gives each thread
  // (a weight gradient's optimizer step), so its data is in that cache.
  if (std::max(m * k, m * n) >= k * n) {  // blocks of rows of C: rows of op(A)
    parallel_for_threads(m, threads, [&](int64_t r0, int64_t r1) {
      if (!dnnl_sgemm_ok(ta, tb, r1 - r0, n, k, op_row(a, trans_a, r0, lda), lda, b, ldb, c + r0 * ldc, ldc))
        ok = false;
    });
  } else {  // blocks of columns of C: columns of op(B)
    parallel_for_threads(n, threads, [&](int64_t j0, int64_t j1) {
      if (!dnnl_sgemm_ok(ta, tb, m, j1 - j0, k, a, lda, op_col(b, trans_b, j0, ldb), ldb, c + j0, ldc)) ok = false;
    });
  }
  return ok;
}
#endif

// C = op(A) op(B) through OpenBLAS (float32 without oneDNN, float64: oneDNN
// has no dgemm), single-threaded calls over blocks of rows split by OpenMP.
template <class T>
void blas_rows(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
               int64_t ldb, T* c, int64_t ldc) {
  use_one_thread_pool();
  const auto ta = trans_a ? CblasTrans : CblasNoTrans, tb = trans_b ? CblasTrans : CblasNoTrans;
  parallel_for(m, row_grain(k, n), [&](int64_t r0, int64_t r1) {
    const auto rows = static_cast<int>(r1 - r0);
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, rows, static_cast<int>(n), static_cast<int>(k), 1.0f,
                  op_row(a, trans_a, r0, lda), static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f, c + r0 * ldc,
                  static_cast<int>(ldc));
    else
      cblas_dgemm(CblasRowMajor, ta, tb, rows, static_cast<int>(n), static_cast<int>(k), 1.0,
                  op_row(a, trans_a, r0, lda), static_cast<int>(lda), b, static_cast<int>(ldb), 0.0, c + r0 * ldc,
                  static_cast<int>(ldc));
  });
}

void sgemm_rows(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                const float* b, int64_t ldb, float* c, int64_t ldc) {
#if TT_WITH_ONEDNN
  if (sgemm_onednn(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc)) return;
  // oneDNN refuses only what OpenBLAS below refuses too (bad leading
  // dimensions); let OpenBLAS say so.
#endif
  blas_rows(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace

static void gemm_cpu(const TensorImpl& at, const TensorImpl& bt, const TensorImpl& ct, int64_t batch, int64_t m,
                     int64_t k, int64_t n) {
  visit_dtype(at.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = reinterpret_cast<const T*>(at.data());
    const T* b = reinterpret_cast<const T*>(bt.data());
    T* c = reinterpret_cast<T*>(ct.data());
    for (int64_t i = 0; i < batch; ++i) {
      const T* ai = a + i * m * k;
      const T* bi = b + i * k * n;
      T* ci = c + i * m * n;
      if (m == 0 || n == 0) continue;
      if (k == 0) {
        std::fill(ci, ci + m * n, T(0));
        continue;
      }
      if constexpr (std::is_same_v<T, float>) {
        sgemm_rows(false, false, m, n, k, ai, k, bi, n, ci, n);
      } else if constexpr (std::is_same_v<T, double>) {
        blas_rows(false, false, m, n, k, ai, k, bi, n, ci, n);
      } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        gemm_16bit<T>(ai, bi, ci, m, k, n);
      } else if constexpr (!std::is_same_v<T, bool>) {
        gemm_plain<T>(ai, bi, ci, m, k, n);
      }
    }
  });
}

static void gemm_2d_cpu(Device /*host memory*/, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n,
                        int64_t k, const void* a, int64_t lda, const void* b, int64_t ldb, void* c) {
  if (m == 0 || n == 0) return;
  if (dtype == ScalarType::Float) {
    sgemm_rows(trans_a, trans_b, m, n, k, static_cast<const float*>(a), lda, static_cast<const float*>(b), ldb,
               static_cast<float*>(c), n);
    return;
  }
  blas_rows(trans_a, trans_b, m, n, k, static_cast<const double*>(a), lda, static_cast<const double*>(b), ldb,
            static_cast<double*>(c), n);
}

TT_DEFINE_DISPATCH(gemm, gemm_cpu);
TT_DEFINE_DISPATCH(gemm_2d, gemm_2d_cpu);

}  // namespace tt::detail::kernels
