// Every CUDA kernel against the cpu kernels. Bounds (docs/runtime.md, "CUDA
// backend"): conversions, add/sub/mul/div, comparisons, neg/abs/relu/sqrt,
// clamp, where, max/min/argmax and fill are bit-exact; exp/log/tanh/
// sigmoid/pow within 4 ulp (float32/float64) or 1 ulp (float16/bfloat16,
// rounded from float32); sums/means/softmax within a relative 1e-5
// (float32) / 1e-12 (float64) / 1e-2 (16-bit): the summation order differs.
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <thread>

#include <tt/cuda/stream.h>

#include "cuda_test_util.h"

using namespace tt;
using tt_cuda_test::all_dtypes;
using tt_cuda_test::bytes_of;
using tt_cuda_test::CudaTest;
using tt_cuda_test::max_ulp;

namespace {

class CudaKernels : public CudaTest {};

bool is_float(ScalarType t) { return t == kHalf || t == kBFloat16 || t == kFloat || t == kDouble; }

// Source values for a conversion from `from` to `to` whose cpu result is
// defined behaviour: float -> integer only in the target's range (C++
// leaves the rest undefined, and x86 and GPUs do differ there); float ->
// float with every special value (NaN, infinities, subnormals, ties).
Tensor conversion_source(ScalarType from, ScalarType to) {
  std::vector<double> v;
  if (is_float(from) && !is_float(to) && to != kBool) {
    const double lo = to == kUInt8 ? 0 : -100, hi = 100;
    for (double x = lo; x <= hi; x += 0.25) v.push_back(x);
  } else {
    for (int i = -300; i <= 300; ++i) v.push_back(i * 0.37);
    for (double x : {0.0, -0.0, 1e-40, -1e-45, 6e-8, 65504.0, 65520.0, 1e39, 3.4e38, 1.00048828125, 1.0009765625,
                     1.00146484375, 257.0, 32767.0, -32769.0, 2147483647.0})
      v.push_back(x);
    if (is_float(from)) {
      v.push_back(std::numeric_limits<double>::quiet_NaN());
      v.push_back(std::numeric_limits<double>::infinity());
      v.push_back(-std::numeric_limits<double>::infinity());
    }
  }
  // Integers: the cpu's own double -> integer conversion (modular), so both
  // sides start from identical bits.
  return tensor(v, kDouble).to(from);
}

TEST_F(CudaKernels, ConversionsBitExactForEveryPair) {
  for (ScalarType from : all_dtypes()) {
    for (ScalarType to : all_dtypes()) {
      SCOPED_TRACE(tt_cuda_test::dt_name(from) + " -> " + tt_cuda_test::dt_name(to));
      Tensor src = conversion_source(from, to);
      EXPECT_EQ(bytes_of(src.cuda().to(to).cpu()), bytes_of(src.to(to)));
      // Strided and broadcast sources take the planned kernel.
      Tensor m = src.narrow(0, 0, (src.numel() / 4) * 4).reshape({4, -1});
      EXPECT_EQ(bytes_of(m.cuda().t().to(to).cpu()), bytes_of(m.t().to(to)));
      Tensor b = m.narrow(0, 0, 1).expand({3, m.size(1)});
      EXPECT_EQ(bytes_of(b.cuda().to(to).cpu()), bytes_of(b.to(to)));
    }
  }
}

TEST_F(CudaKernels, SixteenBitConversionsExhaustive) {
  // Every half and bfloat16 bit pattern to float32, and 2^22 float32 bit
  // patterns (all exponents, random mantissas) to half and bfloat16.
  std::vector<int64_t> all16(65536);
  for (int i = 0; i < 65536; ++i) all16[i] = static_cast<int16_t>(i);
  Tensor bits = tensor(all16, kInt64).to(kInt16);
  for (ScalarType t : {kHalf, kBFloat16}) {
    Tensor h = from_blob(bits.data_ptr(), {65536}, t).clone();
    EXPECT_EQ(bytes_of(h.cuda().to(kFloat).cpu()), bytes_of(h.to(kFloat)));
  }
  Tensor f = empty({1 << 22}, kFloat);
  std::mt19937 gen(7);
  auto* p = static_cast<uint32_t*>(f.data_ptr());
  for (int64_t i = 0; i < f.numel(); ++i) p[i] = gen();
  // Against the scalar reference (tt/half.h, c10's code): the cpu's bulk
  // F16C path keeps NaN payloads in float -> half, the reference (and the
  // GPU) make every NaN 0x7E00 with its sign (test/runtime/test_half.cpp).
  const float* fp = f.data_ptr<float>();
  Tensor h = f.cuda().to(kHalf).cpu(), b = f.cuda().to(kBFloat16).cpu();
  const Half* hp = h.data_ptr<Half>();
  const BFloat16* bp = b.data_ptr<BFloat16>();
  int64_t bad_h = 0, bad_b = 0;
  for (int64_t i = 0; i < f.numel(); ++i) {
    bad_h += hp[i].x != Half(fp[i]).x;
    bad_b += bp[i].x != BFloat16(fp[i]).x;
  }
  EXPECT_EQ(bad_h, 0);
  EXPECT_EQ(bad_b, 0);
}

// NaNs convert as on the cpu (x86): sign and payload kept, quiet bit set.
// The GPU's float arithmetic returns one canonical NaN instead, so these
// catch a conversion that goes through arithmetic.
TEST_F(CudaKernels, NaNConversionsKeepSignAndPayload) {
  std::vector<int64_t> hb;  // every half NaN, both signs
  for (int64_t m = 1; m < 1024; ++m) {
    hb.push_back(0x7C00 | m);
    hb.push_back(static_cast<int16_t>(0xFC00 | m));
  }
  Tensor halves = from_blob(tensor(hb, kInt64).to(kInt16).data_ptr(), {static_cast<int64_t>(hb.size())}, kHalf).clone();
  std::vector<int64_t> fb = {
      0x7FC00000, static_cast<int32_t>(0xFFC00000), 0x7F800001, static_cast<int32_t>(0xFFA12345), 0x7FFFFFFF,
      0x7FBFFFFF, static_cast<int32_t>(0xFF800001)};
  Tensor floats =
      from_blob(tensor(fb, kInt64).to(kInt32).data_ptr(), {static_cast<int64_t>(fb.size())}, kFloat).clone();
  Tensor doubles = empty({4}, kDouble);
  const uint64_t db[4] = {0x7FF8000000000000ull, 0xFFF8000000000001ull, 0x7FF0000000000001ull, 0xFFFFFFFFFFFFFFFFull};
  std::memcpy(doubles.data_ptr(), db, sizeof db);
  for (const Tensor& src : {halves, floats, doubles}) {
    for (ScalarType to : {kFloat, kDouble, kHalf, kBFloat16}) {
      SCOPED_TRACE(tt_cuda_test::dt_name(src.dtype()) + " -> " + tt_cuda_test::dt_name(to));
      if (src.dtype() == kFloat && to == kHalf) {  // the cpu's F16C keeps payloads here; the reference does not
        Tensor g = src.cuda().to(kHalf).cpu();
        for (int64_t i = 0; i < src.numel(); ++i) EXPECT_EQ(g.data_ptr<Half>()[i].x, Half(src.data_ptr<float>()[i]).x);
        continue;
      }
      EXPECT_EQ(bytes_of(src.cuda().to(to).cpu()), bytes_of(src.to(to)));
    }
  }
}

// Float to uint8 wraps negatives through int64 (c10's rule; the cpu's
// result for values in int32 range): -1.5 -> 255. The GPU's own conversion
// would saturate them to 0.
TEST_F(CudaKernels, FloatToUInt8WrapsNegativesLikeTheCpu) {
  std::vector<double> v;
  for (double x = -300; x <= 300; x += 0.25) v.push_back(x);
  for (ScalarType from : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(from));
    Tensor src = tensor(v, kDouble).to(from);
    EXPECT_EQ(bytes_of(src.cuda().to(kUInt8).cpu()), bytes_of(src.to(kUInt8)));
    EXPECT_EQ(src.cuda().to(kUInt8).cpu().data_ptr<uint8_t>()[4 * 299], 255);  // -1.0
  }
}

