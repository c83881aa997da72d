// RUN: %check_tidy %s tensor-mixed-device %t -- -- -std=c++17 %mock_torch

// A virtual call is followed where the code fixes which overrider runs, as
// clang's devirtualisation does (CXXMethodDecl::getDevirtualizedMethod): on
// a local object or a member of class type, whose class is exactly its
// declared one, and, inside the method so called, on `this`. Through a
// reference or a pointer a class in another translation unit may override
// the method, and the analysis stays silent. The shape is NVIDIA/TorchFort's
// GAE rollout buffer (#32): update() calls the virtual finalize() with the
// caller's cpu tensors, which meet the buffer's tensors on its device.

#include <torch/torch.h>

class Buffer {
public:
  explicit Buffer(torch::Device device) : device_(device) {}
  virtual ~Buffer() = default;

  void update(torch::Tensor values) {
    if (values.defined())
      finalize(values);
  }
  virtual void finalize(torch::Tensor last) = 0;
  virtual torch::Tensor scale(torch::Tensor t) { return t * 2; }

protected:
  torch::Device device_;
};

// --- Bugs --------------------------------------------------------------------

class GaeBuffer : public Buffer {
public:
  using Buffer::Buffer;
  void finalize(torch::Tensor last) override {
    auto gae = torch::zeros({4}, torch::TensorOptions().device(device_));
    auto next = last * 0.5;
    auto delta = next + gae;
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'operator+' combines tensors on different devices: 'next' is on cpu and 'gae' is on 'device_' [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'next' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE-5]]:16: note: 'gae' is on 'device_': created here
    // CHECK-MESSAGES: :[[@LINE-21]]:7: note: in the call to 'finalize' here
    // CHECK-MESSAGES: :[[@LINE+7]]:6: note: in the call to 'update' here
  }
};

// A local object: its class is GaeBuffer, whatever derives from it.
void rollout(torch::Device device) {
  GaeBuffer rb(device);
  rb.update(torch::randn({4}));
}

class Scaler {
public:
  virtual ~Scaler() = default;
  virtual torch::Tensor apply(torch::Tensor x, torch::Tensor w) {
    return x * w;
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'x' is on cpu and 'w' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+15]]:12: note: 'x' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+15]]:12: note: 'w' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE+15]]:18: note: in the call to 'apply' here
  }
};

// A member object of class type, called directly.
class Trainer {
public:
  torch::Tensor step();

private:
  Scaler scaler_;
};
torch::Tensor Trainer::step() {
  auto x = torch::randn({8});
  auto w = torch::randn({8}, torch::kCUDA);
  return scaler_.apply(x, w);
}

// --- Clean -------------------------------------------------------------------

// The base class's finalize() mixes devices, but the object's class
// overrides it with one that moves the input first: the call on `this`
// runs the override.
class BadBase {
public:
  explicit BadBase(torch::Device device) : device_(device) {}
  virtual ~BadBase() = default;
  void update(torch::Tensor values) { finalize(values); }
  virtual void finalize(torch::Tensor last) {
    auto gae = torch::zeros({4}, torch::TensorOptions().device(device_));
    auto delta = last + gae;
  }

protected:
  torch::Device device_;
};

class MovingBuffer : public BadBase {
public:
  using BadBase::BadBase;
  void finalize(torch::Tensor last) override {
    auto gae = torch::zeros({4}, torch::TensorOptions().device(device_));
    auto delta = last.to(device_) + gae;
  }
};

void rolloutMoving(torch::Device device) {
  MovingBuffer rb(device);
  rb.update(torch::randn({4}));
}

// The fixed GAE buffer: the caller's tensor is moved to the buffer's device.
class FixedGaeBuffer : public Buffer {
public:
  using Buffer::Buffer;
  void finalize(torch::Tensor last) override {
    auto gae = torch::zeros({4}, torch::TensorOptions().device(device_));
    auto delta = last.to(device_) * 0.5 + gae;
  }
};

void rolloutFixed(torch::Device device) {
  FixedGaeBuffer rb(device);
  rb.update(torch::randn({4}));
}

// Through a reference or a pointer the object may be of a class that
// overrides the method elsewhere: not followed.
void rolloutRef(BadBase &rb) { rb.update(torch::randn({4})); }
void rolloutPtr(BadBase *rb) { rb->update(torch::randn({4})); }
void applyRef(Scaler &s) { s.apply(torch::randn({8}), torch::randn({8}, torch::kCUDA)); }

// A qualified call names its method: Scaler::apply on a cpu pair is fine.
struct Doubler : Scaler {
  torch::Tensor apply(torch::Tensor x, torch::Tensor w) override {
    return Scaler::apply(x, w) * 2;
  }
};
void qualified() {
  Doubler d;
  d.apply(torch::randn({8}), torch::randn({8}));
}

// A virtual method whose override in the object's class keeps the device.
struct Shift : Buffer {
  using Buffer::Buffer;
  void finalize(torch::Tensor) override {}
  torch::Tensor scale(torch::Tensor t) override { return t.to(device_) * 2; }
};
void shifted(torch::Device device) {
  Shift s(device);
  auto y = s.scale(torch::randn({4})) + torch::zeros({4}, torch::TensorOptions().device(device));
}
