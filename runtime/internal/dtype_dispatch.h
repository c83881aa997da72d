// Internal: runs a generic lambda with the C++ type of a ScalarType; the
// scalar semantics (opmath, convert) come with it from scalar_math.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "scalar_math.h"
#include "tt/half.h"
#include "tt/scalar_type.h"

namespace tt::detail {

template <class T>
struct TypeTag {
  using type = T;
};

template <class T>
constexpr ScalarType scalar_type_of();
#define TT_SCALAR_TYPE_OF(ctype, name, py)       \
  template <>                                    \
  constexpr ScalarType scalar_type_of<ctype>() { \
    return ScalarType::name;                     \
  }
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

}  // namespace tt::detail
