// Checks of values that only a device has, run when the host next waits for
// that device: the counterpart of ATen's device-side asserts
// (CUDA_KERNEL_ASSERT in nll_loss, embedding, index ops), which surface at
// the next synchronisation instead of making every op wait. tt keeps its own
// message and the op's source location.
//
// Only for devices the host cannot read (a GPU, the CUDA backend on the
// cpu); on the cpu and on emulated devices an op checks at once.
#pragma once

#include <functional>
#include <source_location>
#include <vector>

#include "tt/tensor.h"

namespace tt::detail {

/// Queues a non_blocking copy of `values` (small tensors on one device the
/// host cannot read) into pinned host memory; `check` runs on those host
/// copies after the next blocking copy to or from that device, or
/// tt::cuda::synchronize(), and throws what it finds. At most 64 checks wait
/// per process: the 65th waits for its device at once.
void defer_device_check(std::vector<Tensor> values, std::function<void(const std::vector<Tensor>&)> check,
                        const std::source_location& loc);

/// A ticket to take before waiting for a device: the checks deferred before
/// it are the ones the wait completes.
unsigned long deferred_check_ticket() noexcept;

/// Runs the checks deferred on `device` before `ticket` (their copies have
/// landed: the caller has just waited for the device). Every due check runs
/// once; the first exception among them is rethrown.
void run_deferred_checks(Device device, unsigned long ticket);

}  // namespace tt::detail
