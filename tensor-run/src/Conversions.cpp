#include "Conversions.h"

#include <ATen/ops/_to_copy_native.h>

#include <exception>
#include <sstream>

#include "DeviceMemory.h"
#include "Frames.h"
#include "OpRules.h"
#include "Recorder.h"

namespace tensor_run {

namespace {

// initial-exec: the library is loaded at start-up (LD_PRELOAD), so its
// thread-locals can skip __tls_get_addr on every op.
__attribute__((tls_model("initial-exec"))) thread_local std::uint64_t t_ops = 0;

std::string describe(c10::ScalarType dtype, c10::Device device) {
  std::ostringstream s;
  s << python_dtype_name(dtype) << ' ' << device;
  return s.str();
}

}  // namespace

void note_op() noexcept { ++t_ops; }

void mark_read(const at::Tensor& t) noexcept {
  if (!t.defined() || !t.has_storage()) return;
  Block* b = block_of(t.storage().data_ptr());
  if (!b || b->unread.load(std::memory_order_relaxed) == nullptr) return;
  delete b->unread.exchange(nullptr, std::memory_order_acq_rel);
}

void report_discarded(ConversionSite* site) noexcept {
  std::unique_ptr<ConversionSite> owned(site);
  // Destroyed by another thread, after other ops (kept, then dropped), or
  // while an exception unwinds the statement: not discarded at the statement.
  if (site->thread != std::this_thread::get_id() || site->ops_before != t_ops || std::uncaught_exceptions() > 0) return;
  try {
    Violation v;
    v.kind = ViolationKind::DiscardedCast;
    v.op = "to";
    v.message = "result of 'to' is discarded: the " + describe(site->to_dtype, site->to_device) +
                " tensor converted from " + describe(site->from_dtype, site->from_device) +
                " was destroyed without being used; tensor conversions return a new tensor and leave the source "
                "unchanged";
    std::ostringstream from, to;
    from << site->from_device;
    to << site->to_device;
    v.devices = {from.str(), to.str()};
    v.dtypes = {python_dtype_name(site->from_dtype), python_dtype_name(site->to_dtype)};
    report_discarded_cast(v, site->stack);
  } catch (...) {
  }
}

at::Tensor to_copy(const at::Tensor& self, c10::optional<c10::ScalarType> dtype, c10::optional<c10::Layout> layout,
                   c10::optional<c10::Device> device, c10::optional<bool> pin_memory, bool non_blocking,
                   c10::optional<c10::MemoryFormat> memory_format) {
  note_op();
  mark_read(self);
  at::Tensor result = at::native::_to_copy(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
  if (result.is_cuda() && result.has_storage()) {
    if (Block* b = block_of(result.storage().data_ptr())) {
      auto site = std::make_unique<ConversionSite>();
      site->stack = capture_stack();
      site->from_device = self.device();
      site->to_device = result.device();
      site->from_dtype = self.scalar_type();
      site->to_dtype = result.scalar_type();
      site->thread = std::this_thread::get_id();
      site->ops_before = t_ops;
      delete b->unread.exchange(site.release(), std::memory_order_acq_rel);
    }
  }
  return result;
}

}  // namespace tensor_run
