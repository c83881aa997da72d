// Optimizer base, SGD and Adam: updates written with the core's in-place
// ops under NoGradGuard, so they run on whatever device the parameters are.
#include <cmath>
#include <cstdint>
#include <vector>

#include "../internal_ops.h"
#include "kernels/kernels.h"
#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/ops.h"
#include "tt/optim/adam.h"
#include "tt/optim/sgd.h"

namespace tt::optim {

Optimizer::Optimizer(std::vector<Tensor> params, SourceLoc loc) : params_(std::move(params)) {
  if (params_.empty()) throw ValueError("optimizer got an empty parameter list", loc);
}

void Optimizer::zero_grad(bool set_to_none) { detail::zero_grads(params_, set_to_none); }

SGD::SGD(std::vector<Tensor> params, SGDOptions options, SourceLoc loc)
    : Optimizer(std::move(params), loc), options_(options), momentum_buffers_(params_.size()) {
  if (options.lr() < 0) throw ValueError("Invalid learning rate: " + std::to_string(options.lr()), loc);
  if (options.momentum() < 0) throw ValueError("Invalid momentum value: " + std::to_string(options.momentum()), loc);
  if (options.weight_decay() < 0)
    throw ValueError("Invalid weight_decay value: " + std::to_string(options.weight_decay()), loc);
  if (options.nesterov() && (options.momentum() <= 0 || options.dampening() != 0))
    throw ValueError("Nesterov momentum requires a momentum and zero dampening", loc);
}

namespace {
// Whether a fused optimizer kernel may update `p` with `operands` (its
// gradient and state; null entries are skipped): all contiguous with p's
// floating dtype, size and device, that device running kernels for the
// stub (`registered`: its cuda function) or being memory the host reads.
// False (nothing done) otherwise, and the unfused ops then raise or record
// what is wrong as before.
bool fusable(const detail::TensorImpl& p, std::initializer_list<const detail::TensorImpl*> operands, bool registered) {
  const Device d = p.device();
  if (!is_floating_type(p.dtype) || !p.is_contiguous()) return false;
  for (const detail::TensorImpl* t : operands) {
    if (t && (t->dtype != p.dtype || t->device() != d || t->sizes != p.sizes || !t->is_contiguous())) return false;
  }
  // Two operands over the same memory a few elements apart (a gradient that
  // is a shifted view of its parameter, or two from_blob tensors over one
  // buffer): the kernel would read elements it has already written, where
  // each unfused op reads its inputs whole first. A parameter and its
  // gradient (the first operand) over exactly the same elements are fine:
  // the kernels read both before writing either. State over the memory of
  // another operand is not: the kernels read and write an element's
  // operands in an order of their own (optimizer_step_kernels.inc), where
  // the unfused ops finish one tensor before the next reads it.
  // (Addresses as integers: pointers into different allocations do not subtract.)
  const auto bytes = static_cast<std::uintptr_t>(p.numel) * element_size(p.dtype);
  std::vector<std::uintptr_t> starts{reinterpret_cast<std::uintptr_t>(p.data())};
  for (const detail::TensorImpl* t : operands)
    if (t) starts.push_back(reinterpret_cast<std::uintptr_t>(t->data()));
  for (size_t i = 0; i < starts.size(); ++i)
    for (size_t j = i + 1; j < starts.size(); ++j)
      if ((starts[i] != starts[j] || j > 1) &&
          (starts[i] > starts[j] ? starts[i] - starts[j] : starts[j] - starts[i]) < bytes)
        return false;
  return detail::kernels::has_device_kernels(d) ? registered : detail::host_can_read(d);
}

// SGD's update of a parameter as one fused kernel, where fusable.
bool fused_sgd_step(const Tensor& param, const Tensor& grad, const Tensor& buf, const SGDOptions& o) {
  const SourceLoc here = SourceLoc::current();
  const auto &p = detail::impl_of(param, here), &g = detail::impl_of(grad, here), &b = detail::impl_of(buf, here);
  if (!fusable(p, {&g, &b}, detail::kernels::sgd_step.registered_cuda() != nullptr)) return false;
  detail::kernels::sgd_step(p, g, b, {o.lr(), o.momentum(), o.dampening(), o.weight_decay(), o.nesterov()});
  return true;
}
}  // namespace

void SGD::step() {
  NoGradGuard no_grad;
  const auto& o = options_;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) continue;
    // After the first step (which makes the buffer), one pass per parameter.
    if (o.momentum() != 0 && momentum_buffers_[i].defined() && fused_sgd_step(p, grad, momentum_buffers_[i], o))
      continue;
    Tensor d = grad;
    if (o.weight_decay() != 0) d = add(d, p, o.weight_decay());
    if (o.momentum() != 0) {
      Tensor& buf = momentum_buffers_[i];
      if (!buf.defined() || buf.device() != p.device() || buf.dtype() != p.dtype()) {
        buf = zeros_like(p);  // first step (or the module moved): buf = g, as PyTorch
        buf.copy_(d);
      } else {
        buf.mul_(o.momentum()).add_(d, 1 - o.dampening());
      }
      d = o.nesterov() ? add(d, buf, o.momentum()) : buf;
    }
    p.add_(d, -o.lr());
  }
}

