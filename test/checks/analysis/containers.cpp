// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Tensors kept in a std::vector: one fact for all the elements, known where
// every push_back, braced list and element write is seen. Anything that may
// change an element unseen (a non-const reference to it, the vector passed
// by non-const reference, insert) makes the elements unknown.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

std::vector<torch::Tensor> load_parts();
void fill(std::vector<torch::Tensor> &parts);

// --- Bugs --------------------------------------------------------------------

void stacked_on_cpu(torch::Device device) {
  Net model;
  model->to(device);
  std::vector<torch::Tensor> images;
  for (int i = 0; i < 8; ++i)
    images.push_back(torch::rand({784}));
  auto batch = torch::stack(images);
  auto out = model->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'batch' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'batch' is on cpu: computed here
  // CHECK-MESSAGES: :[[@LINE-8]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: auto out = model->forward(batch.to(device));
}

void braced_list_element(torch::Device device) {
  std::vector<torch::Tensor> weights{torch::ones({3}), torch::zeros({3})};
  auto x = torch::randn({3}).to(device);
  auto y = x * weights[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'x' is on 'device' and 'weights[0]' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'x' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-5]]:38: note: 'weights[0]' is on cpu: created here
  auto z = x + weights.at(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'x' is on 'device' and 'weights.at(1)' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-7]]:30: note: 'x' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-9]]:38: note: 'weights.at(1)' is on cpu: created here
}

void loop_over_elements() {
  auto bias = torch::zeros({4}, torch::kCUDA);
  std::vector<torch::Tensor> rows = {torch::ones({4}), torch::ones({4})};
  for (const auto &row : rows)
    auto sum = row + bias;
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'operator+' combines tensors on different devices: 'row' is on cpu and 'bias' is on cuda [tensor-mixed-device]
    // CHECK-MESSAGES: :[[@LINE-4]]:38: note: 'row' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-6]]:15: note: 'bias' is on cuda: created here
}

void element_written(torch::Device device) {
  std::vector<torch::Tensor> parts{torch::ones({2}), torch::ones({2})};
  parts[0] = torch::zeros({2});
  auto total = torch::cat(parts) + torch::zeros({2}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'operator+' combines tensors on different devices: 'torch::cat(parts)' is on cpu and 'torch::zeros({2}).to(device)' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:16: note: 'torch::cat(parts)' is on cpu: computed here
  // CHECK-MESSAGES: :[[@LINE-3]]:54: note: 'torch::zeros({2}).to(device)' is on 'device': moved here
}

// A data loader without a Stack transform yields a vector of examples.
template <typename Loader>
void train_examples(Net &model, Loader &loader, torch::Device device) {
  model->to(device);
  for (auto &batch : *loader) {
    std::vector<torch::Tensor> data_vec;
    for (const auto &example : batch)
      data_vec.push_back(example.data);
    auto data = torch::stack(data_vec);
    auto out = model->forward(data);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: input 'data' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'data' is on cpu: computed here
    // CHECK-MESSAGES: :[[@LINE-9]]:10: note: 'model' was moved to 'device' here
    // CHECK-FIXES: auto out = model->forward(data.to(device));
    auto first = model->forward(batch[0].data);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: input 'batch[0].data' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-12]]:14: note: 'batch[0].data' is on cpu: batches come from the data loader on the cpu
    // CHECK-MESSAGES: :[[@LINE-14]]:10: note: 'model' was moved to 'device' here
    // CHECK-FIXES: auto first = model->forward(batch[0].data.to(device));
  }
}

void run_examples(torch::Device device) {
  auto dataset = torch::data::datasets::MNIST("data");
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  Net model;
  train_examples(model, loader, device);
}

// --- Clean -------------------------------------------------------------------

void stacked_then_moved(torch::Device device) {
  Net model;
  model->to(device);
  std::vector<torch::Tensor> images;
  for (int i = 0; i < 8; ++i)
    images.push_back(torch::rand({784}).to(device));
  auto out = model->forward(torch::stack(images));
  auto out2 = model->forward(torch::stack(images).to(device));
}

void elements_moved_through_reference(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> weights{torch::ones({3}), torch::zeros({3})};
  for (auto &w : weights)
    w = w.to(device);
  auto y = x * weights[0];
}

void filled_elsewhere(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> parts{torch::ones({3})};
  fill(parts);
  auto a = x + parts[0];
  auto loaded = load_parts();
  auto b = x + loaded[0];
}

void element_reference(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> parts{torch::ones({3})};
  auto &first = parts[0];
  first = first.to(device);
  auto a = x + parts[0];
}

void inserted(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> parts;
  parts.insert(parts.begin(), x);
  parts.push_back(x);
  auto a = x + parts.front();
}

void reassigned_vector(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> parts{torch::ones({3})};
  parts = load_parts();
  auto a = x + parts.back();
}

void parameter_vector(std::vector<torch::Tensor> parts, torch::Device device) {
  auto x = torch::randn({3}).to(device);
  parts.push_back(torch::ones({3}).to(device));
  auto a = x + torch::stack(parts);
}

// An element write joins what the vector may hold: after it, some elements
// may be on the cpu and some on the device.
void element_moved_one_by_one(torch::Device device) {
  auto x = torch::randn({2}).to(device);
  std::vector<torch::Tensor> parts{torch::ones({2}), torch::ones({2})};
  parts[0] = parts[0].to(device);
  auto a = x + parts[1];
}

void cleared_and_refilled(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  std::vector<torch::Tensor> parts{torch::ones({3})};
  parts.clear();
  parts.push_back(x * 2);
  auto a = x + parts[0];
}

template <typename Loader>
void train_examples_moved(Net &model, Loader &loader, torch::Device device) {
  model->to(device);
  for (auto &batch : *loader) {
    std::vector<torch::Tensor> data_vec;
    for (const auto &example : batch)
      data_vec.push_back(example.data.to(device));
    auto out = model->forward(torch::stack(data_vec));
    batch[0].data = batch[0].data.to(device);
    auto first = model->forward(batch[0].data);
  }
}

void run_examples_moved(torch::Device device) {
  auto dataset = torch::data::datasets::MNIST("data");
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  Net model;
  train_examples_moved(model, loader, device);
}
