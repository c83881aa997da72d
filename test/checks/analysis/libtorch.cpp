// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// The analysis over the real LibTorch 1.13 API (through the precompiled
// <torch/torch.h>): the official MNIST example's shapes, clean, and the
// seeds' bugs in the same shapes.

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 64))),
        fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.reshape({x.size(0), 784})));
    return torch::log_softmax(fc2->forward(x), /*dim=*/1);
  }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

template <typename DataLoader>
void train(Net &model, torch::Device device, DataLoader &data_loader,
           torch::optim::Optimizer &optimizer) {
  model->train();
  for (auto &batch : data_loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();
  }
}

void clean_main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  auto x = torch::randn({8, 784}, torch::TensorOptions().device(device));
  auto out = model->forward(x);
  auto pred = out.argmax(1);
  auto correct = pred.eq(torch::zeros({8}, torch::kLong).to(device)).sum();
  (void)optimizer, (void)correct;
}

void seed_bugs() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  auto images = torch::rand({64, 784});
  images.to(device);
  auto output = model->forward(images);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: input 'images' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'images' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto output = model->forward(images.to(device));{{$}}
  auto labels = torch::randint(0, 10, {64}, torch::kLong);
  auto loss = torch::nll_loss(output, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'nll_loss' combines tensors on different devices: 'output' is on 'device' and 'labels' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-11]]:10: note: 'output' is on 'device': output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'labels' is on cpu: created here
  (void)loss;

  auto weights = torch::ones({10}, torch::kCUDA);
  auto scaled = torch::ones({64, 10}) * weights;
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'operator*' combines tensors on different devices: 'torch::ones({64, 10})' is on cpu and 'weights' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: 'torch::ones({64, 10})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'weights' is on cuda: created here
  (void)scaled;

  model->to(torch::kHalf);
  auto batch = torch::rand({8, 784}).to(device);
  auto logits = model->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: input 'batch' is float32 but 'model' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'batch' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'model' was cast to float16 here
  (void)logits;
}
