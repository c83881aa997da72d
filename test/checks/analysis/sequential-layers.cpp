// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input %t -- -- %libtorch

// A Sequential hands its input to its first layer, which is where the
// Sequential is: a user module written first is followed into its forward()
// as a module call of its own would be. The first layer is known however
// the layers were built, here or in a helper that returns the Sequential.
#include <torch/torch.h>

struct JitterImpl : torch::nn::Module {
  explicit JitterImpl(double scale) : scale_(scale) {}
  torch::Tensor forward(torch::Tensor x) {
    return x + scale_ * torch::randn({x.size(0), x.size(1)});
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'x' is on cuda and 'scale_ * torch::randn({x.size(0), x.s...' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+18]]:12: note: 'x' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'scale_ * torch::randn({x.size(0), x.s...' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE+17]]:10: note: in the call to 'forward' here
  }
  double scale_;
};
TORCH_MODULE(Jitter);

// --- Bugs --------------------------------------------------------------------

torch::nn::Sequential augmented_classifier() {
  return torch::nn::Sequential(Jitter(0.1), torch::nn::Linear(16, 4),
                               torch::nn::ReLU(), torch::nn::Linear(4, 2));
}

void train_augmented() {
  auto model = augmented_classifier();
  model->to(torch::kCUDA);
  auto x = torch::rand({8, 16}, torch::kCUDA);
  model->forward(x);
}

// --- Clean -------------------------------------------------------------------

struct DeviceJitterImpl : torch::nn::Module {
  explicit DeviceJitterImpl(double scale) : scale_(scale) {}
  torch::Tensor forward(torch::Tensor x) {
    return x + scale_ * torch::randn({x.size(0), x.size(1)}, x.options());
  }
  double scale_;
};
TORCH_MODULE(DeviceJitter);

// The noise is made where the input is.
void train_device_jitter() {
  torch::nn::Sequential model(DeviceJitter(0.1), torch::nn::Linear(16, 2));
  model->to(torch::kCUDA);
  model->forward(torch::rand({8, 16}, torch::kCUDA));
}

// Everything stays on the cpu.
void train_on_cpu() {
  auto model = augmented_classifier();
  model->forward(torch::rand({8, 16}));
}

// A Sequential of named layers: which comes first is not read here.
void train_named() {
  torch::nn::Sequential model({{"jitter", DeviceJitter(0.1)},
                               {"fc", torch::nn::Linear(16, 2)}});
  model->to(torch::kCUDA);
  model->forward(torch::rand({8, 16}, torch::kCUDA));
}
