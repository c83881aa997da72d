// The OpBuilder (runtime/src/op_builder.h), the front half every op shares:
// what it decides for each kind of operand and rule, apart from any kernel.
#include <gtest/gtest.h>

#include "op_builder.h"  // runtime/src: the builder under test
#include "test_util.h"

using namespace tt;
using detail::OpBuilder;
using detail::OpPlan;

namespace {

class OpBuilderTest : public tt_test::RuntimeTest {
 protected:
  static ScalarType dtype(const Tensor& t) { return t.dtype(); }
  static std::vector<int64_t> sizes(const Tensor& t) { return t.sizes().vec(); }
};

TEST_F(OpBuilderTest, PromotesWrappedNumbersAsPyTorchDoes) {
  Tensor i = ones({2}, kInt);
  const Scalar half_value(0.5), two(int64_t(2));
  // int32 tensor + a floating C++ number: the default float dtype.
  OpPlan p = OpBuilder("add", std::source_location::current()).add_input(i).add_scalar(half_value).build();
  EXPECT_EQ(p.dtype, kFloat);
  ASSERT_EQ(p.inputs.size(), 2u);
  EXPECT_EQ(dtype(p.inputs[0]), kFloat);
  EXPECT_EQ(dtype(p.operands[0]), kInt);  // operands keep their own dtype
  EXPECT_EQ(sizes(p.operands[1]), std::vector<int64_t>{});
  EXPECT_EQ(sizes(p.inputs[1]), std::vector<int64_t>{2});
  // An integral C++ number does not widen an int32 tensor.
  EXPECT_EQ(OpBuilder("add", std::source_location::current()).add_input(i).add_scalar(two).build().dtype, kInt);
  // ... unless the op computes integers as floats.
  EXPECT_EQ(
      OpBuilder("div", std::source_location::current()).add_input(i).add_scalar(two).integer_to_float().build().dtype,
      kFloat);
}

TEST_F(OpBuilderTest, KeepDtypeOperandsNeitherPromoteNorCast) {
  Tensor cond = ones({3, 1}, kBool);
  Tensor x = ones({1, 2}, kHalf);
  OpPlan p = OpBuilder("where", std::source_location::current()).add_input(cond, true).add_input(x).build();
  EXPECT_EQ(p.dtype, kHalf);
  EXPECT_EQ(dtype(p.inputs[0]), kBool);
  EXPECT_EQ(p.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(sizes(p.inputs[0]), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(sizes(p.inputs[1]), (std::vector<int64_t>{3, 2}));
}

TEST_F(OpBuilderTest, SameDtypeRulesRaiseWithTheOpsMessage) {
  Tensor a = ones({2, 2});
  Tensor b = ones({2, 2}, kDouble);
  auto message = [](ScalarType x, ScalarType y) {
    return std::string(to_string(x)) + " vs " + std::string(to_string(y));
  };
  try {
    OpBuilder("mm", std::source_location::current()).add_input(a).add_input(b).same_dtype(message).build();
    FAIL() << "no error";
  } catch (const DTypeMismatchError& e) {
    EXPECT_EQ(e.message(), "Float vs Double");
  }
  OpPlan p = OpBuilder("mm", std::source_location::current()).add_input(a).add_input(a).same_dtype(message).build();
  EXPECT_EQ(p.dtype, kFloat);
}

TEST_F(OpBuilderTest, InPlaceChecksCastabilityAndShape) {
  Tensor self = ones({2, 3}, kLong);
  Tensor f = ones({3});
  EXPECT_THROW(OpBuilder("add_", std::source_location::current()).add_input(self).add_input(f).in_place().build(),
               DTypeMismatchError);
  Tensor small = ones({3}, kLong);
  Tensor big = ones({2, 3}, kLong);
  try {
    OpBuilder("add_", std::source_location::current()).add_input(small).add_input(big).in_place().build();
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_EQ(e.message(), "output with shape [3] doesn't match the broadcast shape [2, 3]");
  }
}

TEST_F(OpBuilderTest, CpuScalarsJoinACudaOpOnlyWhereAllowed) {
  set_cuda_emulation(1);
  Tensor g = ones({2}, kCUDA);
  Tensor s = tt::tensor(2.0);  // 0-dim, cpu
  OpPlan p = OpBuilder("mul", std::source_location::current()).add_input(g).add_input(s).build();
  EXPECT_EQ(p.device, Device("cuda:0"));
  EXPECT_THROW(OpBuilder("cat", std::source_location::current()).add_input(g).add_input(s).no_cpu_scalars().build(),
               DeviceMismatchError);
}

TEST_F(OpBuilderTest, NoBroadcastNoCastLeavesInputsAsGiven) {
  Tensor a = ones({2, 3}, kInt);
  Tensor b = ones({4}, kDouble);
  OpPlan p =
      OpBuilder("cat", std::source_location::current()).add_input(a).add_input(b).no_broadcast().no_cast().build();
  EXPECT_EQ(p.dtype, kDouble);
  EXPECT_TRUE(p.shape.empty());
  EXPECT_EQ(dtype(p.inputs[0]), kInt);
  EXPECT_EQ(sizes(p.inputs[1]), std::vector<int64_t>{4});
}

}  // namespace
