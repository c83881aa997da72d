// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// mean, nanmean, std and var infer their result's dtype from a floating
// input: ATen throws for an integer or bool tensor unless dtype= is given
// ("mean(): could not infer output dtype. Input dtype must be either a
// floating point or complex dtype. Got: Bool").
#include <torch/torch.h>

double accuracy(const torch::Tensor &logits, const torch::Tensor &targets) {
  auto pred = logits.argmax(1);
  return pred.eq(targets).mean().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'mean' needs a floating input to infer its result's dtype, but 'pred.eq(targets)' is bool: convert it first or pass a dtype [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: 'pred.eq(targets)' is bool: computed here
}

void accuracy_of_a_batch() {
  auto a = accuracy(torch::randn({8, 10}), torch::randint(0, 10, {8}));
}

void spread_of_counts() {
  auto counts = torch::randint(0, 5, {100});
  auto s = counts.std();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'std' needs a floating input to infer its result's dtype, but 'counts' is int64: convert it first or pass a dtype [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'counts' is int64: created here
  auto m = torch::mean(counts, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'mean' needs a floating input to infer its result's dtype, but 'counts' is int64: convert it first or pass a dtype [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: 'counts' is int64: created here
}

// Clean: converted first, a dtype given, a floating input, sum of bools.
double accuracy_float(const torch::Tensor &logits, const torch::Tensor &targets) {
  auto pred = logits.argmax(1);
  return pred.eq(targets).to(torch::kFloat).mean().item<double>();
}

void clean_reductions() {
  auto counts = torch::randint(0, 5, {100});
  auto m = counts.mean(torch::kFloat);
  auto s = counts.to(torch::kFloat64).std();
  auto correct = counts.eq(2).sum();
  auto a = accuracy_float(torch::randn({8, 10}), torch::randint(0, 10, {8}));
  auto v = torch::randn({100}).var();
}

double unknown_dtype(const torch::Tensor &t) { return t.mean().item<double>(); }
