// Bulk float16/bfloat16 <-> float32 conversion: AVX2+F16C when the CPU has
// it (checked once at run time), float32->bfloat16 with AVX-512BW where
// available, else the portable scalar code from tt/half.h. Every path rounds
// to nearest even and agrees bit for bit with c10.
#include <immintrin.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "environment.h"
#include "kernels/kernels.h"
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
// A plain loop that GCC vectorises (-O3): at 128 bits (the portable build),
// and inlined into the TT_AVX2 function below for 256.
__attribute__((always_inline)) inline void u8_to_f32_div_loop(const uint8_t* s, float* d, int64_t n, float divisor) {
  for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]) / divisor;
}
void u8_to_f32_div_portable(const uint8_t* s, float* d, int64_t n, float divisor) {
  u8_to_f32_div_loop(s, d, n, divisor);
}

// --- AVX2 + F16C -------------------------------------------------------------
#define TT_AVX2 __attribute__((target("avx2,f16c,fma")))

// Outputs larger than this bypass the caches with streaming stores: no
// read-for-ownership of each destination line (what memcpy does for big
// copies), and the caches keep what the next op reads. Below it, normal
// stores leave the result in cache for the next op.
constexpr int64_t kStreamBytes = 32 << 20;

// Stores 32 bytes; streaming needs 32-byte alignment, which the callers
// establish by converting a scalar head first.
template <bool Stream>
TT_AVX2 inline void store256(void* p, __m256i v) {
  if constexpr (Stream)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

template <bool Stream>
TT_AVX2 void f32_to_f16_avx2_impl(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  if constexpr (Stream)
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i) d[i] = float_to_half_bits(s[i]);
  for (; i + 32 <= n; i += 32) {
    const __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
    const __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 8), _MM_FROUND_TO_NEAREST_INT);
    const __m128i c = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 16), _MM_FROUND_TO_NEAREST_INT);
    const __m128i e = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 24), _MM_FROUND_TO_NEAREST_INT);
    store256<Stream>(d + i, _mm256_set_m128i(b, a));
    store256<Stream>(d + i + 16, _mm256_set_m128i(e, c));
  }
  if constexpr (Stream) _mm_sfence();
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  f32_to_f16_portable(s + i, d + i, n - i);
}

template <bool Stream>
TT_AVX2 void f16_to_f32_avx2_impl(const uint16_t* s, float* d, int64_t n) {
  int64_t i = 0;
  if constexpr (Stream)
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i) d[i] = half_bits_to_float(s[i]);
  for (; i + 32 <= n; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 16));
    store256<Stream>(d + i, _mm256_castps_si256(_mm256_cvtph_ps(_mm256_castsi256_si128(x))));
    store256<Stream>(d + i + 8, _mm256_castps_si256(_mm256_cvtph_ps(_mm256_extracti128_si256(x, 1))));
    store256<Stream>(d + i + 16, _mm256_castps_si256(_mm256_cvtph_ps(_mm256_castsi256_si128(y))));
    store256<Stream>(d + i + 24, _mm256_castps_si256(_mm256_cvtph_ps(_mm256_extracti128_si256(y, 1))));
  }
  if constexpr (Stream) _mm_sfence();
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

template <bool Stream>
TT_AVX2 void f32_to_bf16_avx2_impl(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  if constexpr (Stream)
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i) d[i] = float_to_bf16_bits(s[i]);
  for (; i + 16 <= n; i += 16) {
    const __m256i a = bf16_round8(_mm256_loadu_ps(s + i));
    const __m256i b = bf16_round8(_mm256_loadu_ps(s + i + 8));
    // packus works per 128-bit lane: [a0..3 b0..3 a4..7 b4..7]; restore order.
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
    store256<Stream>(d + i, packed);
  }
  if constexpr (Stream) _mm_sfence();
  f32_to_bf16_portable(s + i, d + i, n - i);
}

template <bool Stream>
TT_AVX2 void bf16_to_f32_avx2_impl(const uint16_t* s, float* d, int64_t n) {
  int64_t i = 0;
  if constexpr (Stream)
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i) d[i] = bf16_bits_to_float(s[i]);
  for (; i + 16 <= n; i += 16) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i lo = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)), 16);
    const __m256i hi = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1)), 16);
    store256<Stream>(d + i, lo);
    store256<Stream>(d + i + 8, hi);
  }
  if constexpr (Stream) _mm_sfence();
  bf16_to_f32_portable(s + i, d + i, n - i);
}

// A byte image's pixels to floats (MNIST's batches): the division is the
// bound, so 8 lanes instead of 4 halve it (a 784-pixel row: 8.4 -> 5.0 us a
// batch of 64 at -O3).
TT_AVX2 void u8_to_f32_div_avx2(const uint8_t* s, float* d, int64_t n, float divisor) {
  u8_to_f32_div_loop(s, d, n, divisor);
}

// --- AVX-512 (F + BW) -----------------------------------------------------------
// float32->bfloat16 is integer work (the rounding is done on the bits), and
// at 256 bits it is bound by the shuffles that narrow 32-bit lanes to 16, at
// about half of memory bandwidth. At 512 bits one two-source word permute
// narrows 32 values. VCVTNEPS2BF16 (AVX512_BF16) would do the rounding in
// one instruction, but it flushes denormals to zero where c10 rounds them.
#define TT_AVX512 __attribute__((target("avx2,f16c,fma,avx512f,avx512bw")))

