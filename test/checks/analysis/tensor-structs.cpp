// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// A struct of the user's that holds tensors by value (a batch) is followed
// field by field: declared, assigned, built with braces, returned by a
// helper and passed to one. A struct whose fields a method of its own, a
// lambda, a reference or a pointer may write is not known.
#include <torch/torch.h>

struct Batch {
  torch::Tensor x;
  torch::Tensor y;
  void to(torch::Device device) {
    x = x.to(device);
    y = y.to(device);
  }
};

struct RegressorImpl : torch::nn::Module {
  RegressorImpl() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Regressor);

Batch make_batch(int64_t n) {
  Batch b;
  b.x = torch::randn({n, 8});
  b.y = torch::randn({n, 1});
  return b;
}

torch::Tensor step(Regressor &model, const Batch &batch) {
  auto pred = model->forward(batch.x);
  return torch::mse_loss(pred, batch.y);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'mse_loss' combines tensors on different devices: 'pred' is on cuda and 'batch.y' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+15]]:10: note: 'pred' is on cuda: output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-9]]:9: note: 'batch.y' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+15]]:3: note: in the call to 'step' here
}

// --- Bugs --------------------------------------------------------------------

Batch inputs_to(Batch b, torch::Device device) {
  b.x = b.x.to(device);
  return b;
}

void train_inputs_only() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device);
  Batch batch = inputs_to(make_batch(64), device);
  step(model, batch);
}

void braced() {
  Batch batch{torch::randn({4, 8}, torch::kCUDA), torch::randn({4, 1})};
  torch::mse_loss(batch.x.sum(1, true), batch.y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'mse_loss' combines tensors on different devices: 'batch.x.sum(1, true)' is on cuda and 'batch.y' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'batch.x.sum(1, true)' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: 'batch.y' is on cpu: created here
}

void reassigned() {
  Batch batch;
  batch = Batch{torch::randn({4, 8}, torch::kDouble), torch::randn({8, 1})};
  torch::mm(batch.x, batch.y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'mm' does not promote dtypes: 'batch.x' is float64 and 'batch.y' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'batch.x' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: 'batch.y' is float32: created here
}

// --- Clean -------------------------------------------------------------------

Batch both_to(Batch b, torch::Device device) {
  b.x = b.x.to(device);
  b.y = b.y.to(device);
  return b;
}

void train_both() {
  torch::Device device(torch::kCUDA);
  Regressor model;
  model->to(device);
  Batch batch = both_to(make_batch(64), device);
  step(model, batch);
}

void targets_to_cuda(Batch &b) { b.y = b.y.cuda(); }

void moved_by_reference() {
  Regressor model;
  model->to(torch::kCUDA);
  Batch batch = make_batch(64);
  batch.x = batch.x.cuda();
  targets_to_cuda(batch);
  step(model, batch);
}

void moved_by_its_method() {
  Batch b = make_batch(4);
  b.to(torch::kCUDA);
  torch::mse_loss(b.x, b.y.cuda());
}

void moved_by_a_lambda() {
  Batch b = make_batch(4);
  auto move_targets = [&] { b.y = b.y.cuda(); };
  move_targets();
  torch::mse_loss(b.x.cuda(), b.y);
}

void moved_through_aliases() {
  Batch b = make_batch(4);
  auto &r = b;
  r.y = r.y.cuda();
  torch::mse_loss(b.x.cuda(), b.y);
  Batch c = make_batch(4);
  Batch *p = &c;
  p->y = p->y.cuda();
  torch::mse_loss(c.x.cuda(), c.y);
}

void whole_assignments(bool gpu) {
  Batch b = make_batch(4);
  Batch c{b.x.cuda(), b.y.cuda()};
  b = c;
  torch::mse_loss(b.x, b.y);
  Batch d = gpu ? Batch{torch::randn({4}, torch::kCUDA),
                        torch::randn({4}, torch::kCUDA)}
                : make_batch(4);
  torch::mse_loss(d.x, d.y);
  std::swap(b, d);
  torch::mse_loss(b.x.cuda(), b.y);
}

void fill(Batch &b);

void cpu_batches() {
  Regressor model;
  for (int i = 0; i < 3; ++i) {
    Batch batch = make_batch(8);
    step(model, batch);
  }
  Batch opaque = make_batch(4);
  fill(opaque);
  torch::mse_loss(opaque.x.cuda(), opaque.y);
}

// A class that writes its own copy may do anything to the fields.
struct DeviceBatch {
  torch::Tensor x, y;
  DeviceBatch() = default;
  DeviceBatch(const DeviceBatch &o) : x(o.x.cuda()), y(o.y.cuda()) {}
};

void copied_by_its_own_constructor() {
  DeviceBatch a;
  a.x = torch::randn({4});
  a.y = torch::randn({4}).cuda();
  DeviceBatch b = a;
  torch::mse_loss(b.x, b.y);
}
