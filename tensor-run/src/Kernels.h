// The ops an emulated device needs kernels of its own for, because the
// generic cpu path (Fallback.h) cannot do their job: making device memory
// (factories), moving data between devices (copies, pin_memory), giving
// another view of device memory (views, resize_, set_), and the cuda-only
// ops that LibTorch's composite code calls on cuda tensors (the fused RNN
// cells). Registered in Registration.cpp.
#pragma once

#include <ATen/Tensor.h>
#include <ATen/core/Generator.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/core/Storage.h>

#include <tuple>

namespace tensor_run::kernels {

// aten::empty.memory_format and aten::empty_strided on an emulated device:
// uninitialised device memory (DeviceMemory.h). A device without an index
// means the current one; an index past the device count throws "CUDA
// error: invalid device ordinal".
at::Tensor empty(c10::IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<c10::Layout> layout,
                 c10::optional<c10::Device> device, c10::optional<bool> pin_memory,
                 c10::optional<c10::MemoryFormat> memory_format);
at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, c10::optional<c10::ScalarType> dtype,
                         c10::optional<c10::Layout> layout, c10::optional<c10::Device> device,
                         c10::optional<bool> pin_memory);

// aten::copy_ with a device tensor on either side: cross-device copies are
// how data moves and are never violations; dtype conversion and strides as
// the cpu copy kernel does them. non_blocking copies complete at once.
at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking);
at::Tensor _copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking);
at::Tensor _copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst);

// Views and metadata changes of device tensors (ATen's own, device-agnostic
// implementations; they count as reads for tensor-discarded-cast, as tt's).
at::Tensor view(const at::Tensor& self, c10::IntArrayRef size);
at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      c10::optional<int64_t> storage_offset);
at::Tensor _reshape_alias(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride);
const at::Tensor& resize_(const at::Tensor& self, c10::IntArrayRef size,
                          c10::optional<c10::MemoryFormat> memory_format);
at::Tensor& set_storage(at::Tensor& self, c10::Storage source);
at::Tensor& set_storage_offset(at::Tensor& self, c10::Storage source, int64_t storage_offset, c10::IntArrayRef size,
                               c10::IntArrayRef stride);
at::Tensor& set_tensor(at::Tensor& self, const at::Tensor& source);
at::Tensor& set_empty(at::Tensor& self);

// pin_memory(): is_pinned and _pin_memory reach the CUDA key through
// BackendSelect with a cpu self (as with a real GPU).
bool is_pinned(const at::Tensor& self, c10::optional<c10::Device> device);
at::Tensor _pin_memory(const at::Tensor& self, c10::optional<c10::Device> device);

// Tensor::record_stream: nothing to order on synchronous devices.
void record_stream(at::Tensor& self, c10::Stream stream);

// native_dropout as the cpu kernel computes it, drawing its mask from the
// device's generator.
std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, c10::optional<bool> train);

// _use_cudnn_ctc_loss: LibTorch's ctc_loss asks it for cuda inputs; the
// emulated devices have no cuDNN (at::globalContext().hasCuDNN() is false),
// so the answer is no and ctc_loss takes its native path.
bool use_cudnn_ctc_loss(const at::Tensor& log_probs, const at::Tensor& targets, c10::IntArrayRef input_lengths,
                        c10::IntArrayRef target_lengths, int64_t blank);
bool use_cudnn_ctc_loss_tensor(const at::Tensor& log_probs, const at::Tensor& targets, const at::Tensor& input_lengths,
                               const at::Tensor& target_lengths, int64_t blank);

// The recurrent layers (lstm, gru, rnn_tanh, rnn_relu; .input and .data
// forms): ATen's composite code, after the device and dtype rules (it checks
// its operands itself, with its own wording, before any kernel runs).
void recurrent(const c10::OperatorHandle& op, torch::jit::Stack* stack);

// The fused LSTM and GRU cells that LibTorch's RNN code calls for cuda
// inputs (aten/src/ATen/native/cuda/RNN.cu), composed of ATen ops.
std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_lstm_cell(const at::Tensor& input_gates,
                                                               const at::Tensor& hidden_gates, const at::Tensor& cx,
                                                               const c10::optional<at::Tensor>& input_bias,
                                                               const c10::optional<at::Tensor>& hidden_bias);
std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_lstm_cell_backward(const c10::optional<at::Tensor>& grad_hy,
                                                                        const c10::optional<at::Tensor>& grad_cy,
                                                                        const at::Tensor& cx, const at::Tensor& cy,
                                                                        const at::Tensor& workspace, bool has_bias);
std::tuple<at::Tensor, at::Tensor> fused_gru_cell(const at::Tensor& input_gates, const at::Tensor& hidden_gates,
                                                  const at::Tensor& hx, const c10::optional<at::Tensor>& input_bias,
                                                  const c10::optional<at::Tensor>& hidden_bias);
std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor> fused_gru_cell_backward(
    const at::Tensor& grad_hy, const at::Tensor& workspace, bool has_bias);

}  // namespace tensor_run::kernels
