// Dataset's default batching and TensorDataset's row gather.
#include "tt/data/dataset.h"

#include <cstring>

#include "data/row_gather.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/ops.h"

namespace tt::data {

Example Dataset::get_batch(const std::vector<size_t>& indices) const {
  std::vector<Tensor> data, target;
  for (size_t i : indices) {
    Example e = get(i);
    data.push_back(e.data);
    target.push_back(e.target);
  }
  return {stack(data), stack(target)};
}

TensorDataset::TensorDataset(Tensor data, Tensor target, SourceLoc loc)
    : data_(std::move(data)), target_(std::move(target)) {
  if (data_.dim(loc) == 0 || target_.dim(loc) == 0)
    throw ValueError("TensorDataset needs tensors with a first dim", loc);
  if (data_.size(0, loc) != target_.size(0, loc)) throw ValueError("Size mismatch between tensors", loc);
  if (!data_.is_cpu(loc) || !target_.is_cpu(loc)) throw ValueError("TensorDataset holds cpu tensors", loc);
  // Contiguous once here, so every batch is a plain row copy.
  if (!data_.is_contiguous(loc)) data_ = data_.contiguous(loc);
  if (!target_.is_contiguous(loc)) target_ = target_.contiguous(loc);
  size_ = static_cast<size_t>(data_.size(0, loc));
}

Example TensorDataset::get(size_t index) const {
  if (index >= size_)
    throw ValueError(
        "index " + std::to_string(index) + " is out of bounds for a dataset of size " + std::to_string(size_),
        SourceLoc::current());
  return {data_.select(0, static_cast<int64_t>(index)), target_.select(0, static_cast<int64_t>(index))};
}

namespace {
Tensor gather_rows(const Tensor& src, const std::vector<size_t>& indices, size_t size) {
  std::vector<int64_t> sizes = src.sizes().vec();
  sizes[0] = static_cast<int64_t>(indices.size());
  Tensor out = empty(sizes, src.dtype());
  const size_t row = size == 0 ? 0 : src.nbytes() / size;  // no rows: only an empty batch gets here
  char* to = static_cast<char*>(out.data_ptr());
  detail::gather_rows(static_cast<const char*>(src.data_ptr()), row, size, indices,
                      [&](size_t k, const char* from) { std::memcpy(to + k * row, from, row); });
  return out;
}
}  // namespace

Example TensorDataset::get_batch(const std::vector<size_t>& indices) const {
  return {gather_rows(data_, indices, size_), gather_rows(target_, indices, size_)};
}

}  // namespace tt::data
