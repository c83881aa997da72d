// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-discarded-cast %t -- -- %libtorch

// The real LibTorch 1.13 overload sets (ATen/core/TensorBody.h,
// torch/nn/module.h), through the precompiled <torch/torch.h>.

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void bugs(torch::Tensor x, torch::Tensor other, torch::Device device) {
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(device);{{$}}
  x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(device, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(other);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(torch::TensorOptions().dtype(torch::kHalf));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.toType(torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.toType(...)'
  x.type_as(other);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.type_as(...)'
  x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.cuda(...)'
  x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.cpu(...)'
  x.pin_memory();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.pin_memory(...)'
  x.contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.contiguous(...)'
  x.clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.clone(...)'
  x.detach();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.detach(...)'
}

torch::Tensor clean(torch::Tensor x, torch::Device device, Net net,
                    torch::nn::Sequential seq) {
  net->to(device);                   // module moves are in place
  net->to(torch::kHalf);
  seq->to(device, torch::kFloat);
  x = x.to(device);
  auto y = x.to(torch::kHalf).contiguous();
  x.detach_();                       // in place
  x.copy_(y);
  x.add_(y);
  (void)x.cuda();
  for (auto &p : net->parameters())
    p = p.to(device);
  return net->forward(x.to(device));
}
