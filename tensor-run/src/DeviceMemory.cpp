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

// The live allocations' address ranges, [begin, end) by begin: which
// memory from_blob is handed (CUDAHooks::getDeviceFromPtr), as the driver's
// cudaPointerGetAttributes tells device, pinned and plain host memory apart.
class Ranges {
 public:
  void add(const void* p, std::size_t n, c10::DeviceIndex device) {
    const auto b = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard<std::mutex> lock(mu_);
    live_[b] = {b + n, device};
  }
  void remove(const void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    live_.erase(reinterpret_cast<std::uintptr_t>(p));
  }
  // The device of the range holding p (its first byte to its last).
  std::optional<c10::DeviceIndex> find(const void* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.upper_bound(a);
    if (it == live_.begin()) return std::nullopt;
    --it;
    if (a >= it->second.first) return std::nullopt;
    return it->second.second;
  }

 private:
  std::mutex mu_;
  std::map<std::uintptr_t, std::pair<std::uintptr_t, c10::DeviceIndex>> live_;
};
Ranges& device_ranges() {
  static auto* r = new Ranges;  // leaked: storages die after static destructors
  return *r;
}

void free_block(void* ctx) {
  auto* b = static_cast<Block*>(ctx);
  device_ranges().remove(reinterpret_cast<char*>(b) + kHeader);
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
  device_ranges().add(static_cast<char*>(raw) + kHeader, n, device);
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

// Pinned host memory: ordinary memory whose ranges are remembered, so that
// is_pinned() answers for any address in it as cudaHostAlloc'd memory would.
Ranges& pinned() {
  static auto* r = new Ranges;  // leaked: storages die after static destructors
  return *r;
}

void free_pinned(void* data) {
  pinned().remove(data);
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
    pinned().add(p, n, -1);
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

bool is_pinned(const void* data) { return data && pinned().find(data).has_value(); }

std::optional<c10::DeviceIndex> device_holding(const void* data) {
  return data ? device_ranges().find(data) : std::nullopt;
}

Block* block_of(const c10::DataPtr& data) {
  if (data.get_deleter() != &free_block) return nullptr;
  return static_cast<Block*>(data.get_context());
}

}  // namespace tensor_run
