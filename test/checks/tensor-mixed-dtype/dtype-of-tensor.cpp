// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// x.to(other.dtype()) converts to other's dtype: Tensor::dtype() is a
// caffe2::TypeMeta, which Tensor::to takes too. torch::one_hot gives int64
// (ATen's Onehot.cpp), which a float layer does not take.
#include <torch/torch.h>

torch::Tensor blur(const torch::Tensor &images) {
  auto weight = torch::ones({3, 1, 3, 3}, torch::kFloat64) / 9;
  return torch::conv2d(images, weight.to(images.dtype()), {}, 1, 1, 1, 3);
}

void blur_float32() { auto y = blur(torch::rand({2, 3, 8, 8})); }

void converted_to_a_double_tensor() {
  auto reference = torch::zeros({4, 4}, torch::kFloat64);
  auto w = torch::randn({4, 4}).to(reference.dtype());
  auto y = torch::randn({2, 4}).mm(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'mm' does not promote dtypes: 'torch::randn({2, 4})' is float32 and 'w' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'torch::randn({2, 4})' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'w' is float64: converted here
}

torch::Tensor encode_machines(torch::nn::Linear proj) {
  auto ids = torch::randint(0, 8, {32}, torch::kLong);
  auto onehot = torch::one_hot(ids, 8);
  return proj->forward(onehot);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: input 'onehot' is int64 but 'proj' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'onehot' is int64: computed here
  // CHECK-MESSAGES: :[[@LINE+5]]:28: note: 'proj' has float32 parameters: created here
  // CHECK-MESSAGES: :[[@LINE+4]]:12: note: in the call to 'encode_machines' here
}

void encode_machines_with_a_new_layer() {
  auto y = encode_machines(torch::nn::Linear(8, 16));
}

// Clean: the one-hot rows converted to the layer's dtype.
torch::Tensor encode_machines_float(torch::nn::Linear proj) {
  auto ids = torch::randint(0, 8, {32}, torch::kLong);
  return proj->forward(torch::one_hot(ids, 8).to(torch::kFloat32));
}

void encode_machines_float_with_a_new_layer() {
  auto y = encode_machines_float(torch::nn::Linear(8, 16));
}
