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
template <> constexpr ScalarType scalar_type_of<bool>() { return ScalarType::Bool; }
template <> constexpr ScalarType scalar_type_of<uint8_t>() { return ScalarType::Byte; }
template <> constexpr ScalarType scalar_type_of<int8_t>() { return ScalarType::Char; }
template <> constexpr ScalarType scalar_type_of<int16_t>() { return ScalarType::Short; }
template <> constexpr ScalarType scalar_type_of<int32_t>() { return ScalarType::Int; }
template <> constexpr ScalarType scalar_type_of<int64_t>() { return ScalarType::Long; }
template <> constexpr ScalarType scalar_type_of<Half>() { return ScalarType::Half; }
template <> constexpr ScalarType scalar_type_of<BFloat16>() { return ScalarType::BFloat16; }
template <> constexpr ScalarType scalar_type_of<float>() { return ScalarType::Float; }
template <> constexpr ScalarType scalar_type_of<double>() { return ScalarType::Double; }

// f(TypeTag<T>{}) for the C++ type of t. Undefined is a programming error.
template <class F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: return f(TypeTag<bool>{});
    case ScalarType::Byte: return f(TypeTag<uint8_t>{});
    case ScalarType::Char: return f(TypeTag<int8_t>{});
    case ScalarType::Short: return f(TypeTag<int16_t>{});
    case ScalarType::Int: return f(TypeTag<int32_t>{});
    case ScalarType::Long: return f(TypeTag<int64_t>{});
    case ScalarType::Half: return f(TypeTag<Half>{});
    case ScalarType::BFloat16: return f(TypeTag<BFloat16>{});
    case ScalarType::Float: return f(TypeTag<float>{});
    case ScalarType::Double: return f(TypeTag<double>{});
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
