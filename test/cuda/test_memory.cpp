// The CUDA backend's memory side: a real backend replaces emulation,
// copies in every direction and for every dtype keep the bytes, pinned
// memory makes non_blocking copies asynchronous (overlapping compute), and
// CUDA errors are tt::Errors at the caller's line.
#include <tt/backend.h>
#include <tt/cuda/stream.h>

#include <random>

#include "cuda_test_util.h"

cudaError_t launch_spin(cudaStream_t stream, float ms);  // spin.cu

using namespace tt;
using tt_cuda_test::all_dtypes;
using tt_cuda_test::bytes_of;
using tt_cuda_test::CudaTest;

namespace {

// n random bytes as a cpu tensor of dtype (bools kept 0/1: other bytes are
// not valid bools).
Tensor random_bits(ScalarType dt, std::vector<int64_t> sizes, uint32_t seed = 1) {
  Tensor t = empty(sizes, dt);
  std::mt19937 gen(seed);
  auto* p = static_cast<unsigned char*>(t.data_ptr());
  for (size_t i = 0; i < t.nbytes(); ++i) p[i] = dt == kBool ? gen() & 1 : static_cast<unsigned char>(gen());
  return t;
}

class CudaMemory : public CudaTest {};

TEST_F(CudaMemory, RealBackendWinsOverEmulation) {
  EXPECT_STREQ(get_backend(kCUDA)->name(), "cuda");
  EXPECT_FALSE(get_backend(kCUDA)->host_accessible());
  set_cuda_emulation(3);  // never hides a real GPU
  EXPECT_STREQ(get_backend(kCUDA)->name(), "cuda");
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  EXPECT_EQ(cuda::device_count(), n);
}

TEST_F(CudaMemory, RoundTripEveryDtypeEveryDevice) {
  for (int d = 0; d < cuda::device_count(); ++d) {
    for (ScalarType dt : all_dtypes()) {
      SCOPED_TRACE(tt_cuda_test::dt_name(dt) + " on cuda:" + std::to_string(d));
      Tensor h = random_bits(dt, {1000, 37});
      Tensor g = h.to(Device(kCUDA, d));
      EXPECT_EQ(g.device(), Device(kCUDA, d));
      EXPECT_EQ(bytes_of(g.cpu()), bytes_of(h));
      Tensor g2 = g.clone();  // device to device
      EXPECT_EQ(bytes_of(g2.cpu()), bytes_of(h));
    }
  }
}

TEST_F(CudaMemory, NonContiguousAndEmptyCopies) {
  Tensor h = random_bits(kFloat, {64, 48});
  Tensor g = h.cuda();
  EXPECT_EQ(bytes_of(g.t().cpu()), bytes_of(h.t().contiguous()));         // strided source on the device
  EXPECT_EQ(bytes_of(h.t().cuda().cpu()), bytes_of(h.t().contiguous()));  // strided source on the host
  Tensor dst = zeros({48, 64}, kCUDA);
  dst.t().copy_(g);  // strided destination on the device
  EXPECT_EQ(bytes_of(dst.cpu()), bytes_of(h.t().contiguous()));
  EXPECT_EQ(zeros({0, 3}, kCUDA).cpu().numel(), 0);
}

// Pinned memory on either side of a non_blocking copy of a non-contiguous
// view: the staging copy must be the one the asynchronous copy reads. As in
// PyTorch, a non_blocking copy to host memory is complete only after a
// synchronisation; device results are read through cpu(), which waits.
TEST_F(CudaMemory, PinnedCopiesOfNonContiguousViews) {
  for (ScalarType dt : {kFloat, kHalf, kInt64}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor h = random_bits(dt, {64, 48}, 3).pin_memory();
    ASSERT_TRUE(h.is_pinned());
    Tensor up = h.t().to(Device(kCUDA), /*non_blocking=*/true);  // strided pinned source
    EXPECT_EQ(bytes_of(up.cpu()), bytes_of(h.t().contiguous()));
    Tensor g = h.to(Device(kCUDA));
    Tensor down = g.t().to(Device(kCPU), /*non_blocking=*/true);  // strided device source
    Tensor dst = zeros({48, 64}, dt).pin_memory();
    dst.t().copy_(g, /*non_blocking=*/true);  // strided pinned destination
    cuda::synchronize();
    EXPECT_EQ(bytes_of(down), bytes_of(h.t().contiguous()));
    EXPECT_EQ(bytes_of(dst.t()), bytes_of(h));
    // Columns of a pinned tensor onto the device and back, converting.
    Tensor cols = h.narrow(1, 5, 7).to(Device(kCUDA), kDouble, /*non_blocking=*/true);
    EXPECT_EQ(bytes_of(cols.cpu()), bytes_of(h.narrow(1, 5, 7).to(kDouble)));
  }
}

TEST_F(CudaMemory, PeerCopiesBetweenDevices) {
  if (cuda::device_count() < 2) GTEST_SKIP() << "needs 2 GPUs, found " << cuda::device_count();
  Tensor h = random_bits(kHalf, {333, 7});
  Tensor g1 = h.to(Device("cuda:0")).to(Device("cuda:1"));
  EXPECT_EQ(g1.device(), Device("cuda:1"));
  EXPECT_EQ(bytes_of(g1.cpu()), bytes_of(h));
  Tensor f = h.to(Device("cuda:0")).to(Device("cuda:1"), kFloat);  // convert and move
  EXPECT_EQ(bytes_of(f.cpu()), bytes_of(h.to(kFloat)));
}

TEST_F(CudaMemory, PinnedMemoryIsPageLocked) {
  Tensor p = ones({1024}).pin_memory();
  EXPECT_TRUE(p.is_pinned());
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, p.data_ptr()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
}

// PyTorch's contract: from pinned memory, to(cuda, non_blocking=true)
// returns before the copy is done and the copy runs beside other work; the
// copy is queued on the current stream, so tt's later kernels see the data.
TEST_F(CudaMemory, AsyncCopyFromPinnedOverlapsCompute) {
#if defined(TT_CUDA_ON_CPU)
  GTEST_SKIP() << "timing: overlap of a copy with a kernel is a GPU's copy engines at work; HIP-CPU runs each "
                  "stream's work in order on the host (the copy's ordering is tested below)";
#endif
  const int64_t n = 64 << 20;  // 256 MiB of float: ~10 ms over PCIe/NVLink-C2C
  Tensor p = full({n}, 3.0f).pin_memory();
  cudaStream_t side = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t spin_start, spin_end, copy_end;
  ASSERT_EQ(cudaEventCreate(&spin_start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&spin_end), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&copy_end), cudaSuccess);
  (void)zeros({1}, kCUDA);  // the backend's stream and pool exist before timing

