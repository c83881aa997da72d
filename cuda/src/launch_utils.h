// Internal (host side of the .cu files): turning tt's TensorImpls and
// Scalars into what kernels take by value.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "device_types.cuh"
#include "dtype_dispatch.h"
#include "kernels/loops.h"
#include "tensor_impl.h"
#include "tt/errors.h"
#include "tt/scalar.h"

namespace tt::cuda_backend {

/// A Scalar as DT, converted exactly as the cpu fill converts it.
template <class DT>
DT host_value(const Scalar& s) {
  if (s.is_floating_point()) return detail::convert<DT>(s.to_double());
  if (s.is_boolean()) return detail::convert<DT>(s.to_bool());
  return detail::convert<DT>(s.to_long());
}

/// An operand in host memory: the device rule lets a 0-dim cpu tensor join
/// a cuda op, and the op broadcasts it; kernels get its value by argument.
inline bool is_host_operand(const detail::TensorImpl& t) { return t.device().is_cpu(); }

/// The single element of a host broadcast scalar.
template <class DT>
DT host_scalar(const detail::TensorImpl& t) {
  DT v;
  std::memcpy(&v, t.data(), sizeof(DT));
  return v;
}

/// True when every dimension of t that is not 1 has stride 0 (one element
/// broadcast to the whole shape).
inline bool is_broadcast_scalar(const detail::TensorImpl& t) {
  for (size_t i = 0; i < t.sizes.size(); ++i)
    if (t.sizes[i] != 1 && t.strides[i] != 0) return false;
  return true;
}

inline bool aligned(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

/// make_plan (kernels/loops.h) for K operands of `shape`, in kernel form.
/// Host operands are planned with stride 0 (their value goes by argument).
template <int K>
StridedPlan<K> strided_plan(const std::vector<int64_t>& shape, const std::array<const detail::TensorImpl*, K>& ops) {
  const detail::LoopPlan<K> p = detail::make_plan<K>(shape, ops);
  if (p.sizes.size() > static_cast<size_t>(kMaxDims))
    throw Error("cuda kernels support at most " + std::to_string(kMaxDims) + " non-coalescible dimensions",
                detail::kernels::device_call_site());
  StridedPlan<K> sp;
  sp.ndim = static_cast<int>(p.sizes.size());
  for (int d = 0; d < sp.ndim; ++d) {
    sp.sizes[d] = p.sizes[d];
    for (int k = 0; k < K; ++k) sp.strides[d][k] = is_host_operand(*ops[k]) ? 0 : p.strides[d][k];
  }
  return sp;
}

}  // namespace tt::cuda_backend
