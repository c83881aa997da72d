// float16/bfloat16 conversion: the SIMD kernels agree bit for bit with the
// portable reference (c10's algorithms) over every input class.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "test_util.h"

using namespace tt;

namespace {
float f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
}  // namespace

TEST(Half, ScalarReferenceKnownValues) {
  EXPECT_EQ(Half(1.0f).x, 0x3C00);
  EXPECT_EQ(Half(-2.0f).x, 0xC000);
  EXPECT_EQ(Half(65504.0f).x, 0x7BFF);
  EXPECT_EQ(Half(65520.0f).x, 0x7C00);            // rounds to inf
  EXPECT_EQ(Half(5.9604645e-8f).x, 0x0001);       // smallest subnormal
  EXPECT_EQ(Half(1.0f + 1.0f / 2048).x, 0x3C00);  // tie to even
  EXPECT_EQ(Half(1.0f + 3.0f / 2048).x, 0x3C02);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(BFloat16(1.0f).x, 0x3F80);
  EXPECT_EQ(BFloat16(f32(0x3F808000)).x, 0x3F80);  // tie to even (down)
  EXPECT_EQ(BFloat16(f32(0x3F818000)).x, 0x3F82);  // tie to even (up)
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::quiet_NaN()).x, 0x7FC0);
  for (uint32_t h = 0; h < 65536; ++h) {
    const Half v = Half::from_bits(static_cast<uint16_t>(h));
    const float f = v;
    if (std::isnan(f)) continue;
    EXPECT_EQ(Half(f).x, h) << "half round trip " << h;
  }
}

// Inputs: every half/bf16 bit pattern widened, plus random and special floats.
std::vector<float> interesting_floats() {
  std::vector<float> v;
  for (uint32_t h = 0; h < 65536; ++h) v.push_back(static_cast<float>(Half::from_bits(static_cast<uint16_t>(h))));
  for (uint32_t b = 0; b < 65536; ++b) v.push_back(f32(b << 16 | (b * 2654435761u >> 16)));
  std::mt19937 rng(1);
  for (int i = 0; i < 100000; ++i) v.push_back(f32(rng()));
  for (float s :
       {0.f, -0.f, 1e-45f, -1e-45f, 65504.f, 65519.f, 65520.f, 1e30f, -1e30f, std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
    v.push_back(s);
  v.push_back(f32(0x7F800001));  // signalling NaN
  v.push_back(f32(0xFFC00001));
  return v;
}

TEST(Half, BulkConversionMatchesScalarReference) {
  const std::vector<float> in = interesting_floats();
  const int64_t n = static_cast<int64_t>(in.size());
  Tensor src = from_blob(const_cast<float*>(in.data()), {n});
  Tensor h = src.to(kHalf);
  Tensor b = src.to(kBFloat16);
  const Half* hp = h.data_ptr<Half>();
  const BFloat16* bp = b.data_ptr<BFloat16>();
  int64_t bad_h = 0, bad_b = 0;
  // NaN payloads may differ (F16C keeps them, c10's scalar code does not,
  // as in PyTorch itself); a NaN must stay a NaN of the same sign.
  auto same_half = [](uint16_t a, uint16_t b) {
    const bool nan_a = (a & 0x7C00) == 0x7C00 && (a & 0x03FF), nan_b = (b & 0x7C00) == 0x7C00 && (b & 0x03FF);
    return a == b || (nan_a && nan_b && (a & 0x8000) == (b & 0x8000));
  };
  for (int64_t i = 0; i < n; ++i) {
    bad_h += !same_half(hp[i].x, Half(in[i]).x);
    bad_b += bp[i].x != BFloat16(in[i]).x;
  }
  EXPECT_EQ(bad_h, 0);
  EXPECT_EQ(bad_b, 0);
  // Back to float32: exact widening.
  Tensor hf = h.to(kFloat);
  Tensor bf = b.to(kFloat);
  const float* hfp = hf.data_ptr<float>();
  const float* bfp = bf.data_ptr<float>();
  int64_t bad_hf = 0, bad_bf = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float eh = hp[i], eb = bp[i];
    bad_hf += std::memcmp(&hfp[i], &eh, 4) != 0;
    bad_bf += std::memcmp(&bfp[i], &eb, 4) != 0;
  }
  EXPECT_EQ(bad_hf, 0);
  EXPECT_EQ(bad_bf, 0);
}

TEST(Half, OddLengthsAndOffsetsUseTheTails) {
  for (int64_t n : {1, 7, 8, 9, 15, 16, 17, 31, 33, 100}) {
    Tensor x = arange(n + 3, kFloat).slice(0, 3);  // unaligned start
    Tensor h = x.half();
    Tensor back = h.to(kFloat);
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(back.data_ptr<float>()[i], static_cast<float>(i + 3));
  }
}

TEST(Half, LargeOutputsTakeTheStreamingPath) {
  // 17M float32 -> float16 writes 34 MB, above the streaming threshold;
  // the slice makes the destination start unaligned.
  const int64_t n = (17 << 20) + 5;
  Tensor x = (arange(n + 1, kFloat).slice(0, 1) * 0.001).contiguous();
  for (ScalarType t : {kHalf, kBFloat16}) {
    Tensor dst = empty({n + 1}, t).slice(0, 1);
    dst.copy_(x);
    Tensor back = empty({n + 1}, kFloat).slice(0, 1);
    back.copy_(dst);
    const float* xs = x.data_ptr<float>();
    const float* bs = back.data_ptr<float>();
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i += 997) {
      const float want = t == kHalf ? static_cast<float>(Half(xs[i])) : static_cast<float>(BFloat16(xs[i]));
      bad += bs[i] != want;
    }
    bad += bs[n - 1] != (t == kHalf ? static_cast<float>(Half(xs[n - 1])) : static_cast<float>(BFloat16(xs[n - 1])));
    EXPECT_EQ(bad, 0) << t;
  }
}
