// Module: registration, traversal, modes, in-place moves and the
// module-call input check.
#include "tt/nn/module.h"

#include <cxxabi.h>

#include <cstdlib>
#include <typeinfo>

#include "../device_dtype_rules.h"
#include "../internal_ops.h"
#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/validate.h"

namespace tt::nn {

namespace {

void check_name(const std::string& name, const char* what, const SourceLoc& loc) {
  if (name.empty()) throw ValueError(std::string(what) + " name can't be empty string \"\"", loc);
  if (name.find('.') != std::string::npos)
    throw ValueError(std::string(what) + " name can't contain \".\", got: " + name, loc);
}

// Points dst's impl at src's data, so every handle to dst sees the move
// (PyTorch's param.data = param.data.to(...)).
void set_data(const Tensor& dst, const Tensor& src) {
  auto& d = *detail::TensorAccess::shared(dst);
  const auto& s = *detail::TensorAccess::shared(src);
  if (&d == &s) return;
  d.storage = s.storage;
  d.sizes = s.sizes;
  d.strides = s.strides;
  d.offset = s.offset;
  d.numel = s.numel;
  d.dtype = s.dtype;
}

Tensor converted(const Tensor& t, std::optional<Device> device, std::optional<ScalarType> dtype, const SourceLoc& loc) {
  Tensor r = t;
  if (dtype && is_floating_type(detail::TensorAccess::shared(t)->dtype)) r = detail::to_dtype_internal(r, *dtype, loc);
  if (device) r = detail::to_device_internal(r, *device, loc);
  return r;
}

}  // namespace

std::string Module::name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string full = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  const auto pos = full.rfind("::");
  return pos == std::string::npos ? full : full.substr(pos + 2);
}

Tensor Module::forward(const Tensor&, SourceLoc loc) {
  throw Error("Module " + name() +
                  " does not override forward(const Tensor&, SourceLoc): call its own forward() directly, or "
                  "override that signature to use operator() and Sequential",
              loc);
}

Tensor Module::operator()(const Tensor& input, SourceLoc loc) { return forward(check_input(input, loc), loc); }

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad, SourceLoc loc) {
  check_name(name, "parameter", loc);
  for (const auto& [n, t] : parameters_)
    if (n == name) throw ValueError("attempt to register parameter '" + name + "' which already exists", loc);
  if (!tensor.defined()) throw ValueError("parameter '" + name + "' is an undefined tensor", loc);
  // A parameter is a leaf: cut any history it came with.
  Tensor p = tensor.is_leaf() ? tensor : tensor.detach();
  p.requires_grad_(requires_grad, loc);
  parameters_.emplace_back(std::move(name), std::move(p));
  return parameters_.back().second;
}

Tensor& Module::register_buffer(std::string name, Tensor tensor, SourceLoc loc) {
  check_name(name, "buffer", loc);
  for (const auto& [n, t] : buffers_)
    if (n == name) throw ValueError("attempt to register buffer '" + name + "' which already exists", loc);
  buffers_.emplace_back(std::move(name), std::move(tensor));
  return buffers_.back().second;
}

void Module::add_child(std::string name, std::shared_ptr<Module> child) {
  const SourceLoc loc = SourceLoc::current();
  check_name(name, "submodule", loc);
  if (!child) throw ValueError("submodule '" + name + "' is null", loc);
  for (const auto& [n, c] : children_)
    if (n == name) throw ValueError("attempt to register submodule '" + name + "' which already exists", loc);
  children_.emplace_back(std::move(name), std::move(child));
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out(parameters_.begin(), parameters_.end());
  if (recurse)
    for (const auto& [cn, c] : children_)
      for (auto& [n, t] : c->named_parameters(true)) out.emplace_back(cn + "." + n, t);
  return out;
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  std::vector<Tensor> out;
  for (auto& [n, t] : named_parameters(recurse)) out.push_back(t);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Module::named_buffers(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out(buffers_.begin(), buffers_.end());
  if (recurse)
    for (const auto& [cn, c] : children_)
      for (auto& [n, t] : c->named_buffers(true)) out.emplace_back(cn + "." + n, t);
  return out;
}

std::vector<Tensor> Module::buffers(bool recurse) const {
  std::vector<Tensor> out;
  for (auto& [n, t] : named_buffers(recurse)) out.push_back(t);
  return out;
}

std::vector<std::pair<std::string, std::shared_ptr<Module>>> Module::named_children() const {
  return {children_.begin(), children_.end()};
}

std::vector<std::shared_ptr<Module>> Module::children() const {
  std::vector<std::shared_ptr<Module>> out;
  for (const auto& [n, c] : children_) out.push_back(c);
  return out;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& [n, c] : children_) c->train(on);
}

}  // namespace tt::nn