// Rounds 16 floats to nearest even, keeping the result in each lane's high
// half; NaN becomes 0x7FC0 like c10.
TT_AVX512 inline __m512i bf16_round16(__m512 x) {
  const __m512i u = _mm512_castps_si512(x);
  // The all-lanes maskz form: GCC 12's plain _mm512_srli_epi32 passes
  // _mm512_undefined_epi32() and warns -Wmaybe-uninitialized when inlined.
  const __m512i lsb = _mm512_and_si512(_mm512_maskz_srli_epi32(0xFFFF, u, 16), _mm512_set1_epi32(1));
  const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7FFF)));
  return _mm512_mask_mov_epi32(r, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm512_set1_epi32(0x7FC00000));
}

template <bool Stream>
TT_AVX512 void f32_to_bf16_avx512_impl(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  if constexpr (Stream)
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 63) != 0; ++i) d[i] = float_to_bf16_bits(s[i]);
  // The odd 16-bit words of the two inputs, in order: their high halves.
  const __m512i odd_words = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27,
                                             25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  for (; i + 32 <= n; i += 32) {
    // Outputs this large come from inputs far out of cache; the hardware
    // prefetcher alone leaves the single core's reads short of memcpy's
    // (measured: 2 KB ahead takes 64M elements from 62% to 69% of memcpy).
    if constexpr (Stream) _mm_prefetch(reinterpret_cast<const char*>(s + i + 512), _MM_HINT_T0);
    const __m512i a = bf16_round16(_mm512_loadu_ps(s + i));
    const __m512i b = bf16_round16(_mm512_loadu_ps(s + i + 16));
    const __m512i packed = _mm512_permutex2var_epi16(a, odd_words, b);
    if constexpr (Stream)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d + i), packed);
    else
      _mm512_storeu_si512(d + i, packed);
  }
  if constexpr (Stream) _mm_sfence();
  f32_to_bf16_portable(s + i, d + i, n - i);
}

// The table holds one function per direction and instruction set; it picks
// the streaming form when the whole output is large (the caller passes that
// size, since a thread's chunk alone would not tell).
#define TT_SIMD_DISPATCH(TARGET, isa, name, S, D)                              \
  TARGET void name##_##isa(const S* s, D* d, int64_t n, int64_t total_bytes) { \
    if (total_bytes >= kStreamBytes)                                           \
      name##_##isa##_impl<true>(s, d, n);                                      \
    else                                                                       \
      name##_##isa##_impl<false>(s, d, n);                                     \
  }
TT_SIMD_DISPATCH(TT_AVX2, avx2, f32_to_f16, float, uint16_t)
TT_SIMD_DISPATCH(TT_AVX2, avx2, f16_to_f32, uint16_t, float)
TT_SIMD_DISPATCH(TT_AVX2, avx2, f32_to_bf16, float, uint16_t)
TT_SIMD_DISPATCH(TT_AVX2, avx2, bf16_to_f32, uint16_t, float)
TT_SIMD_DISPATCH(TT_AVX512, avx512, f32_to_bf16, float, uint16_t)
#undef TT_SIMD_DISPATCH

template <class S, class D, void (*F)(const S*, D*, int64_t)>
void portable_entry(const S* s, D* d, int64_t n, int64_t) {
  F(s, d, n);
}

struct CastTable {
  void (*f32_to_f16)(const float*, uint16_t*, int64_t, int64_t);
  void (*f16_to_f32)(const uint16_t*, float*, int64_t, int64_t);
  void (*f32_to_bf16)(const float*, uint16_t*, int64_t, int64_t);
  void (*bf16_to_f32)(const uint16_t*, float*, int64_t, int64_t);
  void (*u8_to_f32_div)(const uint8_t*, float*, int64_t, float);
  const char* isa;
};

// TT_CPU_DISPATCH=portable|avx2 caps the instruction set (the tests run the
// conversions on every path this CPU has).
CastTable choose() {
  const std::string force = env_cpu_dispatch();  // validated: "", portable or avx2
  const bool portable = force == "portable";
  const bool cap_avx2 = force == "avx2";
  __builtin_cpu_init();
  if (!portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma")) {
    if (!cap_avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
      return {f32_to_f16_avx2,  f16_to_f32_avx2,    f32_to_bf16_avx512,
              bf16_to_f32_avx2, u8_to_f32_div_avx2, "avx2+f16c+avx512bw"};
    return {f32_to_f16_avx2, f16_to_f32_avx2, f32_to_bf16_avx2, bf16_to_f32_avx2, u8_to_f32_div_avx2, "avx2+f16c"};
  }
  return {portable_entry<float, uint16_t, f32_to_f16_portable>,
          portable_entry<uint16_t, float, f16_to_f32_portable>,
          portable_entry<float, uint16_t, f32_to_bf16_portable>,
          portable_entry<uint16_t, float, bf16_to_f32_portable>,
          u8_to_f32_div_portable,
          "portable"};
}

const CastTable& table() {
  static const CastTable t = choose();
  return t;
}

}  // namespace

void cast_f32_to_f16(const float* s, uint16_t* d, int64_t n, int64_t total_bytes) {
  table().f32_to_f16(s, d, n, total_bytes);
}
void cast_f16_to_f32(const uint16_t* s, float* d, int64_t n, int64_t total_bytes) {
  table().f16_to_f32(s, d, n, total_bytes);
}
void cast_f32_to_bf16(const float* s, uint16_t* d, int64_t n, int64_t total_bytes) {
  table().f32_to_bf16(s, d, n, total_bytes);
}
void cast_bf16_to_f32(const uint16_t* s, float* d, int64_t n, int64_t total_bytes) {
  table().bf16_to_f32(s, d, n, total_bytes);
}
void cast_u8_to_f32_div(const uint8_t* s, float* d, int64_t n, float divisor) {
  table().u8_to_f32_div(s, d, n, divisor);
}
const char* cast_isa() { return table().isa; }

}  // namespace tt::detail::kernels
