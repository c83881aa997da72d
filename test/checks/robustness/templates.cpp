// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- -std=c++20 %mock_torch

// Dependent code, generic lambdas and coroutine-free templates: the analysis
// skips what it cannot type and stays silent.
#include <torch/torch.h>

template <typename T> auto add_any(T a, T b) { return a + b; }
template <typename Module> void run(Module &m, torch::Device device) {
  m->to(device);
  m->forward(torch::ones({1, 4}));
}
template <typename T> struct Holder {
  T value;
  auto combine(torch::Tensor t) { return value + t; }
};

void instantiate(torch::nn::Linear fc) {
  auto r = add_any(torch::ones({2}), torch::ones({2}, torch::kCUDA));
  run(fc, torch::kCUDA);
  Holder<torch::Tensor> h{torch::ones({2})};
  h.combine(torch::ones({2}, torch::kCUDA));
  auto generic = [](auto a, auto b) { return a * b; };
  generic(torch::ones({2}), torch::ones({2}, torch::kCUDA));
  (void)r;
}
