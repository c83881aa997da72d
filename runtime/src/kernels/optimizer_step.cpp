// The optimizers' fused per-parameter updates on host memory. SGD's
// momentum update as three in-place ops reads and writes the parameter-sized
// buffers eight times in three parallel regions; here it is one pass in one
// region (ATen's fused SGD, aten/src/ATen/native/cpu/FusedSGDKernel.cpp).
// The arithmetic is op_math.h's, in the order and with the rounding of the
// unfused ops, so the fused step changes speed, never results.
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
  // to the opmath type directly.
  const M momentum = M(convert<T>(o.momentum));
  const M decay = static_cast<M>(o.weight_decay), keep = static_cast<M>(1 - o.dampening);
  const M step = static_cast<M>(-o.lr), nesterov_momentum = static_cast<M>(o.momentum);
  const bool decays = o.weight_decay != 0, keep_is_one = keep == M(1), nesterov = o.nesterov;
  T* p = reinterpret_cast<T*>(param.data());
  const T* g = reinterpret_cast<const T*>(grad.data());
  T* b = reinterpret_cast<T*>(buf.data());
  parallel_for(param.numel, kParallelGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T d = decays ? T(arith_alpha<BinaryOp::Add, M>(M(g[i]), M(p[i]), decay)) : g[i];  // add(d, p, wd)
      const T scaled = T(arith<BinaryOp::Mul, M>(M(b[i]), momentum));                         // buf.mul_(m)
      const T nb = keep_is_one ? T(arith<BinaryOp::Add, M>(M(scaled), M(d)))                  // .add_(d, 1 - damp)
                               : T(arith_alpha<BinaryOp::Add, M>(M(scaled), M(d), keep));
      b[i] = nb;
      const T dir = nesterov ? T(arith_alpha<BinaryOp::Add, M>(M(d), M(nb), nesterov_momentum)) : nb;
      p[i] = T(arith_alpha<BinaryOp::Add, M>(M(p[i]), M(dir), step));  // p.add_(dir, -lr)
    }
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

}  // namespace tt::detail::kernels
