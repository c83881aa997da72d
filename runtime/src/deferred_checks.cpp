// Checks deferred to the host's next wait for a device (deferred_checks.h).
#include "deferred_checks.h"

#include <exception>
#include <mutex>

#include "internal_ops.h"
#include "tensor_impl.h"

namespace tt::detail {

namespace {

constexpr size_t kMaxWaiting = 64;

struct Deferred {
  unsigned long ticket;
  Device device;
  std::vector<Tensor> host;  // pinned, filled by the queued copies
  std::function<void(const std::vector<Tensor>&)> check;
};

struct Queue {
  std::mutex mu;
  unsigned long next_ticket = 1;
  std::vector<Deferred> waiting;
};

Queue& queue() {
  static Queue* q = new Queue;  // leaked: a check may be run from a static destructor's copy
  return *q;
}

}  // namespace

unsigned long deferred_check_ticket() noexcept {
  auto& q = queue();
  std::lock_guard<std::mutex> lock(q.mu);
  return q.next_ticket;
}

void defer_device_check(std::vector<Tensor> values, std::function<void(const std::vector<Tensor>&)> check,
                        const std::source_location& loc) {
  if (values.empty()) return;
  const Device device = values.front().device(loc);
  std::vector<Tensor> host;
  host.reserve(values.size());
  for (const Tensor& v : values) {
    const auto& vi = impl_of(v, loc);
    host.push_back(make_empty(vi.sizes, vi.dtype, Device(kCPU), loc, /*pinned=*/true));
    copy_impl(*TensorAccess::shared(host.back()), vi, /*non_blocking=*/true, loc);
  }
  auto& q = queue();
  {
    std::lock_guard<std::mutex> lock(q.mu);
    if (q.waiting.size() < kMaxWaiting) {
      q.waiting.push_back(Deferred{q.next_ticket++, device, std::move(host), std::move(check)});
      return;
    }
  }
  // Too many waiting: wait for the device now (a blocking copy, which runs
  // the waiting checks), then run this one.
  // A waiting check that fails throws out of the copy, after the wait: this
  // check still runs, and the first error is the one reported.
  const auto& front = impl_of(values.front(), loc);
  Tensor landed = make_empty(front.sizes, front.dtype, Device(kCPU), loc);
  std::exception_ptr first;
  try {
    copy_impl(*TensorAccess::shared(landed), front, /*non_blocking=*/false, loc);
  } catch (...) {
    first = std::current_exception();
  }
  try {
    check(host);
  } catch (...) {
    if (!first) first = std::current_exception();
  }
  if (first) std::rethrow_exception(first);
}

void run_deferred_checks(Device device, unsigned long ticket) {
  std::vector<Deferred> due;
  {
    auto& q = queue();
    std::lock_guard<std::mutex> lock(q.mu);
    if (q.waiting.empty()) return;
    std::vector<Deferred> rest;
    for (auto& d : q.waiting) (d.device == device && d.ticket < ticket ? due : rest).push_back(std::move(d));
    q.waiting = std::move(rest);
  }
  std::exception_ptr first;
  for (auto& d : due) {
    try {
      d.check(d.host);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace tt::detail
