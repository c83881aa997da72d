// The device and dtype rules a CUDA build of LibTorch applies to one op's
// tensor arguments, over plain descriptions of them (no tensors), so that
// they can be tested alone. Mirrors:
//  - aten/src/ATen/TensorIterator.cpp compute_types(): every operand on one
//    device, except that a 0-dim cpu tensor may join a cuda op; the common
//    device is the first operand's that is not such a cpu scalar;
//  - aten/src/ATen/native/TensorAdvancedIndexing.cpp: index/index_put_ take
//    their indices on the cpu or on self's device;
//  - aten/src/ATen/native/cuda/Blas.cpp: the matrix products refuse operands
//    of different floating dtypes ("expected mat1 and mat2 to have the same
//    dtype, but got: float != c10::Half").
// Element-wise ops promote types instead (ATen's type promotion), so they
// have no dtype rule.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensor_run {

/// One defined tensor among an op's arguments (a TensorList contributes one
/// per element), in argument order.
struct Operand {
  std::string_view arg;  // the schema's argument name, e.g. "mat2", "indices" (outlives the operand)
  c10::Device device;
  int64_t dim = 0;
  c10::ScalarType dtype = c10::ScalarType::Float;
  bool index = false;  // an index tensor of index/index_put_: cpu is fine too
};

/// The first operand on another device than the common one.
struct DeviceMismatch {
  std::size_t offending;  // index into the operands
  c10::Device common;
};

/// Applies ATen's device rule. nullopt when the operands agree.
std::optional<DeviceMismatch> check_devices(c10::ArrayRef<Operand> operands);

/// The device an op's fresh outputs go to: the common device of its
/// operands (with a mismatch, the first operand's, as tt's record mode
/// continues); a cuda 0-dim operand's when the rest are cpu scalars.
/// nullopt when no operand is off the cpu.
std::optional<c10::Device> output_device(c10::ArrayRef<Operand> operands);

/// True for the arguments of `op` that a cuda build lets stay on the cpu
/// whatever self's device: the indices of index and index_put_, the
/// batch_sizes of a packed sequence (always a cpu tensor).
bool is_index_argument(const std::string& op, const std::string& arg);

/// The operands that must share one floating dtype under a cuda build, for
/// the matrix products (mm, addmm, bmm, baddbmm, addbmm, mv, addmv, dot,
/// vdot, addr, and their out= forms), convolution and the recurrent layers
/// (lstm, gru, rnn_tanh, rnn_relu: input, hidden state and weights); empty
/// for other ops.
std::vector<std::string> same_dtype_arguments(const std::string& op);

/// The first operand among `names` whose floating dtype differs from the
/// first such operand's, and that first one, as (first, offending) indices.
std::optional<std::pair<std::size_t, std::size_t>> check_same_dtype(c10::ArrayRef<Operand> operands,
                                                                    const std::vector<std::string>& names);

/// "Expected all tensors to be on the same device, but found at least two
/// devices, cuda:0 and cpu!" (TensorIterator's wording; c10 spells devices).
std::string device_mismatch_message(c10::Device common, c10::Device offending);

/// The cuda build's message for operands of two dtypes: the matrix products'
/// "expected mat1 and mat2 to have the same dtype, but got: float !=
/// c10::Half"; convolution's "Input type (float) and weight type (c10::Half)
/// should be the same".
std::string dtype_mismatch_message(const std::string& op, c10::ScalarType first, c10::ScalarType offending);

/// Python's name of a dtype, as the validation log writes it: "float32",
/// "float16", "bfloat16", "int64", "bool", ...
std::string python_dtype_name(c10::ScalarType t);

}  // namespace tensor_run
