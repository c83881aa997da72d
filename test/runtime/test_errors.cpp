// Every error: exact type, PyTorch's message, and the caller's file:line.
#include <limits>
#include <string>

#include "test_util.h"

using namespace tt;

class Errors : public tt_test::RuntimeTest {};

TEST_F(Errors, WhatNamesTheCallSiteFirst) {
  const unsigned line = __LINE__ + 2;
  try {
    (void)ones({2}).view({3});
    FAIL();
  } catch (const Error& e) {
    const std::string prefix = std::string(__FILE__) + ":" + std::to_string(line) + ":";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    EXPECT_GT(e.column(), 0u);
    EXPECT_NE(std::string(e.what()).find("shape '[3]' is invalid for input of size 2"), std::string::npos);
  }
}

TEST_F(Errors, AllDeriveFromTtError) {
  EXPECT_THROW(ones({2}).view({3}), Error);
  EXPECT_THROW(zeros({-1}), Error);
  if (!tt_test::real_cuda_backend()) EXPECT_THROW(zeros({1}, kCUDA), Error);
  EXPECT_THROW(matmul(ones({2, 2}), ones({2, 2}, kDouble)), Error);
  EXPECT_THROW(ones({2}).view({3}), std::runtime_error);
}

TEST_F(Errors, ShapeErrors) {
  EXPECT_TT_ERROR(ones({2, 3}) + ones({4}), ShapeError,
                  "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_TT_ERROR(add(ones({3}), ones({2, 4})), ShapeError,
                  "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_TT_ERROR(ones({3}) * ones({2}), ShapeError,
                  "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
  EXPECT_TT_ERROR(mm(ones({2, 3}), ones({2, 3})), ShapeError,
                  "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  EXPECT_TT_ERROR(matmul(ones({4}), ones({2, 3})), ShapeError,
                  "mat1 and mat2 shapes cannot be multiplied (1x4 and 2x3)");
  EXPECT_TT_ERROR(matmul(ones({2, 3}), ones({4})), ShapeError, "size mismatch, got 2, 2x3,4");
  EXPECT_TT_ERROR(matmul(ones({3}), ones({4})), ShapeError,
                  "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but "
                  "got 3 and 4 elements respectively");
  EXPECT_TT_ERROR(matmul(ones({5, 2, 3}), ones({4, 3, 2})), ShapeError,
                  "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0");
  EXPECT_TT_ERROR(ones({3}).add_(ones({2, 3})), ShapeError,
                  "output with shape [3] doesn't match the broadcast shape [2, 3]");
  EXPECT_TT_ERROR(cat({ones({2, 3}), ones({2, 4})}), ShapeError,
                  "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number "
                  "1 in the list.");
  EXPECT_TT_ERROR(stack({ones({2}), ones({3})}), ShapeError,
                  "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
}

TEST_F(Errors, DTypeErrors) {
  EXPECT_TT_ERROR(mm(ones({2, 3}), ones({3, 2}, kDouble)), DTypeMismatchError,
                  "expected scalar type Float but found Double");
  EXPECT_TT_ERROR(matmul(ones({2, 3}, kHalf), ones({3, 2})), DTypeMismatchError,
                  "expected scalar type Half but found Float");
  EXPECT_TT_ERROR(ones({2, 3}).matmul(ones({3, 2}, kBFloat16)), DTypeMismatchError,
                  "expected scalar type Float but found BFloat16");
  EXPECT_TT_ERROR(matmul(ones({3}), ones({3}, kDouble)), DTypeMismatchError,
                  "dot : expected both vectors to have same dtype, but found Float and Double");
  EXPECT_TT_ERROR(ones({2}, kLong).add_(ones({2})), DTypeMismatchError,
                  "result type Float can't be cast to the desired output type Long");
  EXPECT_TT_ERROR(ones({2}, kInt).mul_(1.5), DTypeMismatchError,
                  "result type Float can't be cast to the desired output type Int");
  EXPECT_TT_ERROR(ones({2}, kBool).add_(1), DTypeMismatchError,
                  "result type Long can't be cast to the desired output type Bool");
  Tensor li = ones({2}, kLong);
  EXPECT_TT_ERROR(li /= 2, DTypeMismatchError, "result type Float can't be cast to the desired output type Long");
  EXPECT_TT_ERROR(where(ones({2}), ones({2}), ones({2})), DTypeMismatchError,
                  "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  EXPECT_TT_ERROR(softmax(ones({2}, kLong), 0), DTypeMismatchError,
                  "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  EXPECT_TT_ERROR(
      mean(ones({2}, kLong)), DTypeMismatchError,
      "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
  EXPECT_TT_ERROR(relu(ones({2}, kBool)), DTypeMismatchError, "Boolean inputs not supported for relu");
  EXPECT_TT_ERROR(abs(ones({2}, kBool)), DTypeMismatchError, "\"abs_cpu\" not implemented for 'Bool'");
  EXPECT_TT_ERROR(ones({2}, kFloat).data_ptr<int64_t>(), DTypeMismatchError,
                  "expected scalar type Long but found Float");
}

TEST_F(Errors, ValueErrors) {
  EXPECT_TT_ERROR(zeros({-1, 2}), ValueError, "Trying to create tensor with negative dimension -1: [-1, 2]");
  EXPECT_TT_ERROR(ones({2, 3}).sum(2), ValueError,
                  "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_TT_ERROR(ones({2, 3}).sum(-3), ValueError,
                  "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  EXPECT_TT_ERROR(ones({2, 3}).transpose(0, 2), ValueError,
                  "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_TT_ERROR(ones({2, 3}).item<float>(), ValueError, "a Tensor with 6 elements cannot be converted to Scalar");
  EXPECT_TT_ERROR(ones({2}, kInt64).requires_grad_(), ValueError,
                  "Only Tensors of floating point and complex dtype can require gradients");
  EXPECT_TT_ERROR(-ones({2}, kBool), ValueError,
                  "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
                  "use the `~` or `logical_not()` operator instead.");
  EXPECT_TT_ERROR(ones({2}, kBool) - ones({2}, kBool), ValueError,
                  "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                  "`logical_xor()` operator instead.");
  EXPECT_TT_ERROR(pow(ones({2}, kLong), -1), ValueError, "Integers to negative integer powers are not allowed.");
  EXPECT_TT_ERROR(cat({}), ValueError, "torch.cat(): expected a non-empty list of Tensors");
  EXPECT_TT_ERROR(max(zeros({0})), ValueError,
                  "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                  "with the 'dim' argument.");
  EXPECT_TT_ERROR(argmax(zeros({0})), ValueError,
                  "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_TT_ERROR(matmul(tensor(1.0), ones({2})), ValueError,
                  "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_TT_ERROR(Tensor().dim(), ValueError, "undefined Tensor: this operation needs a defined tensor");
}

TEST_F(Errors, CudaUnavailable) {
  TT_SKIP_WITH_REAL_CUDA();
  EXPECT_FALSE(cuda::is_available());
  EXPECT_EQ(cuda::device_count(), 0);
  EXPECT_TT_ERROR(zeros({2}, kCUDA), CudaUnavailableError, "CUDA is not available");
  EXPECT_TT_ERROR(ones({2}).cuda(), CudaUnavailableError, "CUDA is not available");
  EXPECT_TT_ERROR(ones({2}).to(Device("cuda:0")), CudaUnavailableError, "CUDA is not available");
  EXPECT_TT_ERROR(ones({2}).to(kCUDA, kHalf), CudaUnavailableError, "CUDA is not available");
  EXPECT_TT_ERROR(randn({2}, device(kCUDA)), CudaUnavailableError, "CUDA is not available");
  float data[2] = {1, 2};
  EXPECT_TT_ERROR(from_blob(data, {2}, kCUDA), CudaUnavailableError, "CUDA is not available");
}

TEST_F(Errors, DeviceMismatch) {
  TT_SKIP_WITH_REAL_CUDA();
  set_cuda_emulation(2);
  Tensor g = ones({2, 3}, kCUDA);
  Tensor c = ones({2, 3});
  EXPECT_TT_ERROR(g + c, DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(c + g, DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(c * g, DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(g - ones({2, 3}, Device("cuda:1")), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!");
  EXPECT_TT_ERROR(matmul(g, c.t()), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(cat({g, c}), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(where(c > 0, g, c), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(c.add_(g), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  // A 0-dim cuda tensor is no cpu scalar: cpu + it still fails.
  EXPECT_TT_ERROR(c + tensor(1.0, kCUDA), DeviceMismatchError,
                  "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_TT_ERROR(zeros({1}, Device("cuda:2")), CudaUnavailableError, "CUDA error: invalid device ordinal");
}

// Shapes whose element or byte counts overflow are typed errors with c10's
// wording, at the caller's line; before, each of these crashed (SIGSEGV in
// fill, SIGFPE) or made a tensor over a wrapped, tiny buffer.
TEST_F(Errors, OverflowingShapesAreValueErrors) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_TT_ERROR(ones({kMax}), ValueError, "Storage size calculation overflowed with sizes=[9223372036854775807]");
  EXPECT_TT_ERROR(empty({kMax}), ValueError, "Storage size calculation overflowed with sizes=[9223372036854775807]");
  EXPECT_TT_ERROR(zeros({int64_t(1) << 61, 2}), ValueError,
                  "Storage size calculation overflowed with sizes=[2305843009213693952, 2]");
  EXPECT_TT_ERROR(empty({int64_t(1) << 62, 4}), ValueError,
                  "numel: integer multiplication overflow for sizes [4611686018427387904, 4]");
  EXPECT_TT_ERROR(empty({int64_t(1) << 32, int64_t(1) << 32}), ValueError,
                  "numel: integer multiplication overflow for sizes [4294967296, 4294967296]");
  // A zero elsewhere does not excuse the rest (c10::safe_multiplies_u64).
  EXPECT_TT_ERROR(empty({int64_t(1) << 62, 4, 0}), ValueError,
                  "numel: integer multiplication overflow for sizes [4611686018427387904, 4, 0]");
  EXPECT_TT_ERROR(ones({0}).view({int64_t(1) << 62, 8, 0}), ValueError,
                  "numel: integer multiplication overflow for shape [4611686018427387904, 8, 0]");
  // A zero first: the strides of the rest still overflowed (UBSan; fuzz_shapes).
  EXPECT_TT_ERROR(zeros({0}).reshape({0, int64_t(1) << 54, int64_t(1) << 26}), ValueError,
                  "numel: integer multiplication overflow for shape [0, 18014398509481984, 67108864]");
  float buf[4] = {};
  EXPECT_TT_ERROR(from_blob(buf, {int64_t(1) << 62, 4}), ValueError,
                  "numel: integer multiplication overflow for sizes [4611686018427387904, 4]");
  EXPECT_TT_ERROR(from_blob(buf, {2, 2}, {int64_t(1) << 62, 4}, kFloat), ValueError,
                  "Storage size calculation overflowed with sizes=[2, 2]");
  // Within range, an empty tensor of a huge shape is fine, as in PyTorch.
  EXPECT_EQ(empty({int64_t(1) << 40, 0}).numel(), 0);
  // ... and its kernels run over nothing: the byte strides of [0, 5.98e18]
  // overflowed in the loop plan (UBSan; found by test/fuzz's fuzz_shapes).
  Tensor huge_empty = full({0, int64_t(5980802295386013716)}, 1.0, kFloat64);
  EXPECT_EQ(huge_empty.numel(), 0);
  EXPECT_EQ(huge_empty.sum().item<double>(), 0.0);
}

TEST_F(Errors, AllocationFailureIsOutOfMemory) {
  // 2^62 bytes: within the overflow limits, beyond any machine.
  EXPECT_TT_ERROR(empty({int64_t(1) << 60}, kFloat), OutOfMemoryError,
                  "CPU out of memory: tried to allocate 4.00 EiB for a tensor of sizes [1152921504606846976] (cpu)");
}
