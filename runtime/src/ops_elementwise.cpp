// Elementwise ops: arithmetic, comparisons, unary math, pow, clamp, the
// in-place forms and the operators. Device, dtype and shape decisions are
// the OpBuilder's (op_builder.h).
#include <optional>

#include "autograd/derivatives.h"
#include "autograd/graph.h"
#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "kernels/kernels.h"
#include "op_builder.h"
#include "tensor_impl.h"
#include "tt/errors.h"
#include "tt/ops.h"

namespace tt {

using detail::impl_of;
using detail::kernels::BinaryOp;
using detail::kernels::UnaryOp;

namespace {

bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq; }

// The second operand of a binary op: a tensor or a C++ scalar.
struct Rhs {
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;
};

ScalarType rhs_dtype(const Rhs& r, const SourceLoc& loc) {
  return r.tensor ? impl_of(*r.tensor, loc).dtype : r.scalar->type();
}

// PyTorch's argument checks that come before any computation.
void check_bool_ops(BinaryOp op, ScalarType a, const Rhs& b, const SourceLoc& loc) {
  if (op != BinaryOp::Sub || a != ScalarType::Bool) return;
  if (rhs_dtype(b, loc) == ScalarType::Bool) {
    if (b.tensor) {
      throw ValueError(
          "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
          "operator instead.",
          loc);
    }
    throw ValueError(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use "
        "the `~` or `logical_not()` operator instead.",
        loc);
  }
}

detail::OpBuilder& add_rhs(detail::OpBuilder& b, const Rhs& r) {
  return r.tensor ? b.add_input(*r.tensor) : b.add_scalar(*r.scalar);
}

// out = a op b (or b op a when reversed, for scalar-first forms).
Tensor binary_op(BinaryOp op, const char* name, const Tensor& a, const Rhs& b, const Scalar& alpha, bool reversed,
                 const SourceLoc& loc) {
  check_bool_ops(op, impl_of(a, loc).dtype, b, loc);
  if (op == BinaryOp::Pow && b.scalar && b.scalar->is_integral() && b.scalar->to_long() < 0 &&
      is_integral_type(detail::result_type({&a}, {b.scalar}), true)) {
    throw ValueError("Integers to negative integer powers are not allowed.", loc);
  }
  detail::OpBuilder builder(name, loc);
  add_rhs(builder.add_input(a), b);
  if (op == BinaryOp::Div) builder.integer_to_float();  // true division
  detail::OpPlan p = builder.build();
  Tensor xa = p.inputs[0], ya = p.inputs[1];
  if (reversed) std::swap(xa, ya);
  Tensor out = detail::make_empty(p.shape, is_comparison(op) ? ScalarType::Bool : p.dtype, p.device, loc);
  detail::kernels::binary(op, impl_of(out, loc), impl_of(xa, loc), impl_of(ya, loc), alpha);
  if (b.tensor) {
    detail::autograd::record_binary(op, out, {a, *b.tensor}, p.operands, nullptr, alpha, reversed);
  } else {
    detail::autograd::record_binary(op, out, {a}, {p.operands[0]}, b.scalar, alpha, reversed);
  }
  return out;
}

// self = self op other, PyTorch's in-place rules: other broadcasts to self's
// shape, the promoted type must be castable into self (the builder decides).
Tensor& inplace_op(BinaryOp op, const char* name, const Tensor& self, const Rhs& b, const Scalar& alpha,
                   const SourceLoc& loc) {
  const auto& si = impl_of(self, loc);
  detail::autograd::check_inplace(si, loc);
  check_bool_ops(op, si.dtype, b, loc);
  detail::OpBuilder builder(name, loc);
  add_rhs(builder.add_input(self), b).in_place();
  if (op == BinaryOp::Div) builder.integer_to_float();
  detail::OpPlan p = builder.build();
  const auto& ya = impl_of(p.inputs[1], loc);
  if (p.dtype == si.dtype && si.device() == p.device) {
    detail::kernels::binary(op, si, si, ya, alpha);
  } else {
    // Record mode let a non-castable result or a foreign device through:
    // compute there, then write back cast.
    Tensor tmp = detail::make_empty(p.shape, p.dtype, p.device, loc);
    detail::kernels::binary(op, impl_of(tmp, loc), impl_of(p.inputs[0], loc), ya, alpha);
    detail::copy_impl(si, impl_of(tmp, loc), false, loc);
  }
  return const_cast<Tensor&>(self);
}

Tensor unary_op(UnaryOp op, const char* name, const Tensor& x, bool float_result, const SourceLoc& loc) {
  detail::OpBuilder builder(name, loc);
  builder.add_input(x);
  if (float_result) builder.integer_to_float();  // sigmoid, exp, ... of integers
  detail::OpPlan p = builder.build();
  Tensor out = detail::make_empty(p.shape, p.dtype, p.device, loc);
  detail::kernels::unary(op, impl_of(out, loc), impl_of(p.inputs[0], loc));
  detail::autograd::record_unary(op, out, x, p.operands[0]);
  return out;
}

}  // namespace

