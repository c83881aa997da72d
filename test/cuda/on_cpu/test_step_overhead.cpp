// The host's cost of a training step on the CUDA backend, counted in CUDA
// runtime calls (the stand-ins' tt::cuda_on_cpu::api_calls, what
// bench/cuda/cuda_call_count.c counts on a GPU): once the first epoch has
// filled the pinned-memory cache, a step of the usual loop (pinned batches
// from a DataLoader, non_blocking copies, loss.item()) pins no new host
// memory and waits for the device only where the program asks (item()).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <tt/tt.h>

#include <memory>
#include <vector>

namespace {

struct Mlp : tt::nn::Module {
  Mlp() {
    fc1 = register_module("fc1", std::make_shared<tt::nn::Linear>(48, 32));
    fc2 = register_module("fc2", std::make_shared<tt::nn::Linear>(32, 10));
  }
  tt::Tensor forward(const tt::Tensor& x, tt::SourceLoc loc = tt::SourceLoc::current()) override {
    return fc2->forward(tt::relu(fc1->forward(x, loc)), loc);
  }
  std::shared_ptr<tt::nn::Linear> fc1, fc2;
};

struct EpochCalls {
  tt::cuda_on_cpu::ApiCalls calls;
  long steps = 0;
};

// One epoch of the loop users write, returning the calls it made.
EpochCalls run_epoch(tt::data::DataLoader& loader, Mlp& model, tt::optim::Optimizer& optimizer, tt::Device device,
                     bool non_blocking) {
  const auto before = tt::cuda_on_cpu::api_calls();
  EpochCalls e;
  double loss_sum = 0;
  for (auto& batch : loader) {
    tt::Tensor data = batch.data.to(device, non_blocking);
    tt::Tensor target = batch.target.to(device, non_blocking);
    optimizer.zero_grad();
    tt::Tensor loss = tt::nn::functional::cross_entropy(model.forward(data), target);
    loss.backward();
    optimizer.step();
    loss_sum += loss.item<double>();
    ++e.steps;
  }
  EXPECT_TRUE(std::isfinite(loss_sum));
  const auto after = tt::cuda_on_cpu::api_calls();
  e.calls.host_alloc = after.host_alloc - before.host_alloc;
  e.calls.free_host = after.free_host - before.free_host;
  e.calls.stream_synchronize = after.stream_synchronize - before.stream_synchronize;
  e.calls.event_synchronize = after.event_synchronize - before.event_synchronize;
  e.calls.get_device = after.get_device - before.get_device;
  e.calls.set_device = after.set_device - before.set_device;
  e.calls.pointer_get_attributes = after.pointer_get_attributes - before.pointer_get_attributes;
  return e;
}

class StepOverhead : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) GTEST_SKIP() << "no CUDA device on HIP-CPU";
  }
};

// Parameter: DataLoader workers (0: batches made on the training thread).
TEST_P(StepOverhead, AfterTheFirstEpochNoPinnedAllocationAndOneSynchronisationPerStep) {
  tt::manual_seed(3);
  const tt::Device device(tt::kCUDA);
  auto set = std::make_shared<tt::data::TensorDataset>(tt::randn({320, 48}), (tt::rand({320}) * 10).to(tt::kLong));
  tt::data::DataLoader loader(
      set, tt::data::DataLoaderOptions().batch_size(32).shuffle(true).num_workers(GetParam()).pin_memory(true));
  Mlp model;
  model.to(device);
  tt::optim::SGD optimizer(model.parameters(), tt::optim::SGDOptions(0.05).momentum(0.9));

  const EpochCalls first = run_epoch(loader, model, optimizer, device, /*non_blocking=*/true);
  EXPECT_GT(first.calls.host_alloc, 0) << "the first epoch fills the pinned cache";
  for (int epoch = 2; epoch <= 3; ++epoch) {
    const EpochCalls e = run_epoch(loader, model, optimizer, device, /*non_blocking=*/true);
    ASSERT_EQ(e.steps, 10);
    SCOPED_TRACE("epoch " + std::to_string(epoch));
    EXPECT_EQ(e.calls.host_alloc, 0);
    EXPECT_EQ(e.calls.free_host, 0);
    EXPECT_LE(e.calls.synchronizations(), e.steps) << "one per step: loss.item()";
    // One device: no per-op device switching, and tt's own pinned blocks
    // need no pointer query to be known as page-locked.
    EXPECT_EQ(e.calls.get_device + e.calls.set_device, 0);
    EXPECT_EQ(e.calls.pointer_get_attributes, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Workers, StepOverhead, ::testing::Values(0, 2));

// A blocking copy still waits, as PyTorch's does (copy_kernel_cuda
// synchronises the stream unless non_blocking): the budget above comes from
// the cache and the non_blocking copies, not from skipping waits.
TEST(StepOverheadBlocking, BlockingCopiesWaitOncePerCopy) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) GTEST_SKIP() << "no CUDA device on HIP-CPU";
  tt::Tensor pinned = tt::ones({64}).pin_memory();
  const auto before = tt::cuda_on_cpu::api_calls();
  tt::Tensor on_device = pinned.to(tt::kCUDA);
  const auto after_blocking = tt::cuda_on_cpu::api_calls();
  EXPECT_EQ(after_blocking.synchronizations() - before.synchronizations(), 1);
  tt::Tensor again = pinned.to(tt::kCUDA, /*non_blocking=*/true);
  EXPECT_EQ(tt::cuda_on_cpu::api_calls().synchronizations(), after_blocking.synchronizations());
  EXPECT_EQ(again.sum().item<double>(), 64.0);
}