namespace {
// Adam's update of a parameter as one fused kernel, where fusable.
bool fused_adam_step(const Tensor& param, const Tensor& grad, const Tensor& exp_avg, const Tensor& exp_avg_sq,
                     const Tensor& max_exp_avg_sq, int64_t step, const AdamOptions& o) {
  const SourceLoc here = SourceLoc::current();
  const auto &p = detail::impl_of(param, here), &g = detail::impl_of(grad, here);
  const auto &m = detail::impl_of(exp_avg, here), &v = detail::impl_of(exp_avg_sq, here);
  const detail::TensorImpl* vmax = o.amsgrad() ? &detail::impl_of(max_exp_avg_sq, here) : nullptr;
  if (!fusable(p, {&g, &m, &v, vmax}, detail::kernels::adam_step.registered_cuda() != nullptr)) return false;
  const auto [b1, b2] = o.betas();
  detail::kernels::adam_step(p, g, m, v, vmax, {o.lr(), b1, b2, o.eps(), o.weight_decay(), step});
  return true;
}
}  // namespace

Adam::Adam(std::vector<Tensor> params, AdamOptions options, SourceLoc loc)
    : Optimizer(std::move(params), loc), options_(options), state_(params_.size()) {
  if (options.lr() < 0) throw ValueError("Invalid learning rate: " + std::to_string(options.lr()), loc);
  if (options.eps() < 0) throw ValueError("Invalid epsilon value: " + std::to_string(options.eps()), loc);
  const auto [b1, b2] = options.betas();
  if (b1 < 0 || b1 >= 1) throw ValueError("Invalid beta parameter at index 0: " + std::to_string(b1), loc);
  if (b2 < 0 || b2 >= 1) throw ValueError("Invalid beta parameter at index 1: " + std::to_string(b2), loc);
  if (options.weight_decay() < 0)
    throw ValueError("Invalid weight_decay value: " + std::to_string(options.weight_decay()), loc);
}

void Adam::step() {
  NoGradGuard no_grad;
  const auto& o = options_;
  const auto [b1, b2] = o.betas();
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    const Tensor& grad = p.grad();
    if (!grad.defined()) continue;
    State& s = state_[i];
    if (!s.exp_avg.defined() || s.exp_avg.device() != p.device() || s.exp_avg.dtype() != p.dtype()) {
      s = State{};
      s.exp_avg = zeros_like(p);
      s.exp_avg_sq = zeros_like(p);
      if (o.amsgrad()) s.max_exp_avg_sq = zeros_like(p);
    }
    ++s.step;
    if (fused_adam_step(p, grad, s.exp_avg, s.exp_avg_sq, s.max_exp_avg_sq, s.step, o)) continue;
    Tensor g = o.weight_decay() != 0 ? add(grad, p, o.weight_decay()) : grad;
    s.exp_avg.mul_(b1).add_(g, 1 - b1);
    s.exp_avg_sq.mul_(b2).add_(g * g, 1 - b2);
    const double bc1 = 1 - std::pow(b1, static_cast<double>(s.step));
    const double bc2 = 1 - std::pow(b2, static_cast<double>(s.step));
    Tensor v = s.exp_avg_sq;
    if (o.amsgrad()) {
      s.max_exp_avg_sq.copy_(where(gt(s.max_exp_avg_sq, v), s.max_exp_avg_sq, v));
      v = s.max_exp_avg_sq;
    }
    Tensor denom = (v.sqrt() / std::sqrt(bc2)) + o.eps();
    p.add_(s.exp_avg / denom, -o.lr() / bc1);
  }
}

}  // namespace tt::optim
