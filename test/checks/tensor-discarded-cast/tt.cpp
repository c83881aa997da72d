// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++20 %tt_include

// The project's own tensor API, through its real headers (runtime/include).
#include <tt/tt.h>

void bugs(tt::Tensor x, tt::Tensor other, tt::Device device) {
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded; tensor conversions return a new tensor and leave 'x' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  x = x.to(device);{{$}}
  x.to(tt::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(tt::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(device, tt::kFloat, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.to(other);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)'
  x.toType(tt::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.toType(...)'
  x.half();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.half(...)'
  // CHECK-FIXES: {{^}}  x = x.half();{{$}}
  x.bfloat16();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.bfloat16(...)'
  x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.cuda(...)'
  x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.cpu(...)'
  x.pin_memory();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.pin_memory(...)'
  x.contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.contiguous(...)'
  x.clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.clone(...)'
}

tt::Tensor clean(tt::Tensor x, tt::Device device) {
  x = x.to(device);
  auto y = x.half().to(tt::kFloat32);
  x.copy_(y);                          // in place
  x.add_(y);
  x.fill_(1.0);
  x.zero_();
  (void)x.cuda();
  tt::Tensor z = x + y.to(x);
  return z.cpu();
}
