// Internal (device code): tt's dtypes as device types, PyTorch's value
// conversions mirrored from dtype_dispatch.h and tt/half.h bit for bit, and
// the launch helpers every kernel file shares.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "tt/scalar_type.h"

namespace tt::cuda_backend {

/// Storage of float16 / bfloat16 elements on the device: raw bits, as tt::Half
/// (whose constructors are host code).
struct h16 { uint16_t x; };
struct b16 { uint16_t x; };

template <class T> struct DTag { using type = T; };

/// The device type that stores a tt element type: the same type, except the
/// 16-bit floats, whose tt types have host-only constructors.
template <class T> struct DeviceStorage { using type = T; };
template <> struct DeviceStorage<::tt::Half> { using type = h16; };
template <> struct DeviceStorage<::tt::BFloat16> { using type = b16; };

/// f(DTag<T>{}) for the device type of t (host side, like visit_dtype).
template <class F>
decltype(auto) visit_device_dtype(ScalarType t, F&& f) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return f(DTag<typename DeviceStorage<ctype>::type>{});
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: __builtin_unreachable();
  }
}

// --- NaNs. NVIDIA GPUs return one canonical NaN (0x7FFFFFFF) from float
// arithmetic, where x86 (the cpu kernels, F16C) keeps a NaN operand's sign
// and payload and sets its quiet bit. Conversions between float widths
// therefore build NaN results from the bits, as x86 does, so that they stay
// bit-identical to the cpu's (and a NaN keeps its sign).
__device__ __forceinline__ double f32_to_f64(float f) {  // cvtss2sd
  if (f != f) {
    const uint64_t u = __float_as_uint(f);
    return __longlong_as_double(
        static_cast<long long>(((u & 0x80000000u) << 32) | 0x7FF8000000000000ull | ((u & 0x007FFFFFu) << 29)));
  }
  return static_cast<double>(f);
}
__device__ __forceinline__ float f64_to_f32(double d) {  // cvtsd2ss
  if (d != d) {
    const uint64_t u = static_cast<uint64_t>(__double_as_longlong(d));
    return __uint_as_float(static_cast<uint32_t>((u >> 32) & 0x80000000u) | 0x7FC00000u |
                           static_cast<uint32_t>((u >> 29) & 0x007FFFFFu));
  }
  return static_cast<float>(d);
}

// --- 16-bit floats: the portable code of tt/half.h with every float
// operation spelled as a round-to-nearest intrinsic, so no FMA contraction
// can change a bit (the cpu reference rounds each operation).
__device__ __forceinline__ float half_bits_to_float(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  // NaN: the cpu's multiply (and F16C) keeps the payload, quieted; the
  // GPU's multiply below would return its canonical NaN instead.
  if ((h & 0x7FFFu) > 0x7C00u) return __uint_as_float(sign | 0x7FC00000u | ((h & 0x03FFu) << 13));
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = __uint_as_float(0x7800000u);
  const float normalized = __fmul_rn(__uint_as_float((two_w >> 4) + exp_offset), exp_scale);
  const uint32_t magic_mask = 126u << 23;
  const float denormalized = __fsub_rn(__uint_as_float((two_w >> 17) | magic_mask), 0.5f);
  const uint32_t denormalized_cutoff = 1u << 27;
  return __uint_as_float(sign | (two_w < denormalized_cutoff ? __float_as_uint(denormalized) : __float_as_uint(normalized)));
}

__device__ __forceinline__ uint16_t float_to_half_bits(float f) {
  const float scale_to_inf = __uint_as_float(0x77800000u);
  const float scale_to_zero = __uint_as_float(0x08800000u);
  float base = __fmul_rn(__fmul_rn(fabsf(f), scale_to_inf), scale_to_zero);
  const uint32_t w = __float_as_uint(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = __fadd_rn(__uint_as_float((bias >> 1) + 0x07800000u), base);
  const uint32_t bits = __float_as_uint(base);
  const uint32_t nonsign = ((bits >> 13) & 0x00007C00u) + (bits & 0x00000FFFu);
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

// c10::detail::round_to_nearest_even: NaN -> 0x7FC0.
__device__ __forceinline__ uint16_t float_to_bf16_bits(float f) {
  if (f != f) return 0x7FC0;
  uint32_t u = __float_as_uint(f);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
__device__ __forceinline__ float bf16_bits_to_float(uint16_t b) { return __uint_as_float(static_cast<uint32_t>(b) << 16); }

/// The type arithmetic runs in (c10's opmath): float for the 16-bit floats.
template <class T> struct OpMath { using type = T; };
template <> struct OpMath<h16> { using type = float; };
template <> struct OpMath<b16> { using type = float; };
template <class T> using opmath_t = typename OpMath<T>::type;

template <class T> constexpr bool is_16bit_float_v = std::is_same_v<T, h16> || std::is_same_v<T, b16>;
template <class T> constexpr bool is_float_v = is_16bit_float_v<T> || std::is_floating_point_v<T>;

/// An element as its opmath value.
template <class T>
__device__ __forceinline__ opmath_t<T> load_math(T v) {
  if constexpr (std::is_same_v<T, h16>) return half_bits_to_float(v.x);
  else if constexpr (std::is_same_v<T, b16>) return bf16_bits_to_float(v.x);
  else return v;
}

/// static_cast with the cpu's results where a GPU's differ: NaNs between
/// float and double (above); floating values to uint8 through int64, as
/// c10's static_cast_with_inter_type (the GPU's own conversion saturates
/// negatives to 0; x86 and PyTorch wrap them: -1.0 -> 255).
template <class To, class From>
__device__ __forceinline__ To value_cast(From v) {
  if constexpr (std::is_same_v<To, double> && std::is_same_v<From, float>) return f32_to_f64(v);
  else if constexpr (std::is_same_v<To, float> && std::is_same_v<From, double>) return f64_to_f32(v);
  else if constexpr (std::is_same_v<To, uint8_t> && std::is_floating_point_v<From>)
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  else return static_cast<To>(v);
}

/// An opmath value stored as T (16-bit floats round to nearest even).
template <class T, class M>
__device__ __forceinline__ T store_math(M v) {
  if constexpr (std::is_same_v<T, h16>) return h16{float_to_half_bits(value_cast<float>(v))};
  else if constexpr (std::is_same_v<T, b16>) return b16{float_to_bf16_bits(value_cast<float>(v))};
  else return value_cast<T>(v);
}

/// tt::detail::convert on the device: to bool is "!= 0", 16-bit floats go
/// through float, everything else is a value_cast of the opmath value.
template <class To, class From>
__device__ __forceinline__ To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    using M = opmath_t<From>;
    const M m = load_math(v);
    if constexpr (std::is_same_v<To, bool>) return m != M(0);
    else if constexpr (is_16bit_float_v<To>) return store_math<To>(value_cast<float>(m));
    else return value_cast<To>(m);
  }
}

// --- launches -----------------------------------------------------------------

constexpr int kThreads = 256;

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
