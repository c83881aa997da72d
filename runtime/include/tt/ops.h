// Operations as free functions and operators, with PyTorch's broadcasting,
// type promotion (result_type) and device rules (TensorIterator).
//
// Common rules, stated once:
//  * Devices: all tensor operands must share one device, except that a
//    0-dim cpu tensor may join tensors on any device (ATen's cpu-scalar
//    rule). Otherwise DeviceMismatchError "Expected all tensors to be on the
//    same device, but found at least two devices, cuda:0 and cpu!" (or, in
//    TT_VALIDATE=record mode, a tensor-mixed-device record and the op runs on
//    the first operand's device).
//  * Dtypes (elementwise): result_type with dimension categories, as
//    torch.result_type: dim>0 tensors outrank 0-dim tensors, which outrank
//    C++ scalars, unless the lower group is of a higher category
//    (bool < integral < floating). int32 tensor + 2.5 -> float32;
//    float16 tensor + float64 0-dim tensor -> float16.
//  * Shapes: numpy broadcasting; ShapeError "The size of tensor a (3) must
//    match the size of tensor b (4) at non-singleton dimension 1".
#pragma once

#include <optional>
#include <source_location>
#include <vector>

#include "tt/tensor.h"

namespace tt {

/// torch.result_type over tensors and scalars, with dimension categories.
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(const Scalar& a, const Tensor& b);

/// Broadcast shape of two shapes (ShapeError if they do not broadcast).
std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b, SourceLoc loc = SourceLoc::current());

