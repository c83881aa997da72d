// GPU figures for docs/performance.md: tt's conversion, elementwise and
// reduction kernels in GB/s (bytes moved) beside cudaMemcpy device to device
// in the same run, and GEMM in TFLOP/s for float32, float16 and bfloat16,
// the 16-bit ones on cuBLAS (the default) and on cuBLASLt (tt/cuda/blas.h),
// to measure which wins. Issue 24's targets: conversions >= 85% of memcpy,
// 16-bit elementwise ops and reductions >= 90%, 16-bit GEMM at or above
// PyTorch's (bench/cuda/torch_peer.py measures PyTorch's under the same
// names; tools/gpu-check runs both and compares). Times are CUDA events
// around the op on tt's stream, so host-side dispatch is included but not
// queueing delays.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <tt/cuda/blas.h>
#include <tt/cuda/stream.h>
#include <tt/tt.h>

#include <functional>
#include <string>

namespace {

bool have_gpu(benchmark::State& state) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    state.SkipWithError("no CUDA device");
    return false;
  }
  return true;
}

// Runs op per iteration, timed with events on tt's stream of cuda:0.
void timed(benchmark::State& state, const std::function<void()>& op) {
  cudaStream_t s = tt::cuda::current_stream(0);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  op();  // warm-up: pool, cuBLAS handle, kernels loaded
  tt::cuda::synchronize(0);
  for (auto _ : state) {
    cudaEventRecord(a, s);
    op();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}

void set_bytes(benchmark::State& state, double bytes) {
  state.counters["GB/s"] = benchmark::Counter(bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_MemcpyD2D(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const size_t bytes = static_cast<size_t>(state.range(0));
  tt::Tensor src = tt::zeros({static_cast<int64_t>(bytes)}, tt::TensorOptions().device(tt::kCUDA).dtype(tt::kByte));
  tt::Tensor dst = tt::empty_like(src);
  timed(state, [&] {
    cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), bytes, cudaMemcpyDeviceToDevice, tt::cuda::current_stream(0));
  });
  set_bytes(state, 2.0 * static_cast<double>(bytes));  // read + write, as the kernels below count
}

// x.to(to) for a float32 source of range(0) elements.
void BM_Convert(benchmark::State& state, tt::ScalarType from, tt::ScalarType to) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0);
  tt::Tensor x = tt::ones({n}, tt::TensorOptions().device(tt::kCUDA).dtype(from));
  timed(state, [&] { benchmark::DoNotOptimize(x.to(to)); });
  set_bytes(state, static_cast<double>(n) * (tt::element_size(from) + tt::element_size(to)));
}

void BM_Add(benchmark::State& state, tt::ScalarType dt) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0);
  tt::Tensor a = tt::ones({n}, tt::TensorOptions().device(tt::kCUDA).dtype(dt)), b = tt::ones_like(a);
  timed(state, [&] { benchmark::DoNotOptimize(a + b); });
  set_bytes(state, 3.0 * static_cast<double>(n) * tt::element_size(dt));
}

// x.sum() of range(0) elements to one value: a reduction reads each byte
// once, so GB/s counts the bytes read.
void BM_Sum(benchmark::State& state, tt::ScalarType dt) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0);
  tt::Tensor x = tt::ones({n}, tt::TensorOptions().device(tt::kCUDA).dtype(dt));
  timed(state, [&] { benchmark::DoNotOptimize(x.sum()); });
  set_bytes(state, static_cast<double>(n) * tt::element_size(dt));
}

// x.sum(0) of range(0) elements as [range(0) / cols, cols]: a reduction
// over a dim that is not the last, as a bias gradient's. 64 columns of 1M
// are too few outputs to fill the GPU (r is split over blocks); 65536 of
// 1024 are many. GB/s counts the bytes read.
void BM_SumColumns(benchmark::State& state, tt::ScalarType dt, int64_t cols) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0);
  tt::Tensor x = tt::ones({n / cols, cols}, tt::TensorOptions().device(tt::kCUDA).dtype(dt));
  timed(state, [&] { benchmark::DoNotOptimize(x.sum(0)); });
  set_bytes(state, static_cast<double>(n) * tt::element_size(dt));
}

