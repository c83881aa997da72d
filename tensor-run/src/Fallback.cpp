#include "Fallback.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/equal.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "Config.h"
#include "Conversions.h"
#include "DeviceGuard.h"
#include "Generators.h"
#include "HostViews.h"
#include "OpRules.h"
#include "Recorder.h"

namespace tensor_run {

namespace {

// Where an operand sits on the stack: argument i, element j of a list (-1:
// the argument itself).
struct Slot {
  std::size_t arg;
  std::ptrdiff_t element;
};

struct Operands {
  c10::SmallVector<Operand, 6> described;
  c10::SmallVector<Slot, 6> slots;
  c10::SmallVector<at::Tensor, 6> tensors;
};

// What the kernel needs to know about an op's schema, worked out once per
// op and thread: which arguments are indices, which must share a dtype,
// which take a generator, which write.
struct OpInfo {
  std::vector<char> index;      // per argument
  std::vector<char> generator;  // per argument: a Generator?
  std::vector<char> dtype;      // per argument: a ScalarType or ScalarType?
  std::vector<char> writes;     // per argument: alias_info()->isWrite()
  std::vector<std::string> same_dtype;
  bool cpu_kernel = true;  // the cpu build has a kernel for the op
};

const OpInfo& info_of(const c10::OperatorHandle& handle) {
  const c10::FunctionSchema& schema = handle.schema();
  // Per thread, so lookups need no lock. A plain pointer in initial-exec TLS
  // (the library is preloaded): a thread_local map would go through a TLS
  // wrapper and __tls_get_addr on every op, which cost as much as the rest
  // of this kernel. The map is freed at thread exit by a second
  // thread_local, touched only once per thread.
  using Cache = std::unordered_map<const c10::FunctionSchema*, OpInfo>;
  __attribute__((tls_model("initial-exec"))) static thread_local Cache* cache = nullptr;
  if (!cache) {
    struct Owner {
      std::unique_ptr<Cache> map = std::make_unique<Cache>();
      ~Owner() { cache = nullptr; }
    };
    static thread_local Owner owner;
    cache = owner.map.get();
  }
  auto [it, inserted] = cache->try_emplace(&schema);
  if (!inserted) return it->second;
  OpInfo& info = it->second;
  const std::string op = schema.name();
  for (const auto& a : schema.arguments()) {
    c10::TypePtr type = a.real_type();  // type() says int for a ScalarType
    if (type->kind() == c10::TypeKind::OptionalType) type = type->castRaw<c10::OptionalType>()->getElementType();
    info.index.push_back(is_index_argument(op, a.name()));
    info.generator.push_back(type->kind() == c10::TypeKind::GeneratorType);
    info.dtype.push_back(type->kind() == c10::TypeKind::ScalarTypeType);
    info.writes.push_back(a.alias_info() && a.alias_info()->isWrite());
  }
  info.same_dtype = same_dtype_arguments(op);
  info.cpu_kernel = handle.hasComputedKernelForDispatchKey(c10::DispatchKey::CPU);
  return info;
}

Operands gather(const c10::OperatorHandle& op, const torch::jit::Stack& stack, std::size_t base) {
  Operands out;
  const auto& args = op.schema().arguments();
  const OpInfo& info = info_of(op);
  auto add = [&](const at::Tensor& t, std::size_t i, std::ptrdiff_t j) {
    if (!t.defined()) return;
    out.described.push_back(Operand{args[i].name(), t.device(), t.dim(), t.scalar_type(), info.index[i] != 0});
    out.slots.push_back(Slot{i, j});
    out.tensors.push_back(t);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const c10::IValue& v = stack[base + i];
    if (v.isTensor()) {
      add(v.toTensor(), i, -1);
    } else if (v.isList()) {
      const auto elements = v.toListRef();
      for (std::size_t j = 0; j < elements.size(); ++j)
        if (elements[j].isTensor()) add(elements[j].toTensor(), i, static_cast<std::ptrdiff_t>(j));
    }
  }
  return out;
}

// Replaces an operand on the stack. A list argument is copied first: the
// stack's list may be the caller's own (a boxed c10::List shares its
// storage), which must never see host views or repairs.
void put(torch::jit::Stack& stack, std::size_t base, const Slot& slot, const at::Tensor& t) {
  c10::IValue& v = stack[base + slot.arg];
  if (slot.element < 0) {
    v = t;
  } else {
    c10::impl::GenericList list = v.toList().copy();
    list.set(static_cast<std::size_t>(slot.element), c10::IValue(t));
    v = std::move(list);
  }
}

// A module parameter, or a view of one (weight.t() in F.linear): a leaf
// that requires grad.
bool is_parameter(const at::Tensor& t) {
  if (t.requires_grad() && t.is_leaf()) return true;
  if (t.is_view()) {
    const at::TensorBase& base = t._base();
    return base.defined() && base.requires_grad() && base.is_leaf();
  }
  return false;
}

// The storages of the operands that broke a rule in a recorded violation:
// met again in a backward pass, they are its consequence (Recorder.h).
class Offenders {
 public:
  void add(const at::Tensor& t) {
    if (!t.has_storage()) return;
    c10::StorageImpl* s = t.storage().unsafeGetStorageImpl();
    std::lock_guard<std::mutex> lock(mu_);
    if (seen_.size() > 4096) {
      for (auto it = seen_.begin(); it != seen_.end();) it = it->second.expired() ? seen_.erase(it) : std::next(it);
    }
    seen_.emplace(s, c10::weak_intrusive_ptr<c10::StorageImpl>(t.storage().getWeakStorageImpl()));
  }
  bool contains(const at::Tensor& t) {
    if (!t.has_storage()) return false;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = seen_.find(t.storage().unsafeGetStorageImpl());
    return it != seen_.end() && !it->second.expired();
  }

