// Plugs the emulated devices into LibTorch's dispatcher, at the CUDA key:
//  1. kernels of our own for the ops that need them (Kernels.h), and a
//     _to_copy for cpu and cuda tensors that marks conversions
//     (Conversions.h);
//  2. the boxed emulated kernel (Fallback.h) for every op that has a cpu
//     kernel, so that an op on cuda tensors takes the path its cpu twin
//     takes: a cuda build registers a cuda kernel wherever there is a cpu
//     one, and without this the dispatcher would send cuda calls to the
//     composite (out=) forms instead; and composite_kernel for every op
//     whose cpu kernel is a CompositeExplicitAutograd one, which runs that
//     code as a cuda build does, except where it would take a cuda-only
//     path (convolution's backends, a DispatchStub's cuda kernel).
//     CompositeImplicitAutograd ops are left alone: they decompose above
//     the backend keys, and a cuda kernel would take away their autograd;
//  3. the same boxed kernel as the CUDA key's fallback, for ops registered
//     after start-up (libraries the program loads later).
// The model is PyTorch's test/cpp_extensions/open_registration_extension.cpp.
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/Allocator.h>
#include <torch/library.h>

#include <memory>
#include <string>

#include "Conversions.h"
#include "DeviceMemory.h"
#include "Fallback.h"
#include "Kernels.h"

namespace tensor_run {
namespace {

namespace k = kernels;

TORCH_LIBRARY_IMPL(aten, CUDA, m) {
  m.impl("empty.memory_format", TORCH_FN(k::empty));
  m.impl("empty_strided", TORCH_FN(k::empty_strided));
  m.impl("copy_", TORCH_FN(k::copy_));
  m.impl("_copy_from", TORCH_FN(k::_copy_from));
  m.impl("_copy_from_and_resize", TORCH_FN(k::_copy_from_and_resize));
  m.impl("_to_copy", TORCH_FN(to_copy));
  m.impl("view", TORCH_FN(k::view));
  m.impl("as_strided", TORCH_FN(k::as_strided));
  m.impl("_reshape_alias", TORCH_FN(k::_reshape_alias));
  m.impl("resize_", TORCH_FN(k::resize_));
  m.impl("set_.source_Storage", TORCH_FN(k::set_storage));
  m.impl("set_.source_Storage_storage_offset", TORCH_FN(k::set_storage_offset));
  m.impl("set_.source_Tensor", TORCH_FN(k::set_tensor));
  m.impl("set_", TORCH_FN(k::set_empty));
  m.impl("is_pinned", TORCH_FN(k::is_pinned));
  m.impl("_pin_memory", TORCH_FN(k::_pin_memory));
  m.impl("record_stream", TORCH_FN(k::record_stream));
  m.impl("native_dropout", TORCH_FN(k::native_dropout));
  // Ops a cuda build has and a cpu build lacks, which LibTorch's own
  // composite code calls for cuda tensors.
  m.impl("_use_cudnn_ctc_loss", TORCH_FN(k::use_cudnn_ctc_loss));
  m.impl("_use_cudnn_ctc_loss.Tensor", TORCH_FN(k::use_cudnn_ctc_loss_tensor));
  for (const char* rnn : {"lstm.input", "lstm.data", "gru.input", "gru.data", "rnn_tanh.input", "rnn_tanh.data",
                          "rnn_relu.input", "rnn_relu.data"})
    m.impl(rnn, torch::CppFunction::makeFromBoxedFunction<&k::recurrent>());
  m.impl("_thnn_fused_lstm_cell", TORCH_FN(k::fused_lstm_cell));
  m.impl("_thnn_fused_lstm_cell_backward_impl", TORCH_FN(k::fused_lstm_cell_backward));
  m.impl("_thnn_fused_gru_cell", TORCH_FN(k::fused_gru_cell));
  m.impl("_thnn_fused_gru_cell_backward", TORCH_FN(k::fused_gru_cell_backward));
}

// cpu -> cuda conversions dispatch on the cpu source.
TORCH_LIBRARY_IMPL(aten, CPU, m) { m.impl("_to_copy", TORCH_FN(to_copy)); }

TORCH_LIBRARY_IMPL(_, CUDA, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&emulated_kernel>()); }
TORCH_LIBRARY_IMPL(_, SparseCUDA, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&sparse_kernel>()); }

// Step 2, after the static registrations above (same translation unit, so
// they run first and the ops they cover already have a cuda kernel).
struct Mirror {
  std::unique_ptr<torch::Library> library;
  Mirror() {
    c10::SetAllocator(c10::DeviceType::CUDA, device_allocator());
    library =
        std::make_unique<torch::Library>(torch::Library::IMPL, "aten", c10::DispatchKey::CUDA, __FILE__, __LINE__);
    auto& dispatcher = c10::Dispatcher::singleton();
    for (const c10::OperatorName& name : dispatcher.getAllOpNames()) {
      if (name.name.rfind("aten::", 0) != 0) continue;
      auto handle = dispatcher.findOp(name);
      if (!handle || handle->hasKernelForDispatchKey(c10::DispatchKey::CUDA)) continue;
      const bool backend = handle->hasKernelForDispatchKey(c10::DispatchKey::CPU);
      const bool composite = handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutograd) ||
                             handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutogradNonFunctional);
      if (!backend && !composite) continue;
      std::string op = name.name.substr(6);
      if (!name.overload_name.empty()) op += "." + name.overload_name;
      library->impl(op.c_str(), backend ? torch::CppFunction::makeFromBoxedFunction<&emulated_kernel>()
                                        : torch::CppFunction::makeFromBoxedFunction<&composite_kernel>());
    }
  }
};
Mirror mirror;

}  // namespace
}  // namespace tensor_run
