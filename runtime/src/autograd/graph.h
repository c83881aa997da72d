// Internal: the autograd graph (torch/csrc/autograd's Node, Edge,
// AutogradMeta, AccumulateGrad), shrunk to what tt needs: every node has
// one output, and backward runs one closure per node.
//
// How ops take part (PyTorch's VariableType, by hand): a differentiable op
// computes its result without history, then calls one record_* function of
// derivatives.h, which attaches a Node here when grad mode is on and an
// input requires grad. Ops that are compositions of recorded ops (stack,
// narrow, flatten, t) record nothing themselves.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "tensor_impl.h"
#include "tt/tensor.h"

namespace tt::detail::autograd {

struct Node;

// What the engine needs to hand a gradient to one input: the node that
// produced it (or the leaf's AccumulateGrad; null when the input needs no
// gradient) and the input's metadata, so gradients are reduced to its shape
// (broadcasting) and converted to its dtype and device (.to()) generically.
struct InputInfo {
  std::shared_ptr<Node> fn;
  std::vector<int64_t> sizes;
  ScalarType dtype;
  Device device;
};

// Grads with respect to each input, in order, from the grad of the output.
// An undefined Tensor means "no gradient" (zero).
using BackwardFn = std::function<std::vector<Tensor>(const Tensor& grad_output)>;

struct Node {
  const char* name = "";
  std::vector<InputInfo> inputs;
  BackwardFn backward;  // reset after use unless retain_graph
  bool released = false;
  virtual ~Node() = default;
};

// The sink for a leaf: adds the incoming gradient into leaf.grad. Holds the
// leaf strongly (the graph keeps its leaves alive, as PyTorch); the leaf
// holds it weakly (no cycle).
struct AccumulateGrad : Node {
  std::shared_ptr<TensorImpl> leaf;
};

// Lives in TensorImpl::autograd_meta, created on first need.
struct AutogradMeta {
  Tensor grad;
  std::shared_ptr<Node> grad_fn;              // null for leaves
  std::weak_ptr<AccumulateGrad> accumulator;  // leaves only
};

// Thread-local grad mode (torch.is_grad_enabled()).
bool grad_enabled();
void set_grad_enabled(bool on);

AutogradMeta* meta_if_any(const TensorImpl& t);
AutogradMeta& meta(TensorImpl& t);

// A handle on t's data with no history: the result of detach(), and the
// form in which nodes save their own outputs (a saved output that kept its
// grad_fn would keep itself alive).
Tensor alias_without_history(const Tensor& t);

// Whether an op over these inputs must record: grad mode on and one of
// them requires grad.
bool needs_history(std::initializer_list<const Tensor*> inputs);
bool needs_history(const std::vector<Tensor>& inputs);

// Attaches node (with `backward`) as out's grad_fn, its inputs being
// `inputs`. No-op unless needs_history(inputs), or when out *is* one of the
// inputs (conversions that changed nothing return self).
void record(const Tensor& out, const char* name, const std::vector<Tensor>& inputs, BackwardFn backward);

// In-place ops on tensors that require grad are refused while grad mode is
// on: leaves with PyTorch's message; non-leaves because tt keeps no version
// counters to detect stale saved values (docs/runtime.md, Limits).
void check_inplace(const TensorImpl& self, const std::source_location& loc);

// The engine: runs backward from root with grad_output.
void run_backward(const Tensor& root, const Tensor& grad_output, bool retain_graph, const std::source_location& loc);

}  // namespace tt::detail::autograd
