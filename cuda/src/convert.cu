// Copy with dtype conversion between every pair of dtypes, and fill, on one
// device: the kernels behind to(dtype), contiguous(), copy_() and fill_().
// Conversions are bit-identical to the cpu kernels (device_types.cuh).
#include <algorithm>

#include "check.h"
#include "device_context.h"
#include "device_types.cuh"
#include "kernel_table.h"
#include "launch_utils.h"

namespace tt::cuda_backend {

namespace {

// Contiguous, both pointers aligned to their vector width: one vector load
// and one vector store per V elements, grid-stride; the tail goes scalar.
template <class To, class From>
__global__ void convert_contiguous(To* __restrict__ dst, const From* __restrict__ src, int64_t n) {
  constexpr int V = vec_width<To, From>();
  const int64_t nvec = n / V;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t tid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = tid; i < nvec; i += stride) {
    const Vec<From, V> in = reinterpret_cast<const Vec<From, V>*>(src)[i];
    Vec<To, V> out;
#pragma unroll
    for (int j = 0; j < V; ++j) out.v[j] = convert<To>(in.v[j]);
    reinterpret_cast<Vec<To, V>*>(dst)[i] = out;
  }
  for (int64_t i = nvec * V + tid; i < n; i += stride) dst[i] = convert<To>(src[i]);
}

// Any layout (broadcast sources, transposed views, misaligned offsets).
template <class To, class From>
__global__ void convert_strided(char* dst, const char* src, StridedPlan<2> plan, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[2];
    plan_offsets<2>(plan, i, off);
    *reinterpret_cast<To*>(dst + off[0]) = convert<To>(*reinterpret_cast<const From*>(src + off[1]));
  }
}

template <class T>
__global__ void fill_strided(char* dst, StridedPlan<1> plan, int64_t n, T value) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[1];
    plan_offsets<1>(plan, i, off);
    *reinterpret_cast<T*>(dst + off[0]) = value;
  }
}

template <class T>
__global__ void fill_contiguous(T* __restrict__ dst, int64_t n, T value) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = value;
}

}  // namespace

void launch_copy(const detail::TensorImpl& dst, const detail::TensorImpl& src) {
  const int64_t n = dst.numel;
  if (n == 0) return;
  const int dev = dst.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  const bool contiguous = dst.is_contiguous() && src.is_contiguous() && src.numel == n;
  if (contiguous && dst.dtype == src.dtype) {
    TT_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), static_cast<size_t>(n) * element_size(dst.dtype),
                                  cudaMemcpyDeviceToDevice, ctx.stream));
    return;
  }
  visit_device_dtype(dst.dtype, [&](auto to_tag) {
    visit_device_dtype(src.dtype, [&](auto from_tag) {
      using To = typename decltype(to_tag)::type;
      using From = typename decltype(from_tag)::type;
      constexpr int V = vec_width<To, From>();
      if (contiguous && aligned(dst.data(), sizeof(To) * V) && aligned(src.data(), sizeof(From) * V)) {
        convert_contiguous<To, From><<<grid_for(n / V + 1, dev), kThreads, 0, ctx.stream>>>(
            reinterpret_cast<To*>(dst.data()), reinterpret_cast<const From*>(src.data()), n);
      } else {
        const auto plan = strided_plan<2>(dst.sizes, {&dst, &src});
        convert_strided<To, From><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(dst.data(), src.data(), plan, n);
      }
      TT_CUDA_CHECK_LAUNCH();
    });
  });
}

void launch_fill(const detail::TensorImpl& dst, const Scalar& value) {
  const int64_t n = dst.numel;
  if (n == 0) return;
  const int dev = dst.device().index();
  auto& ctx = context(dev);
  DeviceGuard guard(dev);
  visit_device_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = host_value<T>(value);
    if (dst.is_contiguous()) {
      fill_contiguous<T><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(reinterpret_cast<T*>(dst.data()), n, v);
    } else {
      const auto plan = strided_plan<1>(dst.sizes, {&dst});
      fill_strided<T><<<grid_for(n, dev), kThreads, 0, ctx.stream>>>(dst.data(), plan, n, v);
    }
    TT_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace tt::cuda_backend
