// Internal: what the fused optimizer steps compute, shared by the cpu steps
// (src/kernels/optimizer_step.cpp) and cuda/'s (optimizer_step.cu): their
// operands and scalars as the unfused ops take them, and the one-element
// "lanes" that run the bodies of optimizer_step_kernels.inc with op_math.h's
// arithmetic. Host-and-device code, as op_math.h.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/kernels.h"
#include "kernels/op_math.h"
#include "scalar_math.h"

namespace tt::detail::kernels {

/// SGD's operands (param p, gradient g, momentum buffer b: contiguous, one
/// size) and scalars as the unfused ops take them: a C++ number operand
/// (mul_(momentum)) reaches the kernel as a 0-dim tensor of the dtype; an
/// alpha is converted to the opmath type directly. An alpha of 1 needs no
/// plain-add case: 1 * y is y exactly.
template <class T>
struct SgdArgs {
  using M = opmath_t<T>;
  T* p;
  const T* g;
  T* b;
  M momentum, decay, keep, step, nesterov_momentum;
};

template <class T>
SgdArgs<T> sgd_args(T* p, const T* g, T* b, const SgdStep& o) {
  using M = opmath_t<T>;
  return {p,
          g,
          b,
          M(convert<T>(o.momentum)),
          static_cast<M>(o.weight_decay),
          static_cast<M>(1 - o.dampening),
          static_cast<M>(-o.lr),
          static_cast<M>(o.momentum)};
}

/// Adam's operands (vmax: nullptr without amsgrad) and scalars: C++ number
/// operands (mul_(beta), / sqrt(bc2), + eps) as 0-dim tensors of the dtype,
/// alphas in opmath.
template <class T>
struct AdamArgs {
  using M = opmath_t<T>;
  T* p;
  const T* g;
  T *m, *v, *vmax;
  M beta1, beta2, keep1, keep2, root_bc2, eps, decay, step_size;
};

template <class T>
AdamArgs<T> adam_args(T* p, const T* g, T* m, T* v, T* vmax, const AdamStep& o) {
  using M = opmath_t<T>;
  const double bc1 = 1 - std::pow(o.beta1, static_cast<double>(o.step));
  const double bc2 = 1 - std::pow(o.beta2, static_cast<double>(o.step));
  return {p,
          g,
          m,
          v,
          vmax,
          M(convert<T>(o.beta1)),
          M(convert<T>(o.beta2)),
          static_cast<M>(1 - o.beta1),
          static_cast<M>(1 - o.beta2),
          M(convert<T>(std::sqrt(bc2))),
          M(convert<T>(o.eps)),
          static_cast<M>(o.weight_decay),
          static_cast<M>(-o.lr / bc1)};
}

/// f.template operator()<A, B>() with run-time flags a and b as constants:
/// the steps compile one body per (weight decay, Nesterov or amsgrad), so
/// that no loop branches on them.
template <class F>
void with_flags(bool a, bool b, F&& f) {
  if (a)
    b ? f.template operator()<true, true>() : f.template operator()<true, false>();
  else
    b ? f.template operator()<false, true>() : f.template operator()<false, false>();
}

/// The unfused ops' arithmetic (op_math.h) for one element at a time in T's
/// opmath type M, each op's result rounded to T as its output holds it: the
/// lanes every dtype runs in (the cpu vectorises them where it can).
template <class T>
struct OpmathLanes {
  using M = opmath_t<T>;
  using V = M;
  static constexpr int64_t kLanes = 1;
  TT_HOST_DEVICE static V splat(M s) { return s; }
  TT_HOST_DEVICE static V load(const T* x) { return static_cast<M>(*x); }
  TT_HOST_DEVICE static void store(T* x, V v) { *x = T(v); }
  TT_HOST_DEVICE static V as_t(V v) { return static_cast<M>(T(v)); }
  template <BinaryOp Op>
  TT_HOST_DEVICE static V arith(V x, V y) {
    return math::arith<Op, M>(x, y);
  }
  TT_HOST_DEVICE static V sqrt(V x) { return math::unary<UnaryOp::Sqrt, M>(x); }
  TT_HOST_DEVICE static V gt_select(V x, V y) { return math::compare<BinaryOp::Gt, M>(x, y) ? x : y; }  // x > y ? x : y
};

}  // namespace tt::detail::kernels
