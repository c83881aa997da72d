// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Net);

void matching_dtypes(torch::Device device, torch::Tensor unknown) {
  Net model;
  model->to(torch::kHalf);
  auto x = torch::rand({8, 784}).to(device, torch::kHalf);
  auto a = model->forward(x);                 // both float16
  auto b = model->forward(x.to(torch::kHalf));
  auto c = model->forward(unknown);           // unknown dtype
  Net fresh;
  auto d = fresh->forward(x);                 // a user module's dtype: unknown
  (void)a, (void)b, (void)c, (void)d;
}

void arithmetic_promotes() {
  auto h = torch::randn({4, 4}).to(torch::kHalf);
  auto f = torch::randn({4, 4});
  auto s = h + f;                             // promotes to float32
  auto m = torch::matmul(f, f);               // same dtype
  auto i = torch::randint(10, {4, 4});        // int64: not floating
  auto n = torch::matmul(f, f.toType(torch::kFloat));
  (void)s, (void)m, (void)i, (void)n;
}

void paths_disagree(bool c) {
  auto a = torch::randn({4, 4});
  if (c)
    a = a.to(torch::kHalf);
  auto b = torch::randn({4, 4});
  auto r = torch::matmul(a, b);               // float16 on one path only
  torch::nn::Linear fc(4, 2);
  if (c)
    fc->to(torch::kHalf);
  auto y = fc->forward(b);                    // float32 when !c
  (void)r, (void)y;
}

struct SelfCastingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.to(torch::kHalf)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(SelfCasting);

void forward_casts_its_input() {
  SelfCasting model;
  model->to(torch::kHalf);
  model->forward(torch::ones({1, 4}));             // forward casts it itself
}
