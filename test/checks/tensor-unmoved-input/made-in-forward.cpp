// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-unmoved-input,tensor-mixed-device %t -- -- %libtorch

// A tensor a module's forward() makes itself (position ids from
// torch::arange, a padding row from torch::zeros) is on the cpu unless
// it says otherwise. Fed to one of the module's registered layers, it meets
// the layer where the module was moved, and fails there on a gpu
// ("Expected all tensors to be on the same device"). The caller's site
// judges only what the caller passes, so the forward() followed from it
// judges what it makes, one module deep or more. It offers no fix-it there:
// the forward is every caller's, and the device is one caller's.

// --- Bugs --------------------------------------------------------------------

struct PositionsImpl : torch::nn::Module {
  PositionsImpl() { pos = register_module("pos", torch::nn::Embedding(16, 8)); }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto positions = torch::arange(tokens.size(1)).unsqueeze(0);
    return pos->forward(positions);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'positions' is on cpu but 'pos' is on cuda [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'positions' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+27]]:10: note: 'pos' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE+28]]:19: note: in the call to 'forward' here
  }
  torch::nn::Embedding pos{nullptr};
};
TORCH_MODULE(Positions);

// Two modules deep, on a device the program picks at run time.
struct NullTokenImpl : torch::nn::Module {
  NullTokenImpl() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    return fc(x) - fc(torch::zeros({1, 8}));
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: input 'torch::zeros({1, 8})' is on cpu but 'fc' is on 'device' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE+19]]:9: note: 'fc' was moved to 'device' here
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(NullToken);
struct HeadImpl : torch::nn::Module {
  HeadImpl() { null = register_module("null", NullToken()); }
  torch::Tensor forward(torch::Tensor x) { return null(x); }
  NullToken null{nullptr};
};
TORCH_MODULE(Head);

void bugs(torch::Device device) {
  Positions model;
  model->to(torch::kCUDA);
  auto tokens = torch::randint(0, 16, {2, 8}, torch::kCUDA);
  auto y = model->forward(tokens);

  Head head;
  head->to(device);
  auto x = torch::randn({4, 8}).to(device);
  head(x);
}

// --- Clean -------------------------------------------------------------------

// Made where the input is, or moved there.
struct OnInputDeviceImpl : torch::nn::Module {
  OnInputDeviceImpl() { pos = register_module("pos", torch::nn::Embedding(16, 8)); }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto a = pos->forward(torch::arange(tokens.size(1), tokens.device()));
    auto b = pos->forward(torch::arange(
        tokens.size(1), torch::TensorOptions().device(tokens.device())));
    auto c = pos->forward(torch::arange(tokens.size(1)).to(tokens.device()));
    auto d = pos->forward(torch::zeros_like(tokens));
    return a + b + c + d;
  }
  torch::nn::Embedding pos{nullptr};
};
TORCH_MODULE(OnInputDevice);

// Made on the module's own device, read from one of its parameters.
struct OnParameterDeviceImpl : torch::nn::Module {
  OnParameterDeviceImpl() { pos = register_module("pos", torch::nn::Embedding(16, 8)); }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto positions = torch::arange(tokens.size(1), pos->weight.device());
    return pos->forward(positions);
  }
  torch::nn::Embedding pos{nullptr};
};
TORCH_MODULE(OnParameterDevice);

void clean(torch::Device device) {
  auto tokens = torch::randint(0, 16, {2, 8}).to(device);

  OnInputDevice on_input;
  on_input->to(device);
  on_input(tokens);

  OnParameterDevice on_parameter;
  on_parameter->to(device);
  on_parameter(tokens);

  // A module left on the cpu: its forward's cpu tensors meet cpu layers.
  Positions on_cpu;
  on_cpu(torch::randint(0, 16, {2, 8}));
}

// The caller's cpu input is the caller's finding; the tensors the forward
// makes like it (OnInputDevice's, above) are not a second one.
void callers_bug() {
  OnInputDevice moved;
  moved->to(torch::kCUDA);
  auto cpu_tokens = torch::randint(0, 16, {2, 8});
  moved(cpu_tokens);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: input 'cpu_tokens' is on cpu but 'moved' is on cuda [tensor-unmoved-input]
  // CHECK-FIXES: moved(cpu_tokens.to(torch::kCUDA));
}
