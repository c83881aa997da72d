// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// `1. - t`, `1. / t` and `1 % t` are LibTorch's reverse scalar operators:
// empty_like(t).fill_(x).sub_(t) (ATen/TensorOperators.h), a tensor of t's
// shape on t's device. A cpu t with dimensions stays one, and meeting a
// tensor on another device fails, as in a GAE rollout buffer that leaves
// the caller's `dones` on the cpu (NVIDIA/TorchFort#32).

#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

class RolloutBuffer {
public:
  RolloutBuffer(int64_t envs, torch::Device device) : envs_(envs), device_(device) {}

  void finalize(torch::Tensor dones) {
    auto options = torch::TensorOptions().dtype(torch::kFloat32).device(device_);
    torch::Tensor last_gae_lam = torch::zeros({envs_}, options);
    torch::Tensor next_non_terminal = 1. - dones;
    auto delta = next_non_terminal * last_gae_lam;
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'operator*' combines tensors on different devices: 'next_non_terminal' is on cpu and 'last_gae_lam' is on 'device_' [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:42: note: 'next_non_terminal' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE-5]]:34: note: 'last_gae_lam' is on 'device_': created here
    // CHECK-MESSAGES: :[[@LINE+10]]:10: note: in the call to 'finalize' here
  }

private:
  int64_t envs_;
  torch::Device device_;
};

int main() {
  RolloutBuffer buffer(4, torch::Device(torch::kCUDA, 0));
  buffer.finalize(torch::zeros({4}));
}

void inverse(torch::Device device) {
  auto scale = torch::ones({8}).to(device);
  auto inv = 1. / torch::rand({8});
  auto y = scale * inv;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator*' combines tensors on different devices: 'scale' is on 'device' and 'inv' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'scale' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'inv' is on cpu: computed here
}

// --- Clean -------------------------------------------------------------------

class RolloutBufferFixed {
public:
  RolloutBufferFixed(int64_t envs, torch::Device device) : envs_(envs), device_(device) {}

  void finalize(torch::Tensor dones) {
    auto options = torch::TensorOptions().dtype(torch::kFloat32).device(device_);
    torch::Tensor last_gae_lam = torch::zeros({envs_}, options);
    torch::Tensor next_non_terminal = (1. - dones).to(device_);
    auto delta = next_non_terminal * last_gae_lam;
  }

private:
  int64_t envs_;
  torch::Device device_;
};

void fixed_caller() {
  RolloutBufferFixed buffer(4, torch::Device(torch::kCUDA, 0));
  buffer.finalize(torch::zeros({4}));
}

// The result is where the tensor is.
void inverse_on_device(torch::Device device) {
  auto scale = torch::ones({8}).to(device);
  auto inv = 1. / torch::rand({8}).to(device);
  auto y = scale * inv;
}

// A 0-dim cpu tensor may join a cuda op, and so may its reverse.
void zero_dim(torch::Device device) {
  auto scale = torch::ones({8}).to(device);
  auto half = 1. - torch::tensor(0.5);
  auto y = scale * half;
}
