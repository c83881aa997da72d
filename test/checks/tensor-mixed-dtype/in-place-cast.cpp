// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// An in-place op keeps its tensor's dtype: ATen computes the promoted
// dtype of its operands, as the out-of-place op would, and casts the
// result back, which it refuses from a floating dtype into an integer one
// and into bool (c10::canCast: "result type Float can't be cast to the
// desired output type Byte").
#include <torch/torch.h>
#include <cstdint>
#include <vector>

void normalise_camera_frame(std::vector<uint8_t> &pixels) {
  auto img = torch::from_blob(pixels.data(), {480, 640, 3}, torch::kByte);
  img = img.permute({2, 0, 1}).contiguous();
  img.div_(255.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'div_' computes in float32 but writes its result back into 'img', which is uint8: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'img' is uint8: created here
}

void scale_counts(int64_t n) {
  auto counts = torch::zeros({n}, torch::kLong);
  counts *= 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'operator*=' computes in float32 but writes its result back into 'counts', which is int64: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'counts' is int64: created here
}

void mask_plus_one() {
  auto mask = torch::ones({4}, torch::kBool);
  mask.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 'add_' computes in int64 but writes its result back into 'mask', which is bool: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'mask' is bool: created here
}

void integer_plus_float_tensor() {
  auto ids = torch::arange(8, torch::kInt32);
  ids.add_(torch::randn({8}));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'add_' computes in float32 but writes its result back into 'ids', which is int32: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'ids' is int32: created here
}

// Clean: the result's dtype can be cast to the tensor's.
void float_frame(std::vector<uint8_t> &pixels) {
  auto img = torch::from_blob(pixels.data(), {480, 640, 3}, torch::kByte);
  img = img.permute({2, 0, 1}).to(torch::kFloat32);
  img.div_(255.0);
}

void integer_arithmetic_stays_integer(int64_t n) {
  auto counts = torch::zeros({n}, torch::kLong);
  counts.add_(1);
  counts *= 2;
  auto bytes = torch::zeros({n}, torch::kByte);
  bytes.sub_(1);
}

void float_into_double() {
  auto acc = torch::zeros({4}, torch::kFloat64);
  acc.add_(torch::randn({4}));
  acc.mul_(0.5);
}

void fill_converts(int64_t n) {
  auto counts = torch::zeros({n}, torch::kLong);
  counts.fill_(1.5);
  counts.masked_fill_(counts > 0, 0.5);
}

void unknown_dtype(torch::Tensor t) { t.div_(255.0); }