Tensor operand(ScalarType dt, std::vector<int64_t> sizes, uint32_t seed) {
  manual_seed(seed);
  Tensor r = rand(sizes, kDouble);
  if (dt == kBool) return r.gt(0.5);
  if (is_float(dt)) return (r * 8 - 4).to(dt);
  return (r * 20 - (dt == kUInt8 ? 0 : 10)).to(dt);
}

TEST_F(CudaKernels, BinaryOpsWithBroadcastingAndPromotion) {
  for (ScalarType dt : all_dtypes()) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor a = operand(dt, {37, 1, 5}, 1), b = operand(dt, {1, 64, 5}, 2);
    Tensor ga = a.cuda(), gb = b.cuda();
    // Bit-exact but for NaN bits: integer 0 / 0 (promoted to float32) is
    // the GPU's canonical NaN and x86's 0xFFC00000.
    auto same = [&](const Tensor& gpu, const Tensor& cpu) {
      ASSERT_EQ(gpu.device().type(), kCUDA);
      ASSERT_EQ(gpu.dtype(), cpu.dtype());
      EXPECT_EQ(tt_cuda_test::count_differences(gpu.cpu(), cpu), 0);
    };
    same(ga.eq(gb), a.eq(b));
    same(ga.lt(gb), a.lt(b));
    same(ga.ge(gb), a.ge(b));
    same(ga + gb, a + b);
    same(ga * gb, a * b);
    if (dt != kBool) {
      same(ga - gb, a - b);
      same(add(ga, gb, 3), add(a, b, 3));
      same(ga / gb, a / b);                 // integers promote to float32
      same(ga + 2.5, a + 2.5);              // a C++ scalar
      same(ga * tensor(3), a * tensor(3));  // a 0-dim cpu tensor joins the cuda op
    }
    if (is_float(dt)) {
      EXPECT_LE(max_ulp(pow(ga, gb).cpu(), pow(a, b)), dt == kFloat || dt == kDouble ? 4 : 1);
    }
  }
  // Mixed dtypes promote as on the cpu: uint8 + int8 -> int16, half + bfloat16 -> float.
  Tensor u = operand(kUInt8, {100}, 3), i8 = operand(kInt8, {100}, 4);
  EXPECT_EQ((u.cuda() + i8.cuda()).dtype(), kInt16);
  EXPECT_EQ(bytes_of((u.cuda() + i8.cuda()).cpu()), bytes_of(u + i8));
  Tensor h = operand(kHalf, {100}, 5), bf = operand(kBFloat16, {100}, 6);
  EXPECT_EQ(bytes_of((h.cuda() + bf.cuda()).cpu()), bytes_of(h + bf));
}

