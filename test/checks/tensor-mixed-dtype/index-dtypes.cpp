// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// ATen checks an index's dtype before it reads it: gather, scatter, take,
// index_copy, index_fill and one_hot take int64 only ("gather(): Expected
// dtype int64 for index"); index_select, index_add and embedding take int32
// too. A floating index is the common mistake: actions or labels kept as
// float in a replay buffer, token ids read from a float tensor.
#include <torch/torch.h>

#include <vector>

// --- Bugs --------------------------------------------------------------------

torch::Tensor replay_q_values(torch::nn::Linear q_net, const std::vector<float> &taken) {
  auto states = torch::randn({4, 8});
  auto actions = torch::tensor(taken);
  return q_net(states).gather(1, actions.unsqueeze(1));
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'gather' takes int64 indices, but 'actions.unsqueeze(1)' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'actions.unsqueeze(1)' is float32: created here
}

torch::Tensor int32_gather() {
  auto q = torch::randn({4, 2});
  auto idx = torch::zeros({4, 1}, torch::kLong).to(torch::kInt);
  return torch::gather(q, 1, idx);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'gather' takes int64 indices, but 'idx' is int32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:49: note: 'idx' is int32: converted here
}

torch::Tensor one_hot_by_scatter() {
  auto labels = torch::zeros({16, 1});
  auto one_hot = torch::zeros({16, 10});
  one_hot.scatter_(1, labels, 1.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'scatter_' takes int64 indices, but 'labels' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'labels' is float32: created here
  return one_hot;
}

torch::Tensor float_rows(torch::Tensor x) {
  auto rows = torch::arange(0, 4, torch::kFloat);
  return x.index_select(0, rows);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'index_select' takes int64 or int32 indices, but 'rows' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'rows' is float32: created here
}

torch::Tensor float_token_ids() {
  torch::nn::Embedding embed(100, 16);
  auto tokens = torch::randint(0, 100, {2, 5}).to(torch::kFloat);
  return embed(tokens);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: input 'tokens' is float32 but 'embed' looks up int64 or int32 indices [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:48: note: 'tokens' is float32: converted here
}

torch::Tensor int32_one_hot() {
  auto labels = torch::randint(0, 10, {8}).to(torch::kInt32);
  return torch::one_hot(labels, 10);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'one_hot' takes int64 indices, but 'labels' is int32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:44: note: 'labels' is int32: converted here
}

// --- Clean -------------------------------------------------------------------

torch::Tensor long_index() {
  auto q = torch::randn({4, 2});
  return q.gather(1, torch::randint(0, 2, {4, 1}));
}

// torch::tensor makes int64 of C++ ints (TensorDataContainer's
// compute_desired_dtype), as Python's torch.tensor does.
torch::Tensor actions_from_ints(const std::vector<int> &taken) {
  auto q = torch::randn({4, 2});
  auto actions = torch::tensor(taken);
  return q.gather(1, actions.unsqueeze(1));
}

torch::Tensor int32_where_accepted() {
  auto idx = torch::arange(0, 4, torch::kInt32);
  torch::nn::Embedding embed(10, 3);
  auto rows = torch::randn({8, 3}).index_select(0, idx);
  return rows + embed(idx);
}

torch::Tensor indices_from_ops(torch::Tensor logits) {
  auto best = logits.argmax(1, /*keepdim=*/true);
  auto top = std::get<1>(logits.topk(2, 1));
  auto mask = torch::zeros_like(logits).scatter_(1, top, 1.0);
  return logits.gather(1, best) + mask.sum();
}

torch::Tensor index_of_unknown_dtype(torch::Tensor q, torch::Tensor actions) {
  return q.gather(1, actions);
}
