// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// accessor<T, N>() checks a tensor's dtype and rank but not its device: the
// TensorAccessor indexes the data pointer on the host, which for a cuda
// tensor is device memory. The packed accessors are made for kernels.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

float top_probability(torch::nn::Linear model, torch::Tensor x) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  auto probs = model(x.to(device)).softmax(1);
  auto a = probs.accessor<float, 2>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'accessor' reads 'probs' from the host, but it is on cuda; copy it to the cpu first, or use a packed accessor in a kernel [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'probs' is on cuda: output of a module placed here
  return a[0][0];
}

void fill_on_gpu() {
  auto t = torch::zeros({4, 4}, torch::kCUDA);
  auto a = t.accessor<float, 2>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'accessor' reads 't' from the host, but it is on cuda; copy it to the cpu first, or use a packed accessor in a kernel [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 't' is on cuda: created here
  a[0][0] = 1;
}

float first_on(torch::Device device) {
  auto t = torch::ones({3}, device);
  return t.accessor<float, 1>()[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'accessor' reads 't' from the host, but it is on 'device'; copy it to the cpu first, or use a packed accessor in a kernel [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 't' is on 'device': created here
}

// --- Clean -------------------------------------------------------------------

float copied_to_cpu(torch::nn::Linear model, torch::Tensor x) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  auto probs = model(x.to(device)).softmax(1).cpu();
  auto a = probs.accessor<float, 2>();
  return a[0][0];
}

void kernel_accessor() {
  auto t = torch::zeros({4, 4}, torch::kCUDA);
  auto a = t.packed_accessor32<float, 2>();
  auto b = t.generic_packed_accessor<float, 2>();
  (void)a, (void)b;
}

float on_cpu() {
  auto t = torch::ones({3});
  return t.accessor<float, 1>()[0];
}

float unknown_device(const torch::Tensor &t) {
  return t.accessor<float, 1>()[0];
}

float moved_back(torch::Tensor x) {
  auto t = x.to(torch::kCUDA).relu().to(torch::kCPU);
  return t.accessor<float, 1>()[0];
}

float *raw_pointer_for_a_kernel() {
  auto t = torch::zeros({4}, torch::kCUDA);
  return t.data_ptr<float>();
}
