// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// Layers kept in a std::vector member instead of a registered ModuleList:
// Module::to and the casts walk registered children only, so the layers
// stay on the cpu in float32 when their module moves
// (pytorch/pytorch#1053). The class must be the only code that touches the
// vector: it adds freshly built layers in its constructors and calls them.
#include <torch/torch.h>
#include <string>
#include <vector>

// --- Bugs --------------------------------------------------------------------

struct TextCnnImpl : torch::nn::Module {
  TextCnnImpl() {
    for (int64_t k : {3, 4, 5})
      convs.push_back(torch::nn::Conv1d(torch::nn::Conv1dOptions(50, 1, k)));
    fc = register_module("fc", torch::nn::Linear(3, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> feats;
    for (auto &conv : convs)
      feats.push_back(std::get<0>(conv(x).max(2)));
      // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: input 'x' is on cuda but 'conv' is on cpu [tensor-unmoved-input]
      // CHECK-MESSAGES: :[[@LINE+15]]:14: note: 'x' is on cuda: created here
      // CHECK-MESSAGES: :[[@LINE-9]]:23: note: 'conv' is built here on cpu and never registered with register_module: moving its module does not move it
      // CHECK-MESSAGES: :[[@LINE+13]]:10: note: in the call to 'forward' here
    return fc(torch::cat(feats, 1));
  }

private:
  std::vector<torch::nn::Conv1d> convs{};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(TextCnn);

torch::Tensor text_cnn() {
  TextCnn net;
  net->to(torch::kCUDA);
  return net(torch::randn({8, 50, 20}, torch::kCUDA));
}

struct StackImpl : torch::nn::Module {
  explicit StackImpl(int64_t depth) : layers() {
    for (int64_t i = 0; i < depth; ++i)
      layers.emplace_back(torch::nn::Linear(16, 16));
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> heads;
    for (size_t i = 0; i + 1 < layers.size(); ++i)
      heads.push_back(layers[i](x));
      // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: input 'x' is float64 but 'layers[i]' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
      // CHECK-MESSAGES: :[[@LINE+18]]:14: note: 'x' is float64: created here
      // CHECK-MESSAGES: :[[@LINE-8]]:27: note: 'layers[i]' is built here with float32 parameters and never registered with register_module: casting its module does not cast it
      // CHECK-MESSAGES: :[[@LINE+16]]:10: note: in the call to 'forward' here
    return torch::stack(heads).sum(0) + layers.back()->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: input 'x' is float64 but 'layers.back()' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
    // CHECK-MESSAGES: :[[@LINE+13]]:14: note: 'x' is float64: created here
    // CHECK-MESSAGES: :[[@LINE-13]]:27: note: 'layers.back()' is built here with float32 parameters and never registered with register_module: casting its module does not cast it
    // CHECK-MESSAGES: :[[@LINE+11]]:10: note: in the call to 'forward' here
  }

private:
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(Stack);

torch::Tensor stack_in_double() {
  Stack net(3);
  net->to(torch::kFloat64);
  return net(torch::randn({4, 16}, torch::kFloat64));
}

// --- Clean -------------------------------------------------------------------

// Each layer registered as it is added.
struct RegisteredImpl : torch::nn::Module {
  RegisteredImpl() {
    for (int i = 0; i < 3; ++i)
      layers.push_back(register_module("fc" + std::to_string(i),
                                       torch::nn::Linear(16, 16)));
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }

private:
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(Registered);

torch::Tensor registered() {
  Registered net;
  net->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// Registered after they were all added.
struct RegisteredLaterImpl : torch::nn::Module {
  RegisteredLaterImpl() {
    for (int i = 0; i < 3; ++i)
      layers.push_back(torch::nn::Linear(16, 16));
    for (size_t i = 0; i < layers.size(); ++i)
      register_module("fc" + std::to_string(i), layers[i]);
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }

private:
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(RegisteredLater);

torch::Tensor registered_later() {
  RegisteredLater net;
  net->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// The class moves the layers itself.
struct MovesItsLayersImpl : torch::nn::Module {
  MovesItsLayersImpl() {
    for (int i = 0; i < 2; ++i)
      layers.push_back(torch::nn::Linear(16, 16));
  }
  void place(torch::Device device) {
    for (auto &layer : layers)
      layer->to(device);
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }

private:
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(MovesItsLayers);

torch::Tensor moves_its_layers() {
  MovesItsLayers net;
  net->place(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// Filled with layers registered first.
struct FilledFromRegisteredImpl : torch::nn::Module {
  FilledFromRegisteredImpl() {
    for (int i = 0; i < 2; ++i) {
      auto layer = torch::nn::Linear(16, 16);
      register_module("fc" + std::to_string(i), layer);
      layers.push_back(layer);
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }

private:
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(FilledFromRegistered);

torch::Tensor filled_from_registered() {
  FilledFromRegistered net;
  net->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// A ModuleList, registered: the fix.
struct ListImpl : torch::nn::Module {
  ListImpl() {
    layers = register_module("layers", torch::nn::ModuleList());
    for (int i = 0; i < 2; ++i)
      layers->push_back(torch::nn::Linear(16, 16));
  }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (const auto &layer : *layers)
      outs.push_back(layer->as<torch::nn::LinearImpl>()->forward(x));
    return torch::stack(outs);
  }
  torch::nn::ModuleList layers{nullptr};
};
TORCH_MODULE(List);

torch::Tensor module_list() {
  List net;
  net->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// A public vector that code outside the class fills.
struct OpenImpl : torch::nn::Module {
  OpenImpl() { layers.push_back(torch::nn::Linear(16, 16)); }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }
  std::vector<torch::nn::Linear> layers;
};
TORCH_MODULE(Open);

torch::Tensor open_vector() {
  Open net;
  net->layers[0]->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}

// Nothing moves: the layers are where the input is.
torch::Tensor all_on_cpu() {
  TextCnn net;
  return net(torch::randn({8, 50, 20}));
}

// Handed to another member in a constructor's initialiser: what is done
// through the pointer is not followed.
struct HandedOutImpl : torch::nn::Module {
  HandedOutImpl() : view(&layers) {
    layers.push_back(torch::nn::Linear(16, 16));
  }
  std::vector<torch::nn::Linear> *registry() { return view; }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outs;
    for (auto &layer : layers)
      outs.push_back(layer(x));
    return torch::stack(outs);
  }

private:
  std::vector<torch::nn::Linear> layers;
  std::vector<torch::nn::Linear> *view;
};
TORCH_MODULE(HandedOut);

torch::Tensor handed_out() {
  HandedOut net;
  for (auto &layer : *net->registry())
    layer->to(torch::kCUDA);
  return net(torch::randn({4, 16}, torch::kCUDA));
}
