#include "Kernels.h"

#include <ATen/EmptyTensor.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/gru_native.h>
#include <ATen/ops/lstm_native.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/rnn_relu_native.h>
#include <ATen/ops/rnn_tanh_native.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/view_native.h>
#include <ATen/ops/zeros_like.h>
#include <c10/util/Exception.h>

#include "Conversions.h"
#include "DeviceGuard.h"
#include "DeviceMemory.h"
#include "Fallback.h"
#include "Generators.h"
#include "HostViews.h"

namespace tensor_run::kernels {

namespace {

c10::DeviceIndex index_of(const c10::optional<c10::Device>& device) {
  const c10::DeviceIndex i = device && device->has_index() ? device->index() : current_device();
  check_device_index(i);
  return i;
}

c10::DispatchKeySet device_keys() { return c10::DispatchKeySet(c10::DispatchKey::CUDA); }

// A kernel's entry: counts the op and marks its device operands read.
void entered(std::initializer_list<const at::Tensor*> operands) {
  note_op();
  for (const at::Tensor* t : operands) mark_read(*t);
}

}  // namespace

at::Tensor empty(c10::IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<c10::Layout> layout,
                 c10::optional<c10::Device> device, c10::optional<bool> pin_memory,
                 c10::optional<c10::MemoryFormat> memory_format) {
  note_op();
  TORCH_CHECK(!layout || *layout == c10::Layout::Strided, "tensor-run: only strided cuda tensors are emulated");
  TORCH_CHECK(!pin_memory || !*pin_memory, "Only dense CPU tensors can be pinned");
  return at::detail::empty_generic(size, device_allocator(index_of(device)), device_keys(),
                                   dtype.value_or(c10::get_default_dtype_as_scalartype()), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, c10::optional<c10::ScalarType> dtype,
                         c10::optional<c10::Layout> layout, c10::optional<c10::Device> device,
                         c10::optional<bool> pin_memory) {
  note_op();
  TORCH_CHECK(!layout || *layout == c10::Layout::Strided, "tensor-run: only strided cuda tensors are emulated");
  TORCH_CHECK(!pin_memory || !*pin_memory, "Only dense CPU tensors can be pinned");
  return at::detail::empty_strided_generic(size, stride, device_allocator(index_of(device)), device_keys(),
                                           dtype.value_or(c10::get_default_dtype_as_scalartype()));
}

// One host view each, sharing a cpu storage when they share a device one,
// so the cpu copy kernel sees (and refuses or handles) overlapping copies.
void copy_between(const at::Tensor& dst, const at::Tensor& src, bool non_blocking) {
  HostViews host;
  at::Tensor to = host.view_of(dst);
  to.copy_(host.view_of(src), non_blocking);
}

at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  entered({&self, &src});
  if (self.is_same(src)) return self;
  copy_between(self, src, non_blocking);
  return self;
}

at::Tensor _copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  entered({&self, &dst});
  copy_between(dst, self, non_blocking);
  return dst;
}

at::Tensor _copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  entered({&self, &dst});
  if (dst.sizes() != self.sizes()) dst.resize_(self.sizes());
  copy_between(dst, self, false);
  return dst;
}

at::Tensor view(const at::Tensor& self, c10::IntArrayRef size) {
  entered({&self});
  return at::native::view(self, size);
}

at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      c10::optional<int64_t> storage_offset) {
  entered({&self});
  return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

at::Tensor _reshape_alias(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride) {
  entered({&self});
  return at::native::_reshape_alias(self, size, stride);
}

const at::Tensor& resize_(const at::Tensor& self, c10::IntArrayRef size,
                          c10::optional<c10::MemoryFormat> memory_format) {
  // The cpu implementation grows the storage through its allocator, which
  // for a device tensor is the device's (DeviceMemory.h).
  entered({&self});
  return at::native::resize_(self, size, memory_format);
}

at::Tensor& set_storage(at::Tensor& self, c10::Storage source) {
  entered({&self});
  return at::native::set_(self, std::move(source));
}

at::Tensor& set_storage_offset(at::Tensor& self, c10::Storage source, int64_t storage_offset, c10::IntArrayRef size,
                               c10::IntArrayRef stride) {
  entered({&self});
  return at::native::set_storage_cpu_(self, std::move(source), storage_offset, size, stride);
}

at::Tensor& set_tensor(at::Tensor& self, const at::Tensor& source) {
  entered({&self, &source});
  return at::native::set_tensor_(self, source);
}

at::Tensor& set_empty(at::Tensor& self) {
  entered({&self});
  c10::Allocator* allocator = device_allocator(self.get_device());
  c10::Storage empty_storage(c10::Storage::use_byte_size_t(), 0, allocator->allocate(0), allocator, true);
  return at::native::set_storage_cpu_(self, std::move(empty_storage), 0, {0}, {});
}

bool is_pinned(const at::Tensor& self, c10::optional<c10::Device> device) {
  TORCH_CHECK(!device || device->is_cuda(), "tensor-run: pinned memory is only for cuda, not ", *device);
  entered({&self});  // asking is using: a conversion's result asked about is not discarded
  return self.is_cpu() && self.has_storage() && tensor_run::is_pinned(self.storage().data());
}

at::Tensor _pin_memory(const at::Tensor& self, c10::optional<c10::Device> device) {
  // As aten/src/ATen/native/cuda/PinnedMemory.cu, with tensor-run's pinned
  // allocator.
  TORCH_CHECK(!device || device->is_cuda(), "tensor-run: pinned memory is only for cuda, not ", *device);
  note_op();
  const std::size_t nbytes = at::detail::computeStorageNbytes(self.sizes(), self.strides(), self.dtype().itemsize());
  c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes, pinned_allocator(), /*resizable=*/false);
  at::Tensor pinned = at::empty({0}, self.options()).set_(storage, 0, self.sizes(), self.strides());
  pinned.copy_(self);
  return pinned;
}

