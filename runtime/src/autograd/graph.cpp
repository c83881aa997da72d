// Autograd bookkeeping: grad mode, per-tensor metadata, recording nodes,
// and the Tensor members that expose them (grad, detach, is_leaf).
#include "graph.h"

#include "tt/autograd.h"
#include "tt/errors.h"

namespace tt {
namespace detail::autograd {

namespace {
thread_local bool t_grad_enabled = true;
}  // namespace

bool grad_enabled() { return t_grad_enabled; }
void set_grad_enabled(bool on) { t_grad_enabled = on; }

AutogradMeta* meta_if_any(const TensorImpl& t) { return t.autograd_meta.get(); }

AutogradMeta& meta(TensorImpl& t) {
  if (!t.autograd_meta) t.autograd_meta = std::make_unique<AutogradMeta>();
  return *t.autograd_meta;
}

Tensor alias_without_history(const Tensor& t) {
  const auto& ti = *TensorAccess::shared(t);
  return make_view(ti, ti.sizes, ti.strides, ti.offset);
}

bool needs_history(std::initializer_list<const Tensor*> inputs) {
  if (!t_grad_enabled) return false;
  for (const Tensor* t : inputs)
    if (t && t->defined() && TensorAccess::shared(*t)->requires_grad) return true;
  return false;
}

bool needs_history(const std::vector<Tensor>& inputs) {
  if (!t_grad_enabled) return false;
  for (const Tensor& t : inputs)
    if (t.defined() && TensorAccess::shared(t)->requires_grad) return true;
  return false;
}

namespace {
// The edge into the graph for one input: its grad_fn, or (a leaf) its
// AccumulateGrad, created on first use and shared by every graph using it.
std::shared_ptr<Node> edge_of(const Tensor& t) {
  const auto& sp = TensorAccess::shared(t);
  if (!sp->requires_grad) return nullptr;
  AutogradMeta& m = meta(*sp);
  if (m.grad_fn) return m.grad_fn;
  if (auto acc = m.accumulator.lock()) return acc;
  auto acc = std::make_shared<AccumulateGrad>();
  acc->name = "AccumulateGrad";
  acc->leaf = sp;
  m.accumulator = acc;
  return acc;
}
}  // namespace

void record(const Tensor& out, const char* name, const std::vector<Tensor>& inputs, BackwardFn backward) {
  if (!needs_history(inputs)) return;
  const auto& oi = TensorAccess::shared(out);
  for (const Tensor& in : inputs)
    if (in.defined() && TensorAccess::shared(in) == oi) return;
  auto node = std::make_shared<Node>();
  node->name = name;
  node->backward = std::move(backward);
  node->inputs.reserve(inputs.size());
  for (const Tensor& in : inputs) {
    if (!in.defined()) {
      node->inputs.push_back(InputInfo{nullptr, {}, ScalarType::Float, Device(kCPU)});
      continue;
    }
    const auto& ii = *TensorAccess::shared(in);
    node->inputs.push_back(InputInfo{edge_of(in), ii.sizes, ii.dtype, ii.device()});
  }
  AutogradMeta& m = meta(*oi);
  m.grad_fn = std::move(node);
  oi->requires_grad = true;
}

void check_inplace(const TensorImpl& self, const std::source_location& loc) {
  if (!t_grad_enabled || !self.requires_grad) return;
  const AutogradMeta* m = meta_if_any(self);
  if (!m || !m->grad_fn)
    throw ValueError("a leaf Variable that requires grad is being used in an in-place operation.", loc);
  throw ValueError(
      "in-place operations on tensors that are part of an autograd graph are not supported (tt keeps no version "
      "counters); use the out-of-place op",
      loc);
}

}  // namespace detail::autograd

bool GradMode::is_enabled() { return detail::autograd::grad_enabled(); }
void GradMode::set_enabled(bool enabled) { detail::autograd::set_grad_enabled(enabled); }

using detail::impl_of;

void Tensor::backward(const Tensor& gradient, bool retain_graph, SourceLoc loc) const {
  impl_of(*this, loc);
  detail::autograd::run_backward(*this, gradient, retain_graph, loc);
}

const Tensor& Tensor::grad(SourceLoc loc) const {
  static const Tensor undefined;
  const auto* m = detail::autograd::meta_if_any(impl_of(*this, loc));
  return m ? m->grad : undefined;
}

Tensor& Tensor::mutable_grad(SourceLoc loc) const { return detail::autograd::meta(impl_of(*this, loc)).grad; }

Tensor Tensor::detach(SourceLoc loc) const {
  impl_of(*this, loc);
  return detail::autograd::alias_without_history(*this);
}

bool Tensor::is_leaf(SourceLoc loc) const {
  const auto* m = detail::autograd::meta_if_any(impl_of(*this, loc));
  return !m || !m->grad_fn;
}

std::string Tensor::grad_fn_name(SourceLoc loc) const {
  const auto* m = detail::autograd::meta_if_any(impl_of(*this, loc));
  return m && m->grad_fn ? m->grad_fn->name : "";
}

}  // namespace tt