TEST_F(CudaKernels, InPlaceOpsAndLargeVectorisedRuns) {
  Tensor a = operand(kFloat, {(1 << 20) + 3}, 8), b = operand(kFloat, {(1 << 20) + 3}, 9);
  Tensor ga = a.cuda();
  ga.add_(b.cuda(), 0.5);
  a.add_(b, 0.5);
  EXPECT_EQ(bytes_of(ga.cpu()), bytes_of(a));
  // An unaligned view (offset 1) takes the scalar path.
  Tensor va = a.narrow(0, 1, 1000), vb = b.narrow(0, 1, 1000);
  EXPECT_EQ(bytes_of((va.cuda() * vb.cuda()).cpu()), bytes_of(va * vb));
  EXPECT_EQ(bytes_of((a.cuda().narrow(0, 1, 1000) * b.cuda().narrow(0, 1, 1000)).cpu()), bytes_of(va * vb));
}

TEST_F(CudaKernels, UnaryOps) {
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = operand(dt, {4096}, 10);
    Tensor g = x.cuda();
    const int64_t bound = dt == kFloat || dt == kDouble ? 4 : 1;
    EXPECT_EQ(bytes_of(neg(g).cpu()), bytes_of(neg(x)));
    EXPECT_EQ(bytes_of(abs(g).cpu()), bytes_of(abs(x)));
    EXPECT_EQ(bytes_of(relu(g).cpu()), bytes_of(relu(x)));
    EXPECT_EQ(bytes_of(sqrt(abs(g)).cpu()), bytes_of(sqrt(abs(x))));
    EXPECT_EQ(bytes_of(clamp(g, -1.0, 2.0).cpu()), bytes_of(clamp(x, -1.0, 2.0)));
    EXPECT_LE(max_ulp(exp(g).cpu(), exp(x)), bound);
    EXPECT_LE(max_ulp(log(abs(g)).cpu(), log(abs(x))), bound);
    EXPECT_LE(max_ulp(tanh(g).cpu(), tanh(x)), bound);
    EXPECT_LE(max_ulp(sigmoid(g).cpu(), sigmoid(x)), bound);
  }
  for (ScalarType dt : {kInt8, kInt32, kInt64, kUInt8}) {
    Tensor x = operand(dt, {999}, 11);
    EXPECT_EQ(bytes_of(abs(x.cuda()).cpu()), bytes_of(abs(x)));
    EXPECT_EQ(bytes_of(relu(x.cuda()).cpu()), bytes_of(relu(x)));
    EXPECT_EQ(bytes_of(exp(x.cuda()).cpu()).size(), bytes_of(exp(x)).size());  // int -> float32
  }
}

