// tt::nn::functional: stateless layers and the losses, as
// torch::nn::functional. Every function takes the caller's source location
// and raises the core's errors (devices, dtypes, shapes) there.
#pragma once

#include "tt/tensor.h"

namespace tt::nn {

/// How a loss reduces its per-element values (torch::kMean ...).
enum class Reduction { None, Mean, Sum };
inline constexpr Reduction kNone = Reduction::None;
inline constexpr Reduction kMean = Reduction::Mean;
inline constexpr Reduction kSum = Reduction::Sum;

namespace functional {

/// x W^T + b (b may be undefined). x [*, in], W [out, in], b [out]. Same
/// device and dtype rules as matmul.
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(),
              SourceLoc loc = SourceLoc::current());
/// Dropout with probability p when training (identity otherwise).
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true, SourceLoc loc = SourceLoc::current());

/// mean((input - target)^2) (or sum / none). Shapes broadcast as PyTorch.
Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction reduction = Reduction::Mean,
                SourceLoc loc = SourceLoc::current());

/// Negative log likelihood of log-probabilities input [N, C] (or [C]) at
/// class indices target [N] (or 0-dim), int64 as PyTorch requires
/// (DTypeMismatchError "expected scalar type Long but found Float").
/// weight [C] (optional) scales each class; Mean divides by the summed
/// weights of the counted targets; targets equal to ignore_index are
/// skipped. ValueError "Target 10 is out of bounds." for a class outside
/// [0, C). target must be on input's device (DeviceMismatchError).
Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight = Tensor(),
                Reduction reduction = Reduction::Mean, int64_t ignore_index = -100,
                SourceLoc loc = SourceLoc::current());
/// nll_loss(log_softmax(input, 1), target, ...): logits [N, C], class indices [N].
Tensor cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight = Tensor(),
                     Reduction reduction = Reduction::Mean, int64_t ignore_index = -100,
                     SourceLoc loc = SourceLoc::current());
/// Sigmoid + binary cross entropy in the numerically stable form
/// max(x,0) - x*t + log(1 + exp(-|x|)); weight rescales each element,
/// pos_weight [C] the positive term. target has input's shape
/// (ValueError "Target size ([2]) must be the same as input size ([3])").
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target, const Tensor& weight = Tensor(),
                                        const Tensor& pos_weight = Tensor(), Reduction reduction = Reduction::Mean,
                                        SourceLoc loc = SourceLoc::current());

}  // namespace functional
}  // namespace tt::nn
