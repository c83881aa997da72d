// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// A TensorOptions member that only the constructors' initialisers set
// (`opts_(torch::TensorOptions().dtype(torch::kFloat32).device(device))`)
// holds, in every method, the dtype those initialisers write. A tensor made
// with it has that dtype: class labels made with a trainer's float options
// are float targets, which nll_loss refuses.

// --- Bugs --------------------------------------------------------------------

class Trainer {
public:
  explicit Trainer(torch::Device device)
      : opts_(torch::TensorOptions().dtype(torch::kFloat32).device(device)),
        model_(torch::nn::Linear(8, 3), torch::nn::LogSoftmax(1)) {
    model_->to(device);
  }
  torch::Tensor step(const std::vector<float> &features,
                     const std::vector<int64_t> &labels) {
    auto x = torch::tensor(features, opts_).view({-1, 8});
    auto y = torch::tensor(labels, opts_);
    return torch::nll_loss(model_->forward(x), y);
    // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'nll_loss' takes int64 class indices as its target, but 'y' is float32 [tensor-mixed-dtype]
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'y' is float32: created here
  }

private:
  torch::TensorOptions opts_;
  torch::nn::Sequential model_;
};

// A module's forward makes its state with a float64 options member.
struct ResidualImpl : torch::nn::Module {
  ResidualImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::zeros({x.size(0), 4}, opts);
    return fc(h) + x;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: input 'h' is float64 but 'fc' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  }
  torch::nn::Linear fc;
  torch::TensorOptions opts = torch::TensorOptions().dtype(torch::kFloat64);
};
TORCH_MODULE(Residual);

void run_residual() {
  Residual model;
  model(torch::randn({2, 4}));
}

// --- Clean -------------------------------------------------------------------

// The labels' own dtype, from the member's options.
class LongLabels {
public:
  explicit LongLabels(torch::Device device)
      : opts_(torch::TensorOptions().dtype(torch::kFloat32).device(device)) {}
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts_.dtype(torch::kLong)));
  }

private:
  torch::TensorOptions opts_;
};

// A method sets the options again.
class Reconfigured {
public:
  Reconfigured() : opts_(torch::TensorOptions().dtype(torch::kFloat32)) {}
  void use_long() { opts_ = opts_.dtype(torch::kLong); }
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts_));
  }

private:
  torch::TensorOptions opts_;
};

// The dtype is the constructor's parameter.
class Given {
public:
  explicit Given(torch::Dtype dtype) : opts_(torch::TensorOptions().dtype(dtype)) {}
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts_));
  }

private:
  torch::TensorOptions opts_;
};

// Constructors that disagree.
class TwoWays {
public:
  TwoWays() : opts_(torch::TensorOptions().dtype(torch::kFloat32)) {}
  explicit TwoWays(int) : opts_(torch::TensorOptions().dtype(torch::kLong)) {}
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts_));
  }

private:
  torch::TensorOptions opts_;
};

// A public member of a plain struct: anyone may set it.
struct Config {
  Config() : opts(torch::TensorOptions().dtype(torch::kFloat32)) {}
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts));
  }
  torch::TensorOptions opts;
};

// Handed out by non-const reference.
class HandsOut {
public:
  HandsOut() : opts_(torch::TensorOptions().dtype(torch::kFloat32)) {}
  torch::TensorOptions &options() { return opts_; }
  torch::Tensor loss(const torch::Tensor &out, const std::vector<int64_t> &l) {
    return torch::nll_loss(out, torch::tensor(l, opts_));
  }

private:
  torch::TensorOptions opts_;
};
