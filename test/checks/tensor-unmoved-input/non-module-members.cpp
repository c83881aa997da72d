// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-unmoved-input,tensor-mixed-device %t -- -- %libtorch

// A module held by a class that is no module has no module to be moved
// with: when every constructor builds it on the cpu, nothing but forward()
// and mode switches (eval(), train()) use it, and no code outside the class
// names it, it stays on the cpu in every method.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

class Tagger {
public:
  explicit Tagger(torch::Device device)
      : device_(device), net_(torch::nn::Linear(32, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 5)) {
    net_->eval();
  }
  torch::Tensor predict(const torch::Tensor &rows) {
    torch::NoGradGuard no_grad;
    return torch::sigmoid(net_->forward(rows.to(device_)));
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: input 'rows.to(device_)' is on 'device_' but 'net_' is on cpu [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-2]]:46: note: 'rows.to(device_)' is on 'device_': moved here
    // CHECK-MESSAGES: :[[@LINE-9]]:26: note: 'net_' is built here on cpu, and no code of its class moves it
  }

private:
  torch::Device device_;
  torch::nn::Sequential net_;
};

// --- Clean -------------------------------------------------------------------

class MovedTagger {                       // the constructor moves it
public:
  explicit MovedTagger(torch::Device device)
      : device_(device), net_(torch::nn::Linear(32, 5)) {
    net_->to(device_);
    net_->eval();
  }
  torch::Tensor predict(const torch::Tensor &rows) {
    return net_->forward(rows.to(device_));
  }

private:
  torch::Device device_;
  torch::nn::Linear net_;
};

class SharedTagger {                      // handed out: anyone may move it
public:
  explicit SharedTagger(torch::Device device)
      : device_(device), net_(torch::nn::Linear(32, 5)) {}
  torch::nn::Linear &net() { return net_; }
  torch::Tensor predict(const torch::Tensor &rows) {
    return net_->forward(rows.to(device_));
  }

private:
  torch::Device device_;
  torch::nn::Linear net_;
};

class CpuTagger {                         // kept on the cpu with its input
public:
  CpuTagger() : net_(torch::nn::Linear(32, 5)) { net_->train(false); }
  torch::Tensor predict(const torch::Tensor &rows) {
    return net_->forward(rows.cpu());
  }

private:
  torch::nn::Linear net_;
};

struct PublicTagger {                     // moved by code outside the class
  torch::nn::Linear net{32, 5};
  torch::Tensor predict(const torch::Tensor &rows) {
    return net->forward(rows.cuda());
  }
};

void use_public() {
  PublicTagger t;
  t.net->to(torch::kCUDA);
  t.predict(torch::rand({2, 32}));
}
