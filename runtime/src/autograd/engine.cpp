// The backward engine: Kahn's algorithm over the nodes reachable from the
// root, each node run once all its consumers have contributed, gradients
// summed per node, then reduced and converted to each input's shape, dtype
// and device (torch/csrc/autograd/engine.cpp, single-threaded).
#include <unordered_map>

#include "../internal_ops.h"
#include "graph.h"
#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/ops.h"

namespace tt::detail::autograd {

namespace {

// Sums a broadcast gradient back to the input's shape (at::sum_to).
Tensor sum_to(const Tensor& g, const std::vector<int64_t>& target, const std::source_location& loc) {
  const auto& gs = TensorAccess::shared(g)->sizes;
  if (gs == target) return g;
  const size_t lead = gs.size() - target.size();
  std::vector<int64_t> dims;
  for (size_t i = 0; i < gs.size(); ++i)
    if (i < lead || (target[i - lead] == 1 && gs[i] != 1)) dims.push_back(static_cast<int64_t>(i));
  Tensor r = dims.empty() ? g : tt::sum(g, dims, /*keepdim=*/true, loc);
  return r.reshape(target, loc);
}

// The gradient as input `info` needs it: its shape, dtype, device.
Tensor adapt(Tensor g, const InputInfo& info, const std::source_location& loc) {
  g = sum_to(g, info.sizes, loc);
  g = to_dtype_internal(g, info.dtype, loc);
  return to_device_internal(g, info.device, loc);
}

void accumulate(AccumulateGrad& acc, const Tensor& g, const std::source_location& loc) {
  AutogradMeta& m = meta(*acc.leaf);
  if (!m.grad.defined()) {
    // Keep g itself when nobody else can see it; otherwise a private copy,
    // so later in-place accumulation cannot write into someone's tensor.
    const auto& gi = TensorAccess::shared(g);
    const bool exclusive = gi.use_count() == 1 && gi->storage.use_count() == 1 && gi->is_contiguous();
    if (exclusive) {
      m.grad = g;
    } else {
      m.grad = make_empty(gi->sizes, gi->dtype, gi->device(), loc);
      copy_impl(*TensorAccess::shared(m.grad), *gi, false, loc);
    }
    return;
  }
  m.grad.add_(g, 1, loc);
}

}  // namespace

void run_backward(const Tensor& root, const Tensor& grad_output, bool retain_graph, const std::source_location& loc) {
  const auto& ri = TensorAccess::shared(root);
  if (!ri->requires_grad) throw Error("element 0 of tensors does not require grad and does not have a grad_fn", loc);
  Tensor g = grad_output;
  if (!g.defined()) {
    if (ri->numel != 1) throw Error("grad can be implicitly created only for scalar outputs", loc);
    g = tt::ones(ri->sizes, TensorOptions().dtype(ri->dtype).device(ri->device()), loc);
  } else if (TensorAccess::shared(g)->sizes != ri->sizes) {
    throw ShapeError("Mismatch in shape: grad_output[0] has a shape of " + shape_str(TensorAccess::shared(g)->sizes) +
                         " and output[0] has a shape of " + shape_str(ri->sizes) + ".",
                     loc);
  }
  NoGradGuard no_grad;
  const InputInfo root_info{nullptr, ri->sizes, ri->dtype, ri->device()};
  g = adapt(g, root_info, loc);

  std::shared_ptr<Node> start;
  if (const AutogradMeta* m = meta_if_any(*ri); m && m->grad_fn) {
    start = m->grad_fn;
  } else {  // a leaf: backward() on it accumulates into its own grad
    auto acc = std::make_shared<AccumulateGrad>();
    acc->leaf = ri;
    accumulate(*acc, g, loc);
    return;
  }

  // Dependencies: how many consumers each reachable node waits for.
  std::unordered_map<Node*, int> deps;
  std::vector<Node*> stack{start.get()};
  deps[start.get()] = 0;
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const auto& in : n->inputs) {
      if (!in.fn) continue;
      auto [it, inserted] = deps.try_emplace(in.fn.get(), 0);
      ++it->second;
      if (inserted) stack.push_back(in.fn.get());
    }
  }

  std::unordered_map<Node*, Tensor> buffers;
  buffers[start.get()] = g;
  std::vector<std::shared_ptr<Node>> ready{start};
  while (!ready.empty()) {
    std::shared_ptr<Node> node = std::move(ready.back());
    ready.pop_back();
    auto bit = buffers.find(node.get());
    Tensor grad = bit == buffers.end() ? Tensor() : std::move(bit->second);
    if (bit != buffers.end()) buffers.erase(bit);
    if (auto* acc = dynamic_cast<AccumulateGrad*>(node.get())) {
      if (grad.defined()) accumulate(*acc, grad, loc);
      continue;
    }
    std::vector<Tensor> grads;
    if (grad.defined()) {
      if (node->released) {
        throw Error(
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward(). "
            "Specify retain_graph=true if you need to backward through the graph a second time.",
            loc);
      }
      grads = node->backward(grad);
      if (!retain_graph) {
        node->backward = nullptr;  // frees the saved tensors
        node->released = true;
      }
    }
    for (size_t i = 0; i < node->inputs.size(); ++i) {
      const InputInfo& in = node->inputs[i];
      if (!in.fn) continue;
      if (i < grads.size() && grads[i].defined()) {
        Tensor gi = adapt(grads[i], in, loc);
        auto [it, inserted] = buffers.try_emplace(in.fn.get(), gi);
        if (!inserted) it->second = it->second + gi;
      }
      if (--deps[in.fn.get()] == 0) ready.push_back(in.fn);
    }
  }
}

}  // namespace tt::detail::autograd
