// arange and the global random generator behind rand/randn.
#include <mutex>
#include <random>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"

namespace tt::detail::kernels {

namespace {
struct Generator {
  std::mutex mu;
  std::mt19937_64 engine{67280421310721ULL};  // PyTorch's default seed value
};
Generator& generator() {
  static Generator* g = new Generator;
  return *g;
}
}  // namespace

static void seed_device_generator_cpu(Device, uint64_t) {}  // emulated devices draw from the cpu generator

void manual_seed(uint64_t seed) {
  seed_device_generator(Device(kCUDA), seed);  // torch.manual_seed seeds every device
  auto& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.engine.seed(seed);
}

static void arange_cpu(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel; ++i) {
      if constexpr (std::is_integral_v<T>)
        o[i] = static_cast<T>(istart + i * istep);
      else
        o[i] = convert<T>(start + static_cast<double>(i) * step);
    }
  });
}

static void uniform_cpu(const TensorImpl& out) {
  auto& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel; ++i) {
      if constexpr (std::is_same_v<T, double>) {
        o[i] = static_cast<double>(g.engine() >> 11) * 0x1.0p-53;
      } else {
        // 24 random bits: exactly representable in float, never rounds to 1.
        const float u = static_cast<float>(g.engine() >> 40) * 0x1.0p-24f;
        T v = convert<T>(u);
        if (static_cast<float>(opmath_t<T>(v)) >= 1.0f) v = convert<T>(0.0f);  // 16-bit rounding up to 1
        o[i] = v;
      }
    }
  });
}

static void normal_cpu(const TensorImpl& out) {
  auto& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  std::normal_distribution<double> dist(0.0, 1.0);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel; ++i) o[i] = convert<T>(dist(g.engine));
  });
}

TT_DEFINE_DISPATCH(seed_device_generator, seed_device_generator_cpu);
TT_DEFINE_DISPATCH(arange, arange_cpu);
TT_DEFINE_DISPATCH(uniform, uniform_cpu);
TT_DEFINE_DISPATCH(normal, normal_cpu);

}  // namespace tt::detail::kernels
