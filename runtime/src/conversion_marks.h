// The validation recorder's marks on conversion results: the run-time half of
// tensor-discarded-cast. A result of to(), contiguous() or pin_memory() is
// marked where it is made; its first read drops the mark; a mark still there
// when the tensor dies is recorded as a discarded conversion. The marks live
// here, keyed by tensor, not in TensorImpl: the tensor core carries no tool
// state, and while no mark is live (almost always: a result is read by the
// next op) a read or a release costs one relaxed atomic load.
#pragma once

#include <atomic>
#include <cstddef>
#include <source_location>

#include "tt/device.h"
#include "tt/scalar_type.h"

namespace tt::detail {

struct TensorImpl;

/// Where a conversion result came from, for the record.
struct ConversionSite {
  std::source_location where;
  const char* op;  ///< "to", "contiguous", "pin_memory" (a string literal)
  ScalarType from_dtype, to_dtype;
  Device from_device, to_device;
};

namespace conversion_marks_detail {
extern std::atomic<std::size_t> g_live;  // marks held now
void forget(const TensorImpl* t) noexcept;
void release(const TensorImpl* t) noexcept;
}  // namespace conversion_marks_detail

/// Marks `t` (replacing an older mark of it). Throws std::bad_alloc only.
void mark_conversion(const TensorImpl& t, const ConversionSite& site);

/// `t` has been read: its mark, if any, is dropped.
inline void note_read(const TensorImpl& t) noexcept {
  if (conversion_marks_detail::g_live.load(std::memory_order_relaxed) != 0) conversion_marks_detail::forget(&t);
}

/// `t` is being destroyed: a mark still on it is reported as
/// tensor-discarded-cast (report_discarded_conversion) and dropped.
inline void note_released(const TensorImpl& t) noexcept {
  if (conversion_marks_detail::g_live.load(std::memory_order_relaxed) != 0) conversion_marks_detail::release(&t);
}

}  // namespace tt::detail
