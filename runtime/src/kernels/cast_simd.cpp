// Bulk float16/bfloat16 <-> float32 conversion: AVX2+F16C when the CPU has
// it (checked once at run time), else the portable scalar code from
// tt/half.h. Both round to nearest even and agree bit for bit with c10.
#include <immintrin.h>

#include <cstdlib>
#include <cstring>

#include "kernels.h"
#include "tt/half.h"

namespace tt::detail::kernels {

namespace {

// --- portable -----------------------------------------------------------------
void f32_to_f16_portable(const float* s, uint16_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = float_to_half_bits(s[i]);
}
void f16_to_f32_portable(const uint16_t* s, float* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = half_bits_to_float(s[i]);
}
void f32_to_bf16_portable(const float* s, uint16_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = float_to_bf16_bits(s[i]);
}
void bf16_to_f32_portable(const uint16_t* s, float* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = bf16_bits_to_float(s[i]);
}

// --- AVX2 + F16C -------------------------------------------------------------
#define TT_AVX2 __attribute__((target("avx2,f16c,fma")))

TT_AVX2 void f32_to_f16_avx2(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
    const __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 8), _MM_FROUND_TO_NEAREST_INT);
    const __m128i c = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 16), _MM_FROUND_TO_NEAREST_INT);
    const __m128i e = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 24), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_set_m128i(b, a));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 16), _mm256_set_m128i(e, c));
  }
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  f32_to_f16_portable(s + i, d + i, n - i);
}

TT_AVX2 void f16_to_f32_avx2(const uint16_t* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 16));
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm256_castsi256_si128(x)));
    _mm256_storeu_ps(d + i + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(x, 1)));
    _mm256_storeu_ps(d + i + 16, _mm256_cvtph_ps(_mm256_castsi256_si128(y)));
    _mm256_storeu_ps(d + i + 24, _mm256_cvtph_ps(_mm256_extracti128_si256(y, 1)));
  }
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  f16_to_f32_portable(s + i, d + i, n - i);
}

// Round to nearest even on the integer bits; NaN becomes 0x7FC0 like c10.
TT_AVX2 inline __m256i bf16_round8(__m256 x) {
  const __m256i u = _mm256_castps_si256(x);
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  const __m256i r = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7FFF))), 16);
  const __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  return _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7FC0), _mm256_castps_si256(nan));
}

TT_AVX2 void f32_to_bf16_avx2(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i a = bf16_round8(_mm256_loadu_ps(s + i));
    const __m256i b = bf16_round8(_mm256_loadu_ps(s + i + 8));
    // packus works per 128-bit lane: [a0..3 b0..3 a4..7 b4..7]; restore order.
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), packed);
  }
  f32_to_bf16_portable(s + i, d + i, n - i);
}

TT_AVX2 void bf16_to_f32_avx2(const uint16_t* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i lo = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)), 16);
    const __m256i hi = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1)), 16);
    _mm256_storeu_ps(d + i, _mm256_castsi256_ps(lo));
    _mm256_storeu_ps(d + i + 8, _mm256_castsi256_ps(hi));
  }
  bf16_to_f32_portable(s + i, d + i, n - i);
}

struct CastTable {
  void (*f32_to_f16)(const float*, uint16_t*, int64_t);
  void (*f16_to_f32)(const uint16_t*, float*, int64_t);
  void (*f32_to_bf16)(const float*, uint16_t*, int64_t);
  void (*bf16_to_f32)(const uint16_t*, float*, int64_t);
  const char* isa;
};

// TT_CPU_DISPATCH=portable forces the fallback (tests compare both paths).
CastTable choose() {
  const char* force = std::getenv("TT_CPU_DISPATCH");
  const bool portable = force && std::strcmp(force, "portable") == 0;
  __builtin_cpu_init();
  if (!portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma"))
    return {f32_to_f16_avx2, f16_to_f32_avx2, f32_to_bf16_avx2, bf16_to_f32_avx2, "avx2+f16c"};
  return {f32_to_f16_portable, f16_to_f32_portable, f32_to_bf16_portable, bf16_to_f32_portable, "portable"};
}

const CastTable& table() {
  static const CastTable t = choose();
  return t;
}

}  // namespace

void cast_f32_to_f16(const float* s, uint16_t* d, int64_t n) { table().f32_to_f16(s, d, n); }
void cast_f16_to_f32(const uint16_t* s, float* d, int64_t n) { table().f16_to_f32(s, d, n); }
void cast_f32_to_bf16(const float* s, uint16_t* d, int64_t n) { table().f32_to_bf16(s, d, n); }
void cast_bf16_to_f32(const uint16_t* s, float* d, int64_t n) { table().bf16_to_f32(s, d, n); }
const char* cast_isa() { return table().isa; }

}  // namespace tt::detail::kernels
