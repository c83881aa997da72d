// Internal: the kernels, each a dispatch stub (dispatch_stub.h) whose cpu
// function lives in this directory and whose cuda function, on a GPU, comes
// from cuda/. Callers (the ops) have already decided devices and dtypes
// through the OpBuilder; kernels trust their arguments: operands share the
// output's shape (broadcast views allowed) and live on one device, except
// that binary and where may read 0-dim cpu scalars beside device operands.
#pragma once

#include <cstdint>
#include <optional>

#include "../tensor_impl.h"
#include "dispatch_stub.h"
#include "tt/scalar.h"

namespace tt::detail::kernels {

// dst = src converted to dst's dtype; same sizes; src may be a broadcast view.
TT_DECLARE_DISPATCH(copy, 0, void(const TensorImpl& dst, const TensorImpl& src));
TT_DECLARE_DISPATCH(fill, 0, void(const TensorImpl& dst, const Scalar& value));

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge };
// out = a op b (Add/Sub: a op alpha*b). a and b have the compute dtype;
// out has it too, or Bool for comparisons.
TT_DECLARE_DISPATCH(binary, 1,
                    void(BinaryOp op, const TensorImpl& out, const TensorImpl& a, const TensorImpl& b,
                         const Scalar& alpha));

enum class UnaryOp { Neg, Abs, Relu, Sigmoid, Tanh, Exp, Log, Sqrt };
// out = op(in), both of one dtype.
TT_DECLARE_DISPATCH(unary, 1, void(UnaryOp op, const TensorImpl& out, const TensorImpl& in));
TT_DECLARE_DISPATCH(clamp, 0,
                    void(const TensorImpl& out, const TensorImpl& in, std::optional<double> lo,
                         std::optional<double> hi));
// out = cond ? x : y; x, y and out share a dtype.
TT_DECLARE_DISPATCH(where, 0,
                    void(const TensorImpl& out, const TensorImpl& cond, const TensorImpl& x, const TensorImpl& y));

enum class ReduceOp { Sum, Mean, Max, Min, ArgMax };
// Reduces a contiguous input viewed as [outer, r, inner] over r into
// contiguous out [outer, inner] (values; any dtype out for Sum) and/or
// indices (int64). Max/Min/ArgMax propagate NaN and keep the first index on ties.
TT_DECLARE_DISPATCH(reduce, 1,
                    void(ReduceOp op, const TensorImpl& in, int64_t outer, int64_t r, int64_t inner,
                         const TensorImpl* out, const TensorImpl* indices));
// Softmax / log-softmax over r of a contiguous [outer, r, inner] input.
TT_DECLARE_DISPATCH(softmax, 1,
                    void(bool log, const TensorImpl& in, const TensorImpl& out, int64_t outer, int64_t r,
                         int64_t inner));

// C[b] = A[b] @ B[b] for contiguous batches of row-major matrices:
// A [batch, m, k], B [batch, k, n], C [batch, m, n], one dtype.
TT_DECLARE_DISPATCH(gemm, 2,
                    void(const TensorImpl& a, const TensorImpl& b, const TensorImpl& c, int64_t batch, int64_t m,
                         int64_t k, int64_t n));

// C = op(A) @ op(B) for 2-D float32/float64 operands on `device` given by
// pointer and leading dimension, op being a transpose when trans_* (BLAS
// semantics, row major): the copy-free path for transposed views
// (x @ W.t() in Linear). C is contiguous [m, n].
TT_DECLARE_DISPATCH(gemm_2d, 0,
                    void(Device device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                         const void* a, int64_t lda, const void* b, int64_t ldb, void* c));

// One SGD-with-momentum update of a parameter in one pass, as ATen's fused
// SGD (aten/src/ATen/native/cpu/FusedSGDKernel.cpp), per element:
//   g = grad + weight_decay * param            (when weight_decay != 0)
//   buf = buf * momentum + (1 - dampening) * g
//   param = param - lr * (nesterov ? g + momentum * buf : buf)
// with the rounding of the unfused in-place ops it replaces (each step
// rounded to the dtype, scalars converted as those ops convert them), so
// results are bit for bit theirs (but which NaN survives where two meet:
// optimizer_step.cpp). param, grad and buf: contiguous, one floating dtype,
// one size, one device; buf's memory apart from the others'.
struct SgdStep {
  double lr = 0, momentum = 0, dampening = 0, weight_decay = 0;
  bool nesterov = false;
};
TT_DECLARE_DISPATCH(sgd_step, 0,
                    void(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf, const SgdStep& o));
