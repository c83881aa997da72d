// DataLoader: an epoch is a fixed list of index batches; batches are built
// on the consumer's thread or by workers into numbered slots, consumed in
// order. Worker w builds batches w, w+W, ...; it runs at most
// W * prefetch_factor batches ahead of the consumer, so memory stays bounded.
#include "tt/data/dataloader.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <thread>

#include "tt/backend.h"
#include "tt/errors.h"

namespace tt::data {

class Epoch {
 public:
  Epoch(const Dataset& dataset, const DataLoaderOptions& options, std::vector<std::vector<size_t>> batches)
      : dataset_(dataset),
        options_(options),
        batches_(std::move(batches)),
        slots_(batches_.size()),
        errors_(batches_.size()) {
    const size_t workers = std::min(options.num_workers(), batches_.size());
    window_ = std::max<size_t>(1, workers * std::max<size_t>(1, options.prefetch_factor()));
    for (size_t w = 0; w < workers; ++w) threads_.emplace_back([this, w, workers] { work(w, workers); });
  }

  ~Epoch() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  bool empty() const { return batches_.empty(); }

  Example& current() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (threads_.empty() && !slots_[pos_]) {
      lock.unlock();
      Example e = build(pos_);  // num_workers == 0: on the consumer's thread
      lock.lock();
      slots_[pos_] = std::move(e);
    }
    cv_.wait(lock, [&] { return slots_[pos_].has_value() || errors_[pos_]; });
    if (errors_[pos_]) std::rethrow_exception(errors_[pos_]);
    return *slots_[pos_];
  }

  // Drops the current batch and moves on; false at the end of the epoch.
  bool advance() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slots_[pos_].reset();
      ++pos_;
    }
    cv_.notify_all();
    return pos_ < batches_.size();
  }

 private:
  Example build(size_t i) const {
    Example e = dataset_.get_batch(batches_[i]);
    if (options_.pin_memory() && cuda::is_available()) {
      e.data = e.data.pin_memory();
      e.target = e.target.pin_memory();
    }
    return e;
  }

  void work(size_t first, size_t stride) {
    for (size_t i = first; i < batches_.size(); i += stride) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || i < pos_ + window_; });
        if (stop_) return;
      }
      std::optional<Example> e;
      std::exception_ptr error;
      try {
        e = build(i);
      } catch (...) {
        error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error)
          errors_[i] = error;
        else
          slots_[i] = std::move(e);
      }
      cv_.notify_all();
    }
  }

  const Dataset& dataset_;
  const DataLoaderOptions options_;
  const std::vector<std::vector<size_t>> batches_;
  std::vector<std::optional<Example>> slots_;
  std::vector<std::exception_ptr> errors_;
  size_t pos_ = 0;
  size_t window_ = 1;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::thread> threads_;
};

DataLoader::DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options, SourceLoc loc)
    : dataset_(std::move(dataset)), options_(options) {
  if (!dataset_) throw ValueError("DataLoader needs a dataset", loc);
  if (options_.batch_size() == 0)
    throw ValueError("batch_size should be a positive integer value, but got batch_size=0", loc);
}

DataLoader::~DataLoader() = default;

size_t DataLoader::size() const {
  const size_t n = dataset_->size(), b = options_.batch_size();
  return options_.drop_last() ? n / b : (n + b - 1) / b;
}

DataLoader::Iterator DataLoader::begin() {
  epoch_.reset();  // joins the previous epoch's workers first
  std::vector<size_t> order(dataset_->size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (options_.shuffle()) {
    // One stream per (seed, epoch): reproducible and different each epoch.
    const uint64_t seed = options_.seed(), epoch = epoch_number_;
    std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(epoch), uint32_t(epoch >> 32)};
    std::mt19937_64 rng(seq);
    std::shuffle(order.begin(), order.end(), rng);
  }
  ++epoch_number_;
  std::vector<std::vector<size_t>> batches;
  for (size_t i = 0; i < order.size(); i += options_.batch_size()) {
    const size_t end = std::min(order.size(), i + options_.batch_size());
    if (end - i < options_.batch_size() && options_.drop_last()) break;
    batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(i),
                         order.begin() + static_cast<std::ptrdiff_t>(end));
  }
  epoch_ = std::make_unique<Epoch>(*dataset_, options_, std::move(batches));
  return epoch_->empty() ? end() : Iterator(epoch_.get());
}

Example& DataLoader::Iterator::operator*() const { return epoch_->current(); }

DataLoader::Iterator& DataLoader::Iterator::operator++() {
  if (!epoch_->advance()) epoch_ = nullptr;
  return *this;
}

bool DataLoader::Iterator::operator==(const Iterator& o) const { return epoch_ == o.epoch_; }

}  // namespace tt::data
