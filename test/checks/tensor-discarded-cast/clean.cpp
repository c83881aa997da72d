// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Correct code: nothing here may be reported.

torch::Tensor consume(const torch::Tensor &t);

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", std::make_shared<torch::nn::LinearImpl>(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  std::shared_ptr<torch::nn::LinearImpl> fc;
};
TORCH_MODULE(Net);

torch::Tensor used(torch::Tensor x, torch::Device device, Net net,
                   torch::nn::Linear linear, std::shared_ptr<NetImpl> shared) {
  // Module moves are in place: their result is void.
  net->to(device);
  linear->to(torch::kHalf);
  shared->to(device, torch::kFloat);
  Net local;
  local->to(torch::kCUDA);

  // Conversions whose result is used.
  x = x.to(device);                       // assigned
  auto y = x.to(torch::kHalf);            // initialised
  torch::Tensor z(x.cuda());              // constructed
  consume(x.contiguous());                // passed
  x.to(torch::kFloat).sum();              // chained
  y = consume(x.clone()).detach();        // chained through a call
  const torch::Tensor &ref = x.cpu();     // bound to a reference
  (void)x.to(torch::kHalf);               // silenced: AllowCastToVoid
  static_cast<void>(x.pin_memory());      // silenced: AllowCastToVoid
  std::vector<torch::Tensor> v{x.to(device)};
  if (x.cuda().defined()) {}              // inspected
  auto lam = [&] { return x.to(device); };
  y = ({ x.to(device); });                // value of a statement expression
  bool c = true;
  torch::Tensor w = c ? x.cuda() : y.cuda();
  torch::Tensor u = (x.sum(), x.cpu());   // right of a used comma
  (void)ref; (void)z; (void)lam; (void)w; (void)u;

  // In-place operations and non-conversions.
  x.copy_(y);
  x.add_(y);
  x.zero_();
  x.detach_();
  x.backward();
  x.sum();                                // not a conversion: another check's business
  return x.to(torch::kCPU);               // returned
}

// A class that only shares a method name with tensors is not a tensor.
struct Tokenizer {
  Tokenizer to(int) const;
  Tokenizer cuda() const;
};
void not_a_tensor(Tokenizer t) {
  t.to(3);
  t.cuda();
}
