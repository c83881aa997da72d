// Internal: the front half that every op with tensor operands shares, built
// in one place, the role TensorIterator's build() and compute_types() play
// in ATen (aten/src/ATen/TensorIterator.cpp). An op declares its operands
// and rules; build() then decides, in this order:
//   1. the computation dtype: type promotion over the tensors and wrapped
//      C++ numbers (torch.result_type), or, for ops that do not promote (the
//      matmul family), the first operand's;
//   2. the common device, TensorIterator's rule, raised or recorded
//      (unify_devices);
//   3. equal dtypes for ops that do not promote, raised or recorded;
//   4. castability of the result into self for in-place ops;
//   5. that kernels can run on the device;
//   6. the broadcast shape, and each input cast to the computation dtype and
//      expanded to it.
// Ops keep only what is theirs: argument checks, the kernel, autograd.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tensor_impl.h"
#include "tt/scalar.h"
#include "tt/tensor.h"

namespace tt::detail {

/// What build() decided. `operands` are the op's tensors on `device` in
/// their own dtypes (what autograd records, and what record mode moved);
/// `inputs` are the same operands as the kernel reads them: cast to `dtype`
/// unless declared with keep_dtype, and expanded to `shape` when the op
/// broadcasts. Wrapped C++ numbers added with add_scalar appear in both as
/// 0-dim cpu tensors of `dtype`.
struct OpPlan {
  Device device{kCPU};
  ScalarType dtype = ScalarType::Undefined;
  std::vector<int64_t> shape;
  std::vector<Tensor> operands;
  std::vector<Tensor> inputs;
};

/// Declares an op's operands and rules, then decides (see the file comment).
/// Throws what the rules throw (DeviceMismatchError, DTypeMismatchError,
/// ShapeError, CudaUnavailableError, Error), with `loc`, in raise mode; in
/// record mode device and dtype violations are recorded and build() goes on.
class OpBuilder {
 public:
  OpBuilder(const char* op, const std::source_location& loc) : op_(op), loc_(loc) {}

  /// A tensor operand: takes part in type promotion, the device rule and
  /// broadcasting. keep_dtype: the kernel reads it in its own dtype (where's
  /// condition) and it does not take part in promotion.
  OpBuilder& add_input(const Tensor& t, bool keep_dtype = false) {
    operands_.push_back(Operand{t, nullptr, keep_dtype});
    return *this;
  }
  /// A wrapped C++ number operand (`x + 2`): takes part in promotion as a
  /// wrapped number and reaches the kernel as a 0-dim cpu tensor.
  OpBuilder& add_scalar(const Scalar& s) {
    operands_.push_back(Operand{Tensor(), &s, false});
    return *this;
  }
  /// A C++ number that takes part in promotion only (clamp's bounds).
  OpBuilder& promote_with(const Scalar& s) {
    promote_only_.push_back(&s);
    return *this;
  }
  /// Integral or bool results compute in the default float dtype (true
  /// division, sigmoid, exp, ...).
  OpBuilder& integer_to_float() { return set(integer_to_float_, true); }
  /// 0-dim cpu tensors may not join a cuda op (cat, the matmul family).
  OpBuilder& no_cpu_scalars() { return set(allow_cpu_scalars_, false); }
  /// No type promotion: operands must share the first one's dtype; a
  /// mismatch raises DTypeMismatchError(message(first, other)) or is
  /// recorded as tensor-mixed-dtype and cast.
  OpBuilder& same_dtype(std::function<std::string(ScalarType, ScalarType)> message) {
    same_dtype_message_ = std::move(message);
    return *this;
  }
  /// Inputs keep their shapes (cat, matmul): no broadcast shape, no expand.
  OpBuilder& no_broadcast() { return set(broadcast_, false); }
  /// Inputs keep their dtypes (cat, which converts while copying).
  OpBuilder& no_cast() { return set(cast_, false); }
  /// The op writes into its first operand: the result must be castable into
  /// it (c10::canCast; DTypeMismatchError or a record) and the broadcast
  /// shape must be its shape (ShapeError, PyTorch's wording).
  OpBuilder& in_place() { return set(in_place_, true); }

  OpPlan build();

 private:
  OpBuilder& set(bool& flag, bool value) {
    flag = value;
    return *this;
  }
  struct Operand {
    Tensor tensor;  // empty for a scalar until build()
    const Scalar* scalar = nullptr;
    bool keep_dtype = false;
  };
  const char* op_;
  std::source_location loc_;
  std::vector<Operand> operands_;
  std::vector<const Scalar*> promote_only_;
  std::function<std::string(ScalarType, ScalarType)> same_dtype_message_;
  bool integer_to_float_ = false, allow_cpu_scalars_ = true, broadcast_ = true, cast_ = true, in_place_ = false;
};

}  // namespace tt::detail
