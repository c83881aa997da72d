// RUN: %check_tidy %s tensor-discarded-result %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Out-of-place ops as statements: the result is thrown away and the tensor
// is unchanged. The fix-it calls the in-place twin where there is one.
void in_place_meant(torch::Tensor x, torch::Tensor y, torch::Tensor mask) {
  x.add(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded; 'add' returns a new tensor and leaves 'x' unchanged [tensor-discarded-result]
  // CHECK-FIXES: {{^}}  x.add_(y);{{$}}
  x.clamp(0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.clamp(...)' is discarded; 'clamp' returns a new tensor and leaves 'x' unchanged
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
}

// No in-place twin: the fix-it assigns the result.
void assign_meant(torch::Tensor x) {
  x.softmax(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.softmax(...)' is discarded; 'softmax' returns a new tensor and leaves 'x' unchanged
  // CHECK-FIXES: {{^}}  x = x.softmax(1);{{$}}
  x.view({-1});
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.view(...)' is discarded
  // CHECK-FIXES: {{^}}  x = x.view({-1});{{$}}
}

// Discarded in other statement positions: branches, loops, a comma's left
// operand, a discarded ?:'s branches.
void positions(torch::Tensor x, torch::Tensor y, bool c) {
  if (c)
    x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.relu(...)' is discarded
  // CHECK-FIXES: {{^}}    x.relu_();{{$}}
  for (int i = 0; i < 3; ++i)
    y.sub(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'y.sub(...)' is discarded
  // CHECK-FIXES: {{^}}    y.sub_(x);{{$}}
  x.add(y), (void)0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded
  // CHECK-FIXES: {{^}}  x.add_(y), (void)0;{{$}}
  // mul_ takes a Scalar, not this call's Tensor: the fix-it assigns.
  x.mul(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.mul(...)' is discarded
  // CHECK-FIXES: {{^}}  x = x.mul(y);{{$}}
  c ? x.sum() : y.mean();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'x.sum(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: result of 'y.mean(...)' is discarded
  // CHECK-FIXES: {{^}}  c ? x = x.sum() : y = y.mean();{{$}}
}

// No named receiver: the warning, and a note instead of a fix-it.
torch::Tensor make();
void no_fix(const torch::Tensor &c, torch::Tensor *p) {
  make().relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'make().relu(...)' is discarded; 'relu' returns a new tensor and leaves 'make()' unchanged
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: use the result, or 'relu_' to change the tensor in place
  c.clamp(0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'c.clamp(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: use the result, or 'clamp_' to change the tensor in place
  p->mean();
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: result of 'p->mean(...)' is discarded; 'mean' returns a new tensor and leaves '*p' unchanged
  // CHECK-MESSAGES: :[[@LINE-2]]:6: note: use the result; 'mean' has no in-place version
}
