// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-unmoved-input,tensor-mixed-device %t -- -- %libtorch

// A user module that its constructor builds from layers and default-dtype
// parameters starts on the cpu. Called with an input on a gpu, it fails
// only where its forward() makes the input meet its parameters: a layer of
// its own, or an op with a parameter that has dimensions. ATen lets a 0-dim
// cpu tensor meet a cuda one, so a forward that divides by a 0-dim
// parameter, or uses none, runs on any device.

// --- Bugs --------------------------------------------------------------------

struct AffineImpl : torch::nn::Module {
  AffineImpl() {
    w = register_parameter("w", torch::randn({8, 8}));
    b = register_parameter("b", torch::zeros({8}));
  }
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w) + b; }
  torch::Tensor w, b;
};
TORCH_MODULE(Affine);

// Registered user modules all the way down to a layer.
struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc(x)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);
struct TowerImpl : torch::nn::Module {
  TowerImpl() { block = register_module("block", Block()); }
  torch::Tensor forward(torch::Tensor x) { return block(x); }
  Block block{nullptr};
};
TORCH_MODULE(Tower);

// A buffer moves with its module as a parameter does.
struct NormalizeImpl : torch::nn::Module {
  NormalizeImpl() { mean = register_buffer("mean", torch::zeros({8})); }
  torch::Tensor forward(torch::Tensor x) { return x - mean; }
  torch::Tensor mean;
};
TORCH_MODULE(Normalize);

// A class that places its model in its constructor, with LibTorch's
// torch::kCUDA constant (a constexpr variable, not an enumerator).
class Runner {
public:
  Runner() {
    block_ = Block();
    block_->to(torch::kCUDA);
  }
  torch::Tensor run(torch::Tensor x) { return block_(x); }
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: input 'x' is on cpu but 'block_' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE+23]]:14: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: 'block_' was moved to cuda here
  // CHECK-MESSAGES: :[[@LINE+21]]:10: note: in the call to 'run' here

private:
  Block block_{nullptr};
};

void bugs() {
  Affine affine;
  affine(torch::randn({2, 8}, torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: input 'torch::randn({2, 8}, torch::kCUDA)' is on cuda but 'affine' is on cpu [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: 'torch::randn({2, 8}, torch::kCUDA)' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'affine' is on cpu: created here

  Tower tower;
  auto x = torch::randn({2, 8}).cuda();
  tower->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: input 'x' is on cuda but 'tower' is on cpu [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:33: note: 'x' is on cuda: moved here
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'tower' is on cpu: created here

  Runner runner;
  runner.run(torch::randn({2, 8}));

  // Its parameters read, and only read: nothing rebinds them.
  Affine counted;
  int64_t count = 0;
  for (const auto &p : counted->parameters())
    count += p.numel();
  counted(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: input 'x' is on cuda but 'counted' is on cpu [tensor-unmoved-input]

  Normalize normalize;
  normalize(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: input 'x' is on cuda but 'normalize' is on cpu [tensor-unmoved-input]
}

// --- Clean -------------------------------------------------------------------

// A 0-dim parameter: a cpu scalar meets a cuda input.
struct TemperatureImpl : torch::nn::Module {
  TemperatureImpl() { t = register_parameter("t", torch::ones({})); }
  torch::Tensor forward(torch::Tensor x) { return x / t; }
  torch::Tensor t;
};
TORCH_MODULE(Temperature);

// A parameter the forward does not use.
struct UnusedImpl : torch::nn::Module {
  UnusedImpl() { w = register_parameter("w", torch::randn({4})); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x); }
  torch::Tensor w;
};
TORCH_MODULE(Unused);

// A forward that moves its parameter to the input.
struct FollowsInputImpl : torch::nn::Module {
  FollowsInputImpl() { w = register_parameter("w", torch::randn({8, 8})); }
  torch::Tensor forward(torch::Tensor x) {
    return torch::matmul(x, w.to(x.device()));
  }
  torch::Tensor w;
};
TORCH_MODULE(FollowsInput);

// A parameter a method replaces: where it is is not known.
struct ReplacedImpl : torch::nn::Module {
  ReplacedImpl() { w = register_parameter("w", torch::randn({8, 8})); }
  void reset(torch::Tensor v) { w = v; }
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w); }
  torch::Tensor w;
};
TORCH_MODULE(Replaced);

// A parameter made from a tensor given to the constructor.
struct GivenImpl : torch::nn::Module {
  explicit GivenImpl(torch::Tensor init) { w = register_parameter("w", init); }
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w); }
  torch::Tensor w;
};
TORCH_MODULE(Given);

// A constructor that moves its parameters one by one.
struct MovesParametersImpl : torch::nn::Module {
  MovesParametersImpl() {
    w = register_parameter("w", torch::randn({8, 8}));
    for (auto &p : parameters())
      p.set_data(p.data().cuda());
  }
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w); }
  torch::Tensor w;
};
TORCH_MODULE(MovesParameters);

