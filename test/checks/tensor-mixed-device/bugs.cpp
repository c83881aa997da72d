// RUN: %check_tidy %s tensor-mixed-device %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

torch::Device pick() {
  return torch::Device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
}

void operators() {
  auto a = torch::randn({2, 3});
  auto b = torch::randn({2, 3}, torch::kCUDA);
  auto c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'a' is on cpu and 'b' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'b' is on cuda: created here
  auto d = b * a;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'b' is on cuda and 'a' is on cpu
  // CHECK-MESSAGES: :[[@LINE-7]]:12: note: 'b' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-9]]:12: note: 'a' is on cpu: created here
  a += b;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'operator+=' combines tensors on different devices
  // CHECK-MESSAGES: :[[@LINE-12]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-12]]:12: note: 'b' is on cuda: created here
  (void)c, (void)d;
}

void symbolic_device() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::ones({4});
  auto y = torch::ones({4}).to(device);
  auto z = x - y;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator-' combines tensors on different devices: 'x' is on cpu and 'y' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: 'y' is on 'device': moved here
  (void)z;
}

void functions_and_methods(torch::Device device) {
  auto w = torch::randn({784, 10}).to(device);
  auto x = torch::randn({64, 784});
  auto y = torch::matmul(x, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' combines tensors on different devices: 'x' is on cpu and 'w' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:36: note: 'w' is on 'device': moved here
  auto s = x.add(w.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'add' combines tensors on different devices: 'x' is on cpu and 'w.cuda()' is on cuda
  // CHECK-MESSAGES: :[[@LINE-7]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'w.cuda()' is on cuda: moved here
  auto t = torch::cat({x, w});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cat' combines tensors on different devices
  // CHECK-MESSAGES: :[[@LINE-11]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-13]]:36: note: 'w' is on 'device': moved here
  (void)y, (void)s, (void)t;
}

// Element-wise ops keep the shape: a cpu tensor with dimensions stays one.
void elementwise(torch::Tensor unknown) {
  auto x = torch::randn({4, 4});
  auto g = torch::ones({4, 4}, torch::kCUDA);
  auto y = x.relu() * g;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'operator*' combines tensors on different devices: 'x.relu()' is on cpu and 'g' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x.relu()' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'g' is on cuda: created here
  auto z = torch::relu(x) + g;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'operator+' combines tensors on different devices: 'torch::relu(x)' is on cpu and 'g' is on cuda
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'torch::relu(x)' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'g' is on cuda: created here
  (void)y, (void)z, (void)unknown;
}

void cuda_indices() {
  auto a = torch::zeros({8}, torch::Device("cuda:0"));
  auto b = torch::zeros({8}, torch::TensorOptions().device(torch::Device(torch::kCUDA, 1)));
  auto c = a.mul(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'mul' combines tensors on different devices: 'a' is on cuda:0 and 'b' is on cuda:1
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is on cuda:0: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'b' is on cuda:1: created here
  (void)c;
}

// The seeds' evaluation helper: a loss between the model's output on the
// GPU and targets that stayed where the data loader put them.
float evaluate(torch::nn::Linear model) {
  auto loader = torch::data::make_data_loader(0, torch::data::DataLoaderOptions(64));
  float total = 0;
  for (auto &batch : *loader) {
    auto output = torch::ones({64, 10}, torch::kCUDA);
    auto loss = torch::nn::functional::mse_loss(output, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'mse_loss' combines tensors on different devices: 'output' is on cuda and 'batch.target' is on cpu
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'output' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE-5]]:14: note: 'batch.target' is on cpu: batches come from the data loader on the cpu
    total += loss.item<float>();
  }
  return total;
}
