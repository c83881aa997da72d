// Device rules: 0-dim cpu scalars, cross-device copies, indices, joins, two
// devices, an invalid device.
#include "cases.h"

using cases::cuda;
using cases::expect;

// A 0-dim cpu tensor may join a cuda op (TensorIterator's exception).
TT_CASE(scalar_clean) {
  auto x = torch::randn({4, 3}, cuda());
  auto scale = torch::tensor(2.0);
  auto y = x * scale + torch::ones({});
  expect(y.is_cuda(), "a cuda op with cpu scalars stays on cuda");
  expect(torch::allclose(y.cpu(), x.cpu() * 2 + 1), "same values as on the cpu");
  auto clipped = torch::where(x > 0, x, torch::zeros({}));
  expect(clipped.is_cuda(), "where with a cpu scalar");
  x.masked_fill_(x < 0, torch::tensor(0.0));
  expect(x.min().item<float>() >= 0, "masked_fill_ with a cpu scalar value");
}

// One element is not a scalar: a 1-dim cpu tensor does not join.
TT_CASE(scalar_bug) {
  auto x = torch::randn({4, 3}, cuda());
  auto scale = torch::tensor({2.0f});
  auto y = x * scale; // BUG(tensor-mixed-device)
  expect(y.defined(), "record mode continues");
}

// copy_ between devices is how data moves, never a violation.
TT_CASE(copy_clean) {
  auto host = torch::arange(12, torch::kFloat).reshape({3, 4});
  auto dev = torch::empty({3, 4}, cuda());
  dev.copy_(host);
  auto back = torch::empty({3, 4});
  back.copy_(dev);
  expect(torch::equal(back, host), "round trip through the device");
  auto transposed = torch::empty({4, 3}, cuda());
  transposed.copy_(host.t());
  expect(torch::equal(transposed.cpu(), host.t()), "strided source");
  auto nb = host.to(cuda(), /*non_blocking=*/true);
  torch::cuda::synchronize();
  expect(torch::equal(nb.cpu(), host), "non_blocking copy");
  auto half = host.to(cuda(), torch::kHalf);
  expect(half.is_cuda() && half.scalar_type() == torch::kHalf, "device and dtype in one conversion");
  expect(torch::equal(half.cpu().to(torch::kFloat), host), "exact in float16");
}

// Indexing a cuda tensor with cpu indices is allowed; index_select is not.
TT_CASE(index_clean) {
  auto x = torch::arange(10, torch::kFloat).to(cuda());
  auto idx = torch::tensor({1, 3, 5}, torch::kLong);
  auto picked = x.index({idx});
  expect(picked.is_cuda() && picked.sum().item<float>() == 9, "cpu indices");
  x.index_put_({idx}, torch::zeros({3}, cuda()));
  expect(x.sum().item<float>() == 36, "index_put_ with cpu indices");
  auto mask = torch::arange(10) < 2;
  expect(x.index({mask}).numel() == 2, "a cpu boolean mask");
  // A list the caller keeps is not touched by the op.
  c10::List<c10::optional<torch::Tensor>> kept;
  kept.push_back(torch::tensor({0, 1}, torch::kLong).to(cuda()));
  auto first = x.index(kept), second = x.index(kept);
  expect(kept.get(0)->is_cuda() && torch::equal(first.cpu(), second.cpu()), "the caller's list is unchanged");
}

// Overlapping in-place copies are refused as on a GPU (the views of one
// device storage share one storage for the cpu kernel).
TT_CASE(overlap_error) {
  // GPU: raises "refer to a single memory location"
  auto x = torch::arange(8, torch::kFloat).to(cuda());
  x.narrow(0, 1, 7).copy_(x.narrow(0, 0, 7));
  auto y = torch::zeros({4}, cuda());
  torch::add_out(y, y.narrow(0, 0, 4), y.narrow(0, 0, 4));
  expect(false, "unreachable: the overlapping copy raises");
}

TT_CASE(index_bug) {
  auto x = torch::randn({10, 4}, cuda());
  auto idx = torch::tensor({0, 2}, torch::kLong);
  auto rows = torch::index_select(x, 0, idx); // BUG(tensor-mixed-device)
  expect(rows.size(0) == 2, "record mode continues");
}

TT_CASE(cat_clean) {
  auto a = torch::ones({2, 3}, cuda()), b = torch::zeros({1, 3}, cuda());
  expect(torch::cat({a, b}).size(0) == 3, "cat on one device");
  expect(torch::stack({a, a}).is_cuda(), "stack on one device");
}