 private:
  std::mutex mu_;
  std::unordered_map<const c10::StorageImpl*, c10::weak_intrusive_ptr<c10::StorageImpl>> seen_;
};

Offenders& offenders() {
  static auto* o = new Offenders;  // leaked: used until exit
  return *o;
}

std::string device_text(c10::Device d) {
  std::ostringstream s;
  s << d;
  return s.str();
}

std::string short_name(const c10::FunctionSchema& schema) {
  std::string name = schema.name();
  if (name.rfind("aten::", 0) == 0) name = name.substr(6);
  return name;
}

// Applies the device rule, then the dtype rule (record mode gets here
// after a violation; raise mode has thrown). The op continues on the
// parameters' device when a parameter was involved (the module's input
// moves to the module, as tt's record mode does), else on the first
// operand's: that device is returned. `repair_devices` moves the offending
// operands there on the stack, for callers that run device code; the cpu
// kernels run on host views of every operand anyway. Dtypes are always
// repaired.
c10::optional<c10::Device> apply_rules(const c10::OperatorHandle& op, torch::jit::Stack& stack, std::size_t base,
                                       Operands& ops, bool repair_devices) {
  const c10::FunctionSchema& schema = op.schema();
  c10::optional<c10::Device> continue_on;
  if (ops.described.size() < 2) return continue_on;

  if (auto mismatch = check_devices(ops.described)) {
    const std::size_t k = mismatch->offending;
    const at::Tensor& offending = ops.tensors[k];
    // The operand the offender disagrees with: the first on the common device.
    std::size_t first = 0;
    for (std::size_t i = 0; i < ops.described.size(); ++i)
      if (ops.described[i].device == mismatch->common && !ops.described[i].index) {
        first = i;
        break;
      }
    Violation v;
    v.kind = ViolationKind::Device;
    v.op = short_name(schema);
    v.message = device_mismatch_message(mismatch->common, offending.device());
    v.devices = {device_text(mismatch->common), device_text(offending.device())};
    const bool first_param = is_parameter(ops.tensors[first]), offending_param = is_parameter(offending);
    if (first_param != offending_param) {
      v.parameter_involved = true;
      v.parameter_side = device_text(first_param ? mismatch->common : offending.device());
      v.input_side = device_text(first_param ? offending.device() : mismatch->common);
    }
    v.seen_before = offenders().contains(offending) || offenders().contains(ops.tensors[first]);
    // The offender: the operand that is not the module's parameter (the
    // unmoved input), else the one off the common device.
    if (report(v) == Reported::Recorded)  // raise mode has thrown
      offenders().add(v.parameter_involved && !first_param ? ops.tensors[first] : offending);
    continue_on = v.parameter_involved ? (first_param ? mismatch->common : offending.device()) : mismatch->common;
    if (repair_devices) {
      for (std::size_t i = 0; i < ops.described.size(); ++i) {
        const Operand& o = ops.described[i];
        if (o.index || o.device == *continue_on || (o.device.is_cpu() && o.dim == 0)) continue;
        put(stack, base, ops.slots[i], ops.tensors[i].to(*continue_on));
      }
      ops = gather(op, stack, base);
    }
  }

  const std::vector<std::string>& names = info_of(op).same_dtype;
  if (names.empty()) return continue_on;
  if (auto pair = check_same_dtype(ops.described, names)) {
    const auto [first, offending] = *pair;
    const c10::ScalarType a = ops.described[first].dtype, b = ops.described[offending].dtype;
    Violation v;
    v.kind = ViolationKind::Dtype;
    v.op = short_name(schema);
    v.message = dtype_mismatch_message(schema.name(), a, b);
    v.devices = {device_text(ops.described[first].device)};
    v.dtypes = {python_dtype_name(a), python_dtype_name(b)};
    // The dtype the op continues in: the parameters', else the first's.
    c10::ScalarType target = a;
    for (std::size_t i = 0; i < ops.tensors.size(); ++i) {
      if (!is_parameter(ops.tensors[i]) || !c10::isFloatingType(ops.described[i].dtype)) continue;
      target = ops.described[i].dtype;
      v.parameter_involved = true;
      v.parameter_side = python_dtype_name(target);
      v.input_side = python_dtype_name(target == a ? b : a);
      break;
    }
    v.seen_before = offenders().contains(ops.tensors[first]) || offenders().contains(ops.tensors[offending]);
    if (report(v) == Reported::Recorded) {
      offenders().add(ops.tensors[first]);
      offenders().add(ops.tensors[offending]);
    }
    for (std::size_t i = 0; i < ops.described.size(); ++i) {
      const Operand& o = ops.described[i];
      bool named = false;
      for (const auto& n : names) named = named || o.arg == n;
      if (named && c10::isFloatingType(o.dtype) && o.dtype != target)
        put(stack, base, ops.slots[i], ops.tensors[i].to(target));
    }
    ops = gather(op, stack, base);
  }
  return continue_on;
}

bool is_low_precision(c10::ScalarType t) { return t == c10::ScalarType::Half || t == c10::ScalarType::BFloat16; }

// The cpu kernels of LibTorch 1.13 that cuda has and the cpu build lacks
// fail with "... not implemented for 'Half'". A cpu kernel's dtype
// complaint counts too, but only when every floating operand has the one
// low precision: with float32 among them it may be a real mismatch, which a
// retry in float32 would hide.
bool is_missing_low_precision_kernel(const c10::Error& e, c10::ArrayRef<Operand> operands, c10::ScalarType low,
                                     bool low_from_dtype_argument) {
  const std::string msg = e.what_without_backtrace();
  if (msg.find("not implemented for 'Half'") != std::string::npos ||
      msg.find("not implemented for 'BFloat16'") != std::string::npos ||
      msg.find("half to float conversion is not supported on CPU") != std::string::npos)
    return true;
  const bool dtype_complaint = msg.find("expected scalar type") != std::string::npos ||
                               msg.find("same dtype") != std::string::npos ||
                               msg.find("should be the same") != std::string::npos;
  if (!dtype_complaint) return false;
  // float32 tensors of a float16 computation (softmax's backward, told the
  // input's dtype): cuda's kernel takes them, the cpu's complains.
  if (low_from_dtype_argument) return true;
  for (const Operand& o : operands)
    if (c10::isFloatingType(o.dtype) && o.dtype != low) return false;
  return true;
}

struct Call {
  const c10::OperatorHandle& op;
  torch::jit::Stack& stack;
  std::size_t base;
  std::vector<c10::IValue> arguments;             // as the cpu kernel gets them (host views)
  c10::SmallVector<at::Tensor, 4> originals;      // the device operands
  c10::SmallVector<at::Tensor, 4> views;          // their host views
  c10::SmallVector<char, 4> written;              // the schema marks the operand's argument as written
  c10::SmallVector<at::Tensor, 2> host_operands;  // operands that were cpu tensors already
  HostViews host;
};

void run_cpu_kernel(const c10::OperatorHandle& op, torch::jit::Stack& stack) {
  op.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::CPU), &stack);
}