ScalarType result_type(const Tensor& a, const Tensor& b) { return detail::result_type({&a, &b}, {}); }
ScalarType result_type(const Tensor& a, const Scalar& b) { return detail::result_type({&a}, {&b}); }
ScalarType result_type(const Scalar& a, const Tensor& b) { return detail::result_type({&b}, {&a}); }

std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b, SourceLoc loc) {
  return detail::broadcast_shape(a.vec(), b.vec(), loc);
}

#define TT_BINARY(fn, OP)                                                    \
  Tensor fn(const Tensor& a, const Tensor& b, SourceLoc loc) {               \
    return binary_op(BinaryOp::OP, #fn, a, Rhs{&b, nullptr}, 1, false, loc); \
  }                                                                          \
  Tensor fn(const Tensor& a, const Scalar& b, SourceLoc loc) {               \
    return binary_op(BinaryOp::OP, #fn, a, Rhs{nullptr, &b}, 1, false, loc); \
  }
TT_BINARY(mul, Mul)
TT_BINARY(div, Div)
TT_BINARY(eq, Eq)
TT_BINARY(ne, Ne)
TT_BINARY(lt, Lt)
TT_BINARY(le, Le)
TT_BINARY(gt, Gt)
TT_BINARY(ge, Ge)
#undef TT_BINARY

Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha, SourceLoc loc) {
  return binary_op(BinaryOp::Add, "add", a, Rhs{&b, nullptr}, alpha, false, loc);
}
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha, SourceLoc loc) {
  return binary_op(BinaryOp::Add, "add", a, Rhs{nullptr, &b}, alpha, false, loc);
}
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha, SourceLoc loc) {
  return binary_op(BinaryOp::Sub, "sub", a, Rhs{&b, nullptr}, alpha, false, loc);
}
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha, SourceLoc loc) {
  return binary_op(BinaryOp::Sub, "sub", a, Rhs{nullptr, &b}, alpha, false, loc);
}
Tensor rsub(const Tensor& a, const Scalar& b, SourceLoc loc) {
  return binary_op(BinaryOp::Sub, "rsub", a, Rhs{nullptr, &b}, 1, true, loc);
}
Tensor rdiv(const Tensor& a, const Scalar& b, SourceLoc loc) {
  return binary_op(BinaryOp::Div, "div", a, Rhs{nullptr, &b}, 1, true, loc);
}
Tensor pow(const Tensor& x, const Scalar& e, SourceLoc loc) {
  return binary_op(BinaryOp::Pow, "pow", x, Rhs{nullptr, &e}, 1, false, loc);
}
Tensor pow(const Tensor& x, const Tensor& e, SourceLoc loc) {
  return binary_op(BinaryOp::Pow, "pow", x, Rhs{&e, nullptr}, 1, false, loc);
}