void record_stream(at::Tensor& self, c10::Stream) { entered({&self}); }

std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, c10::optional<bool> train) {
  // As native_dropout_cpu (aten/src/ATen/native/Dropout.cpp).
  entered({&input});
  if (input.numel() == 0) return {input, at::empty_like(input, input.options())};
  if (train.has_value() && !*train) return {input.clone(), at::ones_like(input, input.options().dtype(at::kBool))};
  const double p1m = 1. - p;
  const double scale = p1m == 0 ? 0. : 1. / p1m;
  at::Tensor mask = at::empty_like(input, input.options().dtype(at::kBool));
  mask.bernoulli_(p1m, device_generator(input.get_device()));
  at::Tensor output = input.mul(mask).mul_(scale);
  return {output, mask};
}

void recurrent(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  enforce_rules(op, stack);
  const std::string name = op.schema().name();
  const bool data = op.schema().overload_name() == "data";
  // input:  (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
  // data:   (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)
  const std::size_t n = data ? 9 : 9;
  auto a = torch::jit::last(*stack, n);
  const at::Tensor input = a[0].toTensor();
  const std::size_t k = data ? 2 : 1;  // index of hx
  const std::vector<at::Tensor> params = a[k + 1].toTensorVector();
  const bool has_biases = a[k + 2].toBool();
  const int64_t layers = a[k + 3].toInt();
  const double dropout = a[k + 4].toDouble();
  const bool train = a[k + 5].toBool(), bidirectional = a[k + 6].toBool();
  const bool last = data ? false : a[8].toBool();  // batch_first for .input
  std::vector<c10::IValue> results;
  if (name == "aten::lstm") {
    const std::vector<at::Tensor> hx = a[k].toTensorVector();
    auto r =
        data ? at::native::lstm(input, a[1].toTensor(), hx, params, has_biases, layers, dropout, train, bidirectional)
             : at::native::lstm(input, hx, params, has_biases, layers, dropout, train, bidirectional, last);
    results = {std::get<0>(r), std::get<1>(r), std::get<2>(r)};
  } else {
    using Input = std::tuple<at::Tensor, at::Tensor> (*)(const at::Tensor&, const at::Tensor&, at::TensorList, bool,
                                                         int64_t, double, bool, bool, bool);
    using Data = std::tuple<at::Tensor, at::Tensor> (*)(const at::Tensor&, const at::Tensor&, const at::Tensor&,
                                                        at::TensorList, bool, int64_t, double, bool, bool);
    Input by_input = name == "aten::gru"        ? static_cast<Input>(&at::native::gru)
                     : name == "aten::rnn_tanh" ? static_cast<Input>(&at::native::rnn_tanh)
                                                : static_cast<Input>(&at::native::rnn_relu);
    Data by_data = name == "aten::gru"        ? static_cast<Data>(&at::native::gru)
                   : name == "aten::rnn_tanh" ? static_cast<Data>(&at::native::rnn_tanh)
                                              : static_cast<Data>(&at::native::rnn_relu);
    const at::Tensor hx = a[k].toTensor();
    auto r = data ? by_data(input, a[1].toTensor(), hx, params, has_biases, layers, dropout, train, bidirectional)
                  : by_input(input, hx, params, has_biases, layers, dropout, train, bidirectional, last);
    results = {std::get<0>(r), std::get<1>(r)};
  }
  torch::jit::drop(*stack, n);
  for (auto& r : results) torch::jit::push(*stack, std::move(r));
}

bool use_cudnn_ctc_loss(const at::Tensor&, const at::Tensor&, c10::IntArrayRef, c10::IntArrayRef, int64_t) {
  note_op();
  return false;
}

