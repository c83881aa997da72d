// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input %t -- -- %libtorch

// A recurrent model's state kept in its owner's members, as language-model
// trainers keep it for truncated backpropagation through time: a
// std::tuple (or std::pair) of tensors is followed element by element, like
// two Tensor members, and members handed to std::make_tuple are only
// copied. A state the class's own code may change where the analysis does
// not look (a non-const reference to an element, a mutable member) stays
// unknown.
#include <torch/torch.h>
#include <tuple>
#include <utility>

using State = std::tuple<torch::Tensor, torch::Tensor>;

// The state is a tuple member that reset() builds on the cpu; the LSTM was
// moved to the trainer's device.
class TupleTrainer {
public:
  TupleTrainer(torch::nn::LSTM lstm, torch::Device device)
      : lstm_(lstm), device_(device) {
    lstm_->to(device_);
    reset();
  }
  void reset() {
    auto h = torch::zeros({1, 4, 8});
    hidden_ = std::make_tuple(h, h.clone());
  }
  void step(const torch::Tensor &chunk) {
    auto x = chunk.to(device_);
    auto out = lstm_->forward(x, hidden_);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: input 'hidden_' is on cpu but 'lstm_' is on 'device_' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-7]]:14: note: 'hidden_' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-12]]:12: note: 'lstm_' was moved to 'device_' here
  // CHECK-MESSAGES: :[[@LINE+16]]:11: note: in the call to 'step' here
    hidden_ = std::make_tuple(std::get<0>(std::get<1>(out)).detach(),
                              std::get<1>(std::get<1>(out)).detach());
  }

private:
  torch::nn::LSTM lstm_;
  torch::Device device_;
  State hidden_;
};

void tuple_state_left_on_the_cpu() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA
                                                     : torch::kCPU;
  TupleTrainer trainer(torch::nn::LSTM(3, 8), device);
  trainer.reset();
  trainer.step(torch::randn({2, 4, 3}));
}

// Two Tensor members handed to std::make_tuple at the call: copied, not
// changed, so they keep what reset() gave them.
class PairOfMembers {
public:
  PairOfMembers(torch::nn::LSTM lstm, torch::Device device)
      : lstm_(lstm), device_(device) {
    lstm_->to(device_);
    reset();
  }
  void reset() {
    h_ = torch::zeros({1, 4, 8});
    c_ = torch::zeros({1, 4, 8});
  }
  void step(const torch::Tensor &chunk) {
    auto x = chunk.to(device_);
    auto out = lstm_->forward(x, std::make_tuple(h_, c_));
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: input 'h_' is on cpu but 'lstm_' is on 'device_' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-7]]:10: note: 'h_' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-12]]:12: note: 'lstm_' was moved to 'device_' here
    // CHECK-MESSAGES: :[[@LINE+14]]:9: note: in the call to 'step' here
  }

private:
  torch::nn::LSTM lstm_;
  torch::Device device_;
  torch::Tensor h_, c_;
};

void members_copied_into_a_tuple() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA
                                                     : torch::kCPU;
  PairOfMembers model(torch::nn::LSTM(3, 8), device);
  model.reset();
  model.step(torch::randn({2, 4, 3}));
}

// A std::pair member, read through .first and std::get.
class PairState {
public:
  void reset() { state_ = {torch::zeros({4}), torch::ones({4})}; }
  torch::Tensor mix(const torch::Tensor &x) {
    return x * state_.first + std::get<1>(state_);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'x' is on cuda and 'state_.first' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+12]]:18: note: 'x' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE-5]]:28: note: 'state_.first' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+10]]:14: note: in the call to 'mix' here
  }

private:
  std::pair<torch::Tensor, torch::Tensor> state_;
};

void pair_member_read_by_first() {
  PairState s;
  s.reset();
  auto y = s.mix(torch::randn({4}, torch::kCUDA));
}

// Clean: the state made on the trainer's device.
class TupleTrainerOnDevice {
public:
  TupleTrainerOnDevice(torch::nn::LSTM lstm, torch::Device device)
      : lstm_(lstm), device_(device) {
    lstm_->to(device_);
    reset();
  }
  void reset() {
    auto h = torch::zeros({1, 4, 8}, device_);
    hidden_ = std::make_tuple(h, h.clone());
  }
  void step(const torch::Tensor &chunk) {
    auto x = chunk.to(device_);
    auto out = lstm_->forward(x, hidden_);
    hidden_ = std::get<1>(out);
  }

private:
  torch::nn::LSTM lstm_;
  torch::Device device_;
  State hidden_;
};

