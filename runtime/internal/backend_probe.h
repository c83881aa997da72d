// Internal: how a device backend library (cuda/) offers itself to the
// runtime without the runtime depending on it. The library registers a probe
// while it loads (a static initialiser; no device call). The runtime calls
// the probe lazily, under its registry's lock, the first time anything asks
// about that device type; a non-null result becomes the device type's
// backend, ahead of emulation.
#pragma once

#include <memory>

#include "tt/backend.h"
#include "tt/device.h"

namespace tt::detail {

/// Returns the real backend, or nullptr when no device is present.
using BackendProbe = std::shared_ptr<Backend> (*)();

/// Registers the probe for `type` (only DeviceType::CUDA has one). Safe to
/// call from any static initialiser.
void set_backend_probe(DeviceType type, BackendProbe probe) noexcept;

}  // namespace tt::detail
