// The optimizers' fused per-parameter updates on host memory. SGD's
// momentum update as three in-place ops reads and writes the parameter-sized
// buffers eight times in three parallel regions, Adam's about twenty times in
// ten; here each is one pass in one region (ATen's fused SGD and Adam,
// aten/src/ATen/native/cpu/Fused{SGD,Adam}Kernel.cpp).
// The arithmetic is op_math.h's, in the order and with the rounding of the
// unfused ops, so the fused step changes speed, never results.
#include <cmath>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "kernels/op_math.h"
#include "kernels/parallel.h"
#include "scalar_math.h"

namespace tt::detail::kernels {

namespace {

template <class T>
void sgd_step_typed(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf, const SgdStep& o) {
  using M = opmath_t<T>;
  using math::arith;
  using math::arith_alpha;
  // As the unfused ops see them: a C++ number operand (mul_(momentum))
  // reaches the kernel as a 0-dim tensor of the dtype; an alpha is converted
  // to the opmath type directly. An alpha of 1 needs no plain-add case:
  // 1 * y is y exactly.
  const M momentum = M(convert<T>(o.momentum));
  const M decay = static_cast<M>(o.weight_decay), keep = static_cast<M>(1 - o.dampening);
  const M step = static_cast<M>(-o.lr), nesterov_momentum = static_cast<M>(o.momentum);
  const bool decays = o.weight_decay != 0, nesterov = o.nesterov;
  T* p = reinterpret_cast<T*>(param.data());
  const T* g = reinterpret_cast<const T*>(grad.data());
  T* b = reinterpret_cast<T*>(buf.data());
  parallel_for(param.numel, kParallelGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T d = decays ? T(arith_alpha<BinaryOp::Add, M>(M(g[i]), M(p[i]), decay)) : g[i];  // add(d, p, wd)
      const T scaled = T(arith<BinaryOp::Mul, M>(M(b[i]), momentum));                         // buf.mul_(m)
      const T nb = T(arith_alpha<BinaryOp::Add, M>(M(scaled), M(d), keep));                   // .add_(d, 1 - damp)
      b[i] = nb;
      const T dir = nesterov ? T(arith_alpha<BinaryOp::Add, M>(M(d), M(nb), nesterov_momentum)) : nb;
      p[i] = T(arith_alpha<BinaryOp::Add, M>(M(p[i]), M(dir), step));  // p.add_(dir, -lr)
    }
  });
}

// Adam's scalars as the unfused ops take them: C++ number operands
// (mul_(beta), / sqrt(bc2), + eps) as 0-dim tensors of the dtype, alphas in
// opmath. An alpha of 1 needs no plain-add case: 1 * y is y exactly.
template <class M>
struct AdamScalars {
  M beta1, beta2, keep1, keep2, root_bc2, eps, decay, step_size;
};

// Elements [begin, end): one body per (weight decay, amsgrad), so each loop
// is branch-free and GCC vectorises it.
template <class T, bool Decays, bool AmsGrad>
void adam_range(int64_t begin, int64_t end, T* p, const T* gr, T* m, T* v, T* vmax, const AdamScalars<opmath_t<T>> c) {
  using M = opmath_t<T>;
  using math::arith;
  using math::arith_alpha;
  for (int64_t i = begin; i < end; ++i) {
    T g = gr[i];
    if constexpr (Decays) g = T(arith_alpha<BinaryOp::Add, M>(M(g), M(p[i]), c.decay));  // add(grad, p, wd)
    const T m1 = T(arith_alpha<BinaryOp::Add, M>(M(T(arith<BinaryOp::Mul, M>(M(m[i]), c.beta1))), M(g), c.keep1));
    const T gg = T(arith<BinaryOp::Mul, M>(M(g), M(g)));
    const T v1 = T(arith_alpha<BinaryOp::Add, M>(M(T(arith<BinaryOp::Mul, M>(M(v[i]), c.beta2))), M(gg), c.keep2));
    m[i] = m1;
    v[i] = v1;
    T vv = v1;
    if constexpr (AmsGrad) {  // where(gt(max, v), max, v): a NaN in v wins, as there
      vv = math::compare<BinaryOp::Gt, M>(M(vmax[i]), M(v1)) ? vmax[i] : v1;
      vmax[i] = vv;
    }
    const T root = T(math::unary<UnaryOp::Sqrt, M>(M(vv)));
    const T denom = T(arith<BinaryOp::Add, M>(M(T(arith<BinaryOp::Div, M>(M(root), c.root_bc2))), c.eps));
    const T update = T(arith<BinaryOp::Div, M>(M(m1), M(denom)));
    p[i] = T(arith_alpha<BinaryOp::Add, M>(M(p[i]), M(update), c.step_size));  // p.add_(update, -lr / bc1)
  }
}

template <class T>
void adam_step_typed(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                     const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq, const AdamStep& o) {
  using M = opmath_t<T>;
  const double bc1 = 1 - std::pow(o.beta1, static_cast<double>(o.step));
  const double bc2 = 1 - std::pow(o.beta2, static_cast<double>(o.step));
  const AdamScalars<M> c{M(convert<T>(o.beta1)),         M(convert<T>(o.beta2)),        static_cast<M>(1 - o.beta1),
                         static_cast<M>(1 - o.beta2),    M(convert<T>(std::sqrt(bc2))), M(convert<T>(o.eps)),
                         static_cast<M>(o.weight_decay), static_cast<M>(-o.lr / bc1)};
  T* p = reinterpret_cast<T*>(param.data());
  const T* gr = reinterpret_cast<const T*>(grad.data());
  T* m = reinterpret_cast<T*>(exp_avg.data());
  T* v = reinterpret_cast<T*>(exp_avg_sq.data());
  T* vmax = max_exp_avg_sq ? reinterpret_cast<T*>(max_exp_avg_sq->data()) : nullptr;
  const bool decays = o.weight_decay != 0;
  parallel_for(param.numel, kParallelGrain, [&](int64_t begin, int64_t end) {
    if (decays)
      vmax ? adam_range<T, true, true>(begin, end, p, gr, m, v, vmax, c)
           : adam_range<T, true, false>(begin, end, p, gr, m, v, vmax, c);
    else
      vmax ? adam_range<T, false, true>(begin, end, p, gr, m, v, vmax, c)
           : adam_range<T, false, false>(begin, end, p, gr, m, v, vmax, c);
  });
}

void adam_step_cpu(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                   const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq, const AdamStep& o) {
  visit_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) adam_step_typed<T>(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, o);
  });
}

void sgd_step_cpu(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf, const SgdStep& o) {
  visit_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) sgd_step_typed<T>(param, grad, buf, o);
  });
}

}  // namespace

TT_DEFINE_DISPATCH(sgd_step, sgd_step_cpu);
TT_DEFINE_DISPATCH(adam_step, adam_step_cpu);

}  // namespace tt::detail::kernels
