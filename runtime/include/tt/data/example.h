// tt::data::Example: one sample or one batch, with LibTorch's field names.
#pragma once

#include "tt/tensor.h"

namespace tt::data {

/// data and target, e.g. images [N, 1, 28, 28] float32 and labels [N]
/// int64 for a batch. Batches from a DataLoader are on the cpu (pinned
/// when asked), as in PyTorch: moving them to the model's device is the
/// caller's job (`batch.data.to(device)`).
struct Example {
  Tensor data;
  Tensor target;
};

}  // namespace tt::data
