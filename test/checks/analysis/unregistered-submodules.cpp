// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// The forgotten register_module: Module::to and the casts walk only the
// registered children and parameters (LibTorch's nn/module.cpp), so a layer
// a module builds into a member without registering it stays on the cpu in
// float32 whatever its module does. The model moves, its input moves with
// it, and the unregistered layer gets an input on another device: "Expected
// all tensors to be on the same device" on the first GPU machine. Judged
// only when the class alone decides what the member holds.

// --- Bugs --------------------------------------------------------------------

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = torch::nn::Linear(784, 64);
    fc2 = register_module("fc2", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: input 'x' is on 'device' but 'fc1' is on cpu [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE+74]]:35: note: 'x' is on 'device': moved here
    // CHECK-MESSAGES: :[[@LINE-7]]:11: note: 'fc1' is built here on cpu and never registered with register_module: moving its module does not move it
    // CHECK-MESSAGES: :[[@LINE+73]]:8: note: in the call to 'forward' here
    return fc2->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Net);

// Built in the initialiser list, and called through the holder.
class Encoder : public torch::nn::Module {
public:
  Encoder() : conv(torch::nn::Conv2dOptions(3, 8, 3)) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return conv(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: input 'x' is on cuda but 'conv' is on cpu [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE+63]]:20: note: 'x' is on cuda: created here
    // CHECK-MESSAGES: :[[@LINE-5]]:15: note: 'conv' is built here on cpu and never registered with register_module: moving its module does not move it
    // CHECK-MESSAGES: :[[@LINE+61]]:12: note: in the call to 'forward' here
  }

private:
  torch::nn::Conv2d conv;
};

// Built by the member's own initialiser; the model is cast, the layer not.
struct HalfHead : torch::nn::Module {
  HalfHead() { register_module("norm", norm); }
  torch::Tensor forward(torch::Tensor x) { return head(norm(x)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: input 'norm(x)' is float64 but 'head' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+52]]:9: note: 'norm(x)' is float64: output of a module cast here
  // CHECK-MESSAGES: :[[@LINE+3]]:25: note: 'head' is built here with float32 parameters and never registered with register_module: casting its module does not cast it
  // CHECK-MESSAGES: :[[@LINE+51]]:9: note: in the call to 'forward' here
  torch::nn::LayerNorm norm{torch::nn::LayerNormOptions({16})};
  torch::nn::Linear head{16, 4};
};

// A container of layers, never registered.
struct Tower : torch::nn::Module {
  Tower() {
    body = torch::nn::Sequential(torch::nn::Linear(8, 8), torch::nn::ReLU());
    out = register_module("out", torch::nn::Linear(8, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return out(body->forward(x)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: input 'x' is on cuda but 'body' is on cpu [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE+42]]:38: note: 'x' is on cuda: moved here
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'body' is built here on cpu and never registered with register_module: moving its module does not move it
  // CHECK-MESSAGES: :[[@LINE+40]]:10: note: in the call to 'forward' here
  torch::nn::Sequential body{nullptr};
  torch::nn::Linear out{nullptr};
};

// A user module, never registered, whose forward() hands its input to a
// layer of its own.
struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc(x)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);
struct Stack : torch::nn::Module {
  Stack() { block = Block(); }
  torch::Tensor forward(torch::Tensor x) { return block(x); }
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: input 'x' is on cuda but 'block' is on cpu [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE+27]]:18: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'block' is built here on cpu and never registered with register_module: moving its module does not move it
  // CHECK-MESSAGES: :[[@LINE+25]]:10: note: in the call to 'forward' here
  Block block{nullptr};
};

void run_bugs() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  auto x = torch::randn({2, 784}).to(device);
  net->forward(x);

  auto encoder = std::make_shared<Encoder>();
  encoder->to(torch::kCUDA);
  encoder->forward(torch::rand({1, 3, 8, 8}, torch::kCUDA));

  auto head = std::make_shared<HalfHead>();
  head->to(torch::kFloat64);
  head->forward(torch::rand({2, 16}, torch::kFloat64));

  auto tower = std::make_shared<Tower>();
  tower->to(torch::kCUDA);
  tower->forward(torch::ones({4, 8}).cuda());

  auto stack = std::make_shared<Stack>();
  stack->to(torch::kCUDA);
  stack->forward(torch::ones({4, 8}, torch::kCUDA));
}

