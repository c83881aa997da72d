// 16-bit floating types stored as raw bits, and the one definition of their
// conversions: the cpu kernels and the CUDA kernels (cuda/, compiled by nvcc
// or on the host through HIP-CPU) both use these functions, as c10::Half's
// are host-and-device code. Bulk cpu conversions use F16C/AVX2
// (src/kernels/cast_simd.cpp) and are tested bit-equal to these.
#pragma once

#include <cstdint>
#include <cstring>
#include <iosfwd>

/// Marks a function for host and device code under nvcc (and HIP); plain
/// host code elsewhere.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define TT_HOST_DEVICE __host__ __device__
#else
#define TT_HOST_DEVICE
#endif

namespace tt {

namespace detail {
TT_HOST_DEVICE inline uint32_t f32_bits(float f) noexcept {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}
TT_HOST_DEVICE inline float f32_from_bits(uint32_t u) noexcept {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

// Single float operations rounded once, never contracted into an FMA (the
// conversions below are exact only so): intrinsics on a GPU, where nvcc
// would otherwise contract; plain operations on the host, where the
// HIP-CPU build compiles with -ffp-contract=off and the runtime targets
// baseline x86-64, which has no FMA to contract into.
TT_HOST_DEVICE inline float mul_rn(float a, float b) noexcept {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
TT_HOST_DEVICE inline float add_rn(float a, float b) noexcept {
#ifdef __CUDA_ARCH__
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}

// IEEE binary16 <-> binary32 with round-to-nearest-even; bit-identical to
// c10::detail::fp16_ieee_{from,to}_fp32_value and to F16C. A NaN keeps its
// sign and payload and is quieted, as x86 (F16C, the multiply below) does;
// it is built from the bits because a GPU's multiply returns one canonical
// NaN instead.
//
// On a GPU (sm_53 and later) every other value goes through the conversion
// instruction, one instruction for the twenty of the bit-level method, which
// made a float16 add compute-bound at 58% of memcpy bandwidth (issue 24):
// float16 -> float32 is exact and float32 -> float16 rounds to nearest even
// in hardware as here, so the results are the same bits.
TT_HOST_DEVICE inline float half_bits_to_float(uint16_t h) noexcept {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t nan = sign | 0x7FC00000u | ((h & 0x03FFu) << 13);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
  // Both, then a select: an early return for NaN compiled to a branch per
  // element, which split the unrolled vector loops of the float16 kernels
  // into blocks (about three times bfloat16's branches in their PTX).
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return (h & 0x7FFFu) > 0x7C00u ? f32_from_bits(nan) : f;
#else
  if ((h & 0x7FFFu) > 0x7C00u) return f32_from_bits(nan);
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = f32_from_bits(0x7800000u);  // 2^-112
  const float normalized = mul_rn(f32_from_bits((two_w >> 4) + exp_offset), exp_scale);
  const uint32_t magic_mask = 126u << 23;
  const float magic_bias = 0.5f;
  const float denormalized = add_rn(f32_from_bits((two_w >> 17) | magic_mask), -magic_bias);
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result = sign | (two_w < denormalized_cutoff ? f32_bits(denormalized) : f32_bits(normalized));
  return f32_from_bits(result);
#endif
}

TT_HOST_DEVICE inline uint16_t float_to_half_bits(float f) noexcept {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
  uint16_t r;  // a select, not a branch, as in half_bits_to_float
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f));
  const auto nan = static_cast<uint16_t>((f32_bits(f) >> 16 & 0x8000u) | 0x7E00u);  // as below: sign, quiet NaN
  return f != f ? nan : r;
#else
  const float scale_to_inf = f32_from_bits(0x77800000u);   // 2^112
  const float scale_to_zero = f32_from_bits(0x08800000u);  // 2^-110
  float base = mul_rn(mul_rn(f32_from_bits(f32_bits(f) & 0x7FFFFFFFu), scale_to_inf), scale_to_zero);
  const uint32_t w = f32_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = add_rn(f32_from_bits((bias >> 1) + 0x07800000u), base);
  const uint32_t bits = f32_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
#endif
}

// bfloat16: the top half of a float32, rounded to nearest even; NaN -> 0x7FC0
// (c10::detail::round_to_nearest_even).
TT_HOST_DEVICE inline uint16_t float_to_bf16_bits(float f) noexcept {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint16_t r;  // the same rounding in one instruction; NaN by a select, as float16's
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
  return f != f ? uint16_t{0x7FC0} : r;
#else
  if (f != f) return 0x7FC0;
  uint32_t u = f32_bits(f);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
#endif
}
TT_HOST_DEVICE inline float bf16_bits_to_float(uint16_t b) noexcept {
  return f32_from_bits(static_cast<uint32_t>(b) << 16);
}
}  // namespace detail

/// IEEE half precision (tt::kFloat16). Arithmetic goes through float, as in
/// c10::Half.
struct Half {
  uint16_t x = 0;
  Half() = default;
  TT_HOST_DEVICE /* implicit */ Half(float f) noexcept : x(detail::float_to_half_bits(f)) {}
  TT_HOST_DEVICE static Half from_bits(uint16_t b) noexcept {
    Half h;
    h.x = b;
    return h;
  }
  TT_HOST_DEVICE /* implicit */ operator float() const noexcept { return detail::half_bits_to_float(x); }
};

/// Brain floating point (tt::kBFloat16). Arithmetic goes through float.
struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  TT_HOST_DEVICE /* implicit */ BFloat16(float f) noexcept : x(detail::float_to_bf16_bits(f)) {}
  TT_HOST_DEVICE static BFloat16 from_bits(uint16_t b) noexcept {
    BFloat16 h;
    h.x = b;
    return h;
  }
  TT_HOST_DEVICE /* implicit */ operator float() const noexcept { return detail::bf16_bits_to_float(x); }
};

std::ostream& operator<<(std::ostream& os, Half h);
std::ostream& operator<<(std::ostream& os, BFloat16 h);

}  // namespace tt
