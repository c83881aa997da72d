// Dtype names, sizes and c10's promotion/cast rules.
#include "tt/scalar_type.h"

#include <ostream>

#include "tt/half.h"
#include "tt/int_array_ref.h"
#include "tt/promotion_table.h"
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

// The order of tt::ScalarType is the table's (promotion_table.h says so;
// the static_asserts hold it).
static_assert(static_cast<int>(ScalarType::Byte) == promotion::u1 &&
              static_cast<int>(ScalarType::Half) == promotion::f2 &&
              static_cast<int>(ScalarType::BFloat16) == promotion::bf &&
              static_cast<int>(ScalarType::Double) == promotion::f8 &&
              static_cast<int>(ScalarType::Bool) == promotion::b1 &&
              static_cast<int>(ScalarType::Undefined) == promotion::kCount);

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return static_cast<ScalarType>(
      promotion::promote(static_cast<promotion::Index>(a), static_cast<promotion::Index>(b)));
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
