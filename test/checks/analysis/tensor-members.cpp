// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Tensors kept in a class: a member that only the constructors set (in
// their initialisers or bodies), not public, never rebound or handed out by
// non-const reference elsewhere, holds what every constructor leaves in it.
// Anything else about a member is unknown.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

class Normalizer {
public:
  explicit Normalizer(torch::Device device)
      : device_(device), mean_(torch::tensor({0.485, 0.456, 0.406})) {
    std_ = torch::tensor({0.229, 0.224, 0.225});
  }
  torch::Tensor operator()(const torch::Tensor &image) const {
    auto x = image.to(device_);
    return (x - mean_) / std_;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator-' combines tensors on different devices: 'x' is on 'device_' and 'mean_' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'x' is on 'device_': moved here
    // CHECK-MESSAGES: :[[@LINE-8]]:32: note: 'mean_' is on cpu: created here
  }

private:
  torch::Device device_;
  torch::Tensor mean_;
  torch::Tensor std_;
};

class AnchorBoxes {
public:
  explicit AnchorBoxes(torch::Device device) : device_(device) {
    anchors_ = torch::zeros({6, 2}).to(device_);
  }
  AnchorBoxes() : AnchorBoxes(torch::kCPU) {}
  torch::Tensor decode(const torch::Tensor &offsets) {
    auto boxes = offsets.cpu().reshape({6, 2});
    return boxes + anchors_;
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator+' combines tensors on different devices: 'boxes' is on cpu and 'anchors_' is on 'device_' [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:26: note: 'boxes' is on cpu: moved here
    // CHECK-MESSAGES: :[[@LINE-8]]:37: note: 'anchors_' is on 'device_': moved here
  }

private:
  torch::Device device_;
  torch::Tensor anchors_;
};

class Scaler {
public:
  Scaler() {}
  torch::Tensor apply(torch::Device device) const {
    return scale_ * torch::ones({4}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'operator*' combines tensors on different devices: 'scale_' is on cpu and 'torch::ones({4}).to(device)' is on 'device' [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+5]]:26: note: 'scale_' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-3]]:38: note: 'torch::ones({4}).to(device)' is on 'device': moved here
  }

private:
  torch::Tensor scale_ = torch::full({4}, 0.5);
};

// --- Clean -------------------------------------------------------------------

class MovedNormalizer {
public:
  explicit MovedNormalizer(torch::Device device)
      : device_(device), mean_(torch::tensor({0.485, 0.456, 0.406}).to(device)) {}
  torch::Tensor operator()(const torch::Tensor &image) const {
    return image.to(device_) - mean_;
  }

private:
  torch::Device device_;
  torch::Tensor mean_;
};

class MovedLater {                          // another method moves it
public:
  MovedLater() : mean_(torch::zeros({3})) {}
  void to(torch::Device device) { mean_ = mean_.to(device); }
  torch::Tensor apply(const torch::Tensor &x) { return x.cuda() - mean_; }

private:
  torch::Tensor mean_;
};

struct PublicStats {                        // anyone may replace it
  PublicStats() : mean(torch::zeros({3})) {}
  torch::Tensor apply(const torch::Tensor &x) { return x.cuda() - mean; }
  torch::Tensor mean;
};

class Disagree {                            // constructors disagree
public:
  Disagree() : mean_(torch::zeros({3})) {}
  explicit Disagree(int) : mean_(torch::zeros({3}, torch::kCUDA)) {}
  torch::Tensor apply(const torch::Tensor &x) { return x.cuda() - mean_; }

private:
  torch::Tensor mean_;
};

class Rebound {                             // set_data gives it new storage
public:
  Rebound() : mean_(torch::zeros({3})) {}
  void load(const torch::Tensor &t) { mean_.set_data(t); }
  torch::Tensor apply(const torch::Tensor &x) { return x.cuda() - mean_; }

private:
  torch::Tensor mean_;
};

class HandsOut {                            // a non-const reference escapes
public:
  HandsOut() : mean_(torch::zeros({3})) {}
  torch::Tensor &mean() { return mean_; }
  torch::Tensor apply(const torch::Tensor &x) { return x.cuda() - mean_; }

private:
  torch::Tensor mean_;
};
