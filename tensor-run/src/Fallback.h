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

/// The rules alone, for kernels that run ATen's composite code on device
/// tensors (convolution): reports violations and, in record mode, repairs
/// the arguments on the stack by moving or casting the offending operands,
/// so the op can continue.
void enforce_rules(const c10::OperatorHandle& op, torch::jit::Stack* stack);

}  // namespace tensor_run
