// RUN: %check_tidy %s tensor-mixed-device %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Correct or undecidable code: nothing here may be reported.

void mutate(torch::Tensor &t);
torch::Tensor make();

void same_device(torch::Device device) {
  auto a = torch::randn({2, 3}).to(device);
  auto b = torch::randn({2, 3}, torch::TensorOptions().device(device));
  auto c = a + b;
  auto x = torch::ones({2}, torch::kCUDA);
  auto y = torch::zeros({2}).cuda();
  auto z = x * y;
  (void)c, (void)z;
}

void zero_dim_and_scalars() {
  auto g = torch::ones({4, 4}, torch::kCUDA);
  auto scale = torch::tensor(2.0);       // 0-dim cpu: ATen moves it
  auto h = g * scale;
  auto total = torch::ones({4}).sum();   // 0-dim cpu
  auto k = g + total;
  auto m = g * 2.0 + 1;                  // C++ scalars
  auto e = torch::randn({}) * g;         // sizes {}: 0-dim
  auto f = torch::tensor(3.0).relu() * g; // element-wise: still 0-dim
  (void)h, (void)k, (void)m, (void)e, (void)f;
}

void unknown_values(torch::Tensor p, torch::Tensor q, torch::Device d1,
                    torch::Device d2) {
  auto r = p + q;                        // parameters: unknown
  auto s = make() * torch::ones({3}, torch::kCUDA);
  auto t = p.to(d1) + q.to(d2);          // two symbols may be equal
  auto u = p.to(d1) + torch::ones({2}, torch::kCUDA); // 'd1' may be cuda
  (void)r, (void)s, (void)t, (void)u;
}

void paths_disagree(bool c, int n, torch::Device device) {
  auto t = c ? torch::ones({2}) : torch::ones({2}, torch::kCUDA);
  auto g = torch::ones({2}, torch::kCUDA);
  auto r = t + g;                        // cpu on one path only
  auto x = torch::ones({2});
  if (c)
    x = x.cuda();
  auto s = x * g;
  auto y = torch::ones({2});
  for (int i = 0; i < n; ++i)
    y = y.to(device);
  auto w = y + torch::ones({2}).to(device); // cpu when the loop never ran
  (void)r, (void)s, (void)w;
}

void reassigned_and_escaped() {
  auto x = torch::ones({2});
  x = x.cuda();
  auto g = torch::ones({2}, torch::kCUDA);
  auto r = x + g;                        // moved before use
  auto e = torch::ones({2});
  mutate(e);                             // may have moved it
  auto s = e + g;
  auto l = torch::ones({2});
  auto add = [&] { return l + g; };      // captured by reference
  auto &alias = l;
  alias = alias.cuda();
  (void)r, (void)s, (void)add;
}

void follows_another_tensor() {
  auto g = torch::ones({2}, torch::kCUDA);
  auto x = torch::ones({2}).to(g.device());
  auto y = torch::ones({2}).to(g);
  auto r = x + g + y;
  (void)r;
}

// Examples the user built: their tensors may be anywhere.
void own_examples(std::vector<torch::data::Example<>> &examples) {
  for (auto &ex : examples) {
    auto r = ex.data + torch::ones({2, 2}, torch::kCUDA);
    (void)r;
  }
}

void official_loop(torch::nn::Linear model, torch::Device device) {
  auto loader = torch::data::make_data_loader(0, torch::data::DataLoaderOptions(64));
  for (auto &batch : *loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, targets);
    auto correct = output.argmax(1).eq(targets).sum();
    (void)loss, (void)correct;
  }
}
