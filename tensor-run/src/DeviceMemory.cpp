#include "DeviceMemory.h"

#include <c10/util/Exception.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>

#include "Conversions.h"
#include "DeviceGuard.h"
#include "TorchVersion.h"

namespace tensor_run {

namespace {

// The header takes one 64-byte line, so the data keeps cudaMalloc's
// alignment guarantees (256 there; 64 is what every cpu kernel needs).
constexpr std::size_t kHeader = 64;
static_assert(sizeof(Block) <= kHeader);

// Live allocations by the address of their data, so that any address
// inside one finds it, as cudaPointerGetAttributes answers for device
// memory and cudaHostAlloc'd memory alike.
class LiveRanges {
 public:
  void add(const void* base, std::size_t bytes, c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mu_);
    by_base_.emplace(address(base), Range{bytes, device});
  }
  void remove(const void* base) {
    std::lock_guard<std::mutex> lock(mu_);
    by_base_.erase(address(base));
  }
  /// The device of the allocation that holds \p p; nullopt when none does.
  std::optional<c10::DeviceIndex> find(const void* p) {
    if (!p) return std::nullopt;
    const std::uintptr_t a = address(p);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_base_.upper_bound(a);
    if (it == by_base_.begin()) return std::nullopt;
    --it;
    if (a - it->first >= it->second.bytes) return std::nullopt;
    return it->second.device;
  }

 private:
  struct Range {
    std::size_t bytes;
    c10::DeviceIndex device;
  };
  static std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
  std::mutex mu_;
  std::map<std::uintptr_t, Range> by_base_;
};

// Leaked: storages die after static destructors.
LiveRanges& device_ranges() {
  static auto* r = new LiveRanges;
  return *r;
}
LiveRanges& pinned_ranges() {
  static auto* r = new LiveRanges;
  return *r;
}

void* data_of(Block* b) { return reinterpret_cast<char*>(b) + kHeader; }

void free_block(void* ctx) {
  auto* b = static_cast<Block*>(ctx);
  device_ranges().remove(data_of(b));
  if (ConversionSite* site = b->unread.exchange(nullptr, std::memory_order_acq_rel))
    report_discarded(site);  // takes ownership; never throws
  b->~Block();
  std::free(b);
}

std::string bytes_text(std::size_t n) {
  constexpr double kMiB = 1024.0 * 1024.0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(n) / kMiB);
  return buf;
}

c10::DataPtr allocate_on(c10::DeviceIndex device, std::size_t n) {
  const c10::Device where(c10::DeviceType::CUDA, device);
  if (n == 0) return c10::DataPtr(nullptr, where);
  // Round up to whole lines; both steps are checked, so a byte count near
  // SIZE_MAX is an out-of-memory error, not a wrapped small allocation.
  if (n > SIZE_MAX - kHeader - (kHeader - 1))
    TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate ", bytes_text(n), " (GPU ",
                     static_cast<int>(device), "; tensor-run emulated device)");
  const std::size_t total = kHeader + (n + kHeader - 1) / kHeader * kHeader;
  void* raw = std::aligned_alloc(kHeader, total);
  if (!raw)
    TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate ", bytes_text(n), " (GPU ",
                     static_cast<int>(device), "; tensor-run emulated device: host memory exhausted)");
  auto* b = new (raw) Block;
  b->bytes = n;
  b->device = device;
  device_ranges().add(data_of(b), n, device);
  return c10::DataPtr(data_of(b), b, &free_block, where);
}

class DeviceAllocator final : public HostMemoryAllocator {
 public:
  // index < 0: the current device at each allocation.
  explicit DeviceAllocator(c10::DeviceIndex index) : index_(index) {}
  c10::DataPtr allocate(std::size_t n) TENSOR_RUN_ALLOCATE_CONST override {
    return allocate_on(index_ < 0 ? current_device() : index_, n);
  }
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }  // the context, not the data, is freed

 private:
  c10::DeviceIndex index_;
};

// Pinned host memory: ordinary memory whose ranges are remembered, so
// is_pinned() answers as cudaHostAlloc'd memory would.
void free_pinned(void* data) {
  pinned_ranges().remove(data);
  std::free(data);
}

class PinnedAllocator final : public HostMemoryAllocator {
 public:
  c10::DataPtr allocate(std::size_t n) TENSOR_RUN_ALLOCATE_CONST override {
    if (n == 0) return c10::DataPtr(nullptr, c10::Device(c10::DeviceType::CPU));
    if (n > SIZE_MAX - (kHeader - 1))
      TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate ", bytes_text(n),
                       " of pinned host memory");
    void* p = std::aligned_alloc(kHeader, (n + kHeader - 1) / kHeader * kHeader);
    if (!p)
      TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate ", bytes_text(n),
                       " of pinned host memory");
    // The device of the context that allocates it, as CUDA records it.
    pinned_ranges().add(p, n, current_device());
    return c10::DataPtr(p, p, &free_pinned, c10::Device(c10::DeviceType::CPU));
  }
  c10::DeleterFnPtr raw_deleter() const override { return &free_pinned; }
};

}  // namespace

c10::Allocator* device_allocator() {
  static DeviceAllocator current(-1);
  return &current;
}

c10::Allocator* device_allocator(c10::DeviceIndex index) {
  static DeviceAllocator* per_device[16] = {};
  static std::once_flag once;
  std::call_once(once, [] {
    for (c10::DeviceIndex i = 0; i < 16; ++i) per_device[i] = new DeviceAllocator(i);
  });
  TORCH_INTERNAL_ASSERT(index >= 0 && index < 16);
  return per_device[index];
}

c10::Allocator* pinned_allocator() {
  static PinnedAllocator a;
  return &a;
}

bool is_pinned(const void* data) { return pinned_ranges().find(data).has_value(); }

std::optional<c10::DeviceIndex> device_of_memory(const void* data) { return device_ranges().find(data); }

Block* block_of(const c10::DataPtr& data) {
  if (data.get_deleter() != &free_block) return nullptr;
  return static_cast<Block*>(data.get_context());
}

}  // namespace tensor_run
