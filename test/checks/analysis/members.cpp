// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// A model and its device kept in a class: when the class alone places the
// module (one move to the same device in every constructor, nothing else
// moving, replacing or handing it out, members not public), every other
// method may assume it is there. Otherwise members are unknown.
#include <torch/script.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// --- Bugs --------------------------------------------------------------------

class Detector {
public:
  Detector(const std::string &path, torch::Device device) : device_(device) {
    module_ = torch::jit::load(path);
    module_.to(device_);
    module_.eval();
  }
  torch::Tensor predict() {
    auto input = torch::rand({1, 3, 224, 224});
    return module_.forward({input}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'input' is on cpu but 'module_' is on 'device_' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'input' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-8]]:13: note: 'module_' was moved to 'device_' here
  }

private:
  torch::Device device_;
  torch::jit::Module module_;
};

class Trainer {
public:
  explicit Trainer(torch::Device device) : device_(device) { model_->to(device_); }
  torch::Tensor step(const torch::Tensor &labels) {
    auto x = torch::ones({8, 784});
    auto out = model_->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: input 'x' is on cpu but 'model_' is on 'device_' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'x' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-6]]:70: note: 'model_' was moved to 'device_' here
    return out + torch::zeros({8, 10});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'operator+' combines tensors on different devices: 'out' is on 'device_' and 'torch::zeros({8, 10})' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-9]]:70: note: 'out' is on 'device_': output of a module placed here
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'torch::zeros({8, 10})' is on cpu: created here
  }

private:
  torch::Device device_;
  Net model_;
};

class MaybeGpu {                            // one constructor may pick cuda
public:
  explicit MaybeGpu(bool gpu) {
    if (gpu)
      device_ = torch::kCUDA;
    model_->to(device_);
  }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: input 'torch::ones({8, 784})' is on cpu but 'model_' is on 'device_' [tensor-unmoved-input]

private:
  torch::Device device_{torch::kCPU};
  Net model_;
};

// --- Clean -------------------------------------------------------------------

class MovesInput {
public:
  MovesInput(const std::string &path, torch::Device device) : device_(device) {
    module_ = torch::jit::load(path);
    module_.to(device_);
  }
  torch::Tensor predict() {
    auto input = torch::rand({1, 3, 224, 224}).to(device_);
    return module_.forward({input}).toTensor();
  }

private:
  torch::Device device_;
  torch::jit::Module module_;
};

struct PublicModel {                        // anyone may move a public member
  explicit PublicModel(torch::Device d) { model->to(d); }
  torch::Tensor run() { return model->forward(torch::ones({8, 784})); }
  Net model;
};

class Relocates {                           // a method moves it again
public:
  explicit Relocates(torch::Device d) { model_->to(d); }
  void to_cpu() { model_->to(torch::kCPU); }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  Net model_;
};

class TwoPlaces {                           // constructors disagree
public:
  TwoPlaces() { model_->to(torch::kCPU); }
  explicit TwoPlaces(int) { model_->to(torch::kCUDA); }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  Net model_;
};

class HandsOut {                            // a copy of the handle escapes
public:
  explicit HandsOut(torch::Device d) { model_->to(d); }
  Net get() { return model_; }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  Net model_;
};

class WarmsUp {                             // inside the constructor the
public:                                     // move has not happened yet
  explicit WarmsUp(torch::Device d) {
    model_->forward(torch::ones({1, 784}));
    model_->to(d);
  }

private:
  Net model_;
};

// A device member that every constructor leaves on the cpu (its default
// initialiser, the constructor's initialiser, an assignment) is no device
// that may be cuda.
class KeptOnCpu {
public:
  KeptOnCpu() { model_->to(device_); }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  torch::Device device_{torch::kCPU};
  Net model_;
};

class InitialisedOnCpu {                    // the constructor's initialiser
public:                                     // replaces the default one
  InitialisedOnCpu() : device_("cpu") { model_->to(device_); }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  torch::Device device_{torch::kCUDA};
  Net model_;
};

class AssignedCpu {
public:
  AssignedCpu() : device_(torch::kCPU) { model_->to(device_); }
  explicit AssignedCpu(int) : device_(torch::kCPU) {
    device_ = torch::Device(torch::kCPU);
    model_->to(device_);
  }
  torch::Tensor run() { return model_->forward(torch::ones({8, 784})); }

private:
  torch::Device device_;
  Net model_;
};