// mm of two n x n matrices on `library` (the process-wide setting, put back after).
void BM_Gemm(benchmark::State& state, tt::ScalarType dt, tt::cuda::BlasLibrary library) {
  if (!have_gpu(state)) return;
  const tt::cuda::BlasLibrary saved = tt::cuda::preferred_blas_library();
  tt::cuda::set_preferred_blas_library(library);
  const uint64_t fallbacks = tt::cuda::cublaslt_fallbacks();
  const int64_t n = state.range(0);
  tt::Tensor a = tt::randn({n, n}, tt::TensorOptions().device(tt::kCUDA).dtype(dt)), b = tt::randn({n, n}, a.options());
  timed(state, [&] { benchmark::DoNotOptimize(tt::mm(a, b)); });
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * static_cast<double>(n) * n * n / 1e12, benchmark::Counter::kIsIterationInvariantRate);
  tt::cuda::set_preferred_blas_library(saved);
  if (tt::cuda::cublaslt_fallbacks() != fallbacks) state.SkipWithError("cuBLASLt fell back to cuBLAS: not measured");
}

// 256 MiB of float32 source: far beyond L2 (50 MiB on H100).
constexpr int64_t kElems = int64_t{64} << 20;

// The sizes every bandwidth row runs at (64M elements) and every GEMM row (n = 4096, 8192), timed by events.
void bandwidth_args(benchmark::internal::Benchmark* b) {
  b->Arg(kElems)->UseManualTime()->Unit(benchmark::kMicrosecond);
}
// Sums also at 4x: a sum reads its bytes once, so its fixed costs (the
// output's allocation, the launches, the partial sums' finish) weigh more.
void reduction_args(benchmark::internal::Benchmark* b) {
  b->Arg(kElems)->Arg(kElems * 4)->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void gemm_args(benchmark::internal::Benchmark* b) {
  b->Arg(4096)->Arg(8192)->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

// 64 MiB: the traffic of a 64M-element 16-bit sum (its 128 MiB read; a
// copy's fixed costs weigh as much there); 192 MiB and 384 MiB: the
// conversions' and adds'.
BENCHMARK(BM_MemcpyD2D)->Arg(kElems)->Arg(kElems * 3)->Arg(kElems * 6)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Convert, f32_to_f16, tt::kFloat, tt::kHalf)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Convert, f16_to_f32, tt::kHalf, tt::kFloat)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Convert, f32_to_bf16, tt::kFloat, tt::kBFloat16)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Convert, f32_to_f64, tt::kFloat, tt::kDouble)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Add, f32, tt::kFloat)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Add, f16, tt::kHalf)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Add, bf16, tt::kBFloat16)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Sum, f32, tt::kFloat)->Apply(reduction_args);
BENCHMARK_CAPTURE(BM_Sum, f16, tt::kHalf)->Apply(reduction_args);
BENCHMARK_CAPTURE(BM_Sum, bf16, tt::kBFloat16)->Apply(reduction_args);
BENCHMARK_CAPTURE(BM_SumColumns, f32_64, tt::kFloat, 64)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_SumColumns, f16_64, tt::kHalf, 64)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_SumColumns, f16_65536, tt::kHalf, 65536)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_SumColumns, bf16_64, tt::kBFloat16, 64)->Apply(bandwidth_args);
BENCHMARK_CAPTURE(BM_Gemm, f32, tt::kFloat, tt::cuda::BlasLibrary::kCublas)->Apply(gemm_args);
BENCHMARK_CAPTURE(BM_Gemm, f16, tt::kHalf, tt::cuda::BlasLibrary::kCublas)->Apply(gemm_args);
BENCHMARK_CAPTURE(BM_Gemm, bf16, tt::kBFloat16, tt::cuda::BlasLibrary::kCublas)->Apply(gemm_args);
BENCHMARK_CAPTURE(BM_Gemm, f16_cublaslt, tt::kHalf, tt::cuda::BlasLibrary::kCublasLt)->Apply(gemm_args);
BENCHMARK_CAPTURE(BM_Gemm, bf16_cublaslt, tt::kBFloat16, tt::cuda::BlasLibrary::kCublasLt)->Apply(gemm_args);

int main(int argc, char** argv) {
  cudaDeviceProp prop{};
  int driver = 0;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) benchmark::AddCustomContext("gpu", prop.name);
  if (cudaDriverGetVersion(&driver) == cudaSuccess) benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
