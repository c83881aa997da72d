// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// nll_loss and cross_entropy read their target as int64 class indices
// ("expected scalar type Long but found Float"), through the functions and
// the loss modules alike. cross_entropy also takes class probabilities, in
// a target of the input's shape, so only a target of another rank is
// judged there; uint8 targets are accepted by ATen.
#include <torch/torch.h>

namespace F = torch::nn::functional;

// --- Bugs --------------------------------------------------------------------

torch::Tensor float_labels(torch::Tensor logits) {
  auto target = torch::ones({4}).to(torch::kF32);
  return torch::nll_loss(torch::log_softmax(torch::randn({4, 10}), 1), target);
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: 'nll_loss' takes int64 class indices as its target, but 'target' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: 'target' is float32: converted here
}

torch::Tensor functional_cross_entropy() {
  auto labels = torch::zeros({8});
  return F::cross_entropy(torch::randn({8, 3}), labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'cross_entropy' takes int64 class indices as its target, but 'labels' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'labels' is float32: created here
}

torch::Tensor loss_modules() {
  torch::nn::CrossEntropyLoss criterion;
  auto labels = torch::randint(0, 10, {16}).to(torch::kFloat);
  auto a = criterion(torch::randn({16, 10}), labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'criterion' takes int64 class indices as its target, but 'labels' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:45: note: 'labels' is float32: converted here
  torch::nn::NLLLoss nll;
  auto b = nll(torch::randn({16, 10}), torch::zeros({16}, torch::kInt32));
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'nll' takes int64 class indices as its target, but 'torch::zeros({16}, torch::kInt32)' is int32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:40: note: 'torch::zeros({16}, torch::kInt32)' is int32: created here
  return a + b;
}

// --- Clean -------------------------------------------------------------------

torch::Tensor int64_labels(torch::Tensor labels) {
  auto target = torch::ones({4}).to(torch::kLong);
  auto a = torch::nll_loss(torch::randn({4, 10}), target);
  auto b = F::nll_loss(torch::randn({4, 10}), torch::zeros({4}, torch::kByte));
  return a + b + F::cross_entropy(torch::randn({4, 10}), labels); // not known
}

torch::Tensor probabilities() {
  auto probs = torch::softmax(torch::randn({4, 10}), 1);
  torch::nn::CrossEntropyLoss criterion;
  return criterion(torch::randn({4, 10}), probs) +
         F::cross_entropy(torch::randn({4, 10}), torch::full({4, 10}, 0.1));
}

torch::Tensor converted_before(torch::Tensor float_labels) {
  auto target = float_labels.to(torch::kFloat).to(torch::kLong);
  torch::nn::NLLLoss nll;
  return nll(torch::randn({4, 10}), target) +
         torch::nll_loss(torch::randn({4, 10}), torch::randint(0, 10, {4}));
}