// The dtypes of the op's tensor outputs for these arguments, from its meta
// kernel (shapes and dtypes without data); empty when it has none.
std::vector<c10::optional<c10::ScalarType>> output_dtypes(const c10::OperatorHandle& op,
                                                          const std::vector<c10::IValue>& arguments) {
  torch::jit::Stack meta;
  auto to_meta = [](const at::Tensor& t) -> at::Tensor {
    if (!t.defined()) return t;
    return at::empty_strided(t.sizes(), t.strides(), t.options().device(c10::DeviceType::Meta));
  };
  for (const c10::IValue& v : arguments) {
    if (v.isTensor()) {
      meta.emplace_back(to_meta(v.toTensor()));
    } else if (v.isList()) {
      c10::impl::GenericList list = v.toList().copy();
      for (std::size_t j = 0; j < list.size(); ++j)
        if (list.get(j).isTensor()) list.set(j, c10::IValue(to_meta(list.get(j).toTensor())));
      meta.emplace_back(std::move(list));
    } else if (v.isGenerator()) {
      meta.emplace_back(c10::IValue());
    } else {
      meta.push_back(v);
    }
  }
  std::vector<c10::optional<c10::ScalarType>> dtypes;
  try {
    op.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::Meta), &meta);
  } catch (const std::exception&) {
    return dtypes;
  }
  for (const c10::IValue& r : meta)
    dtypes.push_back(r.isTensor() ? c10::optional<c10::ScalarType>(r.toTensor().scalar_type()) : c10::nullopt);
  return dtypes;
}

