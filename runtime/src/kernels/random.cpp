// arange and the global random generator behind rand/randn.
#include <mutex>
#include <random>

#include "../dtype_dispatch.h"
#include "device_kernels.h"
#include "kernels.h"

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

void manual_seed(uint64_t seed) {
  if (auto* k = device_kernels(Device(kCUDA))) k->manual_seed(seed);  // torch.manual_seed seeds every device
  auto& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.engine.seed(seed);
}

void arange(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep) {
  if (auto* k = device_kernels(out.device())) return k->arange(out, start, step, istart, istep);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel; ++i) {
      if constexpr (std::is_integral_v<T>) o[i] = static_cast<T>(istart + i * istep);
      else o[i] = convert<T>(start + static_cast<double>(i) * step);
    }
  });
}

void uniform(const TensorImpl& out) {
  if (auto* k = device_kernels(out.device())) return k->uniform(out);
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

void normal(const TensorImpl& out) {
  if (auto* k = device_kernels(out.device())) return k->normal(out);
  auto& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  std::normal_distribution<double> dist(0.0, 1.0);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel; ++i) o[i] = convert<T>(dist(g.engine));
  });
}

}  // namespace tt::detail::kernels
