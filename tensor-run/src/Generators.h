// The default generator of each emulated device. A real cuda device has its
// own Philox generator, seeded by torch::manual_seed and
// torch::cuda::manual_seed_all and independent of the cpu generator; here
// each device gets its own cpu (mt19937) generator, so runs are as
// reproducible as on a GPU (not bit-identical to one) and random ops on cuda
// tensors do not advance the cpu generator.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/Device.h>

namespace tensor_run {

/// The default generator of cuda:index (0 <= index < 16), seeded with
/// PyTorch's default seed until someone seeds it.
const at::Generator& device_generator(c10::DeviceIndex index);

}  // namespace tensor_run
