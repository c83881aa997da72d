// ScalarType: element types and PyTorch's promotion lattice. Mirrors
// c10/core/ScalarType.h (names, printing) and promoteTypes/canCast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

namespace tt {

/// Element type of a tensor. Printed with c10's names (Float, Half, Long...)
/// because PyTorch's error messages use them.
enum class ScalarType : int8_t {
  Byte = 0,   // uint8
  Char,       // int8
  Short,      // int16 (needed by promotion: uint8 + int8 -> int16)
  Int,        // int32
  Long,       // int64
  Half,       // float16
  BFloat16,
  Float,      // float32
  Double,     // float64
  Bool,
  Undefined,
};

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kUInt8 = ScalarType::Byte;
constexpr ScalarType kInt8 = ScalarType::Char;
constexpr ScalarType kInt16 = ScalarType::Short;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat64 = ScalarType::Double;
// c10's aliases.
constexpr ScalarType kByte = kUInt8;
constexpr ScalarType kChar = kInt8;
constexpr ScalarType kShort = kInt16;
constexpr ScalarType kInt = kInt32;
constexpr ScalarType kLong = kInt64;
constexpr ScalarType kHalf = kFloat16;
constexpr ScalarType kFloat = kFloat32;
constexpr ScalarType kDouble = kFloat64;

/// Bytes per element.
size_t element_size(ScalarType t);
/// c10 name: "Float", "Half", "BFloat16", "Long", ...
std::string_view to_string(ScalarType t);
/// Python name without the module: "float32", "float16", "int64", ...
/// (used in the validation log, where readers know the torch.* spelling).
std::string_view python_name(ScalarType t);

constexpr bool is_floating_type(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || t == ScalarType::Float || t == ScalarType::Double;
}
/// Integral types; bool counts only when include_bool (c10::isIntegralType).
constexpr bool is_integral_type(ScalarType t, bool include_bool) {
  return (t >= ScalarType::Byte && t <= ScalarType::Long) || (include_bool && t == ScalarType::Bool);
}

/// c10::promoteTypes: the smallest type both operands convert to without
/// losing range. Bool < integers < floats; uint8+int8 -> int16;
/// float16+bfloat16 -> float32.
ScalarType promote_types(ScalarType a, ScalarType b);

/// c10::canCast: whether an in-place op may write a `from` result into a
/// `to` tensor (no float -> integral, no non-bool -> bool).
bool can_cast(ScalarType from, ScalarType to);

/// The default floating dtype (PyTorch's torch.get_default_dtype()): float32.
constexpr ScalarType default_dtype() { return ScalarType::Float; }

std::ostream& operator<<(std::ostream& os, ScalarType t);

}  // namespace tt
