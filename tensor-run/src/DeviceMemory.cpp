#include "DeviceMemory.h"

#include <c10/util/Exception.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>

#include "Conversions.h"
#include "DeviceGuard.h"
#include "TorchVersion.h"

namespace tensor_run {

namespace {

// The header takes one 64-byte line, so the data keeps cudaMalloc's
// alignment guarantees (256 there; 64 is what every cpu kernel needs).
constexpr std::size_t kHeader = 64;
static_assert(sizeof(Block) <= kHeader);

void free_block(void* ctx) {
  auto* b = static_cast<Block*>(ctx);
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
  std::unordered_set<const void*> live;
};
PinnedRegistry& pinned() {
  static auto* r = new PinnedRegistry;  // leaked: storages die after static destructors
  return *r;
}

void free_pinned(void* data) {
  {
    auto& r = pinned();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.erase(data);
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
      r.live.insert(p);
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

bool is_pinned(const void* data) {
  if (!data) return false;
  auto& r = pinned();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.live.count(data) != 0;
}

Block* block_of(const c10::DataPtr& data) {
  if (data.get_deleter() != &free_block) return nullptr;
  return static_cast<Block*>(data.get_context());
}

}  // namespace tensor_run
