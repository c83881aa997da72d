// Scalar: a C++ number passed to an op. PyTorch treats it as a "wrapped
// number", the lowest priority in result_type.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "tt/half.h"
#include "tt/scalar_type.h"

namespace tt {

/// Any C++ arithmetic type, Half or BFloat16: what converts to a Scalar.
template <class T>
concept ScalarLike = std::is_arithmetic_v<T> || std::same_as<T, Half> || std::same_as<T, BFloat16>;

/// A number with a category: bool, integral (kept as int64) or floating
/// (kept as double). The category, not the C++ width, is what type
/// promotion looks at (mirrors c10::Scalar).
class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  template <ScalarLike T>
  /* implicit */ Scalar(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      type_ = ScalarType::Bool;
      i_ = v ? 1 : 0;
      d_ = i_;
    } else if constexpr (std::is_integral_v<T>) {
      type_ = ScalarType::Long;
      i_ = static_cast<int64_t>(v);
      d_ = static_cast<double>(v);
    } else {
      type_ = ScalarType::Double;
      d_ = static_cast<double>(v);
      i_ = 0;
    }
  }

  /// kBool, kLong or kDouble: the category of the number.
  ScalarType type() const noexcept { return type_; }
  bool is_floating_point() const noexcept { return type_ == ScalarType::Double; }
  bool is_integral() const noexcept { return type_ == ScalarType::Long; }
  bool is_boolean() const noexcept { return type_ == ScalarType::Bool; }
  double to_double() const noexcept { return type_ == ScalarType::Double ? d_ : static_cast<double>(i_); }
  int64_t to_long() const noexcept { return type_ == ScalarType::Double ? static_cast<int64_t>(d_) : i_; }
  bool to_bool() const noexcept { return type_ == ScalarType::Double ? d_ != 0.0 : i_ != 0; }
  Scalar operator-() const;

 private:
  ScalarType type_;
  int64_t i_;
  double d_;
};

}  // namespace tt