// The normalization ops keep their statistics in float32 for float16
// input on cuda (their outputs after the first).
bool keeps_float_statistics(const std::string& op) {
  return op == "aten::native_layer_norm" || op == "aten::native_batch_norm" || op == "aten::native_group_norm" ||
         op == "aten::_native_batch_norm_legit";
}

// Runs the op again with every float16/bfloat16 tensor argument in float32.
// Arguments the kernel may have written (declared or not: native_batch_norm
// updates its running statistics through plain Tensor? arguments) get the
// float32 values rounded back; outputs get the dtype the op's meta kernel
// gives for the original arguments, or else `low`.
void run_in_float32(Call& c, c10::ScalarType low) {
  const OpInfo& info = info_of(c.op);
  const std::vector<c10::optional<c10::ScalarType>> expected = output_dtypes(c.op, c.arguments);
  struct Widened {
    at::Tensor view, wide;
    bool declared;
  };
  std::vector<Widened> widened;
  bool explicit_dtype = false;  // dtype=float32 (or another) asked for explicitly
  c.stack.resize(c.base);
  for (std::size_t i = 0; i < c.arguments.size(); ++i) {
    c10::IValue v = c.arguments[i];
    // A dtype argument naming the low precision (softmax's input_dtype, a
    // reduction's dtype=) follows the tensors to float32.
    if (info.dtype[i] && v.isInt()) {
      if (static_cast<c10::ScalarType>(v.toInt()) == low) {
        c.stack.emplace_back(static_cast<int64_t>(at::kFloat));
        continue;
      }
      explicit_dtype = true;
    }
    // softmax(dtype=float32) of a float16 input asks the kernel to widen it
    // (half_to_float), which only cuda's kernel does: the input is float32
    // already.
    if (v.isBool() && c.op.schema().arguments()[i].name() == "half_to_float") {
      c.stack.emplace_back(false);
      continue;
    }
    auto widen = [&](const at::Tensor& t) -> at::Tensor {
      if (!t.defined() || !is_low_precision(t.scalar_type())) return t;
      at::Tensor wide = t.to(at::kFloat);
      widened.push_back(Widened{t, wide, info.writes[i] != 0});
      return wide;
    };
    if (v.isTensor()) {
      v = widen(v.toTensor());
    } else if (v.isList()) {
      c10::impl::GenericList list = v.toList().copy();
      for (std::size_t j = 0; j < list.size(); ++j)
        if (list.get(j).isTensor()) list.set(j, c10::IValue(widen(list.get(j).toTensor())));
      v = list;
    }
    c.stack.push_back(std::move(v));
  }
  run_cpu_kernel(c.op, c.stack);
  for (Widened& w : widened) {
    if (w.declared) {
      if (w.view.sizes() != w.wide.sizes()) w.view.resize_(w.wide.sizes());
      w.view.copy_(w.wide);
      continue;
    }
    // Undeclared: only where the kernel changed the values.
    try {
      at::Tensor back = w.wide.to(w.view.scalar_type());
      if (back.sizes() == w.view.sizes() && !at::equal(back, w.view)) w.view.copy_(back);
    } catch (const c10::Error&) {
      // An input the kernel cannot have written (e.g. an expanded view).
    }
  }
  const std::size_t nret = c.op.schema().returns().size();
  const std::string name = c.op.schema().name();
  for (std::size_t i = c.stack.size() - nret, k = 0; i < c.stack.size(); ++i, ++k) {
    c10::IValue& r = c.stack[i];
    auto narrow = [&](const at::Tensor& t) -> at::Tensor {
      for (Widened& w : widened)
        if (w.declared && t.defined() && t.unsafeGetTensorImpl() == w.wide.unsafeGetTensorImpl()) return w.view;
      if (!t.defined() || t.scalar_type() != at::kFloat) return t;
      if (k < expected.size() && expected[k]) return *expected[k] == at::kFloat ? t : t.to(*expected[k]);
      if (explicit_dtype || (k > 0 && keeps_float_statistics(name))) return t;
      return t.to(low);
    };
    if (r.isTensor())
      r = narrow(r.toTensor());
    else if (r.isTensorList()) {
      auto list = r.toTensorList();
      for (std::size_t j = 0; j < list.size(); ++j) list.set(j, narrow(list.get(j)));
    }
  }
}

