// Dtype names, sizes and c10's promotion/cast rules.
#include "tt/scalar_type.h"

#include <ostream>

#include "tt/half.h"
#include "tt/int_array_ref.h"
#include "tt/scalar.h"

namespace tt {

size_t element_size(ScalarType t) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return sizeof(ctype);
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: return 0;
  }
}

std::string_view to_string(ScalarType t) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return #name;
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: return "Undefined";
  }
}

std::string_view python_name(ScalarType t) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return #py;
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: return "undefined";
  }
}

namespace {
int float_rank(ScalarType t) {  // float16 and bfloat16 share a rank; their join is float32
  switch (t) {
    case ScalarType::Half: case ScalarType::BFloat16: return 0;
    case ScalarType::Float: return 1;
    default: return 2;
  }
}
}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  const bool fa = is_floating_type(a), fb = is_floating_type(b);
  if (fa && fb) {
    const int ra = float_rank(a), rb = float_rank(b);
    if (ra == rb) return ScalarType::Float;  // Half vs BFloat16
    return ra > rb ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integral. uint8 is the only unsigned type: with a signed type it
  // needs one more bit, so int8 becomes int16.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    const ScalarType s = a == ScalarType::Byte ? b : a;
    return s == ScalarType::Char ? ScalarType::Short : s;
  }
  return element_size(a) >= element_size(b) ? a : b;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && is_integral_type(to, false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << to_string(t); }

std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<float>(h); }
std::ostream& operator<<(std::ostream& os, BFloat16 h) { return os << static_cast<float>(h); }

bool IntArrayRef::operator==(const IntArrayRef& o) const noexcept {
  if (size_ != o.size_) return false;
  for (size_t i = 0; i < size_; ++i)
    if (data_[i] != o.data_[i]) return false;
  return true;
}

std::ostream& operator<<(std::ostream& os, IntArrayRef a) {
  os << '[';
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << ']';
}

Scalar Scalar::operator-() const {
  if (type_ == ScalarType::Double) return Scalar(-d_);
  if (type_ == ScalarType::Long) return Scalar(-i_);
  return Scalar(static_cast<int64_t>(-i_));
}

}  // namespace tt
