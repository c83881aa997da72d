// The checks never crash or report on code that does not compile: broken
// expressions become RecoveryExprs, which the analysis treats as unknown.
// RUN: not %tensor_tidy %s --checks='-*,tensor-*' -- -std=c++17 %mock_torch 2>&1 | %FileCheck %s
// RUN: not %clang_tidy_plugin %s --checks='-*,tensor-*' -- -std=c++17 %mock_torch 2>&1 | %FileCheck %s
// CHECK-NOT: Stack dump
// CHECK-NOT: warning: {{.*}}[tensor-
// CHECK: error:

#include <torch/torch.h>

void broken(torch::Device device) {
  auto x = torch::ones({2}, undeclared_options);
  auto y = x + torch::ones({2}, torch::kCUDA);
  x.to(not_a_device);
  torch::nn::Linear fc(4, 2);
  fc->to(torch::kCUDA);
  fc->forward(torch::ones({1, 4}) +);
  for (auto &b : *missing_loader) {
    fc->forward(b.data);
  }
}

struct Incomplete;
void incomplete(Incomplete &i) { i.to(torch::kHalf); }