// A reduction of one long row splits it over many blocks, and the row's
// last block to finish combines their partial states (ATen's reduce_kernel
// does the same): one kernel and no allocation beyond the output's. A
// second kernel and a scratch allocation per call were the fixed cost that
// held a 64M-element float16 sum at 0.77 of memcpy on an H100.
TEST(ReductionOverhead, ALongRowIsOneKernelAndOneAllocation) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) GTEST_SKIP() << "no CUDA device on HIP-CPU";
  tt::Tensor x = tt::ones({(1 << 20) + 3}, tt::TensorOptions().device(tt::kCUDA));
  (void)x.sum().item<double>();  // the first split reduction allocates the device's scratch once
  for (int call = 0; call < 3; ++call) {
    const auto before = tt::cuda_on_cpu::api_calls();
    tt::Tensor total = x.sum();
    tt::Tensor index = x.argmax();
    const auto after = tt::cuda_on_cpu::api_calls();
    EXPECT_EQ(after.kernel_launch - before.kernel_launch, 2) << "one kernel each for sum and argmax";
    EXPECT_EQ(after.malloc_async - before.malloc_async, 2) << "their outputs only";
    EXPECT_EQ(total.item<double>(), double((1 << 20) + 3));  // exact: below 2^24
    EXPECT_EQ(index.item<int64_t>(), 0);
  }
}

// An optimizer step on the device is one fused kernel per parameter and no
// allocation (optimizer_step.cu), where the unfused ops launched three
// kernels a parameter for SGD with momentum and about ten for Adam, with
// Adam's temporaries allocated each step.
TEST(OptimizerOverhead, AStepIsOneKernelPerParameterAndNoAllocation) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) GTEST_SKIP() << "no CUDA device on HIP-CPU";
  Mlp model;
  model.to(tt::Device(tt::kCUDA));
  const size_t params = model.parameters().size();
  std::vector<std::unique_ptr<tt::optim::Optimizer>> optimizers;
  optimizers.push_back(std::make_unique<tt::optim::SGD>(model.parameters(), tt::optim::SGDOptions(0.05).momentum(0.9)));
  optimizers.push_back(std::make_unique<tt::optim::Adam>(model.parameters(), tt::optim::AdamOptions(1e-3)));
  for (auto& optimizer : optimizers) {
    for (const tt::Tensor& p : model.parameters()) p.mutable_grad() = tt::ones_like(p);
    optimizer->step();  // the first step creates the state
    for (int step = 0; step < 2; ++step) {
      const auto before = tt::cuda_on_cpu::api_calls();
      optimizer->step();
      const auto after = tt::cuda_on_cpu::api_calls();
      EXPECT_EQ(after.kernel_launch - before.kernel_launch, static_cast<long>(params));
      EXPECT_EQ(after.malloc_async - before.malloc_async, 0);
      EXPECT_EQ(after.synchronizations() - before.synchronizations(), 0);
    }
  }
}

}  // namespace
