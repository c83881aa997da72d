// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Tensors in std::tuple and std::pair variables, one fact per element:
// make_tuple, make_pair, braced lists, std::get, .first/.second, structured
// bindings, and the (values, indices) of max/sort/topk. A tuple given to
// std::tie or bound to a non-const reference is unknown.
#include <torch/torch.h>

std::tuple<torch::Tensor, torch::Tensor> next_batch();

// --- Bugs --------------------------------------------------------------------

void tuple_elements(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  auto batch = std::make_tuple(torch::randn({8, 4}), torch::zeros({8}));
  auto y = std::get<0>(batch).matmul(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'matmul' combines tensors on different devices: 'std::get<0>(batch)' is on cpu and 'w' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'std::get<0>(batch)' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:33: note: 'w' is on 'device': moved here
}

void structured_binding(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  auto [data, target] = std::make_pair(torch::randn({8, 4}), torch::zeros({8}));
  auto y = data.matmul(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'matmul' combines tensors on different devices: 'data' is on cpu and 'w' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:40: note: 'data' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:33: note: 'w' is on 'device': moved here
}

void pair_members() {
  std::pair<torch::Tensor, torch::Tensor> p{torch::ones({3}, torch::kCUDA),
                                            torch::ones({3})};
  auto s = p.first + p.second;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'operator+' combines tensors on different devices: 'p.first' is on cuda and 'p.second' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:45: note: 'p.first' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:45: note: 'p.second' is on cpu: created here
}

void values_and_indices(torch::Device device) {
  auto scores = torch::rand({8, 10});
  auto labels = torch::zeros({8}, torch::kLong).to(device);
  auto [best, idx] = scores.max(1);
  auto correct = idx.eq(labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'eq' combines tensors on different devices: 'idx' is on cpu and 'labels' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:17: note: 'idx' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:49: note: 'labels' is on 'device': moved here
  auto top = std::get<1>(scores.topk(3));
  auto hit = top + labels.unsqueeze(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator+' combines tensors on different devices: 'top' is on cpu and 'labels.unsqueeze(1)' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-10]]:17: note: 'top' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-10]]:49: note: 'labels.unsqueeze(1)' is on 'device': moved here
}

void element_written(torch::Device device) {
  auto state = std::make_tuple(torch::zeros({2, 8}).to(device), torch::zeros({2, 8}));
  std::get<0>(state) = torch::zeros({2, 8});
  auto h = std::get<0>(state) + std::get<1>(state).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'operator+' combines tensors on different devices: 'std::get<0>(state)' is on cpu and 'std::get<1>(state).to(device)' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'std::get<0>(state)' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:52: note: 'std::get<1>(state).to(device)' is on 'device': moved here
}

// --- Clean -------------------------------------------------------------------

void tuple_moved(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  auto batch = std::make_tuple(torch::randn({8, 4}), torch::zeros({8}));
  auto y = std::get<0>(batch).to(device).matmul(w);
  std::get<0>(batch) = std::get<0>(batch).to(device);
  auto z = std::get<0>(batch).matmul(w);
}

void tuple_from_elsewhere(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  auto batch = next_batch();
  auto y = std::get<0>(batch).matmul(w);
  auto [data, target] = next_batch();
  auto z = data.matmul(w);
}

void tied(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  torch::Tensor data = torch::randn({8, 4}), target;
  std::tie(data, target) = next_batch();
  auto y = data.matmul(w);
}

void bound_by_reference(torch::Device device) {
  auto w = torch::randn({4, 4}).to(device);
  auto batch = std::make_tuple(torch::randn({8, 4}), torch::zeros({8}));
  auto &[data, target] = batch;
  data = data.to(device);
  auto y = std::get<0>(batch).matmul(w);
}

void values_and_indices_same_device(torch::Device device) {
  auto scores = torch::rand({8, 10}).to(device);
  auto labels = torch::zeros({8}, torch::kLong).to(device);
  auto [best, idx] = scores.max(1);
  auto correct = idx.eq(labels);
  auto top = std::get<1>(scores.topk(3));
  auto hit = top + labels.unsqueeze(1);
}

void pair_same_device() {
  std::pair<torch::Tensor, torch::Tensor> p{torch::ones({3}, torch::kCUDA),
                                            torch::ones({3})};
  p.second = p.second.cuda();
  auto s = p.first + p.second;
}

// --- An LSTM's state -----------------------------------------------------------

void lstm_state_on_cpu(torch::Device device) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(10, 20));
  lstm->to(device);
  auto x = torch::randn({5, 3, 10}).to(device);
  auto h = torch::zeros({1, 3, 20});
  auto c = torch::zeros({1, 3, 20});
  auto out = lstm->forward(x, std::make_tuple(h, c));
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: input 'h' is on cpu but 'lstm' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'h' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-7]]:9: note: 'lstm' was moved to 'device' here
  // CHECK-FIXES: auto out = lstm->forward(x, std::make_tuple(h.to(device), c));
}

// The state made by a helper that returns it as a tuple (the report in
// Lightning-AI/pytorch-lightning#3738, in C++).
std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch) {
  return std::make_tuple(torch::zeros({1, batch, 20}), torch::zeros({1, batch, 20}));
}

void lstm_state_from_helper(torch::Device device) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(10, 20));
  lstm->to(device);
  auto x = torch::randn({5, 3, 10}).to(device);
  auto hidden = init_hidden(3);
  auto out = lstm->forward(x, hidden);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: input 'hidden' is on cpu but 'lstm' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-10]]:26: note: 'hidden' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'lstm' was moved to 'device' here
}

void lstm_state_moved(torch::Device device) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(10, 20));
  lstm->to(device);
  auto x = torch::randn({5, 3, 10}).to(device);
  auto h = torch::zeros({1, 3, 20}).to(device);
  auto c = torch::zeros({1, 3, 20}, torch::TensorOptions().device(device));
  auto out = lstm->forward(x, std::make_tuple(h, c));
  auto [y, state] = lstm->forward(x, std::make_tuple(h, c));
  auto next = lstm->forward(y, state);
}

std::tuple<torch::Tensor, torch::Tensor> init_hidden_on(int64_t batch,
                                                        torch::Device device) {
  auto options = torch::TensorOptions().device(device);
  return {torch::zeros({1, batch, 20}, options), torch::zeros({1, batch, 20}, options)};
}

std::tuple<torch::Tensor, torch::Tensor> init_hidden_somewhere(bool gpu) {
  if (gpu)
    return std::make_tuple(torch::zeros({1, 3, 20}).cuda(), torch::zeros({1, 3, 20}).cuda());
  return std::make_tuple(torch::zeros({1, 3, 20}), torch::zeros({1, 3, 20}));
}

void lstm_state_from_helper_on_device(torch::Device device, bool gpu) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(10, 20));
  lstm->to(device);
  auto x = torch::randn({5, 3, 10}).to(device);
  auto hidden = init_hidden_on(3, device);
  auto out = lstm->forward(x, hidden);
  auto somewhere = lstm->forward(x, init_hidden_somewhere(gpu)); // not known
  auto [h, c] = init_hidden(3);
  auto moved = lstm->forward(x, std::make_tuple(h.to(device), c.to(device)));
}
