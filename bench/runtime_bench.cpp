// Memory-bound kernels of tt beside memcpy of the same bytes and LibTorch
// doing the same op, in one run. Throughput counts bytes read + written.
//
//   build/bin/runtime_bench --benchmark_min_time=0.2
//
// Names: <op>/<impl>/<elements> (sgd_step: <op>/<impl>/<percent subnormal>). impl is
//   memcpy     one thread copying (read+written)/2 bytes: the same traffic
//   memcpy_mt  the same split over all OpenMP threads (tt's thread count)
//   tt, torch  the op itself; for casts, "copy" writes into a preallocated
//              tensor (the kernel alone) and "to" allocates the result.
#include <benchmark/benchmark.h>
#include <tt/tt.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef TT_BENCH_WITH_TORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/optim/sgd.h>
#endif

namespace {

constexpr int64_t kMin = 1 << 10, kMax = 1 << 26;

void set_bytes(benchmark::State& st, int64_t bytes) {
  st.SetBytesProcessed(st.iterations() * bytes);
  st.counters["elements"] = static_cast<double>(st.range(0));
}

// Page-touched buffers so first-touch faults stay out of the timing.
struct Buffers {
  std::unique_ptr<char[]> src, dst;
  explicit Buffers(size_t n) : src(new char[n]), dst(new char[n]) {
    std::memset(src.get(), 1, n);
    std::memset(dst.get(), 0, n);
  }
};

void run_memcpy(benchmark::State& st, int64_t traffic, bool threaded) {
  const size_t n = static_cast<size_t>(traffic / 2);
  Buffers b(n);
  for (auto _ : st) {
#ifdef _OPENMP
    if (threaded && n >= (1 << 16)) {
#pragma omp parallel
      {
        const size_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        const size_t chunk = (n + nt - 1) / nt, lo = std::min(n, t * chunk), hi = std::min(n, lo + chunk);
        std::memcpy(b.dst.get() + lo, b.src.get() + lo, hi - lo);
      }
    } else
#endif
    {
      std::memcpy(b.dst.get(), b.src.get(), n);
    }
    benchmark::ClobberMemory();
  }
  set_bytes(st, static_cast<int64_t>(n) * 2);
}

int64_t cast_traffic(int64_t n, tt::ScalarType from, tt::ScalarType to) {
  return n * static_cast<int64_t>(tt::element_size(from) + tt::element_size(to));
}

// --- casts ----------------------------------------------------------------------
template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_memcpy(benchmark::State& st) {
  run_memcpy(st, cast_traffic(st.range(0), From, To), false);
}
template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_memcpy_mt(benchmark::State& st) {
  run_memcpy(st, cast_traffic(st.range(0), From, To), true);
}

template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_tt_copy(benchmark::State& st) {
  const int64_t n = st.range(0);
  tt::Tensor src = tt::rand({n}).to(From);
  tt::Tensor dst = tt::zeros({n}, To);
  for (auto _ : st) {
    dst.copy_(src);
    benchmark::ClobberMemory();
  }
  set_bytes(st, cast_traffic(n, From, To));
}

template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_tt_to(benchmark::State& st) {
  const int64_t n = st.range(0);
  tt::Tensor src = tt::rand({n}).to(From);
  for (auto _ : st) {
    tt::Tensor out = src.to(To);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  set_bytes(st, cast_traffic(n, From, To));
}

#ifdef TT_BENCH_WITH_TORCH
at::ScalarType torch_type(tt::ScalarType t) {
  switch (t) {
    case tt::kHalf: return at::kHalf;
    case tt::kBFloat16: return at::kBFloat16;
    default: return at::kFloat;
  }
}

template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_torch_copy(benchmark::State& st) {
  const int64_t n = st.range(0);
  at::Tensor src = at::rand({n}).to(torch_type(From));
  at::Tensor dst = at::zeros({n}, torch_type(To));
  for (auto _ : st) {
    dst.copy_(src);
    benchmark::ClobberMemory();
  }
  set_bytes(st, cast_traffic(n, From, To));
}

template <tt::ScalarType From, tt::ScalarType To>
void BM_cast_torch_to(benchmark::State& st) {
  const int64_t n = st.range(0);
  at::Tensor src = at::rand({n}).to(torch_type(From));
  for (auto _ : st) {
    at::Tensor out = src.to(torch_type(To));
    benchmark::DoNotOptimize(out.data_ptr());
  }
  set_bytes(st, cast_traffic(n, From, To));
}
#endif

// --- add and sum -------------------------------------------------------------
void BM_add_memcpy(benchmark::State& st) { run_memcpy(st, st.range(0) * 12, false); }
void BM_add_memcpy_mt(benchmark::State& st) { run_memcpy(st, st.range(0) * 12, true); }
void BM_add_tt(benchmark::State& st) {
  const int64_t n = st.range(0);
  tt::Tensor a = tt::rand({n}), b = tt::rand({n});
  for (auto _ : st) {
    tt::Tensor c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_bytes(st, n * 12);
}
void BM_sum_memcpy(benchmark::State& st) { run_memcpy(st, st.range(0) * 4, false); }
void BM_sum_memcpy_mt(benchmark::State& st) { run_memcpy(st, st.range(0) * 4, true); }
void BM_sum_tt(benchmark::State& st) {
  const int64_t n = st.range(0);
  tt::Tensor a = tt::rand({n});
  for (auto _ : st) benchmark::DoNotOptimize(a.sum().item<float>());
  set_bytes(st, n * 4);
}
#ifdef TT_BENCH_WITH_TORCH
void BM_add_torch(benchmark::State& st) {
  const int64_t n = st.range(0);
  at::Tensor a = at::rand({n}), b = at::rand({n});
  for (auto _ : st) {
    at::Tensor c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_bytes(st, n * 12);
}
void BM_sum_torch(benchmark::State& st) {
  const int64_t n = st.range(0);
  at::Tensor a = at::rand({n});
  for (auto _ : st) benchmark::DoNotOptimize(a.sum().item<float>());
  set_bytes(st, n * 4);
}
#endif

// --- SGD step through subnormals ---------------------------------------------------
// One SGD-with-momentum step of a 256 x 784 parameter (the Fashion-MNIST
// MLP's first layer) whose momentum buffer holds subnormal floats in
// range(0) percent of its elements, in runs of 64 (the buffers of inputs
// whose gradient stopped; see optimizer_step.cpp). Momentum 1 and zero
// gradients keep the buffer as it is, so every iteration meets the same
// subnormals: the same multiplies, adds and stores as a decaying buffer.
constexpr int64_t kSgdRows = 256, kSgdCols = 784;

// Bytes of one step: p, g and the buffer read, p and the buffer written.
void set_sgd_bytes(benchmark::State& st) {
  st.SetBytesProcessed(st.iterations() * kSgdRows * kSgdCols * 4 * 5);
  st.counters["subnormal_percent"] = static_cast<double>(st.range(0));
}

std::vector<float> sgd_first_gradient(int64_t percent) {
  std::vector<float> g(kSgdRows * kSgdCols, 1e-3f);
  for (size_t i = 0; i < g.size(); ++i)
    if (static_cast<int64_t>(i / 64 % 100) < percent) g[i] = 3e-39f;
  return g;
}

void BM_sgd_tt(benchmark::State& st) {
  tt::Tensor p = tt::zeros({kSgdRows, kSgdCols}).requires_grad_();
  tt::optim::SGD opt({p}, tt::optim::SGDOptions(0.05).momentum(1.0));
  p.mutable_grad() = tt::tensor(sgd_first_gradient(st.range(0))).view({kSgdRows, kSgdCols});
  opt.step();  // the buffer is the first gradient
  p.mutable_grad() = tt::zeros({kSgdRows, kSgdCols});
  for (auto _ : st) opt.step();
  set_sgd_bytes(st);
}
#ifdef TT_BENCH_WITH_TORCH
void BM_sgd_torch(benchmark::State& st) {
  at::Tensor p = at::zeros({kSgdRows, kSgdCols}).requires_grad_();
  torch::optim::SGD opt({p}, torch::optim::SGDOptions(0.05).momentum(1.0));
  std::vector<float> g = sgd_first_gradient(st.range(0));
  p.mutable_grad() = at::from_blob(g.data(), {kSgdRows, kSgdCols}).clone();
  opt.step();
  p.mutable_grad() = at::zeros({kSgdRows, kSgdCols});
  for (auto _ : st) opt.step();
  set_sgd_bytes(st);
}
#endif

#define TT_SIZES RangeMultiplier(16)->Range(kMin, kMax)->UseRealTime()

#define TT_CAST(name, F, T)                                                                  \
  BENCHMARK(BM_cast_memcpy<F, T>)->Name("cast_" name "/memcpy")->TT_SIZES;                   \
  BENCHMARK(BM_cast_memcpy_mt<F, T>)->Name("cast_" name "/memcpy_mt")->TT_SIZES;             \
  BENCHMARK(BM_cast_tt_copy<F, T>)->Name("cast_" name "/tt_copy")->TT_SIZES;                 \
  TT_TORCH(BENCHMARK(BM_cast_torch_copy<F, T>)->Name("cast_" name "/torch_copy")->TT_SIZES;) \
  BENCHMARK(BM_cast_tt_to<F, T>)->Name("cast_" name "/tt_to")->TT_SIZES;                     \
  TT_TORCH(BENCHMARK(BM_cast_torch_to<F, T>)->Name("cast_" name "/torch_to")->TT_SIZES;)

#ifdef TT_BENCH_WITH_TORCH
#define TT_TORCH(x) x
#else
#define TT_TORCH(x)
#endif

TT_CAST("f32_f16", tt::kFloat32, tt::kFloat16)
TT_CAST("f32_bf16", tt::kFloat32, tt::kBFloat16)
TT_CAST("f16_f32", tt::kFloat16, tt::kFloat32)
BENCHMARK(BM_add_memcpy)->Name("add_f32/memcpy")->TT_SIZES;
BENCHMARK(BM_add_memcpy_mt)->Name("add_f32/memcpy_mt")->TT_SIZES;
BENCHMARK(BM_add_tt)->Name("add_f32/tt")->TT_SIZES;
TT_TORCH(BENCHMARK(BM_add_torch)->Name("add_f32/torch")->TT_SIZES;)
BENCHMARK(BM_sum_memcpy)->Name("sum_f32/memcpy")->TT_SIZES;
BENCHMARK(BM_sum_memcpy_mt)->Name("sum_f32/memcpy_mt")->TT_SIZES;
BENCHMARK(BM_sum_tt)->Name("sum_f32/tt")->TT_SIZES;
TT_TORCH(BENCHMARK(BM_sum_torch)->Name("sum_f32/torch")->TT_SIZES;)
BENCHMARK(BM_sgd_tt)->Name("sgd_step_f32/tt")->Arg(0)->Arg(25)->Arg(100)->UseRealTime();
TT_TORCH(BENCHMARK(BM_sgd_torch)->Name("sgd_step_f32/torch")->Arg(0)->Arg(25)->Arg(100)->UseRealTime();)

}  // namespace

int main(int argc, char** argv) {
#ifdef TT_BENCH_WITH_TORCH
  // LibTorch picks its thread count from cpuinfo (1 on some VMs) and sets
  // the shared OpenMP runtime to it; give both libraries every CPU.
  // OMP_NUM_THREADS, when set, decides for both.
  const char* omp = std::getenv("OMP_NUM_THREADS");
  at::set_num_threads(omp && *omp ? std::atoi(omp) : static_cast<int>(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("torch_threads", std::to_string(at::get_num_threads()));
#endif
#ifdef _OPENMP
  benchmark::AddCustomContext("tt_threads", std::to_string(omp_get_max_threads()));
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
