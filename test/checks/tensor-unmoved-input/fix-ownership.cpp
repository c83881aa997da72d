// RUN: %check_tidy %s tensor-unmoved-input,tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

#include <torch/torch.h>

// One bug, one fix-it: the input stayed on the cpu because its own move was
// discarded. tensor-discarded-cast's fix-it (assign the move) owns the fix;
// tensor-unmoved-input reports the call too, with a note instead of a
// second fix-it that would move the input twice.
void discarded_move(torch::Device device) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  auto probe = torch::ones({1, 784});
  probe.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'probe.to(...)' is discarded; tensor conversions return a new tensor and leave 'probe' unchanged [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  probe = probe.to(device);{{$}}
  auto out = model->forward(probe);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'probe' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: the fix-it of tensor-discarded-cast here, which assigns the result of this move, also moves 'probe'
  // CHECK-MESSAGES: :[[@LINE-7]]:16: note: 'probe' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-9]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto out = model->forward(probe);{{$}}
  (void)out;
}

// The discarded conversion changes the dtype, not the device: two bugs, two
// fix-its.
void discarded_cast(torch::Device device) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  auto probe = torch::ones({1, 784});
  probe.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'probe.to(...)' is discarded
  // CHECK-FIXES: {{^}}  probe = probe.to(torch::kHalf);{{$}}
  auto out = model->forward(probe);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'probe' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-6]]:16: note: 'probe' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-8]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto out = model->forward(probe.to(device));{{$}}
  (void)out;
}

// The variable was assigned again after the discarded move: fixing the move
// would not reach the call, so the call keeps its own fix-it.
void reassigned(torch::Device device) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  auto probe = torch::ones({1, 784});
  probe.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'probe.to(...)' is discarded
  // CHECK-FIXES: {{^}}  probe = probe.to(device);{{$}}
  probe = torch::zeros({1, 784});
  auto out = model->forward(probe);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'probe' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: 'probe' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-9]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto out = model->forward(probe.to(device));{{$}}
  (void)out;
}

// The discarded move comes after the call: it cannot have moved the input.
void move_after_call(torch::Device device) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  auto probe = torch::ones({1, 784});
  auto out = model->forward(probe);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'probe' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'probe' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto out = model->forward(probe.to(device));{{$}}
  probe.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'probe.to(...)' is discarded
  // CHECK-FIXES: {{^}}  probe = probe.to(device);{{$}}
  (void)out;
}

// The move does not always run before the call, moves somewhere else, or
// cannot be fixed: the call keeps its own fix-it.
void not_owned(torch::Device device, bool warm) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  auto probe = torch::ones({1, 784});
  if (warm) {
    probe.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: result of 'probe.to(...)' is discarded
    // CHECK-FIXES: {{^}}    probe = probe.to(device);{{$}}
  }
  auto a = model->forward(probe);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'probe' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-8]]:16: note: 'probe' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-10]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto a = model->forward(probe.to(device));{{$}}
  auto other = torch::ones({1, 784});
  other.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: result of 'other.to(...)' is discarded
  // CHECK-FIXES: {{^}}  other = other.to(torch::kCPU);{{$}}
  auto b = model->forward(other);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'other' is on cpu but 'model' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-6]]:16: note: 'other' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-19]]:10: note: 'model' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto b = model->forward(other.to(device));{{$}}
  (void)a, (void)b;
}

void const_reference(torch::Device device, const torch::Tensor &images) {
  torch::nn::Linear model(784, 10);
  model->to(device);
  images.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'images.to(...)' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: 'images' is const; assign the result to a new variable to keep the converted tensor
  auto out = model->forward(images);
  (void)out;
}
