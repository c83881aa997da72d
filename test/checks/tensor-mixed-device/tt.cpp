// RUN: %check_tidy %s tensor-mixed-device %t -- -- -std=c++20 %tt_include

// The project's own tensor API through its real headers: tt's operators take
// their operands through a source-location wrapper, which the analysis sees
// through.
#include <tt/tt.h>

void bugs(tt::Device device) {
  auto a = tt::randn({2, 3});
  auto b = tt::randn({2, 3}, tt::kCUDA);
  auto c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'a' is on cpu and 'b' is on cuda [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'b' is on cuda: created here
  auto w = tt::ones({3, 3}, tt::TensorOptions().device(device));
  auto d = tt::matmul(a, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' combines tensors on different devices: 'a' is on cpu and 'w' is on 'device'
  // CHECK-MESSAGES: :[[@LINE-9]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'w' is on 'device': created here
  (void)c, (void)d;
}

void clean(tt::Device device, tt::Tensor p) {
  auto a = tt::randn({2, 3}).to(device);
  auto b = tt::zeros({2, 3}, tt::device(device));
  auto c = a + b * 2.0;
  auto g = tt::ones({2, 3}, tt::kCUDA);
  auto s = g * tt::tensor(2.0) + g.sum();   // 0-dim cpu operands are fine
  auto u = p - g;                           // p: unknown
  (void)c, (void)s, (void)u;
}
