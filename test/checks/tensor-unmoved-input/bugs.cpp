// RUN: %check_tidy %s tensor-unmoved-input %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", std::make_shared<torch::nn::LinearImpl>(784, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  std::shared_ptr<torch::nn::LinearImpl> fc;
};
TORCH_MODULE(Net);

// The seeds' bug: the model is moved to `device`, the input is not.
void seed(torch::Device device) {
  Net model;
  model->to(device);
  auto x = torch::randn({64, 784});
  auto y = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'x' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto y = model->forward(x.to(device));{{$}}
  auto z = model(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: input 'x' is on cpu but 'model' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-10]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto z = model(x.to(device));{{$}}
  (void)y, (void)z;
}

// The move happened, but its result went elsewhere.
void discarded_or_elsewhere() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  auto x = torch::ones({1, 784});
  x.to(device);
  auto out = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'x' is on cpu but 'model' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto out = model->forward(x.to(device));{{$}}
  auto moved = x.to(device);
  out = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: input 'x' is on cpu but 'model' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-10]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-12]]:10: note: 'model' was moved to 'device' here
  (void)moved;
}

// A batch straight from the data loader: on the cpu, pinned or not.
void train(torch::Device device) {
  auto model = std::make_shared<NetImpl>();
  model->to(device);
  auto loader = torch::data::make_data_loader(0, torch::data::DataLoaderOptions(64));
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto output = model->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: input 'batch.data' is on cpu but 'model' is on 'device'
    // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'batch.data' is on cpu: batches come from the data loader on the cpu
    // CHECK-MESSAGES: :[[@LINE-8]]:10: note: 'model' was moved to 'device' here
    // CHECK-FIXES: {{^}}    auto output = model->forward(batch.data.to(device));{{$}}
    optimizer.step();
  }
}

// A LibTorch module is created on the cpu; a cuda input does not fit it.
void fresh_module_cuda_input() {
  torch::nn::Linear fc(4, 2);
  auto out = fc->forward(torch::ones({1, 4}, torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: input 'torch::ones({1, 4}, torch::kCUDA)' is on cuda but 'fc' is on cpu
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: 'torch::ones({1, 4}, torch::kCUDA)' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'fc' is on cpu: created here
  (void)out;
}

void known_cuda(torch::Tensor weights) {
  torch::nn::Sequential seq;
  seq->to(torch::kCUDA);
  auto out = seq->forward(torch::zeros({2, 4}) * 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'torch::zeros({2, 4}) * 2' is on cpu but 'seq' is on cuda
  // CHECK-MESSAGES: :[[@LINE-2]]:48: note: 'torch::zeros({2, 4}) * 2' is on cpu: computed here
  // CHECK-MESSAGES: :[[@LINE-4]]:8: note: 'seq' was moved to cuda here
  // CHECK-FIXES: {{^}}  auto out = seq->forward((torch::zeros({2, 4}) * 2).to(torch::kCUDA));{{$}}
  (void)out;
}
