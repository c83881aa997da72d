#include "Sites.h"

#include <cctype>
#include <cstring>

namespace tensor_run {

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool is_user_forward(const Frame& f) {
  return is_user_frame(f) && unqualified_name(qualified_name(f.function)) == "forward";
}

bool is_forward(const Frame& f) { return is_user_forward(f) || !libtorch_module_of(f).empty(); }

std::size_t innermost_user_frame(const std::vector<Frame>& frames) {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (is_user_frame(frames[i])) return i;
  return npos;
}

// The user frame that called the outermost forward (npos when none is
// found: a forward called from a library, e.g. a DataLoader worker).
std::size_t caller_of_outermost_forward(const std::vector<Frame>& frames) {
  std::size_t outermost = npos;
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (is_forward(frames[i])) outermost = i;
  if (outermost == npos) return npos;
  for (std::size_t i = outermost + 1; i < frames.size(); ++i)
    if (is_user_frame(frames[i])) return i;
  return npos;
}

// Library frames a conversion passes through on its way from the user's
// call to the kernel: the dispatcher, the op wrappers, autograd, at::native.
// Any other library frame (torch::nn::Module::to, an optimizer, a data
// loader) means the library converted, not the user.
bool is_plumbing(const Frame& f) {
  const std::string name = qualified_name(f.function);
  if (name.empty()) return f.kind == ObjectKind::LibTorch;  // unnamed static wrappers
  if (!starts_with(name, "torch::")) return true;           // at::, c10::, std::
  return starts_with(name, "torch::autograd::") || starts_with(name, "torch::ADInplaceOrView::");
}

}  // namespace

std::string libtorch_module_of(const Frame& frame) {
  const std::string name = qualified_name(frame.function);
  if (starts_with(name, "torch::jit::Module::") || starts_with(name, "torch::jit::Method::"))
    return "TorchScript module";
  if (!starts_with(name, "torch::nn::")) return "";
  const std::string last = unqualified_name(name);
  if (last != "forward" && last != "operator()" && last != "forward_with_indices") return "";
  if (starts_with(name, "torch::nn::AnyModule") || starts_with(name, "torch::nn::ModuleHolder")) {
    // The holder's call operator: the layer is in its template argument.
    const auto impl = name.rfind("Impl");
    const auto colons = impl == std::string::npos ? std::string::npos : name.rfind("::", impl);
    if (impl != std::string::npos && colons != std::string::npos && colons + 2 < impl)
      return name.substr(colons + 2, impl - colons - 2);
    return "module";
  }
  // torch::nn::LinearImpl::forward, torch::nn::BatchNormImplBase<2, torch::nn::BatchNorm2dImpl>::forward
  std::string layer;
  std::size_t pos = 0;
  while ((pos = name.find("torch::nn::", pos)) != std::string::npos) {
    pos += 11;
    std::size_t end = pos;
    while (end < name.size() && (std::isalnum(static_cast<unsigned char>(name[end])) || name[end] == '_')) ++end;
    const std::string word = name.substr(pos, end - pos);
    if (word.size() > 4 && word.compare(word.size() - 4, 4, "Impl") == 0) layer = word.substr(0, word.size() - 4);
  }
  return layer.empty() ? "module" : layer;
}

bool layer_has_parameters(const std::string& layer) {
  auto ends_with = [&](const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return layer.size() >= n && layer.compare(layer.size() - n, n, suffix) == 0;
  };
  if (layer.empty() || layer == "module" || ends_with("Loss")) return false;
  if (layer == "TorchScript module") return true;
  static const char* const kWithout[] = {"Sequential",
                                         "ModuleList",
                                         "ModuleDict",
                                         "AnyModule",
                                         "Functional",
                                         "Identity",
                                         "Flatten",
                                         "Unflatten",
                                         "ReLU",
                                         "ReLU6",
                                         "RReLU",
                                         "LeakyReLU",
                                         "ELU",
                                         "SELU",
                                         "CELU",
                                         "GELU",
                                         "GLU",
                                         "SiLU",
                                         "Mish",
                                         "Sigmoid",
                                         "LogSigmoid",
                                         "Tanh",
                                         "Tanhshrink",
                                         "Softmax",
                                         "Softmax2d",
                                         "LogSoftmax",
                                         "Softmin",
                                         "Softplus",
                                         "Softshrink",
                                         "Softsign",
                                         "Hardshrink",
                                         "Hardtanh",
                                         "Threshold",
                                         "Dropout",
                                         "Dropout2d",
                                         "Dropout3d",
                                         "AlphaDropout",
                                         "FeatureAlphaDropout",
                                         "PixelShuffle",
                                         "PixelUnshuffle",
                                         "Upsample",
                                         "Fold",
                                         "Unfold",
                                         "CosineSimilarity",
                                         "PairwiseDistance",
                                         "ChannelShuffle",
                                         "LocalResponseNorm",
                                         "CrossMapLRN2d"};
  for (const char* name : kWithout)
    if (layer == name) return false;
  for (const char* family : {"MaxPool", "AvgPool", "AdaptiveMaxPool", "AdaptiveAvgPool", "LPPool", "FractionalMaxPool",
                             "MaxUnpool", "ZeroPad", "ConstantPad", "ReflectionPad", "ReplicationPad"})
    if (starts_with(layer, family)) return false;
  return true;
}

Placement place(ViolationKind kind, bool parameter_involved, const std::vector<Frame>& frames) {
  const std::size_t innermost = innermost_user_frame(frames);
  if (kind == ViolationKind::DiscardedCast) {
    if (innermost == npos) return {"tensor-discarded-cast", npos, ""};
    for (std::size_t i = 0; i < innermost; ++i)
      if (!is_plumbing(frames[i])) return {"tensor-discarded-cast", npos, ""};
    return {"tensor-discarded-cast", innermost, ""};
  }
  const bool device = kind == ViolationKind::Device;
  // The innermost LibTorch layer between the op and the user's code.
  std::string layer;
  for (std::size_t i = 0; i < frames.size() && i < innermost && layer.empty(); ++i)
    layer = libtorch_module_of(frames[i]);
  if (layer_has_parameters(layer) || parameter_involved) {
    const std::size_t call = caller_of_outermost_forward(frames);
    if (call != npos) return {device ? "tensor-unmoved-input" : "tensor-mixed-dtype", call, layer};
  }
  return {device ? "tensor-mixed-device" : "tensor-mixed-dtype", innermost, layer};
}

}  // namespace tensor_run
