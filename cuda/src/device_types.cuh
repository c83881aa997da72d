// Internal (device code): dispatch on tt's dtypes, the runtime's scalar
// semantics (scalar_math.h) as the kernels use them, and the launch helpers
// every kernel file shares.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "scalar_math.h"
#include "tt/half.h"
#include "tt/scalar_type.h"

namespace tt::cuda_backend {

template <class T>
struct DTag {
  using type = T;
};

/// f(DTag<T>{}) for the C++ type of t (host side, like visit_dtype). The
/// element types are the runtime's own: tt::Half and tt::BFloat16 convert
/// on the device too (tt/half.h is host-and-device code).
template <class F>
decltype(auto) visit_device_dtype(ScalarType t, F&& f) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return f(DTag<ctype>{});
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: __builtin_unreachable();
  }
}

// The scalar semantics (opmath, value_cast, convert, the 16-bit
// conversions) are the cpu kernels' own, from scalar_math.h.
using detail::convert;
using detail::is_16bit_float_v;
using detail::is_float_v;
using detail::opmath_t;
using detail::value_cast;

/// An element as its opmath value.
template <class T>
__device__ __forceinline__ opmath_t<T> load_math(T v) {
  return static_cast<opmath_t<T>>(v);
}

/// An element as its opmath value for an op whose result never carries an
/// input NaN's bits: float16 by the hardware conversion alone. A NaN then
/// becomes the canonical NaN (0x7FFFFFFF) where load_math keeps its payload
/// as the cpu does; the GPU's arithmetic (add, mul, div, comparisons; the
/// double adds of a sum) makes every NaN result that canonical NaN anyway,
/// so the results are the same bits. With the payload's select a float16
/// add kernel ran at 0.93 of memcpy on an H200, with the conversion alone
/// at 1.03 (issue 24). Not for ops that may return an input unchanged
/// (pow(x, 1), neg, max, where, copies).
template <class T>
__device__ __forceinline__ opmath_t<T> load_math_canonical(T v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
  if constexpr (std::is_same_v<T, Half>) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.x));
    return f;
  }
#endif
  return load_math(v);
}

/// An opmath value stored as T (16-bit floats round to nearest even): the
/// runtime's convert, under the name the kernels read it by.
template <class T, class M>
__device__ __forceinline__ T store_math(M v) {
  return convert<T>(v);
}

/// V elements of T in one aligned access: the kernels' 16-byte loads and
/// stores (one instruction where a 2-byte dtype would issue eight).
template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

/// Elements of T in 16 bytes (1 for wider types).
template <class T>
constexpr int vec_of() {
  return sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
}

/// Elements per thread per step of a kernel reading A and writing B:
/// 16-byte accesses on the wider side.
template <class A, class B>
constexpr int vec_width() {
  return vec_of<A>() < vec_of<B>() ? vec_of<A>() : vec_of<B>();
}

// --- launches -----------------------------------------------------------------

constexpr int kThreads = 256;

/// Vectors a thread of a streaming kernel (elementwise, a row's sum) loads
/// before it computes on any of them, so that one step's arithmetic
/// overlaps the next loads. A small gain (a float16 add kernel on an H200:
/// 0.908 -> 0.928 of memcpy, issue 24); the large one was
/// load_math_canonical's.
constexpr int kUnroll = 4;

/// Coalesced strides (bytes) of up to kMaxDims dims for K operands, innermost
/// first: tt::detail::make_plan's output in a form a kernel can take by value.
constexpr int kMaxDims = 10;
template <int K>
struct StridedPlan {
  int ndim = 0;
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims][K];
};

/// Byte offsets of linear element i for each operand.
template <int K>
__device__ __forceinline__ void plan_offsets(const StridedPlan<K>& p, int64_t i, int64_t (&off)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) off[k] = 0;
  for (int d = 0; d < p.ndim; ++d) {
    const int64_t idx = i % p.sizes[d];
    i /= p.sizes[d];
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] += idx * p.strides[d][k];
  }
}

}  // namespace tt::cuda_backend