bool use_cudnn_ctc_loss_tensor(const at::Tensor&, const at::Tensor&, const at::Tensor&, const at::Tensor&, int64_t) {
  note_op();
  return false;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_lstm_cell(const at::Tensor& input_gates,
                                                               const at::Tensor& hidden_gates, const at::Tensor& cx,
                                                               const c10::optional<at::Tensor>& input_bias,
                                                               const c10::optional<at::Tensor>& hidden_bias) {
  // workspace: the activated gates [i, f, g, o] side by side, (batch, 4 * hidden),
  // the layout aten/src/ATen/native/cuda/RNN.cu keeps for the backward.
  note_op();
  at::Tensor gates = input_gates + hidden_gates;
  if (input_bias && input_bias->defined()) gates = gates + *input_bias;
  if (hidden_bias && hidden_bias->defined()) gates = gates + *hidden_bias;
  auto chunks = gates.chunk(4, 1);
  at::Tensor i = chunks[0].sigmoid(), f = chunks[1].sigmoid(), g = chunks[2].tanh(), o = chunks[3].sigmoid();
  at::Tensor cy = f * cx + i * g;
  at::Tensor hy = o * cy.tanh();
  at::Tensor workspace = at::cat({i, f, g, o}, 1);
  return {hy, cy, workspace};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_lstm_cell_backward(const c10::optional<at::Tensor>& grad_hy,
                                                                        const c10::optional<at::Tensor>& grad_cy,
                                                                        const at::Tensor& cx, const at::Tensor& cy,
                                                                        const at::Tensor& workspace, bool has_bias) {
  note_op();
  auto gates = workspace.chunk(4, 1);
  const at::Tensor &i = gates[0], &f = gates[1], &g = gates[2], &o = gates[3];
  const at::Tensor tanh_cy = cy.tanh();
  const at::Tensor ghy = grad_hy && grad_hy->defined() ? *grad_hy : at::zeros_like(cy);
  at::Tensor gcy = ghy * o * (1 - tanh_cy * tanh_cy);
  if (grad_cy && grad_cy->defined()) gcy = gcy + *grad_cy;
  const at::Tensor gi = gcy * g * i * (1 - i);
  const at::Tensor gf = gcy * cx * f * (1 - f);
  const at::Tensor gg = gcy * i * (1 - g * g);
  const at::Tensor go = ghy * tanh_cy * o * (1 - o);
  at::Tensor grad_gates = at::cat({gi, gf, gg, go}, 1);
  at::Tensor grad_cx = gcy * f;
  at::Tensor grad_bias = has_bias ? grad_gates.sum(0, /*keepdim=*/false) : at::Tensor();
  return {grad_gates, grad_cx, grad_bias};
}

std::tuple<at::Tensor, at::Tensor> fused_gru_cell(const at::Tensor& input_gates, const at::Tensor& hidden_gates,
                                                  const at::Tensor& hx, const c10::optional<at::Tensor>& input_bias,
                                                  const c10::optional<at::Tensor>& hidden_bias) {
  // workspace: [r, z, n, hx, hn] side by side, (batch, 5 * hidden), as RNN.cu.
  note_op();
  at::Tensor ig = input_gates, hg = hidden_gates;
  if (input_bias && input_bias->defined()) ig = ig + *input_bias;
  if (hidden_bias && hidden_bias->defined()) hg = hg + *hidden_bias;
  auto in = ig.chunk(3, 1);
  auto hn = hg.chunk(3, 1);
  at::Tensor r = (in[0] + hn[0]).sigmoid();
  at::Tensor z = (in[1] + hn[1]).sigmoid();
  at::Tensor n = (in[2] + r * hn[2]).tanh();
  at::Tensor hy = n + z * (hx - n);
  at::Tensor workspace = at::cat({r, z, n, hx, hn[2]}, 1);
  return {hy, workspace};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor> fused_gru_cell_backward(
    const at::Tensor& grad_hy, const at::Tensor& workspace, bool has_bias) {
  note_op();
  auto w = workspace.chunk(5, 1);
  const at::Tensor &r = w[0], &z = w[1], &n = w[2], &hx = w[3], &hn = w[4];
  const at::Tensor gn = grad_hy * (1 - z) * (1 - n * n);
  const at::Tensor gz = grad_hy * (hx - n) * z * (1 - z);
  const at::Tensor gr = gn * hn * r * (1 - r);
  at::Tensor grad_input_gates = at::cat({gr, gz, gn}, 1);
  at::Tensor grad_hidden_gates = at::cat({gr, gz, gn * r}, 1);
  at::Tensor grad_hx = grad_hy * z;
  at::Tensor grad_input_bias = has_bias ? grad_input_gates.sum(0) : at::Tensor();
  at::Tensor grad_hidden_bias = has_bias ? grad_hidden_gates.sum(0) : at::Tensor();
  return {grad_input_gates, grad_hidden_gates, grad_hx, grad_input_bias, grad_hidden_bias};
}

}  // namespace tensor_run::kernels
