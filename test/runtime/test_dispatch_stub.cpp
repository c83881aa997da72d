// The dispatch stubs (runtime/src/kernels/dispatch_stub.h): a kernel runs
// its cpu function on host memory and a registered device function on a
// device backend's memory, only while that backend's kernels are enabled.
#include <gtest/gtest.h>

#include "kernels/kernels.h"  // runtime/src: the stubs under test
#include "test_util.h"

using namespace tt;
namespace k = tt::detail::kernels;

namespace {

int g_cpu_calls = 0, g_cuda_calls = 0;
int cpu_fn(const detail::TensorImpl&, int x) {
  ++g_cpu_calls;
  return x + 1;
}
int cuda_fn(const detail::TensorImpl&, int x) {
  ++g_cuda_calls;
  return x + 100;
}
int device_cpu_fn(Device, int x) { return x; }
int device_cuda_fn(Device, int x) { return -x; }

TT_DECLARE_DISPATCH(test_stub, 0, int(const detail::TensorImpl&, int));
TT_DEFINE_DISPATCH(test_stub, cpu_fn);
TT_DECLARE_DISPATCH(device_arg_stub, 0, int(Device, int));
TT_DEFINE_DISPATCH(device_arg_stub, device_cpu_fn);

class DispatchStubTest : public tt_test::RuntimeTest {
 protected:
  // The runtime's state as a backend left it (on the HIP-CPU build the real
  // backend has registered its kernels and enabled them): put back after
  // each case, so later cases in the same process see it unchanged.
  void SetUp() override {
    RuntimeTest::SetUp();
    g_cpu_calls = g_cuda_calls = 0;
    enabled_before_ = k::cuda_kernels_enabled();
    fill_before_ = k::fill.registered_cuda();
  }
  void TearDown() override {
    test_stub.register_cuda(nullptr);
    device_arg_stub.register_cuda(nullptr);
    k::fill.register_cuda(fill_before_);
    k::set_cuda_kernels_enabled(enabled_before_);
    RuntimeTest::TearDown();
  }

 private:
  bool enabled_before_ = false;
  decltype(k::fill)::Fn fill_before_ = nullptr;
};

TEST_F(DispatchStubTest, CudaMemoryRunsTheDeviceFunctionOnlyWhileEnabled) {
  TT_SKIP_WITH_REAL_CUDA();
  set_cuda_emulation(1);
  Tensor c = ones({2});
  Tensor g = ones({2}, kCUDA);
  test_stub.register_cuda(&cuda_fn);
  // Registered but not enabled (an emulated device owns cuda): cpu function.
  EXPECT_EQ(test_stub(detail::impl_of(g, std::source_location::current()), 1), 2);
  k::set_cuda_kernels_enabled(true);
  EXPECT_TRUE(k::has_device_kernels(Device("cuda:0")));
  EXPECT_FALSE(k::has_device_kernels(Device(kCPU)));
  EXPECT_EQ(test_stub(detail::impl_of(g, std::source_location::current()), 1), 101);
  EXPECT_EQ(test_stub(detail::impl_of(c, std::source_location::current()), 1), 2);  // cpu memory stays on cpu
  k::set_cuda_kernels_enabled(false);
  EXPECT_EQ(test_stub(detail::impl_of(g, std::source_location::current()), 1), 2);
  EXPECT_EQ(g_cpu_calls, 3);
  EXPECT_EQ(g_cuda_calls, 1);
}

// ATen's DispatchStub refuses a device without a kernel; the cpu function
// would read memory the host cannot. The error names the stub and the op's
// call site.
TEST_F(DispatchStubTest, EnabledWithoutADeviceFunctionIsAnErrorNamingTheStub) {
  set_cuda_emulation(1);
  Tensor g = ones({2}, kCUDA);
  k::set_cuda_kernels_enabled(true);
  const auto site = std::source_location::current();
  k::set_device_call_site(site);
  try {
    (void)test_stub(detail::impl_of(g, site), 5);
    ADD_FAILURE() << "the cpu function ran on device memory";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "DispatchStub: missing cuda kernel for 'test_stub'");
    EXPECT_EQ(e.line(), site.line());
  }
  EXPECT_EQ(g_cpu_calls, 0);
  // cpu memory still runs the cpu function.
  Tensor c = ones({2});
  EXPECT_EQ(test_stub(detail::impl_of(c, site), 5), 6);
}

TEST_F(DispatchStubTest, TheDeviceMayBeAnArgumentItself) {
  device_arg_stub.register_cuda(&device_cuda_fn);
  k::set_cuda_kernels_enabled(true);
  EXPECT_EQ(device_arg_stub(Device("cuda:1"), 7), -7);
  EXPECT_EQ(device_arg_stub(Device(kCPU), 7), 7);
}

// The runtime's own stubs: a device fill registered for cuda is what
// zeros() on a cuda tensor runs, once enabled.
int g_fills = 0;
void counting_fill(const detail::TensorImpl& dst, const Scalar&) {
  ++g_fills;
  std::memset(dst.data(), 0, static_cast<size_t>(dst.numel) * element_size(dst.dtype));
}

TEST_F(DispatchStubTest, RuntimeKernelsReachTheRegisteredDeviceFunction) {
  TT_SKIP_WITH_REAL_CUDA();
  set_cuda_emulation(1);
  g_fills = 0;
  k::fill.register_cuda(&counting_fill);
  Tensor a = zeros({3}, kCUDA);
  EXPECT_EQ(g_fills, 0);
  k::set_cuda_kernels_enabled(true);
  a.fill_(2.0);
  EXPECT_EQ(g_fills, 1);
  k::set_cuda_kernels_enabled(false);
  a.fill_(2.0);
  EXPECT_EQ(g_fills, 1);
  EXPECT_EQ(tt_test::values<float>(a.cpu()), std::vector<float>(3, 2.f));
}

}  // namespace