  ASSERT_EQ(cudaEventRecord(spin_start, side), cudaSuccess);
  ASSERT_EQ(launch_spin(side, 500.0f), cudaSuccess);  // "compute" on another stream
  ASSERT_EQ(cudaEventRecord(spin_end, side), cudaSuccess);
  Tensor g = p.to(Device(kCUDA), /*non_blocking=*/true);
  ASSERT_EQ(cudaEventRecord(copy_end, cuda::current_stream(0)), cudaSuccess);
  // to() returned while the copy may still run; the copy then finishes
  // while the spin kernel is still busy: they overlapped.
  ASSERT_EQ(cudaEventSynchronize(copy_end), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(spin_end), cudaErrorNotReady) << "the pinned copy waited for the compute kernel";
  float copy_ms = 0;
  ASSERT_EQ(cudaEventSynchronize(spin_end), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&copy_ms, spin_start, copy_end), cudaSuccess);
  float spin_ms = 0;
  ASSERT_EQ(cudaEventElapsedTime(&spin_ms, spin_start, spin_end), cudaSuccess);
  EXPECT_LT(copy_ms, spin_ms);
  EXPECT_EQ(g.sum().item<double>(), 3.0 * static_cast<double>(n));  // ordered on the current stream
  cudaEventDestroy(spin_start);
  cudaEventDestroy(spin_end);
  cudaEventDestroy(copy_end);
  cudaStreamDestroy(side);
}

