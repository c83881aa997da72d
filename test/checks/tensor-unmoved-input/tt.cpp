// RUN: %check_tidy %s tensor-unmoved-input,tensor-mixed-dtype %t -- -- -std=c++20 %tt_include

// The project's own nn API through its real headers: tt modules are used by
// value or through std::shared_ptr, and move in place with to().
#include <tt/tt.h>

struct Mlp : tt::nn::Module {
  tt::Tensor forward(const tt::Tensor &x, tt::SourceLoc loc = tt::SourceLoc::current()) override;
};

void bugs(tt::Device device, tt::data::DataLoader &loader) {
  tt::nn::Linear fc(784, 10);
  fc.to(device);
  auto x = tt::randn({64, 784});
  auto y = fc.forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: input 'x' is on cpu but 'fc' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:6: note: 'fc' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto y = fc.forward(x.to(device));{{$}}
  auto model = std::make_shared<Mlp>();
  model->to(tt::kCUDA);
  for (auto &batch : loader) {
    auto out = (*model)(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'batch.data' is on cpu but 'model' is on cuda
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'batch.data' is on cpu: batches come from the data loader on the cpu
    // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'model' was moved to cuda here
    // CHECK-FIXES: {{^}}    auto out = (*model)(batch.data.to(tt::kCUDA));{{$}}
    (void)out;
  }
  fc.to(tt::kHalf);
  auto z = fc(x.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: input 'x.to(device)' is float32 but 'fc' has float16 parameters; modules do not promote their input [tensor-mixed-dtype]
  (void)y, (void)z;
}

void clean(tt::Device device, tt::data::DataLoader &loader) {
  tt::nn::Linear fc(784, 10);
  fc.to(device);
  for (auto &batch : loader) {
    auto data = batch.data.to(device), target = batch.target.to(device);
    auto out = fc(data);
    auto loss = tt::nn::functional::cross_entropy(out, target);
    (void)loss;
  }
  tt::nn::Linear cpu_fc(4, 2);
  auto y = cpu_fc.forward(tt::ones({1, 4}));   // both on the cpu
  (void)y;
}
