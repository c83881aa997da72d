// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input %t -- -- %libtorch

// Messages name the device variable the user wrote at the line they read:
// pytorch/examples' mnist makes `torch::Device device(device_type)` and
// moves with `model.to(device)`, so the model is on 'device'. Which variable
// is shown does not change what is equal: a tensor moved to `device_type`
// is where the model is.

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.view({-1, 784})); }
  torch::nn::Linear fc;
};

torch::DeviceType pick() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

void mnist_like() {
  torch::DeviceType device_type = pick();
  torch::Device device(device_type);
  Net model;
  model.to(device);
  auto data = torch::randn({4, 784});
  auto out = model.forward(data);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: input 'data' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'data' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'model' was moved to 'device' here
  // CHECK-FIXES: auto out = model.forward(data.to(device));
  auto sum = out + torch::randn({4, 10});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator+' combines tensors on different devices: 'out' is on 'device' and 'torch::randn({4, 10})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-9]]:9: note: 'out' is on 'device': output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'torch::randn({4, 10})' is on cpu: created here
  (void)sum;
}

// --- Clean -------------------------------------------------------------------

void same_device_by_either_name() {
  torch::DeviceType device_type = pick();
  torch::Device device(device_type);
  Net model;
  model.to(device);
  auto a = model.forward(torch::randn({4, 784}).to(device_type));
  auto b = model.forward(torch::randn({4, 784}).to(device));
  auto c = a + b + torch::zeros({4, 10}, device_type);
  (void)c;
}
