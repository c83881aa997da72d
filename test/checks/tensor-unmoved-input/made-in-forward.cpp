// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-unmoved-input,tensor-mixed-device,tensor-mixed-dtype %t -- -- %libtorch

// A tensor a module's forward() makes itself (position ids from
// torch::arange, a padding row from torch::zeros) is on the cpu unless
// it says otherwise. Fed to one of the module's registered layers, it meets
// the layer where the module was moved, and fails there on a gpu
// ("Expected all tensors to be on the same device"). The caller's site
// judges only what the caller passes, so the forward() followed from it
// judges what it makes, one module deep or more; so with an input the
// forward converts itself (`x.to(torch::kFloat64)`, `x.cpu()`). It offers
// no fix-it there: the forward is every caller's, and the device is one
// caller's.

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

// A forward that converts its input itself, away from its layer.
struct WidenImpl : torch::nn::Module {
  WidenImpl() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x.to(torch::kFloat64)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: input 'x.to(torch::kFloat64)' is float64 but 'fc' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Widen);
struct ToHostImpl : torch::nn::Module {
  ToHostImpl() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x.cpu()); }
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: input 'x.cpu()' is on cpu but 'fc' is on cuda [tensor-unmoved-input]
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ToHost);

void converted_inside() {
  Widen widen;
  widen(torch::randn({2, 8}));
  ToHost to_host;
  to_host->to(torch::kCUDA);
  to_host(torch::randn({2, 8}, torch::kCUDA));
}

// --- Clean -------------------------------------------------------------------

// Converted to where, and to what, the caller put the module.
struct HalfInputImpl : torch::nn::Module {
  HalfInputImpl() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x.to(torch::kHalf)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(HalfInput);
void converted_to_the_module() {
  HalfInput model;
  model->to(torch::kCUDA, torch::kHalf);
  model(torch::randn({2, 8}, torch::kCUDA));
}

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
