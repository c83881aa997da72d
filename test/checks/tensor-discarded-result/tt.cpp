// RUN: %check_tidy %s tensor-discarded-result %t -- -- -std=c++20 %tt_include

#include <tt/tt.h>

// tt's tensors, with zero configuration: the same bugs and fixes.
void tt_bugs(tt::Tensor x, tt::Tensor y) {
  x.add(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded; 'add' returns a new tensor and leaves 'x' unchanged [tensor-discarded-result]
  // CHECK-FIXES: {{^}}  x.add_(y);{{$}}
  x.relu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.relu(...)' is discarded
  // CHECK-FIXES: {{^}}  x = x.relu();{{$}}
  y.unsqueeze(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'y.unsqueeze(...)' is discarded
  // CHECK-FIXES: {{^}}  y = y.unsqueeze(0);{{$}}
}

tt::Tensor tt_clean(tt::Tensor x, tt::Tensor y) {
  x.add_(y);
  x.zero_();
  x = x.relu();
  x.to(tt::kHalf); // tensor-discarded-cast's
  (void)x.sum();
  return x.mul(y).t();
}
