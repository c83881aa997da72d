// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// Module::register_parameter and register_buffer return the registered
// tensor; a conversion of it that changes its device or dtype returns a
// copy. A class member assigned that copy is not what the module moves,
// trains and saves (pytorch/pytorch#39062): the optimizer updates the
// registered parameter, and forward() reads the stale copy.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

// pytorch/pytorch#39062's shape.
struct ThresholdImpl : torch::nn::Module {
  ThresholdImpl() {
    threshold = register_parameter("threshold", torch::randn({1})).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: 'to' returns a copy of the registered parameter on cuda: the member keeps the copy, while the module moves, trains and saves the parameter, which is on cpu; convert the tensor before registering it [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:49: note: 'torch::randn({1})' is on cpu: created here
    // CHECK-FIXES: threshold = register_parameter("threshold", torch::randn({1}).to(torch::kCUDA));
  }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x - threshold); }
  torch::Tensor threshold;
};

// A buffer, in a member initialiser.
struct NormalizeImpl : torch::nn::Module {
  NormalizeImpl() : mean(register_buffer("mean", torch::zeros({3})).cuda()) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:68: warning: 'cuda' returns a copy of the registered buffer on cuda: the member keeps the copy, while the module moves, trains and saves the buffer, which is on cpu; convert the tensor before registering it [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:50: note: 'torch::zeros({3})' is on cpu: created here
  // CHECK-FIXES: NormalizeImpl() : mean(register_buffer("mean", torch::zeros({3}).cuda())) {}
  torch::Tensor forward(torch::Tensor x) { return x - mean; }
  torch::Tensor mean;
};

// To a Device the caller chooses: on a GPU machine the member is a copy.
struct ScaleImpl : torch::nn::Module {
  explicit ScaleImpl(torch::Device device) {
    scale = register_parameter("scale", torch::ones({8})).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'to' returns a copy of the registered parameter on 'device': the member keeps the copy, while the module moves, trains and saves the parameter, which is on cpu; convert the tensor before registering it [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:41: note: 'torch::ones({8})' is on cpu: created here
    // CHECK-FIXES: scale = register_parameter("scale", torch::ones({8}).to(device));
  }
  torch::Tensor forward(torch::Tensor x) { return x * scale; }
  torch::Tensor scale;
};

// Another dtype: the member is a float64 copy of the float32 parameter.
struct BiasImpl : torch::nn::Module {
  BiasImpl() {
    bias = register_parameter("bias", torch::zeros({8})).to(torch::kFloat64);
    // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'to' returns a copy of the registered parameter in float64: the member keeps the copy, while the module moves, trains and saves the parameter, which is float32; convert the tensor before registering it [tensor-mixed-dtype]
    // CHECK-MESSAGES: :[[@LINE-2]]:39: note: 'torch::zeros({8})' is float32: created here
    // CHECK-FIXES: bias = register_parameter("bias", torch::zeros({8}).to(torch::kFloat64));
  }
  torch::Tensor forward(torch::Tensor x) { return x + bias; }
  torch::Tensor bias;
};

// A buffer made in a variable first.
struct StatsImpl : torch::nn::Module {
  StatsImpl() {
    auto initial = torch::ones({4});
    running = register_buffer("running", initial).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'cuda' returns a copy of the registered buffer on cuda: the member keeps the copy, while the module moves, trains and saves the buffer, which is on cpu; convert the tensor before registering it [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'initial' is on cpu: created here
    // CHECK-FIXES: running = register_buffer("running", initial.cuda());
  }
  torch::Tensor running;
};

// --- Clean -------------------------------------------------------------------

// Each bug above, fixed: the tensor is converted before it is registered.
struct ThresholdFixedImpl : torch::nn::Module {
  ThresholdFixedImpl() {
    threshold = register_parameter("threshold", torch::randn({1}).to(torch::kCUDA));
  }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x - threshold); }
  torch::Tensor threshold;
};

struct NormalizeFixedImpl : torch::nn::Module {
  NormalizeFixedImpl() : mean(register_buffer("mean", torch::zeros({3}, torch::kCUDA))) {}
  torch::Tensor forward(torch::Tensor x) { return x - mean; }
  torch::Tensor mean;
};

struct BiasFixedImpl : torch::nn::Module {
  BiasFixedImpl() {
    bias = register_parameter("bias", torch::zeros({8}, torch::kFloat64));
  }
  torch::Tensor forward(torch::Tensor x) { return x + bias; }
  torch::Tensor bias;
};

// A conversion that changes nothing returns the registered tensor itself.
struct SameDtypeImpl : torch::nn::Module {
  SameDtypeImpl() {
    weight = register_parameter("weight", torch::randn({4, 4})).to(torch::kFloat32);
  }
  torch::Tensor weight;
};

// A tensor the caller gives may already be on the device.
struct GivenImpl : torch::nn::Module {
  explicit GivenImpl(torch::Tensor init) {
    weight = register_parameter("weight", init).to(torch::kCUDA);
  }
  torch::Tensor weight;
};

// A copy read once in the constructor, not kept.
struct InitNormImpl : torch::nn::Module {
  InitNormImpl() {
    weight = register_parameter("weight", torch::randn({4, 4}));
    norm = register_parameter("other", torch::randn({4})).to(torch::kFloat64).norm().item<double>();
  }
  torch::Tensor weight;
  double norm = 0;
};

// A local copy, not a member.
struct LocalCopyImpl : torch::nn::Module {
  LocalCopyImpl() {
    auto copy = register_parameter("weight", torch::randn({4})).to(torch::kCUDA);
    std::cout << copy.sum().item<float>() << std::endl;
  }
};

// A conversion of something else than a registration.
struct MovedTensorImpl : torch::nn::Module {
  MovedTensorImpl() {
    auto w = torch::randn({4});
    weight = w.to(torch::kCUDA);
    register_parameter("weight", weight);
  }
  torch::Tensor weight;
};
