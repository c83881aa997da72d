// Internal: the backward formulas (PyTorch's tools/autograd/derivatives.yaml),
// one record_* entry per differentiable core op. Each op calls its entry
// after computing `out`; the entry attaches a node when grad mode is on and
// an input requires grad, and does nothing otherwise.
//
// `inputs` are the tensors the user passed (their grad_fn or leaf gets the
// gradient, converted to their shape, dtype and device by the engine);
// `used` are the same operands after the op's device/dtype repairs in
// TT_VALIDATE=record mode (same tensors otherwise), which the formulas
// compute with so that backward never mixes devices itself.
#pragma once

#include <optional>
#include <vector>

#include "kernels/kernels.h"
#include "tt/scalar.h"
#include "tt/tensor.h"

namespace tt::detail::autograd {

// a op b, or b op a when reversed (rsub, rdiv); b is a tensor (inputs/used
// have two entries) or the C++ scalar `scalar`.
void record_binary(kernels::BinaryOp op, const Tensor& out, const std::vector<Tensor>& inputs,
                   const std::vector<Tensor>& used, const Scalar* scalar, const Scalar& alpha, bool reversed);
void record_unary(kernels::UnaryOp op, const Tensor& out, const Tensor& input, const Tensor& used);
void record_clamp(const Tensor& out, const Tensor& input, const Tensor& used, std::optional<Scalar> lo,
                  std::optional<Scalar> hi);
// matmul and mm (mm is matmul's 2-D case).
void record_matmul(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& a_used, const Tensor& b_used);
// sum/mean over `dims` (empty: all), already wrapped into [0, dim).
void record_sum(const Tensor& out, const Tensor& input, std::vector<int64_t> dims, bool keepdim, bool mean);
void record_softmax(const Tensor& out, const Tensor& input, int64_t dim, bool log);
void record_cat(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim);
void record_where(const Tensor& out, const Tensor& cond, const Tensor& x, const Tensor* y);

// nll_loss through its kernels (nn/functional.cpp's host path): the
// gradient reaches x only; `total_weight` is what the forward returned.
void record_nll_loss(const Tensor& out, const Tensor& x, const Tensor& target, const Tensor& weight,
                     int64_t ignore_index, kernels::LossReduction reduction, double total_weight);

// Views. Shape-only views (view, reshape, squeeze, unsqueeze, flatten)
// reshape the gradient back; expand needs nothing beyond the engine's
// sum-to-shape.
void record_reshape_view(const Tensor& out, const Tensor& input, const char* name);
void record_expand(const Tensor& out, const Tensor& input);
void record_transpose(const Tensor& out, const Tensor& input, int64_t d0, int64_t d1);
void record_permute(const Tensor& out, const Tensor& input, std::vector<int64_t> dims);
// start/end already clamped to the dim, step > 0.
void record_slice(const Tensor& out, const Tensor& input, int64_t dim, int64_t start, int64_t end, int64_t step);
void record_select(const Tensor& out, const Tensor& input, int64_t dim, int64_t index);
// Conversions (to, half, cuda, cpu, contiguous, clone, pin_memory): the
// gradient flows back unchanged and the engine converts it to the source's
// dtype and device.
void record_conversion(const Tensor& out, const Tensor& input, const char* name);

}  // namespace tt::detail::autograd
