// The table of live conversion marks (conversion_marks.h).
#include "conversion_marks.h"

#include <mutex>
#include <optional>
#include <unordered_map>

#include "device_dtype_rules.h"

namespace tt::detail {

namespace conversion_marks_detail {

constinit std::atomic<std::size_t> g_live{0};

namespace {
struct Marks {
  std::mutex mu;
  std::unordered_map<const TensorImpl*, ConversionSite> by_tensor;
};
Marks& marks() {
  static Marks* m = new Marks;  // leaked: tensors die after static destructors too
  return *m;
}

// Removes t's mark; the caller holds the lock.
std::optional<ConversionSite> take(Marks& m, const TensorImpl* t) {
  auto it = m.by_tensor.find(t);
  if (it == m.by_tensor.end()) return std::nullopt;
  ConversionSite site = it->second;
  m.by_tensor.erase(it);
  g_live.store(m.by_tensor.size(), std::memory_order_relaxed);
  return site;
}
}  // namespace

void forget(const TensorImpl* t) noexcept {
  Marks& m = marks();
  std::lock_guard<std::mutex> lock(m.mu);
  (void)take(m, t);
}

void release(const TensorImpl* t) noexcept {
  std::optional<ConversionSite> site;
  {
    Marks& m = marks();
    std::lock_guard<std::mutex> lock(m.mu);
    site = take(m, t);
  }
  if (site) report_discarded_conversion(*site);  // outside the lock: recording may make tensors
}

}  // namespace conversion_marks_detail

void mark_conversion(const TensorImpl& t, const ConversionSite& site) {
  using namespace conversion_marks_detail;
  Marks& m = marks();
  std::lock_guard<std::mutex> lock(m.mu);
  m.by_tensor.insert_or_assign(&t, site);
  g_live.store(m.by_tensor.size(), std::memory_order_relaxed);
}

}  // namespace tt::detail
