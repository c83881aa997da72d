// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// The C++ API's torch::special and torch::fft namespaces (Python's
// torch.special, torch.fft) call ATen's special_* and fft_* ops. Every
// front end knows them: tensor-tidy and the plugin through the wrappers'
// bodies, tensor-clangd, whose preamble skips those bodies, by the op's
// prefixed name.
#include <torch/torch.h>

void expit_keeps_float64() {
  auto logits = torch::randn({4, 4}, torch::kFloat64);
  auto p = torch::special::expit(logits);
  auto y = torch::randn({2, 4}).mm(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'mm' does not promote dtypes: 'torch::randn({2, 4})' is float32 and 'p' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'torch::randn({2, 4})' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:17: note: 'p' is float64: created here
}

void expit_on_cuda_meets_cpu() {
  auto p = torch::special::expit(torch::randn({4}, torch::kCUDA));
  auto y = p + torch::ones({4});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'p' is on cuda and 'torch::ones({4})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: 'p' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'torch::ones({4})' is on cpu: created here
}

void rfft_on_cuda_meets_cpu() {
  auto spectrum = torch::fft::rfft(torch::randn({16}, torch::kCUDA));
  auto magnitude = spectrum.abs() * torch::ones({9});
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'operator*' combines tensors on different devices: 'spectrum.abs()' is on cuda and 'torch::ones({9})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'spectrum.abs()' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:37: note: 'torch::ones({9})' is on cpu: created here
}

// Clean: the same ops with their operands on one device and dtype.
void expit_float32() {
  auto p = torch::special::expit(torch::randn({4, 4}));
  auto y = torch::randn({2, 4}).mm(p);
}

void expit_moved_back_to_cpu() {
  auto p = torch::special::expit(torch::randn({4}, torch::kCUDA)).cpu();
  auto y = p + torch::ones({4});
}

void rfft_all_on_cuda() {
  auto spectrum = torch::fft::rfft(torch::randn({16}, torch::kCUDA));
  auto magnitude = spectrum.abs() * torch::ones({9}, torch::kCUDA);
}
