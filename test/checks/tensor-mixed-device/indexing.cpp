// RUN: %check_tidy %s tensor-mixed-device %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Ops whose index or mask must be on the tensor's device (ATen's CUDA
// kernels check it), and the fused batched product.
void index_on_another_device(torch::Tensor mask_cpu) {
  auto x = torch::randn({4, 3}, torch::kCUDA);
  auto idx = torch::zeros({2}, torch::kLong);
  auto picked = x.index_select(0, idx);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'index_select' combines tensors on different devices: 'x' is on cuda and 'idx' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'idx' is on cpu: created here
  auto g = x.gather(1, idx);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'gather' combines tensors on different devices: 'x' is on cuda and 'idx' is on cpu
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-8]]:14: note: 'idx' is on cpu: created here
  auto mask = torch::zeros({4, 3});
  auto filled = x.masked_fill(mask, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'masked_fill' combines tensors on different devices: 'x' is on cuda and 'mask' is on cpu
  // CHECK-MESSAGES: :[[@LINE-13]]:12: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: 'mask' is on cpu: created here
  auto b1 = torch::randn({2, 3, 4});
  auto b2 = torch::randn({2, 4, 5}, torch::kCUDA);
  auto acc = torch::zeros({2, 3, 5}, torch::kCUDA);
  auto prod = torch::baddbmm(acc, b1, b2);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'baddbmm' combines tensors on different devices: 'acc' is on cuda and 'b1' is on cpu
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'acc' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:13: note: 'b1' is on cpu: created here
  (void)picked, (void)g, (void)filled, (void)prod, (void)mask_cpu;
}

// Clean: the index on the tensor's device; indices of x[idx] and index_put_,
// which ATen lets stay on the cpu; a mask of unknown device.
void index_clean(torch::Tensor unknown_mask, torch::Device device) {
  auto x = torch::randn({4, 3}, torch::kCUDA);
  auto idx = torch::zeros({2}, torch::kLong).to(torch::kCUDA);
  auto picked = x.index_select(0, idx);
  auto g = x.gather(1, idx);
  auto cpu_idx = torch::zeros({2}, torch::kLong);
  auto rows = x.index({cpu_idx});
  x.index_put_({cpu_idx}, torch::zeros({2, 3}, torch::kCUDA));
  auto filled = x.masked_fill(unknown_mask, 0);
  auto y = torch::randn({4, 3}).to(device);
  auto z = y.index_select(0, torch::zeros({2}, torch::kLong).to(device));
  (void)picked, (void)g, (void)rows, (void)filled, (void)z;
}
