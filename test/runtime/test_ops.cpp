// Operations: values, broadcasting, reductions, linear algebra, joins.
#include <bit>
#include <cmath>
#include <limits>

#include "test_util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace tt;
using tt_test::values;

class Ops : public tt_test::RuntimeTest {};

TEST_F(Ops, ArithmeticBroadcasts) {
  Tensor a = arange(6, kFloat).view({2, 3});
  Tensor b = tensor({10.0, 20.0, 30.0});
  EXPECT_EQ(values<float>(a + b), std::vector<float>({10, 21, 32, 13, 24, 35}));
  EXPECT_EQ(values<float>(a - b), std::vector<float>({-10, -19, -28, -7, -16, -25}));
  EXPECT_EQ(values<float>(a * tensor({{2.0}, {3.0}})), std::vector<float>({0, 2, 4, 9, 12, 15}));
  EXPECT_EQ(values<float>(a / 2), std::vector<float>({0, 0.5f, 1, 1.5f, 2, 2.5f}));
  EXPECT_EQ(values<float>(add(a, b, 2)), std::vector<float>({20, 41, 62, 23, 44, 65}));
  EXPECT_EQ(values<float>(sub(a, 1, 3)), std::vector<float>({-3, -2, -1, 0, 1, 2}));
  EXPECT_EQ(values<float>(10 - a.select(0, 0)), std::vector<float>({10, 9, 8}));
  EXPECT_EQ(values<float>(12 / tensor({3.0, 4.0})), std::vector<float>({4, 3}));
  EXPECT_EQ(values<float>(2 * tensor({3.0}) + 1), std::vector<float>({7}));
  EXPECT_EQ((a + b).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ((ones({3, 1}) + ones({1, 4})).sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ((ones({2, 1, 5}) * ones({3, 1})).sizes(), IntArrayRef({2, 3, 5}));
  EXPECT_EQ(broadcast_shapes({5, 1, 3}, {4, 1}), std::vector<int64_t>({5, 4, 3}));
  EXPECT_EQ(values<int64_t>(tensor({7, -7}) * 3), std::vector<int64_t>({21, -21}));
  EXPECT_EQ(values<float>(tensor({7, -7}) / 2), std::vector<float>({3.5f, -3.5f}));
}

TEST_F(Ops, MixedDtypeArithmeticComputesInPromotedType) {
  Tensor i = tensor({1, 2}, kInt32);
  Tensor h = tensor({0.5, 0.25}, kHalf);
  Tensor r = i + h;
  EXPECT_EQ(r.dtype(), kHalf);
  EXPECT_EQ(values<float>(r), std::vector<float>({1.5f, 2.25f}));
  Tensor u = tensor({250}, kUInt8) + tensor({-10}, kInt8);
  EXPECT_EQ(u.dtype(), kInt16);
  EXPECT_EQ(values<int32_t>(u), std::vector<int32_t>({240}));
}

TEST_F(Ops, BoolArithmeticAndComparisons) {
  Tensor t = tensor({true, false, true});
  EXPECT_EQ(values<bool>(t + tensor({true, true, false})), std::vector<bool>({true, true, true}));
  EXPECT_EQ(values<bool>(t * tensor({true, true, false})), std::vector<bool>({true, false, false}));
  Tensor x = tensor({1.0, 2.0, 3.0});
  EXPECT_EQ(values<bool>(x > 1.5), std::vector<bool>({false, true, true}));
  EXPECT_EQ(values<bool>(x == tensor({1.0, 0.0, 3.0})), std::vector<bool>({true, false, true}));
  EXPECT_EQ(values<bool>(x != 2), std::vector<bool>({true, false, true}));
  EXPECT_EQ(values<bool>(x <= 2), std::vector<bool>({true, true, false}));
  EXPECT_EQ(values<bool>(x.ge(3)), std::vector<bool>({false, false, true}));
  EXPECT_EQ(values<bool>(tensor({1, 5}).lt(tensor({2.5, 2.5}))), std::vector<bool>({true, false}));
}

TEST_F(Ops, UnaryMath) {
  Tensor x = tensor({-1.0, 0.0, 4.0});
  EXPECT_EQ(values<float>(relu(x)), std::vector<float>({0, 0, 4}));
  EXPECT_EQ(values<float>(-x), std::vector<float>({1, -0.f, -4}));
  EXPECT_EQ(values<float>(x.abs()), std::vector<float>({1, 0, 4}));
  EXPECT_EQ(values<float>(sqrt(tensor({4.0, 9.0}))), std::vector<float>({2, 3}));
  EXPECT_FLOAT_EQ(sigmoid(tensor(0.0)).item<float>(), 0.5f);
  EXPECT_FLOAT_EQ(tanh(tensor(1.0)).item<float>(), std::tanh(1.0f));
  EXPECT_FLOAT_EQ(exp(tensor(1.0)).item<float>(), std::exp(1.0f));
  EXPECT_FLOAT_EQ(log(tensor(2.0)).item<float>(), std::log(2.0f));
  EXPECT_EQ(values<float>(exp(tensor({0, 0}))), std::vector<float>({1, 1}));  // int -> float32
  EXPECT_EQ(values<int64_t>(tensor({-3, 2}).abs()), std::vector<int64_t>({3, 2}));
  EXPECT_EQ(values<float>(pow(tensor({2.0, 3.0}), 2)), std::vector<float>({4, 9}));
  EXPECT_EQ(values<int64_t>(pow(tensor({2, 3}), 3)), std::vector<int64_t>({8, 27}));
  EXPECT_EQ(values<float>(pow(tensor({2.0, 3.0}), tensor({3.0, 0.0}))), std::vector<float>({8, 1}));
  EXPECT_EQ(values<float>(clamp(tensor({-2.0, 0.5, 3.0}), -1, 1)), std::vector<float>({-1, 0.5f, 1}));
  EXPECT_EQ(values<float>(x.clamp(std::nullopt, 0)), std::vector<float>({-1, 0, 0}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(relu(tensor(nan)).item<float>()));
  EXPECT_TRUE(std::isnan(clamp(tensor(nan), 0, 1).item<float>()));
}

TEST_F(Ops, InPlaceOps) {
  Tensor x = ones({2, 3});
  x.add_(tensor({1.0, 2.0, 3.0}));
  EXPECT_EQ(values<float>(x), std::vector<float>({2, 3, 4, 2, 3, 4}));
  x.mul_(2);
  EXPECT_EQ(values<float>(x), std::vector<float>({4, 6, 8, 4, 6, 8}));
  x.sub_(1, 2);
  x.div_(tensor(2.0));
  EXPECT_EQ(values<float>(x), std::vector<float>({1, 2, 3, 1, 2, 3}));
  x += 1;
  x -= ones({3});
  x *= tensor({2.0, 2.0, 2.0});
  x /= 2;
  EXPECT_EQ(values<float>(x), std::vector<float>({1, 2, 3, 1, 2, 3}));
  Tensor i = zeros({2}, kInt64);
  i.add_(tensor({1, 2}, kInt32));  // int32 -> int64: castable
  i.add_(5);
  EXPECT_EQ(values<int64_t>(i), std::vector<int64_t>({6, 7}));
  Tensor h = ones({2}, kHalf);
  h.add_(ones({2}, kFloat64));  // float64 -> float16 is castable (same category)
  EXPECT_EQ(values<float>(h), std::vector<float>({2, 2}));
}

TEST_F(Ops, Reductions) {
  Tensor a = arange(6, kFloat).view({2, 3});
  EXPECT_EQ(a.sum().item<float>(), 15.f);
  EXPECT_EQ(a.sum().dim(), 0);
  EXPECT_EQ(values<float>(a.sum(0)), std::vector<float>({3, 5, 7}));
  EXPECT_EQ(values<float>(a.sum(1)), std::vector<float>({3, 12}));
  EXPECT_EQ(a.sum(1, true).sizes(), IntArrayRef({2, 1}));
  EXPECT_EQ(values<float>(a.sum(-1)), std::vector<float>({3, 12}));
  EXPECT_EQ(a.sum({0, 1}).item<float>(), 15.f);
  EXPECT_EQ(values<float>(a.t().sum(0)), std::vector<float>({3, 12}));  // non-contiguous
  EXPECT_EQ(values<float>(a.mean(0)), std::vector<float>({1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(a.mean().item<float>(), 2.5f);
  EXPECT_EQ(a.max().item<float>(), 5.f);
  EXPECT_EQ(a.min().item<float>(), 0.f);
  auto [values_, indices] = tensor({{1.0, 7.0, 7.0}, {9.0, 2.0, 3.0}}).max(1);
  EXPECT_EQ(values<float>(values_), std::vector<float>({7, 9}));
  EXPECT_EQ(values<int64_t>(indices), std::vector<int64_t>({1, 0}));  // first index on ties
  EXPECT_EQ(indices.dtype(), kInt64);
  auto [mv, mi] = min(tensor({{1.0, 7.0}, {9.0, 2.0}}), 0, true);
  EXPECT_EQ(mv.sizes(), IntArrayRef({1, 2}));
  EXPECT_EQ(values<int64_t>(mi), std::vector<int64_t>({0, 1}));
  EXPECT_EQ(argmax(tensor({{1.0, 7.0}, {9.0, 2.0}})).item<int64_t>(), 2);
  EXPECT_EQ(values<int64_t>(argmax(tensor({{1.0, 7.0}, {9.0, 2.0}}), 1)), std::vector<int64_t>({1, 0}));
  EXPECT_EQ(tensor({3, 4}, kInt32).sum().item<int64_t>(), 7);
  EXPECT_EQ(tensor({true, true, false}).sum().item<int64_t>(), 2);
  EXPECT_EQ(zeros({0}).sum().item<float>(), 0.f);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(tensor({1.0, nan, 3.0}).max().item<float>()));
  EXPECT_EQ(tensor({1.0, nan, 3.0}).argmax().item<int64_t>(), 1);
}

TEST_F(Ops, LargeInputsUseAllThreadsAndStayExact) {
  const int64_t n = (1 << 21) + 17;  // above the parallel grain, odd tail
  Tensor x = ones({n});
  EXPECT_EQ(x.sum().item<double>(), static_cast<double>(n));
  Tensor y = arange(n, kFloat64);
  EXPECT_EQ((y + y).sum().item<double>(), static_cast<double>(n) * (n - 1));
  Tensor h = x.half().to(kFloat32);
  EXPECT_EQ(h.sum().item<double>(), static_cast<double>(n));
  Tensor m = arange(n, kInt64).view({n});
  EXPECT_EQ(m.slice(0, 0, n, 2).sum().item<int64_t>(), [&] {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i += 2) s += i;
    return s;
  }());
}

TEST_F(Ops, Softmax) {
  Tensor x = tensor({{1.0, 2.0, 3.0}, {1.0, 1.0, 1.0}});
  Tensor s = softmax(x, 1);
  auto v = values<float>(s);
  EXPECT_NEAR(v[0] + v[1] + v[2], 1.0, 1e-6);
  EXPECT_NEAR(v[3], 1.0 / 3, 1e-6);
  EXPECT_NEAR(v[2], std::exp(3.0) / (std::exp(1.0) + std::exp(2.0) + std::exp(3.0)), 1e-6);
  auto l = values<float>(log_softmax(x, -1));
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(l[i], std::log(v[i]), 1e-5);
  auto c = values<float>(x.softmax(0));
  EXPECT_NEAR(c[0], 0.5, 1e-6);
  Tensor big = tensor({1000.0, 1000.0});  // stable: subtracts the max
  EXPECT_EQ(values<float>(softmax(big, 0)), std::vector<float>({0.5f, 0.5f}));
  EXPECT_EQ(softmax(x.half(), 1).dtype(), kHalf);
}

TEST_F(Ops, Matmul) {
  Tensor a = arange(6, kFloat).view({2, 3});
  Tensor b = arange(12, kFloat).view({3, 4});
  Tensor c = matmul(a, b);
  EXPECT_EQ(c.sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(values<float>(c), std::vector<float>({20, 23, 26, 29, 56, 68, 80, 92}));
  EXPECT_EQ(values<float>(mm(a, b)), values<float>(c));
  EXPECT_EQ(values<float>(a.t().t().matmul(b)), values<float>(c));
  EXPECT_EQ(values<float>(matmul(b.t().contiguous().t(), tensor({1.0, 1.0, 1.0, 1.0}))),
            values<float>(matmul(b, tensor({1.0, 1.0, 1.0, 1.0}))));
  EXPECT_EQ(matmul(tensor({1.0, 2.0}), tensor({3.0, 4.0})).item<float>(), 11.f);
  EXPECT_EQ(matmul(tensor({1.0, 2.0}), tensor({3.0, 4.0})).dim(), 0);
  EXPECT_EQ(matmul(tensor({1.0, 1.0}), a).sizes(), IntArrayRef({3}));
  EXPECT_EQ(matmul(a, tensor({1.0, 1.0, 1.0})).sizes(), IntArrayRef({2}));
  EXPECT_EQ(matmul(ones({5, 2, 3}), ones({3, 4})).sizes(), IntArrayRef({5, 2, 4}));
  EXPECT_EQ(matmul(ones({5, 1, 2, 3}), ones({4, 3, 4})).sizes(), IntArrayRef({5, 4, 2, 4}));
  EXPECT_EQ(values<double>(matmul(a.to(kDouble), b.to(kDouble))), values<double>(c));
  EXPECT_EQ(values<int64_t>(matmul(a.to(kInt64), b.to(kInt64))), values<int64_t>(c));
  Tensor ch = matmul(a.half(), b.half());
  EXPECT_EQ(ch.dtype(), kHalf);
  EXPECT_EQ(values<float>(ch), values<float>(c));
  EXPECT_EQ(values<float>(matmul(a.bfloat16(), b.bfloat16())), values<float>(c));
  // Tiled float16 path over more rows than one tile.
  Tensor big = ones({600, 8}, kHalf);
  EXPECT_EQ(values<float>(matmul(big, ones({8, 2}, kHalf))), std::vector<float>(1200, 8.f));
}

// Float32 products are threaded three ways by size (runtime/src/kernels/
// gemm.cpp: one thread, tt's blocks of rows or of columns of C, oneDNN's
// own split); each must give the exact product. Small integers keep every
// partial sum exact in float32, so the int64 triple loop is the reference.
TEST_F(Ops, MatmulIsExactOnEveryThreadingPath) {
#ifdef _OPENMP
  const int threads_before = omp_get_max_threads();
  omp_set_num_threads(2);  // the threaded paths, on a one-core machine too
#endif
  struct Shape {
    int64_t m, k, n;
  };
  for (Shape s :
       {Shape{7, 5, 3}, Shape{64, 784, 256}, Shape{784, 64, 256}, Shape{40, 700, 900}, Shape{520, 512, 512}}) {
    SCOPED_TRACE("m=" + std::to_string(s.m) + " k=" + std::to_string(s.k) + " n=" + std::to_string(s.n));
    const auto small_ints = [](int64_t rows, int64_t cols, int64_t mod) {  // -mod/2 .. mod/2, no pattern per row
      std::vector<int64_t> v(static_cast<size_t>(rows * cols));
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 2654435761u) % mod) - mod / 2;
      return from_blob(v.data(), {rows, cols}, kInt64).clone();
    };
    const Tensor a = small_ints(s.m, s.k, 5), b = small_ints(s.k, s.n, 7);
    const std::vector<int64_t> want = values<int64_t>(matmul(a, b));
    const auto exact = [&](const Tensor& c) {
      const std::vector<float> got = values<float>(c);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(static_cast<int64_t>(got[i]), want[i]) << "element " << i;
    };
    const Tensor af = a.to(kFloat), bf = b.to(kFloat);
    exact(matmul(af, bf));
    // Transposed operands, read in place (the backward's products).
    exact(matmul(af.t().contiguous().t(), bf));
    exact(matmul(af, bf.t().contiguous().t()));
  }
#ifdef _OPENMP
  omp_set_num_threads(threads_before);
#endif
}

TEST_F(Ops, CatStackWhere) {
  Tensor a = arange(4, kFloat).view({2, 2});
  Tensor c = cat({a, ones({1, 2})});
  EXPECT_EQ(c.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values<float>(c), std::vector<float>({0, 1, 2, 3, 1, 1}));
  EXPECT_EQ(values<float>(cat({a, a}, 1)), std::vector<float>({0, 1, 0, 1, 2, 3, 2, 3}));
  EXPECT_EQ(cat({a, ones({1, 2}, kDouble)}).dtype(), kDouble);   // promotes
  EXPECT_EQ(cat({zeros({0}), a}).sizes(), IntArrayRef({2, 2}));  // legacy empty skip
  Tensor s = stack({tensor({1.0, 2.0}), tensor({3.0, 4.0})});
  EXPECT_EQ(s.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values<float>(stack({tensor({1.0, 2.0}), tensor({3.0, 4.0})}, 1)), std::vector<float>({1, 3, 2, 4}));
  Tensor w = where(a > 1, a, zeros({1}));
  EXPECT_EQ(values<float>(w), std::vector<float>({0, 0, 2, 3}));
  EXPECT_EQ(where(a > 1, a, ones({2, 2}, kDouble)).dtype(), kDouble);
  EXPECT_EQ(values<float>(where(a > 1, a, -1.0)), std::vector<float>({-1, -1, 2, 3}));
  EXPECT_EQ(where(tensor({true, false}), tensor({1, 2}), 0.5).dtype(), kFloat32);
}

// where() reads its mask as ATen does: a bool byte is true when non-zero,
// in the vectorised contiguous and scalar-branch runs as in the strided one;
// the chosen value's bits are kept (NaN payload, -0.0).
TEST_F(Ops, WhereTakesAnyNonZeroMaskByteAsTrueAndKeepsBits) {
  uint8_t bytes[6] = {0, 1, 2, 0xFF, 0, 0x80};
  Tensor mask = from_blob(bytes, {6}, TensorOptions().dtype(kBool));
  const float nan_payload = std::bit_cast<float>(0x7FC01234u);
  Tensor a = tensor({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, nan_payload});
  Tensor b = tensor({-1.0f, -2.0f, -3.0f, -4.0f, -0.0f, -6.0f});
  const std::vector<float> both = values<float>(where(mask, a, b));
  const std::vector<float> scalar_b = values<float>(where(mask, a, 0.0));
  // Transposed operands take the strided loop: the same answer.
  const std::vector<float> strided =
      values<float>(where(mask.reshape({2, 3}).t(), a.reshape({2, 3}).t(), b.reshape({2, 3}).t()).contiguous());
  const std::vector<float> expected_t = values<float>(where(mask, a, b).reshape({2, 3}).t().contiguous());
  const uint32_t want_bits[6] = {std::bit_cast<uint32_t>(-1.0f), std::bit_cast<uint32_t>(2.0f),
                                 std::bit_cast<uint32_t>(3.0f),  std::bit_cast<uint32_t>(4.0f),
                                 std::bit_cast<uint32_t>(-0.0f), 0x7FC01234u};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(both[i]), want_bits[i]) << i;
    const float want = bytes[i] ? values<float>(a)[i] : 0.0f;
    EXPECT_EQ(std::bit_cast<uint32_t>(scalar_b[i]), std::bit_cast<uint32_t>(want)) << i;
  }
  EXPECT_EQ(std::bit_cast<uint32_t>(scalar_b[5]), 0x7FC01234u);
  ASSERT_EQ(strided.size(), expected_t.size());
  for (size_t i = 0; i < strided.size(); ++i)
    EXPECT_EQ(std::bit_cast<uint32_t>(strided[i]), std::bit_cast<uint32_t>(expected_t[i])) << i;
}
