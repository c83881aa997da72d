// The state behind the dispatch stubs (see dispatch_stub.h).
#include "kernels/dispatch_stub.h"

#include <string>

#include "tt/errors.h"

namespace tt::detail::kernels {

namespace dispatch_detail {
constinit std::atomic<bool> g_cuda_kernels_enabled{false};

void missing_device_kernel(const char* stub, Device d) {
  throw Error(std::string("DispatchStub: missing ") + Device(d.type()).str() + " kernel for '" + stub + "'",
              device_call_site());
}
}  // namespace dispatch_detail

namespace {
thread_local std::source_location t_call_site = std::source_location::current();
}  // namespace

void set_cuda_kernels_enabled(bool on) noexcept {
  dispatch_detail::g_cuda_kernels_enabled.store(on, std::memory_order_release);
}

void set_device_call_site(const std::source_location& loc) noexcept { t_call_site = loc; }
std::source_location device_call_site() noexcept { return t_call_site; }

}  // namespace tt::detail::kernels
