// Internal: per-device kernel entries, ATen's DispatchStub pattern
// (aten/src/ATen/native/DispatchStub.h). Each kernel of kernels.h is a stub
// object holding one function per kind of memory:
//   - the cpu function, given where the stub is defined (TT_DEFINE_DISPATCH,
//     next to the cpu kernel), runs on host memory: cpu tensors, and cuda
//     tensors of an emulated device;
//   - a device function, registered by a backend whose memory the host cannot
//     read (cuda/ on a GPU, register_cuda), runs on that backend's tensors
//     while its kernels are enabled; without one, such a tensor is an error
//     naming the stub, never the cpu function on memory it cannot read.
// Callers call the stub like the function it stands for; it takes the device
// from one of its arguments, so no op or kernel tests devices itself.
#pragma once

#include <atomic>
#include <cstddef>
#include <source_location>
#include <tuple>
#include <utility>

#include "../tensor_impl.h"

namespace tt::detail::kernels {

namespace dispatch_detail {
extern std::atomic<bool> g_cuda_kernels_enabled;
inline Device device_of(const TensorImpl& t) { return t.device(); }
inline Device device_of(Device d) { return d; }
/// Throws the missing-kernel error (see DispatchStub::operator()).
[[noreturn]] void missing_device_kernel(const char* stub, Device d);
}  // namespace dispatch_detail

/// Whether cuda tensors run registered device kernels (true from a real CUDA
/// backend's registration until another backend replaces it, so emulated
/// memory never meets device kernels). Lock-free: read at every kernel call.
inline bool cuda_kernels_enabled() noexcept {
  return dispatch_detail::g_cuda_kernels_enabled.load(std::memory_order_acquire);
}
/// Turns the registered cuda kernels on or off (cuda/'s probe; register_backend).
void set_cuda_kernels_enabled(bool on) noexcept;

/// True where d's memory runs device kernels rather than the cpu kernels.
inline bool has_device_kernels(Device d) noexcept { return d.is_cuda() && cuda_kernels_enabled(); }

/// A kernel entry with signature R(Args...), dispatched on the device of its
/// argument number DeviceArg (a TensorImpl or a Device).
/// Constant-initialised (constinit), so it may be called from any static
/// initialiser; registration is an atomic store and may race with calls.
template <size_t DeviceArg, class Sig>
class DispatchStub;

template <size_t DeviceArg, class R, class... Args>
class DispatchStub<DeviceArg, R(Args...)> {
 public:
  using Fn = R (*)(Args...);
  constexpr DispatchStub(const char* name, Fn cpu) noexcept : name_(name), cpu_(cpu) {}
  DispatchStub(const DispatchStub&) = delete;
  DispatchStub& operator=(const DispatchStub&) = delete;

  /// Runs the function for the device of argument DeviceArg. On memory with
  /// device kernels and no function registered for it, throws tt::Error
  /// "DispatchStub: missing cuda kernel for '<name>'" at the op's call site,
  /// as ATen's DispatchStub refuses: the cpu function cannot read that memory.
  R operator()(Args... args) const {
    const Device d = dispatch_detail::device_of(std::get<DeviceArg>(std::forward_as_tuple(args...)));
    if (has_device_kernels(d)) {
      if (Fn f = cuda_.load(std::memory_order_acquire)) return f(std::forward<Args>(args)...);
      dispatch_detail::missing_device_kernel(name_, d);
    }
    return cpu_(std::forward<Args>(args)...);
  }

  /// Installs the function for cuda memory (nullptr: none).
  void register_cuda(Fn f) noexcept { cuda_.store(f, std::memory_order_release); }
  /// The function installed for cuda memory, or nullptr (so a test can
  /// put back what a backend registered).
  Fn registered_cuda() const noexcept { return cuda_.load(std::memory_order_acquire); }

 private:
  const char* name_;
  Fn cpu_;
  std::atomic<Fn> cuda_{nullptr};
};

/// Declares a stub in a header: TT_DECLARE_DISPATCH(copy, 0, void(const TensorImpl& dst, const TensorImpl& src));
#define TT_DECLARE_DISPATCH(name, device_arg, ...) \
  extern ::tt::detail::kernels::DispatchStub<device_arg, __VA_ARGS__> name
/// Defines a declared stub with its cpu function, in the cpu kernel's file.
#define TT_DEFINE_DISPATCH(name, cpu_fn) \
  constinit decltype(name) name { #name, cpu_fn }

/// The user's call site of the op now running on this thread, set by the op
/// layer (resolve_device, require_host_kernels) before any allocation or
/// kernel, so that device errors (a failed cudaMallocAsync, a launch error)
/// name the user's line although kernels take no location.
void set_device_call_site(const std::source_location& loc) noexcept;
std::source_location device_call_site() noexcept;

}  // namespace tt::detail::kernels
