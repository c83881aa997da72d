// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// torch::tensor takes each value's scalar type from its C++ type (float is
// float32, double float64, int int32, int64_t int64) and throws "Expected
// all elements of the tensor to have the same scalar type" when the values
// of one list disagree: it does not promote them, whatever dtype the
// options ask for (torch/detail/TensorDataContainer.h).

#include <torch/torch.h>
#include <vector>

// --- Bugs --------------------------------------------------------------------

// pytorch/pytorch#68132: `2.` is a double, so `one / 2.` is one.
torch::Tensor half_step(float zero, float one) {
  return torch::tensor({zero, one / 2.}, {torch::kFloat32});
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'one / 2.' is float64 but the first value of its list, 'zero', is float32: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
  // CHECK-FIXES: return torch::tensor({zero, one / 2.f}, {torch::kFloat32});
}

torch::Tensor literal_among_floats(float scale) {
  return torch::tensor({scale, 0.25});
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '0.25' is float64 but the first value of its list, 'scale', is float32: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
  // CHECK-FIXES: return torch::tensor({scale, 0.25f});
}

torch::Tensor int_and_double() {
  return torch::tensor({1, 2.5});
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '2.5' is float64 but the first value of its list, '1', is int32: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
}

// A nested list's scalar type is its first value's.
torch::Tensor rows_of_two_types() {
  return torch::tensor({{1.0, 2.0}, {3, 4}});
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: '{3, 4}' is int32 but the first value of its list, '{1.0, 2.0}', is float64: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
}

// int64_t sizes beside an int literal.
torch::Tensor shape_tensor(int64_t batch) {
  return torch::tensor({batch, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '3' is int32 but the first value of its list, 'batch', is int64: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
}

torch::Tensor hyperparameters(float lr, double momentum) {
  return torch::tensor({lr, momentum});
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'momentum' is float64 but the first value of its list, 'lr', is float32: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
}

torch::Tensor vectors(const std::vector<float> &a, const std::vector<double> &b) {
  return torch::tensor({a, b});
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'b' is float64 but the first value of its list, 'a', is float32: torch::tensor takes values of one scalar type and throws [tensor-mixed-dtype]
}

// --- Clean -------------------------------------------------------------------

torch::Tensor half_step_fixed(float zero, float one) {
  return torch::tensor({zero, one / 2.f}, {torch::kFloat32});
}

torch::Tensor literal_among_floats_fixed(float scale) {
  return torch::tensor({scale, 0.25f});
}

torch::Tensor ints() { return torch::tensor({1, 2, 3}); }

torch::Tensor doubles() { return torch::tensor({0.5, 0.25}); }

torch::Tensor rows_of_doubles() { return torch::tensor({{1.0, 2.0}, {3.0, 4.0}}); }

torch::Tensor shape_tensor_fixed(int64_t batch) {
  return torch::tensor({batch, int64_t{3}});
}

// The options convert the values once they agree; they do not make them agree.
torch::Tensor doubles_as_float32() {
  return torch::tensor({1.0, 2.0}, torch::kFloat32);
}

torch::Tensor one_value(float x) { return torch::tensor({x}); }

torch::Tensor scalar() { return torch::tensor(2.5); }

torch::Tensor from_vector(const std::vector<double> &v) { return torch::tensor(v); }

torch::Tensor float_expressions(float a, float b) {
  return torch::tensor({{a * 2.f, b}, {a, b + 1.f}});
}

torch::Tensor hyperparameters_fixed(float lr, double momentum) {
  return torch::tensor({static_cast<double>(lr), momentum});
}

torch::Tensor flags() { return torch::tensor({true, false}); }
