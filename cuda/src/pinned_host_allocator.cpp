// The caching page-locked host allocator (pinned_host_allocator.h).
#include "pinned_host_allocator.h"

#include <cuda_runtime_api.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "check.h"
#include "device_context.h"

namespace tt::cuda_backend {

namespace {

constexpr std::size_t kSmallestBlock = 512;

struct Block {
  std::size_t size = 0;  // the size class: what cudaHostAlloc was asked for
  bool in_use = true;
  std::vector<std::pair<int, cudaEvent_t>> events;  // (device, event) still to complete before reuse
};

class PinnedCache {
 public:
  void* allocate(std::size_t nbytes) {
    const std::size_t size = size_class(nbytes);
    std::lock_guard<std::mutex> lock(mu_);
    collect_completed();
    if (auto it = free_.find(size); it != free_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      blocks_.at(key(p)).in_use = true;
      cached_bytes_ -= size;
      ++stats_.hits;
      return p;
    }
    ++stats_.misses;
    void* p = nullptr;
    if (cudaHostAlloc(&p, size, cudaHostAllocDefault) != cudaSuccess || !p) {
      // Page-locked memory is scarce: give the free blocks back, try again.
      (void)cudaGetLastError();
      release_free_blocks();
      p = nullptr;
      TT_CUDA_CHECK(cudaHostAlloc(&p, size, cudaHostAllocDefault));
    }
    try {
      blocks_.emplace(key(p), Block{size, true, {}});
    } catch (...) {
      (void)cudaFreeHost(p);
      throw;
    }
    return p;
  }

  void free(void* p) noexcept {
    if (!p) return;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = blocks_.find(key(p));
    if (it == blocks_.end() || !it->second.in_use) return;  // not ours, or freed twice: nothing safe to do
    Block& b = it->second;
    b.in_use = false;
    cached_bytes_ += b.size;
    try {
      for (DeviceContext* ctx : started_contexts()) {
        // Only a copy can touch host memory; none queued since the host last
        // waited for this stream means none can be using the block (the
        // common case: the training step's item() waited), so no event.
        if (host_copies_finished(*ctx)) continue;
        DeviceGuard guard(ctx->index);
        cudaEvent_t ev = take_event(ctx->index);
        b.events.emplace_back(ctx->index, ev);
        TT_CUDA_CHECK(cudaEventRecord(ev, ctx->stream));
      }
    } catch (...) {
      // No event: wait for every stream, after which nothing can use the block.
      synchronize_all_streams();
      release_events(b);
    }
    if (b.events.empty())
      make_free(p, b);
    else
      pending_.push_back(p);
  }

  bool contains(const void* p) noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    const auto u = reinterpret_cast<std::uintptr_t>(p);
    auto it = blocks_.upper_bound(u);
    if (it == blocks_.begin()) return false;
    --it;
    return u - it->first < it->second.size;
  }

  void empty() noexcept {
    synchronize_all_streams();
    std::lock_guard<std::mutex> lock(mu_);
    collect_completed();
    release_free_blocks();
  }

  PinnedCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    PinnedCacheStats s = stats_;
    s.blocks = blocks_.size();
    s.cached_bytes = cached_bytes_;
    return s;
  }

 private:
  static std::uintptr_t key(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

  static std::size_t size_class(std::size_t nbytes) {
    if (nbytes <= kSmallestBlock) return kSmallestBlock;
    if (nbytes > (std::numeric_limits<std::size_t>::max() >> 1) + 1) throw std::bad_alloc();
    return std::bit_ceil(nbytes);
  }

  // An event of `device` from the spare ones, or a new one. The caller has
  // made `device` current (events belong to the device current when made).
  cudaEvent_t take_event(int device) {
    auto& spare = spare_events_[device];
    if (!spare.empty()) {
      cudaEvent_t ev = spare.back();
      spare.pop_back();
      return ev;
    }
    cudaEvent_t ev = nullptr;
    TT_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    return ev;
  }

  void release_events(Block& b) noexcept {
    for (auto [device, ev] : b.events) {
      try {
        spare_events_[device].push_back(ev);
      } catch (...) {
        (void)cudaEventDestroy(ev);
      }
    }
    b.events.clear();
  }

  void make_free(void* p, Block& b) noexcept {
    try {
      free_[b.size].push_back(p);
    } catch (...) {
      // No room to remember it: back to the system (its events have completed).
      cached_bytes_ -= b.size;
      blocks_.erase(key(p));
      (void)cudaFreeHost(p);
    }
  }

  // Moves pending blocks whose events have all completed to the free lists.
  void collect_completed() noexcept {
    std::size_t kept = 0;
    for (void* p : pending_) {
      Block& b = blocks_.at(key(p));
      bool done = true;
      for (auto& [device, ev] : b.events) {
        const cudaError_t e = cudaEventQuery(ev);
        if (e == cudaErrorNotReady) {
          // Not an error, but CUDA may leave it as the thread's last error,
          // which the next launch check would report as its own (PyTorch
          // clears it after cudaEventQuery too).
          (void)cudaGetLastError();
          done = false;
          break;
        }
        // Any other error is sticky device failure: nothing will run on
        // the device again, so nothing can still use the block.
        if (e != cudaSuccess) (void)cudaGetLastError();
      }
      if (done) {
        release_events(b);
        make_free(p, b);
      } else {
        pending_[kept++] = p;
      }
    }
    pending_.resize(kept);
  }

  void release_free_blocks() noexcept {
    for (auto& [size, list] : free_) {
      for (void* p : list) {
        blocks_.erase(key(p));
        cached_bytes_ -= size;
        if (cudaFreeHost(p) != cudaSuccess) (void)cudaGetLastError();
      }
      list.clear();
    }
  }

  std::mutex mu_;
  std::map<std::uintptr_t, Block> blocks_;                // every block from the system, by address
  std::map<std::size_t, std::vector<void*>> free_;        // reusable now, by size class
  std::vector<void*> pending_;                            // freed, events outstanding
  std::map<int, std::vector<cudaEvent_t>> spare_events_;  // completed events, by device, for reuse
  std::size_t cached_bytes_ = 0;
  PinnedCacheStats stats_;
};

PinnedCache& cache() {
  static PinnedCache* c = new PinnedCache;  // leaked: pinned tensors may be freed after static destructors
  return *c;
}

}  // namespace

void* pinned_allocate(std::size_t nbytes) { return cache().allocate(nbytes); }
void pinned_free(void* p) noexcept { cache().free(p); }
bool pinned_contains(const void* p) noexcept { return cache().contains(p); }
void pinned_empty_cache() noexcept { cache().empty(); }
PinnedCacheStats pinned_cache_stats() { return cache().stats(); }

}  // namespace tt::cuda_backend
