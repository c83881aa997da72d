// The fused SGD and Adam steps on a GPU: one kernel per parameter, where the
// unfused ops launch three (SGD with momentum) or about ten (Adam) and
// allocate Adam's temporaries (ATen's fused optimizers,
// aten/src/ATen/native/cuda/fused_adam_impl.cu and FusedSgdKernel.cu). The
// bodies are the cpu steps' own (optimizer_step_kernels.inc, one element a
// thread in OpmathLanes), so the results are the unfused ops' bit for bit,
// a NaN being the GPU's one canonical NaN as in every GPU kernel: -fmad=false,
// and nvcc's IEEE division and square root by default. A GPU
// computes with subnormal floats at full speed, so the cpu's double lanes
// have no use here.
#include <cstdint>
#include <type_traits>

#include "check.h"
#include "device_context.h"
#include "device_types.cuh"
#include "kernel_table.h"
#include "kernels/optimizer_math.h"

namespace tt::cuda_backend {

namespace {

using detail::TensorImpl;
using detail::kernels::AdamArgs;
using detail::kernels::BinaryOp;
using detail::kernels::OpmathLanes;
using detail::kernels::SgdArgs;

#include "kernels/optimizer_step_kernels.inc"

// Elements [0, n) of kernel K (an SgdKernel or AdamKernel of T), a
// grid-stride loop of one element a thread.
template <class T, class K>
__global__ void step_kernel(K k, int64_t n) {
  const auto c = k.template consts<OpmathLanes<T>>();
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    k.template group<OpmathLanes<T>>(i, c);
}

template <class T, class K>
void launch(const K& k, int64_t n, int dev) {
  if (n == 0) return;
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  step_kernel<T, K><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(k, n);
  TT_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_sgd_step(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& buf,
                     const detail::kernels::SgdStep& o) {
  visit_device_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const SgdArgs<T> a =
          detail::kernels::sgd_args<T>(reinterpret_cast<T*>(param.data()), reinterpret_cast<const T*>(grad.data()),
                                       reinterpret_cast<T*>(buf.data()), o);
      detail::kernels::with_flags(o.weight_decay != 0, o.nesterov, [&]<bool Decays, bool Nesterov>() {
        launch<T>(SgdKernel<T, Decays, Nesterov>{a}, param.numel, param.device().index());
      });
    }
  });
}

void launch_adam_step(const TensorImpl& param, const TensorImpl& grad, const TensorImpl& exp_avg,
                      const TensorImpl& exp_avg_sq, const TensorImpl* max_exp_avg_sq,
                      const detail::kernels::AdamStep& o) {
  visit_device_dtype(param.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const AdamArgs<T> a =
          detail::kernels::adam_args<T>(reinterpret_cast<T*>(param.data()), reinterpret_cast<const T*>(grad.data()),
                                        reinterpret_cast<T*>(exp_avg.data()), reinterpret_cast<T*>(exp_avg_sq.data()),
                                        max_exp_avg_sq ? reinterpret_cast<T*>(max_exp_avg_sq->data()) : nullptr, o);
      detail::kernels::with_flags(o.weight_decay != 0, a.vmax != nullptr, [&]<bool Decays, bool AmsGrad>() {
        launch<T>(AdamKernel<T, Decays, AmsGrad>{a}, param.numel, param.device().index());
      });
    }
  });
}

}  // namespace tt::cuda_backend
