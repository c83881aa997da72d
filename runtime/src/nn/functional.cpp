// Stateless layers and losses, written with the core ops so autograd,
// device rules and record mode come for free. nll_loss (and so
// cross_entropy) runs ATen's way, through its own kernels, on host memory;
// elsewhere class indices are selected with a one-hot mask
// (arange(C) == target), which works on every device without a gather
// kernel, at the price of about fifteen small ops a call.
#include "tt/nn/functional.h"

#include "autograd/derivatives.h"
#include "deferred_checks.h"
#include "internal_ops.h"
#include "kernels/kernels.h"
#include "tt/errors.h"
#include "tt/factories.h"
#include "tt/ops.h"

namespace tt::nn::functional {

namespace {

Tensor reduce(const Tensor& v, Reduction r, const SourceLoc& loc) {
  switch (r) {
    case Reduction::None: return v;
    case Reduction::Sum: return v.sum(loc);
    case Reduction::Mean: return v.mean(loc);
  }
  return v;
}

// nll_loss as ATen runs it, through its own kernels (kernels/loss.cpp),
// where x [N, C] is floating, the targets are on its device, that device's
// memory is the host's, and a weight, if any, is x's dtype and [C] and needs
// no gradient. An undefined tensor otherwise: the one-hot composite in
// nll_loss then runs, and raises or records what is wrong as on a GPU.
Tensor nll_loss_kernels(const Tensor& x, const Tensor& t, const Tensor& weight, Reduction reduction,
                        int64_t ignore_index, const SourceLoc& loc) {
  const Device d = x.device(loc);
  const ScalarType dtype = x.dtype(loc);
  if (!is_floating_type(dtype) || t.device(loc) != d || detail::kernels::has_device_kernels(d) ||
      !detail::host_can_read(d))
    return {};
  if (weight.defined() && (weight.device(loc) != d || weight.dtype(loc) != dtype || weight.dim(loc) != 1 ||
                           weight.size(0, loc) != x.size(1, loc) || weight.requires_grad(loc)))
    return {};
  using detail::kernels::LossReduction;
  const LossReduction kind = reduction == Reduction::None  ? LossReduction::None
                             : reduction == Reduction::Sum ? LossReduction::Sum
                                                           : LossReduction::Mean;
  const std::vector<int64_t> sizes =
      kind == LossReduction::None ? std::vector<int64_t>{x.size(0, loc)} : std::vector<int64_t>{};
  Tensor out = detail::make_empty(sizes, dtype, d, loc);
  std::optional<int64_t> bad_target;
  const double total_weight = detail::kernels::nll_loss_forward(
      detail::impl_of(x, loc), detail::impl_of(t, loc), weight.defined() ? &detail::impl_of(weight, loc) : nullptr,
      ignore_index, kind, detail::impl_of(out, loc), &bad_target);
  if (bad_target) throw ValueError("Target " + std::to_string(*bad_target) + " is out of bounds.", loc);
  detail::autograd::record_nll_loss(out, x, t, weight, ignore_index, kind, total_weight);
  return out;
}

std::string sizes_str(const Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

}  // namespace

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias, SourceLoc loc) {
  Tensor y = matmul(input, weight.t(loc), loc);
  return bias.defined() ? add(y, bias, 1, loc) : y;
}

Tensor dropout(const Tensor& input, double p, bool training, SourceLoc loc) {
  if (p < 0 || p > 1)
    throw ValueError("dropout probability has to be between 0 and 1, but got " + std::to_string(p), loc);
  if (!training || p == 0) return input;
  if (p == 1) return mul(input, 0, loc);
  Tensor keep =
      ge(rand(input.sizes(loc), TensorOptions().dtype(input.dtype(loc)).device(input.device(loc)), loc), p, loc);
  return mul(mul(input, keep, loc), 1.0 / (1.0 - p), loc);
}

Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction reduction, SourceLoc loc) {
  Tensor d = sub(input, target, 1, loc);
  return reduce(mul(d, d, loc), reduction, loc);
}

Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight, Reduction reduction,
                int64_t ignore_index, SourceLoc loc) {
  if (input.dim(loc) != 1 && input.dim(loc) != 2)
    throw ValueError("Expected 1 or 2 dimensions for nll_loss input (got " + std::to_string(input.dim(loc)) + ")", loc);
  if (target.dtype(loc) != kLong)
    throw DTypeMismatchError("expected scalar type Long but found " + std::string(to_string(target.dtype(loc))), loc);
  const bool batched = input.dim(loc) == 2;
  const Tensor x = batched ? input : input.unsqueeze(0, loc);
  const Tensor t = batched ? target : target.reshape({1}, loc);
  if (t.dim(loc) != 1 || t.size(0, loc) != x.size(0, loc)) {
    throw ValueError("Expected input batch_size (" + std::to_string(x.size(0, loc)) + ") to match target batch_size (" +
                         std::to_string(t.dim(loc) ? t.size(0, loc) : 0) + ").",
                     loc);
  }
  const int64_t classes = x.size(1, loc);
  if (Tensor out = nll_loss_kernels(x, t, weight, reduction, ignore_index, loc); out.defined())
    return reduction == Reduction::None && !batched ? out.squeeze(0, loc) : out;
  // The targets' bounds, as PyTorch checks them: at once where the host can
  // read the targets; on a GPU when the host next waits for it (ATen's
  // CUDA kernel asserts there), so a training step does not wait here.
  Tensor counted = ne(t, ignore_index, loc);
  if (t.numel(loc) > 0) {
    Tensor bad = where(counted, t, 0, loc);
    auto check = [classes, loc](const std::vector<Tensor>& extremes) {
      for (const Tensor& v : extremes) {
        const int64_t c = v.item<int64_t>(loc);
        if (c < 0 || c >= classes) throw ValueError("Target " + std::to_string(c) + " is out of bounds.", loc);
      }
    };
    std::vector<Tensor> extremes{bad.min(loc), bad.max(loc)};
    if (detail::host_can_read(t.device(loc)))
      check(extremes);
    else
      detail::defer_device_check(std::move(extremes), check, loc);
  }
  Tensor classes_row = arange(classes, TensorOptions().dtype(kLong).device(x.device(loc)), loc);
  Tensor onehot = eq(t.unsqueeze(1, loc), classes_row, loc);  // [N, C] bool; all false for ignored rows
  Tensor w = weight.defined()
                 ? where(onehot, weight.to(x.dtype(loc), false, false, loc), 0, loc)
                 : where(onehot, ones({}, TensorOptions().dtype(x.dtype(loc)).device(x.device(loc)), loc), 0, loc);
  // w_t * x[n, t_n]; x is selected first, so a -inf in another class (an
  // underflowed log-probability) does not make 0 * -inf = NaN.
  Tensor picked = mul(where(onehot, x, 0, loc), w, loc).sum({1}, false, loc);
  Tensor losses = neg(picked, loc);
  if (reduction == Reduction::Mean) return div(losses.sum(loc), w.sum(loc), loc);
  if (reduction == Reduction::None && !batched) return losses.squeeze(0, loc);
  return reduce(losses, reduction, loc);
}

