// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// A std::vector of tensors passed to a function (a template's instance
// too) carries what the caller knows of all its elements, as a vector
// variable does: the callee is followed with it. A vector the callee may
// change through a non-const reference is not bound.
#include <torch/torch.h>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl() { fc = register_module("fc", torch::nn::Linear(2, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Regressor);

// --- Bugs --------------------------------------------------------------------

template <typename Net>
torch::Tensor predict_all(Net &model, const std::vector<torch::Tensor> &chunks,
                          torch::Device device) {
  std::vector<torch::Tensor> outs;
  for (const auto &chunk : chunks)
    outs.push_back(model->forward(chunk.to(device)));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: input 'chunk.to(device)' is float32 but 'model' has float64 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+24]]:22: note: 'chunk.to(device)' is float32: created here
  // CHECK-MESSAGES: :[[@LINE+20]]:10: note: 'model' was cast to float64 here
  // CHECK-MESSAGES: :[[@LINE+23]]:3: note: in the call to 'predict_all' here
  return torch::cat(outs);
}

torch::Tensor total(const std::vector<torch::Tensor> &parts,
                    const torch::Tensor &bias) {
  torch::Tensor sum = bias.clone();
  for (const auto &p : parts)
    sum = sum + p;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator+' combines tensors on different devices: 'sum' is on cpu and 'p' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+19]]:16: note: 'sum' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+16]]:39: note: 'p' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE+17]]:3: note: in the call to 'total' here
  return sum;
}

void run_double() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device, torch::kDouble);
  std::vector<torch::Tensor> chunks;
  for (int i = 0; i < 4; ++i)
    chunks.push_back(torch::rand({16, 2}));
  predict_all(model, chunks, device);
}

void run_parts() {
  std::vector<torch::Tensor> parts = {torch::rand({3}, torch::kCUDA),
                                      torch::rand({3}, torch::kCUDA)};
  total(parts, torch::zeros({3}));
}

// --- Clean -------------------------------------------------------------------

void run_converted() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device, torch::kDouble);
  std::vector<torch::Tensor> chunks;
  for (int i = 0; i < 4; ++i)
    chunks.push_back(torch::rand({16, 2}, torch::kDouble));
  predict_all(model, chunks, device);
}

void fill(std::vector<torch::Tensor> &parts) {
  for (auto &p : parts)
    p = p.cpu();
}

void run_parts_on_cpu() {
  std::vector<torch::Tensor> parts = {torch::rand({3}), torch::rand({3})};
  total(parts, torch::zeros({3}));
  std::vector<torch::Tensor> moved = {torch::rand({3}, torch::kCUDA)};
  fill(moved);
  total(moved, torch::zeros({3}));
}
