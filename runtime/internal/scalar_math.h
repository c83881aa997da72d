// Internal: the scalar semantics the cpu kernels and the CUDA kernels share,
// written once as host-and-device code (c10 keeps its opmath types and
// value casts so): the type arithmetic runs in, and value conversion with
// PyTorch's results. The 16-bit float conversions themselves are in
// tt/half.h. The cpu loops (src/kernels) and cuda/'s kernels (nvcc, or the
// host through HIP-CPU) include this; only launching and vectorisation
// differ between them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tt/half.h"

namespace tt::detail {

/// The type arithmetic runs in: float for the 16-bit floats (c10's opmath type).
template <class T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <class T>
using opmath_t = typename OpMath<T>::type;

template <class T>
constexpr bool is_16bit_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <class T>
constexpr bool is_float_v = is_16bit_float_v<T> || std::is_floating_point_v<T>;

/// float -> double and back with x86's results (cvtss2sd, cvtsd2ss): a NaN
/// keeps its sign and payload, quieted. A GPU's conversion returns its one
/// canonical NaN, so device code builds the NaN from the bits; host code is
/// x86 already.
TT_HOST_DEVICE inline double f32_to_f64(float f) noexcept {
#ifdef __CUDA_ARCH__
  if (f != f) {
    const uint64_t u = __float_as_uint(f);
    return __longlong_as_double(
        static_cast<long long>(((u & 0x80000000u) << 32) | 0x7FF8000000000000ull | ((u & 0x007FFFFFu) << 29)));
  }
#endif
  return static_cast<double>(f);
}
TT_HOST_DEVICE inline float f64_to_f32(double d) noexcept {
#ifdef __CUDA_ARCH__
  if (d != d) {
    const uint64_t u = static_cast<uint64_t>(__double_as_longlong(d));
    return __uint_as_float(static_cast<uint32_t>((u >> 32) & 0x80000000u) | 0x7FC00000u |
                           static_cast<uint32_t>((u >> 29) & 0x007FFFFFu));
  }
#endif
  return static_cast<float>(d);
}

/// static_cast between arithmetic types with PyTorch's results: floating
/// values reach uint8 through int64, as c10's static_cast_with_inter_type
/// (so -1.0 wraps to 255; a GPU's own conversion saturates it to 0); float
/// and double convert NaNs as x86 does (above).
template <class To, class From>
TT_HOST_DEVICE inline To value_cast(From v) noexcept {
  if constexpr (std::is_same_v<To, double> && std::is_same_v<From, float>)
    return f32_to_f64(v);
  else if constexpr (std::is_same_v<To, float> && std::is_same_v<From, double>)
    return f64_to_f32(v);
  else if constexpr (std::is_same_v<To, uint8_t> && std::is_floating_point_v<From>)
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  else
    return static_cast<To>(v);
}

/// Value conversion with PyTorch's semantics: to bool is "!= 0", 16-bit
/// floats go through float, everything else is a value_cast of the opmath
/// value.
template <class To, class From>
TT_HOST_DEVICE inline To convert(From v) noexcept {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    using M = opmath_t<From>;
    const M m = static_cast<M>(v);
    if constexpr (std::is_same_v<To, bool>)
      return m != M(0);
    else if constexpr (is_16bit_float_v<To>)
      return To(value_cast<float>(m));
    else
      return value_cast<To>(m);
  }
}

}  // namespace tt::detail