TEST_F(CudaKernels, WhereAndFill) {
  Tensor c = operand(kBool, {50, 1}, 12), x = operand(kFloat, {50, 40}, 13), y = operand(kFloat, {1, 40}, 14);
  EXPECT_EQ(bytes_of(where(c.cuda(), x.cuda(), y.cuda()).cpu()), bytes_of(where(c, x, y)));
  for (ScalarType dt : all_dtypes()) {
    Tensor g = zeros({7, 9}, TensorOptions().device(kCUDA).dtype(dt));
    g.t().narrow(0, 2, 3).fill_(1);
    Tensor h = zeros({7, 9}, dt);
    h.t().narrow(0, 2, 3).fill_(1);
    EXPECT_EQ(bytes_of(g.cpu()), bytes_of(h)) << tt_cuda_test::dt_name(dt);
  }
}

double rel_tol(ScalarType t) { return t == kDouble ? 1e-12 : t == kFloat ? 1e-5 : 1e-2; }

void expect_close(const Tensor& gpu, const Tensor& cpu, double tol) {
  Tensor a = gpu.cpu().to(kDouble), b = cpu.to(kDouble);
  const double err = (a - b).abs().max().item<double>();
  const double scale = std::max(1.0, b.abs().max().item<double>());
  EXPECT_LE(err, tol * scale);
}

TEST_F(CudaKernels, Reductions) {
  for (ScalarType dt : all_dtypes()) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = operand(dt, {33, 517, 3}, 15);
    Tensor g = x.cuda();
    // Integer sums are exact (int64); float sums differ in order only.
    if (is_float(dt)) {
      expect_close(g.sum(), x.sum(), rel_tol(dt));
      expect_close(g.sum(1), x.sum(1), rel_tol(dt));
      expect_close(g.mean({0, 2}), x.mean({0, 2}), rel_tol(dt));
      expect_close(g.mean(2, true), x.mean(2, true), rel_tol(dt));
    } else {
      EXPECT_EQ(bytes_of(g.sum().cpu()), bytes_of(x.sum()));
      EXPECT_EQ(bytes_of(g.sum(1).cpu()), bytes_of(x.sum(1)));
    }
    if (dt != kBool) {
      EXPECT_EQ(bytes_of(g.max().cpu()), bytes_of(x.max()));
      EXPECT_EQ(bytes_of(g.min().cpu()), bytes_of(x.min()));
      EXPECT_EQ(bytes_of(std::get<0>(g.max(1)).cpu()), bytes_of(std::get<0>(x.max(1))));
      EXPECT_EQ(bytes_of(std::get<1>(g.max(1)).cpu()), bytes_of(std::get<1>(x.max(1))));
      EXPECT_EQ(bytes_of(g.argmax().cpu()), bytes_of(x.argmax()));
      EXPECT_EQ(bytes_of(g.argmax(2).cpu()), bytes_of(x.argmax(2)));
    }
  }
  // One long row: the all-elements reduction splits over many blocks.
  Tensor big = operand(kFloat, {(1 << 24) + 5}, 16);
  expect_close(big.cuda().sum(), big.sum(), 1e-5);
  EXPECT_EQ(bytes_of(big.cuda().argmax().cpu()), bytes_of(big.argmax()));
  // NaN propagates and wins, as on the cpu.
  Tensor n = tensor({1.0f, std::nanf(""), 3.0f});
  EXPECT_TRUE(std::isnan(n.cuda().max().item<float>()));
  EXPECT_EQ(n.cuda().argmax().item<int64_t>(), 1);
}