// The pinned source of a non_blocking upload may die while the copy is
// still queued. Freeing it does not wait (the block is cached, as PyTorch's
// CachingHostAllocator caches it), but the block is not handed out again
// until the copy has finished, so the copy never reads pages that a new
// pinned tensor is writing.
TEST_F(CudaMemory, PinnedMemoryIsReusedOnlyAfterItsAsyncCopy) {
  const int64_t n = 16 << 20;
  (void)zeros({1}, kCUDA);
  Tensor g;
  const void* freed = nullptr;
  {
    Tensor p = full({n}, 5.0f).pin_memory();
    freed = p.data_ptr();
    ASSERT_EQ(launch_spin(cuda::current_stream(0), 200.0f), cudaSuccess);  // the copy queues behind it
    g = p.to(Device(kCUDA), /*non_blocking=*/true);
    EXPECT_EQ(cudaStreamQuery(cuda::current_stream(0)), cudaErrorNotReady);
  }
  EXPECT_EQ(cudaStreamQuery(cuda::current_stream(0)), cudaErrorNotReady) << "freeing pinned memory waited";
  Tensor q = full({n}, -1.0f).pin_memory();
  EXPECT_NE(q.data_ptr(), freed) << "a pinned block was reused while a copy from it was queued";
  EXPECT_EQ(g.sum().item<double>(), 5.0 * static_cast<double>(n));
  // Its copy done, the block is reused: no new page-locked allocation.
  Tensor r = full({n}, -2.0f).pin_memory();
  EXPECT_EQ(r.data_ptr(), freed);
}

// Only copies touch host memory: once the host has waited for the stream
// after a pinned block's copies, freeing the block needs no event and it is
// reused at once, even while unrelated device work is still queued (a
// training step's batch, freed after its item()).
TEST_F(CudaMemory, PinnedMemoryIsReusedAtOnceAfterTheHostWaited) {
  const int64_t n = 1 << 20;
  const void* freed = nullptr;
  cudaEvent_t spun = nullptr;
  ASSERT_EQ(cudaEventCreateWithFlags(&spun, cudaEventDisableTiming), cudaSuccess);
  {
    Tensor p = full({n}, 3.0f).pin_memory();
    freed = p.data_ptr();
    Tensor g = p.to(Device(kCUDA), /*non_blocking=*/true);
    EXPECT_EQ(g.sum().item<double>(), 3.0 * static_cast<double>(n));       // waits: the copy has finished
    ASSERT_EQ(launch_spin(cuda::current_stream(0), 200.0f), cudaSuccess);  // device work, no host memory
    ASSERT_EQ(cudaEventRecord(spun, cuda::current_stream(0)), cudaSuccess);
  }
  Tensor q = full({n}, -1.0f).pin_memory();
  // Reuse shows something only while the spin still runs (an event recorded
  // behind it would not have completed); a loaded machine may finish it first.
  const bool busy = cudaEventQuery(spun) == cudaErrorNotReady;
  (void)cudaGetLastError();
  cuda::synchronize();
  cudaEventDestroy(spun);
  if (!busy) GTEST_SKIP() << "the device finished the spin before the check: nothing shown";
  EXPECT_EQ(q.data_ptr(), freed) << "a block no copy can use was not reused";
}

TEST_F(CudaMemory, PageableNonBlockingCopyIsSynchronous) {
  Tensor h = full({1 << 20}, 2.0f);  // pageable
  Tensor g = h.to(Device(kCUDA), /*non_blocking=*/true);
  EXPECT_EQ(cudaStreamQuery(cuda::current_stream(0)), cudaSuccess) << "a pageable copy must be complete on return";
  Tensor back = g.to(Device(kCPU), /*non_blocking=*/true);
  EXPECT_EQ(back.sum().item<double>(), 2.0 * (1 << 20));
}

TEST_F(CudaMemory, CudaErrorsNameTheCallersLine) {
  const int line = __LINE__ + 2;
  try {
    Tensor huge = empty({int64_t{1} << 50}, TensorOptions().device(kCUDA).dtype(kByte));  // 1 PiB
    FAIL() << "allocated 1 PiB";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.message()).find("CUDA out of memory"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), line);
    EXPECT_NE(std::string(e.file()).find("test_memory.cpp"), std::string::npos);
  }
  // The failure left nothing behind: the next allocation works.
  EXPECT_EQ(ones({4}, kCUDA).sum().item<double>(), 4.0);
}

TEST_F(CudaMemory, InvalidOrdinalIsCudaUnavailable) {
  EXPECT_THROW(zeros({1}, Device(kCUDA, cuda::device_count())), CudaUnavailableError);
}

}  // namespace
