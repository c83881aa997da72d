// tt::data::DataLoader: batches of a Dataset, shuffled with a seed,
// prefetched by background threads, iterated with a range-for loop.
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "tt/data/dataset.h"

namespace tt::data {

/// `DataLoaderOptions().batch_size(64).shuffle(true).seed(1).num_workers(2)`.
struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size) : batch_size_(batch_size) {}
  DataLoaderOptions& batch_size(size_t v) {
    batch_size_ = v;
    return *this;
  }
  /// A new permutation each epoch, drawn from seed and the epoch number,
  /// so runs repeat exactly.
  DataLoaderOptions& shuffle(bool v) {
    shuffle_ = v;
    return *this;
  }
  DataLoaderOptions& seed(uint64_t v) {
    seed_ = v;
    return *this;
  }
  /// Drops the last batch when it would be smaller than batch_size.
  DataLoaderOptions& drop_last(bool v) {
    drop_last_ = v;
    return *this;
  }
  /// Batches come back in page-locked memory (needs a CUDA backend, real
  /// or emulated; without one the option is ignored, as PyTorch does).
  DataLoaderOptions& pin_memory(bool v) {
    pin_memory_ = v;
    return *this;
  }
  /// Background threads that assemble batches ahead of the consumer (0:
  /// on the consumer's thread). Order is always the sampler's.
  DataLoaderOptions& num_workers(size_t v) {
    num_workers_ = v;
    return *this;
  }
  /// Batches each worker may have ready ahead (PyTorch's prefetch_factor).
  DataLoaderOptions& prefetch_factor(size_t v) {
    prefetch_factor_ = v;
    return *this;
  }
  size_t batch_size() const { return batch_size_; }
  bool shuffle() const { return shuffle_; }
  uint64_t seed() const { return seed_; }
  bool drop_last() const { return drop_last_; }
  bool pin_memory() const { return pin_memory_; }
  size_t num_workers() const { return num_workers_; }
  size_t prefetch_factor() const { return prefetch_factor_; }

 private:
  size_t batch_size_ = 1;
  bool shuffle_ = false;
  uint64_t seed_ = 0;
  bool drop_last_ = false;
  bool pin_memory_ = false;
  size_t num_workers_ = 0;
  size_t prefetch_factor_ = 2;
};

class Epoch;

/// Iterates a dataset in batches: `for (auto& batch : loader)`. Each
/// begin() starts a new epoch (a new shuffle); one epoch at a time per
/// loader. A worker's exception is rethrown on the consuming thread when
/// its batch is reached. Batches are Examples of cpu tensors.
class DataLoader {
 public:
  /// ValueError for batch_size 0.
  DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options = {},
             SourceLoc loc = SourceLoc::current());
  /// Takes a dataset by value (moved into a shared_ptr).
  template <class D>
    requires std::is_base_of_v<Dataset, std::decay_t<D>>
  DataLoader(D&& dataset, DataLoaderOptions options = {}, SourceLoc loc = SourceLoc::current())
      : DataLoader(std::make_shared<std::decay_t<D>>(std::forward<D>(dataset)), options, loc) {}
  ~DataLoader();
  DataLoader(const DataLoader&) = delete;
  DataLoader& operator=(const DataLoader&) = delete;

  class Iterator {
   public:
    using value_type = Example;
    using reference = Example&;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    Example& operator*() const;
    Example* operator->() const { return &**this; }
    Iterator& operator++();
    bool operator==(const Iterator& o) const;
    bool operator!=(const Iterator& o) const { return !(*this == o); }

   private:
    friend class DataLoader;
    Iterator(Epoch* epoch) : epoch_(epoch) {}
    Epoch* epoch_;  // null: end
  };
  Iterator begin();
  Iterator end() { return Iterator(nullptr); }
  /// Batches per epoch.
  size_t size() const;
  const DataLoaderOptions& options() const noexcept { return options_; }

 private:
  std::shared_ptr<const Dataset> dataset_;
  DataLoaderOptions options_;
  uint64_t epoch_number_ = 0;
  std::unique_ptr<Epoch> epoch_;
};

}  // namespace tt::data
