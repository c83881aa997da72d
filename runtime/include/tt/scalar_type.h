// ScalarType: element types and PyTorch's promotion lattice. Mirrors
// c10/core/ScalarType.h (names, printing) and promoteTypes/canCast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

namespace tt {

struct Half;
struct BFloat16;

/// The one list of tt's dtypes, as c10's AT_FORALL_SCALAR_TYPES: every
/// per-dtype table (the enum, names, sizes, the C++ type of each dtype in the
/// cpu and cuda kernels) expands it, so a dtype is added in one place.
/// _(C++ element type, c10 name, Python name). The order is the enum's.
/// Short (int16) is needed by promotion: uint8 + int8 -> int16.
#define TT_FORALL_SCALAR_TYPES(_)       \
  _(uint8_t, Byte, uint8)               \
  _(int8_t, Char, int8)                 \
  _(int16_t, Short, int16)              \
  _(int32_t, Int, int32)                \
  _(int64_t, Long, int64)               \
  _(::tt::Half, Half, float16)          \
  _(::tt::BFloat16, BFloat16, bfloat16) \
  _(float, Float, float32)              \
  _(double, Double, float64)            \
  _(bool, Bool, bool)

/// Element type of a tensor. Printed with c10's names (Float, Half, Long...)
/// because PyTorch's error messages use them.
enum class ScalarType : int8_t {
#define TT_DEFINE_ENUM(ctype, name, py) name,
  TT_FORALL_SCALAR_TYPES(TT_DEFINE_ENUM)
#undef TT_DEFINE_ENUM
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
