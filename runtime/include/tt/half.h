// 16-bit floating types stored as raw bits. Scalar conversions here are the
// portable reference; bulk conversions use F16C/AVX2 (src/kernels/cast_simd.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <iosfwd>

namespace tt {

namespace detail {
inline uint32_t f32_bits(float f) noexcept { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float f32_from_bits(uint32_t u) noexcept { float f; std::memcpy(&f, &u, 4); return f; }

// IEEE binary16 <-> binary32 with round-to-nearest-even; bit-identical to
// c10::detail::fp16_ieee_{from,to}_fp32_value and to F16C.
inline float half_bits_to_float(uint16_t h) noexcept {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = f32_from_bits(0x7800000u);  // 2^-112
  const float normalized = f32_from_bits((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = 126u << 23;
  const float magic_bias = 0.5f;
  const float denormalized = f32_from_bits((two_w >> 17) | magic_mask) - magic_bias;
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result = sign | (two_w < denormalized_cutoff ? f32_bits(denormalized) : f32_bits(normalized));
  return f32_from_bits(result);
}

inline uint16_t float_to_half_bits(float f) noexcept {
  const float scale_to_inf = f32_from_bits(0x77800000u);   // 2^112
  const float scale_to_zero = f32_from_bits(0x08800000u);  // 2^-110
  float base = (f < 0 ? -f : f) * scale_to_inf * scale_to_zero;
  const uint32_t w = f32_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = f32_from_bits((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = f32_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

// bfloat16: the top half of a float32, rounded to nearest even; NaN -> 0x7FC0
// (c10::detail::round_to_nearest_even).
inline uint16_t float_to_bf16_bits(float f) noexcept {
  if (f != f) return 0x7FC0;
  uint32_t u = f32_bits(f);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
inline float bf16_bits_to_float(uint16_t b) noexcept { return f32_from_bits(static_cast<uint32_t>(b) << 16); }
}  // namespace detail

/// IEEE half precision (tt::kFloat16). Arithmetic goes through float, as in
/// c10::Half.
struct Half {
  uint16_t x = 0;
  Half() = default;
  /* implicit */ Half(float f) noexcept : x(detail::float_to_half_bits(f)) {}
  static Half from_bits(uint16_t b) noexcept { Half h; h.x = b; return h; }
  /* implicit */ operator float() const noexcept { return detail::half_bits_to_float(x); }
};

/// Brain floating point (tt::kBFloat16). Arithmetic goes through float.
struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  /* implicit */ BFloat16(float f) noexcept : x(detail::float_to_bf16_bits(f)) {}
  static BFloat16 from_bits(uint16_t b) noexcept { BFloat16 h; h.x = b; return h; }
  /* implicit */ operator float() const noexcept { return detail::bf16_bits_to_float(x); }
};

std::ostream& operator<<(std::ostream& os, Half h);
std::ostream& operator<<(std::ostream& os, BFloat16 h);

}  // namespace tt
