// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// `std::tie(a, b) = f()` assigns each tensor its element of the tuple f
// returns, as a structured binding would. The tie keeps no reference: a
// later move of one of them is seen. A std::tie kept in a variable is a
// tuple of references, which the analysis does not follow.
#include <torch/torch.h>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Regressor);

std::tuple<torch::Tensor, torch::Tensor> make_batch(int64_t n) {
  return {torch::randn({n, 8}), torch::randn({n, 1})};
}

std::tuple<torch::Tensor, torch::Tensor> next_batch();

// --- Bugs --------------------------------------------------------------------

void inputs_only() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device);
  torch::Tensor inputs, targets;
  std::tie(inputs, targets) = make_batch(64);
  inputs = inputs.to(device);
  torch::mse_loss(model(inputs), targets);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'mse_loss' combines tensors on different devices: 'model(inputs)' is on cuda and 'targets' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'model(inputs)' is on cuda: output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-17]]:33: note: 'targets' is on cpu: created here
}

void pair_of_tensors() {
  torch::Tensor a, b;
  std::tie(a, b) = std::make_pair(torch::ones({2}, torch::kCUDA),
                                  torch::ones({2}));
  auto c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'a' is on cuda and 'b' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: 'a' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: 'b' is on cpu: created here
}

// --- Clean -------------------------------------------------------------------

void both_moved() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device);
  torch::Tensor inputs, targets;
  std::tie(inputs, targets) = make_batch(64);
  inputs = inputs.to(device);
  targets = targets.to(device);
  torch::mse_loss(model(inputs), targets);
}

void tie_kept() {
  torch::Tensor inputs, targets;
  auto tied = std::tie(inputs, targets);
  tied = make_batch(64);
  targets = targets.cuda();
  torch::mse_loss(inputs.cuda(), targets);
}

void unknown_tuple() {
  torch::Tensor inputs = torch::randn({4, 8}), targets;
  std::tie(inputs, targets) = next_batch();
  torch::mse_loss(inputs.cuda(), targets);
}

void ignored_element() {
  torch::Tensor targets = torch::randn({4, 1});
  std::tie(std::ignore, targets) = make_batch(4);
  targets = targets.cuda();
  torch::mse_loss(torch::randn({4, 1}).cuda(), targets);
}
