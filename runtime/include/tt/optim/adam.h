// Adam (with optional AMSGrad and L2 weight decay): torch::optim::Adam's update.
#pragma once

#include <utility>

#include "tt/optim/optimizer.h"

namespace tt::optim {

/// `AdamOptions(1e-3).betas({0.9, 0.999}).eps(1e-8).weight_decay(0)`.
struct AdamOptions {
  /* implicit */ AdamOptions(double lr = 1e-3) : lr_(lr) {}
  AdamOptions& lr(double v) {
    lr_ = v;
    return *this;
  }
  AdamOptions& betas(std::pair<double, double> v) {
    betas_ = v;
    return *this;
  }
  AdamOptions& eps(double v) {
    eps_ = v;
    return *this;
  }
  AdamOptions& weight_decay(double v) {
    weight_decay_ = v;
    return *this;
  }
  AdamOptions& amsgrad(bool v) {
    amsgrad_ = v;
    return *this;
  }
  double lr() const { return lr_; }
  std::pair<double, double> betas() const { return betas_; }
  double eps() const { return eps_; }
  double weight_decay() const { return weight_decay_; }
  bool amsgrad() const { return amsgrad_; }

 private:
  double lr_;
  std::pair<double, double> betas_{0.9, 0.999};
  double eps_ = 1e-8, weight_decay_ = 0;
  bool amsgrad_ = false;
};

/// m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2; p -= lr/(1-b1^t) * m /
/// (sqrt(v)/sqrt(1-b2^t) + eps), with g = grad + weight_decay * p. The
/// step count is per parameter, as PyTorch. ValueError for a negative lr
/// or eps, or betas outside [0, 1).
class Adam : public Optimizer {
 public:
  Adam(std::vector<Tensor> params, AdamOptions options = {}, SourceLoc loc = SourceLoc::current());
  void step() override;
  const AdamOptions& options() const noexcept { return options_; }

 private:
  struct State {
    int64_t step = 0;
    Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
  };
  AdamOptions options_;
  std::vector<State> state_;
};

}  // namespace tt::optim
