// nll_loss's forward and backward on host memory, as ATen's CPU kernels
// (aten/src/ATen/native/LossNLL.cpp): one pass over the rows reading one
// element of each, where the one-hot composite (nn/functional.cpp) runs
// about fifteen ops over [N, C]. The composite stays for device memory.
#include <cstring>

#include "dtype_dispatch.h"
#include "kernels/kernels.h"
#include "scalar_math.h"

namespace tt::detail::kernels {

namespace {

// Strided element access: TensorImpl strides are in elements.
template <class T>
T at(const TensorImpl& t, int64_t i) {
  return reinterpret_cast<const T*>(t.data())[i * t.strides[0]];
}

template <class T>
double forward_typed(const TensorImpl& x, const TensorImpl& target, const TensorImpl* weight, int64_t ignore_index,
                     LossReduction reduction, const TensorImpl& out, std::optional<int64_t>* bad_target) {
  using M = opmath_t<T>;
  const int64_t n = x.sizes[0], classes = x.sizes[1];
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = at<int64_t>(target, i);
    if (c != ignore_index && (c < 0 || c >= classes)) {
      *bad_target = c;
      return 0;
    }
  }
  const T* xs = reinterpret_cast<const T*>(x.data());
  T* o = reinterpret_cast<T*>(out.data());
  M total_weight = 0, sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = at<int64_t>(target, i);
    if (c == ignore_index) {
      if (reduction == LossReduction::None) o[i * out.strides[0]] = T(0);
      continue;
    }
    const M w = weight ? M(at<T>(*weight, c)) : M(1);
    const T loss = T(-M(T(M(xs[i * x.strides[0] + c * x.strides[1]]) * w)));  // -(x * w), each rounded
    if (reduction == LossReduction::None)
      o[i * out.strides[0]] = loss;
    else
      sum += M(loss);
    total_weight += w;
  }
  if (reduction == LossReduction::Sum) *o = T(sum);
  if (reduction == LossReduction::Mean) *o = T(sum / total_weight);  // 0 / 0: NaN, as PyTorch
  return static_cast<double>(total_weight);
}

template <class T>
void backward_typed(const TensorImpl& grad_x, const TensorImpl& grad_out, const TensorImpl& target,
                    const TensorImpl* weight, int64_t ignore_index, LossReduction reduction, double total_weight) {
  using M = opmath_t<T>;
  const int64_t n = grad_x.sizes[0], classes = grad_x.sizes[1];
  T* gx = reinterpret_cast<T*>(grad_x.data());
  std::memset(static_cast<void*>(gx), 0, static_cast<size_t>(n * classes) * sizeof(T));
  const T* go = reinterpret_cast<const T*>(grad_out.data());
  M scale = reduction == LossReduction::None ? M(0) : M(go[0]);
  if (reduction == LossReduction::Mean) scale = M(scale / static_cast<M>(total_weight));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = at<int64_t>(target, i);
    if (c == ignore_index) continue;
    const M g = reduction == LossReduction::None ? M(go[i * grad_out.strides[0]]) : scale;
    const M w = weight ? M(at<T>(*weight, c)) : M(1);
    gx[i * classes + c] = T(-M(g * w));
  }
}

double nll_loss_forward_cpu(const TensorImpl& x, const TensorImpl& target, const TensorImpl* weight,
                            int64_t ignore_index, LossReduction reduction, const TensorImpl& out,
                            std::optional<int64_t>* bad_target) {
  return visit_dtype(x.dtype, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>)
      return forward_typed<T>(x, target, weight, ignore_index, reduction, out, bad_target);
    else
      return 0;  // the op sends floating dtypes only
  });
}

void nll_loss_backward_cpu(const TensorImpl& grad_x, const TensorImpl& grad_out, const TensorImpl& target,
                           const TensorImpl* weight, int64_t ignore_index, LossReduction reduction,
                           double total_weight) {
  visit_dtype(grad_x.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>)
      backward_typed<T>(grad_x, grad_out, target, weight, ignore_index, reduction, total_weight);
  });
}

}  // namespace

TT_DEFINE_DISPATCH(nll_loss_forward, nll_loss_forward_cpu);
TT_DEFINE_DISPATCH(nll_loss_backward, nll_loss_backward_cpu);

}  // namespace tt::detail::kernels
