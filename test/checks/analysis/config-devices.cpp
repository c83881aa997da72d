// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input %t -- -- %libtorch

// A Device field of a configuration object (`opts.device`) is a symbol for
// the field: it may be cuda when some value this translation unit gives it
// may be (its default initialiser, constructors, aggregate initialisation,
// assignments), and a function that writes the field reads its own value,
// which is not followed.
#include <torch/torch.h>

struct TrainOptions {
  int64_t batch_size = 32;
  torch::Device device = torch::kCPU;
};

struct CpuOnlyOptions {
  int64_t batch_size = 32;
  torch::Device device = torch::kCPU;
};

// --- Bugs --------------------------------------------------------------------

void train(const TrainOptions &opts) {
  torch::nn::Linear model(8, 2);
  auto x = torch::rand({opts.batch_size, 8}).to(opts.device);
  model(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: input 'x' is on 'device' but 'model' is on cpu [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:46: note: 'x' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'model' is on cpu: created here
}

torch::Tensor penalty(const TrainOptions &opts) {
  auto w = torch::ones({8}, opts.device);
  return w * torch::linspace(0, 1, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'operator*' combines tensors on different devices: 'w' is on 'device' and 'torch::linspace(0, 1, 8)' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'w' is on 'device': created here
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'torch::linspace(0, 1, 8)' is on cpu: created here
}

int main(int argc, char **argv) {
  TrainOptions opts;
  if (argc > 1 && torch::cuda::is_available())
    opts.device = torch::Device(torch::kCUDA, 0);
  train(opts);
  penalty(opts);
}

// --- Clean -------------------------------------------------------------------

// Moved to the same field.
void train_moved(const TrainOptions &opts) {
  torch::nn::Linear model(8, 2);
  model->to(opts.device);
  model(torch::rand({opts.batch_size, 8}).to(opts.device));
}

// No value this file gives the field is cuda.
void train_cpu_only(const CpuOnlyOptions &opts) {
  torch::nn::Linear model(8, 2);
  model(torch::rand({opts.batch_size, 8}).to(opts.device));
}

// The function sets the field itself before it reads it.
void train_here(TrainOptions opts) {
  opts.device = torch::kCPU;
  torch::nn::Linear model(8, 2);
  model(torch::rand({opts.batch_size, 8}).to(opts.device));
}
