// Device and dtype decisions for every op, with raise/record handling.
#include "device_dtype_rules.h"

#include <atomic>
#include <cstdio>
#include <sstream>

#include "internal_ops.h"
#include "kernels/dispatch_stub.h"
#include "tt/backend.h"
#include "tt/errors.h"
#include "tt/validate.h"

namespace tt::detail {

namespace {
bool recording() { return validation_mode() == ValidationMode::Record; }

bool is_cpu_scalar(const TensorImpl& t) { return t.device().is_cpu() && t.sizes.empty(); }
}  // namespace

Device unify_devices(std::vector<Tensor>& operands, const char* op, const std::source_location& loc,
                     bool allow_cpu_scalars) {
  // Pass 1 (as TensorIterator::compute_types): the first non-cpu device wins.
  Device common(kCPU);
  for (const auto& t : operands) {
    const Device d = impl_of(t, loc).device();
    if (common.is_cpu() && !d.is_cpu()) common = d;
  }
  // Pass 2: every operand must be on it, except allowed cpu scalars.
  auto exempt = [&](const TensorImpl& t) { return !common.is_cpu() && allow_cpu_scalars && is_cpu_scalar(t); };
  for (const auto& t : operands) {
    const TensorImpl& ti = impl_of(t, loc);
    if (exempt(ti) || ti.device() == common) continue;
    std::ostringstream msg;
    msg << "Expected all tensors to be on the same device, but found at least two devices, " << common << " and "
        << ti.device() << "!";
    if (!recording()) throw DeviceMismatchError(msg.str(), loc);
    record_violation(Violation{"tensor-mixed-device", op, msg.str(), {common, ti.device()}, {}}, loc);
    // The op continues on the device the first operand wants; a cpu scalar
    // first operand wants nothing, so the common device stands.
    const TensorImpl& first = impl_of(operands[0], loc);
    const Device target = exempt(first) ? common : first.device();
    for (auto& o : operands) {
      const TensorImpl& oi = impl_of(o, loc);
      const bool ok = oi.device() == target || (!target.is_cpu() && allow_cpu_scalars && is_cpu_scalar(oi));
      if (!ok) o = to_device_internal(o, target, loc);
    }
    return target;
  }
  return common;
}

namespace {
// c10's combine_categories: the higher-priority group wins unless the lower
// group is of a higher category (bool < integral < floating).
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_floating_type(higher)) return higher;
  if (higher == ScalarType::Bool || is_floating_type(lower)) return promote_types(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}
}  // namespace

ScalarType result_type(const std::vector<const Tensor*>& tensors, const std::vector<const Scalar*>& scalars) {
  ScalarType dim_result = ScalarType::Undefined, zero_result = ScalarType::Undefined,
             wrapped_result = ScalarType::Undefined;
  for (const Tensor* t : tensors) {
    const TensorImpl& ti = impl_of(*t, std::source_location::current());
    ScalarType& slot = ti.sizes.empty() ? zero_result : dim_result;
    slot = promote_types(slot, ti.dtype);
  }
  for (const Scalar* s : scalars) {
    // A floating C++ number counts as the default dtype, an integer as int64.
    const ScalarType st = s->is_floating_point() ? default_dtype() : s->type();
    wrapped_result = promote_types(wrapped_result, st);
  }
  return combine_categories(dim_result, combine_categories(zero_result, wrapped_result));
}

void require_same_dtype(Tensor& a, Tensor& b, const char* op, const std::string& message,
                        const std::source_location& loc) {
  const ScalarType ta = impl_of(a, loc).dtype, tb = impl_of(b, loc).dtype;
  if (ta == tb) return;
  if (!recording()) throw DTypeMismatchError(message, loc);
  record_violation(Violation{"tensor-mixed-dtype", op, message, {impl_of(a, loc).device()}, {ta, tb}}, loc);
  b = to_dtype_internal(b, ta, loc);
}

void check_inplace_result(ScalarType result, ScalarType self_dtype, Device device, const char* op,
                          const std::source_location& loc) {
  if (can_cast(result, self_dtype)) return;
  std::ostringstream msg;
  msg << "result type " << result << " can't be cast to the desired output type " << self_dtype;
  if (!recording()) throw DTypeMismatchError(msg.str(), loc);
  record_violation(Violation{"tensor-mixed-dtype", op, msg.str(), {device}, {result, self_dtype}}, loc);
}

namespace {
// The first tensor a program makes reads TT_VALIDATE and, in record mode,
// opens the log: a bad setting or an unwritable log fails there, at the
// program's start, not at the first violation (which may come from a
// destructor, where it could only be warned about). It is a
// ConfigurationError naming the setting, not located at the user's line:
// that tensor's line has nothing to do with it.
std::atomic<bool> g_validation_settings_read{false};
void read_validation_settings() {
  if (g_validation_settings_read.load(std::memory_order_relaxed)) return;
  (void)validation_mode();
  g_validation_settings_read.store(true, std::memory_order_relaxed);
}
}  // namespace

Device resolve_device(Device d, const std::source_location& loc) {
  read_validation_settings();
  kernels::set_device_call_site(loc);  // an allocation follows: its errors name this site
  if (d.is_cpu()) return Device(kCPU);
  auto backend = get_backend(d.type());
  if (!backend || backend->device_count() == 0) throw CudaUnavailableError("CUDA is not available", loc);
  const int index = d.has_index() ? d.index() : 0;
  if (index >= backend->device_count()) throw CudaUnavailableError("CUDA error: invalid device ordinal", loc);
  return Device(d.type(), index);
}

void require_host_kernels(Device d, const std::source_location& loc) {
  if (d.is_cpu()) return;
  // Device kernels (cuda/) stand in for the cpu kernels behind the same
  // entry points; their errors name this op's site.
  kernels::set_device_call_site(loc);
  if (kernels::has_device_kernels(d)) return;
  auto backend = get_backend(d.type());
  if (backend && backend->host_accessible()) return;
  throw Error(std::string("no kernels registered for device ") + d.str() + " (backend " +
                  (backend ? backend->name() : "none") + ")",
              loc);
}

void report_discarded_conversion(const ConversionSite& site) noexcept try {
  if (!recording()) return;
  std::ostringstream msg;
  msg << "result of '" << site.op << "' is discarded: the " << python_name(site.to_dtype) << " " << site.to_device
      << " tensor converted from " << python_name(site.from_dtype) << " " << site.from_device
      << " was destroyed without being used; tensor conversions return a new tensor and leave the source unchanged";
  record_violation(Violation{"tensor-discarded-cast",
                             site.op,
                             msg.str(),
                             {site.from_device, site.to_device},
                             {site.from_dtype, site.to_dtype}},
                   site.where);
} catch (const std::exception& e) {
  // Called from a destructor: losing one record beats terminating, but not
  // silently (a record mode whose log cannot be opened throws here when a
  // discarded conversion is the program's first use of it).
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) std::fprintf(stderr, "tt: validation: %s\n", e.what());
} catch (...) {
}

}  // namespace tt::detail
