// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

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
