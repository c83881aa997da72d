// Internal: page-locked host memory, cached as PyTorch's CachingHostAllocator
// caches it (aten/src/ATen/cuda/CachingHostAllocator.cpp). cudaHostAlloc
// and cudaFreeHost are slow (they map and unmap pages for DMA) and
// cudaFreeHost may wait for the device, while a training loop pins batches
// of the same few sizes every step. So a freed block is kept: an event is
// recorded on the stream of every device tt has queued work on, and the block
// is handed out again once those events have completed, that is, once every
// non_blocking copy that could still read or write it has finished. A stream
// with no such copy queued since the host last waited for it needs no event
// (device_context.h: host_copies_finished). Nothing on the host waits.
#pragma once

#include <cstddef>

namespace tt::cuda_backend {

/// Page-locked memory for at least `nbytes` bytes: a cached block whose
/// events have completed, else a new cudaHostAlloc (block sizes are powers
/// of two, as PyTorch rounds them). When the system has no page-locked
/// memory left, the cached free blocks are released and the allocation
/// tried once more; then throws tt::Error "CUDA out of memory." (or
/// std::bad_alloc when nbytes has no power-of-two size class).
void* pinned_allocate(std::size_t nbytes);

/// Returns memory from pinned_allocate to the cache, to be reused after the
/// device work queued before this call has finished. Where an event cannot
/// be recorded it waits for tt's streams instead (the uncached behaviour).
void pinned_free(void* p) noexcept;

/// Whether `p` points into a block of this cache (in use or not): memory
/// that a copy may treat as page-locked without asking the driver.
bool pinned_contains(const void* p) noexcept;

/// Waits for tt's streams and returns every free and pending cached block to
/// the system (cudaFreeHost); blocks in use stay.
void pinned_empty_cache() noexcept;

/// What the cache holds, for tests and benchmarks.
struct PinnedCacheStats {
  std::size_t blocks = 0;        ///< blocks allocated from the system and not yet released
  std::size_t cached_bytes = 0;  ///< bytes of blocks not in use (free or pending)
  long hits = 0;                 ///< allocations served from the cache
  long misses = 0;               ///< allocations that called cudaHostAlloc
};
PinnedCacheStats pinned_cache_stats();

}  // namespace tt::cuda_backend
