// The cuda build's device and dtype rules over described operands.
#include <gtest/gtest.h>

#include "OpRules.h"

namespace tensor_run {
namespace {

const c10::Device kCpu(c10::DeviceType::CPU);
const c10::Device kCuda0(c10::DeviceType::CUDA, 0);
const c10::Device kCuda1(c10::DeviceType::CUDA, 1);

Operand op(const char* arg, c10::Device d, int64_t dim = 2, c10::ScalarType t = c10::ScalarType::Float) {
  return Operand{arg, d, dim, t, false};
}

TEST(DeviceRule, OneDeviceIsFine) {
  EXPECT_FALSE(check_devices({op("self", kCuda0), op("other", kCuda0)}));
  EXPECT_FALSE(check_devices({op("self", kCpu), op("other", kCpu)}));
}

TEST(DeviceRule, ZeroDimCpuTensorJoinsACudaOp) {
  EXPECT_FALSE(check_devices({op("self", kCuda0), op("other", kCpu, 0)}));
  EXPECT_FALSE(check_devices({op("self", kCpu, 0), op("other", kCuda0)}));
  EXPECT_EQ(output_device({op("self", kCpu, 0), op("other", kCuda0)}), kCuda0);
}

TEST(DeviceRule, OneElementOneDimCpuTensorDoesNot) {
  auto m = check_devices({op("self", kCuda0), op("other", kCpu, 1)});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->offending, 1u);
  EXPECT_EQ(m->common, kCuda0);
}

TEST(DeviceRule, CommonDeviceIsTheFirstNonScalarOperands) {
  auto m = check_devices({op("self", kCpu, 0), op("other", kCpu), op("third", kCuda0)});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->common, kCpu);
  EXPECT_EQ(m->offending, 2u);
}

TEST(DeviceRule, ACuda0DimTensorDoesNotJoinACpuOp) {
  // Only cpu scalars are exempt (TensorIterator's is_cpu_scalar).
  EXPECT_TRUE(check_devices({op("self", kCpu), op("other", kCuda0, 0)}));
}

TEST(DeviceRule, TwoCudaDevicesMismatch) {
  auto m = check_devices({op("self", kCuda0), op("other", kCuda1)});
  ASSERT_TRUE(m);
  EXPECT_EQ(device_mismatch_message(m->common, kCuda1),
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!");
}

TEST(DeviceRule, IndicesMayStayOnTheCpu) {
  EXPECT_TRUE(is_index_argument("aten::index.Tensor", "indices"));
  EXPECT_TRUE(is_index_argument("aten::index_put_", "indices"));
  EXPECT_TRUE(is_index_argument("aten::_index_put_impl_", "indices"));
  EXPECT_FALSE(is_index_argument("aten::index_select", "index"));
  EXPECT_FALSE(is_index_argument("aten::index.Tensor", "self"));
  Operand idx = op("indices", kCpu, 1, c10::ScalarType::Long);
  idx.index = true;
  EXPECT_FALSE(check_devices({op("self", kCuda0), idx}));
  Operand on_other = op("indices", kCuda1, 1, c10::ScalarType::Long);
  on_other.index = true;
  EXPECT_TRUE(check_devices({op("self", kCuda0), on_other}));
  // Values of index_put_ are not indices.
  EXPECT_TRUE(check_devices({op("self", kCuda0), idx, op("values", kCpu, 1)}));
}

TEST(DeviceRule, OutputsGoToTheCommonDevice) {
  EXPECT_EQ(output_device({op("self", kCuda1), op("other", kCpu, 0)}), kCuda1);
  EXPECT_EQ(output_device({op("self", kCpu), op("other", kCuda0)}), std::nullopt);
  EXPECT_EQ(output_device({op("self", kCpu, 0), op("other", kCuda0, 0)}), kCuda0);
}

TEST(DtypeRule, MatrixProductsNeedOneFloatingDtype) {
  const auto names = same_dtype_arguments("aten::addmm");
  ASSERT_FALSE(names.empty());
  auto m = check_same_dtype(
      {op("self", kCuda0, 1, c10::ScalarType::Half), op("mat1", kCuda0), op("mat2", kCuda0, 2, c10::ScalarType::Half)},
      names);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, 1u);  // mat1 first, as the cuda kernel checks
  EXPECT_EQ(m->second, 2u);
  EXPECT_EQ(dtype_mismatch_message("aten::addmm", c10::ScalarType::Float, c10::ScalarType::Half),
            "expected mat1 and mat2 to have the same dtype, but got: float != c10::Half");
  EXPECT_FALSE(check_same_dtype({op("self", kCuda0), op("mat2", kCuda0)}, same_dtype_arguments("aten::mm.out")));
}

TEST(DtypeRule, ElementwiseOpsPromoteInstead) {
  EXPECT_TRUE(same_dtype_arguments("aten::add.Tensor").empty());
  EXPECT_TRUE(same_dtype_arguments("aten::mul").empty());
}

TEST(DtypeRule, IntegerOperandsAreNotCompared) {
  EXPECT_FALSE(check_same_dtype({op("self", kCuda0), op("mat2", kCuda0, 2, c10::ScalarType::Long)},
                                same_dtype_arguments("aten::mm")));
}

TEST(DtypeRule, ConvolutionWording) {
  EXPECT_EQ(dtype_mismatch_message("aten::convolution", c10::ScalarType::Float, c10::ScalarType::Half),
            "Input type (float) and weight type (c10::Half) should be the same");
}

TEST(Names, PythonDtypeNames) {
  EXPECT_EQ(python_dtype_name(c10::ScalarType::Float), "float32");
  EXPECT_EQ(python_dtype_name(c10::ScalarType::Half), "float16");
  EXPECT_EQ(python_dtype_name(c10::ScalarType::BFloat16), "bfloat16");
  EXPECT_EQ(python_dtype_name(c10::ScalarType::Long), "int64");
  EXPECT_EQ(python_dtype_name(c10::ScalarType::Bool), "bool");
}

}  // namespace
}  // namespace tensor_run
