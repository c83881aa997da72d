// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// A method called on a temporary of a class of the user's that holds
// tensors (`collate(...).to(device)`) starts from what the temporary holds,
// as one called on a variable does.
#include <torch/torch.h>

struct TextBatch {
  torch::Tensor tokens, mask;
  TextBatch to(const torch::Device &device) const {
    TextBatch out;
    out.tokens = tokens.to(device);
    out.mask = mask;
    return out;
  }
  TextBatch to_all(const torch::Device &device) const {
    return {tokens.to(device), mask.to(device)};
  }
};

TextBatch collate(int64_t b, int64_t t) {
  TextBatch batch;
  batch.tokens = torch::zeros({b, t}, torch::kLong);
  batch.mask = torch::zeros({b, t}, torch::kBool);
  return batch;
}

void mask_left_behind() {
  torch::Device device(torch::kCUDA);
  TextBatch batch = collate(4, 16).to(device);
  auto e = torch::randn({4, 16}, device).masked_fill(batch.mask, 0.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'masked_fill' combines tensors on different devices: 'torch::randn({4, 16}, device)' is on cuda and 'batch.mask' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'torch::randn({4, 16}, device)' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-10]]:16: note: 'batch.mask' is on cpu: created here
}

// Clean: every field moved.
void all_moved() {
  torch::Device device(torch::kCUDA);
  TextBatch batch = collate(4, 16).to_all(device);
  auto e = torch::randn({4, 16}, device).masked_fill(batch.mask, 0.0);
}

// Clean: a temporary whose fields are not known.
TextBatch from_elsewhere();

void unknown_temporary() {
  torch::Device device(torch::kCUDA);
  TextBatch batch = from_elsewhere().to(device);
  auto e = torch::randn({4, 16}, device).masked_fill(batch.mask, 0.0);
}
