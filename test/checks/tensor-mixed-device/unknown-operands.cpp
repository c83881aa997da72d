// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// An op's result is on the device of the operand that decides it, even when
// another operand's device is not known: that one is on the same device, or
// a 0-dim cpu tensor, or the op throws (TensorIteratorBase::compute_types).
// An operand that may be a 0-dim cpu tensor decides nothing.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

torch::Tensor scaled(const torch::Tensor &stats) {
  auto x = torch::rand({8, 3}, torch::kCUDA);
  auto centred = x - stats;
  return centred / torch::ones({8, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator/' combines tensors on different devices: 'centred' is on cuda and 'torch::ones({8, 3})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'centred' is on cuda: computed here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'torch::ones({8, 3})' is on cpu: created here
}

struct NormalizeImpl : torch::nn::Module {
  NormalizeImpl() {
    mean_ = register_buffer("mean", torch::zeros({1, 3, 1, 1}));
    std_ = torch::ones({1, 3, 1, 1});
  }
  torch::Tensor forward(torch::Tensor x) { return (x - mean_) / std_; }
  // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: 'operator/' combines tensors on different devices: 'x - mean_' is on cuda and 'std_' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:54: note: 'x - mean_' is on cuda: computed here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'std_' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+10]]:3: note: in the call to 'forward' here

private:
  torch::Tensor mean_, std_;
};
TORCH_MODULE(Normalize);

void normalize_on_gpu() {
  Normalize norm;
  norm->to(torch::kCUDA);
  norm(torch::rand({2, 3, 8, 8}, torch::kCUDA));
}

// --- Clean -------------------------------------------------------------------

// Nothing decides the device: every operand may be a cpu scalar or is
// unknown.
torch::Tensor undecided(const torch::Tensor &a, const torch::Tensor &b) {
  auto s = torch::tensor(2.0) * a;
  auto t = a.cpu() + b;
  return (s + t) * torch::ones({3}, torch::kCUDA);
}

// The unknown operand decides the device with the cuda one: both are cuda.
torch::Tensor same_side(const torch::Tensor &stats) {
  auto x = torch::rand({8, 3}, torch::kCUDA);
  auto centred = x - stats;
  return centred / torch::ones({8, 3}, torch::kCUDA);
}

// A 0-dim cpu tensor meets the result: ATen moves it.
torch::Tensor scalar_after(const torch::Tensor &stats) {
  auto x = torch::rand({8, 3}, torch::kCUDA);
  return (x - stats) * torch::tensor(0.5);
}

// A symbolic operand with dimensions decides with the known one: the join
// of two deciders is not known, so what follows is not judged.
torch::Tensor two_deciders(torch::Device device) {
  auto a = torch::rand({4}, device);
  auto b = a + torch::rand({4}, torch::kCUDA);
  return b + torch::rand({4});
}

struct MovedNormalizeImpl : torch::nn::Module {
  MovedNormalizeImpl() {
    mean_ = register_buffer("mean", torch::zeros({1, 3, 1, 1}));
    std_ = register_buffer("std", torch::ones({1, 3, 1, 1}));
  }
  torch::Tensor forward(torch::Tensor x) { return (x - mean_) / std_; }

private:
  torch::Tensor mean_, std_;
};
TORCH_MODULE(MovedNormalize);

void moved_normalize_on_gpu() {
  MovedNormalize norm;
  norm->to(torch::kCUDA);
  norm(torch::rand({2, 3, 8, 8}, torch::kCUDA));
}
