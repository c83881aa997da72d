// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-mixed-dtype,tensor-unmoved-input %t -- -- %libtorch

// A module's forward() that calls another method of its own (encode(x),
// reparameterize(mu, logvar)) runs it on the same module: its registered
// layers are where the module was moved. A method that may move the module
// first, or a forward() not followed from a caller that knows the module,
// tells nothing.
#include <torch/torch.h>
#include <tuple>

struct VaeImpl : torch::nn::Module {
  VaeImpl()
      : enc(register_module("enc", torch::nn::Linear(784, 400))),
        mu_head(register_module("mu_head", torch::nn::Linear(400, 20))),
        logvar_head(register_module("logvar_head", torch::nn::Linear(400, 20))) {}
  std::tuple<torch::Tensor, torch::Tensor> encode(const torch::Tensor &x) {
    auto h = torch::relu(enc->forward(x));
    return {mu_head->forward(h), logvar_head->forward(h)};
  }
  torch::Tensor sample(const torch::Tensor &mu, const torch::Tensor &logvar) {
    auto eps = torch::randn({mu.size(0), mu.size(1)});
    return mu + eps * torch::exp(0.5 * logvar);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'operator*' combines tensors on different devices: 'eps' is on cpu and 'torch::exp(0.5 * logvar)' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'eps' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-3]]:38: note: 'torch::exp(0.5 * logvar)' is on cuda: computed here
    // CHECK-MESSAGES: :[[@LINE+6]]:12: note: in the call to 'sample' here
    // CHECK-MESSAGES: :[[@LINE+22]]:19: note: in the call to 'forward' here
  }
  torch::Tensor forward(const torch::Tensor &x) {
    torch::Tensor mu, logvar;
    std::tie(mu, logvar) = encode(x);
    return sample(mu, logvar);
  }
  torch::Tensor encode_mean(const torch::Tensor &x) {
    return std::get<0>(encode(x)) + torch::zeros({20});
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'operator+' combines tensors on different devices: 'std::get<0>(encode(x))' is on cuda and 'torch::zeros({20})' is on cpu [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE+10]]:10: note: 'std::get<0>(encode(x))' is on cuda: output of a module placed here
    // CHECK-MESSAGES: :[[@LINE-3]]:37: note: 'torch::zeros({20})' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+11]]:19: note: in the call to 'encode_mean' here
  }
  torch::nn::Linear enc, mu_head, logvar_head;
};
TORCH_MODULE(Vae);

void train_vae_on_cuda() {
  Vae model;
  model->to(torch::kCUDA);
  auto x = torch::rand({64, 784}, torch::kCUDA);
  auto z = model->forward(x);
  auto m = model->encode_mean(x);
}

// Clean: the noise made where mu is.
struct VaeLikeImpl : torch::nn::Module {
  VaeLikeImpl()
      : enc(register_module("enc", torch::nn::Linear(784, 400))),
        mu_head(register_module("mu_head", torch::nn::Linear(400, 20))) {}
  torch::Tensor encode(const torch::Tensor &x) {
    return mu_head->forward(torch::relu(enc->forward(x)));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto mu = encode(x);
    return mu + torch::randn_like(mu);
  }
  torch::nn::Linear enc, mu_head;
};
TORCH_MODULE(VaeLike);

void train_vae_like_on_cuda() {
  VaeLike model;
  model->to(torch::kCUDA);
  auto z = model->forward(torch::rand({64, 784}, torch::kCUDA));
}

// Clean: a forward() that moves its own module back to the cpu first.
struct MovesItselfImpl : torch::nn::Module {
  MovesItselfImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor head(const torch::Tensor &x) { return fc->forward(x); }
  torch::Tensor forward(const torch::Tensor &x) {
    this->to(torch::kCPU);
    return head(x.cpu()) + torch::ones({4});
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(MovesItself);

void moves_itself() {
  MovesItself m;
  m->to(torch::kCUDA);
  auto y = m->forward(torch::randn({2, 4}, torch::kCUDA));
}
