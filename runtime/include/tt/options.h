// TensorOptions: dtype, device, requires_grad and pinned memory for
// factories. Mirrors c10::TensorOptions: unset fields mean PyTorch's
// defaults (float32, cpu, no grad, pageable).
#pragma once

#include <optional>

#include "tt/device.h"
#include "tt/scalar_type.h"

namespace tt {

/// Chainable options: `TensorOptions().dtype(kHalf).device(kCUDA)`.
/// Implicit from a ScalarType or a Device, so `zeros({2}, kCUDA)` works as
/// in LibTorch. Validation (cuda available, requires_grad on a floating
/// dtype) happens in the factory that uses them, at the user's call site.
class TensorOptions {
 public:
  TensorOptions() = default;
  /* implicit */ TensorOptions(ScalarType t) : dtype_(t) {}
  /* implicit */ TensorOptions(Device d) : device_(d) {}
  /* implicit */ TensorOptions(DeviceType d) : device_(Device(d)) {}

  TensorOptions dtype(ScalarType t) const {
    auto o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions device(Device d) const {
    auto o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions requires_grad(bool r) const {
    auto o = *this;
    o.requires_grad_ = r;
    return o;
  }
  TensorOptions pinned_memory(bool p) const {
    auto o = *this;
    o.pinned_ = p;
    return o;
  }

  ScalarType dtype() const { return dtype_.value_or(default_dtype()); }
  Device device() const { return device_.value_or(Device(kCPU)); }
  bool requires_grad() const { return requires_grad_; }
  bool pinned_memory() const { return pinned_; }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  bool requires_grad_ = false;
  bool pinned_ = false;
};

/// `tt::device(kCUDA)`: options with only the device set.
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
/// `tt::dtype(kHalf)`: options with only the dtype set.
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
/// `tt::requires_grad()`: options with requires_grad set.
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }

}  // namespace tt
