// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Net);

// Mixed precision gone wrong: the model is half, the batch is not.
void half_model(torch::Device device) {
  Net model;
  model->to(device);
  model->to(torch::kHalf);
  auto batch = torch::rand({8, 784}).to(device);
  batch.to(torch::kHalf);
  auto logits = model->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: input 'batch' is float32 but 'model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: 'batch' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'model' was cast to float16 here
  (void)logits;
}

// A LibTorch module has float32 parameters until cast.
void fresh_linear() {
  torch::nn::Linear fc(4, 2);
  auto x = torch::ones({1, 4}, torch::kDouble);
  auto y = fc->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: input 'x' is float64 but 'fc' has float32 parameters; modules do not promote their input
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'fc' has float32 parameters: created here
  (void)y;
}

// Matrix products do not promote.
void products() {
  auto a = torch::randn({4, 4}).to(torch::kHalf);
  auto b = torch::randn({4, 4});
  auto c = torch::matmul(a, b);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' does not promote dtypes: 'a' is float16 and 'b' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'a' is float16: converted here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'b' is float32: created here
  auto d = b.mm(b.to(torch::kDouble));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'mm' does not promote dtypes: 'b' is float32 and 'b.to(torch::kDouble)' is float64
  // CHECK-MESSAGES: :[[@LINE-7]]:12: note: 'b' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'b.to(torch::kDouble)' is float64: converted here
  (void)c, (void)d;
}
