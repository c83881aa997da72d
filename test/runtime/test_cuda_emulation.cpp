// TT_EMULATE_CUDA semantics: cuda:N devices in host memory, every device
// rule enforced as on a GPU; and the backend registration point.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "test_util.h"

using namespace tt;
using tt_test::values;

class Emulation : public tt_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    set_cuda_emulation(2);
  }
};

TEST_F(Emulation, DevicesExistAndTensorsLiveThere) {
  TT_SKIP_WITH_REAL_CUDA();
  EXPECT_TRUE(cuda::is_available());
  EXPECT_EQ(cuda::device_count(), 2);
  Tensor g = ones({2, 3}, kCUDA);
  EXPECT_EQ(g.device(), Device("cuda:0"));  // the current device resolves index -1
  EXPECT_TRUE(g.is_cuda());
  Tensor g1 = zeros({2}, Device("cuda:1"));
  EXPECT_EQ(g1.device().index(), 1);
  EXPECT_EQ(ones({2}).cuda().device(), Device("cuda:0"));
  EXPECT_EQ(g1.cuda().device(), Device("cuda:1"));  // stays on its device
  EXPECT_EQ(g.cpu().device(), Device(kCPU));
  EXPECT_EQ(arange(4, device(kCUDA)).device(), Device("cuda:0"));
  EXPECT_EQ(randn({4}, TensorOptions().device(Device("cuda:1")).dtype(kHalf)).device(), Device("cuda:1"));
}

TEST_F(Emulation, OpsRunOnTheDeviceAndKeepIt) {
  Tensor a = arange(6, TensorOptions().dtype(kFloat).device(kCUDA)).view({2, 3});
  Tensor b = (a * 2 + 1).relu();
  EXPECT_EQ(b.device(), Device("cuda:0"));
  EXPECT_EQ(values<float>(b), std::vector<float>({1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(b.sum().device(), Device("cuda:0"));
  EXPECT_EQ(b.sum().item<float>(), 36.f);
  EXPECT_EQ(matmul(a, a.t()).device(), Device("cuda:0"));
  EXPECT_EQ(softmax(a, 1).device(), Device("cuda:0"));
  EXPECT_EQ(cat({a, a}).device(), Device("cuda:0"));
  EXPECT_EQ(std::get<1>(a.max(1)).device(), Device("cuda:0"));
}

TEST_F(Emulation, CpuScalarsJoinAnyDevice) {
  TT_SKIP_WITH_REAL_CUDA();
  Tensor g = ones({3}, Device("cuda:1"));
  Tensor s = tensor(2.0);  // 0-dim cpu
  Tensor r = g * s;
  EXPECT_EQ(r.device(), Device("cuda:1"));
  EXPECT_EQ(values<float>(r), std::vector<float>({2, 2, 2}));
  EXPECT_EQ((s + g).device(), Device("cuda:1"));
  EXPECT_EQ(where(g > 0, g, s).device(), Device("cuda:1"));
  g.add_(s);
  EXPECT_EQ(values<float>(g), std::vector<float>({3, 3, 3}));
  EXPECT_EQ((g + 1.5).device(), Device("cuda:1"));  // C++ scalars too
}

TEST_F(Emulation, TransfersKeepValues) {
  TT_SKIP_WITH_REAL_CUDA();
  Tensor c = tensor({1.5, -2.0, 3.25});
  Tensor g = c.to(Device("cuda:1"), kHalf);
  EXPECT_EQ(g.device(), Device("cuda:1"));
  EXPECT_EQ(g.dtype(), kHalf);
  Tensor g0 = g.to(Device("cuda:0"));
  EXPECT_EQ(values<float>(g0), values<float>(c));
  EXPECT_NE(g0.data_ptr(), g.data_ptr());
  Tensor back = zeros({3});
  back.copy_(g0);  // copy_ crosses devices, as in PyTorch
  EXPECT_EQ(values<float>(back), values<float>(c));
  EXPECT_EQ(c.to(g0).device(), Device("cuda:0"));
  EXPECT_THROW(g.item<float>(), ValueError);
  EXPECT_EQ(g.select(0, 2).item<float>(), 3.25f);  // item() of a cuda tensor copies back
}

TEST_F(Emulation, DisablingRemovesTheDevices) {
  TT_SKIP_WITH_REAL_CUDA();
  set_cuda_emulation(0);
  EXPECT_FALSE(cuda::is_available());
  EXPECT_THROW(ones({1}, kCUDA), CudaUnavailableError);
}

// A backend registered by another library (as cuda/ will) receives every
// cuda allocation and copy.
class CountingBackend final : public Backend {
 public:
  std::atomic<int> allocs{0}, frees{0}, copies{0};
  int device_count() const override { return 1; }
  void* allocate(size_t n, int) override {
    ++allocs;
    return std::malloc(n ? n : 1);
  }
  void deallocate(void* p, size_t, int) noexcept override {
    ++frees;
    std::free(p);
  }
  void copy(void* d, Device, const void* s, Device, size_t n, bool) override {
    ++copies;
    std::memcpy(d, s, n);
  }
  void* allocate_pinned(size_t n) override { return std::malloc(n ? n : 1); }
  void deallocate_pinned(void* p, size_t) noexcept override { std::free(p); }
  bool host_accessible() const override { return false; }
  const char* name() const override { return "counting"; }
};

TEST_F(Emulation, RegisteredBackendOwnsCudaMemory) {
  auto backend = std::make_shared<CountingBackend>();
  register_backend(kCUDA, backend);
  {
    Tensor g = tensor({1.0, 2.0}).cuda();
    EXPECT_EQ(backend->allocs.load(), 1);
    EXPECT_EQ(backend->copies.load(), 1);
    EXPECT_EQ(values<float>(g), std::vector<float>({1, 2}));  // copied back through the backend
    EXPECT_EQ(backend->copies.load(), 2);
    // No host kernels for a device the host cannot read.
    EXPECT_THROW(g + g, Error);
  }
  EXPECT_EQ(backend->frees.load(), backend->allocs.load());
  register_backend(kCUDA, nullptr);
  EXPECT_FALSE(cuda::is_available());
}
