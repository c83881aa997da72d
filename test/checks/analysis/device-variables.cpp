// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input %t -- -- -std=c++17 %mock_torch

// A Device variable that paths set to different devices holds one of them:
// from there on it is its own symbolic value, which may be cuda if any path
// made it cuda, as for a Device parameter.
#include <torch/torch.h>

bool cuda_available();

// --- Bugs --------------------------------------------------------------------

void chosen_by_branch() {
  torch::Device device(torch::kCPU);
  if (cuda_available())
    device = torch::Device(torch::kCUDA);
  auto w = torch::randn({3, 3}).to(device);
  auto x = torch::randn({3, 3});
  auto y = x.matmul(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'matmul' combines tensors on different devices: 'x' is on cpu and 'w' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:33: note: 'w' is on 'device': moved here
}

void chosen_in_both_branches(bool gpu) {
  torch::Device device = torch::kCPU;
  if (gpu)
    device = torch::kCUDA;
  else
    device = torch::kCPU;
  auto w = torch::randn({3}).to(device);
  auto y = w + torch::ones({3});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'w' is on 'device' and 'torch::ones({3})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'w' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'torch::ones({3})' is on cpu: created here
}

// --- Clean -------------------------------------------------------------------

void cpu_on_every_path(bool verbose) {
  torch::Device device(torch::kCPU);
  if (verbose)
    device = torch::Device(torch::kCPU);
  auto w = torch::randn({3}).to(device);
  auto y = w + torch::ones({3});
}

void moved_to_the_same_variable() {
  torch::Device device(torch::kCPU);
  if (cuda_available())
    device = torch::Device(torch::kCUDA);
  auto w = torch::randn({3}).to(device);
  auto x = torch::ones({3}).to(device);
  auto y = w + x;
}

void moved_in_the_branch_only() {
  torch::Device device(torch::kCPU);
  auto w = torch::randn({3});
  if (cuda_available()) {
    device = torch::Device(torch::kCUDA);
    w = w.to(device);
  }
  auto y = w + torch::ones({3}).to(device);
}
