#include "OpRules.h"

#include <c10/util/typeid.h>

#include <algorithm>
#include <sstream>

namespace tensor_run {

namespace {

bool is_cpu_scalar(const Operand& o) { return o.device.is_cpu() && o.dim == 0; }

// The op name without "aten::" and without an out= overload's suffix.
std::string base_name(const std::string& op) {
  std::string name = op.rfind("aten::", 0) == 0 ? op.substr(6) : op;
  return name.substr(0, name.find('.'));
}

bool is_recurrent(const std::string& name) {
  return name == "lstm" || name == "gru" || name == "rnn_tanh" || name == "rnn_relu";
}

}  // namespace

std::optional<DeviceMismatch> check_devices(c10::ArrayRef<Operand> operands) {
  std::optional<c10::Device> common;
  std::optional<c10::Device> self_device;  // for index arguments
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Operand& o = operands[i];
    if (o.index) {
      // Indices may be on the cpu, or on the indexed tensor's device.
      if (o.device.is_cpu() || !self_device || o.device == *self_device) continue;
      return DeviceMismatch{i, *self_device};
    }
    if (!self_device) self_device = o.device;
    if (is_cpu_scalar(o)) continue;
    if (!common) {
      common = o.device;
      continue;
    }
    if (o.device != *common) return DeviceMismatch{i, *common};
  }
  return std::nullopt;
}

std::optional<c10::Device> output_device(c10::ArrayRef<Operand> operands) {
  std::optional<c10::Device> first_cuda;
  for (const Operand& o : operands) {
    if (o.index) continue;
    if (!is_cpu_scalar(o)) return o.device.is_cpu() ? std::nullopt : std::optional<c10::Device>(o.device);
    if (!first_cuda && !o.device.is_cpu()) first_cuda = o.device;
  }
  if (first_cuda) return first_cuda;
  for (const Operand& o : operands)
    if (!o.device.is_cpu()) return o.device;
  return std::nullopt;
}

bool is_index_argument(const std::string& op, const std::string& arg) {
  const std::string name = base_name(op);
  if (arg == "batch_sizes") return is_recurrent(name);
  if (arg != "indices") return false;
  return name == "index" || name == "index_put_" || name == "index_put" || name == "_index_put_impl_";
}

std::vector<std::string> same_dtype_arguments(const std::string& op) {
  const std::string name = base_name(op);
  if (name == "mm" || name == "bmm") return {"self", "mat2"};
  if (name == "addmm") return {"mat1", "mat2", "self"};
  if (name == "baddbmm" || name == "addbmm") return {"batch1", "batch2", "self"};
  if (name == "mv") return {"self", "vec"};
  if (name == "addmv") return {"mat", "vec", "self"};
  if (name == "dot" || name == "vdot") return {"self", "tensor"};
  if (name == "addr") return {"vec1", "vec2", "self"};
  if (name == "convolution" || name == "_convolution") return {"input", "weight", "bias"};
  if (name == "convolution_backward") return {"input", "weight", "grad_output"};
  if (is_recurrent(name)) return {"input", "data", "params", "hx"};
  return {};
}

std::optional<std::pair<std::size_t, std::size_t>> check_same_dtype(c10::ArrayRef<Operand> operands,
                                                                    const std::vector<std::string>& names) {
  std::optional<std::size_t> first;
  for (const std::string& name : names) {
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const Operand& o = operands[i];
      if (o.arg != name || !c10::isFloatingType(o.dtype)) continue;
      if (!first)
        first = i;
      else if (o.dtype != operands[*first].dtype)
        return std::make_pair(*first, i);
    }
  }
  return std::nullopt;
}

std::string device_mismatch_message(c10::Device common, c10::Device offending) {
  std::ostringstream s;
  s << "Expected all tensors to be on the same device, but found at least two devices, " << common << " and "
    << offending << "!";
  return s.str();
}

std::string dtype_mismatch_message(const std::string& op, c10::ScalarType first, c10::ScalarType offending) {
  std::ostringstream s;
  const caffe2::TypeMeta a = caffe2::TypeMeta::fromScalarType(first), b = caffe2::TypeMeta::fromScalarType(offending);
  const std::string name = base_name(op);
  if (name == "convolution" || name == "_convolution")
    s << "Input type (" << a << ") and weight type (" << b << ") should be the same";
  else if (is_recurrent(name))
    s << "Input and parameter tensors are not the same dtype, found input tensor with " << c10::toString(first)
      << " and parameter tensor with " << c10::toString(offending);
  else
    s << "expected mat1 and mat2 to have the same dtype, but got: " << a << " != " << b;
  return s.str();
}

std::string python_dtype_name(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Byte: return "uint8";
    case c10::ScalarType::Char: return "int8";
    case c10::ScalarType::Short: return "int16";
    case c10::ScalarType::Int: return "int32";
    case c10::ScalarType::Long: return "int64";
    case c10::ScalarType::Half: return "float16";
    case c10::ScalarType::Float: return "float32";
    case c10::ScalarType::Double: return "float64";
    case c10::ScalarType::ComplexHalf: return "complex32";
    case c10::ScalarType::ComplexFloat: return "complex64";
    case c10::ScalarType::ComplexDouble: return "complex128";
    case c10::ScalarType::Bool: return "bool";
    case c10::ScalarType::BFloat16: return "bfloat16";
    default: {
      std::string s = c10::toString(t);
      std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return s;
    }
  }
}

}  // namespace tensor_run
