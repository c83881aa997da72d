// Tensor factories. Defaults follow PyTorch: cpu, float32 (or the dtype the
// value implies where PyTorch infers one), no grad. Every factory checks its
// options at the caller's site: CudaUnavailableError for a cuda device
// without a CUDA backend, ValueError "Trying to create tensor with negative
// dimension -1: [-1, 2]", ValueError "Only Tensors of floating point and
// complex dtype can require gradients".
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <source_location>
#include <vector>

#include "tt/tensor.h"

namespace tt {

/// Uninitialised storage.
Tensor empty(IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor zeros(IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor ones(IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
/// Filled with value; without a dtype in options, the dtype follows the value
/// (bool -> bool, integral -> int64, floating -> float32), as torch.full.
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor empty_like(const Tensor& t, SourceLoc loc = SourceLoc::current());
Tensor zeros_like(const Tensor& t, SourceLoc loc = SourceLoc::current());
Tensor ones_like(const Tensor& t, SourceLoc loc = SourceLoc::current());

/// [start, end) by step, 1-D. int64 unless an argument is floating (then
/// float32), as torch.arange. ValueError "step must be nonzero" and "upper
/// bound and larger bound inconsistent with step sign".
Tensor arange(const Scalar& end, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options = {},
              SourceLoc loc = SourceLoc::current());

/// Uniform on [0, 1) / standard normal, from the global generator
/// (manual_seed). Floating dtypes only (DTypeMismatchError otherwise).
Tensor rand(IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor randn(IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
/// Seeds the global generator used by rand/randn.
void manual_seed(uint64_t seed);

namespace detail {
// torch::tensor's dtype for a C++ element type (TensorDataContainer's
// compute_desired_dtype): int/long -> int64, float/double -> the default
// float dtype, anything else its own type.
template <class T>
constexpr ScalarType literal_dtype() {
  if constexpr (std::is_same_v<T, bool>)
    return ScalarType::Bool;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ScalarType::Byte;
  else if constexpr (std::is_same_v<T, int8_t>)
    return ScalarType::Char;
  else if constexpr (std::is_same_v<T, int16_t>)
    return ScalarType::Short;
  else if constexpr (std::is_integral_v<T>)
    return ScalarType::Long;
  else if constexpr (std::is_same_v<T, Half>)
    return ScalarType::Half;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return ScalarType::BFloat16;
  else
    return default_dtype();
}
// Builds a tensor of `dtype` from doubles (exact for every value the
// literals can hold except int64 beyond 2^53, which goes through `ints`).
Tensor tensor_from_values(const std::vector<double>& values, const std::vector<int64_t>* ints,
                          std::vector<int64_t> sizes, ScalarType literal, TensorOptions options, SourceLoc loc);
template <class T>
void append_value(std::vector<double>& d, std::vector<int64_t>& i, T v) {
  d.push_back(static_cast<double>(v));
  if constexpr (std::is_integral_v<T>)
    i.push_back(static_cast<int64_t>(v));
  else
    i.push_back(0);
}
}  // namespace detail

/// torch::tensor: a 0-dim tensor from one value (`tensor(2.0)` is float32,
/// `tensor(2)` int64, `tensor(true)` bool).
template <ScalarLike T>
Tensor tensor(T value, TensorOptions options = {}, SourceLoc loc = SourceLoc::current()) {
  std::vector<double> d;
  std::vector<int64_t> i;
  detail::append_value(d, i, value);
  return detail::tensor_from_values(d, &i, {}, detail::literal_dtype<T>(), options, loc);
}
/// A 1-D tensor from a list of values.
template <ScalarLike T>
Tensor tensor(std::initializer_list<T> values, TensorOptions options = {}, SourceLoc loc = SourceLoc::current()) {
  std::vector<double> d;
  std::vector<int64_t> i;
  for (T v : values) detail::append_value(d, i, v);
  return detail::tensor_from_values(d, &i, {static_cast<int64_t>(values.size())}, detail::literal_dtype<T>(), options,
                                    loc);
}
template <ScalarLike T>
Tensor tensor(const std::vector<T>& values, TensorOptions options = {}, SourceLoc loc = SourceLoc::current()) {
  std::vector<double> d;
  std::vector<int64_t> i;
  for (T v : values) detail::append_value(d, i, v);
  return detail::tensor_from_values(d, &i, {static_cast<int64_t>(values.size())}, detail::literal_dtype<T>(), options,
                                    loc);
}
/// A 2-D tensor from nested lists; ShapeError if the rows differ in length.
template <ScalarLike T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> rows, TensorOptions options = {},
              SourceLoc loc = SourceLoc::current()) {
  std::vector<double> d;
  std::vector<int64_t> i;
  int64_t cols = rows.size() ? static_cast<int64_t>(rows.begin()->size()) : 0;
  std::vector<int64_t> sizes{static_cast<int64_t>(rows.size()), cols};
  for (const auto& r : rows) {
    if (static_cast<int64_t>(r.size()) != cols) sizes = {-1};  // ragged: reported by tensor_from_values
    for (T v : r) detail::append_value(d, i, v);
  }
  return detail::tensor_from_values(d, &i, sizes, detail::literal_dtype<T>(), options, loc);
}

/// Wraps caller-owned memory without copying (contiguous strides unless
/// given). The memory must outlive the tensor and every view of it; the
/// device in options says where it lives. `deleter` (if any) runs when the
/// last tensor sharing it dies.
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {},
                 SourceLoc loc = SourceLoc::current());
Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter, TensorOptions options = {},
                 SourceLoc loc = SourceLoc::current());

}  // namespace tt