// --- Clean -------------------------------------------------------------------

// Registered after it is built, or in the assignment.
struct Registered : torch::nn::Module {
  Registered() {
    fc = torch::nn::Linear(4, 2);
    register_module("fc", fc);
    gate = register_module("gate", torch::nn::Linear(4, 4));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(gate(x)); }
  torch::nn::Linear fc{nullptr}, gate{nullptr};
};

// The class moves the layer itself.
struct MovesItsLayer : torch::nn::Module {
  explicit MovesItsLayer(torch::Device d) {
    fc = torch::nn::Linear(4, 2);
    fc->to(d);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// Overrides to() to move the layer with the module.
struct OverridesTo : torch::nn::Module {
  OverridesTo() { fc = torch::nn::Linear(4, 2); }
  void to(torch::Device d, bool non_blocking = false) override {
    torch::nn::Module::to(d, non_blocking);
    fc->to(d, non_blocking);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// A public member that code outside the class moves.
struct MovedFromOutside : torch::nn::Module {
  MovedFromOutside() { fc = torch::nn::Linear(4, 2); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// A layer given to the constructor: whoever made it may have registered or
// moved it.
struct SharesALayer : torch::nn::Module {
  explicit SharesALayer(torch::nn::Linear shared) : fc(shared) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

// An activation has no parameters, and so no device.
struct Activation : torch::nn::Module {
  Activation() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return act(fc(x)); }
  torch::nn::Linear fc;
  torch::nn::ReLU act;
};

// Registered on one path only: not known.
struct SometimesRegistered : torch::nn::Module {
  explicit SometimesRegistered(bool share) {
    if (share)
      fc = register_module("fc", torch::nn::Linear(4, 2));
    else
      fc = torch::nn::Linear(4, 2);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// A protected member that a derived class registers.
class Base : public torch::nn::Module {
protected:
  Base() { fc = torch::nn::Linear(4, 2); }
  torch::nn::Linear fc{nullptr};

public:
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
struct Derived : Base {
  Derived() { register_module("fc", fc); }
};

// Handed out by a method: the caller may move it.
class HandsOutLayer : public torch::nn::Module {
public:
  HandsOutLayer() { fc = torch::nn::Linear(4, 2); }
  torch::nn::Linear &layer() { return fc; }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }

private:
  torch::nn::Linear fc{nullptr};
};

// Handed out: registered through its pointer, moved through it, its
// parameters moved by hand, shared with a registered container, or
// registered by a friend or by a static factory of the class.
struct RegisteredByPointer : torch::nn::Module {
  RegisteredByPointer() {
    fc = torch::nn::Linear(4, 2);
    register_module("fc", fc.ptr());
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct MovedByPointer : torch::nn::Module {
  MovedByPointer() { fc = torch::nn::Linear(4, 2); }
  void to(torch::Device d, bool non_blocking = false) override {
    torch::nn::Module::to(d, non_blocking);
    fc.get()->to(d, non_blocking);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct MovesParameters : torch::nn::Module {
  MovesParameters() { fc = torch::nn::Linear(4, 2); }
  void to(torch::Device d, bool non_blocking = false) override {
    torch::nn::Module::to(d, non_blocking);
    for (auto &p : fc->parameters())
      p.set_data(p.data().to(d));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct SharedWithSequential : torch::nn::Module {
  SharedWithSequential()
      : fc(torch::nn::LinearOptions(4, 4)),
        seq(register_module("seq", torch::nn::Sequential(fc, torch::nn::ReLU()))) {}
  torch::Tensor forward(torch::Tensor x) { return seq->forward(fc(x)); }
  torch::nn::Linear fc;
  torch::nn::Sequential seq;
};
class RegisteredByFriend : public torch::nn::Module {
public:
  RegisteredByFriend() { fc = torch::nn::Linear(4, 2); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  friend void finish(RegisteredByFriend &m);

private:
  torch::nn::Linear fc{nullptr};
};
void finish(RegisteredByFriend &m) { m.register_module("fc", m.fc); }
class RegisteredByFactory : public torch::nn::Module {
public:
  RegisteredByFactory() { fc = torch::nn::Linear(4, 2); }
  static std::shared_ptr<RegisteredByFactory> make() {
    auto m = std::make_shared<RegisteredByFactory>();
    m->register_module("fc", m->fc);
    return m;
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }

private:
  torch::nn::Linear fc{nullptr};
};

// User modules whose forward() computes with no layer of their own: one
// divides by a 0-dim parameter (ATen lets a 0-dim cpu tensor meet a cuda
// one), the other does not use its parameter. Unregistered, they stay on
// the cpu and still run on cuda input.
struct TemperatureImpl : torch::nn::Module {
  TemperatureImpl() { t = register_parameter("t", torch::ones({})); }
  torch::Tensor forward(torch::Tensor x) { return x / t; }
  torch::Tensor t;
};
TORCH_MODULE(Temperature);
struct UnusedImpl : torch::nn::Module {
  UnusedImpl() { w = register_parameter("w", torch::randn({4})); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x); }
  torch::Tensor w;
};
TORCH_MODULE(Unused);
struct Calibrated : torch::nn::Module {
  Calibrated() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    temp = Temperature();
    unused = Unused();
  }
  torch::Tensor forward(torch::Tensor x) { return temp(fc(x)) + unused(x); }
  torch::nn::Linear fc{nullptr};
  Temperature temp{nullptr};
  Unused unused{nullptr};
};

void run_clean() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::randn({2, 4}).to(device);

  auto registered = std::make_shared<Registered>();
  registered->to(device);
  registered->forward(x);

  auto moves = std::make_shared<MovesItsLayer>(device);
  moves->to(device);
  moves->forward(x);

  auto overrides = std::make_shared<OverridesTo>();
  overrides->to(device);
  overrides->forward(x);

  auto outside = std::make_shared<MovedFromOutside>();
  outside->to(device);
  outside->fc->to(device);
  outside->forward(x);

  auto shared = std::make_shared<SharesALayer>(torch::nn::Linear(4, 2));
  shared->to(device);
  shared->forward(x);

  auto act = std::make_shared<Activation>();
  act->to(device);
  act->forward(x);

  auto sometimes = std::make_shared<SometimesRegistered>(true);
  sometimes->to(device);
  sometimes->forward(x);

  auto derived = std::make_shared<Derived>();
  derived->to(device);
  derived->forward(x);

  auto hands = std::make_shared<HandsOutLayer>();
  hands->layer()->to(device);
  hands->to(device);
  hands->forward(x);

  auto by_pointer = std::make_shared<RegisteredByPointer>();
  by_pointer->to(device);
  by_pointer->forward(x);
  auto moved_by_pointer = std::make_shared<MovedByPointer>();
  moved_by_pointer->to(device);
  moved_by_pointer->forward(x);
  auto moves_parameters = std::make_shared<MovesParameters>();
  moves_parameters->to(device);
  moves_parameters->forward(x);
  auto with_sequential = std::make_shared<SharedWithSequential>();
  with_sequential->to(device);
  with_sequential->forward(x);
  auto by_friend = std::make_shared<RegisteredByFriend>();
  finish(*by_friend);
  by_friend->to(device);
  by_friend->forward(x);
  auto by_factory = RegisteredByFactory::make();
  by_factory->to(device);
  by_factory->forward(x);

  auto calibrated = std::make_shared<Calibrated>();
  calibrated->to(torch::kCUDA);
  calibrated->forward(torch::randn({2, 4}, torch::kCUDA));
  Temperature temperature;
  temperature(torch::randn({2, 4}, torch::kCUDA));

  // Never moved: an unregistered layer on the cpu with its input there.
  Net net;
  net->forward(torch::randn({2, 784}));
}

// A registered child called through its module's handle after the module
// was cast or moved: Module::to converted it in place (a blind trial's
// false positive, syys96/libtorch_learn). No finding.
struct CastNetImpl : torch::nn::Module {
  CastNetImpl() : fc(4, 4) { register_module("fc", fc); }
  torch::nn::Linear fc;
};
TORCH_MODULE(CastNet);

void registered_child_after_a_cast() {
  CastNet model;
  model->to(torch::kHalf);
  auto y = model->fc(torch::zeros({1, 4}, torch::kHalf));
}

void registered_child_after_a_move(torch::Device device) {
  CastNet model;
  model->to(device);
  auto y = model->fc(torch::zeros({1, 4}).to(device));
}
