// arange, and rand/randn through cuRAND (Philox, one generator per device
// on its stream, seeded by tt::manual_seed). Random values are
// reproducible per seed on a device, not equal to the cpu generator's.
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

#include "check.h"
#include "device_context.h"
#include "device_types.cuh"
#include "kernel_table.h"
#include "launch_utils.h"

namespace tt::cuda_backend {

namespace {

using detail::TensorImpl;

std::atomic<uint64_t> g_seed{67280421310721ULL};  // PyTorch's default seed value
std::atomic<uint64_t> g_epoch{1};                 // bumped by every manual_seed

// The cpu's arange: integers exactly, floats as start + i * step in double
// (-fmad=false keeps that a multiply then an add), then converted.
template <class T>
__global__ void arange_kernel(T* out, int64_t n, double start, double step, int64_t istart, int64_t istep) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if constexpr (std::is_integral_v<T>)
      out[i] = static_cast<T>(istart + i * istep);
    else
      out[i] = convert<T>(start + static_cast<double>(i) * step);
  }
}

// cuRAND's uniforms lie in (0, 1]; tt's (PyTorch's) in [0, 1): 1 maps to 0,
// as does a 16-bit value that rounds up to 1 (the cpu's rule).
template <class T, class G>
__global__ void from_generated(T* out, const G* g, int64_t n, bool uniform) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    G v = g[i];
    if (uniform && v >= G(1)) v = G(0);
    T t = convert<T>(v);
    if (uniform && load_math(t) >= opmath_t<T>(1)) t = convert<T>(G(0));
    out[i] = t;
  }
}

// The device's generator, created and bound to its stream on first use and
// reseeded after a manual_seed. The caller holds ctx.mu: a cuRAND generator
// is not thread-safe (its offset advances with every call), and threads
// share one per device.
curandGenerator_t generator_locked(DeviceContext& ctx) {
  if (!ctx.curand) {
    curandGenerator_t g = nullptr;
    TT_CUDA_CHECK(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    if (curandStatus_t st = curandSetStream(g, ctx.stream); st != CURAND_STATUS_SUCCESS) {
      curandDestroyGenerator(g);  // never keep one left on the legacy stream
      TT_CUDA_CHECK(st);
    }
    ctx.curand = g;
  }
  const uint64_t epoch = g_epoch.load();
  if (ctx.seed_epoch != epoch) {
    TT_CUDA_CHECK(curandSetPseudoRandomGeneratorSeed(ctx.curand, g_seed.load()));
    TT_CUDA_CHECK(curandSetGeneratorOffset(ctx.curand, 0));
    ctx.seed_epoch = epoch;
  }
  return ctx.curand;
}

// Generates into a float (double for float64 outputs) scratch buffer of an
// even length (cuRAND's normal generator needs one), then converts.
void generate(const TensorImpl& out, bool uniform) {
  const int64_t n = out.numel;
  if (n == 0) return;
  const int dev = out.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  const bool dbl = out.dtype == ScalarType::Double;
  const int64_t even = (n + 1) / 2 * 2;
  // Allocated before taking ctx.mu: the allocation takes it too.
  Tensor scratch = detail::make_empty({even}, dbl ? ScalarType::Double : ScalarType::Float, out.device(),
                                      detail::kernels::device_call_site());
  void* s = detail::TensorAccess::shared(scratch)->data();
  {
    std::lock_guard<std::mutex> lock(ctx.mu);
    curandGenerator_t gen = generator_locked(ctx);
    if (dbl) {
      if (uniform)
        TT_CUDA_CHECK(curandGenerateUniformDouble(gen, static_cast<double*>(s), even));
      else
        TT_CUDA_CHECK(curandGenerateNormalDouble(gen, static_cast<double*>(s), even, 0.0, 1.0));
    } else {
      if (uniform)
        TT_CUDA_CHECK(curandGenerateUniform(gen, static_cast<float*>(s), even));
      else
        TT_CUDA_CHECK(curandGenerateNormal(gen, static_cast<float*>(s), even, 0.0f, 1.0f));
    }
  }
  visit_device_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      T* o = reinterpret_cast<T*>(out.data());
      if constexpr (std::is_same_v<T, double>)
        from_generated<T, double>
            <<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(o, static_cast<const double*>(s), n, uniform);
      else
        from_generated<T, float>
            <<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(o, static_cast<const float*>(s), n, uniform);
      TT_CUDA_CHECK_LAUNCH();
    } else {
      throw DTypeMismatchError(std::string(uniform ? "\"check_uniform_bounds\"" : "\"normal_kernel_cuda\"") +
                                   " not implemented for '" + std::string(to_string(out.dtype)) + "'",
                               detail::kernels::device_call_site());
    }
  });
}

}  // namespace

void launch_arange(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep) {
  const int64_t n = out.numel;
  if (n == 0) return;
  const int dev = out.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  visit_device_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    arange_kernel<T><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(reinterpret_cast<T*>(out.data()), n, start, step,
                                                                    istart, istep);
    TT_CUDA_CHECK_LAUNCH();
  });
}

void launch_uniform(const TensorImpl& out) { generate(out, true); }
void launch_normal(const TensorImpl& out) { generate(out, false); }

void set_seed(uint64_t seed) {
  g_seed.store(seed);
  g_epoch.fetch_add(1);
}

}  // namespace tt::cuda_backend
