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

// The live device allocations by the address of their data, so that a raw
// pointer into one (from_blob over a cuda tensor's data_ptr()) finds its
// device, as cudaPointerGetAttributes does.
struct LiveBlocks {
  std::mutex mu;
  std::map<std::uintptr_t, const Block*> by_data;
};
LiveBlocks& live_blocks() {
  static auto* r = new LiveBlocks;  // leaked: storages die after static destructors
  return *r;
}

std::uintptr_t data_of(const Block* b) { return reinterpret_cast<std::uintptr_t>(b) + kHeader; }

void free_block(void* ctx) {
  auto* b = static_cast<Block*>(ctx);
  {
    auto& r = live_blocks();
    std::lock_guard<std::mutex> lock(r.mu);
    r.by_data.erase(data_of(b));
  }
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
  {
    auto& r = live_blocks();
    std::lock_guard<std::mutex> lock(r.mu);
    r.by_data.emplace(data_of(b), b);
  }
  return c10::DataPtr(static_cast<char*>(raw) + kHeader, b, &free_block, where);
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

// Pinned host memory: ordinary memory whose base pointers are remembered,
// so is_pinned() answers as cudaHostAlloc'd memory would.
struct PinnedRegistry {
  std::mutex mu;
  std::map<std::uintptr_t, std::size_t> live;  // base address -> bytes
};
PinnedRegistry& pinned() {
  static auto* r = new PinnedRegistry;  // leaked: storages die after static destructors
  return *r;
}

void free_pinned(void* data) {
  {
    auto& r = pinned();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.erase(reinterpret_cast<std::uintptr_t>(data));
  }
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
    {
      auto& r = pinned();
      std::lock_guard<std::mutex> lock(r.mu);
      r.live.emplace(reinterpret_cast<std::uintptr_t>(p), n);
    }
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

namespace {
// The entry of \p by_base whose [base, base + bytes) holds \p p, or end().
template <typename Map, typename Bytes>
typename Map::const_iterator containing(const Map& by_base, const void* p, Bytes bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = by_base.upper_bound(a);
  if (it == by_base.begin()) return by_base.end();
  --it;
  return a - it->first < bytes(it->second) ? it : by_base.end();
}
}  // namespace

bool is_pinned(const void* data) {
  if (!data) return false;
  auto& r = pinned();
  std::lock_guard<std::mutex> lock(r.mu);
  return containing(r.live, data, [](std::size_t n) { return n; }) != r.live.end();
}

std::optional<c10::DeviceIndex> device_of_memory(const void* data) {
  if (!data) return std::nullopt;
  auto& r = live_blocks();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = containing(r.by_data, data, [](const Block* b) { return b->bytes; });
  if (it == r.by_data.end()) return std::nullopt;
  return it->second->device;
}

Block* block_of(const c10::DataPtr& data) {
  if (data.get_deleter() != &free_block) return nullptr;
  return static_cast<Block*>(data.get_context());
}

}  // namespace tensor_run
