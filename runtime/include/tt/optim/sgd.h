// Stochastic gradient descent with momentum, dampening, Nesterov and
// weight decay: torch::optim::SGD's update, step for step.
#pragma once

#include "tt/optim/optimizer.h"

namespace tt::optim {

/// Options: `SGDOptions(0.01).momentum(0.9).weight_decay(1e-4)`; implicit
/// from the learning rate, so `SGD(model.parameters(), 0.01)` works.
struct SGDOptions {
  /* implicit */ SGDOptions(double lr) : lr_(lr) {}
  SGDOptions& lr(double v) {
    lr_ = v;
    return *this;
  }
  SGDOptions& momentum(double v) {
    momentum_ = v;
    return *this;
  }
  SGDOptions& dampening(double v) {
    dampening_ = v;
    return *this;
  }
  SGDOptions& weight_decay(double v) {
    weight_decay_ = v;
    return *this;
  }
  SGDOptions& nesterov(bool v) {
    nesterov_ = v;
    return *this;
  }
  double lr() const { return lr_; }
  double momentum() const { return momentum_; }
  double dampening() const { return dampening_; }
  double weight_decay() const { return weight_decay_; }
  bool nesterov() const { return nesterov_; }

 private:
  double lr_, momentum_ = 0, dampening_ = 0, weight_decay_ = 0;
  bool nesterov_ = false;
};

/// g = grad + weight_decay * p; with momentum, buf = momentum * buf +
/// (1 - dampening) * g (buf = g at the first step) and g = buf (or
/// g + momentum * buf with Nesterov); p -= lr * g. ValueError for a
/// negative lr/momentum/weight_decay, or Nesterov without momentum or with
/// dampening (PyTorch's messages).
class SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> params, SGDOptions options, SourceLoc loc = SourceLoc::current());
  void step() override;
  const SGDOptions& options() const noexcept { return options_; }

 private:
  SGDOptions options_;
  std::vector<Tensor> momentum_buffers_;  // per parameter; undefined until used
};

}  // namespace tt::optim
