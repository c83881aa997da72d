// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Calls into user code: a helper's result is what it returns given the
// caller's arguments, and a site inside a helper is judged with the facts of
// each call (the note shows which call). A helper that only reads a tensor or
// module given by reference leaves the caller's facts alone; one that moves
// it, replaces it or keeps a copy of a module handle makes them unknown.
#include <iostream>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// --- Bugs that span a call ---------------------------------------------------

// The official MNIST example's shape, with the batch left on the cpu.
template <typename DataLoader>
void train(Net &model, torch::Device device, DataLoader &loader,
           torch::optim::Optimizer &optimizer) {
  model->train();
  for (auto &batch : loader) {
    auto data = batch.data, targets = batch.target.to(device);
    optimizer.zero_grad();
    auto output = model->forward(data);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: input 'data' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-5]]:14: note: 'data' is on cpu: batches come from the data loader on the cpu
    // CHECK-MESSAGES: :[[@LINE+30]]:10: note: 'model' was moved to 'device' here
    // CHECK-MESSAGES: :[[@LINE+35]]:3: note: in the call to 'train' here
    auto loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();
  }
}

torch::Tensor class_weights() { return torch::ones({64, 10}); }

torch::Tensor add_bias(const torch::Tensor &x) { return x + torch::ones({64, 10}); }
// CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'operator+' combines tensors on different devices: 'x' is on 'device' and 'torch::ones({64, 10})' is on cpu [tensor-mixed-device]
// CHECK-MESSAGES: :[[@LINE+18]]:10: note: 'x' is on 'device': output of a module placed here
// CHECK-MESSAGES: :[[@LINE-3]]:61: note: 'torch::ones({64, 10})' is on cpu: created here
// CHECK-MESSAGES: :[[@LINE+29]]:17: note: in the call to 'add_bias' here

void predict(Net &model, const torch::Tensor &input) {
  auto out = model->forward(input);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'input' is float32 but 'model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+28]]:23: note: 'input' is float32: created here
  // CHECK-MESSAGES: :[[@LINE+26]]:15: note: 'model' was cast to float16 here
  // CHECK-MESSAGES: :[[@LINE+26]]:3: note: in the call to 'predict' here
  (void)out;
}

void print_stats(torch::Tensor &x) { std::cout << x.mean() << "\n"; }

void run_bugs() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(
          torch::data::transforms::Stack<>()),
      64);
  train(model, device, *loader, optimizer);

  auto logits = model->forward(torch::randn({64, 784}).to(device));
  auto weighted = logits * class_weights();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'operator*' combines tensors on different devices: 'logits' is on 'device' and 'class_weights()' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-11]]:10: note: 'logits' is on 'device': output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-34]]:40: note: 'class_weights()' is on cpu: created here
  auto biased = add_bias(logits);

  Net half_model;
  half_model->to(torch::kHalf);
  predict(half_model, torch::rand({8, 784}));

  auto counts = torch::zeros({10, 10});
  print_stats(counts);
  auto total = counts + torch::ones({10, 10}, torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'operator+' combines tensors on different devices: 'counts' is on cpu and 'torch::ones({10, 10}, torch::kCUDA)' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'counts' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'torch::ones({10, 10}, torch::kCUDA)' is on cuda: created here
  (void)weighted, (void)biased, (void)total;
}

template <typename T> void in_a_template() {
  auto a = torch::ones({4, 4});
  auto b = torch::ones({4, 4}, torch::kCUDA);
  auto c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'a' is on cpu and 'b' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'b' is on cuda: created here
  (void)c;
}
template void in_a_template<int>();
template void in_a_template<float>();

// --- Clean -------------------------------------------------------------------

template <typename DataLoader>
void train_clean(Net &model, torch::Device device, DataLoader &loader,
                 torch::optim::Optimizer &optimizer) {
  for (auto &batch : loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto loss = torch::nll_loss(model->forward(data), targets);
    loss.backward();
    optimizer.step();
  }
}

void to_device(Net &m, torch::Device d) { m->to(d); }
void upload(torch::Tensor &x) { x = x.to(torch::kCUDA); }
torch::Tensor identity(torch::Tensor x) { return x; }
torch::Tensor scaled(const torch::Tensor &x, torch::Device d) {
  return x * torch::ones({64, 10}, d);
}
torch::Tensor repeat(torch::Tensor x, int n) { return n == 0 ? x : repeat(x, n - 1) + x; }
struct Maker {
  virtual ~Maker() = default;
  virtual torch::Tensor make() { return torch::ones({4, 4}); }
};
std::vector<Net> registry;
void remember(Net m) { registry.push_back(m); }

// A tensor handle by value shares its TensorImpl with the caller's: set_data
// through one parameter moves what the other, bound to the same tensor,
// holds. (Assigning a parameter does not: it rebinds the callee's handle.)
torch::Tensor rebinds_one(torch::Tensor a, torch::Tensor b) {
  a.set_data(a.to(torch::kCPU));
  return b + torch::ones({2, 4});
}
void to_cpu_in_place(torch::Tensor t) { t.set_data(t.to(torch::kCPU)); }
torch::Tensor reassigns(torch::Tensor a) {
  a = a.to(torch::kCPU);
  return a + torch::ones({2, 4});
}

void run_clean(Maker &maker) {
  auto shared = torch::randn({2, 4}, torch::kCUDA);
  rebinds_one(shared, shared);
  reassigns(shared);
  auto moved_back = torch::randn({2, 4}, torch::kCUDA);
  to_cpu_in_place(moved_back);
  auto sum = moved_back + torch::ones({2, 4});
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(
          torch::data::transforms::Stack<>()),
      64);
  train_clean(model, device, *loader, optimizer);

  Net other;
  to_device(other, torch::kCUDA);
  auto y = other->forward(torch::rand({8, 784}));  // moved by the helper: unknown

  auto a = torch::ones({4, 4});
  upload(a);
  auto b = a + torch::ones({4, 4}, torch::kCUDA);  // a was replaced by the helper

  auto x = torch::randn({64, 10}).to(device);
  auto z = identity(x) + x;
  auto w = scaled(x, device);
  auto r = repeat(x, 3) + x;
  auto m = maker.make() + torch::ones({4, 4}, torch::kCUDA);  // virtual: any override

  remember(model);
  registry.back()->to(torch::kCPU);
  auto v = model->forward(torch::rand({8, 784}));  // a copy of the handle moved it
  (void)sum, (void)y, (void)b, (void)z, (void)w, (void)r, (void)m, (void)v;
}