namespace tt::detail {
void zero_grads(const std::vector<Tensor>& params, bool set_to_none) {
  NoGradGuard no_grad;
  for (const Tensor& p : params) {
    Tensor& g = p.mutable_grad();
    if (!g.defined()) continue;
    if (set_to_none)
      g = Tensor();
    else
      g.zero_();
  }
}
}  // namespace tt::detail

namespace tt::nn {

void Module::zero_grad(bool set_to_none) { detail::zero_grads(parameters(), set_to_none); }

void Module::apply_to(std::optional<Device> device, std::optional<ScalarType> dtype, bool non_blocking,
                      const SourceLoc& loc) {
  (void)non_blocking;  // copies are synchronous on every tt backend today
  if (device) device = detail::resolve_device(*device, loc);
  if (dtype && !is_floating_type(*dtype))
    throw ValueError(std::string("nn.Module.to only accepts floating point dtypes, but got desired dtype=") +
                         std::string(to_string(*dtype)),
                     loc);
  NoGradGuard no_grad;
  for (auto& [n, p] : parameters_) {
    set_data(p, converted(p, device, dtype, loc));
    Tensor& g = p.mutable_grad();
    if (g.defined()) set_data(g, converted(g, device, dtype, loc));
  }
  for (auto& [n, b] : buffers_) set_data(b, converted(b, device, dtype, loc));
  for (auto& [n, c] : children_) c->apply_to(device, dtype, non_blocking, loc);
}

Module& Module::to(Device device, bool non_blocking, SourceLoc loc) {
  apply_to(device, std::nullopt, non_blocking, loc);
  return *this;
}
Module& Module::to(ScalarType dtype, bool non_blocking, SourceLoc loc) {
  apply_to(std::nullopt, dtype, non_blocking, loc);
  return *this;
}
Module& Module::to(Device device, ScalarType dtype, bool non_blocking, SourceLoc loc) {
  apply_to(device, dtype, non_blocking, loc);
  return *this;
}

const Tensor* Module::first_parameter() const {
  if (!parameters_.empty()) return &parameters_.front().second;
  for (const auto& [n, c] : children_)
    if (const Tensor* p = c->first_parameter()) return p;
  return nullptr;
}

Tensor Module::check_input(const Tensor& input, const SourceLoc& loc) const {
  const Tensor* p = first_parameter();
  if (!p) return input;
  const Device pd = p->device(loc), id = input.device(loc);
  if (pd == id) return input;
  // PyTorch names the common (non-cpu) device first.
  const bool param_first = !pd.is_cpu() || id.is_cpu();
  const Device first = param_first ? pd : id, second = param_first ? id : pd;
  const std::string msg = "Expected all tensors to be on the same device, but found at least two devices, " +
                          first.str() + " and " + second.str() + "! (module " + name() + "'s parameters are on " +
                          pd.str() + ", its input is on " + id.str() + ")";
  if (validation_mode() == ValidationMode::Raise) throw DeviceMismatchError(msg, loc);
  record_violation(Violation{"tensor-unmoved-input", name() + ".forward", msg, {pd, id}, {}}, loc);
  return input.to(pd, false, false, loc);
}

Tensor Module::check_input_and_dtype(const Tensor& input, const SourceLoc& loc) const {
  Tensor x = check_input(input, loc);
  const Tensor* p = first_parameter();
  if (!p) return x;
  const ScalarType pt = p->dtype(loc), it = x.dtype(loc);
  if (pt == it) return x;
  const std::string msg = "mat1 and mat2 must have the same dtype";
  if (validation_mode() == ValidationMode::Raise) throw DTypeMismatchError(msg, loc);
  record_violation(Violation{"tensor-mixed-dtype", name() + ".forward", msg, {x.device(loc)}, {it, pt}}, loc);
  return x.to(pt, false, false, loc);
}

}  // namespace tt::nn
