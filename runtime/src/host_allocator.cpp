#include "host_allocator.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "environment.h"

// Under AddressSanitizer a cached block is poisoned until it is handed out
// again, so a use after free still reports instead of reading a recycled block.
#if defined(__SANITIZE_ADDRESS__)
#define TT_HOST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_HOST_ASAN 1
#endif
#endif
#ifdef TT_HOST_ASAN
#include <sanitizer/asan_interface.h>
#define TT_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TT_POISON(p, n) ((void)(p), (void)(n))
#define TT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace tt::detail {

namespace {

constexpr std::size_t kAlign = 64;
constexpr std::size_t kPage = 4096;
constexpr std::size_t kCachedFrom = std::size_t(64) << 10;  // smaller blocks: malloc's own free lists
constexpr std::size_t kCacheLimit = std::size_t(1) << 30;   // free bytes held at most

// The size class of a large block: whole pages.
std::size_t size_class(std::size_t nbytes) { return (nbytes + kPage - 1) / kPage * kPage; }

void* system_allocate(std::size_t bytes) { return std::aligned_alloc(kAlign, bytes); }

class Cache {
 public:
  Cache() : enabled_(env_host_cache()) {}

  void* allocate(std::size_t nbytes) {
    const bool large = enabled_ && nbytes >= kCachedFrom;
    const std::size_t bytes = large ? size_class(nbytes) : (nbytes + kAlign - 1) / kAlign * kAlign;
    if (large) {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(bytes);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cached_bytes_ -= bytes;
        ++stats_.hits;
        TT_UNPOISON(p, bytes);
        return p;
      }
      ++stats_.misses;
    }
    void* p = system_allocate(bytes);
    if (!p && large) {
      // The cache holds memory the system could use: give it back, retry.
      empty();
      p = system_allocate(bytes);
    }
    if (!p) throw std::bad_alloc();
    return p;
  }

  void free(void* p, std::size_t nbytes) noexcept {
    if (!p) return;
    if (enabled_ && nbytes >= kCachedFrom) {
      const std::size_t bytes = size_class(nbytes);
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_bytes_ + bytes <= kCacheLimit) {
        try {
          free_[bytes].push_back(p);
          cached_bytes_ += bytes;
          TT_POISON(p, bytes);
          return;
        } catch (...) {
          // No room for the bookkeeping: the block goes back to the system.
        }
      }
    }
    std::free(p);
  }

  void empty() noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [bytes, blocks] : free_)
      for (void* p : blocks) {
        TT_UNPOISON(p, bytes);
        std::free(p);
      }
    free_.clear();
    cached_bytes_ = 0;
  }

  HostCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    HostCacheStats s = stats_;
    s.cached_bytes = cached_bytes_;
    return s;
  }

 private:
  const bool enabled_;
  std::mutex mu_;
  std::unordered_map<std::size_t, std::vector<void*>> free_;
  std::size_t cached_bytes_ = 0;
  HostCacheStats stats_;
};

Cache& cache() {
  static Cache* c = new Cache;  // leaked: tensors may be freed after static destructors
  return *c;
}

}  // namespace

void* host_allocate(std::size_t nbytes) { return cache().allocate(nbytes == 0 ? 1 : nbytes); }

void host_free(void* p, std::size_t nbytes) noexcept { cache().free(p, nbytes == 0 ? 1 : nbytes); }

void host_empty_cache() noexcept { cache().empty(); }

HostCacheStats host_cache_stats() { return cache().stats(); }

}  // namespace tt::detail