// One Adam update of a parameter in one pass, as ATen's fused Adam
// (aten/src/ATen/native/cpu/FusedAdamKernel.cpp), per element:
//   g = grad + weight_decay * param              (when weight_decay != 0)
//   exp_avg = exp_avg * beta1 + (1 - beta1) * g
//   exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * g * g
//   v = amsgrad ? (max_exp_avg_sq = max(max_exp_avg_sq, exp_avg_sq)) : exp_avg_sq
//   param -= lr / (1 - beta1^step) * exp_avg / (sqrt(v) / sqrt(1 - beta2^step) + eps)
// with the rounding of the unfused ops (Adam::step's composite), so results
// are bit for bit theirs (as SGD's). All tensors contiguous, one floating
// dtype, one size, one device, the state's memory apart from the others';
// max_exp_avg_sq given exactly when amsgrad.
struct AdamStep {
  double lr = 0, beta1 = 0, beta2 = 0, eps = 0, weight_decay = 0;
  int64_t step = 1;
};
TT_DECLARE_DISPATCH(adam_step, 0,
                    void(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                         const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq, const AdamStep& o));
// nll_loss over log-probabilities x [N, C] (any strides, a floating dtype)
// and int64 class indices `target` [N], as ATen's nll_loss kernels
// (aten/src/ATen/native/LossNLL.cpp): row n counts with weight
// w_n = weight[target_n] (1 without `weight`, a [C] tensor of x's dtype)
// unless target_n == ignore_index (w_n = 0). `out` gets -w_n * x[n, target_n]
// per row ([N], None) or their sum (0-dim, Sum) or that sum over the total
// weight (0-dim, Mean). Returns the total weight, or nothing written and the
// first target outside [0, C) that is not ignore_index in *bad_target.
enum class LossReduction { None, Mean, Sum };
TT_DECLARE_DISPATCH(nll_loss_forward, 0,
                    double(const TensorImpl& x, const TensorImpl& target, const TensorImpl* weight,
                           int64_t ignore_index, LossReduction reduction, const TensorImpl& out,
                           std::optional<int64_t>* bad_target));
// Its gradient with respect to x: grad_x [N, C] (contiguous, x's dtype) is
// zero but at [n, target_n], where it is -w_n * g_n (None; grad_out [N]),
// -w_n * g (Sum) or -w_n * g / total_weight (Mean; grad_out 0-dim).
TT_DECLARE_DISPATCH(nll_loss_backward, 0,
                    void(const TensorImpl& grad_x, const TensorImpl& grad_out, const TensorImpl& target,
                         const TensorImpl* weight, int64_t ignore_index, LossReduction reduction, double total_weight));
TT_DECLARE_DISPATCH(arange, 0, void(const TensorImpl& out, double start, double step, int64_t istart, int64_t istep));
TT_DECLARE_DISPATCH(uniform, 0, void(const TensorImpl& out));
TT_DECLARE_DISPATCH(normal, 0, void(const TensorImpl& out));
// Seeds the generator of `device`'s kernels (cuda/'s cuRAND; the cpu
// generator serves emulated devices, so its cpu function does nothing).
TT_DECLARE_DISPATCH(seed_device_generator, 0, void(Device device, uint64_t seed));
// torch.manual_seed: seeds the cpu generator and every device's.
void manual_seed(uint64_t seed);

// Contiguous bulk conversions with run-time SIMD dispatch (cast_simd.cpp).
// total_bytes: the whole output's size (n may be one thread's share); large
// outputs are written with streaming stores.
void cast_f32_to_f16(const float* src, uint16_t* dst, int64_t n, int64_t total_bytes);
void cast_f16_to_f32(const uint16_t* src, float* dst, int64_t n, int64_t total_bytes);
void cast_f32_to_bf16(const float* src, uint16_t* dst, int64_t n, int64_t total_bytes);
void cast_bf16_to_f32(const uint16_t* src, float* dst, int64_t n, int64_t total_bytes);
// dst[i] = float(src[i]) / divisor, the float division: the values of
// `t.to(kFloat32).div(divisor)` for a uint8 t (MNIST's pixels / 255).
void cast_u8_to_f32_div(const uint8_t* src, float* dst, int64_t n, float divisor);
// Which implementation the dispatch picked ("avx2+f16c", "portable").
const char* cast_isa();

}  // namespace tt::detail::kernels
