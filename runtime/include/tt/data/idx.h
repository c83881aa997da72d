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
/// train-labels-idx1-ubyte[.gz] (or t10k-* for the test split), as
/// torch::data::datasets::MNIST: an example's data is float32 [1, 28, 28]
/// scaled to [0, 1] (pixel / 255), its target int64. Works for
/// Fashion-MNIST (Debian's dataset-fashion-mnist:
/// /usr/share/datasets/fashion-mnist). `limit` keeps the first examples
/// only (0: all). tt::Error when a file is missing, when the images are not
/// uint8 [N, H, W], or when the counts disagree.
///
/// The pixels stay uint8 and are scaled as batches are gathered, so the
/// set takes a quarter of LibTorch's memory (47 MB for the 60,000 training
/// images, not 188) and a shuffled batch reads a quarter of the bytes; the
/// values are bit for bit those of `images.to(kFloat).div(255)`.
class MNIST : public Dataset {
 public:
  enum class Mode { kTrain, kTest };
  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain, size_t limit = 0,
                 SourceLoc loc = SourceLoc::current());

  size_t size() const override { return size_; }
  /// data float32 [1, H, W], target int64 []; ValueError when index >= size().
  Example get(size_t index) const override;
  /// data float32 [B, 1, H, W], target int64 [B], B = indices.size();
  /// ValueError when an index is >= size().
  Example get_batch(const std::vector<size_t>& indices) const override;

  /// Every image, float32 [N, 1, H, W] in [0, 1] (MNIST::images() in
  /// LibTorch); a new tensor converted from the pixels on each call.
  Tensor images() const;
  /// Every label, int64 [N] (MNIST::targets() in LibTorch).
  const Tensor& targets() const noexcept { return targets_; }

 private:
  Tensor pixels_;   // uint8 [N, 1, H, W], contiguous
  Tensor targets_;  // int64 [N], contiguous
  size_t size_ = 0;
};

}  // namespace tt::data