// Rows that start anywhere in memory: the row kernels load whole 16-byte
// vectors from the first aligned element and single elements around them,
// so every start offset within a vector, rows shorter than a vector and
// rows split over many blocks must give the cpu's answer.
TEST_F(CudaKernels, RowReductionsFromEveryAlignment) {
  for (ScalarType dt : all_dtypes()) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = operand(dt, {200'017}, 22);
    Tensor g = x.cuda();
    for (int64_t off = 0; off < 16; off += (dt == kBool || dt == kUInt8 || dt == kInt8) ? 1 : 3) {
      SCOPED_TRACE("offset " + std::to_string(off));
      // Three rows from this offset, each starting at another alignment.
      Tensor rows = x.narrow(0, off, 3 * 66'661).reshape({3, 66'661});
      Tensor grows = g.narrow(0, off, 3 * 66'661).reshape({3, 66'661});
      if (is_float(dt))
        expect_close(grows.sum(1), rows.sum(1), rel_tol(dt));
      else
        EXPECT_EQ(bytes_of(grows.sum(1).cpu()), bytes_of(rows.sum(1)));
      if (dt != kBool) EXPECT_EQ(bytes_of(std::get<1>(grows.min(1)).cpu()), bytes_of(std::get<1>(rows.min(1))));
      for (int64_t len : {int64_t{1}, int64_t{5}, int64_t{9}, int64_t{200'000}}) {
        Tensor v = x.narrow(0, off, len), gv = g.narrow(0, off, len);
        if (is_float(dt))
          expect_close(gv.sum(), v.sum(), rel_tol(dt));
        else
          EXPECT_EQ(bytes_of(gv.sum().cpu()), bytes_of(v.sum()));
        if (dt == kBool) continue;
        EXPECT_EQ(bytes_of(gv.max().cpu()), bytes_of(v.max()));
        EXPECT_EQ(bytes_of(gv.argmax().cpu()), bytes_of(v.argmax()));
      }
    }
  }
}

// More rows than a grid's y dimension holds (65535): the row kernels loop.
TEST_F(CudaKernels, ReductionsOverMoreThan65535Rows) {
  for (ScalarType dt : {kFloat, kInt32, kHalf}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = operand(dt, {70001, 7}, 20);
    Tensor g = x.cuda();
    if (is_float(dt)) {
      expect_close(g.sum(1), x.sum(1), rel_tol(dt));
      expect_close(g.mean(-1), x.mean(-1), rel_tol(dt));
    } else {
      EXPECT_EQ(bytes_of(g.sum(1).cpu()), bytes_of(x.sum(1)));
    }
    EXPECT_EQ(bytes_of(std::get<0>(g.max(1)).cpu()), bytes_of(std::get<0>(x.max(1))));
    EXPECT_EQ(bytes_of(std::get<1>(g.max(1)).cpu()), bytes_of(std::get<1>(x.max(1))));
    EXPECT_EQ(bytes_of(std::get<1>(g.min(1)).cpu()), bytes_of(std::get<1>(x.min(1))));
    EXPECT_EQ(bytes_of(g.argmax(1).cpu()), bytes_of(x.argmax(1)));
    // The same over dim 0 of the transpose: 70001 columns (inner > 1).
    EXPECT_EQ(bytes_of(g.t().contiguous().argmax(0).cpu()), bytes_of(x.t().contiguous().argmax(0)));
  }
}

// Rows split over many blocks keep the cpu's rules: the first index on
// ties, the first NaN over any later value.
TEST_F(CudaKernels, LongRowsKeepFirstIndexAndFirstNaN) {
  const int64_t n = (1 << 22) + 3;
  Tensor ones_row = ones({3, n});
  EXPECT_EQ(bytes_of(std::get<1>(ones_row.cuda().max(1)).cpu()), bytes_of(zeros({3}, kLong)));
  EXPECT_EQ(ones_row.cuda().argmax().item<int64_t>(), 0);
  Tensor x = operand(kFloat, {n}, 21);
  x.data_ptr<float>()[3000001] = 7.0f;  // two equal maxima: the first wins
  x.data_ptr<float>()[4000001] = 7.0f;
  EXPECT_EQ(x.cuda().argmax().item<int64_t>(), 3000001);
  x.data_ptr<float>()[2500001] = std::nanf("");
  x.data_ptr<float>()[1500001] = -std::nanf("");
  EXPECT_EQ(x.cuda().argmax().item<int64_t>(), 1500001);
  EXPECT_EQ(bytes_of(std::get<1>(x.reshape({1, n}).cuda().min(1)).cpu()),
            bytes_of(std::get<1>(x.reshape({1, n}).min(1))));
  EXPECT_TRUE(std::isnan(x.cuda().max().item<float>()));
}

// Reductions over a dim that is not the last (inner > 1): blocks of
// outputs side by side, an output's r shared by a block's threads and, for
// few outputs with a long r, split over blocks. Each shape below takes
// another of those paths: r shorter than a block's share, outputs of
// several [outer] slices in one block, a bias gradient's [64, 256], and
// tall columns split over many blocks.
TEST_F(CudaKernels, ColumnReductionsOfEveryShape) {
  struct Shape {
    int64_t outer, r, inner;
  };
  const std::vector<Shape> shapes = {{2, 3, 70}, {4, 16, 37}, {1, 64, 256}, {3, 129, 31}, {3, 4000, 33}, {1, 20011, 5}};
  for (ScalarType dt : all_dtypes()) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    for (const Shape& sh : shapes) {
      SCOPED_TRACE(std::to_string(sh.outer) + "x" + std::to_string(sh.r) + "x" + std::to_string(sh.inner));
      Tensor x = operand(dt, {sh.outer, sh.r, sh.inner}, 23);
      Tensor g = x.cuda();
      if (is_float(dt)) {
        expect_close(g.sum(1), x.sum(1), rel_tol(dt));
        expect_close(g.mean(1), x.mean(1), rel_tol(dt));
      } else {
        EXPECT_EQ(bytes_of(g.sum(1).cpu()), bytes_of(x.sum(1)));
      }
      if (dt == kBool) continue;
      EXPECT_EQ(bytes_of(std::get<0>(g.max(1)).cpu()), bytes_of(std::get<0>(x.max(1))));
      EXPECT_EQ(bytes_of(std::get<1>(g.max(1)).cpu()), bytes_of(std::get<1>(x.max(1))));
      EXPECT_EQ(bytes_of(std::get<1>(g.min(1)).cpu()), bytes_of(std::get<1>(x.min(1))));
      EXPECT_EQ(bytes_of(g.argmax(1).cpu()), bytes_of(x.argmax(1)));
    }
  }
  // Tall columns over many blocks keep the cpu's rules: the first index on
  // ties, the first NaN over any later value.
  const int64_t r = 300'007;
  EXPECT_EQ(bytes_of(ones({r, 3}).cuda().argmax(0).cpu()), bytes_of(zeros({3}, kLong)));
  Tensor x = operand(kFloat, {r, 3}, 24);
  auto* p = x.data_ptr<float>();
  p[200'001 * 3 + 1] = 9.0f;  // two equal maxima in column 1: the first wins
  p[290'001 * 3 + 1] = 9.0f;
  p[250'001 * 3 + 2] = std::nanf("");  // column 2: the earlier NaN wins
  p[100'001 * 3 + 2] = -std::nanf("");
  EXPECT_EQ(bytes_of(x.cuda().argmax(0).cpu()), bytes_of(x.argmax(0)));
  EXPECT_EQ(x.cuda().argmax(0).select(0, 1).item<int64_t>(), 200'001);
  EXPECT_EQ(x.cuda().argmax(0).select(0, 2).item<int64_t>(), 100'001);
  EXPECT_EQ(bytes_of(std::get<1>(x.cuda().min(0)).cpu()), bytes_of(std::get<1>(x.min(0))));
  expect_close(x.cuda().sum(0).narrow(0, 0, 2), x.sum(0).narrow(0, 0, 2), 1e-5);
}

TEST_F(CudaKernels, SoftmaxAndLogSoftmax) {
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = operand(dt, {16, 1000, 3}, 17) * 4;
    for (int64_t d : {0, 1, 2}) {
      expect_close(softmax(x.cuda(), d), softmax(x, d), rel_tol(dt));
      expect_close(log_softmax(x.cuda(), d), log_softmax(x, d), rel_tol(dt));
    }
  }
}

// nll_loss runs the one-hot composite on a GPU and its own kernels on the
// cpu: the two agree in value and gradient, with class weights, an ignored
// row and an underflowed (-inf) log-probability outside the targets.
TEST_F(CudaKernels, NllLossOnTheDeviceMatchesTheCpuKernels) {
  for (ScalarType dt : {kFloat, kDouble}) {
    SCOPED_TRACE(tt_cuda_test::dt_name(dt));
    Tensor x = log_softmax(operand(dt, {33, 7}, 5) * 4, 1);
    std::vector<int64_t> classes(33);
    for (size_t i = 0; i < classes.size(); ++i) classes[i] = static_cast<int64_t>((i * 5 + i / 7) % 7);
    Tensor target = tensor(classes);
    x.select(0, 2).fill_(-std::numeric_limits<double>::infinity());               // row 2 (target 3): -inf there too
    x.select(0, 5).select(0, 0).fill_(-std::numeric_limits<double>::infinity());  // not row 5's target (4)
    target.select(0, 2).fill_(-100);                                              // ... so row 2 is ignored
    Tensor w = arange(1, 8, dt) / 4;
    for (nn::Reduction r : {nn::kMean, nn::kSum, nn::kNone}) {
      Tensor xc = x.clone().requires_grad_(), xg = x.cuda().requires_grad_();
      Tensor lc = nn::functional::nll_loss(xc, target, w, r),
             lg = nn::functional::nll_loss(xg, target.cuda(), w.cuda(), r);
      expect_close(lg.detach(), lc.detach(), rel_tol(dt));
      (r == nn::kNone ? lc.sum() : lc).backward();
      (r == nn::kNone ? lg.sum() : lg).backward();
      expect_close(xg.grad(), xc.grad(), rel_tol(dt));
    }
  }
}

// The fused SGD and Adam steps on the device (optimizer_step.cu) against
// the cpu's fused steps, which the runtime suite holds to the unfused ops
// bit for bit (test_optim.cpp): every option the optimizers fuse, each
// floating dtype, and float state that decays through the subnormal range.
TEST_F(CudaKernels, FusedOptimizerStepsMatchTheCpuBitForBit) {
  const std::vector<std::function<std::unique_ptr<optim::Optimizer>(std::vector<Tensor>)>> optimizers{
      [](std::vector<Tensor> p) { return std::make_unique<optim::SGD>(p, optim::SGDOptions(0.05).momentum(0.9)); },
      [](std::vector<Tensor> p) {
        return std::make_unique<optim::SGD>(p, optim::SGDOptions(0.1).momentum(0.8).dampening(0.3));
      },
      [](std::vector<Tensor> p) {
        return std::make_unique<optim::SGD>(p, optim::SGDOptions(0.01).momentum(0.9).nesterov(true).weight_decay(1e-4));
      },
      [](std::vector<Tensor> p) { return std::make_unique<optim::Adam>(p, optim::AdamOptions(1e-3)); },
      [](std::vector<Tensor> p) {
        return std::make_unique<optim::Adam>(
            p, optim::AdamOptions(0.01).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1).amsgrad(true));
      }};
  manual_seed(21);
  const int64_t n = 70'001;
  // Gradients that stop on most steps, some of them tiny (1e-39: subnormal
  // in float; 1e-20: its square is).
  std::vector<double> scales(n);
  for (int64_t i = 0; i < n; ++i) scales[i] = i % 3 == 0 ? 1e-39 : i % 3 == 1 ? 1e-20 : 1.0;
  const Tensor scale = tensor(scales).to(kFloat);
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    const Tensor start = randn({n}).to(dt);
    std::vector<Tensor> grads;
    for (int s = 0; s < 12; ++s) grads.push_back(s % 4 == 0 ? (randn({n}) * scale).to(dt) : zeros({n}, dt));
    for (size_t o = 0; o < optimizers.size(); ++o) {
      SCOPED_TRACE(tt_cuda_test::dt_name(dt) + " optimizer " + std::to_string(o));
      std::vector<Tensor> result;
      for (Device device : {Device(kCPU), Device(kCUDA)}) {
        Tensor p = start.clone().to(device).requires_grad_();  // to(kCPU) would be start itself
        auto opt = optimizers[o]({p});
        for (const Tensor& g : grads) {
          p.mutable_grad() = g.to(device);
          opt->step();
        }
        result.push_back(p.detach().cpu());
      }
      EXPECT_EQ(tt_cuda_test::count_differences(result[1], result[0]), 0);
    }
  }
}

TEST_F(CudaKernels, ArangeAndRandomNumbers) {
  for (ScalarType dt : {kInt64, kInt32, kFloat, kDouble, kHalf})
    EXPECT_EQ(bytes_of(arange(-5, 300, 3, TensorOptions().device(kCUDA).dtype(dt)).cpu()),
              bytes_of(arange(-5, 300, 3, dt)))
        << tt_cuda_test::dt_name(dt);
  manual_seed(3);
  Tensor u = rand({1 << 20}, kCUDA);
  manual_seed(3);
  Tensor u2 = rand({1 << 20}, kCUDA);
  EXPECT_EQ(bytes_of(u.cpu()), bytes_of(u2.cpu()));  // reproducible from the seed
  EXPECT_GE(u.min().item<float>(), 0.0f);
  EXPECT_LT(u.max().item<float>(), 1.0f);
  EXPECT_NEAR(u.mean().item<double>(), 0.5, 0.01);
  Tensor z = randn({1 << 20}, TensorOptions().device(kCUDA).dtype(kDouble));
  EXPECT_NEAR(z.mean().item<double>(), 0.0, 0.01);
  EXPECT_NEAR((z * z).mean().item<double>(), 1.0, 0.01);
  Tensor h = randn({1001}, TensorOptions().device(kCUDA).dtype(kHalf));  // odd sizes and 16-bit outputs
  EXPECT_EQ(h.numel(), 1001);
}

// Threads share a device's cuRAND generator; each call must take its own
// stretch of the sequence, so no two draws repeat.
TEST_F(CudaKernels, RandFromManyThreadsNeverRepeatsADraw) {
  constexpr int kThreads = 4, kDraws = 50;
  std::vector<std::vector<Tensor>> draws(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&draws, t] {
      for (int i = 0; i < kDraws; ++i) draws[t].push_back(rand({4096}, kCUDA));
    });
  for (auto& th : threads) th.join();
  std::set<std::string> seen;
  for (auto& per_thread : draws)
    for (auto& d : per_thread) {
      const auto b = bytes_of(d.cpu());
      EXPECT_TRUE(seen.emplace(b.begin(), b.end()).second) << "a draw repeated";
    }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kThreads * kDraws));
}

}  // namespace