Tensor relu(const Tensor& x, SourceLoc loc) {
  if (impl_of(x, loc).dtype == ScalarType::Bool) throw DTypeMismatchError("Boolean inputs not supported for relu", loc);
  return unary_op(UnaryOp::Relu, "relu", x, false, loc);
}
Tensor sigmoid(const Tensor& x, SourceLoc loc) { return unary_op(UnaryOp::Sigmoid, "sigmoid", x, true, loc); }
Tensor tanh(const Tensor& x, SourceLoc loc) { return unary_op(UnaryOp::Tanh, "tanh", x, true, loc); }
Tensor exp(const Tensor& x, SourceLoc loc) { return unary_op(UnaryOp::Exp, "exp", x, true, loc); }
Tensor log(const Tensor& x, SourceLoc loc) { return unary_op(UnaryOp::Log, "log", x, true, loc); }
Tensor sqrt(const Tensor& x, SourceLoc loc) { return unary_op(UnaryOp::Sqrt, "sqrt", x, true, loc); }
Tensor neg(const Tensor& x, SourceLoc loc) {
  if (impl_of(x, loc).dtype == ScalarType::Bool) {
    throw ValueError(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
        "`~` or `logical_not()` operator instead.",
        loc);
  }
  return unary_op(UnaryOp::Neg, "neg", x, false, loc);
}
Tensor abs(const Tensor& x, SourceLoc loc) {
  if (impl_of(x, loc).dtype == ScalarType::Bool)
    throw DTypeMismatchError("\"abs_cpu\" not implemented for 'Bool'", loc);
  return unary_op(UnaryOp::Abs, "abs", x, false, loc);
}

Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max, SourceLoc loc) {
  if (!min && !max) throw ValueError("torch.clamp: At least one of 'min' or 'max' must not be None", loc);
  const auto& xi = impl_of(x, loc);
  if (xi.dtype == ScalarType::Bool) throw DTypeMismatchError("\"clamp_cpu\" not implemented for 'Bool'", loc);
  detail::OpBuilder builder("clamp", loc);
  builder.add_input(x);
  if (min) builder.promote_with(*min);
  if (max) builder.promote_with(*max);
  detail::OpPlan p = builder.build();
  Tensor out = detail::make_empty(p.shape, p.dtype, p.device, loc);
  detail::kernels::clamp(impl_of(out, loc), impl_of(p.inputs[0], loc),
                         min ? std::optional<double>(min->to_double()) : std::nullopt,
                         max ? std::optional<double>(max->to_double()) : std::nullopt);
  detail::autograd::record_clamp(out, x, p.operands[0], min, max);
  return out;
}

// --- Tensor methods: arithmetic, in-place ------------------------------------
Tensor& Tensor::add_(const Tensor& o, const Scalar& alpha, SourceLoc loc) const {
  return inplace_op(BinaryOp::Add, "add_", *this, Rhs{&o, nullptr}, alpha, loc);
}
Tensor& Tensor::add_(const Scalar& o, const Scalar& alpha, SourceLoc loc) const {
  return inplace_op(BinaryOp::Add, "add_", *this, Rhs{nullptr, &o}, alpha, loc);
}
Tensor& Tensor::sub_(const Tensor& o, const Scalar& alpha, SourceLoc loc) const {
  return inplace_op(BinaryOp::Sub, "sub_", *this, Rhs{&o, nullptr}, alpha, loc);
}
Tensor& Tensor::sub_(const Scalar& o, const Scalar& alpha, SourceLoc loc) const {
  return inplace_op(BinaryOp::Sub, "sub_", *this, Rhs{nullptr, &o}, alpha, loc);
}
Tensor& Tensor::mul_(const Tensor& o, SourceLoc loc) const {
  return inplace_op(BinaryOp::Mul, "mul_", *this, Rhs{&o, nullptr}, 1, loc);
}
Tensor& Tensor::mul_(const Scalar& o, SourceLoc loc) const {
  return inplace_op(BinaryOp::Mul, "mul_", *this, Rhs{nullptr, &o}, 1, loc);
}
Tensor& Tensor::div_(const Tensor& o, SourceLoc loc) const {
  return inplace_op(BinaryOp::Div, "div_", *this, Rhs{&o, nullptr}, 1, loc);
}
Tensor& Tensor::div_(const Scalar& o, SourceLoc loc) const {
  return inplace_op(BinaryOp::Div, "div_", *this, Rhs{nullptr, &o}, 1, loc);
}