Tensor cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight, Reduction reduction,
                     int64_t ignore_index, SourceLoc loc) {
  return nll_loss(log_softmax(input, input.dim(loc) == 1 ? 0 : 1, loc), target, weight, reduction, ignore_index, loc);
}

Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target, const Tensor& weight,
                                        const Tensor& pos_weight, Reduction reduction, SourceLoc loc) {
  if (input.sizes(loc) != target.sizes(loc))
    throw ValueError(
        "Target size (" + sizes_str(target) + ") must be the same as input size (" + sizes_str(input) + ")", loc);
  // log(1 + exp(-|x|)) + max(-x, 0) = -log(sigmoid(x)), stable for any x.
  Tensor log_sig_neg =
      add(log(add(exp(neg(abs(input, loc), loc), loc), 1, 1, loc), loc), relu(neg(input, loc), loc), 1, loc);
  Tensor losses;
  if (pos_weight.defined()) {
    Tensor lw = add(mul(sub(pos_weight, 1, 1, loc), target, loc), 1, 1, loc);  // 1 + (pw - 1) t
    losses = add(mul(rsub(target, 1, loc), input, loc), mul(lw, log_sig_neg, loc), 1, loc);
  } else {
    losses = add(mul(rsub(target, 1, loc), input, loc), log_sig_neg, 1, loc);
  }
  if (weight.defined()) losses = mul(losses, weight, loc);
  return reduce(losses, reduction, loc);
}

}  // namespace tt::nn::functional
