// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// A functional's options may hold tensors (a loss's class weights, a
// norm's weight and bias); the op takes them with its inputs, so they must
// be on the inputs' device.
#include <torch/torch.h>

namespace F = torch::nn::functional;

// --- Bugs --------------------------------------------------------------------

void class_weights_on_cpu() {
  torch::Device device(torch::kCUDA);
  auto weights = torch::ones({10});
  auto logits = torch::randn({4, 10}, device);
  auto labels = torch::randint(10, {4}, torch::TensorOptions(device).dtype(torch::kLong));
  auto loss = F::cross_entropy(logits, labels,
                               F::CrossEntropyFuncOptions().weight(weights));
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: 'cross_entropy' combines tensors on different devices: 'logits' is on cuda and 'weights' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:17: note: 'logits' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'weights' is on cpu: created here
}

void positive_weights_on_cpu() {
  auto pos_weight = torch::full({3}, 2.0);
  auto x = torch::randn({4, 3}).cuda();
  auto t = torch::rand({4, 3}).cuda();
  auto loss = F::binary_cross_entropy_with_logits(
      x, t, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(pos_weight));
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: 'binary_cross_entropy_with_logits' combines tensors on different devices: 'x' is on cuda and 'pos_weight' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:33: note: 'x' is on cuda: moved here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: 'pos_weight' is on cpu: created here
}

// --- Clean -------------------------------------------------------------------

void weights_moved(torch::Tensor unknown) {
  torch::Device device(torch::kCUDA);
  auto weights = torch::ones({10}).to(device);
  auto logits = torch::randn({4, 10}, device);
  auto labels = torch::randint(10, {4}, torch::TensorOptions(device).dtype(torch::kLong));
  F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().weight(weights));
  F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().weight(unknown));
  F::layer_norm(logits, F::LayerNormFuncOptions({10}).weight(
                            torch::ones({10}, device)));
}

void all_on_cpu() {
  auto logits = torch::randn({4, 10});
  auto labels = torch::randint(10, {4}, torch::kLong);
  F::cross_entropy(logits, labels,
                   F::CrossEntropyFuncOptions().weight(torch::ones({10})));
}
