// RUN: %check_tidy --frontends=clangd %s 'tensor-*' %t -- -- -std=c++17 %mock_torch

// One editor session: tensor-clangd over a real LSP session on stdio
// (lsp_client.py: initialize, didOpen, publishDiagnostics, then
// textDocument/codeAction per diagnostic, whose quick-fix edits are applied
// and checked by CHECK-FIXES) on a file with a bug of each of the five
// checks, all enabled together as a user's .clang-tidy would.

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Net);

void discarded(torch::Tensor x, torch::Device device) {
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(device);{{$}}
}

void discarded_result(torch::Tensor x) {
  x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.relu(...)' is discarded; 'relu' returns a new tensor and leaves 'x' unchanged [tensor-discarded-result]
  // CHECK-FIXES: {{^}}  x.relu_();{{$}}
}

torch::Tensor mixed_device(torch::Device device) {
  auto x = torch::ones({4});
  auto y = torch::ones({4}).to(device);
  return x - y;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'operator-' combines tensors on different devices: 'x' is on cpu and 'y' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: 'y' is on 'device': moved here
}

torch::Tensor unmoved(torch::Device device) {
  Net model;
  model->to(device);
  auto x = torch::randn({64, 784});
  return model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'x' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-FIXES: {{^}}  return model->forward(x.to(device));{{$}}
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'model' was moved to 'device' here
}

torch::Tensor mixed_dtype() {
  auto a = torch::randn({2, 2});
  auto b = torch::randn({2, 2}).to(torch::kHalf);
  return a.matmul(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' does not promote dtypes: 'a' is float32 and 'b' is float16 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'b' is float16: converted here
}
