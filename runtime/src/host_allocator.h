// Host memory for tensors: the cpu's, pinned memory's stand-in and the
// emulated cuda devices'. Blocks of 64 KiB and more are cached when freed,
// by size class (whole pages), and handed out again, as c10's caching
// allocators do: a training loop makes the same sizes every step, and
// without the cache each of them is fresh memory from the kernel, paid in
// page faults and zeroing (allocating conversions ran at a fifth of memcpy's
// speed). Freed blocks are held up to 1 GiB in all; when the system has no
// memory left, the cache is emptied and the allocation tried again.
// TT_HOST_CACHE=0 turns the cache off (every block goes back to the system).
// Under AddressSanitizer cached blocks are poisoned, so a use after free
// still reports.
#pragma once

#include <cstddef>

namespace tt::detail {

/// 64-byte aligned memory for at least `nbytes` (>= 1) bytes. Throws
/// std::bad_alloc when neither the cache nor the system has it (after
/// returning the cache to the system and trying again).
void* host_allocate(std::size_t nbytes);

/// Frees memory from host_allocate(nbytes): back to the cache when it is on
/// and the block is large, else to the system.
void host_free(void* p, std::size_t nbytes) noexcept;

/// Returns every cached block to the system.
void host_empty_cache() noexcept;

struct HostCacheStats {
  std::size_t cached_bytes = 0;  // free blocks held for reuse
  std::size_t hits = 0;          // allocations served from the cache
  std::size_t misses = 0;        // large allocations the system served
};
HostCacheStats host_cache_stats();

}  // namespace tt::detail
