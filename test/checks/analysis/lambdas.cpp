// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Lambdas called where they are made see what they capture as the
// enclosing body has it at the call, when they only read it: a variable
// captured by reference, or by copy from a variable never assigned again.
// A lambda that assigns, moves or hands out what it captures changes it
// whenever it runs, so the enclosing body no longer knows it.
#include <torch/torch.h>

// --- Bugs --------------------------------------------------------------------

// pytorch/pytorch#122757's shape: a training step in a [&] lambda, the
// loss's class weights left on the cpu.
float weighted_step(torch::Tensor x, torch::Tensor labels) {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(10, 5);
  model->to(device);
  auto weights = torch::ones({5});
  torch::nn::CrossEntropyLoss loss_fn(
      torch::nn::CrossEntropyLossOptions().weight(weights));
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto step = [&](const torch::Tensor &in, const torch::Tensor &target) {
    opt.zero_grad();
    auto loss = loss_fn(model(in), target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'operator()' combines tensors on different devices: 'model(in)' is on cuda and 'loss_fn' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-9]]:10: note: 'model(in)' is on cuda: output of a module placed here
    // CHECK-MESSAGES: :[[@LINE-9]]:18: note: 'loss_fn' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+5]]:10: note: in the call to the lambda here
    loss.backward();
    opt.step();
    return loss.item<float>();
  };
  return step(x.to(device), labels.to(device));
}

// The model moved after the lambda was made: the call sees it on cuda.
torch::Tensor moved_after_capture() {
  torch::nn::Linear model(4, 2);
  auto predict = [&](const torch::Tensor &in) { return model(in); };
  // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: input 'in' is on cpu but 'model' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE+4]]:18: note: 'in' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: 'model' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: in the call to the lambda here
  model->to(torch::kCUDA);
  return predict(torch::randn({3, 4}));
  // CHECK-FIXES: auto predict = [&](const torch::Tensor &in) { return model(in.to(torch::kCUDA)); };
}

// A captured cpu tensor and a cuda argument.
torch::Tensor captured_mask(torch::Tensor x) {
  auto mask = torch::ones({4});
  auto apply = [&](const torch::Tensor &t) { return t * mask; };
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: 'operator*' combines tensors on different devices: 't' is on cuda and 'mask' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+3]]:18: note: 't' is on cuda: moved here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: 'mask' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: in the call to the lambda here
  return apply(x.cuda());
}

// Captured by copy, never assigned again.
torch::Tensor copied_bias() {
  auto bias = torch::zeros({4}, torch::kFloat64);
  auto shift = [bias](const torch::Tensor &t) { return t.matmul(bias); };
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'matmul' does not promote dtypes: 't' is float32 and 'bias' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+3]]:16: note: 't' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: 'bias' is float64: created here
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: in the call to the lambda here
  return shift(torch::ones({2, 4}));
}

// A model cast to half, called from a generic lambda.
torch::Tensor generic_lambda() {
  torch::nn::Linear model(4, 2);
  model->to(torch::kHalf);
  auto run = [&](const auto &in) { return model(in); };
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: input 'in' is float32 but 'model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+3]]:14: note: 'in' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'model' was cast to float16 here
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: in the call to the lambda here
  return run(torch::randn({3, 4}));
}

// A method's lambda that captures `this` and only reads: the members keep
// what the constructor made, and the module stays where its caller put it.
struct MaskedImpl : torch::nn::Module {
  MaskedImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    mask_ = torch::ones({4, 4}).to(torch::kBool);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto scale = [this](const torch::Tensor &t) { return t / fc->weight.size(0); };
    return scale(fc(x)).masked_fill(mask_, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'masked_fill' combines tensors on different devices: 'scale(fc(x))' is on cuda and 'mask_' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-6]]:13: note: 'mask_' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+15]]:10: note: in the call to 'forward' here
  }
  size_t count() {
    auto n = [this] { return parameters().size(); };
    return n();
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor mask_;
};
TORCH_MODULE(Masked);

