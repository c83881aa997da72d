// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// torch::from_blob reads the caller's buffer as the dtype its options give,
// float32 when they give none: a buffer whose C++ elements are another type
// gives garbage values, not an error. Byte buffers (an image's pixels) and
// buffers cast to void* are taken to be reinterpreted on purpose.
#include <torch/torch.h>
#include <array>
#include <complex>
#include <utility>
#include <vector>

// --- Bugs --------------------------------------------------------------------

torch::Tensor doubles_as_default(std::vector<double> &state) {
  return torch::from_blob(state.data(), {static_cast<int64_t>(state.size())});
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'state.data()', a buffer of 'double', as float32; its elements are float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no dtype given: the default dtype, float32
}

// A buffer of vectors holds their pointers and sizes, not the numbers.
torch::Tensor nested_vectors(std::vector<std::vector<int>> &rows) {
  auto options = torch::TensorOptions().dtype(torch::kInt32);
  return torch::from_blob(rows.data(), {static_cast<int64_t>(rows.size()), 2}, options);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'rows.data()', a buffer of 'std::vector<int>' objects, as int32; their bytes are pointers and sizes, not the values they hold [tensor-mixed-dtype]
}

torch::Tensor strings(std::vector<std::string> &names) {
  return torch::from_blob(names.data(), {static_cast<int64_t>(names.size())}, torch::kByte);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'names.data()', a buffer of 'std::basic_string<char>' objects, as uint8; their bytes are pointers and sizes, not the values they hold [tensor-mixed-dtype]
}

torch::Tensor floats_as_double() {
  static float values[] = {1, 2, 3, 4, 5};
  return torch::from_blob(values, {5}, torch::kFloat64);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'values', a buffer of 'float', as float64; its elements are float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:40: note: float64 is asked for here
}

torch::Tensor int_label(std::vector<std::pair<std::string, int>> &data, size_t i) {
  return torch::from_blob(&data[i].second, {1}, torch::kLong).clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads '&data[i].second', a buffer of 'int', as int64; its elements are int32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:49: note: int64 is asked for here
}

torch::Tensor options_variable(std::vector<float> &features) {
  auto options = torch::TensorOptions().dtype(torch::kFloat64).requires_grad(false);
  return torch::from_blob(features.data(), {2, 3}, options);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'features.data()', a buffer of 'float', as float64; its elements are float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:52: note: float64 is asked for here
}

torch::Tensor longs_as_int(int64_t *ids, int64_t n) {
  return torch::from_blob(ids, {n}, torch::TensorOptions().dtype(torch::kInt32));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'ids', a buffer of 'int64_t' (aka 'long'), as int32; its elements are int64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: int32 is asked for here
}

// --- Clean -------------------------------------------------------------------

torch::Tensor doubles_as_double(std::vector<double> &state) {
  return torch::from_blob(state.data(), {static_cast<int64_t>(state.size())}, torch::kFloat64);
}

torch::Tensor floats_as_default(float *values, int64_t n) {
  return torch::from_blob(values, {n}).clone();
}

torch::Tensor pixels(unsigned char *data, int64_t h, int64_t w) {
  auto bytes = torch::from_blob(data, {h, w, 3}, torch::kByte);
  auto raw = torch::from_blob(data, {h, w}, torch::kFloat32); // bytes read as floats on purpose
  return bytes.to(torch::kFloat) + raw.sum();
}

torch::Tensor cast_to_void(std::vector<double> &state) {
  return torch::from_blob(static_cast<void *>(state.data()), {2});
}

torch::Tensor dtype_not_known(int *labels, int64_t n, torch::Dtype dtype,
                              const torch::TensorOptions &options) {
  return torch::from_blob(labels, {n}, dtype) + torch::from_blob(labels, {n}, options);
}

torch::Tensor int_as_int(int &label, std::vector<at::Half> &half) {
  return torch::from_blob(&label, {1}, torch::kInt32).to(torch::kLong) +
         torch::from_blob(half.data(), {1}, torch::kHalf);
}

// Classes that hold their values inline: a struct of floats, std::array,
// std::complex. Their bytes are the values; the sizes say how many.
struct Point {
  float x, y, z;
};

torch::Tensor inline_values(std::vector<Point> &points, std::vector<std::array<float, 3>> &rows,
                            std::vector<std::complex<float>> &spectrum) {
  const auto n = static_cast<int64_t>(points.size());
  return torch::from_blob(points.data(), {n, 3}) + torch::from_blob(rows.data(), {n, 3}) +
         torch::view_as_real(torch::from_blob(spectrum.data(), {n}, torch::kComplexFloat)).sum();
}

// A vector of vectors read row by row: each row's data() is numbers.
torch::Tensor row_by_row(std::vector<std::vector<float>> &rows) {
  std::vector<torch::Tensor> out;
  for (auto &r : rows)
    out.push_back(torch::from_blob(r.data(), {static_cast<int64_t>(r.size())}).clone());
  return torch::stack(out);
}