// A forward that moves its module to its input.
struct FollowsItsInputImpl : torch::nn::Module {
  FollowsItsInputImpl() { w = register_parameter("w", torch::randn({8, 8})); }
  torch::Tensor forward(torch::Tensor x) {
    to(x.device());
    return torch::matmul(x, w);
  }
  torch::Tensor w;
};
TORCH_MODULE(FollowsItsInput);

void clean(torch::Tensor init) {
  auto x = torch::randn({2, 8}, torch::kCUDA);
  Temperature temperature;
  temperature(x);
  Unused unused;
  unused(x);
  FollowsInput follows;
  follows(x);
  Replaced replaced;
  replaced(x);
  Given given(init);
  given(x);

  MovesParameters moves_parameters;
  moves_parameters(x);
  FollowsItsInput follows_its_input;
  follows_its_input(x);

  // Moved through a copy of its holder, its pointer, apply(), or the
  // parent it was registered with.
  Affine original;
  Affine copy = original;
  copy->to(torch::kCUDA);
  original(x);
  Affine pointed;
  pointed.ptr()->to(torch::kCUDA);
  pointed(x);
  Affine applied;
  applied->apply([](torch::nn::Module &m) { m.to(torch::kCUDA); });
  applied(x);
  Affine child;
  auto parent = std::make_shared<torch::nn::Module>();
  parent->register_module("child", child);
  parent->to(torch::kCUDA);
  child(x);
  // Copied into a container, and moved there.
  Affine listed;
  std::vector<Affine> copies{listed};
  for (auto &m : copies)
    m->to(torch::kCUDA);
  listed(x);

  // Moved with its input.
  Affine affine;
  affine->to(torch::kCUDA);
  affine(x);
  Runner runner;
  runner.run(x);

}

// Its parameters moved one by one: they share the module's TensorImpls.
void movesItsParameters(const torch::Tensor &x) {
  Affine affine;
  {
    torch::NoGradGuard no_grad;
    for (auto &p : affine->parameters())
      p.set_data(p.data().to(torch::kCUDA));
  }
  affine(x.cuda());

  Affine named;
  auto w = named->named_parameters()["w"];
  w.set_data(w.data().cuda());
  auto b = named->named_parameters()["b"];
  b.set_data(b.data().cuda());
  named(x.cuda());
}

// A registered child called through its module's handle: the module's to()
// moved it in place (a blind trial's false positive, syys96/libtorch_learn).
struct HolderNetImpl : torch::nn::Module {
  HolderNetImpl() : fc(4, 4) { register_module("fc", fc); }
  torch::nn::Linear fc;
};
TORCH_MODULE(HolderNet);

void registered_child_through_the_handle(torch::Device device) {
  HolderNet model;
  model->to(device);
  auto x = torch::zeros({1, 4}).to(device);
  auto y = model->fc(x);
  auto z = model->fc->forward(x);
}

void registered_child_on_cuda() {
  HolderNet model;
  model->to(torch::kCUDA);
  auto y = model->fc(torch::zeros({1, 4}).cuda());
}
