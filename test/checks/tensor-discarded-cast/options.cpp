// RUN: %check_tidy %s tensor-discarded-cast %t -- \
// RUN:   -config="{CheckOptions: {tensor-discarded-cast.AllowCastToVoid: false, tensor-discarded-cast.TensorClasses: '::mylib::Array', tensor-discarded-cast.ConversionMethods: 'astype;to_device'}}" \
// RUN:   -- -std=c++17 %mock_torch

#include <torch/torch.h>

// Another tensor library, taught through options.
namespace mylib {
struct Array {
  Array astype(int dtype) const;
  Array to_device(int device) const;
  Array &fill(float v);
  Array to(int device) const;
};
struct NotAnArray {
  NotAnArray astype(int dtype) const;
};
} // namespace mylib

void custom(mylib::Array a, mylib::NotAnArray n) {
  a.astype(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.astype(...)' is discarded; tensor conversions return a new tensor and leave 'a' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  a = a.astype(1);{{$}}
  a.to_device(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.to_device(...)' is discarded
  a.to(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'a.to(...)' is discarded
  a.fill(1.0f);     // returns a reference: in place, silent
  n.astype(1);      // not a tensor class: silent
  a = a.astype(2);  // used: silent
}

// The built-in APIs stay known when options add others.
void builtin(torch::Tensor x) {
  x.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded
  // AllowCastToVoid=false: a cast to void is still a discarded result.
  (void)x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: result of 'x.cuda(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:11: note: assign the result to keep the converted tensor
  static_cast<void>(x.cpu());
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: result of 'x.cpu(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: assign the result to keep the converted tensor
}
