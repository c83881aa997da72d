// Where a violation is reported: the frame of the user's code a static
// check would point at, and which check that is. Pure functions over
// symbolized frames (Frames.h), so the rules are tested with made-up stacks.
//
// The checks report a device or dtype mismatch between a module's
// parameters and its input at the module call in the caller
// (tensor-unmoved-input, tensor-mixed-dtype), and any other mismatch at the
// expression that combines the tensors (tensor-mixed-device). At run time the
// mismatch surfaces deeper, in the op inside the module's forward; these
// rules walk back out to the call.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "Frames.h"

namespace tensor_run {

/// What went wrong, as far as the placement rules care.
enum class ViolationKind {
  Device,         // operands on different devices
  Dtype,          // operands of different floating dtypes where the op needs one
  DiscardedCast,  // a conversion's result destroyed unread
};

struct Placement {
  std::string check;   // tensor-mixed-device, tensor-unmoved-input, ...
  std::size_t frame;   // index into the frames; npos when no frame is the user's
  std::string module;  // the LibTorch layer whose forward saw it ("Linear"), or ""
};

/// Places a violation. `parameter_involved`: one of the mismatched operands
/// is a module parameter (a leaf that requires grad). A device or dtype
/// mismatch is the module call's (tensor-unmoved-input for devices,
/// tensor-mixed-dtype for dtypes, at the user's call of the outermost
/// forward) when it happens inside a LibTorch layer that has parameters, or
/// involves a parameter inside any module's forward (a user's method named
/// forward too); every other mismatch is the expression's, at the innermost
/// user frame (tensor-mixed-device, tensor-mixed-dtype).
/// A discarded cast is placed at the user frame that called the conversion,
/// and has frame == npos when a library (Module::to, an optimizer) made the
/// conversion rather than the user's code.
Placement place(ViolationKind kind, bool parameter_involved, const std::vector<Frame>& frames);

/// "Linear" for torch::nn::LinearImpl::forward, "BatchNorm2d" for
/// torch::nn::BatchNormImplBase<2, torch::nn::BatchNorm2dImpl>::forward,
/// "TorchScript module" for torch::jit::Module::forward; "" when the frame is
/// not a LibTorch module's forward (or ModuleHolder's call operator).
std::string libtorch_module_of(const Frame& frame);

/// False for the LibTorch layers without parameters of their own (losses,
/// activations, dropout, pooling, padding, containers): a mismatch inside
/// them is between their inputs, not with the module's device.
bool layer_has_parameters(const std::string& layer);

}  // namespace tensor_run