// A target out of bounds is found by a look at device values, which waits
// for the GPU: the loss does not wait there, and the error comes at the
// host's next wait (ATen's device-side assert in nll_loss surfaces there
// too), with tt's message and the loss's line. Each check runs once.
TEST_F(CudaKernels, LossTargetOutOfBoundsIsReportedAtTheNextWait) {
  Tensor logits = zeros({2, 3}).to(kCUDA);
  Tensor target = tensor({0, 7}).to(kCUDA);
  const int loss_line = __LINE__ + 1;
  Tensor loss = nn::functional::cross_entropy(logits, target);
  try {
    (void)loss.item<double>();
    ADD_FAILURE() << "item() after an out-of-bounds target did not throw";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Target 7 is out of bounds."), std::string::npos) << e.what();
    EXPECT_EQ(e.location().line(), static_cast<unsigned>(loss_line));
  }
  EXPECT_TRUE(std::isfinite(loss.item<double>())) << "the check ran once";

  Tensor negative = nn::functional::cross_entropy(logits, tensor({-2, 1}).to(kCUDA));
  EXPECT_THROW(cuda::synchronize(), ValueError) << "tt::cuda::synchronize() is a wait too";
  cuda::synchronize();

  Tensor fine = nn::functional::cross_entropy(logits, tensor({2, 1}).to(kCUDA));
  EXPECT_NEAR(fine.item<double>(), std::log(3.0), 1e-6);
}
