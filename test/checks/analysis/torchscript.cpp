// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// TorchScript inference: torch::jit::Module moves in place like nn modules,
// its forward({x}) takes the input boxed in IValues and .toTensor() unboxes
// the output. A module loaded from a file is wherever it was saved, or on
// the device load() is given.
#include <torch/script.h>
#include <iostream>
#include <vector>

int bug() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module module = torch::jit::load("model.pt");
  module.to(device);
  module.eval();
  auto input = torch::rand({1, 3, 224, 224});
  auto output = module.forward({input}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: input 'input' is on cpu but 'module' is on 'device' [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'input' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'module' was moved to 'device' here
  // CHECK-FIXES: {{^}}  auto output = module.forward({input.to(device)}).toTensor();{{$}}
  auto labels = torch::zeros({1}, torch::kLong);
  auto correct = output.argmax(1).eq(labels).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'eq' combines tensors on different devices: 'output.argmax(1)' is on 'device' and 'labels' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-11]]:10: note: 'output.argmax(1)' is on 'device': output of a module placed here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'labels' is on cpu: created here
  return correct.item<int>();
}

// The TorchScript tutorial's shape: inputs gathered in a vector.
torch::Tensor tutorial(const std::string &path) {
  torch::jit::script::Module module = torch::jit::load(path);
  module.to(at::kCUDA);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3, 224, 224}));
  return module.forward(inputs).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: input 'inputs' is on cpu but 'module' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'inputs' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'module' was moved to cuda here
}

// Loaded straight onto a device: torch::jit::load(path, device).
torch::Tensor loaded_onto_device(const std::string &path) {
  torch::jit::Module module = torch::jit::load(path, torch::kCUDA);
  return module.forward({torch::ones({1, 3, 224, 224})}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: input 'torch::ones({1, 3, 224, 224})' is on cpu but 'module' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: 'torch::ones({1, 3, 224, 224})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: 'module' was loaded onto cuda here
}

// The tutorials' shape: the module declared first, then loaded in a try
// block. load() returns a module no other handle shares, so the
// assignment gives `module` its device.
torch::Tensor assigned_after_declaration(const std::string &path) {
  torch::jit::script::Module module;
  try {
    module = torch::jit::load(path, torch::Device(torch::kCUDA, 0));
  } catch (const c10::Error &) {
    return torch::Tensor();
  }
  auto x = torch::rand({1, 3, 64, 64});
  return module.forward({x}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: input 'x' is on cpu but 'module' is on cuda:0 [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'x' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-8]]:14: note: 'module' was loaded onto cuda:0 here
}

// When the load fails and the catch goes on, `module` is the empty module,
// whose forward() throws: every forward() that runs has it on cuda.
torch::Tensor load_failure_not_returning(const std::string &path) {
  torch::jit::Module module;
  try {
    module = torch::jit::load(path, torch::kCUDA);
  } catch (const c10::Error &) {
    std::cerr << "could not load " << path << "\n";
  }
  return module.forward({torch::rand({1, 3})}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: input 'torch::rand({1, 3})' is on cpu but 'module' is on cuda [tensor-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: 'torch::rand({1, 3})' is on cpu: created here
  // CHECK-MESSAGES: :[[@LINE-7]]:14: note: 'module' was loaded onto cuda here
}

torch::Tensor clean_assigned(const std::string &path, torch::jit::Module &other) {
  torch::jit::Module module;
  module = torch::jit::load(path, torch::kCUDA);
  auto a = module.forward({torch::rand({1, 3}).to(torch::kCUDA)}).toTensor();
  auto b = torch::jit::load(path).forward({torch::rand({1, 3})}).toTensor();
  torch::jit::Module shared;
  shared = other;              // two handles on one module: where it is
  other.to(torch::kCUDA);      // is not known from `shared` alone
  auto c = shared.forward({torch::rand({1, 3})}).toTensor();
  return a.cpu() + b + c;
}

torch::Tensor clean_loaded(const std::string &path, torch::Device device) {
  auto on_device = torch::jit::load(path, device);
  auto a = on_device.forward({torch::ones({1, 3}).to(device)}).toTensor();
  auto on_cpu = torch::jit::load(path, torch::kCPU);
  auto b = on_cpu.forward({torch::ones({1, 3})}).toTensor();
  return a.cpu() + b;
}

int clean() {
  torch::Device device(torch::kCUDA);
  torch::jit::Module module = torch::jit::load("model.pt");
  module.to(device);
  auto input = torch::rand({1, 3, 224, 224}).to(device);
  auto output = module.forward({input}).toTensor();
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::rand({1, 3, 224, 224}).to(device));
  auto out2 = module.forward(inputs).toTensor();
  torch::jit::Module loaded = torch::jit::load("model.pt");     // where it was saved
  auto out3 = loaded.forward({torch::rand({1, 3, 224, 224})}).toTensor();
  std::vector<torch::jit::IValue> mixed;                         // one input on the
  mixed.push_back(torch::rand({1, 3, 224, 224}).to(device));     // device, one on the
  mixed.push_back(torch::rand({1, 3, 224, 224}));                // cpu: not all inputs
  auto out4 = module.forward(mixed).toTensor();                  // need be on its device
  std::vector<torch::jit::IValue> refilled;
  refilled.push_back(torch::rand({1, 3, 224, 224}));
  refilled.clear();
  refilled.push_back(torch::rand({1, 3, 224, 224}).to(device));
  auto out5 = module.forward(refilled).toTensor();
  auto out6 = module.forward({torch::tensor(0.5)}).toTensor();   // a 0-dim cpu scalar
  module.to(torch::kHalf);                                       // the script may cast
  auto out7 = module.forward({torch::rand({1, 3, 224, 224}).to(device)}).toTensor();
  return (output.sum() + out2.sum() + out3.sum() + out4.sum() + out5.sum() +
          out6.sum() + out7.sum()).item<int>();
}
