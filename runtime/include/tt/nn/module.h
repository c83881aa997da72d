// tt::nn::Module: the base of every layer and model, as torch::nn::Module.
// Named parameters, buffers and submodules; train/eval; and in-place moves
// (`model.to(device)` changes the module, unlike Tensor::to).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tt/tensor.h"

namespace tt::nn {

/// Base class of modules. Derive from it, register parameters and
/// submodules in the constructor, and write forward() with any signature,
/// as in LibTorch. To be callable through operator() or from a Sequential,
/// override `Tensor forward(const Tensor&, SourceLoc)` (the built-in
/// modules do).
///
/// Modules are used by value or through std::shared_ptr; copying a module
/// copies handles, so copies share parameters (LibTorch's shallow copy).
class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;

  /// The module's class name without namespaces ("Linear", "Net"), used in
  /// error messages and records.
  std::string name() const;

  /// The single-tensor forward that operator() and Sequential call. The
  /// default throws tt::Error naming the module: a user module with its own
  /// forward signature is called directly (`net.forward(x)`).
  virtual Tensor forward(const Tensor& input, SourceLoc loc = SourceLoc::current());
  /// Checks the input against the module's parameters (check_input), then
  /// forward(). Errors and records carry the caller's line.
  Tensor operator()(const Tensor& input, SourceLoc loc = SourceLoc::current());

  // --- parameters, buffers, submodules ----------------------------------------
  /// Adds a parameter (a leaf; requires_grad as given, floating dtypes only)
  /// and returns it. ValueError on a duplicate or empty name or one with a dot.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true,
                             SourceLoc loc = SourceLoc::current());
  /// Adds a buffer (state saved and moved with the module, never trained).
  Tensor& register_buffer(std::string name, Tensor tensor, SourceLoc loc = SourceLoc::current());
  /// Adds a submodule and returns it (parameters are then found under "name.").
  template <class M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    static_assert(std::is_base_of_v<Module, M>, "register_module needs a tt::nn::Module");
    add_child(std::move(name), module);
    return module;
  }
  /// By value: the module is moved into a new shared_ptr.
  template <class M, class = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  std::shared_ptr<std::decay_t<M>> register_module(std::string name, M&& module) {
    return register_module(std::move(name), std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }

  /// Every parameter, this module's first, then each child's in
  /// registration order (recursively unless recurse is false).
  std::vector<Tensor> parameters(bool recurse = true) const;
  /// With dotted names, e.g. "fc1.weight".
  std::vector<std::pair<std::string, Tensor>> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  std::vector<std::pair<std::string, Tensor>> named_buffers(bool recurse = true) const;
  /// Direct submodules, in registration order.
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const;
  std::vector<std::shared_ptr<Module>> children() const;

  // --- modes -------------------------------------------------------------------
  /// Training mode for this module and its children (Dropout uses it).
  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const noexcept { return training_; }
  /// Resets every parameter's gradient, as LibTorch 2.x's
  /// zero_grad(set_to_none = true): by default the gradient becomes
  /// undefined, so the next backward() stores its result instead of adding
  /// it to zeros (no fill, no extra pass); with false it is kept allocated
  /// and zeroed (LibTorch 1.13's only behaviour).
  void zero_grad(bool set_to_none = true);

  // --- in-place moves ------------------------------------------------------------
  /// Moves every parameter, gradient and buffer to device (and/or casts the
  /// floating ones to dtype) in place: every handle to a parameter, an
  /// optimizer's included, sees the moved data. CudaUnavailableError as
  /// Tensor::to. Returns *this, as model->to(device) in LibTorch.
  Module& to(Device device, bool non_blocking = false, SourceLoc loc = SourceLoc::current());
  Module& to(ScalarType dtype, bool non_blocking = false, SourceLoc loc = SourceLoc::current());
  Module& to(Device device, ScalarType dtype, bool non_blocking = false, SourceLoc loc = SourceLoc::current());
  Module& cuda(SourceLoc loc = SourceLoc::current()) { return to(Device(kCUDA), false, loc); }
  Module& cpu(SourceLoc loc = SourceLoc::current()) { return to(Device(kCPU), false, loc); }
  Module& half(SourceLoc loc = SourceLoc::current()) { return to(kHalf, false, loc); }

  /// The module-call check (PyTorch raises it from the first op; tt names
  /// the module): an input on another device than the module's first
  /// parameter raises DeviceMismatchError "Expected all tensors to be on the
  /// same device, but found at least two devices, cuda:0 and cpu! (module
  /// Linear's parameters are on cuda:0, its input is on cpu)"; in
  /// TT_VALIDATE=record mode it records tensor-unmoved-input at `loc` and
  /// returns the input moved to the module's device. Modules without
  /// parameters accept any device. Returns the input to use.
  Tensor check_input(const Tensor& input, const SourceLoc& loc) const;

 protected:
  /// As check_input, plus the dtype rule of layers that multiply by their
  /// weight (Linear): an input of another dtype than the parameters raises
  /// DTypeMismatchError "mat1 and mat2 must have the same dtype" (PyTorch's
  /// F.linear message); in record mode a tensor-mixed-dtype record and the
  /// input cast to the parameters' dtype.
  Tensor check_input_and_dtype(const Tensor& input, const SourceLoc& loc) const;

 private:
  void add_child(std::string name, std::shared_ptr<Module> child);
  void apply_to(std::optional<Device> device, std::optional<ScalarType> dtype, bool non_blocking, const SourceLoc& loc);
  const Tensor* first_parameter() const;

  // deques: register_parameter/register_buffer return references that
  // later registrations must not invalidate.
  std::deque<std::pair<std::string, Tensor>> parameters_;
  std::deque<std::pair<std::string, Tensor>> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

}  // namespace tt::nn
