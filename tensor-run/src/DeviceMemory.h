// The emulated devices' memory: host memory behind c10's Allocator
// interface, registered for DeviceType::CUDA, so that every storage LibTorch
// makes for a cuda tensor (factories, op outputs, resize_) lands here and
// carries its device index in its DataPtr. Also the pinned-memory allocator
// that CUDAHooks hands to pin_memory().
//
// Each allocation has a small header (a Block) that the checks use: the
// discarded-cast rule marks a conversion's fresh storage "unread" and every
// op that reads the storage clears the mark (Conversions.h).
#pragma once

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>

#include <atomic>
#include <cstddef>
#include <optional>

namespace tensor_run {

struct ConversionSite;

/// The header in front of every emulated-device allocation.
struct Block {
  std::size_t bytes = 0;
  c10::DeviceIndex device = 0;
  /// Set by a user's conversion that produced this storage; cleared (and
  /// deleted) when an op reads the storage. Still set when the storage is
  /// freed: the conversion's result was discarded.
  std::atomic<ConversionSite*> unread{nullptr};
};

/// The allocator registered for cuda: allocates on the current device
/// (DeviceGuard.h). Memory is 64-byte aligned and uninitialised, as
/// cudaMalloc's. Throws c10::Error "CUDA out of memory. Tried to allocate
/// ..." when the host cannot provide it (never returns null for n > 0).
c10::Allocator* device_allocator();

/// An allocator for one emulated device, whatever the current device is
/// (for factories that name their device).
c10::Allocator* device_allocator(c10::DeviceIndex index);

/// Host memory that pin_memory() returns; is_pinned() tells it apart: true
/// for any address inside a live pinned allocation, as CUDA answers for
/// cudaHostAlloc'd memory.
c10::Allocator* pinned_allocator();
bool is_pinned(const void* data);

/// The emulated device whose live allocation holds the address \p data (its
/// start or any byte inside), as cudaPointerGetAttributes finds a device
/// pointer's device; nullopt for any other memory (host memory, a freed
/// allocation) and for null.
std::optional<c10::DeviceIndex> device_of_memory(const void* data);

/// The Block of a storage's DataPtr when this allocator made it, else null
/// (a storage that wraps a cpu kernel's output, a cpu storage).
Block* block_of(const c10::DataPtr& data);

}  // namespace tensor_run