// --- arithmetic (out of place) ----------------------------------------------
/// a + alpha * b. Bool + bool stays bool (logical or), as PyTorch.
Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current());
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current());
/// a - alpha * b. ValueError for two bool operands (PyTorch's message).
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current());
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha = 1, SourceLoc loc = SourceLoc::current());
Tensor mul(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor mul(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
/// True division: integral/bool operands produce the default float dtype.
Tensor div(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor div(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
/// Scalar-first forms (2 - t, 1 / t).
Tensor rsub(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());  // b - a
Tensor rdiv(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());  // b / a

// --- comparisons: bool results, operands promoted by result_type ------------
Tensor eq(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor ne(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor lt(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor le(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor gt(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor ge(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
Tensor eq(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
Tensor ne(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
Tensor lt(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
Tensor le(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
Tensor gt(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());
Tensor ge(const Tensor& a, const Scalar& b, SourceLoc loc = SourceLoc::current());

// --- linear algebra ----------------------------------------------------------
/// torch.matmul: 1-D·1-D dot, 2-D mm, 1-D/2-D mixes, batched with broadcast
/// batch dims. No type promotion: DTypeMismatchError "expected scalar type
/// Float but found Double" (dot: "dot : expected both vectors to have same
/// dtype, but found Float and Double"); in record mode a tensor-mixed-dtype
/// record and b is cast to a's dtype. ShapeError "mat1 and mat2 shapes cannot
/// be multiplied (2x3 and 4x5)". float32/float64 through OpenBLAS;
/// float16/bfloat16 by converting tiles to float32; integers by a plain loop.
Tensor matmul(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());
/// 2-D only (ValueError otherwise); same dtype rule as matmul.
Tensor mm(const Tensor& a, const Tensor& b, SourceLoc loc = SourceLoc::current());

// --- unary ---------------------------------------------------------------------
/// max(x, 0). DTypeMismatchError "Boolean inputs not supported for relu".
Tensor relu(const Tensor& x, SourceLoc loc = SourceLoc::current());
// sigmoid/tanh/exp/log/sqrt: integral and bool inputs give float32 (PyTorch's
// unary float ops); floating inputs keep their dtype.
Tensor sigmoid(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor tanh(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor exp(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor log(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor sqrt(const Tensor& x, SourceLoc loc = SourceLoc::current());
/// ValueError on bool ("Negation, the `-` operator, on a bool tensor is not supported...").
Tensor neg(const Tensor& x, SourceLoc loc = SourceLoc::current());
/// DTypeMismatchError on bool ("abs_cpu" not implemented for 'Bool').
Tensor abs(const Tensor& x, SourceLoc loc = SourceLoc::current());
/// x ** e with result_type(x, e); ValueError "Integers to negative integer
/// powers are not allowed." for an integral x and a negative integral e.
Tensor pow(const Tensor& x, const Scalar& exponent, SourceLoc loc = SourceLoc::current());
Tensor pow(const Tensor& x, const Tensor& exponent, SourceLoc loc = SourceLoc::current());
/// Clamps into [min, max]; the result dtype promotes with the bounds (1.13).
Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt,
             SourceLoc loc = SourceLoc::current());

// --- reductions ----------------------------------------------------------------
/// Sum of all elements (0-dim). Integral/bool inputs sum to int64; floating
/// keep their dtype (float16/bfloat16 accumulate in float32).
Tensor sum(const Tensor& x, SourceLoc loc = SourceLoc::current());
/// Sum over dims (negative dims count from the end; ValueError "Dimension out
/// of range (expected to be in range of [-2, 1], but got 2)").
Tensor sum(const Tensor& x, IntArrayRef dims, bool keepdim = false, SourceLoc loc = SourceLoc::current());
/// Floating inputs only: DTypeMismatchError "mean(): could not infer output
/// dtype. Input dtype must be either a floating point or complex dtype. Got: Long".
Tensor mean(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor mean(const Tensor& x, IntArrayRef dims, bool keepdim = false, SourceLoc loc = SourceLoc::current());
/// Maximum/minimum element (0-dim); ValueError on an empty tensor.
Tensor max(const Tensor& x, SourceLoc loc = SourceLoc::current());
Tensor min(const Tensor& x, SourceLoc loc = SourceLoc::current());
/// (values, int64 indices) along dim; first index wins on ties.
std::tuple<Tensor, Tensor> max(const Tensor& x, int64_t dim, bool keepdim = false,
                               SourceLoc loc = SourceLoc::current());
std::tuple<Tensor, Tensor> min(const Tensor& x, int64_t dim, bool keepdim = false,
                               SourceLoc loc = SourceLoc::current());
/// int64 index of the maximum, of the flattened tensor when dim is absent.
Tensor argmax(const Tensor& x, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
              SourceLoc loc = SourceLoc::current());
/// Along dim, computed in float32 for float16/bfloat16. Integral inputs:
/// DTypeMismatchError ("softmax_lastdim_kernel_impl" not implemented for 'Long').
Tensor softmax(const Tensor& x, int64_t dim, SourceLoc loc = SourceLoc::current());
Tensor log_softmax(const Tensor& x, int64_t dim, SourceLoc loc = SourceLoc::current());

// --- joining and selection ----------------------------------------------------
/// Concatenates along dim with type promotion; one device for all (no cpu
/// scalar exception: 0-dim tensors cannot be concatenated). ShapeError
/// "Sizes of tensors must match except in dimension 0. Expected size 2 but
/// got size 3 for tensor number 1 in the list."; ValueError on an empty list.
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0, SourceLoc loc = SourceLoc::current());
/// Stacks equal-shaped tensors along a new dim (ShapeError "stack expects
/// each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1").
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0, SourceLoc loc = SourceLoc::current());
/// Elementwise cond ? x : y with broadcasting; x and y promote
/// (result_type). cond must be bool: DTypeMismatchError "where expected
/// condition to be a boolean tensor, but got a tensor with dtype Float".
Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y, SourceLoc loc = SourceLoc::current());
Tensor where(const Tensor& cond, const Tensor& x, const Scalar& y, SourceLoc loc = SourceLoc::current());

namespace detail {
// Operators cannot take a defaulted std::source_location, so their left
// operand is taken through these types: the implicit conversion happens at
// the call site, where the default argument is evaluated. GCC records the
// position of the right operand's first token, clang the left operand's.
struct LocatedTensor {
  const Tensor& tensor;
  SourceLoc loc;
  /* implicit */ LocatedTensor(const Tensor& t, SourceLoc l = SourceLoc::current()) : tensor(t), loc(l) {}
};
struct LocatedScalar {
  Scalar value;
  SourceLoc loc;
  template <ScalarLike T>
  /* implicit */ LocatedScalar(T v, SourceLoc l = SourceLoc::current()) : value(v), loc(l) {}
};
}  // namespace detail

// Operators: same semantics and errors as the named functions.
Tensor operator+(detail::LocatedTensor a, const Tensor& b);
Tensor operator+(detail::LocatedTensor a, const Scalar& b);
Tensor operator+(detail::LocatedScalar a, const Tensor& b);
Tensor operator-(detail::LocatedTensor a, const Tensor& b);
Tensor operator-(detail::LocatedTensor a, const Scalar& b);
Tensor operator-(detail::LocatedScalar a, const Tensor& b);
Tensor operator*(detail::LocatedTensor a, const Tensor& b);
Tensor operator*(detail::LocatedTensor a, const Scalar& b);
Tensor operator*(detail::LocatedScalar a, const Tensor& b);
Tensor operator/(detail::LocatedTensor a, const Tensor& b);
Tensor operator/(detail::LocatedTensor a, const Scalar& b);
Tensor operator/(detail::LocatedScalar a, const Tensor& b);
Tensor operator-(detail::LocatedTensor a);
Tensor operator==(detail::LocatedTensor a, const Tensor& b);
Tensor operator==(detail::LocatedTensor a, const Scalar& b);
Tensor operator!=(detail::LocatedTensor a, const Tensor& b);
Tensor operator!=(detail::LocatedTensor a, const Scalar& b);
Tensor operator<(detail::LocatedTensor a, const Tensor& b);
Tensor operator<(detail::LocatedTensor a, const Scalar& b);
Tensor operator<=(detail::LocatedTensor a, const Tensor& b);
Tensor operator<=(detail::LocatedTensor a, const Scalar& b);
Tensor operator>(detail::LocatedTensor a, const Tensor& b);
Tensor operator>(detail::LocatedTensor a, const Scalar& b);
Tensor operator>=(detail::LocatedTensor a, const Tensor& b);
Tensor operator>=(detail::LocatedTensor a, const Scalar& b);
/// Compound assignment: the in-place ops (add_, sub_, mul_, div_).
Tensor& operator+=(Tensor& a, detail::LocatedTensor b);
Tensor& operator+=(Tensor& a, detail::LocatedScalar b);
Tensor& operator-=(Tensor& a, detail::LocatedTensor b);
Tensor& operator-=(Tensor& a, detail::LocatedScalar b);
Tensor& operator*=(Tensor& a, detail::LocatedTensor b);
Tensor& operator*=(Tensor& a, detail::LocatedScalar b);
Tensor& operator/=(Tensor& a, detail::LocatedTensor b);
Tensor& operator/=(Tensor& a, detail::LocatedScalar b);

}  // namespace tt
