// Device, ScalarType, promotion and result_type against PyTorch's rules.
#include <sstream>

#include "test_util.h"

using namespace tt;
using tt_test::RuntimeTest;

TEST(Device, ParsesAndPrintsLikeC10) {
  EXPECT_EQ(Device("cpu").str(), "cpu");
  EXPECT_EQ(Device("cuda").str(), "cuda");
  EXPECT_EQ(Device("cuda").index(), -1);
  EXPECT_EQ(Device("cuda:1").index(), 1);
  EXPECT_TRUE(Device("cuda:1").is_cuda());
  EXPECT_TRUE(Device(kCPU).is_cpu());
  EXPECT_EQ(Device(kCUDA, 3).str(), "cuda:3");
  std::ostringstream os;
  os << Device("cuda:0") << " " << Device(kCPU);
  EXPECT_EQ(os.str(), "cuda:0 cpu");
  EXPECT_EQ(Device("cuda:2"), Device(kCUDA, 2));
  EXPECT_NE(Device("cuda:0"), Device(kCUDA));  // index -1 is not index 0
}

TEST(Device, RejectsMalformedStrings) {
  EXPECT_TT_ERROR(Device("cuda:x"), ValueError, "Invalid device string: 'cuda:x'");
  EXPECT_TT_ERROR(Device("cuda:"), ValueError, "Invalid device string: 'cuda:'");
  EXPECT_TT_ERROR(Device("gpu"), ValueError, "Expected one of cpu, cuda device type at start of device string: gpu");
  EXPECT_TT_ERROR(Device(kCPU, 1), ValueError, "CPU device index must be -1 or zero, got 1");
}

TEST(ScalarType, NamesSizesAndAliases) {
  EXPECT_EQ(kHalf, kFloat16);
  EXPECT_EQ(kFloat, kFloat32);
  EXPECT_EQ(kDouble, kFloat64);
  EXPECT_EQ(kInt, kInt32);
  EXPECT_EQ(kLong, kInt64);
  EXPECT_EQ(to_string(kHalf), "Half");
  EXPECT_EQ(to_string(kBFloat16), "BFloat16");
  EXPECT_EQ(to_string(kUInt8), "Byte");
  EXPECT_EQ(python_name(kFloat32), "float32");
  EXPECT_EQ(element_size(kBFloat16), 2u);
  EXPECT_EQ(element_size(kInt64), 8u);
  EXPECT_EQ(element_size(kBool), 1u);
}

// c10's promoteTypes lookup table, restricted to tt's dtypes.
TEST(ScalarType, PromotionTableMatchesC10) {
  const ScalarType order[] = {kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kFloat32, kFloat64, kBool, kBFloat16};
  constexpr auto u1 = kUInt8, i1 = kInt8, i2 = kInt16, i4 = kInt32, i8 = kInt64, f2 = kHalf, f4 = kFloat, f8 = kDouble,
                 b1 = kBool, bf = kBFloat16;
  const ScalarType table[10][10] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(promote_types(order[i], order[j]), table[i][j]) << order[i] << " + " << order[j];
}

TEST(ScalarType, CanCastForbidsNarrowingCategories) {
  EXPECT_TRUE(can_cast(kInt64, kFloat32));
  EXPECT_TRUE(can_cast(kFloat64, kFloat16));
  EXPECT_TRUE(can_cast(kBool, kInt8));
  EXPECT_FALSE(can_cast(kFloat32, kInt64));
  EXPECT_FALSE(can_cast(kInt32, kBool));
  EXPECT_FALSE(can_cast(kFloat32, kBool));
}

class ResultType : public RuntimeTest {};

TEST_F(ResultType, DimTensorsPromote) {
  EXPECT_EQ(result_type(ones({2}, kInt32), ones({2}, kInt64)), kInt64);
  EXPECT_EQ(result_type(ones({2}, kHalf), ones({2}, kBFloat16)), kFloat32);
  EXPECT_EQ(result_type(ones({2}, kUInt8), ones({2}, kInt8)), kInt16);
  EXPECT_EQ(result_type(ones({2}, kFloat16), ones({2}, kFloat64)), kFloat64);
}

TEST_F(ResultType, ZeroDimTensorOfSameCategoryDoesNotPromote) {
  // torch.result_type(torch.ones(2, dtype=torch.half), torch.tensor(1., dtype=torch.double)) == torch.half
  EXPECT_EQ(result_type(ones({2}, kHalf), tensor(1.0, kDouble)), kHalf);
  EXPECT_EQ(result_type(ones({2}, kInt32), tensor(int64_t(5))), kInt32);
  EXPECT_EQ(result_type(ones({2}, kUInt8), tensor(int64_t(5))), kUInt8);
  // A higher category does promote: int32 tensor + float64 0-dim -> float64.
  EXPECT_EQ(result_type(ones({2}, kInt32), tensor(1.0, kDouble)), kFloat64);
  EXPECT_EQ(result_type(ones({2}, kBool), tensor(int64_t(1))), kInt64);
  // Two 0-dim tensors promote normally.
  EXPECT_EQ(result_type(tensor(1.0, kHalf), tensor(1.0, kDouble)), kFloat64);
}

TEST_F(ResultType, CppScalarsAreLowestPriority) {
  EXPECT_EQ(result_type(ones({2}, kHalf), Scalar(2.5)), kHalf);
  EXPECT_EQ(result_type(ones({2}, kInt32), Scalar(2.5)), kFloat32);  // default dtype, not double
  EXPECT_EQ(result_type(ones({2}, kInt32), Scalar(int64_t(7))), kInt32);
  EXPECT_EQ(result_type(ones({2}, kUInt8), Scalar(1000)), kUInt8);
  EXPECT_EQ(result_type(ones({2}, kBool), Scalar(3)), kInt64);
  EXPECT_EQ(result_type(ones({2}, kBool), Scalar(true)), kBool);
  EXPECT_EQ(result_type(tensor(int64_t(1)), Scalar(2.5)), kFloat32);
  EXPECT_EQ(result_type(Scalar(2.5), ones({2}, kInt64)), kFloat32);
}

TEST_F(ResultType, OperatorsFollowResultType) {
  EXPECT_EQ((ones({2}, kInt32) + 2.5).dtype(), kFloat32);
  EXPECT_EQ((ones({2}, kInt32) + 2).dtype(), kInt32);
  EXPECT_EQ((ones({2}, kHalf) * tensor(3.0, kDouble)).dtype(), kHalf);
  EXPECT_EQ((ones({2}, kInt32) / 2).dtype(), kFloat32);  // true division
  EXPECT_EQ((ones({2}, kInt32) / ones({2}, kInt32)).dtype(), kFloat32);
  EXPECT_EQ((ones({2}, kBool) + ones({2}, kBool)).dtype(), kBool);
  EXPECT_EQ((ones({2}, kInt8) < 2.5).dtype(), kBool);
  EXPECT_EQ(pow(ones({2}, kInt32), 2.5).dtype(), kFloat32);
  EXPECT_EQ(pow(ones({2}, kInt32), 2).dtype(), kInt32);
  EXPECT_EQ(clamp(ones({2}, kInt32), 0.5).dtype(), kFloat32);
  EXPECT_EQ(sigmoid(ones({2}, kInt64)).dtype(), kFloat32);
  EXPECT_EQ(sum(ones({2}, kInt32)).dtype(), kInt64);
  EXPECT_EQ(sum(ones({2}, kBool)).dtype(), kInt64);
  EXPECT_EQ(sum(ones({2}, kHalf)).dtype(), kHalf);
}
