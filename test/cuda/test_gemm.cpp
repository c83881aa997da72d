// cuBLAS matrix products against the cpu's OpenBLAS: float32 and float64
// within 1e-5 / 1e-12 of the largest |C| (no TF32), float16/bfloat16 within
// 1e-2 (both accumulate in float32; the cpu rounds A and B the same way).
#include <tt/cuda/blas.h>

#include "cuda_test_util.h"
#if defined(TT_CUDA_ON_CPU)
#include <cublasLt.h>  // the stand-in's call counter
#endif

using namespace tt;
using tt_cuda_test::CudaTest;

namespace {

// Each case runs with the backend's default library; the library cases
// below run the same products on each of cuBLAS and cuBLASLt.
class CudaGemm : public CudaTest {
 protected:
  void TearDown() override {
    cuda::set_preferred_blas_library(saved_);
    CudaTest::TearDown();
  }
  cuda::BlasLibrary saved_ = cuda::preferred_blas_library();
};

void expect_close(const Tensor& gpu, const Tensor& cpu, double tol) {
  ASSERT_EQ(gpu.sizes(), cpu.sizes());
  Tensor a = gpu.cpu().to(kDouble), b = cpu.to(kDouble);
  const double err = (a - b).abs().max().item<double>();
  const double scale = std::max(1.0, b.abs().max().item<double>());
  EXPECT_LE(err, tol * scale);
}

double tol(ScalarType t) { return t == kDouble ? 1e-12 : t == kFloat ? 1e-5 : 1e-2; }

void matches_cpu_for_floating_dtypes() {
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    manual_seed(1);
    Tensor a = (rand({129, 257}, kDouble) - 0.5).to(dt), b = (rand({257, 65}, kDouble) - 0.5).to(dt);
    expect_close(matmul(a.cuda(), b.cuda()), matmul(a, b), tol(dt));
    // Transposed views (x @ W.t(), the Linear layer) go to cuBLAS as is.
    Tensor w = (rand({65, 257}, kDouble) - 0.5).to(dt);
    expect_close(matmul(a.cuda(), w.cuda().t()), matmul(a, w.t()), tol(dt));
    expect_close(matmul(a.cuda().t(), a.cuda()), matmul(a.t(), a), tol(dt));
    // Batched with a broadcast batch dimension; vector products.
    Tensor x = (rand({4, 1, 17, 33}, kDouble) - 0.5).to(dt), y = (rand({3, 33, 9}, kDouble) - 0.5).to(dt);
    expect_close(matmul(x.cuda(), y.cuda()), matmul(x, y), tol(dt));
    Tensor v = (rand({257}, kDouble) - 0.5).to(dt);
    expect_close(matmul(a.cuda(), v.cuda()), matmul(a, v), tol(dt));
    // Views at an offset into their device storage (x[1:], x[:, 1:]): their
    // addresses are only element-aligned, which cuBLASLt must be told.
    Tensor rows = (rand({130, 257}, kDouble) - 0.5).to(dt), rows_gpu = rows.cuda();
    expect_close(matmul(rows_gpu.narrow(0, 1, 129), w.cuda().t()), matmul(rows.narrow(0, 1, 129), w.t()), tol(dt));
    Tensor cols = (rand({130, 258}, kDouble) - 0.5).to(dt), cols_gpu = cols.cuda();
    expect_close(matmul(cols_gpu.narrow(0, 1, 129).narrow(1, 1, 257), b.cuda()),
                 matmul(cols.narrow(0, 1, 129).narrow(1, 1, 257), b), tol(dt));
  }
}

TEST_F(CudaGemm, MatchesCpuForFloatingDtypes) { matches_cpu_for_floating_dtypes(); }

TEST_F(CudaGemm, CublasMatchesCpu) {
  cuda::set_preferred_blas_library(cuda::BlasLibrary::kCublas);
  EXPECT_EQ(cuda::preferred_blas_library(), cuda::BlasLibrary::kCublas);
  matches_cpu_for_floating_dtypes();
}

// cuBLASLt (tt::cuda::BlasLibrary::kCublasLt, TT_BLAS_PREFER_CUBLASLT=1):
// the same products, layouts of the matrices as stored, batch strides.
TEST_F(CudaGemm, CublasLtMatchesCpu) {
  cuda::set_preferred_blas_library(cuda::BlasLibrary::kCublasLt);
  EXPECT_EQ(cuda::preferred_blas_library(), cuda::BlasLibrary::kCublasLt);
  const uint64_t fallbacks = cuda::cublaslt_fallbacks();
#if defined(TT_CUDA_ON_CPU)
  const auto before = cuda_on_cpu::cublaslt_matmuls();
#endif
  matches_cpu_for_floating_dtypes();
#if defined(TT_CUDA_ON_CPU)
  // The products went through cublasLtMatmul, not a fallback to cuBLAS: at
  // least one call for each of the seven products of each of four dtypes.
  EXPECT_GE(cuda_on_cpu::cublaslt_matmuls() - before, 28u);
#endif
  EXPECT_EQ(cuda::cublaslt_fallbacks(), fallbacks);  // every product ran on cuBLASLt (on a GPU too)
}

TEST_F(CudaGemm, EmptyInnerDimensionGivesZeros) {
  Tensor c = mm(zeros({3, 0}, kCUDA), zeros({0, 4}, kCUDA));
  EXPECT_EQ(c.abs().sum().item<double>(), 0.0);
}

TEST_F(CudaGemm, IntegerMatmulIsRefusedAsInPyTorch) {
  try {
    (void)mm(ones({2, 2}, TensorOptions().device(kCUDA).dtype(kLong)),
             ones({2, 2}, TensorOptions().device(kCUDA).dtype(kLong)));
    FAIL() << "integer matmul ran on cuda";
  } catch (const DTypeMismatchError& e) {
    EXPECT_EQ(e.message(), "\"addmm_cuda\" not implemented for 'Long'");
  }
}

}  // namespace
