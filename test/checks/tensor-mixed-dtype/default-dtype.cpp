// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// A translation unit that calls set_default_dtype: factories without a dtype
// give whatever the default is when they run, so only explicit dtypes are
// known.

torch::Tensor infer(torch::nn::Linear &half_model) {
  half_model->to(torch::kHalf);
  auto by_default = half_model->forward(torch::rand({8, 784}));
  auto explicit_float = half_model->forward(torch::rand({8, 784}, torch::kFloat32));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: input 'torch::rand({8, 784}, torch::kFloat32)' is float32 but 'half_model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: 'torch::rand({8, 784}, torch::kFloat32)' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:15: note: 'half_model' was cast to float16 here
  auto explicit_half = half_model->forward(torch::rand({8, 784}, torch::kHalf));
  return by_default + explicit_float + explicit_half;
}

int main() {
  c10::set_default_dtype(caffe2::TypeMeta::Make<c10::Half>());
  torch::nn::Linear model(784, 10);
  return infer(model).numel() > 0 ? 0 : 1;
}
