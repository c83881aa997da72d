// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// A recurrent layer's initial state made inside a user module's forward():
// on the cpu, it meets the layer on the module's device ("Input and hidden
// tensors are not at the same device"), whatever device the caller's
// input has. State made on the input's device or options is clean.

struct EncoderImpl : torch::nn::Module {
  EncoderImpl()
      : lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(10, 20).num_layers(2)))),
        fc(register_module("fc", torch::nn::Linear(20, 5))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h0 = torch::zeros({2, x.size(1), 20});
    auto c0 = torch::zeros({2, x.size(1), 20});
    auto out = std::get<0>(lstm->forward(x, std::make_tuple(h0, c0)));
    // CHECK-MESSAGES: :[[@LINE-1]]:61: warning: input 'h0' is on cpu but 'lstm' is on cuda [tensor-unmoved-input]
    return fc(out.select(0, -1));
  }
  torch::nn::LSTM lstm;
  torch::nn::Linear fc;
};
TORCH_MODULE(Encoder);

struct GruImpl : torch::nn::Module {
  GruImpl() : gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(10, 20)))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h0 = torch::zeros({1, x.size(1), 20});
    return std::get<0>(gru->forward(x, h0));
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: input 'h0' is on cpu but 'gru' is on cuda [tensor-unmoved-input]
  }
  torch::nn::GRU gru;
};
TORCH_MODULE(Gru);

void moved_then_called() {
  torch::Device device(torch::kCUDA);
  Encoder enc;
  enc->to(device);
  auto y = enc(torch::randn({7, 4, 10}).to(device));
  Gru gru;
  gru->to(device);
  auto z = gru(torch::randn({7, 4, 10}).to(device));
  (void)y, (void)z;
}

// --- Clean -------------------------------------------------------------------

// The state follows the input: its device, or its options.
struct FollowsImpl : torch::nn::Module {
  FollowsImpl() : lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(10, 20)))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h0 = torch::zeros({1, x.size(1), 20}, x.options());
    auto c0 = torch::zeros({1, x.size(1), 20}).to(x.device());
    return std::get<0>(lstm->forward(x, std::make_tuple(h0, c0)));
  }
  torch::nn::LSTM lstm;
};
TORCH_MODULE(Follows);

// A module left on the cpu: cpu state is right.
void cpu_model() {
  Encoder enc;
  auto y = enc(torch::randn({7, 4, 10}));
  Follows f;
  f->to(torch::kCUDA);
  auto z = f(torch::randn({7, 4, 10}, torch::kCUDA));
  (void)y, (void)z;
}

// Where the module is, is not known (a parameter): no finding.
void unknown_module(Encoder &enc, torch::Tensor x) {
  auto y = enc(x);
  (void)y;
}

// Submodules without parameters (an activation, a loss without weights) have
// no device of their own: a method that feeds them cpu tensors is fine.
struct HeadsImpl : torch::nn::Module {
  HeadsImpl()
      : fc(register_module("fc", torch::nn::Linear(4, 2))),
        sm(register_module("sm", torch::nn::Softmax(1))),
        ce(register_module("ce", torch::nn::CrossEntropyLoss())) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::Tensor probs(torch::Tensor l) { return sm(l.cpu()); }
  torch::Tensor loss(torch::Tensor o, torch::Tensor y) { return ce(o.cpu(), y.cpu()); }
  torch::nn::Linear fc;
  torch::nn::Softmax sm;
  torch::nn::CrossEntropyLoss ce;
};
TORCH_MODULE(Heads);

// A method that moves its module through a helper: its layers are then
// where the helper put them, not where the caller's module was.
struct MovableImpl : torch::nn::Module {
  MovableImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  void to_cpu() { to(torch::kCPU); }
  torch::Tensor infer(torch::Tensor x) {
    to_cpu();
    return fc(x.cpu());
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Movable);

void parameterless_and_self_moving(torch::Tensor o, torch::Tensor y) {
  Heads h;
  h->to(torch::kCUDA);
  auto p = h->probs(o);
  auto l = h->loss(o, y);
  Movable m;
  m->to(torch::kCUDA);
  auto r = m->infer(o);
  (void)p, (void)l, (void)r;
}
