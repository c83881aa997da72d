// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- -std=c++20 %mock_torch

// Templates: the dependent patterns are skipped, their instantiations and
// generic lambdas' are analysed as the concrete code they are, and a site is
// reported once for all instantiations. An object of a class template's
// instance is followed across its methods, as any object is.
#include <torch/torch.h>

template <typename T> auto add_any(T a, T b) { return a + b; }
// CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'operator+' combines tensors on different devices: 'a' is on cpu and 'b' is on cuda [tensor-mixed-device]
// CHECK-MESSAGES: :[[@LINE+21]]:20: note: 'a' is on cpu: created here
// CHECK-MESSAGES: :[[@LINE+20]]:38: note: 'b' is on cuda: created here
// CHECK-MESSAGES: :[[@LINE+19]]:12: note: in the call to 'add_any' here
template <typename Module> void run(Module &m, torch::Device device) {
  m->to(device);
  m->forward(torch::ones({1, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: input 'torch::ones({1, 4})' is on cpu but 'm' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: 'torch::ones({1, 4})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:6: note: 'm' was moved to 'device' here
  // CHECK-FIXES: {{^}}  m->forward(torch::ones({1, 4}).to(device));{{$}}
}
template <typename T> struct Holder {
  T value;
  auto combine(torch::Tensor t) { return value + t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'operator+' combines tensors on different devices: 'value' is on cpu and 't' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+9]]:27: note: 'value' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+9]]:13: note: 't' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE+8]]:5: note: in the call to 'combine' here
};

void instantiate(torch::nn::Linear fc) {
  auto r = add_any(torch::ones({2}), torch::ones({2}, torch::kCUDA));
  auto s = add_any(torch::ones({2}), torch::ones({2}));
  run(fc, torch::kCUDA);
  Holder<torch::Tensor> h{torch::ones({2})};
  h.combine(torch::ones({2}, torch::kCUDA));
  Holder<torch::Tensor> g{torch::ones({2}, torch::kCUDA)};
  g.combine(torch::ones({2}, torch::kCUDA));
  auto generic = [](auto a, auto b) { return a * b; };
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'operator*' combines tensors on different devices: 'a' is on cpu and 'b' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+3]]:11: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+2]]:29: note: 'b' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: in the call to the lambda here
  generic(torch::ones({2}), torch::ones({2}, torch::kCUDA));
  generic(torch::ones({2}).cuda(), torch::ones({2}, torch::kCUDA));
  (void)r, (void)s;
}
