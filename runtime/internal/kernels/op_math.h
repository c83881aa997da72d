// Internal: what each elementwise op and the min/max reductions compute on
// single values, written once as host-and-device code. The cpu loops
// (runtime/src/kernels) and cuda/'s kernels (elementwise.cu, reduce.cu; nvcc
// or the host through HIP-CPU) call these; they differ only in how they
// launch, vectorise and walk strides. Arithmetic is in the opmath type
// (scalar_math.h) and rounds each operation once (no FMA contraction:
// nvcc's -fmad=false; -ffp-contract=off in the HIP-CPU build; the
// runtime's cpu build targets baseline x86-64, which has no FMA).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "scalar_math.h"

namespace tt::detail::kernels::math {

// The math library in both worlds: CUDA's overloads on the device, <cmath>'s
// on the host.
#ifdef __CUDA_ARCH__
#define TT_MATH(fn) ::fn
#else
#define TT_MATH(fn) std::fn
#endif

template <class M>
TT_HOST_DEVICE inline M int_pow(M base, M exp) {  // exp >= 0 (checked by the op)
  M result = 1;
  while (exp > 0) {
    if (exp & 1) result *= base;
    base *= base;
    exp >>= 1;
  }
  return result;
}

/// x op y for the arithmetic ops (Add, Sub, Mul, Div, Pow) in opmath M.
/// Div runs on floating M only (true division promotes integers).
template <BinaryOp Op, class M>
TT_HOST_DEVICE inline M arith(M x, M y) {
  if constexpr (Op == BinaryOp::Add)
    return M(x + y);
  else if constexpr (Op == BinaryOp::Sub)
    return M(x - y);
  else if constexpr (Op == BinaryOp::Mul)
    return M(x * y);
  else if constexpr (Op == BinaryOp::Div)
    return M(x / y);
  else if constexpr (std::is_floating_point_v<M>)
    return TT_MATH(pow)(x, y);
  else
    return int_pow<M>(x, y);
}

/// Add and Sub with alpha: x + alpha * y, x - alpha * y (each operation
/// rounded once).
template <BinaryOp Op, class M>
TT_HOST_DEVICE inline M arith_alpha(M x, M y, M alpha) {
  static_assert(Op == BinaryOp::Add || Op == BinaryOp::Sub);
  if constexpr (Op == BinaryOp::Add)
    return M(x + alpha * y);
  else
    return M(x - alpha * y);
}

/// The comparisons (Eq ... Ge), false for any comparison with NaN but Ne.
template <BinaryOp Op, class M>
TT_HOST_DEVICE inline bool compare(M x, M y) {
  if constexpr (Op == BinaryOp::Eq)
    return x == y;
  else if constexpr (Op == BinaryOp::Ne)
    return x != y;
  else if constexpr (Op == BinaryOp::Lt)
    return x < y;
  else if constexpr (Op == BinaryOp::Le)
    return x <= y;
  else if constexpr (Op == BinaryOp::Gt)
    return x > y;
  else
    return x >= y;
}

/// bool arithmetic is logical, as PyTorch: Add is or, Mul is and.
template <BinaryOp Op>
TT_HOST_DEVICE inline bool logical(bool x, bool y) {
  static_assert(Op == BinaryOp::Add || Op == BinaryOp::Mul);
  if constexpr (Op == BinaryOp::Add)
    return x || y;
  else
    return x && y;
}

/// Whether op(x) is defined for opmath M: Neg for all but bool; Abs and Relu
/// for all but bool; the transcendental ones for floating M.
template <UnaryOp Op, class M>
constexpr bool unary_defined() {
  if constexpr (std::is_same_v<M, bool>)
    return false;
  else if constexpr (Op == UnaryOp::Neg || Op == UnaryOp::Abs || Op == UnaryOp::Relu)
    return true;
  else
    return std::is_floating_point_v<M>;
}

/// op(x) in opmath M (unary_defined<Op, M>() must hold).
template <UnaryOp Op, class M>
TT_HOST_DEVICE inline M unary(M x) {
  if constexpr (Op == UnaryOp::Neg)
    return M(-x);
  else if constexpr (Op == UnaryOp::Abs) {
    if constexpr (std::is_unsigned_v<M>)
      return x;
    else
      return x < M(0) ? M(-x) : x;
  } else if constexpr (Op == UnaryOp::Relu) {
    if constexpr (std::is_unsigned_v<M>)
      return x;
    else
      return x < M(0) ? M(0) : x;  // NaN stays NaN, as at::relu (clamp_min)
  } else if constexpr (Op == UnaryOp::Sigmoid)
    return M(M(1) / M(M(1) + TT_MATH(exp)(M(-x))));
  else if constexpr (Op == UnaryOp::Tanh)
    return TT_MATH(tanh)(x);
  else if constexpr (Op == UnaryOp::Exp)
    return TT_MATH(exp)(x);
  else if constexpr (Op == UnaryOp::Log)
    return TT_MATH(log)(x);
  else
    return TT_MATH(sqrt)(x);
}

/// clamp(x, lo, hi) with either bound absent: comparisons with NaN are
/// false, so NaN passes through (as at::clamp).
template <class M>
TT_HOST_DEVICE inline M clamp(M x, bool has_lo, M lo, bool has_hi, M hi) {
  if (has_lo && x < lo) x = lo;
  if (has_hi && x > hi) x = hi;
  return x;
}

/// A running min or max with its index: the combine step of max, min and
/// argmax. Associative and commutative, so any split of a row gives the
/// sequential answer: the first NaN, else the best value at its smallest
/// index (as ATen's max/min/argmax kernels).
/// An aggregate without member initialisers, so CUDA may keep it in
/// __shared__ memory; {} or {v, i, true} make one.
template <class M>
struct BestAt {
  M v;
  int64_t i;
  bool valid;
};

template <bool kMax, class M>
TT_HOST_DEVICE inline BestAt<M> combine(const BestAt<M>& a, const BestAt<M>& b) {
  if (!a.valid) return b;
  if (!b.valid) return a;
  if constexpr (std::is_floating_point_v<M>) {
    const bool an = a.v != a.v, bn = b.v != b.v;
    if (an || bn) return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);
  }
  if (a.v == b.v) return a.i < b.i ? a : b;
  return (kMax ? a.v > b.v : a.v < b.v) ? a : b;
}

#undef TT_MATH

}  // namespace tt::detail::kernels::math
