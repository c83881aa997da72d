// The one boxed kernel behind every op on an emulated device that has no
// kernel of its own here: it applies the cuda build's device and dtype
// rules to the arguments (OpRules.h), reports what breaks them
// (Recorder.h), runs the op's cpu kernel on zero-copy cpu views of the
// arguments (HostViews.h) and hands the outputs back on the device. Where
// LibTorch 1.13's cpu build lacks a float16/bfloat16 kernel that cuda has
// (GEMM, conv, softmax...), it computes in float32 and rounds back, so a
// clean half-precision GPU program never gets a false error.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

namespace tensor_run {

/// The boxed kernel registered for the CUDA key (Registration.cpp).
void emulated_kernel(const c10::OperatorHandle& op, torch::jit::Stack* stack);

/// The kernel for an op whose cpu kernel is a CompositeExplicitAutograd
/// one. A cuda build runs that code on the cuda tensors, with no device
/// check of its own (LibTorch generates device checks for backend kernels
/// only), and so does this kernel: the ops it calls are emulated. Two kinds
/// of composite code would take a path a cpu build of LibTorch lacks: code
/// that picks its backend by the operands' device (convolution and its
/// backward, the ops with rules of their own in OpRules.h) runs on host
/// views after the rules, as emulated_kernel does, and takes the cpu's
/// backends; code that calls a DispatchStub for a cuda tensor is run again
/// that way when the stub says its cuda kernel is missing.
void composite_kernel(const c10::OperatorHandle& op, torch::jit::Stack* stack);

/// The SparseCUDA key's fallback: a clear error naming the op, where the
/// dispatcher would say that no kernel exists for that backend.
void sparse_kernel(const c10::OperatorHandle& op, torch::jit::Stack* stack);

/// The rules alone, for kernels that run ATen's composite code on device
/// tensors (convolution): reports violations and, in record mode, repairs
/// the arguments on the stack by moving or casting the offending operands,
/// so the op can continue.
void enforce_rules(const c10::OperatorHandle& op, torch::jit::Stack* stack);

}  // namespace tensor_run
