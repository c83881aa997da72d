// tt::optim::Optimizer: the base of SGD and Adam (torch::optim::Optimizer,
// one parameter group). Parameters are handles, so a module moved in place
// after the optimizer was built (model.to(device)) is still optimised;
// state is created on the parameter's device at the first step.
#pragma once

#include <vector>

#include "tt/tensor.h"

namespace tt::optim {

class Optimizer {
 public:
  /// ValueError "optimizer got an empty parameter list" when params is empty.
  explicit Optimizer(std::vector<Tensor> params, SourceLoc loc = SourceLoc::current());
  virtual ~Optimizer() = default;
  /// One update of every parameter that has a gradient (others are skipped,
  /// as PyTorch). Runs without recording history.
  virtual void step() = 0;
  /// Resets every parameter's gradient, as LibTorch 2.x's
  /// zero_grad(set_to_none = true): undefined by default (step() then skips
  /// a parameter that got no new gradient), kept allocated and zeroed with
  /// false (LibTorch 1.13's only behaviour).
  void zero_grad(bool set_to_none = true);
  const std::vector<Tensor>& parameters() const noexcept { return params_; }

 protected:
  std::vector<Tensor> params_;
};

}  // namespace tt::optim
