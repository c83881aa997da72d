// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// data_ptr<T>(), accessor<T, N>() and their kin read a tensor's memory as
// T, and ATen checks T against the tensor's dtype ("expected scalar type
// Float but found Byte"): reported where the dtype is known and is not T's.

#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

void bugs(torch::Tensor logits) {
  // An image made bytes for display, read as float (pytorch/pytorch#20011).
  auto image = torch::rand({3, 4, 4});
  auto bytes = image.mul(255).to(torch::kByte);
  float *pixels = bytes.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'data_ptr' reads 'bytes' as float32, but it is uint8: ATen checks the element type and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: 'bytes' is uint8: converted here

  // argmax gives int64 indices.
  auto predicted = logits.argmax(1);
  int *labels = predicted.data_ptr<int>();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'data_ptr' reads 'predicted' as int32, but it is int64: ATen checks the element type and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'predicted' is int64: computed here

  // torch::tensor of ints is int64, as in Python.
  auto ids = torch::tensor({1, 2, 3});
  int *raw_ids = ids.data_ptr<int>();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'data_ptr' reads 'ids' as int32, but it is int64: ATen checks the element type and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'ids' is int64: created here

  auto weights = torch::zeros({2, 2}, torch::kFloat64);
  auto w = weights.accessor<float, 2>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'accessor' reads 'weights' as float32, but it is float64: ATen checks the element type and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'weights' is float64: created here

  // A float tensor read as bytes.
  uint8_t *raw = image.data_ptr<uint8_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'data_ptr' reads 'image' as uint8, but it is float32: ATen checks the element type and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-26]]:16: note: 'image' is float32: created here
  (void)pixels, (void)labels, (void)raw_ids, (void)w, (void)raw;
}

// --- Clean -------------------------------------------------------------------

void clean(torch::Tensor unknown, torch::Tensor logits) {
  auto image = torch::rand({3, 4, 4});
  float *pixels = image.data_ptr<float>();
  auto bytes = image.mul(255).to(torch::kByte);
  uint8_t *raw = bytes.data_ptr<uint8_t>();
  unsigned char *raw2 = bytes.data_ptr<unsigned char>();
  int64_t *steps = torch::arange(4).data_ptr<int64_t>();
  int64_t *labels = logits.argmax(1).data_ptr<int64_t>();
  void *untyped = image.data_ptr();               // no element type
  float *anything = unknown.data_ptr<float>();    // dtype not known
  auto half = image.to(torch::kHalf);
  at::Half *halves = half.data_ptr<at::Half>();
  auto a = image.accessor<float, 3>();
  float largest = bytes.max().item<float>();      // item converts
  auto converted = bytes.to(torch::kFloat).div(255);
  float *normalised = converted.data_ptr<float>();
  auto mask = image > 0.5;
  bool *flags = mask.data_ptr<bool>();
  auto values = torch::tensor({1.0, 2.0}, torch::kFloat64);
  double *doubles = values.data_ptr<double>();
  (void)pixels, (void)raw, (void)raw2, (void)steps, (void)labels;
  (void)untyped, (void)anything, (void)halves, (void)a, (void)largest;
  (void)normalised, (void)flags, (void)doubles;
}
