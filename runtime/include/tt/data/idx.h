// The IDX format of MNIST and Fashion-MNIST (yann.lecun.com/exdb/mnist),
// gzip-compressed or not, and the MNIST dataset on top of it.
#pragma once

#include <string>
#include <utility>

#include "tt/data/dataset.h"

namespace tt::data {

/// Reads an IDX file (".gz" or plain, detected from the content) into a
/// cpu tensor: magic 0x0000TTNN (TT the element type: 0x08 uint8, 0x09
/// int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64; NN the number
/// of dims), big-endian int32 sizes, big-endian elements. tt::Error naming
/// the file when it cannot be opened, has a bad magic number or type, or
/// is truncated.
Tensor read_idx(const std::string& path, SourceLoc loc = SourceLoc::current());

/// MNIST-format data in a directory: train-images-idx3-ubyte[.gz] and
/// train-labels-idx1-ubyte[.gz] (or t10k-* for the test split). data is
/// float32 [N, 1, 28, 28] scaled to [0, 1], target int64 [N], as
/// torch::data::datasets::MNIST. Works for Fashion-MNIST (Debian's
/// dataset-fashion-mnist: /usr/share/datasets/fashion-mnist). `limit`
/// keeps the first examples only (0: all). tt::Error when a file is
/// missing or the counts disagree.
class MNIST : public TensorDataset {
 public:
  enum class Mode { kTrain, kTest };
  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain, size_t limit = 0,
                 SourceLoc loc = SourceLoc::current());

 private:
  MNIST(Example loaded, SourceLoc loc) : TensorDataset(std::move(loaded.data), std::move(loaded.target), loc) {}
};

}  // namespace tt::data
