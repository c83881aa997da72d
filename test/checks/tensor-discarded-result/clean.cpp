// RUN: %check_tidy %s tensor-discarded-result %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Results that are used: assigned, returned, passed on, chained.
torch::Tensor used(torch::Tensor x, torch::Tensor y) {
  x = x.add(y);
  auto z = x.relu();
  torch::Tensor w(x.clamp(0, 1));
  z = z.masked_fill(z.eq(y), 0).t();
  return w.mul(z);
}

// In-place ops (their name ends in '_') and methods that return a
// reference or nothing.
void in_place(torch::Tensor x, torch::Tensor y) {
  x.add_(y);
  x.relu_().clamp_(0, 1);
  x.set_requires_grad(true);
  x.grad();
  x.backward();
  x.zero_();
}

// Conversions are tensor-discarded-cast's, never reported twice.
void conversions(torch::Tensor x) {
  x.to(torch::kHalf);
  x.cuda();
  x.contiguous();
  x.clone();
}

// Cast to void says "discarded on purpose" (AllowCastToVoid, default true).
void deliberate(torch::Tensor x) { (void)x.sum(); }

// Modules and other classes with methods of the same names.
struct Accumulator {
  Accumulator add(int);
  Accumulator relu();
};
void others(Accumulator a, torch::nn::Linear linear, torch::Tensor x) {
  a.add(1);
  a.relu();
  linear->forward(x);
}

// A statement expression's value is its last statement.
torch::Tensor statement_expression(torch::Tensor x) {
  return ({ x.relu(); });
}

// Free functions are not methods: the result of torch::relu(x) is a
// different matter (not this check's).
void free_functions(torch::Tensor x, torch::Tensor y) { torch::add(x, y); }