// --- operators ------------------------------------------------------------------
using detail::LocatedScalar;
using detail::LocatedTensor;

Tensor operator+(LocatedTensor a, const Tensor& b) { return add(a.tensor, b, 1, a.loc); }
Tensor operator+(LocatedTensor a, const Scalar& b) { return add(a.tensor, b, 1, a.loc); }
Tensor operator+(LocatedScalar a, const Tensor& b) { return add(b, a.value, 1, a.loc); }
Tensor operator-(LocatedTensor a, const Tensor& b) { return sub(a.tensor, b, 1, a.loc); }
Tensor operator-(LocatedTensor a, const Scalar& b) { return sub(a.tensor, b, 1, a.loc); }
Tensor operator-(LocatedScalar a, const Tensor& b) { return rsub(b, a.value, a.loc); }
Tensor operator*(LocatedTensor a, const Tensor& b) { return mul(a.tensor, b, a.loc); }
Tensor operator*(LocatedTensor a, const Scalar& b) { return mul(a.tensor, b, a.loc); }
Tensor operator*(LocatedScalar a, const Tensor& b) { return mul(b, a.value, a.loc); }
Tensor operator/(LocatedTensor a, const Tensor& b) { return div(a.tensor, b, a.loc); }
Tensor operator/(LocatedTensor a, const Scalar& b) { return div(a.tensor, b, a.loc); }
Tensor operator/(LocatedScalar a, const Tensor& b) { return rdiv(b, a.value, a.loc); }
Tensor operator-(LocatedTensor a) { return neg(a.tensor, a.loc); }
Tensor operator==(LocatedTensor a, const Tensor& b) { return eq(a.tensor, b, a.loc); }
Tensor operator==(LocatedTensor a, const Scalar& b) { return eq(a.tensor, b, a.loc); }
Tensor operator!=(LocatedTensor a, const Tensor& b) { return ne(a.tensor, b, a.loc); }
Tensor operator!=(LocatedTensor a, const Scalar& b) { return ne(a.tensor, b, a.loc); }
Tensor operator<(LocatedTensor a, const Tensor& b) { return lt(a.tensor, b, a.loc); }
Tensor operator<(LocatedTensor a, const Scalar& b) { return lt(a.tensor, b, a.loc); }
Tensor operator<=(LocatedTensor a, const Tensor& b) { return le(a.tensor, b, a.loc); }
Tensor operator<=(LocatedTensor a, const Scalar& b) { return le(a.tensor, b, a.loc); }
Tensor operator>(LocatedTensor a, const Tensor& b) { return gt(a.tensor, b, a.loc); }
Tensor operator>(LocatedTensor a, const Scalar& b) { return gt(a.tensor, b, a.loc); }
Tensor operator>=(LocatedTensor a, const Tensor& b) { return ge(a.tensor, b, a.loc); }
Tensor operator>=(LocatedTensor a, const Scalar& b) { return ge(a.tensor, b, a.loc); }
Tensor& operator+=(Tensor& a, LocatedTensor b) { return a.add_(b.tensor, 1, b.loc); }
Tensor& operator+=(Tensor& a, LocatedScalar b) { return a.add_(b.value, 1, b.loc); }
Tensor& operator-=(Tensor& a, LocatedTensor b) { return a.sub_(b.tensor, 1, b.loc); }
Tensor& operator-=(Tensor& a, LocatedScalar b) { return a.sub_(b.value, 1, b.loc); }
Tensor& operator*=(Tensor& a, LocatedTensor b) { return a.mul_(b.tensor, b.loc); }
Tensor& operator*=(Tensor& a, LocatedScalar b) { return a.mul_(b.value, b.loc); }
Tensor& operator/=(Tensor& a, LocatedTensor b) { return a.div_(b.tensor, b.loc); }
Tensor& operator/=(Tensor& a, LocatedScalar b) { return a.div_(b.value, b.loc); }

}  // namespace tt
