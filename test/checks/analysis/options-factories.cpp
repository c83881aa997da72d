// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// TensorOptions kept in variables or taken from a tensor; the dtype and
// dimensions of torch::tensor and torch::from_blob; shape ops that keep
// the device; einsum; and loss modules, whose inputs must share a device.
#include <torch/torch.h>

torch::TensorOptions options_from_config();

// --- Bugs --------------------------------------------------------------------

void options_variable() {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
  auto a = torch::zeros({2, 3}, opts);
  auto b = a + torch::ones({2, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'a' is on cuda and 'torch::ones({2, 3})' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'a' is on cuda: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'torch::ones({2, 3})' is on cpu: created here
}

void options_of_a_tensor(torch::Device device) {
  auto cpu_options = torch::ones(1).to(torch::kFloat).options();
  auto x = torch::randn({4, 3}).to(device);
  auto mask = torch::zeros({4, 3}, cpu_options);
  auto y = x * mask;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator*' combines tensors on different devices: 'x' is on 'device' and 'mask' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'x' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: 'mask' is on cpu: created here
}

void literal_tensors(torch::Device device) {
  auto x = torch::tensor({{1.0f, 2.0f}, {3.0f, 4.0f}});
  auto w = torch::randn({2, 2}).to(device);
  auto y = x.matmul(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'matmul' combines tensors on different devices: 'x' is on cpu and 'w' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'w' is on 'device': moved here
  std::vector<double> values{1.0, 2.0};
  auto v = torch::tensor(values);
  auto z = v + torch::randn({2}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator+' combines tensors on different devices: 'v' is on cpu and 'torch::randn({2}).to(device)' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'v' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: 'torch::randn({2}).to(device)' is on 'device': moved here
}

void literal_dtypes() {
  auto values = torch::tensor({1.5, 2.5});
  auto weights = torch::randn({2, 2}, torch::kFloat64);
  auto y = values.matmul(weights);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'matmul' does not promote dtypes: 'values' is float32 and 'weights' is float64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'values' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: 'weights' is float64: created here
  double buffer[6] = {};
  auto blob = torch::from_blob(buffer, {2, 3}, torch::kFloat64);
  auto z = blob.matmul(torch::randn({3, 2}));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'matmul' does not promote dtypes: 'blob' is float64 and 'torch::randn({3, 2})' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'blob' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'torch::randn({3, 2})' is float32: created here
}

void shape_ops(torch::Device device) {
  auto image = torch::rand({3, 224, 224});
  auto input = image.unsqueeze(0);
  auto w = torch::randn({1, 3, 224, 224}).to(device);
  auto y = input * w;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'operator*' combines tensors on different devices: 'input' is on cpu and 'w' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:16: note: 'input' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: 'w' is on 'device': moved here
  auto flat = torch::rand({4, 5}).flatten();
  auto z = flat + torch::randn({20}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'operator+' combines tensors on different devices: 'flat' is on cpu and 'torch::randn({20}).to(device)' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'flat' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-3]]:38: note: 'torch::randn({20}).to(device)' is on 'device': moved here
}

void einsum_operands(torch::Device device) {
  auto a = torch::randn({2, 3});
  auto b = torch::randn({3, 4}).to(device);
  auto c = torch::einsum("ij,jk->ik", {a, b});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'einsum' combines tensors on different devices: 'a' is on cpu and 'b' is on 'device' [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'a' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: 'b' is on 'device': moved here
}

void loss_module(torch::Device device) {
  torch::nn::CrossEntropyLoss criterion;
  auto logits = torch::randn({8, 10}).to(device);
  auto labels = torch::zeros({8}, torch::kLong);
  auto loss = criterion(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator()' combines tensors on different devices: 'logits' is on 'device' and 'labels' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: 'logits' is on 'device': moved here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'labels' is on cpu: created here
}

// TensorOptions::dtype() takes an optional<ScalarType>: what it holds.
void options_dtype_setter() {
  double values[] = {1, 2, 3, 4, 5};
  auto options = torch::TensorOptions().dtype(torch::kFloat64);
  torch::Tensor x = torch::from_blob(values, {1, 5}, options);
  torch::nn::Linear lin(5, 1);
  auto y = lin->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'x' is float64 but 'lin' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'x' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'lin' has float32 parameters: created here
  auto z = lin->forward(torch::zeros({1, 5}, torch::TensorOptions().dtype(torch::kFloat64)));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'torch::zeros({{.*}}' is float64 but 'lin' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: 'torch::zeros({{.*}}' is float64: created here
  // CHECK-MESSAGES: :[[@LINE-8]]:21: note: 'lin' has float32 parameters: created here
}

// torch::requires_grad() is a TensorOptions with only that set: the
// tensor is on the default device, the cpu.
void requires_grad_helper() {
  torch::nn::Linear net(2, 2);
  net->to(torch::kCUDA);
  torch::Tensor a = torch::ones({2, 2}, torch::requires_grad());
  auto out = net->forward(a + torch::randn({2, 2}));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: input 'a + torch::randn({2, 2})' is on cpu but 'net' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'a + torch::randn({2, 2})' is on cpu: computed here
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'net' was moved to cuda here
  // CHECK-FIXES: {{^}}  auto out = net->forward((a + torch::randn({2, 2})).to(torch::kCUDA));{{$}}
}

// --- Clean -------------------------------------------------------------------

void options_dtype_setter_agrees(torch::Device device) {
  float values[] = {1, 2, 3, 4, 5};
  auto options = torch::TensorOptions().dtype(torch::kFloat32);
  torch::nn::Linear lin(5, 1);
  auto y = lin->forward(torch::from_blob(values, {1, 5}, options));
  auto z = lin->forward(torch::zeros({1, 5}, torch::TensorOptions().dtype(torch::kFloat64)).to(torch::kFloat));
  lin->to(device);
  auto w = lin->forward(torch::ones({1, 5}, torch::requires_grad()).to(device));
  auto v = lin->forward(torch::ones({1, 5}, torch::TensorOptions().device(device).requires_grad(true)));
}

void options_changed(torch::Device device) {
  auto opts = torch::TensorOptions().dtype(torch::kFloat);
  opts = opts.device(device);
  auto a = torch::zeros({2, 3}, opts);
  auto b = a + torch::ones({2, 3}).to(device);
  auto unknown = options_from_config();
  auto c = torch::zeros({2, 3}, unknown) + a;
}

void options_of_a_moved_tensor(torch::Device device) {
  auto gpu_options = torch::ones(1).to(torch::kFloat).to(device).options();
  auto x = torch::randn({4, 3}).to(device);
  auto mask = torch::zeros({4, 3}, gpu_options);
  auto y = x * mask;
}

void scalar_literals(torch::Device device) {
  auto w = torch::randn({2, 2}).to(device);
  auto scale = torch::tensor(2.0);
  auto y = w * scale;
  auto x = torch::tensor({{1.0f, 2.0f}, {3.0f, 4.0f}}).to(device);
  auto z = x.matmul(w);
}

void literal_dtypes_agree() {
  auto values = torch::tensor({1.5, 2.5});
  auto weights = torch::randn({2, 2});
  auto y = values.matmul(weights);
  auto ids = torch::tensor({1, 2, 3});
  auto counts = torch::tensor({4, 5, 6});
  auto d = ids.dot(counts);
  float buffer[6] = {};
  auto blob = torch::from_blob(buffer, {2, 3});
  auto z = blob.matmul(torch::randn({3, 2}));
}

void shape_ops_moved(torch::Device device) {
  auto image = torch::rand({3, 224, 224});
  auto input = image.unsqueeze(0).to(device);
  auto w = torch::randn({1, 3, 224, 224}).to(device);
  auto y = input * w;
  auto total = torch::rand({4, 5}).sum();
  auto z = total + torch::randn({20}).to(device);
}

void einsum_same_device(torch::Device device) {
  auto a = torch::randn({2, 3}).to(device);
  auto b = torch::randn({3, 4}).to(device);
  auto c = torch::einsum("ij,jk->ik", {a, b});
}

void loss_module_same_device(torch::Device device) {
  torch::nn::CrossEntropyLoss criterion;
  auto logits = torch::randn({8, 10}).to(device);
  auto labels = torch::zeros({8}, torch::kLong).to(device);
  auto loss = criterion(logits, labels);
  torch::nn::CTCLoss ctc;
  auto lengths = torch::full({8}, 10, torch::kLong);
  auto l2 = ctc(logits.log_softmax(1).unsqueeze(0), labels, lengths, lengths);
}
