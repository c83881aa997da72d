// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>
#include <vector>

// Templates: one warning per call in the template, however many
// instantiations there are; dependent calls are found through them.

template <typename T> void non_dependent(T unused, torch::Tensor x) {
  x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(torch::kHalf);{{$}}
}

template <typename T> void dependent(T x) {
  x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: assign the result to keep the converted tensor
  // No fix-it: for another T, `to` might be an in-place module move.
  // CHECK-FIXES: {{^}}  x.to(torch::kHalf);{{$}}
}

template <typename Model> void move_model(Model &m) {
  m.to(torch::kHalf); // A module in every instantiation: nothing to report.
}

template <typename T> void never_instantiated(T x) {
  x.cuda(); // Unknown until instantiated: silent.
}

// Function templates: the fix-it is written once in the pattern when the
// receiver is a local or parameter there, declared with a type that is not
// a bare template parameter, and every instantiation of the call in the
// translation unit is a discarded tensor conversion. The usual shape of a
// LibTorch training loop:
struct Batch {
  torch::Tensor data;
  torch::Tensor target;
};

template <typename Loader> void train(Loader &loader, torch::Device device) {
  for (auto &batch : loader) {
    auto data = batch.data;
    data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'data.to(...)' is discarded; tensor conversions return a new tensor and leave 'data' unchanged [tensor-discarded-cast]
    // CHECK-FIXES: {{^}}    data = data.to(device);{{$}}
  }
}

template <typename Options> void to_options(torch::Tensor x, Options opts) {
  x.to(opts);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded
  // CHECK-FIXES: {{^}}  x = x.to(opts);{{$}}
}

// A local that is a tensor in one instantiation and a module in another:
// the module's `to` moves it in place, so no fix-it in the pattern.
template <typename T> void mixed(const T &value) {
  auto copy = value;
  copy.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: result of 'copy.to(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: assign the result to keep the converted tensor
  // CHECK-FIXES: {{^}}  copy.to(torch::kHalf);{{$}}
}

// The member of a dependent object is no local: no fix-it.
template <typename B> void member_of_dependent(B &batch) {
  batch.data.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: result of 'batch.data.to(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: assign the result to keep the converted tensor
  // CHECK-FIXES: {{^}}  batch.data.to(torch::kHalf);{{$}}
}

// Clean: a template whose local is a module in every instantiation.
template <typename M> void move_copy(const M &module) {
  auto copy = module;
  copy.to(torch::kHalf);
}

void instantiate_loops(std::vector<Batch> &loader, torch::Device device,
                       torch::Tensor t, torch::nn::LinearImpl &linear) {
  train(loader, device);
  train(loader, device); // the same instantiation: one warning, one fix
  to_options(t, torch::kHalf);
  to_options(t, device);
  mixed(t);
  mixed(linear);
  Batch b;
  member_of_dependent(b);
  move_copy(linear);
}

void instantiate(torch::Tensor t, torch::nn::LinearImpl &linear) {
  non_dependent(1, t);
  non_dependent(2.0, t);
  non_dependent('c', t);
  dependent(t);
  dependent(torch::Tensor());
  move_model(linear);
}

// Macros: the warning is at the expansion site; no fix-it inside a macro.

#define TO_HALF(t) t.to(torch::kHalf)
#define DISCARD_CUDA(t) t.cuda();

void macros(torch::Tensor x) {
  TO_HALF(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: assign the result to keep the converted tensor
  // CHECK-FIXES: {{^}}  TO_HALF(x);{{$}}
  DISCARD_CUDA(x)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'x.cuda(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: assign the result to keep the converted tensor
  // CHECK-FIXES: {{^}}  DISCARD_CUDA(x){{$}}
  x = TO_HALF(x);   // used: silent
}
