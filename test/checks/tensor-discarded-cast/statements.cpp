// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Every statement position in which a conversion's result is lost.

void statement(torch::Tensor x, torch::Device device) {
  x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(torch::kHalf);{{$}}
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  // CHECK-FIXES: {{^}}  x = x.to(device);{{$}}
  x.to(device, torch::kFloat, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  // CHECK-FIXES: {{^}}  x = x.to(device, torch::kFloat, /*non_blocking=*/true);{{$}}
}

void every_conversion(torch::Tensor a, torch::Tensor b) {
  a.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.cuda(...)' is discarded
  // CHECK-FIXES: {{^}}  a = a.cuda();{{$}}
  a.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.cpu(...)' is discarded
  a.toType(torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.toType(...)' is discarded
  a.type_as(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.type_as(...)' is discarded
  a.to(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.to(...)' is discarded
  a.pin_memory();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.pin_memory(...)' is discarded
  a.contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.contiguous(...)' is discarded
  a.clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.clone(...)' is discarded
  a.detach();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.detach(...)' is discarded
  a.to(torch::TensorOptions().dtype(torch::kHalf).device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.to(...)' is discarded
}

void bodies(torch::Tensor x, bool c, int n, std::vector<torch::Tensor> &v) {
  if (c)
    x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.to(...)' is discarded
  // CHECK-FIXES: {{^}}    x = x.to(torch::kHalf);{{$}}
  else
    x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.cuda(...)' is discarded
  for (int i = 0; i < n; ++i)
    x.contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.contiguous(...)' is discarded
  while (n--)
    x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.cpu(...)' is discarded
  do
    x.clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.clone(...)' is discarded
  while (c);
  for (auto &t : v)
    t.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 't.to(...)' is discarded; tensor conversions return a new tensor and leave 't' unchanged
  // CHECK-FIXES: {{^}}    t = t.to(torch::kCUDA);{{$}}
  switch (n) {
  case 0:
    x.to(torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.to(...)' is discarded
    break;
  default:
    x.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.cuda(...)' is discarded
  }
  for (x.cpu(); c; x.cuda()) {
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'x.cpu(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: result of 'x.cuda(...)' is discarded
  }
  auto lambda = [&x] { x.to(torch::kHalf); };
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: result of 'x.to(...)' is discarded
  lambda();
}

void comma_and_conditional(torch::Tensor x, torch::Tensor y, bool c) {
  x.to(torch::kHalf), y.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: result of 'y.to(...)' is discarded
  torch::Tensor z = (x.cuda(), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: result of 'x.cuda(...)' is discarded
  c ? x.cuda() : y.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'x.cuda(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: result of 'y.cuda(...)' is discarded
}

struct Trainer {
  torch::Tensor weights;
  void half() {
    weights.to(torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: result of 'weights.to(...)' is discarded; tensor conversions return a new tensor and leave 'weights' unchanged
    // CHECK-FIXES: {{^}}    weights = weights.to(torch::kHalf);{{$}}
    this->weights.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: result of 'this->weights.cuda(...)' is discarded
    // CHECK-FIXES: {{^}}    this->weights = this->weights.cuda();{{$}}
  }
};

// No fix-it where assigning back is impossible or not what the code means:
// a note suggests assigning instead.
torch::Tensor make();
void no_fix(const torch::Tensor &c, torch::Tensor *p, Trainer &t) {
  c.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'c.to(...)' is discarded; tensor conversions return a new tensor and leave 'c' unchanged
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: 'c' is const; assign the result to a new variable to keep the converted tensor
  // CHECK-FIXES: {{^}}  c.to(torch::kHalf);{{$}}
  p->cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: result of 'p->cuda(...)' is discarded; tensor conversions return a new tensor and leave '*p' unchanged
  // CHECK-MESSAGES: :[[@LINE-2]]:6: note: assign the result to keep the converted tensor
  // CHECK-FIXES: {{^}}  p->cuda();{{$}}
  make().cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'make().cuda(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: assign the result to keep the converted tensor
  t.weights.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: result of 't.weights.to(...)' is discarded
  // CHECK-FIXES: {{^}}  t.weights = t.weights.to(torch::kCUDA);{{$}}
}
