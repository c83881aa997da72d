// RUN: %check_tidy %s tensor-discarded-result %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// The same template and macro rules as tensor-discarded-cast: one warning
// per place in a template, found through instantiations when dependent; a
// fix-it in a template's pattern only when it holds for every instantiation.
template <typename T> void non_dependent(T unused, torch::Tensor x) {
  x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.relu(...)' is discarded; 'relu' returns a new tensor and leaves 'x' unchanged [tensor-discarded-result]
  // CHECK-FIXES: {{^}}  x.relu_();{{$}}
}

template <typename Batch> void normalize(Batch &batch) {
  auto data = batch.data;
  data.clamp(0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: result of 'data.clamp(...)' is discarded
  // CHECK-FIXES: {{^}}  data.clamp_(0, 1);{{$}}
}

template <typename T> void dependent(T x) {
  x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.relu(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: use the result, or 'relu_' to change the tensor in place
  // CHECK-FIXES: {{^}}  x.relu();{{$}}
}

// Clean: the same call on another class in every instantiation.
struct Activation {
  void relu();
};
template <typename T> void other_class(T x) { x.relu(); }

struct Example {
  torch::Tensor data;
};

void instantiate(torch::Tensor t, Example &e, Activation a) {
  non_dependent(1, t);
  non_dependent(2.0, t);
  normalize(e);
  dependent(t);
  other_class(a);
}

// Macros: reported at the expansion site, no fix-it.
#define RELU(t) t.relu()
void macros(torch::Tensor x) {
  RELU(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'x.relu(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: use the result, or 'relu_' to change the tensor in place
  // CHECK-FIXES: {{^}}  RELU(x);{{$}}
  x = RELU(x); // used: silent
}
