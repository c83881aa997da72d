// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- -std=c++20 %tt_include

#include <tt/tt.h>

void bugs() {
  auto a = tt::randn({4, 4});
  auto h = a.half();
  auto c = tt::matmul(h, a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' does not promote dtypes: 'h' is float16 and 'a' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'h' is float16: converted here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'a' is float32: created here
  auto d = a.mm(a.to(tt::kFloat64));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'mm' does not promote dtypes: 'a' is float32 and 'a.to(tt::kFloat64)' is float64
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'a' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'a.to(tt::kFloat64)' is float64: converted here
  (void)c, (void)d;
}

void clean() {
  auto a = tt::randn({4, 4});
  auto h = a.half();
  auto s = h + a;                            // arithmetic promotes
  auto m = tt::matmul(h, a.half());
  auto b = tt::matmul(a.bfloat16().to(tt::kFloat32), a);
  (void)s, (void)m, (void)b;
}
