//===--- ScalarTypes.h - The dtypes the checks know -----------------------===//
//
// c10::ScalarType's floating, integral and boolean members (tt mirrors
// them): what ApiModel reads from a ScalarType enumerator and what the
// analysis' lattice holds. No dependencies, so both can use it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_SCALARTYPES_H
#define TENSOR_TIDY_CHECKS_SCALARTYPES_H

#include <cstdint>

namespace clang::tidy::tensor {

enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_SCALARTYPES_H
