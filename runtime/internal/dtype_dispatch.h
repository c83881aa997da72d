// Internal: runs a generic lambda with the C++ type of a ScalarType.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tt/half.h"
#include "tt/scalar_type.h"

namespace tt::detail {

template <class T>
struct TypeTag { using type = T; };

template <class T> constexpr ScalarType scalar_type_of();
#define TT_SCALAR_TYPE_OF(ctype, name, py) \
  template <> constexpr ScalarType scalar_type_of<ctype>() { return ScalarType::name; }
TT_FORALL_SCALAR_TYPES(TT_SCALAR_TYPE_OF)
#undef TT_SCALAR_TYPE_OF

// f(TypeTag<T>{}) for the C++ type of t. Undefined is a programming error.
template <class F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
#define TT_CASE(ctype, name, py) \
  case ScalarType::name: return f(TypeTag<ctype>{});
    TT_FORALL_SCALAR_TYPES(TT_CASE)
#undef TT_CASE
    default: __builtin_unreachable();
  }
}

// The type arithmetic runs in: float for the 16-bit floats (c10's acc/opmath type).
template <class T> struct OpMath { using type = T; };
template <> struct OpMath<Half> { using type = float; };
template <> struct OpMath<BFloat16> { using type = float; };
template <class T> using opmath_t = typename OpMath<T>::type;

// Value conversion with PyTorch's semantics: to bool is "!= 0", 16-bit floats
// go through float.
template <class To, class From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return static_cast<opmath_t<From>>(v) != opmath_t<From>(0);
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(static_cast<opmath_t<From>>(v)));
  } else {
    return static_cast<To>(static_cast<opmath_t<From>>(v));
  }
}

}  // namespace tt::detail
