// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// What a call does, read from the op schemas of LibTorch's own headers:
// integer and slice indexing keep a tensor's device and dtype, functional
// layers combine their input with their weights, any op's tensors must
// share a device; a module built by a helper or by a user's class has its
// layers' float32 parameters, and a tensor a module method makes on the cpu
// meets the method's input on the module's device.

namespace F = torch::nn::functional;

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(8, 16))),
        fc2(register_module("fc2", torch::nn::Linear(16, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

torch::nn::Sequential create_discriminator() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 4).stride(2).bias(false)),
      torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 1, 3)), torch::nn::Sigmoid());
}

// A mask made on the cpu inside forward().
struct MaskedImpl : torch::nn::Module {
  MaskedImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({4, 4}).tril();
    auto scores = torch::matmul(x, x.t());
    return fc(scores.masked_fill(mask == 0, -1e9));
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'masked_fill' combines tensors on different devices: 'scores' is on cuda and 'mask == 0' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'scores' is on cuda: computed here
    // CHECK-MESSAGES: :[[@LINE-3]]:39: note: 'mask == 0' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE+89]]:15: note: in the call to 'forward' here
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Masked);

// A tensor member that is not a registered buffer: Module::to leaves it
// on the cpu.
struct ScaledImpl : torch::nn::Module {
  ScaledImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) { scale_ = torch::ones({4}); }
  torch::Tensor forward(torch::Tensor x) { return fc(x * scale_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'operator*' combines tensors on different devices: 'x' is on cuda and 'scale_' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+70]]:23: note: 'x' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:80: note: 'scale_' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+68]]:15: note: in the call to 'forward' here
  torch::nn::Linear fc;
  torch::Tensor scale_;
};
TORCH_MODULE(Scaled);

// --- Bugs --------------------------------------------------------------------