TT_CASE(cat_bug) {
  auto a = torch::ones({2, 3}, cuda());
  auto b = torch::zeros({1, 3});
  auto joined = torch::cat({a, b}); // BUG(tensor-mixed-device)
  auto stacked = torch::stack({a, torch::ones({2, 3})}); // BUG(tensor-mixed-device)
  expect(joined.size(0) == 3 && stacked.size(0) == 2, "record mode continues");
}

// Run with --devices 2.
TT_CASE(two_devices_clean) {
  // GPU: needs 2 devices
  expect(torch::cuda::device_count() == 2, "two emulated devices");
  torch::nn::Linear fc(4, 2);
  fc->to(cuda(1));
  auto y = fc->forward(torch::randn({3, 4}, cuda(1)));
  expect(y.device() == cuda(1), "output on cuda:1");
  y.sum().backward();
  expect(fc->weight.grad().device() == cuda(1), "gradients on cuda:1");
  {
    torch::DeviceGuard guard(cuda(1));
    expect(torch::empty({2}, torch::kCUDA).device() == cuda(1), "the current device");
  }
  expect(torch::empty({2}, torch::kCUDA).device() == cuda(0), "the guard restored cuda:0");
  expect(torch::equal(y.to(cuda(0)).cpu(), y.cpu()), "a copy between devices");
}

TT_CASE(two_devices_bug) {
  // GPU: needs 2 devices
  auto a = torch::ones({3}, cuda(0));
  auto b = torch::ones({3}, cuda(1));
  auto c = a + b; // BUG(tensor-mixed-device)
  expect(c.defined(), "record mode continues");
}

// from_blob over memory a cuda tensor owns: the memory's device, found from
// any address inside it, as cudaPointerGetAttributes finds it.
TT_CASE(from_blob_clean) {
  auto owner = torch::arange(12, torch::kFloat).to(cuda());
  auto whole = torch::from_blob(owner.data_ptr(), {3, 4}, torch::TensorOptions().device(torch::kCUDA));
  expect(whole.device() == cuda(0) && torch::equal(whole.cpu().flatten(), owner.cpu()), "a view of the cuda memory");
  auto tail = torch::from_blob(owner.data_ptr<float>() + 4, {8}, torch::TensorOptions().device(cuda(0)));
  expect(tail.cpu()[0].item<float>() == 4, "an address inside the allocation");
  // Pinned host memory is mapped for the GPU.
  auto pinned = torch::ones({4}).pin_memory();
  auto mapped = torch::from_blob(pinned.data_ptr(), {4}, torch::TensorOptions().device(torch::kCUDA));
  expect(mapped.is_cuda(), "pinned host memory");
  // The cpu's from_blob over host memory, then a copy to the device: the fix.
  std::vector<float> host(6, 2.f);
  auto moved = torch::from_blob(host.data(), {6}).to(cuda());
  expect(moved.is_cuda() && moved.sum().item<float>() == 12, "from_blob on the cpu, then to(cuda)");
}

// from_blob over a std::vector's memory with a cuda device: a GPU cannot
// read it (pytorch/pytorch#13245, Cambridge-ICCS/FTorch#365).
TT_CASE(from_blob_host_bug) {
  // GPU: raises "The specified pointer resides on host memory"
  std::vector<float> host(6, 2.f);
  auto t = torch::from_blob(host.data(), {6}, torch::TensorOptions().device(torch::kCUDA)); // BUG(tensor-mixed-device)
  expect(t.is_cuda(), "record mode continues");
}

// Run with --devices 2. Memory of cuda:0 named as cuda:1: TensorMaker's own
// check, in any mode.
TT_CASE(from_blob_wrong_device) {
  // GPU: raises "does not match device of data"
  // GPU: needs 2 devices
  auto owner = torch::ones({4}, cuda(0));
  auto t = torch::from_blob(owner.data_ptr(), {4}, torch::TensorOptions().device(cuda(1)));
  expect(false, "unreachable: the memory is on cuda:0");
}

// cuda:1 on a one-device machine: the CUDA runtime's error, in any mode.
TT_CASE(invalid_device) {
  // GPU: raises "invalid device ordinal"
  // GPU: needs at most 1 device
  auto x = torch::ones({2}, cuda(1));
  expect(false, "unreachable: cuda:1 does not exist");
}