// A cpu kernel's output as the device op's output.
at::Tensor to_device_output(const at::Tensor& r, const Call& c, const c10::optional<c10::Device>& out_device) {
  if (!r.defined()) return r;
  for (std::size_t k = 0; k < c.views.size(); ++k)
    if (r.unsafeGetTensorImpl() == c.views[k].unsafeGetTensorImpl()) return c.originals[k];
  if (r.has_storage())
    if (const c10::Storage* device = c.host.device_storage_of(r.storage().unsafeGetStorageImpl()))
      return device_view(*device, r);
  if (!r.is_cpu() || !out_device || !out_device->is_cuda()) return r;
  // An output that is (a view of) a real cpu argument stays where it is.
  for (const at::Tensor& o : c.host_operands)
    if (r.unsafeGetTensorImpl() == o.unsafeGetTensorImpl() || shares_storage(r, o)) return r;
  return adopt_on_device(r, *out_device);
}

}  // namespace

void enforce_rules(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const std::size_t n = op.schema().arguments().size();
  const std::size_t base = stack->size() - n;
  Operands ops = gather(op, *stack, base);
  apply_rules(op, *stack, base, ops, /*repair_devices=*/true);
}

void sparse_kernel(const c10::OperatorHandle& op, torch::jit::Stack*) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "tensor-run cannot emulate ", op.schema().name(),
                              " on a sparse cuda tensor: the emulated devices hold dense tensors only (a sparse "
                              "gradient, as Embedding(sparse=true) makes, is one)");
}

void composite_kernel(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  if (info_of(op).same_dtype.empty()) {
    // As a cuda build runs it: the composite code on the device tensors,
    // the ops it calls emulated one by one (random draws come from the
    // device's generator, pack_padded_sequence's lengths stay on the cpu,
    // a real mismatch fails in the op that meets it).
    const std::size_t n = op.schema().arguments().size(), base = stack->size() - n;
    const std::vector<c10::IValue> arguments(stack->begin() + static_cast<std::ptrdiff_t>(base), stack->end());
    note_op();
    for (const c10::IValue& v : arguments)
      if (v.isTensor()) mark_read(v.toTensor());
    try {
      run_cpu_kernel(op, *stack);  // the CPU key's kernel is the composite one
      return;
    } catch (const c10::Error& e) {
      // Composite code that calls a DispatchStub for a cuda tensor, whose
      // cuda kernel only a cuda build has: the cpu's, on host views.
      if (std::string(e.what_without_backtrace()).find("missing CUDA kernel") == std::string::npos) throw;
      stack->resize(base);
      stack->insert(stack->end(), arguments.begin(), arguments.end());
    }
  }
  // Composite code that picks its backend by the operands' device
  // (convolution: cuDNN, depthwise and dilated kernels that only a cuda
  // build has) runs on host views and takes the cpu's, after the rules.
  emulated_kernel(op, stack);
}

