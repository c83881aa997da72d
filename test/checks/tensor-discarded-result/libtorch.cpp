// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-discarded-result %t -- -- %libtorch

// The real LibTorch 1.13 overload sets (ATen/core/TensorBody.h), through
// the precompiled <torch/torch.h>: each twin takes the call's arguments.

void bugs(torch::Tensor x, torch::Tensor y, torch::Tensor mask) {
  x.add(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded; 'add' returns a new tensor and leaves 'x' unchanged [tensor-discarded-result]
  // CHECK-FIXES: {{^}}  x.add_(y);{{$}}
  x.add(y, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded
  // CHECK-FIXES: {{^}}  x.add_(y, 2);{{$}}
  x.clamp(0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.clamp(...)' is discarded
  // CHECK-FIXES: {{^}}  x.clamp_(0, 1);{{$}}
  x.squeeze(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.squeeze(...)' is discarded
  // CHECK-FIXES: {{^}}  x.squeeze_(0);{{$}}
  x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.relu(...)' is discarded
  // CHECK-FIXES: {{^}}  x.relu_();{{$}}
  x.t();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.t(...)' is discarded
  // CHECK-FIXES: {{^}}  x.t_();{{$}}
  x.masked_fill(mask, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.masked_fill(...)' is discarded
  // CHECK-FIXES: {{^}}  x.masked_fill_(mask, 0);{{$}}
  y.sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'y.sum(...)' is discarded
  // CHECK-FIXES: {{^}}  y = y.sum();{{$}}
}

torch::Tensor clean(torch::Tensor x, torch::Tensor y) {
  x.add_(y);
  x.clamp_(0, 1);
  x.requires_grad_(true);
  x.set_requires_grad(false);
  x.grad();
  x.to(torch::kHalf); // tensor-discarded-cast's
  x.detach();         // tensor-discarded-cast's
  (void)x.mean();
  auto z = x.relu().t();
  return z.masked_fill(z.gt(0), 0);
}
