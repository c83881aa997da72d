// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype,tensor-unmoved-input %t -- -- %libtorch

// torch::load(model, path) gives the module the saved tensors, on the device
// they were saved from: the module is unknown from there on, until a move
// says where it is (`model->to(device, torch::kHalf)`). What was known of it
// before the load no longer holds.
#include <torch/torch.h>

struct RankerImpl : torch::nn::Module {
  RankerImpl() : fc(register_module("fc", torch::nn::Linear(256, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Ranker);

double benchmark(Ranker &model, const torch::Device &device) {
  auto candidates = torch::randn({64, 256}, device);
  return model->forward(candidates).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'candidates' is float32 but 'model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'candidates' is float32: created here
  // CHECK-MESSAGES: :[[@LINE+8]]:10: note: 'model' was cast to float16 here
  // CHECK-MESSAGES: :[[@LINE+9]]:3: note: in the call to 'benchmark' here
}

void half_after_load() {
  torch::Device device(torch::kCUDA);
  Ranker model;
  torch::load(model, "ranker.pt");
  model->to(device, torch::kHalf);
  model->eval();
  benchmark(model, device);
}

void cuda_after_load() {
  Ranker model;
  torch::load(model, "ranker.pt");
  model->to(torch::kCUDA);
  auto y = model->forward(torch::randn({4, 256}));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'torch::randn({4, 256})' is on cpu but 'model' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: 'torch::randn({4, 256})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'model' was moved to cuda here
  // CHECK-FIXES: auto y = model->forward(torch::randn({4, 256}).to(torch::kCUDA));
}

// Clean: loaded and not moved: where the file's tensors were.
void loaded_only() {
  Ranker model;
  model->to(torch::kCUDA);
  torch::load(model, "ranker.pt");
  auto y = model->forward(torch::randn({4, 256}));
}

// Clean: the input made in the module's dtype.
void half_input_after_load() {
  torch::Device device(torch::kCUDA);
  Ranker model;
  torch::load(model, "ranker.pt");
  model->to(device, torch::kHalf);
  auto y = model->forward(torch::randn({4, 256}, torch::TensorOptions().device(device).dtype(torch::kHalf)));
}

// Clean: a tensor loaded into is unknown after the load.
void tensor_loaded() {
  auto w = torch::zeros({4, 4});
  torch::load(w, "w.pt");
  auto y = torch::randn({4, 4}, torch::kCUDA).mm(w);
}