void emulated_kernel(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  note_op();
  const c10::FunctionSchema& schema = op.schema();
  const std::size_t n = schema.arguments().size();
  const std::size_t base = stack->size() - n;
  const OpInfo& info = info_of(op);
  // The rules, then the device fresh outputs go to, from the (repaired)
  // operands.
  Operands ops = gather(op, *stack, base);
  c10::optional<c10::Device> out_device = apply_rules(op, *stack, base, ops, /*repair_devices=*/false);
  if (!out_device)
    if (auto d = output_device(ops.described)) out_device = *d;
  bool low_precision = false, low_from_dtype_argument = false;
  c10::ScalarType low = c10::ScalarType::Half;
  for (const Operand& o : ops.described)
    if (is_low_precision(o.dtype) && !low_precision) {
      low_precision = true;
      low = o.dtype;
    }
  // A dtype argument naming one counts too: softmax's backward gets float32
  // tensors and the float16 input's dtype as input_dtype.
  for (std::size_t i = 0; i < n && !low_precision; ++i) {
    const c10::IValue& v = (*stack)[base + i];
    if (info.dtype[i] && v.isInt() && is_low_precision(static_cast<c10::ScalarType>(v.toInt()))) {
      low_precision = low_from_dtype_argument = true;
      low = static_cast<c10::ScalarType>(v.toInt());
    }
  }

  Call call{op, *stack, base, {}, {}, {}, {}, {}, {}};
  for (std::size_t k = 0; k < ops.tensors.size(); ++k) {
    const at::Tensor& t = ops.tensors[k];
    mark_read(t);
    if (!t.is_cuda()) {
      call.host_operands.push_back(t);
      continue;
    }
    at::Tensor view = call.host.view_of(t);
    call.originals.push_back(t);
    call.views.push_back(view);
    call.written.push_back(info.writes[ops.slots[k].arg]);
    put(*stack, base, ops.slots[k], view);
  }
  for (std::size_t i = 0; i < n; ++i) {
    c10::IValue& v = (*stack)[base + i];
    // A factory's device argument (tril_indices(..., device=cuda)).
    if (v.isDevice() && v.toDevice().is_cuda()) {
      if (!out_device) out_device = v.toDevice().has_index() ? v.toDevice() : c10::Device(c10::kCUDA, current_device());
      v = c10::IValue(c10::Device(c10::DeviceType::CPU));
    }
    // Random ops draw from the device's generator, as on a GPU.
    if (info.generator[i] && v.isNone() && out_device && out_device->is_cuda())
      v = c10::IValue(device_generator(out_device->index()));
  }
  // Kept for the float32 retry, which only float16/bfloat16 operands need.
  if (low_precision) call.arguments.assign(stack->begin() + static_cast<std::ptrdiff_t>(base), stack->end());

  if (!out_device) out_device = c10::Device(c10::DeviceType::CUDA, current_device());
  // An op that only a cuda build has a kernel for (the cpu build has none
  // to run on host views): say so, naming it, rather than let the
  // dispatcher blame the cpu backend.
  TORCH_CHECK_NOT_IMPLEMENTED(info.cpu_kernel, "tensor-run cannot emulate ", schema.name(), " on ", *out_device,
                              ": LibTorch's cpu build has no kernel for it (only its CUDA build has one), and "
                              "tensor-run runs the cpu kernel on the emulated device's memory");
  CurrentDevice on(out_device->is_cuda() ? out_device->index() : current_device());
  try {
    run_cpu_kernel(op, *stack);
  } catch (const c10::Error& e) {
    if (!low_precision || !is_missing_low_precision_kernel(e, ops.described, low, low_from_dtype_argument)) throw;
    try {
      run_in_float32(call, low);
    } catch (const c10::Error& retry) {
      if (std::getenv("TENSOR_RUN_DEBUG_FRAMES"))
        std::fprintf(stderr, "[tensor-run] float32 retry of %s failed: %s\n", schema.name().c_str(),
                     retry.what_without_backtrace());
      throw e;  // the cpu kernel's own error says more than the retry's
    }
  }

  // In-place and out= arguments: the kernel wrote through the views; give
  // the device tensors any new geometry, memory or storage.
  for (std::size_t k = 0; k < call.views.size(); ++k)
    if (call.written[k]) call.host.write_back(call.originals[k], call.views[k]);

  const std::size_t nret = schema.returns().size();
  for (std::size_t i = stack->size() - nret; i < stack->size(); ++i) {
    c10::IValue& r = (*stack)[i];
    if (r.isTensor()) {
      r = to_device_output(r.toTensor(), call, out_device);
    } else if (r.isTensorList()) {
      auto list = r.toTensorList();
      for (std::size_t j = 0; j < list.size(); ++j) list.set(j, to_device_output(list.get(j), call, out_device));
    }
  }
}

}  // namespace tensor_run
