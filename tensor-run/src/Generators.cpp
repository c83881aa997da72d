#include "Generators.h"

#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GeneratorImpl.h>
#include <c10/util/Exception.h>

#include <array>

namespace tensor_run {

const at::Generator& device_generator(c10::DeviceIndex index) {
  static const auto* generators = [] {
    auto* g = new std::array<at::Generator, 16>;  // leaked: used until exit
    for (auto& gen : *g) gen = at::make_generator<at::CPUGeneratorImpl>(c10::default_rng_seed_val);
    return g;
  }();
  TORCH_CHECK(index >= 0 && index < 16, "CUDA error: invalid device ordinal");
  return (*generators)[static_cast<size_t>(index)];
}

}  // namespace tensor_run
