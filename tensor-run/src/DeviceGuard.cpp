#include "DeviceGuard.h"

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>

#include "Config.h"

namespace tensor_run {

namespace {

__attribute__((tls_model("initial-exec"))) thread_local c10::DeviceIndex t_current = 0;

// Streams and events: work is synchronous here, so every stream is the
// default stream of its device, every event has already happened and
// waiting on anything returns at once.
class EmulatedGuardImpl final : public c10::impl::DeviceGuardImplInterface {
 public:
  c10::DeviceType type() const override { return c10::DeviceType::CUDA; }
  c10::Device exchangeDevice(c10::Device d) const override {
    const c10::Device old = getDevice();
    if (d.index() != old.index()) setDevice(d);
    return old;
  }
  c10::Device getDevice() const override { return {c10::DeviceType::CUDA, t_current}; }
  void setDevice(c10::Device d) const override {
    TORCH_INTERNAL_ASSERT(d.is_cuda());
    const c10::DeviceIndex i = d.has_index() ? d.index() : 0;
    check_device_index(i);
    t_current = i;
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    if (d.has_index() && d.index() >= 0 && d.index() < device_count()) t_current = d.index();
  }
  c10::Stream getStream(c10::Device d) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, d); }
  c10::Stream getDefaultStream(c10::Device d) const override { return c10::Stream(c10::Stream::DEFAULT, d); }
  c10::Stream getStreamFromGlobalPool(c10::Device d, bool) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, s.device());
  }
  void destroyEvent(void*, const c10::DeviceIndex) const noexcept override {}
  void record(void** event, const c10::Stream&, const c10::DeviceIndex, const c10::EventFlag) const override {
    // Any non-null handle: the event exists and has completed.
    if (*event == nullptr) *event = reinterpret_cast<void*>(1);
  }
  void block(void*, const c10::Stream&) const override {}
  bool queryEvent(void*) const override { return true; }
  c10::DeviceIndex deviceCount() const noexcept override { return static_cast<c10::DeviceIndex>(device_count()); }
  bool queryStream(const c10::Stream&) const override { return true; }
  void synchronizeStream(const c10::Stream&) const override {}
  void recordDataPtrOnStream(const c10::DataPtr&, const c10::Stream&) const override {}
};

C10_REGISTER_GUARD_IMPL(CUDA, EmulatedGuardImpl);

}  // namespace

c10::DeviceIndex current_device() noexcept { return t_current; }

int device_count() noexcept { return config().devices; }

void check_device_index(c10::DeviceIndex index) {
  TORCH_CHECK(index >= 0 && index < device_count(), "CUDA error: invalid device ordinal (device ",
              static_cast<int>(index), " requested; tensor-run emulates ", device_count(),
              device_count() == 1 ? " device" : " devices", ", see --devices)");
}

CurrentDevice::CurrentDevice(c10::DeviceIndex index) : saved_(t_current) {
  check_device_index(index);
  t_current = index;
}
CurrentDevice::~CurrentDevice() { t_current = saved_; }

}  // namespace tensor_run
