// The built-in layers, as torch::nn's: Linear, ReLU, Sigmoid, Tanh,
// Dropout, Flatten and Sequential. Each forward(x) (and operator()(x))
// takes the caller's source location, so device and dtype errors and
// validation records name the user's line.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "tt/nn/module.h"

namespace tt::nn {

/// y = x W^T + b. weight [out_features, in_features], bias [out_features],
/// both float32 on the cpu, initialised U(-1/sqrt(in), 1/sqrt(in)) from the
/// global generator (PyTorch's kaiming_uniform_(a=sqrt(5)) default).
/// Input [*, in_features] -> [*, out_features]. Input on another device:
/// DeviceMismatchError naming the module (record: tensor-unmoved-input);
/// another dtype: DTypeMismatchError "mat1 and mat2 must have the same
/// dtype" (record: tensor-mixed-dtype).
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true, SourceLoc loc = SourceLoc::current());
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
  int64_t in_features() const noexcept { return in_; }
  int64_t out_features() const noexcept { return out_; }
  Tensor weight, bias;  // bias undefined when built without one

 private:
  int64_t in_, out_;
};

/// max(x, 0), any shape, any device.
class ReLU : public Module {
 public:
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
};

class Sigmoid : public Module {
 public:
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
};

class Tanh : public Module {
 public:
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
};

/// In training mode zeroes each element with probability p (mask drawn
/// from the global generator) and scales the rest by 1/(1-p); identity in
/// eval mode. ValueError unless 0 <= p <= 1.
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5, SourceLoc loc = SourceLoc::current());
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
  double p() const noexcept { return p_; }

 private:
  double p_;
};

/// Flattens dims start_dim..end_dim (default: all but the batch dim), so
/// [N, 1, 28, 28] -> [N, 784].
class Flatten : public Module {
 public:
  explicit Flatten(int64_t start_dim = 1, int64_t end_dim = -1) : start_(start_dim), end_(end_dim) {}
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;

 private:
  int64_t start_, end_;
};

/// Runs its modules in order, each registered as "0", "1", ...
/// `Sequential seq(Linear(784, 256), ReLU(), Linear(256, 10));` Modules
/// given by value are moved into shared_ptrs; user modules must override
/// forward(const Tensor&, SourceLoc) to take part.
class Sequential : public Module {
 public:
  Sequential() = default;
  template <class... Ms>
    requires(sizeof...(Ms) > 0 && (std::is_base_of_v<Module, std::decay_t<Ms>> && ...))
  explicit Sequential(Ms&&... modules) {
    (push_back(std::forward<Ms>(modules)), ...);
  }
  template <class M>
  void push_back(std::shared_ptr<M> module) {
    modules_.push_back(register_module(std::to_string(modules_.size()), std::move(module)));
  }
  template <class M, class = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(M&& module) {
    push_back(std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  /// Each module's forward in turn; errors name the caller's line.
  Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current()) override;
  size_t size() const noexcept { return modules_.size(); }
  const std::shared_ptr<Module>& operator[](size_t i) const { return modules_.at(i); }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

}  // namespace tt::nn