torch::Tensor lambda_reads_this() {
  Masked model;
  model->to(torch::kCUDA);
  model->count();
  return model(torch::randn({4, 4}, torch::kCUDA));
}

// --- Clean -------------------------------------------------------------------

// The lambda moves the model itself before using it.
torch::Tensor lambda_moves_model() {
  torch::nn::Linear model(4, 2);
  auto place = [&] { model->to(torch::kCUDA); };
  place();
  return model(torch::randn({3, 4}).cuda());
}

// The lambda reassigns what it captures: a second call sees the new value.
torch::Tensor lambda_reassigns() {
  auto w = torch::ones({4});
  auto step = [&](const torch::Tensor &t) {
    auto r = t * w;
    w = w.cuda();
    return r;
  };
  step(torch::ones({4}));
  return step(torch::ones({4}).cuda());
}

// Captured by copy, then the variable is reassigned: which value the
// lambda holds is not followed.
torch::Tensor copy_then_reassigned() {
  auto w = torch::ones({4});
  auto f = [w](const torch::Tensor &t) { return t + w; };
  w = w.cuda();
  return f(torch::ones({4}));
}

// Given to another function, which calls it after the capture moved: the
// captures are bound only at a call in the function that made the lambda.
template <typename F> torch::Tensor apply_on_gpu(F f) {
  return f(torch::ones({4}).cuda());
}
torch::Tensor called_elsewhere() {
  auto w = torch::ones({4});
  auto add = [&](const torch::Tensor &t) { return t + w; };
  w = w.cuda();
  return apply_on_gpu(add);
}

// Everything on one device.
float consistent_step(torch::Tensor x, torch::Tensor labels) {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(10, 5);
  model->to(device);
  torch::nn::CrossEntropyLoss loss_fn(
      torch::nn::CrossEntropyLossOptions().weight(torch::ones({5}, device)));
  auto step = [&](const torch::Tensor &in, const torch::Tensor &target) {
    return loss_fn(model(in), target).item<float>();
  };
  return step(x.to(device), labels.to(device));
}

// The device is a parameter of the enclosing function.
torch::Tensor device_parameter(torch::Device device) {
  auto mask = torch::ones({4}, device);
  auto apply = [&](const torch::Tensor &t) { return t * mask; };
  return apply(torch::ones({4}).to(device));
}

// A mutable lambda keeps its copy between calls.
torch::Tensor mutable_copy() {
  auto w = torch::ones({4});
  auto step = [w](const torch::Tensor &t) mutable {
    auto r = t * w;
    w = w.cuda();
    return r;
  };
  step(torch::ones({4}));
  return step(torch::ones({4}).cuda());
}

// The lambda hands the model to code that may move it.
void place_on(torch::nn::Linear &m) { m->to(torch::kCUDA); }
torch::Tensor lambda_hands_out_model() {
  torch::nn::Linear model(4, 2);
  auto prepare = [&] { place_on(model); };
  prepare();
  return model(torch::randn({3, 4}).cuda());
}

// Another lambda moves the model between the calls.
torch::Tensor another_lambda_moves() {
  torch::nn::Linear model(4, 2);
  auto place = [&] { model->to(torch::kCUDA); };
  auto predict = [&](const torch::Tensor &in) { return model(in); };
  place();
  return predict(torch::randn({3, 4}).cuda());
}

// A method's lambda that captures `this` and moves the module, or writes
// the member: what the lambda's body does, the method does.
struct SelfPlacingImpl : torch::nn::Module {
  SelfPlacingImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    mask_ = torch::ones({4, 4}).to(torch::kBool);
  }
  void place() {
    auto go = [this] { to(torch::kCUDA); };
    go();
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto follow = [this](const torch::Tensor &t) { mask_ = mask_.to(t.device()); };
    follow(x);
    return fc(x).masked_fill(mask_, 0);
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor mask_;
};
TORCH_MODULE(SelfPlacing);

torch::Tensor lambda_moves_this() {
  SelfPlacing model;
  model->place();
  return model(torch::randn({4, 4}, torch::kCUDA));
}