void integer_indexing() {
  auto images = torch::randn({8, 3, 32, 32}).cuda();
  auto first = images[0];
  auto out = first + torch::ones({3, 32, 32});
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'operator+' combines tensors on different devices: 'first' is on cuda and 'torch::ones({3, 32, 32})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: 'first' is on cuda: moved here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'torch::ones({3, 32, 32})' is on cpu: created here
  auto hx = torch::zeros({2, 4, 16});
  auto h1 = hx.select(0, 1).narrow(1, 0, 8);
  auto bad = h1.mm(torch::randn({8, 8}, torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'mm' combines tensors on different devices: 'h1' is on cpu and 'torch::randn({8, 8}, torch::kCUDA)' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:13: note: 'h1' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'torch::randn({8, 8}, torch::kCUDA)' is on cuda: created here
  (void)out, (void)bad;
}

void functional_layers(torch::Device device) {
  auto weight = torch::randn({4, 3, 3, 3}).to(device);
  auto input = torch::randn({2, 3, 8, 8});
  auto y = F::conv2d(input, weight);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'conv2d' combines tensors on different devices: 'input' is on cpu and 'weight' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'input' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:44: note: 'weight' is on 'device': moved here
  auto w = torch::randn({2, 8}, torch::kDouble);
  auto z = F::linear(torch::randn({4, 8}), w);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'linear' does not promote dtypes: 'torch::randn({4, 8})' is float32 and 'w' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: 'torch::randn({4, 8})' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'w' is float64: created here
  (void)y, (void)z;
}

void float64_into_user_module() {
  Net net;
  auto x = torch::randn({4, 8}, torch::TensorOptions(torch::kDouble));
  auto y = net->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'x' is float64 but 'net' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'net' has float32 parameters: created here
  (void)y;
}

void helper_sequential(torch::Device device) {
  torch::nn::Sequential discriminator = create_discriminator();
  discriminator->to(device);
  auto images = torch::rand({4, 1, 28, 28});
  auto real = discriminator->forward(images);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: input 'images' is on cpu but 'discriminator' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'images' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: 'discriminator' was moved to 'device' here
  // CHECK-FIXES: auto real = discriminator->forward(images.to(device));
  auto fake = discriminator->forward(torch::rand({4, 1, 28, 28}).to(device).to(torch::kDouble));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: input 'torch::rand({4, 1, 28, 28}).to(device...' is float64 but 'discriminator' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:77: note: 'torch::rand({4, 1, 28, 28}).to(device...' is float64: converted here
  // CHECK-MESSAGES: :[[@LINE-91]]:10: note: 'discriminator' has float32 parameters: created here
  (void)real, (void)fake;
}

void unregistered_member() {
  Scaled s;
  s->to(torch::kCUDA);
  auto y = s->forward(torch::randn({2, 4}, torch::kCUDA));
  (void)y;
}

void cpu_tensor_inside_forward() {
  Masked m;
  m->to(torch::kCUDA);
  auto y = m->forward(torch::randn({4, 4}, torch::kCUDA));
  (void)y;
}

// F::mse_loss, smooth_l1_loss and huber_loss reach the loss through
// broadcast_tensors({input, target}): the list's elements are its tensors.
void functional_losses(torch::Device device) {
  auto output = torch::randn({15, 1}).to(device);
  auto target = torch::randn({15, 1});
  auto a = F::mse_loss(output, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'mse_loss' combines tensors on different devices: 'output' is on 'device' and 'target' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: 'output' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'target' is on cpu: created here
  auto b = F::smooth_l1_loss(torch::ones({15, 1}), output);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'smooth_l1_loss' combines tensors on different devices: 'torch::ones({15, 1})' is on cpu and 'output' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: note: 'torch::ones({15, 1})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-9]]:39: note: 'output' is on 'device': moved here
  (void)a, (void)b;
}

// --- Clean -------------------------------------------------------------------

// Registered buffers and parameters move with their module.
struct BufferedImpl : torch::nn::Module {
  BufferedImpl() { scale_ = register_buffer("scale", torch::ones({4})); }
  torch::Tensor forward(torch::Tensor x) { return x * scale_; }
  torch::Tensor scale_;
};
TORCH_MODULE(Buffered);
struct WeightedImpl : torch::nn::Module {
  WeightedImpl() { w_ = register_parameter("w", torch::ones({4})); }
  torch::Tensor forward(torch::Tensor x) { return x * w_; }
  torch::Tensor w_;
};
TORCH_MODULE(Weighted);

void clean_registered_members() {
  Buffered b;
  b->to(torch::kCUDA);
  auto y = b->forward(torch::randn({2, 4}, torch::kCUDA));
  Weighted w;
  w->to(torch::kCUDA);
  auto z = w->forward(torch::randn({2, 4}, torch::kCUDA));
  (void)y, (void)z;
}

void clean_indexing_and_functional(torch::Device device) {
  auto images = torch::randn({8, 3, 32, 32}).to(device);
  auto out = images[0] + torch::ones({3, 32, 32}).to(device);
  auto idx = torch::tensor({0, 2});
  auto picked = images.index({idx});               // cpu indices are allowed
  auto scaled = images * torch::tensor(2.0);        // a 0-dim cpu scalar joins
  auto weight = torch::randn({4, 3, 3, 3}).to(device);
  auto y = F::conv2d(images, weight);
  auto lengths = torch::tensor({3, 2}, torch::kLong);
  auto seq = torch::randn({3, 2, 5}).to(device);
  auto packed = torch::nn::utils::rnn::pack_padded_sequence(seq, lengths);
  auto shaped = images.expand_as(torch::empty({8, 3, 32, 32}));
  // The losses promote their input and target (TensorIterator's binary op).
  auto loss = F::mse_loss(y, torch::zeros_like(y)) + F::huber_loss(y, y.detach()) +
              F::smooth_l1_loss(y, y.to(torch::kDouble));
  (void)out, (void)picked, (void)scaled, (void)y, (void)packed, (void)shaped, (void)loss;
}

// A user module whose forward converts or only promotes its input.
struct ConvertsImpl : torch::nn::Module {
  ConvertsImpl() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x.to(torch::kFloat)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Converts);
struct CenterImpl : torch::nn::Module {
  CenterImpl() { mean = register_parameter("mean", torch::zeros({8})); }
  torch::Tensor forward(torch::Tensor x) { return x - mean; }
  torch::Tensor mean;
};
TORCH_MODULE(Center);
struct DoubleImpl : torch::nn::Module {
  DoubleImpl() : fc(register_module("fc", torch::nn::Linear(8, 2))) { to(torch::kDouble); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Double);

torch::nn::Sequential embedding_first() {
  return torch::nn::Sequential(torch::nn::Embedding(10, 4), torch::nn::Linear(4, 2));
}

void clean_modules(torch::Device device) {
  Net net;
  auto a = net->forward(torch::randn({4, 8}));
  Converts c;
  auto b = c->forward(torch::randn({4, 8}, torch::kDouble));
  Center n;
  auto d = n->forward(torch::randn({4, 8}, torch::kDouble));
  Double dbl;
  auto e = dbl->forward(torch::randn({4, 8}, torch::kDouble));
  auto f = embedding_first()->forward(torch::randint(0, 10, {4}));
  Net cast;
  cast->to(torch::kDouble);
  auto g = cast->forward(torch::randn({4, 8}, torch::kDouble));
  Masked m;
  auto h = m->forward(torch::randn({4, 4}));        // all on the cpu
  torch::nn::Sequential discriminator = create_discriminator();
  discriminator->to(device);
  auto i = discriminator->forward(torch::rand({4, 1, 28, 28}).to(device));
  (void)a, (void)b, (void)d, (void)e, (void)f, (void)g, (void)h, (void)i;
}

// A loss built with class weights holds them: they meet its inputs.
void loss_weights(torch::Device device) {
  auto weights = torch::tensor({1.0, 2.0, 0.5});
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(weights));
  auto out = torch::randn({4, 3}).to(device);
  auto target = torch::randint(0, 3, {4}).to(device);
  auto loss = criterion(out, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator()' combines tensors on different devices: 'out' is on 'device' and 'criterion' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: 'out' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'criterion' is on cpu: created here
  torch::nn::CrossEntropyLoss moved(torch::nn::CrossEntropyLossOptions().weight(weights));
  moved->to(device);
  auto fine = moved(out, target);
  torch::nn::CrossEntropyLoss built(torch::nn::CrossEntropyLossOptions().weight(weights.to(device)));
  auto also = built(out, target);
  torch::nn::CrossEntropyLoss plain;
  auto plainly = plain(out, target);
  (void)loss, (void)fine, (void)also, (void)plainly;
}

// A user method called on a module the caller moved: its registered layers
// are where the module is (Module::to moved them), so a cpu tensor handed
// to one of them fails, and a layer's output meets an unregistered member.
struct CoderImpl : torch::nn::Module {
  CoderImpl()
      : enc(register_module("enc", torch::nn::Linear(8, 2))),
        dec(register_module("dec", torch::nn::Linear(2, 8))) { bias_ = torch::zeros({8}); }
  torch::Tensor decode(torch::Tensor z) { return torch::sigmoid(dec(z)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: input 'z' is on cpu but 'dec' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE+17]]:12: note: 'z' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+15]]:10: note: 'dec' was moved to 'device' here
  // CHECK-MESSAGES: :[[@LINE+16]]:25: note: in the call to 'decode' here
  torch::Tensor forward(torch::Tensor x) { return enc(x); }
  torch::Tensor shifted(torch::Tensor x) { return dec(enc(x)) + bias_; }
  // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: 'operator+' combines tensors on different devices: 'dec(enc(x))' is on 'device' and 'bias_' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE+10]]:10: note: 'dec(enc(x))' is on 'device': output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-10]]:72: note: 'bias_' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE+12]]:19: note: in the call to 'shifted' here
  torch::nn::Linear enc, dec;
  torch::Tensor bias_;
};
TORCH_MODULE(Coder);

void methods_of_moved_modules(torch::Device device) {
  Coder coder;
  coder->to(device);
  auto z = torch::randn({4, 2});
  auto decoded = coder->decode(z);
  auto kept = coder->decode(z.to(device));
  auto s = coder->shifted(torch::randn({4, 8}).to(device));
  Coder on_cpu;
  auto fine = on_cpu->decode(z);
  (void)decoded, (void)kept, (void)s, (void)fine;
}

