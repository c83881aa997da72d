// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// Float ops compute in floating point whatever their inputs: ATen promotes
// integer and bool inputs of true division, sqrt, exp, sigmoid and the
// other unary float ops to the default float dtype
// (promote_integer_inputs_to_float). So an integer tensor divided is
// float32, and dividing one in place throws.
#include <torch/torch.h>
#include <cstdint>

void average_counts_in_place(int64_t n) {
  auto counts = torch::zeros({n}, torch::kLong);
  counts.div_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'div_' computes in float32 but writes its result back into 'counts', which is int64: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'counts' is int64: created here
}

void root_of_ids() {
  auto ids = torch::arange(16, torch::kInt32);
  ids.sqrt_();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'sqrt_' computes in float32 but writes its result back into 'ids', which is int32: ATen cannot cast it there and throws [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'ids' is int32: created here
}

void frequencies_into_half_weights() {
  auto w = torch::randn({4, 4}, torch::kHalf);
  auto counts = torch::randint(0, 10, {4, 4});
  auto freq = counts / 10;
  auto scores = torch::mm(freq, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'mm' does not promote dtypes: 'freq' is float32 and 'w' is float16 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'freq' is float32: computed here
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'w' is float16: created here
}

void sigmoid_of_labels_into_half() {
  auto w = torch::randn({4, 4}, torch::kHalf);
  auto labels = torch::randint(0, 2, {4, 4});
  auto p = labels.sigmoid();
  auto out = torch::mm(p, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'mm' does not promote dtypes: 'p' is float32 and 'w' is float16 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'p' is float32: computed here
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'w' is float16: created here
}

// Clean: the result's dtype is what the tensor or the other operand has.
void floor_division_keeps_integers(int64_t n) {
  auto counts = torch::zeros({n}, torch::kLong);
  counts.div_(2, "floor");
  counts.floor_divide_(2);
  counts.add_(1);
}

void float_tensors_in_place() {
  auto x = torch::rand({8});
  x.sqrt_();
  x.div_(2);
  x.exp_();
}

void frequencies_into_float_weights() {
  auto w = torch::randn({4, 4});
  auto counts = torch::randint(0, 10, {4, 4});
  auto freq = counts / 10;
  auto scores = torch::mm(freq, w);
  auto logp = counts.log();
  auto more = torch::mm(logp, w);
}

void truncated_division_converted() {
  auto w = torch::randn({4, 4}, torch::kHalf);
  auto counts = torch::randint(0, 10, {4, 4});
  auto buckets = counts.div(3, "trunc").to(torch::kHalf);
  auto scores = torch::mm(buckets, w);
}

void half_stays_half() {
  auto w = torch::randn({4, 4}, torch::kHalf);
  auto x = torch::rand({4, 4}, torch::kHalf);
  auto y = torch::mm(x.sqrt() / 2, w);
}
