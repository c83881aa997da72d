// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// A view keeps its object's dtype (`view(size)`, `select`, `narrow`,
// `transpose`), read from the op's schema: only a view that takes a dtype
// (`view(dtype)`, which reinterprets the bytes) or one listed as changing it
// (`view_as_real`, `real`) does not.
#include <torch/torch.h>

struct StoreNetImpl : torch::nn::Module {
  StoreNetImpl() { stores = register_module("stores", torch::nn::Embedding(45, 8)); }
  torch::Tensor forward(const torch::Tensor &ids) { return stores->forward(ids); }
  // CHECK-MESSAGES: :[[@LINE-1]]:76: warning: input 'ids' is float32 but 'stores' looks up int64 or int32 indices [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE+12]]:15: note: 'ids' is float32: created here
  // CHECK-MESSAGES: :[[@LINE+13]]:8: note: in the call to 'forward' here
  torch::nn::Embedding stores{nullptr};
};
TORCH_MODULE(StoreNet);

std::vector<float> fetch_rows(int64_t n);

// --- Bugs --------------------------------------------------------------------

void id_column_left_float(int64_t n) {
  StoreNet net;
  auto rows = torch::tensor(fetch_rows(n)).view({n, 5});
  auto ids = rows.select(1, 0);
  net->forward(ids);
}

void viewed_before_mm() {
  auto x = torch::rand({8});
  auto w = torch::rand({2, 4}, torch::kDouble);
  torch::mm(w, x.view({4, 2}));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'mm' does not promote dtypes: 'w' is float64 and 'x.view({4, 2})' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'w' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'x.view({4, 2})' is float32: created here
}

// --- Clean -------------------------------------------------------------------

void id_column_converted(int64_t n) {
  StoreNet net;
  auto rows = torch::tensor(fetch_rows(n)).view({n, 5});
  net->forward(rows.select(1, 0).to(torch::kLong));
  auto ids = torch::randint(45, {n, 2});
  net->forward(ids.view({-1}));
  net->forward(ids.narrow(1, 0, 1).t());
}

void reinterpreted() {
  StoreNet net;
  auto bits = torch::zeros({4}, torch::kFloat64);
  net->forward(bits.view(torch::kLong));
  auto w = torch::rand({2, 4}, torch::kDouble);
  torch::mm(w, torch::rand({8}, torch::kDouble).view({4, 2}));
}
