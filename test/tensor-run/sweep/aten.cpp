// The aten family: every ATen op that has a CUDA kernel (cuda_ops.inc,
// generated from LibTorch's ATen/ops/*_cuda_dispatch.h), every overload,
// called through the dispatcher with arguments synthesised from its schema.
// A sample the op rejects on the cpu is no case; one it accepts must give
// the same values on cuda. Each overload is tried forward, and backward
// where its cpu run differentiates.
#include <ATen/core/dispatch/Dispatcher.h>

#include <map>
#include <memory>
#include <set>

#include "sweep.h"

namespace {

constexpr const char* kCudaOps[] = {
#include "cuda_ops.inc"
};

// The shapes tried for tensor arguments, in order, until the cpu accepts
// one: a matrix, an image batch, a vector, a sequence batch.
const std::vector<std::vector<int64_t>> kShapes = {{3, 3}, {2, 3, 4, 4}, {4}, {2, 3, 5}};

bool any_of_names(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

// Arguments that hold indices, lengths or counts: int64 tensors.
bool is_index_like(const std::string& name, bool long_target) {
  return any_of_names(name, {"index", "indices", "offsets", "lengths", "input_lengths", "target_lengths", "repeats",
                             "batch_sizes", "counts", "labels", "boundaries_idx", "sorted_sequence_idx"}) ||
         (long_target && name == "target");
}

bool is_mask_like(const std::string& name) { return any_of_names(name, {"mask", "condition"}); }

int64_t sample_int(const std::string& name) {
  if (any_of_names(name, {"dim", "dim0", "dim1", "dim2", "axis", "start_dim", "source", "destination", "offset",
                          "diagonal", "ignore_index", "reduction", "padding_idx", "shifts"}))
    return 0;
  if (any_of_names(name, {"end_dim"})) return -1;
  if (any_of_names(name, {"kernel_size", "k", "n", "num_classes", "size", "length", "steps", "step", "minlength",
                          "bins", "output_size", "upscale_factor", "downscale_factor", "num_groups"}))
    return 2;
  return 1;
}

std::vector<int64_t> sample_ints(const std::string& name, std::size_t n, const std::vector<int64_t>& shape) {
  int64_t v = 1;
  if (any_of_names(name, {"padding", "output_padding", "dim", "dims", "shifts"})) v = 0;
  if (any_of_names(name, {"kernel_size", "output_size"})) v = 2;
  if (any_of_names(name, {"size", "sizes", "shape"})) return shape;
  if (name == "stride") v = 1;
  if (name == "pad") return std::vector<int64_t>(n ? n : 2, 1);
  if (name == "repeats") return std::vector<int64_t>(shape.size(), 2);
  return std::vector<int64_t>(n ? n : (name == "dim" || name == "dims" ? 1 : 2), v);
}

struct Profile {
  std::vector<int64_t> shape;
  bool long_target;
  bool grad;  // floating tensor arguments require grad (the backward case)
};

// One synthesised argument; false when its type is outside what the sweep
// synthesises (the overload is then no case).
bool sample(const c10::Argument& a, const Profile& p, torch::Device device, c10::IValue& out,
            std::vector<torch::Tensor>& leaves) {
  const std::string& name = a.name();
  c10::TypePtr type = a.real_type();
  const bool optional = type->kind() == c10::TypeKind::OptionalType;
  if (optional) type = type->castRaw<c10::OptionalType>()->getElementType();
  auto tensor = [&](const std::vector<int64_t>& shape) {
    if (is_index_like(name, p.long_target)) return sweep::randint(2, shape, device);
    if (is_mask_like(name)) return sweep::rand(shape, device).gt(0.5);
    // Values in (0.5, 1.5): inside the domain of log, sqrt, acos... after
    // the usual shifts, away from the kinks of abs, relu, round.
    torch::Tensor t = (torch::rand(shape) + 0.5).to(device);
    if (p.grad) {
      t.requires_grad_(true);
      leaves.push_back(t);
    }
    return t;
  };
  const bool is_out = a.alias_info() && a.alias_info()->isWrite() && a.kwarg_only();
  if (is_out && type->kind() == c10::TypeKind::TensorType) {
    out = torch::empty({0}, torch::TensorOptions().device(device));
    return true;
  }
  if (type->kind() == c10::TypeKind::DeviceObjType) {
    out = device;  // a factory's device: the run's
    return true;
  }
  if (a.default_value()) {
    out = *a.default_value();
    return true;
  }
  if (optional) {
    out = c10::IValue();
    return true;
  }
  switch (type->kind()) {
    case c10::TypeKind::TensorType: out = tensor(p.shape); return true;
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: out = sample_int(name); return true;
    case c10::TypeKind::FloatType: out = 0.5; return true;
    case c10::TypeKind::NumberType: out = c10::Scalar(2.0); return true;
    case c10::TypeKind::BoolType: out = false; return true;
    case c10::TypeKind::StringType: out = std::string(name == "reduce" ? "sum" : "none"); return true;
    case c10::TypeKind::ScalarTypeType: out = static_cast<int64_t>(at::kFloat); return true;
    case c10::TypeKind::LayoutType: out = static_cast<int64_t>(at::kStrided); return true;
    case c10::TypeKind::MemoryFormatType: out = static_cast<int64_t>(at::MemoryFormat::Contiguous); return true;
    case c10::TypeKind::ListType: {
      c10::TypePtr element = type->castRaw<c10::ListType>()->getElementType();
      const std::size_t n = a.N() ? static_cast<std::size_t>(*a.N()) : 0;
      switch (element->kind()) {
        case c10::TypeKind::TensorType: {
          c10::List<at::Tensor> list;
          list.push_back(tensor(p.shape));
          list.push_back(tensor(p.shape));
          out = list;
          return true;
        }
        case c10::TypeKind::OptionalType: {  // index's indices
          c10::List<c10::optional<at::Tensor>> list;
          list.push_back(sweep::randint(2, {2}, device));
          out = list;
          return true;
        }
        case c10::TypeKind::IntType:
        case c10::TypeKind::SymIntType: out = c10::IValue(sample_ints(name, n, p.shape)); return true;
        case c10::TypeKind::FloatType: out = c10::IValue(std::vector<double>(n ? n : 2, 2.0)); return true;
        case c10::TypeKind::BoolType: {
          c10::List<bool> list;
          for (std::size_t i = 0; i < (n ? n : 1); ++i) list.push_back(true);
          out = list;
          return true;
        }
        default: return false;
      }
    }
    default: return false;
  }
}

// Ops whose results are uninitialised memory or depend on the device's
// random numbers without taking a Generator argument: shapes and dtypes
// are compared, not values.
bool draws_or_uninitialised(const c10::FunctionSchema& schema) {
  for (const auto& a : schema.arguments()) {
    c10::TypePtr t = a.real_type();
    if (t->kind() == c10::TypeKind::OptionalType) t = t->castRaw<c10::OptionalType>()->getElementType();
    if (t->kind() == c10::TypeKind::GeneratorType) return true;
  }
  std::string n = schema.name().substr(6);
  for (const char* prefix : {"empty", "new_empty", "_empty", "resize", "_resize", "native_dropout", "_fused_dropout",
                             "rrelu", "set_", "randperm", "rand", "normal", "bernoulli", "multinomial", "poisson",
                             "_standard_gamma", "_sample_dirichlet", "binomial", "_fused_moving_avg"})
    if (n.rfind(prefix, 0) == 0) return true;
  return false;
}

// Overloads the sweep leaves out, each with its reason: other tensor
// layouts than the dense strided ones the emulated device holds, ops that
// need inputs no schema-driven sample gives, and cpu kernels that do not
// check their arguments (a malformed sample crashes the process or leaves
// outputs unwritten even without tensor-run: `--cpu-twice` finds them).
struct LeftOut {
  const char* part;  // a substring of the op's name
  const char* why;
};
constexpr LeftOut kLeftOut[] = {
    {"sparse", "sparse layout"},
    {"coalesce", "sparse layout"},
    {"_indices", "sparse layout"},
    {"_values", "sparse layout"},
    {"to_dense", "sparse and mkldnn layouts"},
    {"quantize", "quantized tensors"},
    {"fake_quant", "quantized tensors"},
    {"q_per_channel", "quantized tensors"},
    {"q_scale", "quantized tensors"},
    {"q_zero_point", "quantized tensors"},
    {"int_repr", "quantized tensors"},
    {"_make_per", "quantized tensors"},
    {"fbgemm", "quantized tensors"},
    {"nested", "nested tensors"},
    {"mkldnn", "mkldnn layout"},
    {"cudnn", "cuDNN's own ops: a cuda build without cuDNN lacks them too"},
    {"miopen", "ROCm's MIOpen ops"},
    {"_cufft", "cuFFT plan cache"},
    {"record_stream", "streams, tested in tensor-run's own cases"},
    {"is_pinned", "answered without a kernel for cuda tensors (BackendSelect); tested in tensor-run's own cases"},
    {"_local_scalar_dense", "item(), tested in tensor-run's own cases"},
    {"_assert_async", "asserts on its input's values"},
    {"_linalg_check_errors", "asserts on its input's values"},
    {"_validate", "asserts on its input's values"},
    {"segment_reduce", "needs consistent lengths"},
    {"_cummax_helper", "writes into caller-sized outputs unchecked"},
    {"_cummin_helper", "writes into caller-sized outputs unchecked"},
    {"_embedding_bag", "the cpu kernel reads out of bounds on offsets it does not check"},
    {"embedding_bag", "the cpu kernel reads out of bounds on offsets it does not check"},
    {"native_batch_norm", "the cpu kernel reads running statistics of a size it does not check"},
    {"unfold_backward", "the cpu kernel writes out of bounds for sizes it does not check"},
    {"_weight_norm_interface", "the cpu kernel leaves the norms unwritten for a g of a shape it does not check"},
};

bool left_out(const c10::OperatorName& op) {
  for (const LeftOut& l : kLeftOut)
    if (op.name.find(l.part) != std::string::npos) return true;
  return false;
}

std::map<std::string, std::vector<c10::OperatorName>> overloads_by_name() {
  std::map<std::string, std::vector<c10::OperatorName>> m;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames())
    if (name.name.rfind("aten::", 0) == 0) m[name.name].push_back(name);
  return m;
}

// The cpu run tries the profiles in order and keeps the first the op
// accepts in `chosen`; the cuda run then uses that one alone.
sweep::Results call(const c10::OperatorName& name, torch::Device device, bool grad, int& chosen) {
  auto handle = c10::Dispatcher::singleton().findOp(name);
  TORCH_CHECK(handle, "no such op");
  const c10::FunctionSchema& schema = handle->schema();
  std::string last_error = "no sample";
  const int profiles = static_cast<int>(kShapes.size()) * 2;
  for (int k = device.is_cuda() ? chosen : 0; k < profiles && k >= 0; ++k) {
    {
      torch::manual_seed(1234);
      Profile p{kShapes[static_cast<std::size_t>(k / 2)], k % 2 == 1, grad};
      torch::jit::Stack stack;
      std::vector<torch::Tensor> leaves;
      for (const c10::Argument& a : schema.arguments()) {
        c10::IValue v;
        TORCH_CHECK(sample(a, p, device, v, leaves), "argument ", a.name(), " of a type the sweep does not synthesise");
        stack.push_back(std::move(v));
      }
      const std::vector<c10::IValue> arguments = stack;
      try {
        handle->callBoxed(&stack);
      } catch (const c10::Error& e) {
        // On the cpu: this sample is not valid; try the next. On cuda the
        // runner has accepted the cpu's sample, so the error is the case's.
        if (device.is_cuda()) throw;
        last_error = e.what_without_backtrace();
        continue;
      }
      chosen = k;
      std::vector<torch::Tensor> outputs;
      for (const c10::IValue& r : stack) {
        if (r.isTensor())
          outputs.push_back(r.toTensor());
        else if (r.isTensorList())
          for (const at::Tensor& t : r.toTensorVector()) outputs.push_back(t);
      }
      // Arguments the op wrote (in place, out=) are results too.
      for (const c10::IValue& v : arguments)
        if (v.isTensor() && !v.toTensor().requires_grad()) outputs.push_back(v.toTensor());
      if (!grad) return outputs;
      return sweep::forward_backward(outputs, leaves);
    }
  }
  TORCH_CHECK(false, last_error);
}

const bool registered = [] {
  const auto by_name = overloads_by_name();
  std::set<std::string> seen;
  for (const char* base : kCudaOps) {
    for (const std::string& name : {std::string("aten::") + base, std::string("aten::") + base + "_"}) {
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      for (const c10::OperatorName& op : it->second) {
        std::string label = op.name + (op.overload_name.empty() ? "" : "." + op.overload_name);
        if (!seen.insert(label).second || left_out(op)) continue;
        auto handle = c10::Dispatcher::singleton().findOp(op);
        const bool random = handle && draws_or_uninitialised(handle->schema());
        auto forward = std::make_shared<int>(-1), backward = std::make_shared<int>(-1);
        sweep::add({"aten", label, [op, forward](torch::Device d) { return call(op, d, false, *forward); }, random});
        sweep::add({"aten", label + " (backward)",
                    [op, backward](torch::Device d) { return call(op, d, true, *backward); }, random});
      }
    }
  }
  return true;
}();

}  // namespace
