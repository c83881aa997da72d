// Datasets: random access to Examples (torch::data::datasets).
#pragma once

#include <cstddef>
#include <vector>

#include "tt/data/example.h"

namespace tt::data {

/// A random-access collection of examples. get_batch has a default that
/// stacks get(i); datasets held in tensors override it with a row gather.
/// Implementations must be safe to call from several threads at once
/// (DataLoader workers).
class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual size_t size() const = 0;
  /// ValueError when index >= size().
  virtual Example get(size_t index) const = 0;
  /// The examples at indices stacked along a new first dim.
  virtual Example get_batch(const std::vector<size_t>& indices) const;
};

/// Examples are rows of two cpu tensors with the same first dim
/// (torch.utils.data.TensorDataset): data[i], target[i]. ValueError if the
/// first dims differ, if either is 0-dim, or if either is not on the cpu.
class TensorDataset : public Dataset {
 public:
  TensorDataset(Tensor data, Tensor target, SourceLoc loc = SourceLoc::current());
  size_t size() const override { return size_; }
  Example get(size_t index) const override;
  /// Copies the selected rows into new contiguous tensors.
  Example get_batch(const std::vector<size_t>& indices) const override;
  const Tensor& data() const noexcept { return data_; }
  const Tensor& target() const noexcept { return target_; }

 private:
  Tensor data_, target_;
  size_t size_;
};

}  // namespace tt::data