void tuple_state_on_the_device() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA
                                                     : torch::kCPU;
  TupleTrainerOnDevice trainer(torch::nn::LSTM(3, 8), device);
  trainer.reset();
  trainer.step(torch::randn({2, 4, 3}));
}

// Clean: moved to the device element by element before the call.
class ElementsMoved {
public:
  void reset() { hidden_ = std::make_tuple(torch::zeros({4}), torch::zeros({4})); }
  void to(torch::Device d) {
    std::get<0>(hidden_) = std::get<0>(hidden_).to(d);
    std::get<1>(hidden_) = std::get<1>(hidden_).to(d);
  }
  torch::Tensor mix(const torch::Tensor &x) { return x + std::get<0>(hidden_); }

private:
  State hidden_;
};

void elements_moved_before_use() {
  ElementsMoved m;
  m.reset();
  m.to(torch::kCUDA);
  auto y = m.mix(torch::randn({4}, torch::kCUDA));
}

// Clean: an element bound to a non-const reference and changed through it.
class ThroughAReference {
public:
  void reset() { hidden_ = std::make_tuple(torch::zeros({4}), torch::zeros({4})); }
  void to(torch::Device d) {
    auto &h = std::get<0>(hidden_);
    h = h.to(d);
  }
  torch::Tensor mix(const torch::Tensor &x) { return x + std::get<0>(hidden_); }

private:
  State hidden_;
};

void element_changed_through_a_reference() {
  ThroughAReference m;
  m.reset();
  m.to(torch::kCUDA);
  auto y = m.mix(torch::randn({4}, torch::kCUDA));
}

// Clean: the whole tuple handed to a helper that may change it.
void move_state(State &s, torch::Device d);

class HandedToAHelper {
public:
  void reset() { hidden_ = std::make_tuple(torch::zeros({4}), torch::zeros({4})); }
  void to(torch::Device d) { move_state(hidden_, d); }
  torch::Tensor mix(const torch::Tensor &x) { return x + std::get<0>(hidden_); }

private:
  State hidden_;
};

void state_changed_by_a_helper() {
  HandedToAHelper m;
  m.reset();
  m.to(torch::kCUDA);
  auto y = m.mix(torch::randn({4}, torch::kCUDA));
}

// Clean: a local struct whose tuple field is moved through a reference to
// an element.
struct Carry {
  State state;
};

void struct_tuple_field_through_a_reference() {
  Carry c{std::make_tuple(torch::zeros({4}), torch::zeros({4}))};
  auto &h = std::get<0>(c.state);
  h = h.to(torch::kCUDA);
  auto y = torch::randn({4}, torch::kCUDA) + std::get<0>(c.state);
}

// A local struct's tuple field, followed like a tuple variable.
void struct_tuple_field_on_the_cpu() {
  Carry c{std::make_tuple(torch::zeros({4}), torch::zeros({4}))};
  auto y = torch::randn({4}, torch::kCUDA) + std::get<1>(c.state);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'operator+' combines tensors on different devices: 'torch::randn({4}, torch::kCUDA)' is on cuda and 'std::get<1>(c.state)' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'torch::randn({4}, torch::kCUDA)' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE-4]]:46: note: 'std::get<1>(c.state)' is on cpu: created here
}

// Clean: the struct's tuple field assigned on the device.
void struct_tuple_field_reassigned() {
  Carry c{std::make_tuple(torch::zeros({4}), torch::zeros({4}))};
  c.state = std::make_tuple(torch::zeros({4}, torch::kCUDA),
                            torch::zeros({4}, torch::kCUDA));
  auto y = torch::randn({4}, torch::kCUDA) + std::get<1>(c.state);
}

// Clean: a mutable state member, which const methods may change.
class MutableState {
public:
  void reset() { hidden_ = std::make_tuple(torch::zeros({4}), torch::zeros({4})); }
  void to(torch::Device d) const {
    hidden_ = std::make_tuple(std::get<0>(hidden_).to(d), std::get<1>(hidden_).to(d));
  }
  torch::Tensor mix(const torch::Tensor &x) const { return x + std::get<0>(hidden_); }

private:
  mutable State hidden_;
};

void mutable_state_moved_by_a_const_method() {
  MutableState m;
  m.reset();
  m.to(torch::kCUDA);
  auto y = m.mix(torch::randn({4}, torch::kCUDA));
}
