// RUN: %check_tidy %s tensor-unmoved-input %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", std::make_shared<torch::nn::LinearImpl>(784, 10)); }
  // Inside a module nothing is known of where the module was moved.
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  std::shared_ptr<torch::nn::LinearImpl> fc;
};
TORCH_MODULE(Net);

void helper(Net model);

// The official MNIST example's loop.
void official(torch::Device device) {
  Net model;
  model->to(device);
  auto loader = torch::data::make_data_loader(0, torch::data::DataLoaderOptions(64));
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (auto &batch : *loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();
  }
}

void moved_inputs(torch::Device device) {
  Net model;
  model->to(device);
  auto x = torch::randn({64, 784});
  auto a = model->forward(x.to(device));
  x = x.to(device);
  auto b = model(x);
  auto c = model->forward(torch::ones({1, 784}, torch::TensorOptions().device(device)));
  (void)a, (void)b, (void)c;
}

void unknown_module_or_input(Net &param_model, torch::Tensor param_input) {
  param_model->forward(torch::ones({1, 784}));     // where the module is: unknown
  Net model;
  model->to(torch::kCUDA);
  model->forward(param_input);                     // where the input is: unknown
  Net fresh;
  fresh->forward(torch::ones({1, 784}));           // a user module may place its
                                                   // parameters anywhere
}

void paths_disagree(bool use_cuda) {
  torch::nn::Linear fc(4, 2);
  if (use_cuda)
    fc->to(torch::kCUDA);
  fc->forward(torch::ones({1, 4}));                // cpu when !use_cuda
  torch::nn::Linear same(4, 2);
  same->forward(torch::ones({1, 4}));              // both on the cpu
}

void escaped(torch::Device device) {
  Net model;
  model->to(device);
  helper(model);                                   // shares the module: may move it
  model->forward(torch::ones({1, 784}));
}

void parameterless_modules(torch::Device device) {
  torch::nn::CrossEntropyLoss criterion;           // a loss holds no tensor:
  auto out = torch::ones({8, 10}).to(device);      // it runs where its input is
  auto target = torch::zeros({8}, torch::kLong).to(device);
  auto loss = criterion(out, target);
  auto again = criterion->forward(out, target);
  (void)loss, (void)again;
}

struct SelfPlacingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return fc->forward(x.contiguous().to(fc->weight.device()));
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(SelfPlacing);

void forward_moves_its_input(torch::Device device) {
  SelfPlacing model;
  model->to(device);
  model->forward(torch::ones({1, 4}));             // forward moves it itself
}
